/* Which source feeds a finding, and along which path? A backward search
 * over the pairs (node, fact) that hold in the result: from the finding's
 * pair, step to every predecessor pair whose flow function maps its fact to
 * ours (normal edges, call-to-return, return and call flows), until a pair
 * generated from the zero fact at a recorded source (taint source call,
 * allocation of uninitialized memory, free). Only holds are visited, so the
 * search is bounded by the result; the nearest sources (breadth-first) are
 * reported, and the parents of the queue entries give the path back to the
 * finding. It may follow a path that is not realizable (it ignores calling
 * contexts); it is a hint for the reader, the finding itself comes from the
 * solver. */
#include <stdlib.h>
#include <string.h>

#include "frontends/llvm/report/report.h"

#define WEIR_LLVM_WITNESS_BUDGET 4000000u

struct weir_llvm_witness {
  const weir_ifds_problem *p;
  const weir_ifds_result *r;
  uint32_t *hold_first;    /* [N + 1] */
  uint32_t *pred_offset;   /* [N + 1] reverse CSR of edges */
  uint32_t *pred_node, *pred_flow;
  uint32_t *ret_offset;    /* [N + 1] return site -> calls */
  uint32_t *ret_call;
  uint32_t *in_offset;     /* [P + 1] proc -> callee lines */
  uint32_t *in_line, *line_call;
  uint32_t *source_of;     /* [N] */
  uint32_t *kill_sorted;   /* each flow's kills, sorted (binary search) */
  uint32_t *pair_by_to;    /* each flow's pair indices, sorted by target fact */
  uint8_t *seen;           /* [holds] */
  uint32_t *queue;         /* hold indices */
  uint32_t *parent;        /* [queue_cap] queue index of the pair that pushed it (toward the finding) */
  size_t queue_cap;
};
typedef struct weir_llvm_witness witness;

static uint32_t find_hold(const witness *w, uint32_t node, uint32_t fact) {
  uint32_t lo = w->hold_first[node], hi = w->hold_first[node + 1];
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (w->r->hold_fact[mid] < fact) lo = mid + 1;
    else hi = mid;
  }
  return lo < w->hold_first[node + 1] && w->r->hold_fact[lo] == fact ? lo : WEIR_LLVM_NONE;
}

static int cmp_u64(const void *a, const void *b);

static int killed(const witness *w, uint32_t flow, uint32_t fact) {
  const weir_ifds_flows *f = &w->p->flows;
  uint32_t lo = f->kill_offset[flow], hi = f->kill_offset[flow + 1];
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (w->kill_sorted[mid] < fact) lo = mid + 1;
    else hi = mid;
  }
  return lo < f->kill_offset[flow + 1] && w->kill_sorted[lo] == fact;
}

/* The first of a flow's pairs (in pair_by_to order) whose target is `fact`. */
static uint32_t first_pair_to(const witness *w, uint32_t flow, uint32_t fact) {
  const weir_ifds_flows *f = &w->p->flows;
  uint32_t lo = f->pair_offset[flow], hi = f->pair_offset[flow + 1];
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (f->pair_to[w->pair_by_to[mid]] < fact) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

static int cmp_u32(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return (x > y) - (x < y);
}

/* Sorted copies of every flow's kills and pairs: a search steps through
 * call flows with thousands of pairs, millions of times on a large result. */
static int index_flows(witness *w) {
  const weir_ifds_flows *f = &w->p->flows;
  uint32_t kills = f->kill_offset[f->count], pairs = f->pair_offset[f->count];
  w->kill_sorted = malloc((kills ? kills : 1) * sizeof *w->kill_sorted);
  w->pair_by_to = malloc((pairs ? pairs : 1) * sizeof *w->pair_by_to);
  uint64_t *keys = malloc((pairs ? pairs : 1) * sizeof *keys);
  int ok = w->kill_sorted && w->pair_by_to && keys;
  if (ok) {
    memcpy(w->kill_sorted, f->kill_fact, (size_t)kills * sizeof *w->kill_sorted);
    for (uint32_t k = 0; k < f->count; ++k) {
      uint32_t first = f->kill_offset[k], n = f->kill_offset[k + 1] - first;
      if (n > 1) qsort(w->kill_sorted + first, n, sizeof *w->kill_sorted, cmp_u32);
      first = f->pair_offset[k], n = f->pair_offset[k + 1] - first;
      for (uint32_t j = 0; j < n; ++j) keys[j] = (uint64_t)f->pair_to[first + j] << 32 | (first + j);
      if (n > 1) qsort(keys, n, sizeof *keys, cmp_u64);
      for (uint32_t j = 0; j < n; ++j) w->pair_by_to[first + j] = (uint32_t)keys[j];
    }
  }
  free(keys);
  return ok;
}

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return (x > y) - (x < y);
}

