/* Folding of program-constant branches (prepare step 2): a small
 * interprocedural constant propagation over the whole, linked program.
 *
 * Sources of constants, both sound only because the module is the whole
 * program (nothing outside writes its globals or replaces its functions):
 *   - a defined global whose every use is a (non-volatile) load, directly or
 *     through constant bitcast/GEP expressions that are only loaded, or that
 *     is `constant`: its direct scalar loads (integer or pointer, the type of
 *     the initialiser) become the initialiser;
 *   - a defined function whose every `ret` returns the same ConstantInt: the
 *     results of its direct calls (also through a cast of the function, the
 *     call of a function declared without a prototype) become that constant
 *     (the call stays, it may have side effects).
 * Then instructions whose operands became ConstantInts fold (icmp, casts,
 * integer binary operations, select on a constant, phi of one constant; a
 * compare of a local's address with null, another local, a global or a
 * parameter: never equal) and
 * `br`/`switch` on a constant become unconditional branches; the phis of the
 * successor that lost the edge are rebuilt without it (the C API has no
 * removeIncoming). A direct call of a defined function left with no `ret`
 * ends its block (`unreachable` after it). Blocks no longer reachable from
 * the entry are DELETED
 * (so no analysis ever sees them). Nothing folds on undef or poison, and no
 * operation that could be undefined folds (division, shifts by the width or
 * more, integers wider than 64 bits): `phi [undef, 5]` stays as it is.
 * The steps repeat until nothing changes. */
#include <llvm-c/DebugInfo.h>
#include <stdlib.h>
#include <string.h>

#include "frontends/llvm/module/module.h"
#include "frontends/llvm/util.h"

/* ---- a small growable array of LLVM pointers -------------------------------- */
typedef struct ptrvec {
  void **v;
  size_t n, cap;
  int failed;
} ptrvec;

static void ptrvec_push(ptrvec *p, void *x) {
  if (p->failed) return;
  if (p->n == p->cap) {
    size_t cap = p->cap ? p->cap * 2 : 16;
    void **v = realloc(p->v, cap * sizeof *v);
    if (!v) {
      p->failed = 1;
      return;
    }
    p->v = v;
    p->cap = cap;
  }
  p->v[p->n++] = x;
}

static weir_status oom(const char *what) {
  return weir_fail(WEIR_ERR_OUT_OF_MEMORY, "analyze: no memory while folding constants (%s). Fix: free "
                   "memory or analyse fewer modules", what);
}

static int is_definition_that_counts(LLVMValueRef global) {
  /* Definitions another object may replace are not what the program runs. */
  switch (LLVMGetLinkage(global)) {
  case LLVMWeakAnyLinkage:
  case LLVMLinkOnceAnyLinkage:
  case LLVMExternalWeakLinkage:
  case LLVMAvailableExternallyLinkage:
  case LLVMCommonLinkage:
    return 0;
  default:
    return !LLVMIsDeclaration(global);
  }
}

static int is_small_int(LLVMValueRef v) {
  return LLVMIsAConstantInt(v) && LLVMGetIntTypeWidth(LLVMTypeOf(v)) <= 64;
}

/* ---- constant globals --------------------------------------------------------- */

/* Every use of v (the global, or a constant expression of it) is a
 * non-volatile load, or a bitcast/GEP expression that is itself only loaded. */
static int only_loaded(LLVMValueRef v, int depth) {
  if (depth > 8) return 0;
  for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (LLVMIsALoadInst(user)) {
      if (LLVMGetVolatile(user)) return 0;
      continue;
    }
    if (LLVMIsAConstantExpr(user)) {
      LLVMOpcode op = LLVMGetConstOpcode(user);
      if ((op == LLVMBitCast || op == LLVMGetElementPtr || op == LLVMAddrSpaceCast) &&
          only_loaded(user, depth + 1))
        continue;
    }
    return 0; /* a store, a call argument, an initialiser, a comparison ...: may be written */
  }
  return 1;
}

