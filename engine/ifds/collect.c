/* Holds from packed path edges without a second copy of the table: the
 * keys are compacted to (n, d2) at the front of the table's own array,
 * which then shrinks to them, sorted (LSD radix, ifds_sort_u64), and the
 * distinct pairs are written as 32-bit facts into the front of the same
 * array, which becomes hold_fact. Peak: the keys plus the sort's copy
 * (16 bytes per path edge, less than the table they replace), then the
 * holds. (An in-place bucket permutation by node saved the sort's copy but
 * was 2x slower than the whole solve on 2 M nodes: random swaps.) */
#include "engine/ifds/collect.h"

#include <stdlib.h>

#include "engine/ifds/internal.h"

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

weir_status weir_ifds_holds_from_keys(uint64_t *k, size_t m, weir_ifds_result *out) {
  weir_status st = ifds_sort_u64(k, m);
  uint32_t *node = st == WEIR_OK ? malloc((m ? m : 1) * sizeof *node) : NULL;
  if (!node) {
    free(k);
    return st != WEIR_OK ? st : oom("the hold nodes", 4ull * m);
  }
  /* Facts go to the front of the sorted words as 32-bit values: a write
   * never reaches a word not read yet, and the last key read is kept aside
   * because its word may already hold facts. */
  uint32_t *fact = (uint32_t *)k;
  size_t h = 0;
  uint64_t prev = 0;
  for (size_t i = 0; i < m; ++i) {
    uint64_t key = k[i];
    if (i && key == prev) continue;
    prev = key;
    node[h] = (uint32_t)(key >> 32);
    fact[h++] = (uint32_t)key;
  }
  uint32_t *f = realloc(fact, (h ? h : 1) * sizeof *f);
  out->hold_fact = f ? f : fact;
  uint32_t *n = realloc(node, (h ? h : 1) * sizeof *n);
  out->hold_node = n ? n : node;
  out->hold_count = h;
  return WEIR_OK;
}

weir_status weir_ifds_holds_in_place(uint64_t **words, size_t slots, uint32_t bc_bits,
                                     weir_ifds_result *out) {
  uint64_t *k = *words;
  *words = NULL;
  size_t m = k ? compact(k, slots, bc_bits) : 0;
  uint64_t *shrunk = realloc(k, (m ? m : 1) * sizeof *k);
  if (shrunk) k = shrunk;
  if (!k) return oom("the result keys", 8);
  return weir_ifds_holds_from_keys(k, m, out);
}
