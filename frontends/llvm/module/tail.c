/* Returning blocks copied per deciding predecessor (prepare, after
 * threading).
 *
 * -O2 turns `unlock: ovs_replay_unlock(); return error ? -error : len;`
 * into one returning block whose phi `error` is the constant EAGAIN on the
 * paths that never wrote `len`, and whose load of `len` is speculated in
 * front of a `select`:
 *
 *     %e = phi i32 [ 0, %ok ], [ 11, %busy ], [ %r, %failed ]
 *     call void @ovs_replay_unlock()
 *     %z = icmp eq i32 %e, 0
 *     %l = load i32, i32* %len
 *     %v = select i1 %z, i32 %l, i32 %neg
 *     ret ...
 *
 * A path-insensitive analysis sees the load on every path and reports
 * `len` as read uninitialised. A predecessor whose phi value decides a
 * compare that a select of the block tests gets its own copy of the block
 * (what LLVM's tail duplication does), in which the compare is a constant,
 * the select takes its operand, and the load that nothing uses any more is
 * gone. The program's meaning is kept: each path runs the same calls, the
 * removed instructions have no effect. Small blocks only (COPY_MAX). */
#include <llvm-c/Core.h>
#include <llvm-c/DebugInfo.h>
#include <stdlib.h>

#include "frontends/llvm/module/module.h"

enum { COPY_MAX = 24, TAIL_PREDS = 16 };

static weir_status oom(const char *what) {
  return weir_fail(WEIR_ERR_OUT_OF_MEMORY, "analyze: no memory while copying returning blocks (%s). Fix: free "
                   "memory or analyse fewer modules", what);
}

/* The value of `v` on the edge from `pred` into `b` (a phi of b), else v. */
static LLVMValueRef incoming_on(LLVMValueRef v, LLVMBasicBlockRef b, LLVMBasicBlockRef pred) {
  if (!LLVMIsAPHINode(v) || LLVMGetInstructionParent(v) != b) return v;
  for (unsigned k = 0, n = LLVMCountIncoming(v); k < n; ++k)
    if (LLVMGetIncomingBlock(v, k) == pred) return LLVMGetIncomingValue(v, k);
  return NULL;
}

/* Whether `b` is a small returning block with a select whose condition
 * compares a phi of b with a constant (the shape above). */
static int tail_shape(LLVMBasicBlockRef b, unsigned *size) {
  LLVMValueRef term = LLVMGetBasicBlockTerminator(b);
  if (!term || LLVMGetInstructionOpcode(term) != LLVMRet) return 0;
  int decides = 0;
  *size = 0;
  for (LLVMValueRef i = LLVMGetFirstInstruction(b); i; i = LLVMGetNextInstruction(i)) {
    if (LLVMIsAPHINode(i) || LLVMIsADbgInfoIntrinsic(i)) continue;
    if (++*size > COPY_MAX) return 0;
    if (LLVMIsAInvokeInst(i)) return 0;
    if (!LLVMIsASelectInst(i)) continue;
    LLVMValueRef c = LLVMGetOperand(i, 0);
    if (!LLVMIsAICmpInst(c) || LLVMGetInstructionParent(c) != b) continue;
    LLVMValueRef a = LLVMGetOperand(c, 0), k = LLVMGetOperand(c, 1);
    decides |= (LLVMIsAPHINode(a) && LLVMGetInstructionParent(a) == b && LLVMIsAConstant(k)) ||
               (LLVMIsAPHINode(k) && LLVMGetInstructionParent(k) == b && LLVMIsAConstant(a));
  }
  return decides;
}

/* Whether the phis of b take constants from `pred` that make some select's
 * compare constant. */
static int pred_decides(LLVMBasicBlockRef b, LLVMBasicBlockRef pred) {
  for (LLVMValueRef i = LLVMGetFirstInstruction(b); i; i = LLVMGetNextInstruction(i)) {
    if (!LLVMIsASelectInst(i)) continue;
    LLVMValueRef c = LLVMGetOperand(i, 0);
    if (!LLVMIsAICmpInst(c) || LLVMGetInstructionParent(c) != b) continue;
    LLVMValueRef a = incoming_on(LLVMGetOperand(c, 0), b, pred), k = incoming_on(LLVMGetOperand(c, 1), b, pred);
    if (a && k && LLVMIsAConstantInt(a) && LLVMIsAConstantInt(k)) return 1;
  }
  return 0;
}

/* Index of `v` among b's copied instructions, or -1. */
static int copied_index(LLVMValueRef const *from, int n, LLVMValueRef v) {
  for (int k = 0; k < n; ++k)
    if (from[k] == v) return k;
  return -1;
}

/* Whether an instruction may go when nothing uses it. */
static int removable(LLVMValueRef i) {
  if (LLVMGetFirstUse(i)) return 0;
  if (LLVMIsALoadInst(i)) return !LLVMGetVolatile(i);
  return LLVMIsABinaryOperator(i) || LLVMIsACastInst(i) || LLVMIsAICmpInst(i) || LLVMIsASelectInst(i) ||
         LLVMIsAGetElementPtrInst(i);
}

