/* The IDE engine's rule relation: one pass over phase 0's path edges that
 * writes down every instance of the reference solver's rules
 * (reference.c, docs/ide-format.md "What a solver computes") as
 *   target ⊒ fns[f2] ∘ jf[src2] ∘ fns[f1] ∘ jf[src1]
 * with path-edge indices as sources and targets; phase 1 then iterates them
 * on the device. The join is structural (flows and path-edge sets only, no
 * function values), so it is done once, before the fixed point, and never
 * revisited. */
#include <stdlib.h>
#include <string.h>

#include "engine/ide/engine.h"
#include "programs/ide/ide_kernels.h"

/* A growing array of rules before they are grouped by target. */
typedef struct rule_buf {
  uint32_t *target, *words;
  uint64_t count, cap;
} rule_buf;

static weir_status emit(rule_buf *b, uint32_t t, uint32_t s1, uint32_t s2, uint32_t f1, uint32_t f2) {
  if (b->count == b->cap) {
    uint64_t cap = b->cap ? b->cap * 2 : 1024;
    uint32_t *tg = realloc(b->target, cap * sizeof *tg);
    if (tg) b->target = tg;
    uint32_t *w = tg ? realloc(b->words, cap * WEIR_IDE_RULE_WORDS * sizeof *w) : NULL;
    if (!w)
      return weir_fail(WEIR_ERR_OUT_OF_MEMORY, "IDE engine: no host memory for %llu rules. Fix: "
                       "free memory, or use the reference solver (weir ide without --backend).",
                       (unsigned long long)cap);
    b->words = w, b->cap = cap;
  }
  uint32_t *w = b->words + b->count * WEIR_IDE_RULE_WORDS;
  b->target[b->count++] = t;
  w[0] = s1, w[1] = s2, w[2] = f1, w[3] = f2;
  return WEIR_OK;
}

/* The index of path edge (d1, n, d2); a miss means phase 0 lacks an edge
 * the reference would derive. */
static weir_status find(const ide_solver *s, uint32_t d1, uint32_t n, uint32_t d2, uint32_t *out) {
  *out = WEIR_IDE_NIL; /* written on every path (gcc -O3 cannot see through WEIR_TRY) */
  const uint32_t *nf = ifds_map_find(&s->nf_of, ifds_key(n, d2));
  const uint32_t *pe = nf ? ifds_map_find(&s->pe_of, ifds_key(*nf, d1)) : NULL;
  if (pe) {
    *out = *pe;
    return WEIR_OK;
  }
  return weir_fail(WEIR_ERR_INTERNAL, "IDE engine: path edge (%u, %u, %u) follows from the IFDS "
                   "engine's path edges but is not among them. Fix: report this bug with the "
                   "problem; use the reference solver (weir ide without --backend).", d1, n, d2);
}

static uint32_t fn_index(const ide_solver *s, const uint32_t *offsets, uint32_t e, uint32_t a,
                         uint32_t b) {
  return (uint32_t)(ide_pair_fn(s->p, offsets, e, a, b) - s->p->fns);
}

/* Normal flow n -> m of path edge i = (d1, n, d2). */
static weir_status rules_edges(const ide_solver *s, rule_buf *b, ifds_vec *d3s, uint32_t i,
                               uint32_t d1, uint32_t n, uint32_t d2) {
  const weir_ifds_problem *g = s->g;
  for (uint32_t e = g->succ_offset[n]; e < g->succ_offset[n + 1]; ++e) {
    WEIR_TRY(ide_flow_targets(&g->flows, g->succ_flow[e], d2, d3s));
    for (size_t j = 0; j < d3s->len; ++j) {
      uint32_t t;
      WEIR_TRY(find(s, d1, g->succ_node[e], d3s->data[j], &t));
      WEIR_TRY(emit(b, t, i, WEIR_IDE_NIL, fn_index(s, s->p->edge_ann_offset, e, d2, d3s->data[j]), 0));
    }
  }
  return WEIR_OK;
}

