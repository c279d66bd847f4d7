/* Jump threading of branches that a phi decides (prepare, after folding).
 *
 * C writes a condition into a variable on one path and tests it right
 * after the paths join, and mem2reg turns that into a block B of phis whose
 * branch the incoming edge already decides:
 *   - `for (i = 0; i < n ? (x = v[i], 1) : 0; i++) use(x);` (OVS's
 *     SVEC_FOR_EACH): `phi [1, %then], [0, %else]` then `br` on it;
 *   - `if (bad) error = syntax_error(..); else error = parse(.., &out);
 *     if (error) return error; use(out);`: on the path through `bad` the
 *     error is a block that is never NULL, so `if (error)` is taken;
 *   - `op = NULL; if (a) { row = x; op = "a"; } ... if (op) use(row);`.
 * Path-insensitive analyses join the paths at B and report `x`, `out` or
 * `row` as read uninitialised. Threading sends each predecessor whose
 * incoming value decides B's branch straight to the successor it would
 * take (what LLVM's JumpThreading does, restricted to blocks that hold
 * nothing but phis, casts of them, one compare and the branch, so no
 * instruction is duplicated). The rewrite keeps the program's meaning:
 * only edges that could never be taken disappear.
 *
 * A pointer is taken as never NULL when it is an alloca, a global, a
 * constant expression on a global (a string literal), or the result of a
 * call of a defined function whose every return is such a pointer or one
 * tested against NULL on the way (`p = malloc(n); if (!p) abort(); return
 * p;`): a greatest fixed point over the call graph (nonnull_returns). */
#include <llvm-c/DebugInfo.h>
#include <stdlib.h>
#include <string.h>

#include "frontends/llvm/module/module.h"
#include "frontends/llvm/util.h"

enum { UNKNOWN = -1, MAX_PREDS = 64, GUARD_STEPS = 8, COPIED_CALLS = 4 };

typedef struct blocks {
  LLVMBasicBlockRef *v;
  size_t n;
} blocks;

static weir_status oom(const char *what) {
  return weir_fail(WEIR_ERR_OUT_OF_MEMORY, "analyze: no memory while threading branches (%s). Fix: free "
                   "memory or analyse fewer modules", what);
}

/* ---- pointers that are never NULL ---------------------------------------------- */

static LLVMValueRef strip_casts(LLVMValueRef v) {
  for (int depth = 0; depth < 8 && v; ++depth) {
    if (LLVMIsABitCastInst(v) || LLVMIsAAddrSpaceCastInst(v)) v = LLVMGetOperand(v, 0);
    else if (LLVMIsAConstantExpr(v) && (LLVMGetConstOpcode(v) == LLVMBitCast ||
                                        LLVMGetConstOpcode(v) == LLVMGetElementPtr))
      v = LLVMGetOperand(v, 0);
    else break;
  }
  return v;
}

static int is_nonnull_value(LLVMValueRef v, const weir_llvm_map *nonnull) {
  v = strip_casts(v);
  if (!v) return 0;
  if (LLVMIsAAllocaInst(v)) return 1;
  if (LLVMIsAGlobalValue(v)) return LLVMGetLinkage(v) != LLVMExternalWeakLinkage;
  if (LLVMIsACallInst(v)) {
    LLVMValueRef callee = LLVMGetCalledValue(v);
    return callee && LLVMIsAFunction(callee) && weir_llvm_map_get(nonnull, callee) == 1;
  }
  return 0;
}

/* Whether `cond` is `icmp eq/ne V, null` with `V` (up to casts) `value`;
 * *ne says which. */
static int null_test(LLVMValueRef cond, LLVMValueRef value, int *ne) {
  if (!cond || !LLVMIsAICmpInst(cond)) return 0;
  LLVMIntPredicate p = LLVMGetICmpPredicate(cond);
  if (p != LLVMIntEQ && p != LLVMIntNE) return 0;
  LLVMValueRef a = LLVMGetOperand(cond, 0), b = LLVMGetOperand(cond, 1);
  if (LLVMIsAConstantPointerNull(a)) a = b;
  else if (!LLVMIsAConstantPointerNull(b)) return 0;
  if (strip_casts(a) != strip_casts(value)) return 0;
  *ne = p == LLVMIntNE;
  return 1;
}

/* Whether some block branches to `b` (or b is the entry): the blocks a
 * rewrite leaves without predecessors stay until fold.c deletes them. A
 * block's uses are the terminators that name it (and blockaddress). */
static int has_pred(LLVMValueRef fn, LLVMBasicBlockRef b) {
  return b == LLVMGetEntryBasicBlock(fn) || LLVMGetFirstUse(LLVMBasicBlockAsValue(b)) != NULL;
}

