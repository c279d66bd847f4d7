/* Arrays filled by appends (uninit).
 *
 * C fills a buffer by appending at a count: `keys[n] = k; values[n++] = v;`
 * under a chain of `if`s, or `struct row *r = &t->rows[t->n++]` in a loop
 * over a hash map, and reads it back below the count (`for (i = 0; i < n;
 * i++) use(keys[i])`). A path-insensitive analysis sees the path on which
 * nothing was appended reach the read. An object that some address
 * computation indexes by an append counter -- an index X (up to casts)
 * with `X + 1` computed in the same block, or a load of a field that the
 * function increments by one in place, where X is not the induction
 * variable of a counted loop (a phi that takes `X + 1` back and that the
 * loop's exit branch tests) -- starts out
 * initialised, as a calloc'd block does. Optimistic: a read at or beyond
 * the count is not reported. Loops that fill by an induction variable keep
 * their U facts (analyses/uninit/loopfill.c and ranges.c handle them). */
#include <stdlib.h>

#include "frontends/llvm/internal.h"

static LLVMValueRef strip_int_casts(LLVMValueRef v) {
  while (v && (LLVMIsASExtInst(v) || LLVMIsAZExtInst(v) || LLVMIsATruncInst(v))) v = LLVMGetOperand(v, 0);
  return v;
}

static int is_one(LLVMValueRef v) { return v && LLVMIsAConstantInt(v) && LLVMConstIntGetZExtValue(v) == 1; }

/* `X + 1` in block `b`, or NULL. */
static LLVMValueRef increment_in(LLVMValueRef x, LLVMBasicBlockRef b) {
  for (LLVMUseRef u = LLVMGetFirstUse(x); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef add = LLVMGetUser(u);
    if (!LLVMIsAInstruction(add) || LLVMGetInstructionOpcode(add) != LLVMAdd) continue;
    if (LLVMGetInstructionParent(add) != b) continue;
    if (is_one(LLVMGetOperand(add, 0)) || is_one(LLVMGetOperand(add, 1))) return add;
  }
  return NULL;
}

/* Whether `x` is the induction variable of a counted loop: a phi that
 * takes `next` back, where the block computing `next` ends in an integer
 * test that leads back to x's block (the latch of `for (i = 0; i < n;
 * i++) a[i] = v` at -O2, one block). An append counter's loop is not
 * counted (`while ((t = next())) { if (n == MAX) fail(); tok[n++] = t; }`:
 * the back edge tests a pointer). At -O0 a counted loop's store and increment lie in
 * different blocks, so it is no candidate in the first place. */
static int induction(LLVMValueRef x, LLVMValueRef next) {
  if (!LLVMIsAPHINode(x)) return 0;
  int feeds_back = 0;
  for (unsigned k = 0, n = LLVMCountIncoming(x); k < n; ++k)
    feeds_back |= strip_int_casts(LLVMGetIncomingValue(x, k)) == next;
  if (!feeds_back) return 0;
  LLVMBasicBlockRef header = LLVMGetInstructionParent(x);
  LLVMValueRef term = LLVMGetBasicBlockTerminator(LLVMGetInstructionParent(next));
  if (!term || !LLVMIsABranchInst(term) || !LLVMIsConditional(term)) return 0;
  if (LLVMGetSuccessor(term, 0) != header && LLVMGetSuccessor(term, 1) != header) return 0;
  LLVMValueRef cond = LLVMGetCondition(term);
  /* any integer test on the back edge: -O2's remainder loops count down a
   * second variable (`i.next = i + 1; left = left - 1; left == 0`) */
  return LLVMIsAICmpInst(cond) && LLVMGetTypeKind(LLVMTypeOf(LLVMGetOperand(cond, 0))) == LLVMIntegerTypeKind;
}

/* Whether two addresses are the same expression: one value, or GEPs of
 * the same operands (at -O0 every `s->count` is a GEP of its own). */
static int same_address(LLVMValueRef a, LLVMValueRef b) {
  if (a == b) return 1;
  if (!LLVMIsAGetElementPtrInst(a) || !LLVMIsAGetElementPtrInst(b)) return 0;
  int n = LLVMGetNumOperands(a);
  if (n != LLVMGetNumOperands(b)) return 0;
  for (int k = 0; k < n; ++k)
    if (LLVMGetOperand(a, (unsigned)k) != LLVMGetOperand(b, (unsigned)k)) return 0;
  return 1;
}

/* Whether `x` is a load of a counter kept in memory that the function
 * increments by one in place (`if (s->n < s->cap) s->v[s->n] = r;
 * s->n++;`: the increment reads the field again, in another block). */
static int counter_in_memory(LLVMValueRef x) {
  if (!LLVMIsALoadInst(x)) return 0;
  LLVMValueRef place = LLVMGetOperand(x, 0);
  LLVMValueRef fn = LLVMGetBasicBlockParent(LLVMGetInstructionParent(x));
  for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(fn); b; b = LLVMGetNextBasicBlock(b))
    for (LLVMValueRef i = LLVMGetFirstInstruction(b); i; i = LLVMGetNextInstruction(i)) {
      if (!LLVMIsAStoreInst(i) || !same_address(LLVMGetOperand(i, 1), place)) continue;
      LLVMValueRef add = LLVMGetOperand(i, 0);
      if (!LLVMIsAInstruction(add) || LLVMGetInstructionOpcode(add) != LLVMAdd) continue;
      for (int k = 0; k < 2; ++k) {
        LLVMValueRef old = LLVMGetOperand(add, (unsigned)k), step = LLVMGetOperand(add, (unsigned)(1 - k));
        if (is_one(step) && LLVMIsALoadInst(old) && same_address(LLVMGetOperand(old, 0), place)) return 1;
      }
    }
  return 0;
}

static int append_index(LLVMValueRef gep) {
  int n = LLVMGetNumOperands(gep);
  if (n < 2) return 0;
  LLVMValueRef index = LLVMGetOperand(gep, n - 1);
  if (LLVMIsAConstant(index)) return 0;
  LLVMValueRef x = strip_int_casts(index);
  LLVMValueRef next = increment_in(x, LLVMGetInstructionParent(gep));
  if (!next && x != index) next = increment_in(index, LLVMGetInstructionParent(gep));
  if (!next) return counter_in_memory(x);
  return !induction(x, next);
}

void weir_llvm_append_objects(weir_llvm_ctx *ctx) {
  uint32_t objects = weir_llvm_memory_object_count(ctx->memory);
  ctx->appended = calloc(objects ? objects : 1, 1);
  if (!ctx->appended) {
    ctx->failed = 1;
    return;
  }
  for (LLVMValueRef fn = LLVMGetFirstFunction(ctx->module); fn; fn = LLVMGetNextFunction(fn))
    for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(fn); b; b = LLVMGetNextBasicBlock(b))
      for (LLVMValueRef i = LLVMGetFirstInstruction(b); i; i = LLVMGetNextInstruction(i)) {
        if (!LLVMIsAGetElementPtrInst(i) || !append_index(i)) continue;
        const uint32_t *locs = NULL;
        size_t n = weir_llvm_pts(ctx, LLVMGetOperand(i, 0), &locs);
        if (n > 4) continue; /* a vague base: marking its targets would hide too much */
        for (size_t k = 0; k < n; ++k) ctx->appended[weir_llvm_memory_location(ctx->memory, locs[k]).object] = 1;
      }
}
