/* One chunk of a parallel load (load_split.c): body lines parsed by one
 * thread into the chunk's own arrays and flow table. A chunk formats no
 * message: a line it cannot take (a syntax error, a broken rule, anything
 * unusual such as a second `end`) marks it failed, and the whole input is
 * loaded again serially, so that every message, and which one comes first,
 * is the serial loader's. Lines of the usual shape take the fast path
 * (load_fast.c), which hands their elements to the ifds_chunk_* calls here
 * when L->chunk is set. */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "engine/ifds/load.h"

/* How often (bytes) a chunk looks at the stop flag and drops parsed pages. */
enum { CHUNK_STEP = 8u << 20 };

void ifds_chunk_init(ifds_chunk *c, const ifds_loader *main, const char *start, const char *end) {
  memset(c, 0, sizeof *c);
  c->start = start;
  c->end = end;
  ifds_loader *L = &c->L;
  L->name = main->name;
  L->line = 1;
  L->stage = IFDS_STAGE_BODY;
  L->chunk = 1;
  L->threads = 1;
  L->facts = main->facts;
  L->procs = main->procs;
  L->nodes = main->nodes;
  ifds_builder *b = &L->b;
  b->facts = main->facts;
  b->procs = main->procs;
  b->nodes = main->nodes;
  b->lines = 1;
  b->body = 1;
  /* read only here: the proc section closed before the chunks started */
  b->proc_first = main->b.proc_first;
  b->proc_last = main->b.proc_last;
  b->node_proc = main->b.node_proc;
  ifds_flow_table_init(&b->flows);
}

void ifds_chunk_free(ifds_chunk *c) {
  ifds_builder *b = &c->L.b;
  ifds_vec *vecs[] = {&b->edge_from,          &b->edge_to,     &b->edge_flow,        &b->edge_line,
                      &b->call_node,          &b->call_return, &b->call_flow,        &b->call_line,
                      &b->callee_site,        &b->callee_proc, &b->callee_call_flow,
                      &b->callee_return_flow, &b->callee_line, &b->seed_node,        &b->seed_fact};
  for (size_t i = 0; i < sizeof vecs / sizeof vecs[0]; ++i) ifds_vec_free(vecs[i]);
  ifds_flow_table_free(&b->flows);
  free(c->flow_map);
  c->flow_map = NULL;
  free(c->L.tokens.slots);
  c->L.tokens.slots = NULL;
}

/* ---- the elements ------------------------------------------------------------ */

/* One value onto each of `count` vectors, all or none. */
static weir_status push_all(ifds_vec *const *vecs, const uint32_t *values, size_t count) {
  for (size_t i = 0; i < count; ++i)
    if (vecs[i]->len == vecs[i]->cap) WEIR_TRY(ifds_vec_reserve(vecs[i], 1));
  for (size_t i = 0; i < count; ++i) vecs[i]->data[vecs[i]->len++] = values[i];
  return WEIR_OK;
}

/* The rules of build_body.c's edge_rules that need no other body line. */
weir_status ifds_chunk_edge(ifds_loader *L, uint32_t from, uint32_t to, uint32_t flow) {
  ifds_builder *b = &L->b;
  uint32_t p = b->node_proc[from];
  if (b->node_proc[to] != p || from == b->proc_last[p]) return WEIR_ERR_PARSE;
  ifds_vec *vecs[] = {&b->edge_from, &b->edge_to, &b->edge_flow, &b->edge_line};
  uint32_t values[] = {from, to, flow, ifds_line32(L)};
  return push_all(vecs, values, 4);
}

/* call_rules and return_rules less the ones between lines (duplicate call,
 * edges out of the call node): those are the merge's. */
weir_status ifds_chunk_call(ifds_loader *L, uint32_t site, uint32_t ret, uint32_t flow) {
  ifds_builder *b = &L->b;
  uint32_t p = b->node_proc[site];
  if (site == b->proc_last[p] || ret == site || b->node_proc[ret] != p || ret == b->proc_first[p])
    return WEIR_ERR_PARSE;
  ifds_vec *vecs[] = {&b->call_node, &b->call_return, &b->call_flow, &b->call_line};
  uint32_t values[] = {site, ret, flow, ifds_line32(L)};
  return push_all(vecs, values, 4);
}

weir_status ifds_chunk_callee(ifds_loader *L, uint32_t site, uint32_t proc, uint32_t call_flow,
                              uint32_t return_flow) {
  ifds_builder *b = &L->b;
  ifds_vec *vecs[] = {&b->callee_site, &b->callee_proc, &b->callee_call_flow,
                      &b->callee_return_flow, &b->callee_line};
  uint32_t values[] = {site, proc, call_flow, return_flow, ifds_line32(L)};
  return push_all(vecs, values, 5);
}

weir_status ifds_chunk_seed(ifds_loader *L, uint32_t node, uint32_t fact) {
  ifds_builder *b = &L->b;
  ifds_vec *vecs[] = {&b->seed_node, &b->seed_fact};
  uint32_t values[] = {node, fact};
  return push_all(vecs, values, 2);
}

/* ---- lines outside the fast path ---------------------------------------------- */