/* The one live block that branches to `b`, or NULL. */
static LLVMBasicBlockRef single_pred(LLVMValueRef fn, LLVMBasicBlockRef b) {
  LLVMBasicBlockRef found = NULL;
  for (LLVMBasicBlockRef p = LLVMGetFirstBasicBlock(fn); p; p = LLVMGetNextBasicBlock(p)) {
    LLVMValueRef term = LLVMGetBasicBlockTerminator(p);
    if (!has_pred(fn, p)) continue; /* dead */
    unsigned n = term ? LLVMGetNumSuccessors(term) : 0;
    for (unsigned k = 0; k < n; ++k)
      if (LLVMGetSuccessor(term, k) == b) {
        if (found) return NULL;
        found = p;
      }
  }
  return found;
}

/* Whether `value`, returned in block `at`, is never NULL there: by itself,
 * or because a branch on the way tested it (a few single-predecessor steps
 * back). */
static int nonnull_at(LLVMValueRef fn, LLVMValueRef value, LLVMBasicBlockRef at, const weir_llvm_map *nonnull) {
  if (is_nonnull_value(value, nonnull)) return 1;
  for (int step = 0; step < GUARD_STEPS && at; ++step) {
    LLVMBasicBlockRef pred = single_pred(fn, at);
    if (!pred) return 0;
    LLVMValueRef term = LLVMGetBasicBlockTerminator(pred);
    int ne = 0;
    if (LLVMGetInstructionOpcode(term) == LLVMBr && LLVMIsConditional(term) &&
        null_test(LLVMGetCondition(term), value, &ne) && LLVMGetSuccessor(term, 0) != LLVMGetSuccessor(term, 1))
      return LLVMGetSuccessor(term, ne ? 0 : 1) == at;
    at = pred;
  }
  return 0;
}

static int returns_nonnull(LLVMValueRef fn, const weir_llvm_map *nonnull) {
  int returns = 0;
  for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(fn); b; b = LLVMGetNextBasicBlock(b)) {
    LLVMValueRef term = LLVMGetBasicBlockTerminator(b);
    if (!term || LLVMGetInstructionOpcode(term) != LLVMRet) continue;
    returns = 1;
    if (LLVMGetNumOperands(term) != 1 || !nonnull_at(fn, LLVMGetOperand(term, 0), b, nonnull)) return 0;
  }
  return returns;
}

/* Defined functions returning a pointer that is never NULL: start from all,
 * drop those with a return that is not, until nothing changes. */
static weir_status nonnull_returns(LLVMModuleRef module, weir_llvm_map *nonnull) {
  for (LLVMValueRef fn = LLVMGetFirstFunction(module); fn; fn = LLVMGetNextFunction(fn)) {
    LLVMTypeRef ret = LLVMGetReturnType(LLVMGlobalGetValueType(fn));
    if (LLVMCountBasicBlocks(fn) && LLVMGetTypeKind(ret) == LLVMPointerTypeKind &&
        LLVMGetLinkage(fn) != LLVMWeakAnyLinkage && LLVMGetLinkage(fn) != LLVMExternalWeakLinkage)
      weir_llvm_map_put(nonnull, fn, 1);
  }
  for (int changed = 1; changed && !nonnull->failed;) {
    changed = 0;
    for (LLVMValueRef fn = LLVMGetFirstFunction(module); fn; fn = LLVMGetNextFunction(fn)) {
      if (weir_llvm_map_get(nonnull, fn) != 1 || returns_nonnull(fn, nonnull)) continue;
      weir_llvm_map_put(nonnull, fn, 0); /* 0: dropped; only 1 counts */
      changed = 1;
    }
  }
  return nonnull->failed ? oom("non-null returns") : WEIR_OK;
}

/* ---- the shape of a block to thread ---------------------------------------------- */

/* What `v` (a phi of `b`, a cast of one, or a value defined outside b) is
 * on the edge from `pred`. */
static LLVMValueRef on_edge(LLVMValueRef v, LLVMBasicBlockRef b, LLVMBasicBlockRef pred) {
  if (!LLVMIsAInstruction(v) || LLVMGetInstructionParent(v) != b) return v;
  if (!LLVMIsAPHINode(v)) return NULL;
  for (unsigned k = 0, n = LLVMCountIncoming(v); k < n; ++k)
    if (LLVMGetIncomingBlock(v, k) == pred) return LLVMGetIncomingValue(v, k);
  return NULL;
}

/* 1 or 0 when the branch condition `cond` of `b` is known on the edge from
 * `pred`, else UNKNOWN. `cond`: a phi of b, or `icmp` of a phi of b (or a
 * cast of one) with a constant. */