/* The initialiser when the global never changes after it, else NULL. */
static LLVMValueRef constant_initializer(LLVMValueRef g) {
  if (!is_definition_that_counts(g) || LLVMIsExternallyInitialized(g)) return NULL;
  LLVMValueRef init = LLVMGetInitializer(g);
  if (!init) return NULL;
  LLVMTypeKind kind = LLVMGetTypeKind(LLVMTypeOf(init));
  if (kind != LLVMIntegerTypeKind && kind != LLVMPointerTypeKind) return NULL;
  if (kind == LLVMIntegerTypeKind && !is_small_int(init)) return NULL;
  if (LLVMIsAUndefValue(init)) return NULL;
  return LLVMIsGlobalConstant(g) || only_loaded(g, 0) ? init : NULL;
}

/* Replaces the direct loads of g of the initialiser's type; returns how many. */
static weir_status replace_loads(LLVMValueRef g, LLVMValueRef init, uint32_t *replaced) {
  ptrvec loads = {0};
  for (LLVMUseRef u = LLVMGetFirstUse(g); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (LLVMIsALoadInst(user) && !LLVMGetVolatile(user) && LLVMTypeOf(user) == LLVMTypeOf(init))
      ptrvec_push(&loads, user);
  }
  if (loads.failed) {
    free(loads.v);
    return oom("loads of a global");
  }
  for (size_t k = 0; k < loads.n; ++k) {
    LLVMReplaceAllUsesWith(loads.v[k], init);
    LLVMInstructionEraseFromParent(loads.v[k]);
  }
  *replaced = (uint32_t)loads.n;
  free(loads.v);
  return WEIR_OK;
}

static weir_status fold_globals(LLVMModuleRef module, weir_llvm_prepare_stats *stats, int *changed) {
  for (LLVMValueRef g = LLVMGetFirstGlobal(module); g; g = LLVMGetNextGlobal(g)) {
    LLVMValueRef init = constant_initializer(g);
    if (!init) continue;
    uint32_t n = 0;
    WEIR_TRY(replace_loads(g, init, &n));
    if (n) {
      stats->constant_globals++;
      *changed = 1;
    }
  }
  return WEIR_OK;
}

/* ---- constant functions ------------------------------------------------------- */

/* The ConstantInt every `ret` of fn returns, or NULL. */
static LLVMValueRef constant_return(LLVMValueRef fn) {
  if (!is_definition_that_counts(fn)) return NULL;
  if (LLVMGetTypeKind(LLVMGetReturnType(LLVMGlobalGetValueType(fn))) != LLVMIntegerTypeKind) return NULL;
  LLVMValueRef value = NULL;
  for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(fn); b; b = LLVMGetNextBasicBlock(b)) {
    LLVMValueRef term = LLVMGetBasicBlockTerminator(b);
    if (!term || LLVMGetInstructionOpcode(term) != LLVMRet) continue;
    if (LLVMGetNumOperands(term) != 1) return NULL;
    LLVMValueRef v = LLVMGetOperand(term, 0);
    if (!is_small_int(v) || (value && v != value)) return NULL; /* constants are unique: == compares */
    value = v;
  }
  return value;
}

/* `musttail` calls must return their own result: leave them alone. The C
 * API of LLVM 14 tells tail from musttail only in the printed form. */
static int is_musttail(LLVMValueRef call) {
  if (!LLVMIsTailCall(call)) return 0;
  char *text = LLVMPrintValueToString(call);
  int must = text && strstr(text, "musttail ") != NULL;
  LLVMDisposeMessage(text);
  return must;
}

/* The calls of `callee` (fn, or a cast of it) that use their result, into
 * `calls`. A call through a cast is how C calls a function declared without
 * a prototype (`int globalTrue();`, as Juliet's headers do) once the module
 * that defines it is linked: `call i32 (...) bitcast (i32 ()* @f to ...)()`. */
