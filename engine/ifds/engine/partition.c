/* Ownership across devices (multi.c): which member owns the path edges of
 * each procedure, or which procedures are spread over every member (their
 * path edges dealt by a hash of their context's entry fact: ifds_owner in
 * programs/ifds/ifds_kernels.h). See docs/distributed.md, "Partitioning".
 *
 * Work is estimated from the supergraph alone: a procedure's path edges are
 * at most its nodes times its contexts times the facts that hold in it, and
 * both grow with the facts its own flows name (gen, transfer, kill) and the
 * facts its callers pass in. Sampling the first windows of a solve was
 * measured and dropped: the first 10% of the path edges predict the
 * per-procedure work worse than node counts (bench/ifds/README.md). */
#include <stdlib.h>
#include <string.h>

#include "engine/ifds/engine/multi.h"

/* Marks the facts flow f names (both sides of its pairs, its kills) in
 * `stamp` with `mark`, counting the new ones. */
static uint64_t name_facts(const weir_ifds_flows *fl, uint32_t f, uint32_t *stamp, uint32_t mark) {
  uint64_t fresh = 0;
  for (uint32_t p = fl->pair_offset[f]; p < fl->pair_offset[f + 1u]; ++p) {
    uint32_t two[2] = {fl->pair_from[p], fl->pair_to[p]};
    for (int i = 0; i < 2; ++i)
      if (stamp[two[i]] != mark) stamp[two[i]] = mark, ++fresh;
  }
  for (uint32_t k = fl->kill_offset[f]; k < fl->kill_offset[f + 1u]; ++k)
    if (stamp[fl->kill_fact[k]] != mark) stamp[fl->kill_fact[k]] = mark, ++fresh;
  return fresh;
}

/* cost[q] = nodes(q) x (1 + the facts q's edges, call-to-return flows and
 * incoming call flows name). */
static weir_status estimate_work(const weir_ifds_problem *pb, uint64_t *cost) {
  uint32_t *stamp = calloc(pb->fact_count, sizeof *stamp);
  uint32_t *into = calloc((size_t)pb->proc_count + 1u, sizeof *into); /* callee edges by callee */
  uint32_t *flows = NULL;
  uint64_t k_total = pb->callee_offset[pb->call_count];
  if (stamp && into) flows = malloc((k_total ? k_total : 1u) * sizeof *flows);
  if (!stamp || !into || !flows) {
    free(stamp);
    free(into);
    free(flows);
    return weir_fail(WEIR_ERR_OUT_OF_MEMORY,
                     "IFDS engine across devices: no host memory to estimate the work of %u "
                     "procedures. Fix: free memory.", pb->proc_count);
  }
  for (uint64_t k = 0; k < k_total; ++k) into[pb->callee_proc[k] + 1u]++;
  for (uint32_t q = 0; q < pb->proc_count; ++q) into[q + 1u] += into[q];
  for (uint64_t k = 0; k < k_total; ++k) flows[into[pb->callee_proc[k]]++] = pb->callee_call_flow[k];
  for (uint32_t q = pb->proc_count; q > 0; --q) into[q] = into[q - 1u]; /* back to offsets */
  into[0] = 0;
  for (uint32_t q = 0; q < pb->proc_count; ++q) {
    uint32_t mark = q + 1u;
    uint64_t named = 0;
    for (uint32_t n = pb->proc_first[q]; n <= pb->proc_last[q]; ++n) {
      for (uint32_t e = pb->succ_offset[n]; e < pb->succ_offset[n + 1u]; ++e)
        named += name_facts(&pb->flows, pb->succ_flow[e], stamp, mark);
      if (pb->node_call[n] != WEIR_IFDS_NONE)
        named += name_facts(&pb->flows, pb->call_flow[pb->node_call[n]], stamp, mark);
    }
    for (uint32_t i = into[q]; i < into[q + 1u]; ++i) named += name_facts(&pb->flows, flows[i], stamp, mark);
    cost[q] = (uint64_t)(pb->proc_last[q] - pb->proc_first[q] + 1u) * (1u + named);
  }
  free(stamp);
  free(into);
  free(flows);
  return WEIR_OK;
}