static int decided(LLVMValueRef cond, LLVMBasicBlockRef b, LLVMBasicBlockRef pred, const weir_llvm_map *nonnull) {
  if (LLVMIsAPHINode(cond)) {
    LLVMValueRef v = on_edge(cond, b, pred);
    return v && LLVMIsAConstantInt(v) ? LLVMConstIntGetZExtValue(v) != 0 : UNKNOWN;
  }
  if (!LLVMIsAICmpInst(cond)) return UNKNOWN;
  LLVMValueRef a = LLVMGetOperand(cond, 0), c = LLVMGetOperand(cond, 1);
  if (!LLVMIsAConstant(c)) return UNKNOWN;
  if (LLVMIsACastInst(a) && LLVMGetInstructionParent(a) == b) {
    /* a cast of a phi: fold the cast of the incoming constant */
    LLVMValueRef inner = on_edge(LLVMGetOperand(a, 0), b, pred);
    if (!inner || !LLVMIsAConstantInt(inner) || !LLVMIsAConstantInt(c)) return UNKNOWN;
    LLVMOpcode op = LLVMGetInstructionOpcode(a);
    LLVMTypeRef t = LLVMTypeOf(a);
    if (op == LLVMZExt) inner = LLVMConstZExt(inner, t);
    else if (op == LLVMSExt) inner = LLVMConstSExt(inner, t);
    else if (op == LLVMTrunc) inner = LLVMConstTrunc(inner, t);
    else return UNKNOWN;
    a = inner;
  } else {
    a = on_edge(a, b, pred);
  }
  if (!a) return UNKNOWN;
  LLVMIntPredicate p = LLVMGetICmpPredicate(cond);
  if (LLVMIsAConstantInt(a) && LLVMIsAConstantInt(c)) {
    LLVMValueRef r = LLVMConstICmp(p, a, c);
    return LLVMIsAConstantInt(r) ? LLVMConstIntGetZExtValue(r) != 0 : UNKNOWN;
  }
  if (LLVMIsAConstantPointerNull(c) && (p == LLVMIntEQ || p == LLVMIntNE)) {
    if (LLVMIsAConstantPointerNull(a)) return p == LLVMIntEQ;
    if (is_nonnull_value(a, nonnull)) return p == LLVMIntNE;
  }
  return UNKNOWN;
}

/* Whether `i` is a call that thread_block may copy onto a moved edge: its
 * result unused, its operands b's phis or values from outside b (`unlock:
 * ovs_replay_unlock(); return error ? -error : len;` after `error =
 * EAGAIN; goto unlock;`). */
static int copyable_call(LLVMValueRef i, LLVMBasicBlockRef b) {
  if (!LLVMIsACallInst(i) || LLVMGetFirstUse(i)) return 0;
  for (int k = 0, n = LLVMGetNumOperands(i); k < n; ++k) {
    LLVMValueRef op = LLVMGetOperand(i, (unsigned)k);
    if (LLVMIsAInstruction(op) && LLVMGetInstructionParent(op) == b && !LLVMIsAPHINode(op)) return 0;
  }
  return 1;
}

/* Whether every instruction of `b` is a phi, a cast of a phi or a compare,
 * used inside b only (the phis may be used anywhere), a debug intrinsic, or
 * one of at most COPIED_CALLS calls copyable_call takes, then `br cond`. */
static LLVMValueRef threadable_condition(LLVMBasicBlockRef b) {
  LLVMValueRef term = LLVMGetBasicBlockTerminator(b);
  if (!term || LLVMGetInstructionOpcode(term) != LLVMBr || !LLVMIsConditional(term)) return NULL;
  int calls = 0;
  for (LLVMValueRef i = LLVMGetFirstInstruction(b); i && i != term; i = LLVMGetNextInstruction(i)) {
    if (LLVMIsAPHINode(i) || LLVMIsADbgInfoIntrinsic(i)) continue;
    if (copyable_call(i, b) && ++calls <= COPIED_CALLS) continue;
    if (!LLVMIsAICmpInst(i) && !LLVMIsACastInst(i)) return NULL;
    for (LLVMUseRef u = LLVMGetFirstUse(i); u; u = LLVMGetNextUse(u)) {
      LLVMValueRef user = LLVMGetUser(u);
      if (!LLVMIsAInstruction(user) || LLVMGetInstructionParent(user) != b || LLVMIsAPHINode(user)) return NULL;
    }
  }
  LLVMValueRef cond = LLVMGetCondition(term);
  if (!LLVMIsAInstruction(cond) || LLVMGetInstructionParent(cond) != b) return NULL;
  return cond;
}

/* ---- the function's predecessors and dominance of a successor ------------------------- */

static weir_status preds_of(LLVMValueRef fn, LLVMBasicBlockRef b, blocks *out, int *duplicate) {
  out->n = 0;
  *duplicate = 0;
  for (LLVMBasicBlockRef p = LLVMGetFirstBasicBlock(fn); p; p = LLVMGetNextBasicBlock(p)) {
    LLVMValueRef term = LLVMGetBasicBlockTerminator(p);
    unsigned n = term ? LLVMGetNumSuccessors(term) : 0, edges = 0;
    for (unsigned k = 0; k < n; ++k) edges += LLVMGetSuccessor(term, k) == b;
    if (!edges || !has_pred(fn, p)) continue; /* dead: left for fold.c */
    if (edges > 1) *duplicate = 1;
    if (out->n == MAX_PREDS) {
      *duplicate = 1; /* too many to bother: treated as not threadable */
      return WEIR_OK;
    }
    out->v[out->n++] = p;
  }
  return WEIR_OK;
}

/* Blocks reachable from the entry without passing `avoid` (value 1 in
 * `seen`): where `avoid` does not dominate. */
