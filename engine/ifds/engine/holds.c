/* The result from the logged path edges: every (node, d2) that some path
 * edge (d1, node, d2) makes hold, sorted by node then fact, in the problem's
 * node numbers. A counting sort by node (linear, prefetched: every key
 * touches random words) and a sort of each node's few facts. */
#include <stdlib.h>

#include "engine/ifds/engine/engine.h"
#include "engine/ifds/internal.h"

#define AHEAD 16u

/* Key i of a log of 32-bit (key_words 1) or 64-bit keys. */
static inline uint64_t key_at(const void *keys, uint32_t key_words, uint64_t i) {
  return key_words == 1u ? ((const uint32_t *)keys)[i] : ((const uint64_t *)keys)[i];
}

/* facts[] receives every key's fact grouped by problem node; end[v] is where
 * node v's run ends. */
static void bucket(const ifds_engine *e, const void *keys, uint64_t count, uint32_t *node_of,
                   uint32_t *end, uint32_t *facts) {
  uint32_t n = e->problem->node_count;
  uint32_t fb = e->fact_bits, w = e->key_words;
  uint64_t node_mask = (1ull << e->node_bits) - 1u, fact_mask = (1ull << fb) - 1u;
  for (uint64_t i = 0; i < count; ++i) {
    if (i + AHEAD < count) __builtin_prefetch(&e->to_old[(key_at(keys, w, i + AHEAD) >> fb) & node_mask]);
    node_of[i] = e->to_old[(key_at(keys, w, i) >> fb) & node_mask];
  }
  for (uint64_t i = 0; i < count; ++i) {
    if (i + AHEAD < count) __builtin_prefetch(&end[node_of[i + AHEAD] + 1u]);
    end[node_of[i] + 1u]++;
  }
  for (uint32_t v = 0; v < n; ++v) end[v + 1u] += end[v];
  for (uint64_t i = 0; i < count; ++i) {
    if (i + AHEAD < count) __builtin_prefetch(&end[node_of[i + AHEAD]]);
    facts[end[node_of[i]]++] = (uint32_t)(key_at(keys, w, i) & fact_mask);
  }
}

/* Keeps each run's distinct facts, sorted, in place (the write position
 * never passes the read position); kept[v] receives node v's count. A node
 * holds the same fact under many contexts (d1), so duplicates are dropped
 * first with a bitmap over the facts and only the distinct ones are
 * sorted. */
static uint64_t compact(uint32_t n, uint32_t *end_kept, uint32_t *facts, uint64_t *seen) {
  uint64_t holds = 0, begin = 0;
  for (uint32_t v = 0; v < n; ++v) {
    uint64_t end = end_kept[v], first = holds;
    for (uint64_t i = begin; i < end; ++i) {
      uint32_t f = facts[i];
      uint64_t bit = 1ull << (f & 63u);
      if (seen[f >> 6] & bit) continue;
      seen[f >> 6] |= bit;
      facts[holds++] = f;
    }
    for (uint64_t i = first; i < holds; ++i) seen[facts[i] >> 6] = 0;
    ifds_sort_u32_small(facts + first, holds - first);
    begin = end;
    end_kept[v] = (uint32_t)(holds - first);
  }
  return holds;
}

weir_status weir_ifds_engine_holds(const ifds_engine *e, const void *keys, uint64_t count,
                                   weir_ifds_result *out) {
  uint32_t n = e->problem->node_count;
  uint32_t *end = calloc((size_t)n + 1u, sizeof *end);
  uint32_t *facts = malloc((count ? count : 1) * sizeof *facts);
  uint32_t *node_of = malloc((count ? count : 1) * sizeof *node_of);
  uint64_t *seen = calloc((size_t)e->problem->fact_count / 64u + 1u, sizeof *seen);
  if (!end || !facts || !node_of || !seen) {
    free(end);
    free(facts);
    free(node_of);
    free(seen);
    return weir_fail(WEIR_ERR_OUT_OF_MEMORY,
                     "IFDS engine: no host memory to sort %llu path edges into the result. "
                     "Fix: free memory.", (unsigned long long)count);
  }
  bucket(e, keys, count, node_of, end, facts);
  free(node_of);
  uint64_t holds = compact(n, end, facts, seen);
  free(seen);
  out->path_edges = count;
  out->hold_count = holds;
  uint32_t *shrunk = realloc(facts, (holds ? holds : 1) * sizeof *facts);
  out->hold_fact = shrunk ? shrunk : facts;
  out->hold_node = malloc((holds ? holds : 1) * sizeof *out->hold_node);
  if (!out->hold_node) {
    free(end);
    return weir_fail(WEIR_ERR_OUT_OF_MEMORY, "IFDS engine: no host memory for %llu results. "
                     "Fix: free memory.", (unsigned long long)holds);
  }
  uint64_t at = 0;
  for (uint32_t v = 0; v < n; ++v)
    for (uint32_t i = 0; i < end[v]; ++i) out->hold_node[at++] = v;
  free(end);
  return WEIR_OK;
}