static uint32_t *counted_csr(size_t n, const uint32_t *keys, size_t count, uint32_t **values) {
  uint32_t *offset = calloc(n + 1, sizeof *offset);
  *values = malloc((count ? count : 1) * sizeof **values);
  if (!offset || !*values) {
    free(offset);
    free(*values);
    *values = NULL;
    return NULL;
  }
  for (size_t k = 0; k < count; ++k) offset[keys[k] + 1]++;
  for (size_t k = 0; k < n; ++k) offset[k + 1] += offset[k];
  uint32_t *fill = malloc((n + 1) * sizeof *fill);
  if (!fill) {
    free(offset);
    free(*values);
    *values = NULL;
    return NULL;
  }
  memcpy(fill, offset, (n + 1) * sizeof *fill);
  for (size_t k = 0; k < count; ++k) (*values)[fill[keys[k]]++] = (uint32_t)k;
  free(fill);
  return offset;
}

static void witness_free(witness *w) {
  free(w->hold_first);
  free(w->pred_offset);
  free(w->pred_node);
  free(w->pred_flow);
  free(w->ret_offset);
  free(w->ret_call);
  free(w->in_offset);
  free(w->in_line);
  free(w->line_call);
  free(w->source_of);
  free(w->kill_sorted);
  free(w->pair_by_to);
  free(w->seen);
  free(w->queue);
  free(w->parent);
}

/* Reverse CSR of the intraprocedural edges: predecessors and their flows. */
static int build_predecessors(witness *w) {
  const weir_ifds_problem *p = w->p;
  uint32_t n = p->node_count, e = p->succ_offset[n];
  uint32_t *edge_source = malloc((e ? e : 1) * sizeof *edge_source);
  if (!edge_source) return 0;
  for (uint32_t m = 0; m < n; ++m)
    for (uint32_t k = p->succ_offset[m]; k < p->succ_offset[m + 1]; ++k) edge_source[k] = m;
  uint32_t *by_edge = NULL;
  w->pred_offset = counted_csr(n, p->succ_node, e, &by_edge);
  w->pred_node = malloc((e ? e : 1) * sizeof *w->pred_node);
  w->pred_flow = malloc((e ? e : 1) * sizeof *w->pred_flow);
  int ok = w->pred_offset && w->pred_node && w->pred_flow;
  for (uint32_t k = 0; ok && k < e; ++k) {
    w->pred_node[k] = edge_source[by_edge[k]];
    w->pred_flow[k] = p->succ_flow[by_edge[k]];
  }
  free(by_edge);
  free(edge_source);
  return ok;
}

