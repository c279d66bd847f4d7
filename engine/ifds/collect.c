/* Holds from packed path edges without a second copy of them: the keys are
 * compacted to (n, d2) at the front of their own array, put in node order
 * by an in-place bucket permutation (American flag sort, one level), then
 * each node's facts are deduplicated with a bitmap, sorted, and written as
 * 32-bit facts into the front of the same array, which becomes hold_fact.
 * Peak: the keys (8 bytes per path edge) plus 4 bytes per node, then the
 * holds (8 bytes per hold). */
#include "engine/ifds/collect.h"

#include "engine/ifds/internal.h"

#include <stdlib.h>
#include <string.h>

static weir_status oom(const char *what, uint64_t bytes) {
  return weir_fail(WEIR_ERR_OUT_OF_MEMORY,
                   "building the result: allocating %llu bytes for %s failed. Fix: free memory "
                   "or solve a smaller problem.",
                   (unsigned long long)bytes, what);
}

/* Keys n << 32 | d2 at the front; returns how many. */
static size_t compact(uint64_t *w, size_t slots, uint32_t bc_bits) {
  uint64_t mask = (1ull << bc_bits) - 1u;
  size_t m = 0;
  for (size_t i = 0; i < slots; ++i)
    if (w[i] != UINT64_MAX) w[m++] = (w[i] >> (2u * bc_bits)) << 32 | (w[i] & mask);
  return m;
}

/* Puts the keys in node order; start[v] is where node v's keys begin and
 * start[nodes] == m. next[] is scratch (nodes entries). */
static void by_node(uint64_t *k, size_t m, uint32_t nodes, uint32_t *start, uint32_t *next) {
  for (size_t i = 0; i < m; ++i) start[(k[i] >> 32) + 1u]++;
  for (uint32_t v = 0; v < nodes; ++v) start[v + 1u] += start[v];
  memcpy(next, start, (size_t)nodes * sizeof *next);
  for (uint32_t b = 0; b < nodes; ++b)
    while (next[b] < start[b + 1u]) {
      uint64_t key = k[next[b]];
      uint32_t t = (uint32_t)(key >> 32);
      if (t == b) {
        next[b]++;
        continue;
      }
      k[next[b]] = k[next[t]]; /* buckets below b are done, so t > b */
      k[next[t]++] = key;
    }
}

/* Each node's distinct facts, sorted, as u32 at the front of the array (a
 * write never reaches a key not read yet); start[v] becomes node v's
 * count. Returns the holds. */
static size_t dedup(uint64_t *k, uint32_t nodes, uint32_t *start, uint64_t *seen) {
  uint32_t *facts = (uint32_t *)k;
  size_t h = 0, begin = 0;
  for (uint32_t v = 0; v < nodes; ++v) {
    size_t end = start[v + 1u], first = h;
    for (size_t i = begin; i < end; ++i) {
      uint32_t f = (uint32_t)k[i];
      uint64_t bit = 1ull << (f & 63u);
      if (seen[f >> 6] & bit) continue;
      seen[f >> 6] |= bit;
      facts[h++] = f;
    }
    for (size_t i = first; i < h; ++i) seen[facts[i] >> 6] = 0;
    ifds_sort_u32_small(facts + first, h - first);
    begin = end;
    start[v] = (uint32_t)(h - first);
  }
  return h;
}

weir_status weir_ifds_holds_in_place(uint64_t **words, size_t slots, uint32_t bc_bits,
                                     uint32_t nodes, uint32_t facts, weir_ifds_result *out) {
  uint64_t *k = *words;
  *words = NULL;
  size_t m = k ? compact(k, slots, bc_bits) : 0;
  if (m >= UINT32_MAX) {
    free(k);
    return weir_fail(WEIR_ERR_UNSUPPORTED,
                     "building the result of %zu path edges: more than 2^32 - 1. Fix: split "
                     "the problem.", m);
  }
  uint64_t *shrunk = realloc(k, (m ? m : 1) * sizeof *k);
  if (shrunk) k = shrunk;
  uint32_t *start = calloc((size_t)nodes + 1u, sizeof *start);
  uint32_t *next = malloc(((size_t)nodes ? nodes : 1) * sizeof *next);
  uint64_t *seen = calloc((size_t)facts / 64u + 1u, sizeof *seen);
  if (!k || !start || !next || !seen) {
    free(k), free(start), free(next), free(seen);
    return oom("the node buckets", 8ull * nodes);
  }
  by_node(k, m, nodes, start, next);
  free(next);
  size_t h = dedup(k, nodes, start, seen);
  free(seen);
  uint32_t *fact = realloc(k, (h ? h : 1) * sizeof *fact);
  out->hold_fact = fact ? fact : (uint32_t *)k;
  out->hold_node = malloc((h ? h : 1) * sizeof *out->hold_node);
  if (!out->hold_node) {
    free(start);
    return oom("the hold nodes", 4ull * h);
  }
  size_t at = 0;
  for (uint32_t v = 0; v < nodes; ++v)
    for (uint32_t i = 0; i < start[v]; ++i) out->hold_node[at++] = v;
  out->hold_count = h;
  free(start);
  return WEIR_OK;
}