/* Token i as a number below `limit`. */
static int index_below(const ifds_loader *L, size_t i, uint32_t limit, uint32_t *out) {
  return ifds_parse_u32(L->tok[i].text, L->tok[i].length, out) == IFDS_NUMBER_OK && *out < limit;
}

static int flow_token(ifds_loader *L, size_t i, uint32_t *out) {
  ifds_flow_error err;
  return ifds_flow_parse(&L->b.flows, L->tok[i].text, L->tok[i].length, L->facts, out, &err) ==
         WEIR_OK;
}

static int is(const ifds_token *t, const char *word, size_t n) {
  return t->length == n && memcmp(t->text, word, n) == 0;
}

/* `end A B C D`: kept for the merge, which knows the counts above the chunk. */
static int end_line(ifds_chunk *c) {
  ifds_loader *L = &c->L;
  for (size_t i = 0; i < 4; ++i)
    if (ifds_parse_u32(L->tok[i + 1].text, L->tok[i + 1].length, &c->end_want[i]) !=
        IFDS_NUMBER_OK)
      return 0;
  const ifds_builder *b = &L->b;
  c->end_have[0] = b->edge_from.len;
  c->end_have[1] = b->call_node.len;
  c->end_have[2] = b->callee_site.len;
  c->end_have[3] = b->seed_node.len;
  c->end_line = L->line;
  L->stage = IFDS_STAGE_END;
  return 1;
}

/* A body line in the general form (comments, tabs, CR LF, ...): 1 when taken. */
static int body_line(ifds_chunk *c) {
  ifds_loader *L = &c->L;
  const ifds_token *t = &L->tok[0];
  size_t n = L->tok_count;
  uint32_t v[4];
  if (L->stage == IFDS_STAGE_END) return 0; /* content after `end`: the serial load says so */
  if (is(t, "edge", 4) && n == 4)
    return index_below(L, 1, L->nodes, &v[0]) && index_below(L, 2, L->nodes, &v[1]) &&
           flow_token(L, 3, &v[2]) && ifds_chunk_edge(L, v[0], v[1], v[2]) == WEIR_OK;
  if (is(t, "call", 4) && n == 4)
    return index_below(L, 1, L->nodes, &v[0]) && index_below(L, 2, L->nodes, &v[1]) &&
           flow_token(L, 3, &v[2]) && ifds_chunk_call(L, v[0], v[1], v[2]) == WEIR_OK;
  if (is(t, "callee", 6) && n == 5)
    return index_below(L, 1, L->nodes, &v[0]) && index_below(L, 2, L->procs, &v[1]) &&
           flow_token(L, 3, &v[2]) && flow_token(L, 4, &v[3]) &&
           ifds_chunk_callee(L, v[0], v[1], v[2], v[3]) == WEIR_OK;
  if (is(t, "seed", 4) && n == 3)
    return index_below(L, 1, L->nodes, &v[0]) && index_below(L, 2, L->facts, &v[1]) &&
           ifds_chunk_seed(L, v[0], v[1]) == WEIR_OK;
  if (is(t, "end", 3) && n == 5) return end_line(c);
  return 0;
}

static int general_line(ifds_chunk *c, const char *start, const char *lf) {
  ifds_loader *L = &c->L;
  L->line_start = start;
  if (ifds_load_tokenize(L, start, lf) != WEIR_OK) return 0;
  if (L->tok_count == 0) return 1;
  c->directives++;
  return body_line(c);
}

/* ---- the chunk ------------------------------------------------------------------ */

/* Every CHUNK_STEP bytes: stop when another chunk failed; drop the pages of
 * a mapped file wholly parsed (the page cache keeps them), as the serial
 * load does, so that the file does not add its size to the peak memory. */
static int step(ifds_chunk *c, const char *p, const char **dropped) {
  if (atomic_load_explicit(c->stop, memory_order_relaxed)) return 0;
  if (!c->drop_pages) return 1;
  uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
  uintptr_t from = ((uintptr_t)*dropped + page - 1) & ~(page - 1), to = (uintptr_t)p & ~(page - 1);
  if (to > from) madvise((void *)from, to - from, MADV_DONTNEED);
  if (to > from) *dropped = (const char *)to;
  uintptr_t ahead = (uintptr_t)p & ~(page - 1), stop = (uintptr_t)c->end;
  if (ahead < stop)
    madvise((void *)ahead, stop - ahead < CHUNK_STEP ? stop - ahead : CHUNK_STEP, MADV_WILLNEED);
  return 1;
}

void ifds_chunk_parse(ifds_chunk *c) {
  ifds_loader *L = &c->L;
  const char *p = c->start, *end = c->end, *mark = p, *dropped = p;
  while (p < end) {
    if (p >= mark) {
      if (!step(c, p, &dropped)) break;
      mark = p + CHUNK_STEP;
    }
    if (L->stage == IFDS_STAGE_BODY) {
      const char *next;
      (void)ifds_load_fast_line(L, p, end, &next); /* a chunk's fast path cannot fail */
      if (next) {
        ++L->line;
        p = next;
        continue;
      }
    }
    const char *lf = memchr(p, '\n', (size_t)(end - p));
    if (!lf || !general_line(c, p, lf)) break;
    ++L->line;
    p = lf + 1;
  }
  c->failed = p < end;
  if (c->drop_pages) step(c, end, &dropped);
}
