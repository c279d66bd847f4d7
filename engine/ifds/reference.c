/* The serial reference solver: the Reps-Horwitz-Sagiv worklist tabulation
 * with end summaries and incoming sets (as in Naeem, Lhotak and Rodriguez,
 * "Practical extensions to the IFDS algorithm"). Written for clarity; every
 * table is a hash table and the worklist is explicit (no recursion), so it
 * is linear in the path edges it finds and deep call chains are safe.
 *
 * A call group is a pair (call site c, fact d2 at c). Everything a call
 * does that depends only on (c, d2) (entering callees, registering the
 * incoming edge, computing summaries) happens once, when the group is made;
 * each context d1 that reaches (c, d2) is appended to the group and gets the
 * group's summaries. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/core/struct_size.h"
#include "engine/ifds/builder.h"
#include "engine/ifds/collect.h"
#include "engine/ifds/tables.h"
#include "weir/ifds.h"

typedef struct solver {
  const weir_ifds_problem *p;
  ifds_triple_set path; /* (n, d1, d2) */
  ifds_vec work;        /* worklist, 3 entries per path edge (d1, n, d2) */
  ifds_vec cand;        /* candidates of the current step, the same layout */
  /* call groups */
  ifds_map group_of;                                /* (call index, d2) -> group */
  ifds_vec g_call, g_fact, g_contexts, g_summaries; /* list heads */
  ifds_map summary;                                 /* (group, d5) -> unused */
  ifds_map incoming; /* (proc, d3) -> list head of incoming entries */
  ifds_vec in_group, in_callee, in_next;
  ifds_map end_sum;               /* (proc, d1) -> list head of exit facts */
  ifds_vec list_value, list_next; /* shared pool of contexts, summaries, exit facts */
  ifds_vec a, b;                  /* flow results (two levels of nesting) */
  weir_ifds_stats stats;
} solver;

#define NIL UINT32_MAX

/* f(d) into out: the implied 0 -> 0, the identity unless d is killed, and
 * the pairs d > B. No duplicates: canonical flows have no d>d beside `id`. */
static weir_status apply(const weir_ifds_flows *fl, uint32_t f, uint32_t d, ifds_vec *out) {
  out->len = 0;
  int self = d == 0;
  if (!self && fl->identity[f]) {
    uint32_t lo = fl->kill_offset[f], hi = fl->kill_offset[f + 1];
    while (lo < hi) { /* binary search among the kills */
      uint32_t mid = lo + (hi - lo) / 2;
      if (fl->kill_fact[mid] < d)
        lo = mid + 1;
      else
        hi = mid;
    }
    self = !(lo < fl->kill_offset[f + 1] && fl->kill_fact[lo] == d);
  }
  if (self) WEIR_TRY(ifds_vec_push(out, d));
  uint32_t lo = fl->pair_offset[f], hi = fl->pair_offset[f + 1];
  while (lo < hi) { /* first pair with from >= d */
    uint32_t mid = lo + (hi - lo) / 2;
    if (fl->pair_from[mid] < d)
      lo = mid + 1;
    else
      hi = mid;
  }
  for (; lo < fl->pair_offset[f + 1] && fl->pair_from[lo] == d; ++lo)
    WEIR_TRY(ifds_vec_push(out, fl->pair_to[lo]));
  return WEIR_OK;
}

/* Between doublings of the path-edge set (checked in tables.c) the
 * worklist, the summaries and the lists grow too: every 2^20 iterations,
 * once the solver holds 256 MiB or more, it stops when what the process may
 * still use (MemAvailable, ulimit -v, ulimit -d) is below a sixteenth of
 * that or 256 MiB, before the OOM killer ends it (ocamlrun's taint
 * problem ran 12 minutes to 22.8 GB and was killed). */
static weir_status memory_pressure(const solver *s) {
  uint64_t held = ifds_triple_set_bytes(&s->path) + (uint64_t)s->work.cap * sizeof(uint32_t) +
                  (uint64_t)s->cand.cap * sizeof(uint32_t) + (uint64_t)s->list_value.cap * 2 * sizeof(uint32_t);
  const uint64_t floor = (uint64_t)256 << 20;
  if (held < floor) return WEIR_OK;
  const char *source = NULL;
  uint64_t left = ifds_memory_budget(&source);
  if (left >= floor && left >= held / 16) return WEIR_OK;
  return weir_fail(WEIR_ERR_OUT_OF_MEMORY,
                   "the reference solver holds %llu path edges in %.2f GiB of tables and worklist, and %s "
                   "is down to %.2f GiB: the problem does not fit this machine. " IFDS_TOO_BIG_FIX,
                   (unsigned long long)s->path.count, (double)held / (1u << 30), source,
                   (double)left / (1u << 30));
}

