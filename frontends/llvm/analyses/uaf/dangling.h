/* Where dangling pointers come from, for uaf (analyses/uaf/dangling.c): the
 * values that hold a freed pointer's address, the slot it was read from,
 * and which values, locations and returns a free can ever reach. */
#ifndef WEIR_LLVM_ANALYSES_DANGLING_H
#define WEIR_LLVM_ANALYSES_DANGLING_H

#include "frontends/llvm/internal.h"

#define WEIR_LLVM_ALIAS_CAP 64

/* `pointer` and every value of its function that holds the same address
 * or one derived from it (at most WEIR_LLVM_ALIAS_CAP); 0 for a constant. */
size_t weir_llvm_alias_values(LLVMValueRef pointer, LLVMValueRef work[WEIR_LLVM_ALIAS_CAP]);

/* `free(s->buf)` at `call`: the locations of the slot `pointer` was just
 * read from (none when the rule does not apply). */
size_t weir_llvm_freed_slots(const weir_llvm_ctx *ctx, LLVMValueRef call, LLVMValueRef pointer,
                             const uint32_t **slots);

/* Whether a defined callee of `call` may write one of the `n` locations
 * (their mod sets): `kill_connection(c)` unlinks c from the slot it was
 * read from; `sset_init(a)` makes *a again. */
int weir_llvm_callee_writes(const weir_llvm_ctx *ctx, LLVMValueRef call, const uint32_t *locs, size_t n);

/* Whether any of `n` locations lies in a block uaf tracks (ctx->obj_fact). */
int weir_llvm_meets_tracked(const weir_llvm_ctx *ctx, const uint32_t *locs, size_t n);

/* The function whose frame `location` is in, or NULL for memory that
 * outlives calls. */
LLVMValueRef weir_llvm_frame_of(const weir_llvm_ctx *ctx, uint32_t location);

/* The may-dangle closure's marks: per value id, location, function. */
typedef struct weir_llvm_dangle_marks {
  uint8_t *value, *location, *returns;
  int changed;
} weir_llvm_dangle_marks;

/* Fills `m` (the caller frees its arrays); ctx->obj_fact must be set.
 * 0 when out of memory. */
int weir_llvm_may_dangle(weir_llvm_ctx *ctx, weir_llvm_dangle_marks *m);

/* Whether defined function `proc` frees memory its caller can see only on
 * paths where it returns nonzero (an error object, -1): analyses/uaf/cleanup.c.
 * Cached in ctx; ctx->failed on out of memory. */
int weir_llvm_frees_only_on_failure(weir_llvm_ctx *ctx, uint32_t proc);

/* Whether `v` is a null pointer or an integer 0 constant (cleanup.c). */
int weir_llvm_zero_constant(LLVMValueRef v);

#endif
