/* Flow-function builders and their text token (spec: "id,-3,0>7", "none"). */
#include <stdlib.h>

#include "frontends/llvm/internal.h"

void weir_llvm_flow_reset(weir_llvm_flow *flow, int identity) {
  flow->identity = identity;
  flow->kills.n = 0;
  flow->pairs.n = 0;
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

void weir_llvm_flow_free(weir_llvm_flow *flow) {
  weir_llvm_vec_free(&flow->kills);
  weir_llvm_vec_free(&flow->pairs);
}

void weir_llvm_flow_write(weir_llvm_text *text, weir_llvm_flow *flow) {
  if (flow->kills.failed || flow->pairs.failed) text->failed = 1;
  if (!flow->identity && flow->pairs.n == 0) {
    weir_llvm_text_put(text, "none", 4);
    return;
  }
  int first = 1;
  if (flow->identity) {
    weir_llvm_text_put(text, "id", 2);
    first = 0;
    weir_llvm_vec_sort_unique(&flow->kills);
    for (size_t k = 0; k < flow->kills.n; ++k) weir_llvm_text_printf(text, ",-%u", flow->kills.v[k]);
  }
  /* Repeated pairs are allowed by the format and interned by the loader. */
  for (size_t k = 0; k + 1 < flow->pairs.n; k += 2) {
    weir_llvm_text_printf(text, first ? "%u>%u" : ",%u>%u", flow->pairs.v[k], flow->pairs.v[k + 1]);
    first = 0;
  }
}

static uint32_t mapped(const uint32_t *map, uint32_t fact) { return map ? map[fact] : fact; }

void weir_llvm_flow_write_mapped(weir_llvm_text *text, weir_llvm_flow *flow, const uint32_t *map) {
  if (flow->kills.failed || flow->pairs.failed) text->failed = 1;
  int first = 1;
  if (flow->identity) {
    weir_llvm_text_put(text, "id", 2);
    first = 0;
    weir_llvm_vec_sort_unique(&flow->kills);
    for (size_t k = 0; k < flow->kills.n; ++k) {
      uint32_t f = mapped(map, flow->kills.v[k]);
      if (f != WEIR_LLVM_NONE && f != 0) weir_llvm_text_printf(text, ",-%u", f);
    }
  }
  /* A pair whose source can never hold is dropped; a live source never
   * flows into a pruned fact (that fact would be live). Repeated pairs are
   * allowed by the format and interned by the loader. */
  for (size_t k = 0; k + 1 < flow->pairs.n; k += 2) {
    uint32_t from = mapped(map, flow->pairs.v[k]), to = mapped(map, flow->pairs.v[k + 1]);
    if (from == WEIR_LLVM_NONE || to == WEIR_LLVM_NONE || (from == to && flow->identity)) continue;
    weir_llvm_text_printf(text, first ? "%u>%u" : ",%u>%u", from, to);
    first = 0;
  }
  if (first) weir_llvm_text_put(text, "none", 4);
}