static void direct_calls(LLVMValueRef callee, LLVMValueRef value, int depth, ptrvec *calls) {
  for (LLVMUseRef u = LLVMGetFirstUse(callee); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (LLVMIsAConstantExpr(user) && depth < 2 &&
        (LLVMGetConstOpcode(user) == LLVMBitCast || LLVMGetConstOpcode(user) == LLVMAddrSpaceCast)) {
      direct_calls(user, value, depth + 1, calls);
      continue;
    }
    if (!(LLVMIsACallInst(user) || LLVMIsAInvokeInst(user))) continue;
    if (LLVMGetCalledValue(user) != callee || LLVMTypeOf(user) != LLVMTypeOf(value)) continue;
    if (!LLVMGetFirstUse(user) || is_musttail(user)) continue;
    ptrvec_push(calls, user);
  }
}

static weir_status replace_calls(LLVMValueRef fn, LLVMValueRef value, uint32_t *replaced) {
  ptrvec calls = {0};
  direct_calls(fn, value, 0, &calls);
  if (calls.failed) {
    free(calls.v);
    return oom("calls of a function");
  }
  for (size_t k = 0; k < calls.n; ++k) LLVMReplaceAllUsesWith(calls.v[k], value);
  *replaced = (uint32_t)calls.n;
  free(calls.v);
  return WEIR_OK;
}

static weir_status fold_functions(LLVMModuleRef module, weir_llvm_prepare_stats *stats, int *changed) {
  for (LLVMValueRef fn = LLVMGetFirstFunction(module); fn; fn = LLVMGetNextFunction(fn)) {
    LLVMValueRef value = constant_return(fn);
    if (!value) continue;
    uint32_t n = 0;
    WEIR_TRY(replace_calls(fn, value, &n));
    if (n) {
      stats->constant_functions++;
      *changed = 1;
    }
  }
  return WEIR_OK;
}

/* ---- instructions ---------------------------------------------------------------- */

static LLVMValueRef fold_binary(LLVMOpcode op, LLVMValueRef a, LLVMValueRef b) {
  unsigned width = LLVMGetIntTypeWidth(LLVMTypeOf(a));
  switch (op) {
  case LLVMAdd: return LLVMConstAdd(a, b);
  case LLVMSub: return LLVMConstSub(a, b);
  case LLVMMul: return LLVMConstMul(a, b);
  case LLVMAnd: return LLVMConstAnd(a, b);
  case LLVMOr: return LLVMConstOr(a, b);
  case LLVMXor: return LLVMConstXor(a, b);
  case LLVMShl:
  case LLVMLShr:
  case LLVMAShr:
    /* Shifting by the width or more is poison: not ours to decide. */
    if (LLVMConstIntGetZExtValue(b) >= width) return NULL;
    return op == LLVMShl ? LLVMConstShl(a, b) : op == LLVMLShr ? LLVMConstLShr(a, b) : LLVMConstAShr(a, b);
  default: return NULL; /* division and remainder: may divide by zero */
  }
}

/* All incoming values are the same integer or null constant (not undef). */
static LLVMValueRef fold_phi(LLVMValueRef phi) {
  unsigned n = LLVMCountIncoming(phi);
  LLVMValueRef first = n ? LLVMGetIncomingValue(phi, 0) : NULL;
  if (!first || !(is_small_int(first) || LLVMIsAConstantPointerNull(first))) return NULL;
  for (unsigned k = 1; k < n; ++k)
    if (LLVMGetIncomingValue(phi, k) != first) return NULL;
  return first;
}

/* What `inst` always computes, or NULL. */
static LLVMValueRef strip_pointer_casts(LLVMValueRef v) {
  for (int depth = 0; depth < 8 && v; ++depth) {
    if (LLVMIsABitCastInst(v) || LLVMIsAAddrSpaceCastInst(v)) v = LLVMGetOperand(v, 0);
    else if (LLVMIsAConstantExpr(v) && LLVMGetConstOpcode(v) == LLVMBitCast) v = LLVMGetOperand(v, 0);
    else break;
  }
  return v;
}