/* Through callee k entered with d3: every exit path edge (d3, exit, d4) and
 * return pair d4 > d5 gives (d1, r, d5) ⊒ ret ∘ jf[x] ∘ call ∘ jf[i]. */
static weir_status rules_return(const ide_solver *s, rule_buf *b, ifds_vec *d5s, uint32_t i,
                                uint32_t d1, uint32_t c, uint32_t k, uint32_t d2, uint32_t d3) {
  const weir_ifds_problem *g = s->g;
  uint32_t r = g->call_return[c], call = fn_index(s, s->p->callee_call_ann_offset, k, d2, d3);
  const uint32_t *head = ifds_map_find(&s->end_sum, ifds_key(g->callee_proc[k], d3));
  for (uint32_t l = head ? *head : IDE_NIL; l != IDE_NIL; l = s->es_next.data[l]) {
    uint32_t x = s->es_pe.data[l], d4 = s->nf_fact.data[s->pe_nf.data[x]];
    WEIR_TRY(ide_flow_targets(&g->flows, g->callee_return_flow[k], d4, d5s));
    for (size_t j = 0; j < d5s->len; ++j) {
      uint32_t t, ret = fn_index(s, s->p->callee_return_ann_offset, k, d4, d5s->data[j]);
      WEIR_TRY(find(s, d1, r, d5s->data[j], &t));
      WEIR_TRY(emit(b, t, i, x, call, ret));
    }
  }
  return WEIR_OK;
}

/* Call c with path edge i = (d1, c, d2): call-to-return, entries (marked
 * in `entered`, one identity rule each later) and returns. */
static weir_status rules_call(const ide_solver *s, rule_buf *b, ifds_vec v[2], uint8_t *entered,
                              uint32_t i, uint32_t d1, uint32_t c, uint32_t d2) {
  const weir_ifds_problem *g = s->g;
  WEIR_TRY(ide_flow_targets(&g->flows, g->call_flow[c], d2, &v[0]));
  for (size_t j = 0; j < v[0].len; ++j) {
    uint32_t t;
    WEIR_TRY(find(s, d1, g->call_return[c], v[0].data[j], &t));
    WEIR_TRY(emit(b, t, i, WEIR_IDE_NIL, fn_index(s, s->p->call_ann_offset, c, d2, v[0].data[j]), 0));
  }
  for (uint32_t k = g->callee_offset[c]; k < g->callee_offset[c + 1]; ++k) {
    WEIR_TRY(ide_flow_targets(&g->flows, g->callee_call_flow[k], d2, &v[0]));
    ifds_vec d3s = v[0];
    v[0] = (ifds_vec){0};
    weir_status st = WEIR_OK;
    for (size_t j = 0; st == WEIR_OK && j < d3s.len; ++j) {
      uint32_t d3 = d3s.data[j], t;
      st = find(s, d3, g->proc_first[g->callee_proc[k]], d3, &t);
      if (st == WEIR_OK) entered[t] = 1;
      if (st == WEIR_OK) st = rules_return(s, b, &v[1], i, d1, c, k, d2, d3);
    }
    ifds_vec_free(&d3s);
    WEIR_TRY(st);
  }
  return WEIR_OK;
}

/* Seeds (a constant each: function fn_count + i) and entries (identity). */
static weir_status rules_constants(const ide_solver *s, rule_buf *b, const uint8_t *entered) {
  const weir_ifds_problem *g = s->g;
  for (uint32_t i = 0; i < g->seed_count; ++i) {
    uint32_t t;
    WEIR_TRY(find(s, 0, g->seed_node[i], g->seed_fact[i], &t));
    WEIR_TRY(emit(b, t, WEIR_IDE_NIL, WEIR_IDE_NIL, s->p->fn_count + i, 0));
  }
  for (uint32_t t = 0; t < s->pe_nf.len; ++t)
    if (entered[t]) WEIR_TRY(emit(b, t, WEIR_IDE_NIL, WEIR_IDE_NIL, 0, 0));
  return WEIR_OK;
}