/* A candidate path edge; kept until the end of the step (flush). */
static weir_status propagate(solver *s, uint32_t d1, uint32_t n, uint32_t d2) {
  WEIR_TRY(ifds_vec_reserve(&s->cand, 3));
  s->cand.data[s->cand.len++] = d1;
  s->cand.data[s->cand.len++] = n;
  s->cand.data[s->cand.len++] = d2;
  return WEIR_OK;
}

/* The candidates into the path-edge set, new ones onto the worklist.
 * Nothing in a step reads the path edges, so deferring is safe; it lets the
 * cache misses of many candidates overlap (prefetch all, then insert). */
static weir_status flush(solver *s) {
  const uint32_t *c = s->cand.data;
  for (size_t i = 0; i < s->cand.len; i += 3)
    ifds_triple_set_prefetch(&s->path, c[i + 1], c[i], c[i + 2]);
  for (size_t i = 0; i < s->cand.len; i += 3) {
    int added;
    WEIR_TRY(ifds_triple_set_add(&s->path, c[i + 1], c[i], c[i + 2], &added));
    if (!added) continue;
    WEIR_TRY(ifds_vec_reserve(&s->work, 3));
    memcpy(s->work.data + s->work.len, c + i, 3 * sizeof *c);
    s->work.len += 3;
  }
  s->cand.len = 0;
  return WEIR_OK;
}

/* Prepends `value` to the list whose head is *head (an index into the pool). */
static weir_status list_push(solver *s, uint32_t *head, uint32_t value) {
  uint32_t i = (uint32_t)s->list_value.len;
  WEIR_TRY(ifds_vec_push(&s->list_value, value));
  WEIR_TRY(ifds_vec_push(&s->list_next, *head));
  *head = i;
  return WEIR_OK;
}

/* Records the summary (c, d2) -> (r, d5) of group g; *added when new. */
static weir_status add_summary(solver *s, uint32_t g, uint32_t d5, int *added) {
  uint32_t *unused;
  WEIR_TRY(ifds_map_upsert(&s->summary, ifds_key(g, d5), 0, &unused, added));
  if (!*added) return WEIR_OK;
  s->stats.summary_edges++;
  return list_push(s, &s->g_summaries.data[g], d5);
}

/* The first context to reach (c, d2): enter every callee, register the
 * incoming edge, and derive the summaries their end summaries already give. */
static weir_status new_group(solver *s, uint32_t c, uint32_t d2, uint32_t *group) {
  const weir_ifds_problem *p = s->p;
  uint32_t g = (uint32_t)s->g_call.len;
  WEIR_TRY(ifds_vec_push(&s->g_call, c));
  WEIR_TRY(ifds_vec_push(&s->g_fact, d2));
  WEIR_TRY(ifds_vec_push(&s->g_contexts, NIL));
  WEIR_TRY(ifds_vec_push(&s->g_summaries, NIL));
  for (uint32_t k = p->callee_offset[c]; k < p->callee_offset[c + 1]; ++k) {
    uint32_t q = p->callee_proc[k], start = p->proc_first[q];
    WEIR_TRY(apply(&p->flows, p->callee_call_flow[k], d2, &s->a));
    for (size_t i = 0; i < s->a.len; ++i) {
      uint32_t d3 = s->a.data[i], *head;
      int added;
      WEIR_TRY(propagate(s, d3, start, d3));
      WEIR_TRY(ifds_map_upsert(&s->incoming, ifds_key(q, d3), NIL, &head, &added));
      uint32_t e = (uint32_t)s->in_group.len;
      WEIR_TRY(ifds_vec_push(&s->in_group, g));
      WEIR_TRY(ifds_vec_push(&s->in_callee, k));
      WEIR_TRY(ifds_vec_push(&s->in_next, *head));
      *ifds_map_find(&s->incoming, ifds_key(q, d3)) = e;
      s->stats.incoming++;
      uint32_t *ends = ifds_map_find(&s->end_sum, ifds_key(q, d3));
      for (uint32_t l = ends ? *ends : NIL; l != NIL; l = s->list_next.data[l]) {
        WEIR_TRY(apply(&p->flows, p->callee_return_flow[k], s->list_value.data[l], &s->b));
        for (size_t j = 0; j < s->b.len; ++j) WEIR_TRY(add_summary(s, g, s->b.data[j], &added));
      }
    }
  }
  *group = g;
  return WEIR_OK;
}