static weir_status reach_avoiding(LLVMValueRef fn, LLVMBasicBlockRef avoid, weir_llvm_map *seen) {
  size_t cap = LLVMCountBasicBlocks(fn) + 1, n = 0;
  LLVMBasicBlockRef *stack = malloc(cap * sizeof *stack);
  if (!stack) return oom("a block stack");
  LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(fn);
  if (entry != avoid) {
    weir_llvm_map_put(seen, entry, 1);
    stack[n++] = entry;
  }
  while (n && !seen->failed) {
    LLVMValueRef term = LLVMGetBasicBlockTerminator(stack[--n]);
    unsigned m = term ? LLVMGetNumSuccessors(term) : 0;
    for (unsigned k = 0; k < m; ++k) {
      LLVMBasicBlockRef s = LLVMGetSuccessor(term, k);
      if (s == avoid || weir_llvm_map_get(seen, s) != UINT32_MAX) continue;
      weir_llvm_map_put(seen, s, 1);
      stack[n++] = s; /* each block pushed once: n < cap */
    }
  }
  free(stack);
  return seen->failed ? oom("reachable blocks") : WEIR_OK;
}

/* Whether `b` is a loop header: a predecessor is reached from the entry
 * only through b (a back edge). Loop headers are not threaded: the first
 * test of `for (i = 0; i < 5; i++)` would jump into the body, and the loop
 * would lose the shape the range and loop-fill rules read (a header that
 * tests the induction variable on every entry). */
static weir_status loop_header(LLVMValueRef fn, LLVMBasicBlockRef b, int *header) {
  *header = 0;
  if (b == LLVMGetEntryBasicBlock(fn)) return WEIR_OK;
  weir_llvm_map outside = {0};
  weir_status s = reach_avoiding(fn, b, &outside);
  for (LLVMBasicBlockRef p = LLVMGetFirstBasicBlock(fn); p && s == WEIR_OK && !*header; p = LLVMGetNextBasicBlock(p)) {
    LLVMValueRef term = LLVMGetBasicBlockTerminator(p);
    unsigned n = term ? LLVMGetNumSuccessors(term) : 0;
    for (unsigned k = 0; k < n; ++k)
      if (LLVMGetSuccessor(term, k) == b && has_pred(fn, p) && weir_llvm_map_get(&outside, p) == UINT32_MAX)
        *header = 1;
  }
  weir_llvm_map_free(&outside);
  return s;
}

/* The block a use of a value is in (a phi's use: the incoming block). */
static LLVMBasicBlockRef use_block(LLVMUseRef u, unsigned *operand) {
  LLVMValueRef user = LLVMGetUser(u);
  LLVMValueRef used = LLVMGetUsedValue(u);
  unsigned n = (unsigned)LLVMGetNumOperands(user);
  for (unsigned k = 0; k < n; ++k) {
    if (LLVMGetOperand(user, k) != used) continue;
    if (LLVMGetOperandUse(user, k) != u) continue;
    *operand = k;
    return LLVMIsAPHINode(user) ? LLVMGetIncomingBlock(user, k) : LLVMGetInstructionParent(user);
  }
  *operand = UINT32_MAX;
  return NULL;
}

/* ---- the rewrite ------------------------------------------------------------------ */

typedef struct plan {
  LLVMBasicBlockRef b, target[2];
  int sole[2];               /* the successor's only predecessor is b */
  weir_llvm_map outside[2];  /* blocks the successor does not dominate (sole only) */
  int ready[2];
  blocks preds;
  LLVMBasicBlockRef to[MAX_PREDS]; /* per predecessor: its new successor, or NULL */
} plan;

/* The side (0, 1) whose successor dominates `blk`, or -1. */
static weir_status dominating_side(LLVMValueRef fn, plan *p, LLVMBasicBlockRef blk, int *side) {
  *side = -1;
  for (int s = 0; s < 2; ++s) {
    if (!p->sole[s]) continue;
    if (!p->ready[s]) {
      WEIR_TRY(reach_avoiding(fn, p->target[s], &p->outside[s]));
      p->ready[s] = 1;
    }
    if (weir_llvm_map_get(&p->outside[s], blk) == UINT32_MAX) *side = s;
  }
  return WEIR_OK;
}

/* Whether the rewrite is possible: every use of b's phis outside b lies
 * where one successor dominates (it gets a phi of its own there), and the
 * phis of a successor that gains predecessors can say what they take from
 * each. */
static weir_status plan_ok(LLVMValueRef fn, plan *p, int *ok) {
  *ok = 0;
  for (LLVMValueRef x = LLVMGetFirstInstruction(p->b); x && LLVMIsAPHINode(x); x = LLVMGetNextInstruction(x))
    for (LLVMUseRef u = LLVMGetFirstUse(x); u; u = LLVMGetNextUse(u)) {
      unsigned op;
      LLVMBasicBlockRef blk = use_block(u, &op);
      if (!blk) return WEIR_OK;
      if (blk == p->b) continue;
      int side;
      WEIR_TRY(dominating_side(fn, p, blk, &side));
      if (side < 0) return WEIR_OK;
    }
  for (size_t k = 0; k < p->preds.n; ++k) {
    if (!p->to[k]) continue;
    for (LLVMValueRef y = LLVMGetFirstInstruction(p->to[k]); y && LLVMIsAPHINode(y); y = LLVMGetNextInstruction(y)) {
      LLVMValueRef from_b = on_edge(y, p->to[k], p->b);
      if (!from_b || !on_edge(from_b, p->b, p->preds.v[k])) return WEIR_OK;
    }
  }
  *ok = 1;
  return WEIR_OK;
}

