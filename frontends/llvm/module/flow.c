/* Flow-function builders, and interning them (through the fact map of
 * pruning) with the problem builder of weir/ifds.h. */
#include <stdlib.h>

#include "frontends/llvm/internal.h"

void weir_llvm_flow_reset(weir_llvm_flow *flow, int identity) {
  flow->identity = identity;
  flow->kills.n = 0;
  flow->pairs.n = 0;
  flow->bundles.n = 0;
  flow->fns.n = 0;
}

void weir_llvm_flow_kill(weir_llvm_flow *flow, uint32_t fact) {
  if (fact != 0 && fact != WEIR_LLVM_NONE) weir_llvm_vec_push(&flow->kills, fact);
}

static void push_pair(weir_llvm_flow *flow, uint32_t from, uint32_t to) {
  /* Only the zero fact flows into the zero fact (implied); unknown facts skip. */
  if (to == 0 || to == WEIR_LLVM_NONE || from == WEIR_LLVM_NONE) return;
  weir_llvm_vec_push(&flow->pairs, from);
  weir_llvm_vec_push(&flow->pairs, to);
}

void weir_llvm_flow_pair(weir_llvm_flow *flow, uint32_t from, uint32_t to) {
  if (from != 0) push_pair(flow, from, to);
}

void weir_llvm_flow_gen(weir_llvm_flow *flow, uint32_t to) { push_pair(flow, 0, to); }

void weir_llvm_flow_bundle(weir_llvm_flow *flow, const uint32_t *from, size_t nf, const uint32_t *to, size_t nt) {
  size_t at = flow->bundles.n, kept_from = 0, kept_to = 0;
  weir_llvm_vec_push(&flow->bundles, 0);
  weir_llvm_vec_push(&flow->bundles, 0);
  for (size_t k = 0; k < nf; ++k)
    if (from[k] != 0 && from[k] != WEIR_LLVM_NONE) weir_llvm_vec_push(&flow->bundles, from[k]), ++kept_from;
  for (size_t k = 0; k < nt; ++k)
    if (to[k] != 0 && to[k] != WEIR_LLVM_NONE) weir_llvm_vec_push(&flow->bundles, to[k]), ++kept_to;
  if (flow->bundles.failed) return;
  if (!kept_from || !kept_to) { /* nothing flows */
    flow->bundles.n = at;
    return;
  }
  flow->bundles.v[at] = (uint32_t)kept_from;
  flow->bundles.v[at + 1] = (uint32_t)kept_to;
}

void weir_llvm_flow_free(weir_llvm_flow *flow) {
  weir_llvm_vec_free(&flow->kills);
  weir_llvm_vec_free(&flow->pairs);
  weir_llvm_vec_free(&flow->bundles);
  weir_llvm_vec_free(&flow->fns);
}

static uint32_t mapped(const uint32_t *map, uint32_t fact) { return map ? map[fact] : fact; }

/* The kills (identity only) and then the pairs of `flow` through `map`,
 * into `out`; *kill_count says where the pairs start. */
static void map_flow(weir_llvm_flow *flow, const uint32_t *map, weir_llvm_vec *out, size_t *kill_count) {
  out->n = 0;
  if (flow->identity) {
    weir_llvm_vec_sort_unique(&flow->kills);
    for (size_t k = 0; k < flow->kills.n; ++k) {
      uint32_t f = mapped(map, flow->kills.v[k]);
      if (f != WEIR_LLVM_NONE && f != 0) weir_llvm_vec_push(out, f);
    }
  }
  *kill_count = out->n;
  /* A pair whose source can never hold is dropped; a live source never
   * flows into a pruned fact (that fact would be live). Repeated pairs are
   * fine: the builder interns the function in canonical form. */
  for (size_t k = 0; k + 1 < flow->pairs.n; k += 2) {
    uint32_t from = mapped(map, flow->pairs.v[k]), to = mapped(map, flow->pairs.v[k + 1]);
    if (from == WEIR_LLVM_NONE || to == WEIR_LLVM_NONE || (from == to && flow->identity)) continue;
    weir_llvm_vec_push(out, from);
    weir_llvm_vec_push(out, to);
  }
  /* bundles: the product of the sides pruning kept */
  for (size_t b = 0; b + 1 < flow->bundles.n;) {
    uint32_t nf = flow->bundles.v[b], nt = flow->bundles.v[b + 1];
    const uint32_t *from = flow->bundles.v + b + 2, *to = from + nf;
    for (uint32_t i = 0; i < nf; ++i) {
      uint32_t f = mapped(map, from[i]);
      if (f == WEIR_LLVM_NONE) continue;
      for (uint32_t j = 0; j < nt; ++j) {
        uint32_t t = mapped(map, to[j]);
        if (t == WEIR_LLVM_NONE || (f == t && flow->identity)) continue;
        weir_llvm_vec_push(out, f);
        weir_llvm_vec_push(out, t);
      }
    }
    b += 2 + (size_t)nf + nt;
  }
}

weir_status weir_llvm_flow_intern(weir_ifds_builder *builder, weir_llvm_flow *flow, const uint32_t *map,
                                  weir_llvm_vec *scratch, uint32_t *index) {
  size_t kills = 0;
  map_flow(flow, map, scratch, &kills);
  if (flow->kills.failed || flow->pairs.failed || flow->bundles.failed || scratch->failed)
    return weir_fail(WEIR_ERR_OUT_OF_MEMORY, "analyze: no memory for a flow function. Fix: free memory");
  const uint32_t *v = scratch->v;
  return weir_ifds_builder_flow(builder, flow->identity, v, kills, v ? v + kills : NULL,
                                (scratch->n - kills) / 2, index);
}