static weir_status collect(const ide_solver *s, rule_buf *b) {
  const weir_ifds_problem *g = s->g;
  uint32_t E = (uint32_t)s->pe_nf.len;
  uint8_t *entered = calloc(E ? E : 1, 1);
  ifds_vec v[2] = {{0}, {0}};
  weir_status st = entered ? WEIR_OK
                           : weir_fail(WEIR_ERR_OUT_OF_MEMORY, "IDE engine: no host memory for "
                                       "%u flags. Fix: free memory.", E);
  for (uint32_t i = 0; st == WEIR_OK && i < E; ++i) {
    uint32_t nf = s->pe_nf.data[i], n = s->nf_node.data[nf], d2 = s->nf_fact.data[nf];
    uint32_t d1 = s->pe_d1.data[i], c = g->node_call[n];
    if (c != WEIR_IFDS_NONE) st = rules_call(s, b, v, entered, i, d1, c, d2);
    else if (n != g->proc_last[g->node_proc[n]]) st = rules_edges(s, b, &v[0], i, d1, n, d2);
  }
  if (st == WEIR_OK) st = rules_constants(s, b, entered);
  free(entered);
  ifds_vec_free(&v[0]);
  ifds_vec_free(&v[1]);
  return st;
}

/* Counting sort of the rules by target into out->offset / out->words. */
static weir_status group(const rule_buf *b, uint64_t E, ide_rules *out) {
  if (b->count >= UINT32_MAX)
    return weir_fail(WEIR_ERR_UNSUPPORTED, "IDE engine: %llu rules, past the 2^32 - 1 that 32-bit "
                     "rule offsets index. Fix: use the reference solver (weir ide without "
                     "--backend).", (unsigned long long)b->count);
  out->offset = calloc(E + 1, sizeof *out->offset);
  out->words = malloc((b->count ? b->count : 1) * WEIR_IDE_RULE_WORDS * sizeof *out->words);
  if (!out->offset || !out->words)
    return weir_fail(WEIR_ERR_OUT_OF_MEMORY, "IDE engine: no host memory to group %llu rules. "
                     "Fix: free memory.", (unsigned long long)b->count);
  for (uint64_t r = 0; r < b->count; ++r) out->offset[b->target[r] + 1]++;
  for (uint64_t t = 0; t < E; ++t) out->offset[t + 1] += out->offset[t];
  for (uint64_t r = 0; r < b->count; ++r) {
    uint32_t at = out->offset[b->target[r]]++;
    memcpy(out->words + (uint64_t)at * WEIR_IDE_RULE_WORDS, b->words + r * WEIR_IDE_RULE_WORDS,
           WEIR_IDE_RULE_WORDS * sizeof *out->words);
  }
  for (uint64_t t = E; t > 0; --t) out->offset[t] = out->offset[t - 1]; /* back to the starts */
  out->offset[0] = 0;
  out->count = b->count;
  out->targets = E;
  return WEIR_OK;
}

/* Adds target t to the count (pass 0) or the list (pass 1) of source s,
 * unless it is there already: t's rules are visited together, so `last[s]`
 * remembers the latest target that s has. */
static void depend(ide_rules *r, uint32_t *last, int pass, uint32_t s, uint32_t t) {
  if (s == WEIR_IDE_NIL || last[s] == t) return;
  last[s] = t;
  if (pass == 0) r->dep_offset[s + 1]++;
  else r->deps[r->dep_offset[s]++] = t;
}

static void depend_pass(ide_rules *r, uint32_t *last, int pass) {
  for (uint64_t s = 0; s < r->targets; ++s) last[s] = WEIR_IDE_NIL;
  for (uint32_t t = 0; t < r->targets; ++t)
    for (uint32_t i = r->offset[t]; i < r->offset[t + 1]; ++i)
      for (int k = 0; k < 2; ++k) depend(r, last, pass, r->words[(uint64_t)i * WEIR_IDE_RULE_WORDS + k], t);
}