/* The copy for `pred`: b's instructions with b's phis replaced by their
 * values on pred's edge, compares of constants folded, selects on a
 * constant replaced by their operand, and what is then unused removed. */
static weir_status copy_tail(LLVMBuilderRef builder, LLVMValueRef fn, LLVMBasicBlockRef b, LLVMBasicBlockRef pred) {
  LLVMValueRef from[COPY_MAX + 1], to[COPY_MAX + 1];
  int n = 0;
  LLVMBasicBlockRef copy = LLVMInsertBasicBlockInContext(LLVMGetModuleContext(LLVMGetGlobalParent(fn)), b, "");
  LLVMPositionBuilderAtEnd(builder, copy);
  for (LLVMValueRef i = LLVMGetFirstInstruction(b); i; i = LLVMGetNextInstruction(i)) {
    if (LLVMIsAPHINode(i) || LLVMIsADbgInfoIntrinsic(i)) continue;
    LLVMValueRef c = LLVMInstructionClone(i);
    if (!c) return oom("an instruction");
    for (int j = 0, m = LLVMGetNumOperands(c); j < m; ++j) {
      LLVMValueRef op = LLVMGetOperand(c, (unsigned)j);
      int at = copied_index(from, n, op);
      LLVMValueRef v = at >= 0 ? to[at] : incoming_on(op, b, pred);
      if (v != op) LLVMSetOperand(c, (unsigned)j, v);
    }
    LLVMValueRef value = c;
    if (LLVMIsAICmpInst(c) && LLVMIsAConstantInt(LLVMGetOperand(c, 0)) && LLVMIsAConstantInt(LLVMGetOperand(c, 1))) {
      value = LLVMConstICmp(LLVMGetICmpPredicate(c), LLVMGetOperand(c, 0), LLVMGetOperand(c, 1));
    } else if (LLVMIsASelectInst(c) && LLVMIsAConstantInt(LLVMGetOperand(c, 0))) {
      value = LLVMGetOperand(c, LLVMConstIntGetZExtValue(LLVMGetOperand(c, 0)) ? 1 : 2);
    }
    LLVMInsertIntoBuilder(builder, c);
    /* the builder stamps its own (stale) location on what it inserts */
    LLVMInstructionSetDebugLoc(c, LLVMInstructionGetDebugLoc(i));
    if (value != c) LLVMInstructionEraseFromParent(c); /* folded: nothing uses it yet */
    from[n] = i;
    to[n++] = value;
  }
  /* what the folding left unused, last first (a load only a select used) */
  for (int changed = 1; changed;) {
    changed = 0;
    for (LLVMValueRef i = LLVMGetLastInstruction(copy), prev; i; i = prev) {
      prev = LLVMGetPreviousInstruction(i);
      if (removable(i)) {
        LLVMInstructionEraseFromParent(i);
        changed = 1;
      }
    }
  }
  LLVMValueRef term = LLVMGetBasicBlockTerminator(pred);
  for (unsigned j = 0, m = LLVMGetNumSuccessors(term); j < m; ++j)
    if (LLVMGetSuccessor(term, j) == b) LLVMSetSuccessor(term, j, copy);
  return weir_llvm_drop_incoming(builder, b, pred, UINT32_MAX);
}

static weir_status tail_function(LLVMBuilderRef builder, LLVMValueRef fn, uint32_t *copied) {
  for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(fn); b; b = LLVMGetNextBasicBlock(b)) {
    unsigned size = 0;
    if (!tail_shape(b, &size)) continue;
    LLVMBasicBlockRef preds[TAIL_PREDS];
    size_t n = 0;
    int usable = 1;
    for (LLVMBasicBlockRef p = LLVMGetFirstBasicBlock(fn); p && usable; p = LLVMGetNextBasicBlock(p)) {
      LLVMValueRef term = LLVMGetBasicBlockTerminator(p);
      unsigned edges = 0;
      for (unsigned k = 0, m = term ? LLVMGetNumSuccessors(term) : 0; k < m; ++k) edges += LLVMGetSuccessor(term, k) == b;
      if (!edges) continue;
      LLVMOpcode op = LLVMGetInstructionOpcode(term);
      if (edges > 1 || (op != LLVMBr && op != LLVMSwitch) || n == TAIL_PREDS) usable = 0;
      else if (pred_decides(b, p)) preds[n++] = p;
    }
    if (!usable) continue;
    for (size_t k = 0; k < n; ++k) {
      WEIR_TRY(copy_tail(builder, fn, b, preds[k]));
      ++*copied;
    }
  }
  return WEIR_OK;
}

weir_status weir_llvm_copy_tails(LLVMModuleRef module, weir_llvm_prepare_stats *stats) {
  LLVMBuilderRef builder = LLVMCreateBuilderInContext(LLVMGetModuleContext(module));
  if (!builder) return oom("builder");
  weir_status s = WEIR_OK;
  for (LLVMValueRef fn = LLVMGetFirstFunction(module); fn && s == WEIR_OK; fn = LLVMGetNextFunction(fn))
    if (LLVMCountBasicBlocks(fn)) s = tail_function(builder, fn, &stats->threaded_edges);
  LLVMDisposeBuilder(builder);
  return s;
}