/* Whether pointers a and b (up to casts) can never be equal because one is
 * a local of this function (an alloca: it exists only from this call on)
 * and the other is null, another local, a global, or a parameter (computed
 * by a caller before this frame existed). -O2 inlines
 * `if (frame != source) copy` with `frame` a fresh local and `source` the
 * caller's parameter; the path where they are equal is not there. */
static int distinct_storage(LLVMValueRef a, LLVMValueRef b) {
  a = strip_pointer_casts(a);
  b = strip_pointer_casts(b);
  if (!LLVMIsAAllocaInst(a)) {
    LLVMValueRef t = a;
    a = b;
    b = t;
  }
  if (!LLVMIsAAllocaInst(a) || a == b) return 0;
  if (LLVMIsAConstantPointerNull(b) || LLVMIsAAllocaInst(b)) return 1;
  if (LLVMIsAGlobalVariable(b)) return LLVMGetLinkage(b) != LLVMExternalWeakLinkage;
  if (LLVMIsAArgument(b)) return LLVMGetParamParent(b) == LLVMGetBasicBlockParent(LLVMGetInstructionParent(a));
  return 0;
}

static LLVMValueRef fold_instruction(LLVMValueRef inst) {
  LLVMOpcode op = LLVMGetInstructionOpcode(inst);
  LLVMValueRef r = NULL;
  switch (op) {
  case LLVMICmp: {
    LLVMValueRef a = LLVMGetOperand(inst, 0), b = LLVMGetOperand(inst, 1);
    int ints = is_small_int(a) && is_small_int(b);
    int nulls = LLVMIsAConstantPointerNull(a) && LLVMIsAConstantPointerNull(b);
    if (ints || nulls) r = LLVMConstICmp(LLVMGetICmpPredicate(inst), a, b);
    LLVMIntPredicate p = LLVMGetICmpPredicate(inst);
    if (!r && (p == LLVMIntEQ || p == LLVMIntNE) && LLVMGetTypeKind(LLVMTypeOf(a)) == LLVMPointerTypeKind &&
        distinct_storage(a, b))
      r = LLVMConstInt(LLVMInt1TypeInContext(LLVMGetTypeContext(LLVMTypeOf(inst))), p == LLVMIntNE, 0);
    break;
  }
  case LLVMAdd: case LLVMSub: case LLVMMul: case LLVMAnd: case LLVMOr: case LLVMXor:
  case LLVMShl: case LLVMLShr: case LLVMAShr: {
    LLVMValueRef a = LLVMGetOperand(inst, 0), b = LLVMGetOperand(inst, 1);
    if (is_small_int(a) && is_small_int(b)) r = fold_binary(op, a, b);
    break;
  }
  case LLVMZExt: case LLVMSExt: case LLVMTrunc: {
    LLVMValueRef a = LLVMGetOperand(inst, 0);
    if (!is_small_int(a) || LLVMGetTypeKind(LLVMTypeOf(inst)) != LLVMIntegerTypeKind ||
        LLVMGetIntTypeWidth(LLVMTypeOf(inst)) > 64)
      break;
    LLVMTypeRef t = LLVMTypeOf(inst);
    r = op == LLVMZExt ? LLVMConstZExt(a, t) : op == LLVMSExt ? LLVMConstSExt(a, t) : LLVMConstTrunc(a, t);
    break;
  }
  case LLVMSelect: {
    LLVMValueRef c = LLVMGetOperand(inst, 0);
    if (!LLVMIsAConstantInt(c)) break; /* vector conditions are not ConstantInts */
    LLVMValueRef pick = LLVMGetOperand(inst, LLVMConstIntGetZExtValue(c) ? 1 : 2);
    return pick != inst ? pick : NULL;
  }
  case LLVMPHI: return fold_phi(inst);
  default: return NULL;
  }
  return r && LLVMIsAConstantInt(r) ? r : NULL;
}

