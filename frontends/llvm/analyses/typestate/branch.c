/* Reading a conditional branch on a resource (ts.h): the edge where a
 * creating call failed, the edge where a try succeeded. */
#include "frontends/llvm/analyses/typestate/ts.h"

static LLVMIntPredicate swapped(LLVMIntPredicate p) {
  switch (p) {
  case LLVMIntSLT: return LLVMIntSGT;
  case LLVMIntSGT: return LLVMIntSLT;
  case LLVMIntSLE: return LLVMIntSGE;
  case LLVMIntSGE: return LLVMIntSLE;
  default: return p;
  }
}

static int is_constant(LLVMValueRef v) { return LLVMIsAConstantPointerNull(v) || LLVMIsAConstantInt(v); }

int weir_ts_decode(LLVMValueRef term, LLVMBasicBlockRef succ, weir_ts_branch *t) {
  if (!LLVMIsABranchInst(term) || !LLVMIsConditional(term) || LLVMGetSuccessor(term, 0) == LLVMGetSuccessor(term, 1))
    return 0;
  LLVMValueRef cond = LLVMGetCondition(term);
  int invert = 0;
  while (LLVMIsABinaryOperator(cond) && LLVMGetInstructionOpcode(cond) == LLVMXor &&
         LLVMIsAConstantInt(LLVMGetOperand(cond, 1)) && LLVMConstIntGetZExtValue(LLVMGetOperand(cond, 1)) == 1)
    invert ^= 1, cond = LLVMGetOperand(cond, 0);
  if (!LLVMIsAICmpInst(cond)) return 0;
  LLVMValueRef a = weir_llvm_strip_bitcasts(LLVMGetOperand(cond, 0)), b = weir_llvm_strip_bitcasts(LLVMGetOperand(cond, 1));
  t->pred = LLVMGetICmpPredicate(cond);
  if (is_constant(a) && !is_constant(b)) {
    LLVMValueRef s = a;
    a = b, b = s, t->pred = swapped(t->pred);
  }
  if (!is_constant(b) || is_constant(a)) return 0;
  t->x = a;
  t->null = LLVMIsAConstantPointerNull(b) != NULL;
  t->c = t->null ? 0 : LLVMConstIntGetSExtValue(b);
  t->when_true = (succ == LLVMGetSuccessor(term, 0)) ^ invert;
  return 1;
}

/* The edge where a creating call failed: a NULL stream, a negative
 * descriptor (`if (!f)`, `if (fd < 0)`, `if (fd == -1)`, `if (fd > 0)`'s
 * else). */
int weir_ts_failed(const weir_ts_branch *t) {
  LLVMIntPredicate p = t->pred;
  if (t->null) return (p == LLVMIntEQ && t->when_true) || (p == LLVMIntNE && !t->when_true);
  if (t->c == -1)
    return ((p == LLVMIntEQ || p == LLVMIntSLE) && t->when_true) || ((p == LLVMIntNE || p == LLVMIntSGT) && !t->when_true);
  if (t->c == 0) /* fd < 0, and code that takes 0 for "none": `if (fd > 0) close(fd)` */
    return ((p == LLVMIntSLT || p == LLVMIntSLE) && t->when_true) || ((p == LLVMIntSGE || p == LLVMIntSGT) && !t->when_true);
  return 0;
}

/* The edge where a call returned 0 (`if (pthread_mutex_trylock(&m) == 0)`). */
int weir_ts_returned_zero(const weir_ts_branch *t) {
  return !t->null && t->c == 0 && ((t->pred == LLVMIntEQ && t->when_true) || (t->pred == LLVMIntNE && !t->when_true));
}