/* The new phi `fresh` holds the same source variable as `x`: a copy of
 * x's llvm.dbg.value for it, after t's phis. Without it the phi would be
 * the optimiser's (uninit ignores an undef coming into such a phi), and a
 * variable left unset on a moved edge would no longer be reported. */
static void describe_like(LLVMBuilderRef builder, LLVMValueRef x, LLVMValueRef fresh, LLVMBasicBlockRef t) {
  LLVMContextRef context = LLVMGetTypeContext(LLVMTypeOf(x));
  LLVMValueRef wrapped = LLVMMetadataAsValue(context, LLVMValueAsMetadata(x));
  for (LLVMUseRef u = LLVMGetFirstUse(wrapped); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef call = LLVMGetUser(u);
    LLVMValueRef callee = LLVMIsACallInst(call) ? LLVMGetCalledValue(call) : NULL;
    size_t length = 0;
    const char *name = callee ? LLVMGetValueName2(callee, &length) : "";
    if (length != 14 || strncmp(name, "llvm.dbg.value", 14) != 0) continue;
    LLVMValueRef copy = LLVMInstructionClone(call);
    if (!copy) return; /* no memory: the phi stays undescribed (fewer findings, never wrong ones) */
    LLVMSetOperand(copy, 0, LLVMMetadataAsValue(context, LLVMValueAsMetadata(fresh)));
    LLVMValueRef at = LLVMGetFirstInstruction(t);
    while (at && LLVMIsAPHINode(at)) at = LLVMGetNextInstruction(at);
    LLVMPositionBuilderBefore(builder, at);
    LLVMInsertIntoBuilder(builder, copy);
    LLVMInstructionSetDebugLoc(copy, LLVMInstructionGetDebugLoc(call));
    return;
  }
}

/* A phi at the top of side s's successor for b's phi `x`, taking x from b
 * and x's value on each moved edge; x's uses the successor dominates use it. */
static weir_status split_phi(LLVMBuilderRef builder, LLVMValueRef fn, plan *p, int s, LLVMValueRef x) {
  size_t cap = 16, n = 0;
  LLVMValueRef *users = malloc(cap * sizeof *users);
  unsigned *ops = malloc(cap * sizeof *ops);
  weir_status st = users && ops ? WEIR_OK : oom("uses");
  for (LLVMUseRef u = LLVMGetFirstUse(x); u && st == WEIR_OK; u = LLVMGetNextUse(u)) {
    unsigned op;
    LLVMBasicBlockRef blk = use_block(u, &op);
    int side = -1;
    if (blk && blk != p->b) st = dominating_side(fn, p, blk, &side);
    if (side != s) continue;
    if (n == cap) {
      cap *= 2;
      LLVMValueRef *nu = realloc(users, cap * sizeof *users);
      if (nu) users = nu;
      unsigned *no = nu ? realloc(ops, cap * sizeof *ops) : NULL;
      if (no) ops = no;
      if (!nu || !no) st = oom("uses");
    }
    if (st == WEIR_OK) {
      users[n] = LLVMGetUser(u);
      ops[n++] = op;
    }
  }
  if (st == WEIR_OK && n) {
    LLVMBasicBlockRef t = p->target[s];
    LLVMPositionBuilder(builder, t, LLVMGetFirstInstruction(t));
    LLVMValueRef fresh = LLVMBuildPhi(builder, LLVMTypeOf(x), "");
    LLVMInstructionSetDebugLoc(fresh, LLVMInstructionGetDebugLoc(x));
    LLVMBasicBlockRef from = p->b;
    LLVMAddIncoming(fresh, &x, &from, 1);
    for (size_t k = 0; k < p->preds.n; ++k) {
      if (p->to[k] != t) continue;
      LLVMValueRef v = on_edge(x, p->b, p->preds.v[k]);
      LLVMAddIncoming(fresh, &v, &p->preds.v[k], 1);
    }
    for (size_t k = 0; k < n; ++k) LLVMSetOperand(users[k], ops[k], fresh);
    describe_like(builder, x, fresh, t);
  }
  free(users);
  free(ops);
  return st;
}