/* One pass over the function; instructions are visited in block order, so
 * most chains fold in one pass; the caller repeats until nothing changes. */
static int fold_instructions(LLVMValueRef fn) {
  int changed = 0;
  for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(fn); b; b = LLVMGetNextBasicBlock(b)) {
    LLVMValueRef next = NULL;
    for (LLVMValueRef inst = LLVMGetFirstInstruction(b); inst; inst = next) {
      next = LLVMGetNextInstruction(inst);
      LLVMValueRef r = fold_instruction(inst);
      if (!r) continue;
      LLVMReplaceAllUsesWith(inst, r);
      LLVMInstructionEraseFromParent(inst);
      changed = 1;
    }
  }
  return changed;
}

/* ---- phis and branches ------------------------------------------------------------ */

/* Rebuilds every phi of `block` without `drop` of its entries from `pred`
 * (UINT32_MAX: all of them); module.h. */
weir_status weir_llvm_drop_incoming(LLVMBuilderRef builder, LLVMBasicBlockRef block, LLVMBasicBlockRef pred,
                                 uint32_t drop) {
  LLVMValueRef next = NULL;
  for (LLVMValueRef phi = LLVMGetFirstInstruction(block); phi && LLVMIsAPHINode(phi); phi = next) {
    next = LLVMGetNextInstruction(phi);
    unsigned n = LLVMCountIncoming(phi), kept = 0;
    LLVMValueRef *values = malloc((n + 1) * sizeof *values);
    LLVMBasicBlockRef *blocks = malloc((n + 1) * sizeof *blocks);
    if (!values || !blocks) {
      free(values);
      free(blocks);
      return oom("rebuilding a phi");
    }
    uint32_t left = drop;
    for (unsigned k = 0; k < n; ++k) {
      LLVMBasicBlockRef from = LLVMGetIncomingBlock(phi, k);
      if (from == pred && left > 0) {
        --left;
        continue;
      }
      values[kept] = LLVMGetIncomingValue(phi, k);
      blocks[kept++] = from;
    }
    LLVMPositionBuilderBefore(builder, phi);
    LLVMValueRef fresh = LLVMBuildPhi(builder, LLVMTypeOf(phi), "");
    LLVMAddIncoming(fresh, values, blocks, kept);
    LLVMInstructionSetDebugLoc(fresh, LLVMInstructionGetDebugLoc(phi));
    size_t length = 0;
    const char *name = LLVMGetValueName2(phi, &length);
    int failed = 0;
    char *copy = length ? weir_llvm_strndup(name, length, &failed) : NULL; /* lost name: harmless */
    LLVMReplaceAllUsesWith(phi, fresh); /* also the phi's own self-references in `fresh` */
    LLVMInstructionEraseFromParent(phi);
    if (copy) LLVMSetValueName2(fresh, copy, length); /* after the erase: the name is free again */
    free(copy);
    free(values);
    free(blocks);
  }
  return WEIR_OK;
}

/* The successor a br/switch on a constant always takes, or NULL. */
static LLVMBasicBlockRef constant_target(LLVMValueRef term) {
  LLVMOpcode op = LLVMGetInstructionOpcode(term);
  if (op == LLVMBr) {
    if (!LLVMIsConditional(term)) return NULL;
    LLVMValueRef c = LLVMGetCondition(term);
    if (!LLVMIsAConstantInt(c)) return NULL;
    return LLVMGetSuccessor(term, LLVMConstIntGetZExtValue(c) ? 0 : 1);
  }
  if (op == LLVMSwitch) {
    /* Operands: condition, default, then (case value, destination) pairs. */
    LLVMValueRef c = LLVMGetOperand(term, 0);
    if (!is_small_int(c)) return NULL;
    int n = LLVMGetNumOperands(term);
    for (int k = 2; k + 1 < n; k += 2)
      if (LLVMGetOperand(term, k) == c) return LLVMValueAsBasicBlock(LLVMGetOperand(term, k + 1));
    return LLVMGetSwitchDefaultDest(term);
  }
  return NULL;
}

