/* Block-level liveness of value facts (liveness.c): which SSA values of a
 * function are still read after an edge, so that the facts of the others
 * die there. */
#ifndef WEIR_FRONTENDS_LLVM_LIVENESS_H
#define WEIR_FRONTENDS_LLVM_LIVENESS_H

#include "frontends/llvm/internal.h"

typedef struct weir_llvm_liveness {
  weir_llvm_map block_index, value_index; /* block -> row, value -> bit */
  LLVMValueRef *values;                   /* bit -> value */
  uint32_t value_count, block_count;
  size_t words;                           /* 64-bit words per row */
  uint64_t *live_in, *defs;               /* [block_count][words] */
} weir_llvm_liveness;

/* Liveness of the values of `fn` that carry a fact and are read outside
 * their own block (the others die at their last use, emit.c). */
weir_status weir_llvm_liveness_compute(const weir_llvm_ctx *ctx, LLVMValueRef fn, weir_llvm_liveness *lv);
/* Kills, on the edge pred -> succ, the facts of values that may hold at the
 * end of pred and that nothing reads from succ on. */
void weir_llvm_liveness_edge(const weir_llvm_ctx *ctx, const weir_llvm_liveness *lv, LLVMBasicBlockRef pred,
                             LLVMBasicBlockRef succ, weir_llvm_flow *flow);
void weir_llvm_liveness_free(weir_llvm_liveness *lv);

#endif