static weir_status rewrite(LLVMBuilderRef builder, LLVMValueRef fn, plan *p) {
  for (int s = 0; s < 2; ++s) {
    LLVMBasicBlockRef t = p->target[s];
    int gains = 0;
    for (size_t k = 0; k < p->preds.n; ++k) gains |= p->to[k] == t;
    if (!gains) continue;
    /* the successor's own phis: an entry per moved edge (before split_phi adds phis) */
    for (LLVMValueRef y = LLVMGetFirstInstruction(t); y && LLVMIsAPHINode(y); y = LLVMGetNextInstruction(y)) {
      LLVMValueRef from_b = on_edge(y, t, p->b);
      for (size_t k = 0; k < p->preds.n; ++k) {
        if (p->to[k] != t) continue;
        LLVMValueRef v = on_edge(from_b, p->b, p->preds.v[k]);
        LLVMAddIncoming(y, &v, &p->preds.v[k], 1);
      }
    }
    if (p->sole[s])
      for (LLVMValueRef x = LLVMGetFirstInstruction(p->b); x && LLVMIsAPHINode(x); x = LLVMGetNextInstruction(x))
        WEIR_TRY(split_phi(builder, fn, p, s, x));
  }
  for (size_t k = 0; k < p->preds.n; ++k) {
    if (!p->to[k]) continue;
    LLVMValueRef term = LLVMGetBasicBlockTerminator(p->preds.v[k]);
    for (unsigned j = 0, n = LLVMGetNumSuccessors(term); j < n; ++j)
      if (LLVMGetSuccessor(term, j) == p->b) LLVMSetSuccessor(term, j, p->to[k]);
    WEIR_TRY(weir_llvm_drop_incoming(builder, p->b, p->preds.v[k], UINT32_MAX));
  }
  return WEIR_OK;
}

/* Gives each moved predecessor P of b its own copy of b's calls: a new
 * block `P -> copy -> b` holding them (b's phis replaced by their values
 * on P's edge), which then stands for P in the plan, so the rewrite sends
 * the copy, not P, to the decided successor. Each path still runs the
 * calls once. Only after plan_ok: a copy left in front of b would run them
 * twice. */
static weir_status copy_calls(LLVMBuilderRef builder, LLVMValueRef fn, plan *p) {
  int any = 0;
  for (LLVMValueRef i = LLVMGetFirstInstruction(p->b); i && !any; i = LLVMGetNextInstruction(i))
    any = LLVMIsACallInst(i) && !LLVMIsADbgInfoIntrinsic(i);
  if (!any) return WEIR_OK;
  LLVMContextRef context = LLVMGetModuleContext(LLVMGetGlobalParent(fn));
  for (size_t k = 0; k < p->preds.n; ++k) {
    if (!p->to[k]) continue;
    LLVMBasicBlockRef pred = p->preds.v[k];
    LLVMBasicBlockRef copy = LLVMInsertBasicBlockInContext(context, p->b, "");
    LLVMPositionBuilderAtEnd(builder, copy);
    for (LLVMValueRef i = LLVMGetFirstInstruction(p->b); i; i = LLVMGetNextInstruction(i)) {
      if (!LLVMIsACallInst(i) || LLVMIsADbgInfoIntrinsic(i)) continue;
      LLVMValueRef c = LLVMInstructionClone(i);
      if (!c) return oom("a copied call");
      for (int j = 0, n = LLVMGetNumOperands(c); j < n; ++j) {
        LLVMValueRef op = LLVMGetOperand(c, (unsigned)j);
        if (LLVMIsAPHINode(op) && LLVMGetInstructionParent(op) == p->b)
          LLVMSetOperand(c, (unsigned)j, on_edge(op, p->b, pred));
      }
      LLVMInsertIntoBuilder(builder, c);
      /* the builder stamps its own (stale) location on what it inserts */
      LLVMInstructionSetDebugLoc(c, LLVMInstructionGetDebugLoc(i));
    }
    LLVMInstructionSetDebugLoc(LLVMBuildBr(builder, p->b), LLVMInstructionGetDebugLoc(LLVMGetBasicBlockTerminator(p->b)));
    for (LLVMValueRef x = LLVMGetFirstInstruction(p->b); x && LLVMIsAPHINode(x); x = LLVMGetNextInstruction(x)) {
      LLVMValueRef v = on_edge(x, p->b, pred);
      LLVMAddIncoming(x, &v, &copy, 1);
    }
    WEIR_TRY(weir_llvm_drop_incoming(builder, p->b, pred, 1));
    LLVMValueRef term = LLVMGetBasicBlockTerminator(pred);
    for (unsigned j = 0, n = LLVMGetNumSuccessors(term); j < n; ++j)
      if (LLVMGetSuccessor(term, j) == p->b) LLVMSetSuccessor(term, j, copy);
    p->preds.v[k] = copy;
  }
  return WEIR_OK;
}

/* A block of phis that only jumps on to a block thread_block may rewrite
 * (`br s`; nested `if`/`else` joins at -O0) hands its predecessors straight to s, so that s's branch sees the
 * values each of them brings (what SimplifyCFG does with such blocks). Its
 * phis must be used by s's phis only, and no predecessor may already
 * branch to s. */