/* Replaces the terminator of `block` by `br target`, fixing the phis of the
 * successors that lost edges (a switch may have several to one block). */
static weir_status replace_terminator(LLVMBuilderRef builder, LLVMBasicBlockRef block, LLVMValueRef term,
                                      LLVMBasicBlockRef target) {
  unsigned n = LLVMGetNumSuccessors(term);
  LLVMBasicBlockRef *succ = malloc((n + 1) * sizeof *succ);
  if (!succ) return oom("successors");
  for (unsigned k = 0; k < n; ++k) succ[k] = LLVMGetSuccessor(term, k);
  LLVMPositionBuilderBefore(builder, term);
  LLVMValueRef br = LLVMBuildBr(builder, target);
  LLVMInstructionSetDebugLoc(br, LLVMInstructionGetDebugLoc(term));
  LLVMInstructionEraseFromParent(term);
  weir_status s = WEIR_OK;
  for (unsigned k = 0; k < n && s == WEIR_OK; ++k) {
    int seen = 0;
    uint32_t edges = 0;
    for (unsigned j = 0; j < n; ++j) {
      if (succ[j] != succ[k]) continue;
      seen |= j < k;
      edges++;
    }
    if (seen) continue; /* handled at its first occurrence */
    uint32_t lost = edges - (succ[k] == target ? 1 : 0);
    if (lost) s = weir_llvm_drop_incoming(builder, succ[k], block, lost);
  }
  free(succ);
  return s;
}

static weir_status fold_branches(LLVMBuilderRef builder, LLVMValueRef fn, weir_llvm_prepare_stats *stats,
                                 int *changed) {
  for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(fn); b; b = LLVMGetNextBasicBlock(b)) {
    LLVMValueRef term = LLVMGetBasicBlockTerminator(b);
    LLVMBasicBlockRef target = term ? constant_target(term) : NULL;
    if (!target) continue;
    WEIR_TRY(replace_terminator(builder, b, term, target));
    stats->folded_branches++;
    *changed = 1;
  }
  return WEIR_OK;
}

/* ---- unreachable blocks ------------------------------------------------------------- */

static weir_status reachable_blocks(LLVMValueRef fn, weir_llvm_map *seen) {
  ptrvec stack = {0};
  LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(fn);
  weir_llvm_map_put(seen, entry, 1);
  ptrvec_push(&stack, entry);
  while (stack.n && !stack.failed && !seen->failed) {
    LLVMValueRef term = LLVMGetBasicBlockTerminator(stack.v[--stack.n]);
    unsigned n = term ? LLVMGetNumSuccessors(term) : 0;
    for (unsigned k = 0; k < n; ++k) {
      LLVMBasicBlockRef s = LLVMGetSuccessor(term, k);
      if (weir_llvm_map_get(seen, s) != UINT32_MAX) continue;
      weir_llvm_map_put(seen, s, 1);
      ptrvec_push(&stack, s);
    }
  }
  int failed = stack.failed || seen->failed;
  free(stack.v);
  return failed ? oom("reachable blocks") : WEIR_OK;
}

/* Deletes them in an order that never leaves a use dangling: values are
 * replaced by undef first, then reachable successors forget them as
 * predecessors, then every instruction goes, then the empty blocks. */