static int witness_init(witness *w, const weir_llvm_problem *lp, const weir_ifds_problem *p,
                        const weir_ifds_result *r) {
  memset(w, 0, sizeof *w);
  w->p = p;
  w->r = r;
  uint32_t n = p->node_count, k_lines = p->callee_offset[p->call_count];
  w->hold_first = calloc((size_t)n + 1, sizeof *w->hold_first);
  w->line_call = malloc((k_lines ? k_lines : 1) * sizeof *w->line_call);
  w->source_of = malloc((size_t)n * sizeof *w->source_of);
  w->seen = calloc(r->hold_count ? r->hold_count : 1, 1);
  if (!w->hold_first || !w->line_call || !w->source_of || !w->seen || !build_predecessors(w) || !index_flows(w))
    return 0;
  for (uint64_t h = 0; h < r->hold_count; ++h) w->hold_first[r->hold_node[h] + 1]++;
  for (uint32_t k = 0; k < n; ++k) w->hold_first[k + 1] += w->hold_first[k];
  w->ret_offset = counted_csr(n, p->call_return, p->call_count, &w->ret_call);
  for (uint32_t c = 0; c < p->call_count; ++c)
    for (uint32_t k = p->callee_offset[c]; k < p->callee_offset[c + 1]; ++k) w->line_call[k] = c;
  w->in_offset = counted_csr(p->proc_count, p->callee_proc, k_lines, &w->in_line);
  for (uint32_t k = 0; k < n; ++k) w->source_of[k] = WEIR_LLVM_NONE;
  for (size_t s = lp->source_count; s-- > 0;)
    if (lp->sources[s].node < n) w->source_of[lp->sources[s].node] = (uint32_t)s;
  return w->ret_offset && w->in_offset;
}

/* A source the search reached: its index, its node, the queue index of the
 * pair it generates. */
typedef struct hit {
  uint32_t source, node, from;
} hit;

typedef struct search {
  witness *w;
  size_t head, tail;
  uint32_t current;      /* queue index being stepped from */
  hit *hits;             /* distinct sources in the order found (nearest first) */
  size_t hit_count, hit_max;
} search;

static void push(search *s, uint32_t node, uint32_t fact) {
  if (fact == 0) {
    /* A generation at a source that is itself reached. */
    uint32_t source = s->w->source_of[node];
    if (s->hit_count >= s->hit_max || source == WEIR_LLVM_NONE || find_hold(s->w, node, 0) == WEIR_LLVM_NONE)
      return;
    for (size_t k = 0; k < s->hit_count; ++k)
      if (s->hits[k].source == source) return;
    s->hits[s->hit_count++] = (hit){source, node, s->current};
    return;
  }
  uint32_t h = find_hold(s->w, node, fact);
  if (h == WEIR_LLVM_NONE || s->w->seen[h] || s->tail >= s->w->queue_cap) return;
  s->w->seen[h] = 1;
  s->w->parent[s->tail] = s->current;
  s->w->queue[s->tail++] = h;
}

/* Every fact at `node` that `flow` maps to `fact`. */
static void preimage(search *s, uint32_t node, uint32_t flow, uint32_t fact) {
  const witness *w = s->w;
  const weir_ifds_flows *f = &w->p->flows;
  if (f->identity[flow] && !killed(w, flow, fact)) push(s, node, fact);
  for (uint32_t k = first_pair_to(w, flow, fact); k < f->pair_offset[flow + 1]; ++k) {
    uint32_t pair = w->pair_by_to[k];
    if (f->pair_to[pair] != fact) break;
    push(s, node, f->pair_from[pair]);
  }
}

static void step(search *s, uint32_t node, uint32_t fact) {
  const witness *w = s->w;
  const weir_ifds_problem *p = w->p;
  for (uint32_t k = w->pred_offset[node]; k < w->pred_offset[node + 1]; ++k)
    preimage(s, w->pred_node[k], w->pred_flow[k], fact);
  for (uint32_t k = w->ret_offset[node]; k < w->ret_offset[node + 1]; ++k) {
    uint32_t c = w->ret_call[k];
    preimage(s, p->call_node[c], p->call_flow[c], fact);
    for (uint32_t l = p->callee_offset[c]; l < p->callee_offset[c + 1]; ++l)
      preimage(s, p->proc_last[p->callee_proc[l]], p->callee_return_flow[l], fact);
  }
  uint32_t proc = p->node_proc[node];
  if (p->proc_first[proc] != node) return;
  for (uint32_t k = w->in_offset[proc]; k < w->in_offset[proc + 1]; ++k) {
    uint32_t line = w->in_line[k];
    preimage(s, p->call_node[w->line_call[line]], p->callee_call_flow[line], fact);
  }
}