static weir_status forward_block(LLVMBuilderRef builder, LLVMValueRef fn, LLVMBasicBlockRef b, plan *p,
                                 uint32_t *threaded) {
  LLVMValueRef term = LLVMGetBasicBlockTerminator(b);
  if (!term || LLVMGetInstructionOpcode(term) != LLVMBr || LLVMIsConditional(term)) return WEIR_OK;
  LLVMBasicBlockRef s = LLVMGetSuccessor(term, 0);
  if (s == b || b == LLVMGetEntryBasicBlock(fn) || !threadable_condition(s)) return WEIR_OK;
  int header = 0;
  WEIR_TRY(loop_header(fn, s, &header));
  if (header) return WEIR_OK;
  for (LLVMValueRef i = LLVMGetFirstInstruction(b); i && i != term; i = LLVMGetNextInstruction(i)) {
    if (LLVMIsADbgInfoIntrinsic(i)) continue;
    if (!LLVMIsAPHINode(i)) return WEIR_OK;
    for (LLVMUseRef u = LLVMGetFirstUse(i); u; u = LLVMGetNextUse(u)) {
      LLVMValueRef user = LLVMGetUser(u);
      if (!LLVMIsAPHINode(user) || LLVMGetInstructionParent(user) != s) return WEIR_OK;
    }
  }
  int duplicate = 0;
  WEIR_TRY(preds_of(fn, b, &p->preds, &duplicate));
  if (duplicate || !p->preds.n) return WEIR_OK;
  for (size_t k = 0; k < p->preds.n; ++k) {
    LLVMValueRef pt = LLVMGetBasicBlockTerminator(p->preds.v[k]);
    LLVMOpcode op = LLVMGetInstructionOpcode(pt);
    if (p->preds.v[k] == b || (op != LLVMBr && op != LLVMSwitch)) return WEIR_OK;
    for (unsigned j = 0, n = LLVMGetNumSuccessors(pt); j < n; ++j)
      if (LLVMGetSuccessor(pt, j) == s) return WEIR_OK;
    for (LLVMValueRef y = LLVMGetFirstInstruction(s); y && LLVMIsAPHINode(y); y = LLVMGetNextInstruction(y)) {
      LLVMValueRef from_b = on_edge(y, s, b);
      if (!from_b || !on_edge(from_b, b, p->preds.v[k])) return WEIR_OK;
    }
  }
  for (LLVMValueRef y = LLVMGetFirstInstruction(s); y && LLVMIsAPHINode(y); y = LLVMGetNextInstruction(y)) {
    LLVMValueRef from_b = on_edge(y, s, b);
    for (size_t k = 0; k < p->preds.n; ++k) {
      LLVMValueRef v = on_edge(from_b, b, p->preds.v[k]);
      LLVMAddIncoming(y, &v, &p->preds.v[k], 1);
    }
  }
  for (size_t k = 0; k < p->preds.n; ++k) {
    LLVMValueRef pt = LLVMGetBasicBlockTerminator(p->preds.v[k]);
    for (unsigned j = 0, n = LLVMGetNumSuccessors(pt); j < n; ++j)
      if (LLVMGetSuccessor(pt, j) == b) LLVMSetSuccessor(pt, j, s);
    WEIR_TRY(weir_llvm_drop_incoming(builder, b, p->preds.v[k], UINT32_MAX));
  }
  *threaded += (uint32_t)p->preds.n;
  return WEIR_OK;
}

/* Threads the edges into `b` that decide its branch; adds their number. */
static weir_status thread_block(LLVMBuilderRef builder, LLVMValueRef fn, LLVMBasicBlockRef b,
                                const weir_llvm_map *nonnull, plan *p, uint32_t *threaded) {
  LLVMValueRef cond = threadable_condition(b);
  if (!cond) return forward_block(builder, fn, b, p, threaded);
  LLVMValueRef term = LLVMGetBasicBlockTerminator(b);
  LLVMBasicBlockRef t0 = LLVMGetSuccessor(term, 0), t1 = LLVMGetSuccessor(term, 1);
  if (t0 == t1 || t0 == b || t1 == b) return WEIR_OK;
  int duplicate = 0;
  WEIR_TRY(preds_of(fn, b, &p->preds, &duplicate));
  if (duplicate || !p->preds.n) return WEIR_OK;
  size_t moved = 0;
  for (size_t k = 0; k < p->preds.n; ++k) {
    LLVMBasicBlockRef pred = p->preds.v[k];
    p->to[k] = NULL;
    if (pred == b) return WEIR_OK;
    LLVMValueRef pt = LLVMGetBasicBlockTerminator(pred);
    LLVMOpcode op = LLVMGetInstructionOpcode(pt);
    if (op != LLVMBr && op != LLVMSwitch) continue;
    int d = decided(cond, b, pred, nonnull);
    if (d == UNKNOWN) continue;
    LLVMBasicBlockRef target = d ? t0 : t1;
    int already = 0;
    for (unsigned j = 0, n = LLVMGetNumSuccessors(pt); j < n; ++j) already |= LLVMGetSuccessor(pt, j) == target;
    if (already) continue;
    p->to[k] = target;
    moved++;
  }
  if (!moved) return WEIR_OK;
  int header = 0;
  WEIR_TRY(loop_header(fn, b, &header));
  if (header) return WEIR_OK;
  p->b = b;
  p->target[0] = t0;
  p->target[1] = t1;
  p->sole[0] = single_pred(fn, t0) == b;
  p->sole[1] = single_pred(fn, t1) == b;
  p->ready[0] = p->ready[1] = 0;
  int ok = 0;
  weir_status s = plan_ok(fn, p, &ok);
  if (s == WEIR_OK && ok) {
    s = copy_calls(builder, fn, p);
    if (s == WEIR_OK) s = rewrite(builder, fn, p);
    *threaded += (uint32_t)moved;
  }
  for (int k = 0; k < 2; ++k) weir_llvm_map_free(&p->outside[k]);
  memset(p->outside, 0, sizeof p->outside);
  return s;
}