static weir_status delete_blocks(LLVMBuilderRef builder, ptrvec *dead, const weir_llvm_map *live) {
  for (size_t k = 0; k < dead->n; ++k)
    for (LLVMValueRef i = LLVMGetFirstInstruction(dead->v[k]); i; i = LLVMGetNextInstruction(i))
      if (LLVMGetFirstUse(i)) LLVMReplaceAllUsesWith(i, LLVMGetUndef(LLVMTypeOf(i)));
  for (size_t k = 0; k < dead->n; ++k) {
    LLVMValueRef term = LLVMGetBasicBlockTerminator(dead->v[k]);
    unsigned n = term ? LLVMGetNumSuccessors(term) : 0;
    for (unsigned j = 0; j < n; ++j) {
      LLVMBasicBlockRef s = LLVMGetSuccessor(term, j);
      int first = 1; /* each successor once: all entries from this block go at once */
      for (unsigned i = 0; i < j; ++i) first &= LLVMGetSuccessor(term, i) != s;
      if (first && weir_llvm_map_get(live, s) != UINT32_MAX)
        WEIR_TRY(weir_llvm_drop_incoming(builder, s, dead->v[k], UINT32_MAX));
    }
  }
  for (size_t k = 0; k < dead->n; ++k)
    for (LLVMValueRef i = LLVMGetLastInstruction(dead->v[k]); i; i = LLVMGetLastInstruction(dead->v[k]))
      LLVMInstructionEraseFromParent(i);
  for (size_t k = 0; k < dead->n; ++k) LLVMDeleteBasicBlock(dead->v[k]);
  return WEIR_OK;
}

static weir_status remove_unreachable(LLVMBuilderRef builder, LLVMValueRef fn, weir_llvm_prepare_stats *stats,
                                      int *changed) {
  weir_llvm_map live = {0};
  ptrvec dead = {0};
  weir_status s = reachable_blocks(fn, &live);
  for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(fn); b && s == WEIR_OK; b = LLVMGetNextBasicBlock(b))
    if (weir_llvm_map_get(&live, b) == UINT32_MAX) ptrvec_push(&dead, b);
  if (s == WEIR_OK && dead.failed) s = oom("unreachable blocks");
  if (s == WEIR_OK && dead.n) {
    s = delete_blocks(builder, &dead, &live);
    stats->removed_blocks += (uint32_t)dead.n;
    *changed = 1;
  }
  free(dead.v);
  weir_llvm_map_free(&live);
  return s;
}

/* ---- calls that never return ------------------------------------------------------ */

/* Whether a defined function has a `ret` left (its unreachable blocks are
 * gone by now): one without never returns to its caller -- an assert
 * helper whose condition folded to "fails" (`ovs_assert(state !=
 * OVS_REPLAY_NONE)` in a program that never sets the state), a `die()`
 * not declared noreturn, a server's main loop. */
static int has_return(LLVMValueRef fn) {
  for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(fn); b; b = LLVMGetNextBasicBlock(b)) {
    LLVMValueRef term = LLVMGetBasicBlockTerminator(b);
    if (term && LLVMGetInstructionOpcode(term) == LLVMRet) return 1;
  }
  return 0;
}

static LLVMValueRef direct_function(LLVMValueRef call) {
  LLVMValueRef callee = strip_pointer_casts(LLVMGetCalledValue(call));
  return callee && LLVMIsAFunction(callee) && LLVMCountBasicBlocks(callee) ? callee : NULL;
}

/* Ends the block of `call` right after it with `unreachable`: what
 * followed is only reachable through this call (so its uses become
 * undef before it goes), and the successors forget the block. */
static weir_status cut_after(LLVMBuilderRef builder, LLVMValueRef call) {
  LLVMBasicBlockRef b = LLVMGetInstructionParent(call);
  LLVMValueRef term = LLVMGetBasicBlockTerminator(b);
  unsigned n = term ? LLVMGetNumSuccessors(term) : 0;
  for (unsigned j = 0; j < n; ++j) {
    LLVMBasicBlockRef s = LLVMGetSuccessor(term, j);
    int first = 1;
    for (unsigned i = 0; i < j; ++i) first &= LLVMGetSuccessor(term, i) != s;
    if (first) WEIR_TRY(weir_llvm_drop_incoming(builder, s, b, UINT32_MAX));
  }
  for (LLVMValueRef i = LLVMGetLastInstruction(b); i && i != call; i = LLVMGetLastInstruction(b)) {
    if (LLVMGetFirstUse(i)) LLVMReplaceAllUsesWith(i, LLVMGetUndef(LLVMTypeOf(i)));
    LLVMInstructionEraseFromParent(i);
  }
  LLVMPositionBuilderAtEnd(builder, b);
  LLVMInstructionSetDebugLoc(LLVMBuildUnreachable(builder), LLVMInstructionGetDebugLoc(call));
  return WEIR_OK;
}