weir_status weir_llvm_witness_new(const weir_llvm_problem *problem, const weir_ifds_problem *loaded,
                                  const weir_ifds_result *result, weir_llvm_witness **out) {
  witness *w = malloc(sizeof *w);
  *out = NULL;
  if (!w || !witness_init(w, problem, loaded, result)) {
    if (w) witness_free(w);
    free(w);
    return weir_fail(WEIR_ERR_OUT_OF_MEMORY,
                     "analyze: no memory for the source search over %llu holds. Fix: free memory",
                     (unsigned long long)result->hold_count);
  }
  w->queue_cap = result->hold_count < WEIR_LLVM_WITNESS_BUDGET ? result->hold_count : WEIR_LLVM_WITNESS_BUDGET;
  w->queue = malloc((w->queue_cap ? w->queue_cap : 1) * sizeof *w->queue);
  w->parent = malloc((w->queue_cap ? w->queue_cap : 1) * sizeof *w->parent);
  if (!w->queue || !w->parent) {
    witness_free(w);
    free(w);
    return weir_fail(WEIR_ERR_OUT_OF_MEMORY, "analyze: no memory for the source search queue. Fix: free memory");
  }
  *out = (weir_llvm_witness *)w;
  return WEIR_OK;
}

/* The path from the source to the finding: the source's node with the fact
 * it generates, then the queue entries up the parent chain. */
static void write_path(const search *s, const hit *found, weir_llvm_vec *path) {
  const witness *w = s->w;
  path->n = 0;
  uint32_t q = found->from;
  weir_llvm_vec_push(path, found->node);
  weir_llvm_vec_push(path, w->r->hold_fact[w->queue[q]]);
  for (; q != WEIR_LLVM_NONE; q = w->parent[q]) {
    weir_llvm_vec_push(path, w->r->hold_node[w->queue[q]]);
    weir_llvm_vec_push(path, w->r->hold_fact[w->queue[q]]);
  }
}

size_t weir_llvm_witness_sources(weir_llvm_witness *handle, uint32_t node, uint32_t fact, size_t max,
                                 uint32_t *sources, weir_llvm_vec *paths) {
  witness *w = (witness *)handle;
  hit hits[WEIR_LLVM_WITNESS_SOURCES_MAX];
  search s = {.w = w, .current = WEIR_LLVM_NONE, .hits = hits};
  s.hit_max = max < WEIR_LLVM_WITNESS_SOURCES_MAX ? max : WEIR_LLVM_WITNESS_SOURCES_MAX;
  if (fact == 0 || s.hit_max == 0) return 0; /* reachability findings have no flow */
  push(&s, node, fact);
  /* After the nearest source, the search goes on for the others, but only
   * so far: at most 8 times the work the first one took (and 4096 pairs),
   * so that a finding on a large result costs about what it did. */
  size_t limit = SIZE_MAX;
  while (s.head < s.tail && s.hit_count < s.hit_max && s.head < limit) {
    s.current = (uint32_t)s.head;
    uint32_t h = w->queue[s.head++];
    step(&s, w->r->hold_node[h], w->r->hold_fact[h]);
    if (s.hit_count && limit == SIZE_MAX) limit = s.head * 8 + 4096;
  }
  for (size_t k = 0; k < s.hit_count; ++k) {
    sources[k] = hits[k].source;
    if (paths) write_path(&s, &hits[k], &paths[k]);
  }
  for (size_t k = 0; k < s.tail; ++k) w->seen[w->queue[k]] = 0; /* ready for the next finding */
  return s.hit_count;
}

uint32_t weir_llvm_witness_path(weir_llvm_witness *handle, uint32_t node, uint32_t fact, weir_llvm_vec *path) {
  uint32_t source = WEIR_LLVM_NONE;
  if (path) path->n = 0;
  return weir_llvm_witness_sources(handle, node, fact, 1, &source, path) ? source : WEIR_LLVM_NONE;
}

void weir_llvm_witness_free(weir_llvm_witness *handle) {
  if (!handle) return;
  witness_free((witness *)handle);
  free(handle);
}