/* Whether `b` does nothing but end the program's meaning (`unreachable`,
 * debug intrinsics aside). */
static int unreachable_block(LLVMBasicBlockRef b) {
  for (LLVMValueRef i = LLVMGetFirstInstruction(b); i; i = LLVMGetNextInstruction(i))
    if (!LLVMIsADbgInfoIntrinsic(i)) return LLVMIsAUnreachableInst(i) != NULL;
  return 0;
}

/* A switch that has two places to go is a branch: one case and a default
 * (`switch (state) { case 1: ..; default: .. }`), or two cases and a
 * default that cannot be taken (-O0's cleanup switch after a scope with a
 * VLA: `goto again` and the scope's end share a block that switches on
 * which of them it was). As `br (x == C)` the threading below sees it. */
static weir_status switch_to_branch(LLVMBuilderRef builder, LLVMBasicBlockRef b) {
  LLVMValueRef sw = LLVMGetBasicBlockTerminator(b);
  if (!sw || LLVMGetInstructionOpcode(sw) != LLVMSwitch) return WEIR_OK;
  unsigned n = LLVMGetNumSuccessors(sw); /* the default, then one per case */
  LLVMBasicBlockRef dflt = LLVMGetSwitchDefaultDest(sw), then, other;
  LLVMValueRef value = n >= 2 ? LLVMGetOperand(sw, 2) : NULL; /* cond, default, value1, dest1, .. */
  if (!value || !LLVMIsAConstantInt(value)) return WEIR_OK;
  if (n == 2) {
    then = LLVMGetSuccessor(sw, 1), other = dflt;
  } else if (n == 3 && unreachable_block(dflt) && dflt != LLVMGetSuccessor(sw, 1) && dflt != LLVMGetSuccessor(sw, 2)) {
    then = LLVMGetSuccessor(sw, 1), other = LLVMGetSuccessor(sw, 2);
  } else {
    return WEIR_OK;
  }
  if (then == other) return WEIR_OK;
  LLVMPositionBuilderBefore(builder, sw);
  LLVMValueRef cmp = LLVMBuildICmp(builder, LLVMIntEQ, LLVMGetOperand(sw, 0), value, "");
  LLVMValueRef br = LLVMBuildCondBr(builder, cmp, then, other);
  LLVMInstructionSetDebugLoc(cmp, LLVMInstructionGetDebugLoc(sw));
  LLVMInstructionSetDebugLoc(br, LLVMInstructionGetDebugLoc(sw));
  LLVMInstructionEraseFromParent(sw);
  if (n == 3) return weir_llvm_drop_incoming(builder, dflt, b, UINT32_MAX); /* the default lost its edge */
  return WEIR_OK;
}

static weir_status thread_function(LLVMBuilderRef builder, LLVMValueRef fn, const weir_llvm_map *nonnull,
                                   uint32_t *threaded) {
  for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(fn); b; b = LLVMGetNextBasicBlock(b))
    WEIR_TRY(switch_to_branch(builder, b));
  LLVMBasicBlockRef pred_storage[MAX_PREDS];
  plan p;
  memset(&p, 0, sizeof p);
  p.preds.v = pred_storage;
  /* Each rewrite removes an edge into a block of phis and a branch and adds
   * none of that kind, so it ends; the cap guards against a bug. */
  uint32_t cap = 4 * LLVMCountBasicBlocks(fn) + 16, rounds = 0;
  for (uint32_t before = UINT32_MAX; before != *threaded && rounds < cap; ++rounds) {
    before = *threaded;
    for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(fn); b; b = LLVMGetNextBasicBlock(b))
      WEIR_TRY(thread_block(builder, fn, b, nonnull, &p, threaded));
  }
  return WEIR_OK;
}

weir_status weir_llvm_thread_module(LLVMModuleRef module, weir_llvm_prepare_stats *stats) {
  LLVMBuilderRef builder = LLVMCreateBuilderInContext(LLVMGetModuleContext(module));
  if (!builder) return oom("builder");
  weir_llvm_map nonnull = {0};
  weir_status s = nonnull_returns(module, &nonnull);
  for (LLVMValueRef fn = LLVMGetFirstFunction(module); fn && s == WEIR_OK; fn = LLVMGetNextFunction(fn))
    if (LLVMCountBasicBlocks(fn)) s = thread_function(builder, fn, &nonnull, &stats->threaded_edges);
  weir_llvm_map_free(&nonnull);
  LLVMDisposeBuilder(builder);
  return s;
}
