/* What the typestate files share (typestate.c, holders.c, branch.c). */
#ifndef WEIR_FRONTENDS_LLVM_TYPESTATE_TS_H
#define WEIR_FRONTENDS_LLVM_TYPESTATE_TS_H

#include "frontends/llvm/analyses/typestate/spec.h"
#include "frontends/llvm/internal.h"

static inline const weir_ts_spec *spec_of(const weir_llvm_ctx *ctx) { return ctx->config->typestate; }

static inline uint32_t val(const weir_llvm_ctx *ctx, LLVMValueRef v) {
  uint32_t vid = v ? weir_llvm_vid(ctx, v) : WEIR_LLVM_NONE;
  return vid == WEIR_LLVM_NONE ? 0 : ctx->fact_a[vid];
}

static inline uint32_t loc(const weir_llvm_ctx *ctx, uint32_t location) { return ctx->loc_fact[location]; }

static inline void push_fact(weir_llvm_vec *out, uint32_t fact) {
  if (fact) weir_llvm_vec_push(out, fact);
}

/* The value's own facts: what a check looks at (holders.c). */
void weir_ts_direct_holders(const weir_llvm_ctx *ctx, LLVMValueRef arg, weir_llvm_vec *out);
/* The facts a transition on `arg` at `at` reaches, strong and weak (holders.c). */
void weir_ts_holders(const weir_llvm_ctx *ctx, LLVMValueRef at, LLVMValueRef arg, weir_llvm_vec *strong,
                     weir_llvm_vec *weak);

/* A conditional branch on `x PRED constant` (after `!`, which clang -O0
 * writes as xor with true), seen from the edge to `succ`. */
typedef struct weir_ts_branch {
  LLVMValueRef x;
  int64_t c;
  int null;          /* the constant is a null pointer */
  LLVMIntPredicate pred;
  int when_true;     /* succ is taken when the comparison holds */
} weir_ts_branch;

/* Reads the branch `term` as seen from its edge to `succ`; 0 when it is not
 * a comparison of a value with a constant (branch.c). */
int weir_ts_decode(LLVMValueRef term, LLVMBasicBlockRef succ, weir_ts_branch *t);
/* The edge where a creating call failed (NULL, a negative descriptor). */
int weir_ts_failed(const weir_ts_branch *t);
/* The edge where a call returned 0. */
int weir_ts_returned_zero(const weir_ts_branch *t);

#endif