/* Contiguous blocks of the procedures not spread, of about equal cost. */
static void cut_blocks(const weir_ifds_problem *pb, const uint64_t *cost, uint32_t size,
                       uint8_t *owner) {
  uint64_t total = 0, seen = 0;
  for (uint32_t q = 0; q < pb->proc_count; ++q)
    if (!(owner[q] & WEIR_IFDS_SPREAD)) total += cost[q];
  for (uint32_t q = 0; q < pb->proc_count; ++q) {
    if (owner[q] & WEIR_IFDS_SPREAD) continue;
    uint64_t d = total < (1ull << 57) /* x size (<= 64) stays in 64 bits */
                     ? (seen + cost[q] / 2u) * size / (total ? total : 1u)
                     : (uint64_t)(((double)seen + (double)(cost[q] / 2u)) * size / (double)total);
    owner[q] = (uint8_t)(d < size ? d : size - 1u);
    seen += cost[q];
  }
}

/* The mode: the option, else WEIR_IFDS_OWNERSHIP, else by work. */
weir_status weir_ifds_multi_ownership(const weir_ifds_engine_options *o, int32_t *mode) {
  const char *env = getenv("WEIR_IFDS_OWNERSHIP");
  *mode = o ? o->ownership : WEIR_IFDS_OWNERSHIP_WORK;
  if (*mode < WEIR_IFDS_OWNERSHIP_WORK || *mode > WEIR_IFDS_OWNERSHIP_SPREAD)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "IFDS engine across devices: ownership %d is not one of "
                     "WEIR_IFDS_OWNERSHIP_WORK (0), _NODES (1) or _SPREAD (2). Fix: pass one "
                     "of those.", (int)*mode);
  if (*mode != WEIR_IFDS_OWNERSHIP_WORK || !env || !*env) return WEIR_OK;
  if (strcmp(env, "work") == 0) *mode = WEIR_IFDS_OWNERSHIP_WORK;
  else if (strcmp(env, "nodes") == 0) *mode = WEIR_IFDS_OWNERSHIP_NODES;
  else if (strcmp(env, "spread") == 0) *mode = WEIR_IFDS_OWNERSHIP_SPREAD;
  else
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "IFDS engine across devices: WEIR_IFDS_OWNERSHIP is '%.64s', not work, "
                     "nodes or spread. Fix: set it to one of those, or unset it (work).", env);
  return WEIR_OK;
}

weir_status weir_ifds_multi_partition(const weir_ifds_problem *pb, uint32_t size, int32_t mode,
                                      uint8_t *owner) {
  memset(owner, 0, pb->proc_count);
  uint64_t *cost = malloc((size_t)pb->proc_count * sizeof *cost);
  if (!cost)
    return weir_fail(WEIR_ERR_OUT_OF_MEMORY,
                     "IFDS engine across devices: no host memory for the costs of %u "
                     "procedures. Fix: free memory.", pb->proc_count);
  weir_status st = WEIR_OK;
  if (mode == WEIR_IFDS_OWNERSHIP_NODES)
    for (uint32_t q = 0; q < pb->proc_count; ++q) cost[q] = pb->proc_last[q] - pb->proc_first[q] + 1u;
  else
    st = estimate_work(pb, cost);
  uint64_t total = 0;
  for (uint32_t q = 0; st == WEIR_OK && q < pb->proc_count; ++q) total += cost[q];
  /* Hot: more than a quarter of one member's share (all of them: spread). */
  uint32_t homes = 0;
  for (uint32_t q = 0; st == WEIR_OK && size > 1u && q < pb->proc_count; ++q)
    if (mode == WEIR_IFDS_OWNERSHIP_SPREAD ||
        (mode == WEIR_IFDS_OWNERSHIP_WORK && (double)cost[q] * 4.0 * size > (double)total))
      owner[q] = (uint8_t)(WEIR_IFDS_SPREAD | (homes++ % size)); /* homes of d1 = 0: round robin */
  if (st == WEIR_OK) cut_blocks(pb, cost, size, owner);
  free(cost);
  return st;
}