/* The dependents CSR (a counting sort by source, as `group` by target). */
static weir_status dependents(ide_rules *r) {
  uint64_t E = r->targets;
  uint32_t *last = malloc((E ? E : 1) * sizeof *last);
  r->dep_offset = calloc(E + 1, sizeof *r->dep_offset);
  if (!last || !r->dep_offset) {
    free(last);
    return weir_fail(WEIR_ERR_OUT_OF_MEMORY, "IDE engine: no host memory for the dependents of "
                     "%llu path edges. Fix: free memory.", (unsigned long long)E);
  }
  depend_pass(r, last, 0);
  uint64_t total = 0;
  for (uint64_t s = 0; s < E; ++s) total += r->dep_offset[s + 1], r->dep_offset[s + 1] += r->dep_offset[s];
  if (total >= UINT32_MAX) {
    free(last);
    return weir_fail(WEIR_ERR_UNSUPPORTED, "IDE engine: %llu (source, target) dependents, past "
                     "the 2^32 - 1 that 32-bit offsets index. Fix: use the reference solver (weir "
                     "ide without --backend).", (unsigned long long)total);
  }
  r->dep_count = total;
  r->deps = malloc((r->dep_count ? r->dep_count : 1) * sizeof *r->deps);
  if (r->deps) depend_pass(r, last, 1);
  free(last);
  if (!r->deps)
    return weir_fail(WEIR_ERR_OUT_OF_MEMORY, "IDE engine: no host memory for %llu dependents. "
                     "Fix: free memory.", (unsigned long long)r->dep_count);
  for (uint64_t s = E; s > 0; --s) r->dep_offset[s] = r->dep_offset[s - 1]; /* back to the starts */
  r->dep_offset[0] = 0;
  return WEIR_OK;
}

uint32_t ide_engine_words(const weir_ide_problem *p) {
  return p->family == WEIR_IDE_LINEAR ? WEIR_IDE_LINEAR_WORDS : 1u + p->state_count;
}

/* The problem's functions, then each seed's constant λx.v, in slot words. */
static weir_status functions(const ide_solver *s, ide_rules *out) {
  const weir_ide_problem *p = s->p;
  ide_ctx cx;
  memset(&cx, 0, sizeof cx);
  cx.pc.words = out->words_per_fn = ide_engine_words(p);
  cx.pc.family = p->family, cx.pc.states = p->state_count;
  out->fn_total = p->fn_count + s->g->seed_count;
  out->fn_words = calloc((size_t)out->fn_total * cx.pc.words, sizeof *out->fn_words);
  if (!out->fn_words)
    return weir_fail(WEIR_ERR_OUT_OF_MEMORY, "IDE engine: no host memory for %u functions. Fix: "
                     "free memory.", out->fn_total);
  for (uint32_t i = 0; i < p->fn_count; ++i) ide_store(&cx, out->fn_words, i, &p->fns[i]);
  for (uint32_t i = 0; i < s->g->seed_count; ++i) {
    weir_ide_fn f = ide_fn_const_of(p->family, p->seed_value[i]);
    ide_store(&cx, out->fn_words, p->fn_count + i, &f);
  }
  return WEIR_OK;
}

weir_status ide_engine_rules(const ide_solver *s, ide_rules *out) {
  memset(out, 0, sizeof *out);
  rule_buf b = {0};
  weir_status st = collect(s, &b);
  if (st == WEIR_OK) st = group(&b, s->pe_nf.len, out);
  if (st == WEIR_OK) st = dependents(out);
  free(b.target);
  free(b.words);
  if (st == WEIR_OK) st = functions(s, out);
  if (st != WEIR_OK) ide_rules_free(out);
  return st;
}

void ide_rules_free(ide_rules *r) {
  free(r->offset);
  free(r->words);
  free(r->fn_words);
  free(r->dep_offset);
  free(r->deps);
  memset(r, 0, sizeof *r);
}