/* (d1, c, d2) at call node index c: call-to-return flow and summaries. */
static weir_status at_call(solver *s, uint32_t d1, uint32_t c, uint32_t d2) {
  const weir_ifds_problem *p = s->p;
  uint32_t *found = ifds_map_find(&s->group_of, ifds_key(c, d2)), g, *slot;
  int added;
  if (found)
    g = *found;
  else {
    WEIR_TRY(new_group(s, c, d2, &g));
    WEIR_TRY(ifds_map_upsert(&s->group_of, ifds_key(c, d2), g, &slot, &added));
  }
  WEIR_TRY(list_push(s, &s->g_contexts.data[g], d1));
  uint32_t r = p->call_return[c];
  WEIR_TRY(apply(&p->flows, p->call_flow[c], d2, &s->a));
  for (size_t i = 0; i < s->a.len; ++i) WEIR_TRY(propagate(s, d1, r, s->a.data[i]));
  for (uint32_t l = s->g_summaries.data[g]; l != NIL; l = s->list_next.data[l])
    WEIR_TRY(propagate(s, d1, r, s->list_value.data[l]));
  return WEIR_OK;
}

/* (d1, exit(q), d2): an end summary; return along every incoming edge. */
static weir_status at_exit(solver *s, uint32_t d1, uint32_t q, uint32_t d2) {
  const weir_ifds_problem *p = s->p;
  uint32_t *head;
  int added;
  WEIR_TRY(ifds_map_upsert(&s->end_sum, ifds_key(q, d1), NIL, &head, &added));
  uint32_t old = *head;
  WEIR_TRY(list_push(s, &old, d2));
  *ifds_map_find(&s->end_sum, ifds_key(q, d1)) = old;
  s->stats.end_summaries++;
  uint32_t *in = ifds_map_find(&s->incoming, ifds_key(q, d1));
  for (uint32_t e = in ? *in : NIL; e != NIL; e = s->in_next.data[e]) {
    uint32_t g = s->in_group.data[e], k = s->in_callee.data[e];
    uint32_t r = p->call_return[s->g_call.data[g]];
    WEIR_TRY(apply(&p->flows, p->callee_return_flow[k], d2, &s->b));
    for (size_t j = 0; j < s->b.len; ++j) {
      uint32_t d5 = s->b.data[j];
      WEIR_TRY(add_summary(s, g, d5, &added));
      if (!added) continue;
      for (uint32_t l = s->g_contexts.data[g]; l != NIL; l = s->list_next.data[l])
        WEIR_TRY(propagate(s, s->list_value.data[l], r, d5));
    }
  }
  return WEIR_OK;
}

static weir_status step(solver *s, uint32_t d1, uint32_t n, uint32_t d2) {
  const weir_ifds_problem *p = s->p;
  uint32_t c = p->node_call[n];
  if (c != WEIR_IFDS_NONE) return at_call(s, d1, c, d2);
  uint32_t q = p->node_proc[n];
  if (n == p->proc_last[q]) return at_exit(s, d1, q, d2);
  for (uint32_t e = p->succ_offset[n]; e < p->succ_offset[n + 1]; ++e) {
    WEIR_TRY(apply(&p->flows, p->succ_flow[e], d2, &s->a));
    for (size_t i = 0; i < s->a.len; ++i) WEIR_TRY(propagate(s, d1, p->succ_node[e], s->a.data[i]));
  }
  return WEIR_OK;
}

static weir_status run(solver *s, const weir_ifds_reference_options *options) {
  const weir_ifds_problem *p = s->p;
  for (uint32_t i = 0; i < p->seed_count; ++i)
    WEIR_TRY(propagate(s, 0, p->seed_node[i], p->seed_fact[i]));
  WEIR_TRY(flush(s));
  while (s->work.len) {
    /* a batch of steps, then their candidates at once: the order of the
     * worklist does not change the fixed point */
    for (int k = 0; k < 32 && s->work.len; ++k) {
      s->work.len -= 3;
      const uint32_t *w = s->work.data + s->work.len;
      WEIR_TRY(step(s, w[0], w[1], w[2]));
      if ((++s->stats.iterations & 0xffff) == 0 && options && options->progress)
        options->progress(options->progress_user, s->stats.iterations, s->path.count);
      if ((s->stats.iterations & 0xfffff) == 0) WEIR_TRY(memory_pressure(s));
    }
    WEIR_TRY(flush(s));
  }
  return WEIR_OK;
}

