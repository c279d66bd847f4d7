/* Shared by the files of analyses/const (README.md there). */
#ifndef WEIR_FRONTENDS_LLVM_ANALYSES_CONST_CONST_H
#define WEIR_FRONTENDS_LLVM_ANALYSES_CONST_CONST_H

#include "frontends/llvm/internal.h"
#include "weir/ide.h"

/* The analysis' state while building (ctx->cst). */
typedef struct weir_llvm_const_state {
  weir_llvm_vec *stack;   /* [fn_count] the locations of each function's allocas */
  weir_llvm_vec globals;  /* locations of global variables */
  weir_llvm_vec others;   /* heap and external locations: not a constant at any entry */
  int has_main;           /* a program: exported functions are called from it only */
  int local_memory;       /* locations do not cross calls (const.c, the memory budget) */
  weir_llvm_vec *reads;   /* local_memory: [fn_count] the locations each function loads */
  /* the edge-function table is ctx->out->ts_fns (fns aliases it); slots hash it */
  weir_ide_fn *fns;
  uint32_t fn_cap;
  uint32_t *slots;
  uint32_t slot_cap;
} weir_llvm_const_state;

weir_ide_fn weir_llvm_const_bottom(void);
/* An integer constant of at most 64 bits as const keeps it (sign-extended;
 * i1: 0 or 1); 0 when `v` is none. */
int weir_llvm_const_int_value(LLVMValueRef v, int64_t *out);
/* add/sub/mul/shl of one operand by a constant, exact in the family:
 * *operand, a and b of λx.a·x+b; 0 when the instruction is none of them. */
int weir_llvm_const_affine(LLVMValueRef inst, LLVMValueRef *operand, int64_t *a, int64_t *b);
/* The index of `fn` in the problem's table (0: the identity; 0 and
 * ctx->failed on out of memory). */
uint32_t weir_llvm_const_intern(weir_llvm_ctx *ctx, const weir_ide_fn *fn);
/* Pair from -> to of `flow` carrying `fn` (from 0: a generation). */
void weir_llvm_const_pair(weir_llvm_ctx *ctx, weir_llvm_flow *flow, uint32_t from, uint32_t to,
                          const weir_ide_fn *fn);
/* The value of `base` (a use's integer, width base_bits) as `v` reads it
 * through the casts (trunc, zext, sext) between them: 0 when a cast in
 * between is none of those. */
int weir_llvm_const_through_casts(LLVMValueRef v, LLVMValueRef base, int64_t value, int64_t *out);
/* A use's integer: `v` without the trunc/zext/sext chain over it. */
LLVMValueRef weir_llvm_const_strip_casts(LLVMValueRef v);
/* The value a global location holds before main runs (its initialiser
 * when zero everywhere or a plain integer at offset 0); 0 when const does
 * not read it. `out` may be NULL. */
int weir_llvm_const_initial(const weir_llvm_ctx *ctx, uint32_t location, int64_t *out);
/* Marks the values, locations and returns a constant may reach (maybe.c);
 * 0 on out of memory. The caller frees the three arrays. */
int weir_llvm_const_maybe(weir_llvm_ctx *ctx, uint8_t **value, uint8_t **location, uint8_t **ret);
/* `value` read as an integer of `bits` bits (sign-extended; i1: 0 or 1). */
int64_t weir_llvm_const_normalize(int64_t value, uint32_t bits);

#endif