/* Cuts every block after a direct call of a defined function that has no
 * `ret`: the path past the call does not exist (a path-insensitive
 * analysis would otherwise carry facts around the call, as if it had
 * returned without doing anything). The caller removes what became
 * unreachable and comes back, since a caller may lose its last `ret`. */
static weir_status cut_noreturn_calls(LLVMBuilderRef builder, LLVMModuleRef module, weir_llvm_prepare_stats *stats,
                                      int *changed) {
  weir_llvm_map never = {0};
  for (LLVMValueRef fn = LLVMGetFirstFunction(module); fn; fn = LLVMGetNextFunction(fn))
    if (LLVMCountBasicBlocks(fn) && !has_return(fn)) weir_llvm_map_put(&never, fn, 1);
  weir_status s = never.failed ? oom("functions that never return") : WEIR_OK;
  for (LLVMValueRef fn = LLVMGetFirstFunction(module); fn && s == WEIR_OK && never.count; fn = LLVMGetNextFunction(fn))
    for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(fn); b && s == WEIR_OK; b = LLVMGetNextBasicBlock(b))
      for (LLVMValueRef i = LLVMGetFirstInstruction(b); i; i = LLVMGetNextInstruction(i)) {
        LLVMValueRef callee = LLVMIsACallInst(i) ? direct_function(i) : NULL;
        if (!callee || weir_llvm_map_get(&never, callee) != 1) continue;
        LLVMValueRef next = LLVMGetNextInstruction(i);
        while (next && LLVMIsADbgInfoIntrinsic(next)) next = LLVMGetNextInstruction(next);
        if (next && LLVMGetInstructionOpcode(next) == LLVMUnreachable) break;
        s = cut_after(builder, i);
        stats->noreturn_calls++;
        *changed = 1;
        break; /* the block ends here now */
      }
  weir_llvm_map_free(&never);
  return s;
}

/* Local folding of one function until nothing changes. */
static weir_status simplify_function(LLVMBuilderRef builder, LLVMValueRef fn, weir_llvm_prepare_stats *stats,
                                     int *changed) {
  for (int local = 1; local;) {
    local = 0;
    WEIR_TRY(remove_unreachable(builder, fn, stats, &local));
    local |= fold_instructions(fn);
    WEIR_TRY(fold_branches(builder, fn, stats, &local));
    *changed |= local;
  }
  return WEIR_OK;
}

weir_status weir_llvm_fold_module(LLVMModuleRef module, weir_llvm_prepare_stats *stats) {
  LLVMBuilderRef builder = LLVMCreateBuilderInContext(LLVMGetModuleContext(module));
  if (!builder) return oom("builder");
  weir_status s = WEIR_OK;
  /* Each round strictly removes loads, call results, instructions or
   * conditional terminators, so it ends; the cap is a guard against a bug. */
  for (int round = 0, changed = 1; changed && s == WEIR_OK; ++round) {
    if (round == 10000) {
      s = weir_fail(WEIR_ERR_INTERNAL, "analyze: constant folding did not settle after %d rounds (a bug in "
                    "weir). Fix: report it with the input module", round);
      break;
    }
    changed = 0;
    s = fold_globals(module, stats, &changed);
    if (s == WEIR_OK) s = fold_functions(module, stats, &changed);
    for (LLVMValueRef fn = LLVMGetFirstFunction(module); fn && s == WEIR_OK; fn = LLVMGetNextFunction(fn))
      if (LLVMCountBasicBlocks(fn)) s = simplify_function(builder, fn, stats, &changed);
    if (s == WEIR_OK) s = cut_noreturn_calls(builder, module, stats, &changed);
  }
  LLVMDisposeBuilder(builder);
  return s;
}