static uint32_t bits_for(uint32_t max_value) {
  uint32_t b = 1;
  while (b < 32 && (max_value >> b) != 0) ++b;
  return b;
}

/* Every (n, d2) of the path edges, sorted and unique: from a copy of the
 * keys (three-word triples; rare: problems whose path edges need more than
 * 63 bits). */
static weir_status collect_copy(solver *s, weir_ifds_result *out) {
  size_t count = s->path.count, m = 0;
  uint64_t *keys = malloc((count ? count : 1) * sizeof *keys);
  if (!keys)
    return weir_fail(WEIR_ERR_OUT_OF_MEMORY,
                     "allocating %zu bytes for the result failed. Fix: free memory.",
                     count * sizeof *keys);
  for (size_t i = 0; i < ifds_triple_set_slots(&s->path); ++i) {
    uint32_t n, d1, d2;
    if (ifds_triple_set_at(&s->path, i, &n, &d1, &d2)) keys[m++] = ifds_key(n, d2);
  }
  out->path_edges = count;
  return weir_ifds_holds_from_keys(keys, m, out);
}

/* Everything but the path-edge set (which collect turns into the result). */
static void solver_free_work(solver *s) {
  ifds_map *maps[] = {&s->group_of, &s->summary, &s->incoming, &s->end_sum};
  for (size_t i = 0; i < sizeof maps / sizeof maps[0]; ++i) ifds_map_free(maps[i]);
  ifds_vec *vecs[] = {&s->work,        &s->cand,     &s->g_call,    &s->g_fact,  &s->g_contexts,
                      &s->g_summaries, &s->in_group, &s->in_callee, &s->in_next, &s->list_value,
                      &s->list_next,   &s->a,        &s->b};
  for (size_t i = 0; i < sizeof vecs / sizeof vecs[0]; ++i) ifds_vec_free(vecs[i]);
}

static void solver_free(solver *s) {
  solver_free_work(s);
  ifds_triple_set_free(&s->path);
}

static weir_status collect(solver *s, weir_ifds_result *out) {
  solver_free_work(s); /* the result is built where they were */
  if (!s->path.bc_bits) return collect_copy(s, out);
  uint64_t count = s->path.count;
  weir_status st = weir_ifds_holds_in_place(&s->path.words, ifds_triple_set_slots(&s->path),
                                            s->path.bc_bits, out);
  s->path.cap = s->path.pad = s->path.count = 0; /* the words now belong to the result */
  out->path_edges = count;
  return st;
}

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

weir_status weir_ifds_solve_reference_ex(const weir_ifds_problem *problem,
                                         const weir_ifds_reference_options *options,
                                         weir_ifds_result *out, weir_ifds_stats *stats) {
  if (!problem || !out)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "weir_ifds_solve_reference: problem or out is NULL. Fix: pass a loaded "
                     "problem and a result to fill.");
  size_t stats_bytes = 0;
  if (stats)
    WEIR_TRY(weir_struct_out_size("weir_ifds_solve_reference", "weir_ifds_stats", stats,
                                  WEIR_IFDS_STATS_SIZE_V1, sizeof *stats, &stats_bytes));
  memset(out, 0, sizeof *out);
  solver *s = calloc(1, sizeof *s);
  if (!s)
    return weir_fail(WEIR_ERR_OUT_OF_MEMORY, "allocating the solver failed. Fix: free memory.");
  s->p = problem;
  ifds_triple_set_pack(&s->path, bits_for(problem->node_count - 1u),
                       bits_for(problem->fact_count - 1u)); /* (n, d1, d2) in one word */
  double t0 = now();
  weir_status st = run(s, options);
  s->stats.path_edges = s->path.count; /* collect hands the set's memory to the result */
  if (st == WEIR_OK) st = collect(s, out);
  s->stats.seconds_solve = now() - t0;
  if (st != WEIR_OK) weir_ifds_result_free(out);
  if (stats) weir_struct_out_copy(stats, &s->stats, stats_bytes, sizeof *stats);
  solver_free(s);
  free(s);
  return st;
}

weir_status weir_ifds_solve_reference(const weir_ifds_problem *problem, weir_ifds_result *out,
                                      weir_ifds_stats *stats) {
  return weir_ifds_solve_reference_ex(problem, NULL, out, stats);
}
