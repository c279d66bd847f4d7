/* Out-parameter slots (prepare step 3c).
 *
 *     Frame_Chunk *cie;
 *     ...  cie = fc;                       // one use of the slot
 *     read_cie(start, end, &cie, ...);     // read_cie: *p_cie = NULL; ... *p_cie = fc;
 *     cie->next = forward_refs; forward_refs = cie;
 *
 * A local whose address is passed to a call stays in memory (mem2reg
 * cannot promote it), and the flow-insensitive memory model then gives
 * every load of it every value ever stored there: `forward_refs` above
 * holds `&fde_fc` (readelf's DWARF frames: 58 false uses after free). When
 * every call the address goes to is a defined function that writes the
 * whole slot through that parameter before anything else touches it, and
 * does nothing else with the pointer but load and store through it, the
 * slot's value after the call is the callee's alone: each such call gets a
 * slot of its own and its result is copied back (`tmp` passed, then
 * `cie = tmp`). The local then has only loads and stores and the next
 * mem2reg makes it SSA, flow-sensitive like any other variable. */
#include <llvm-c/Target.h>
#include <stdlib.h>
#include <string.h>

#include "frontends/llvm/module/module.h"
#include "frontends/llvm/util.h"

#define PARAMS_MAX 32

/* `cmp` compares `p` with null. */
static int null_test(LLVMValueRef cmp, LLVMValueRef p) {
  if (!LLVMIsAICmpInst(cmp)) return 0;
  LLVMIntPredicate pred = LLVMGetICmpPredicate(cmp);
  LLVMValueRef a = LLVMGetOperand(cmp, 0), b = LLVMGetOperand(cmp, 1);
  return (pred == LLVMIntEQ || pred == LLVMIntNE) &&
         ((a == p && LLVMIsAConstantPointerNull(b)) || (b == p && LLVMIsAConstantPointerNull(a)));
}

/* The pointer `p` (or a bitcast of it) is only loaded and stored through
 * (and compared with null). */
static int only_accessed(LLVMValueRef p, int depth) {
  for (LLVMUseRef u = LLVMGetFirstUse(p); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (LLVMIsALoadInst(user) && !LLVMGetVolatile(user)) continue;
    if (depth == 0 && null_test(user, p)) continue;
    if (LLVMIsAStoreInst(user) && LLVMGetOperand(user, 1) == p && LLVMGetOperand(user, 0) != p &&
        !LLVMGetVolatile(user))
      continue;
    if (LLVMIsABitCastInst(user) && depth < 2 && only_accessed(user, depth + 1)) continue;
    return 0;
  }
  return 1;
}

/* Whether `i` is a use of `p` or of a bitcast of it. */
static int uses(LLVMValueRef i, LLVMValueRef p) {
  for (int k = 0, n = LLVMGetNumOperands(i); k < n; ++k) {
    LLVMValueRef op = LLVMGetOperand(i, (unsigned)k);
    if (op == p || (op && LLVMIsABitCastInst(op) && LLVMGetOperand(op, 0) == p)) return 1;
  }
  return 0;
}

/* The first instruction of `block` that uses `param`, from `from` on. */
static LLVMValueRef first_use(LLVMValueRef from, LLVMValueRef param) {
  for (LLVMValueRef i = from; i; i = LLVMGetNextInstruction(i)) {
    if (LLVMIsABitCastInst(i) && LLVMGetOperand(i, 0) == param) continue;
    if (uses(i, param)) return i;
  }
  return NULL;
}

static int whole_store(LLVMTargetDataRef dl, LLVMValueRef i, LLVMTypeRef pointee) {
  return i && LLVMIsAStoreInst(i) &&
         LLVMStoreSizeOfType(dl, LLVMTypeOf(LLVMGetOperand(i, 0))) >= LLVMStoreSizeOfType(dl, pointee);
}

/* Parameter `param` of `fn` is written whole before anything else uses it
 * when it is not null (the callers rewritten pass a local, never null):
 * the first instruction of the entry block that uses it is a store of the
 * full pointee through it, or it is `if (out)` ending the entry block and
 * the first use on the non-null side (a block only the entry leads to) is
 * that store (`if (free_list) *free_list = NULL;`). */
static int must_write(LLVMTargetDataRef dl, LLVMValueRef fn, LLVMValueRef param) {
  LLVMTypeRef type = LLVMTypeOf(param);
  if (LLVMGetTypeKind(type) != LLVMPointerTypeKind || !only_accessed(param, 0)) return 0;
  LLVMTypeRef pointee = LLVMGetElementType(type);
  if (!LLVMTypeIsSized(pointee)) return 0;
  LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(fn);
  LLVMValueRef i = first_use(LLVMGetFirstInstruction(entry), param);
  if (whole_store(dl, i, pointee)) return 1;
  LLVMValueRef term = LLVMGetBasicBlockTerminator(entry);
  if (!i || !null_test(i, param) || !term || LLVMGetInstructionOpcode(term) != LLVMBr || !LLVMIsConditional(term) ||
      LLVMGetCondition(term) != i || first_use(LLVMGetNextInstruction(i), param))
    return 0;
  /* the successor taken when param is not null */
  LLVMBasicBlockRef side = LLVMGetSuccessor(term, LLVMGetICmpPredicate(i) == LLVMIntNE ? 0 : 1);
  for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(fn); b; b = LLVMGetNextBasicBlock(b)) { /* only from entry */
    LLVMValueRef t = LLVMGetBasicBlockTerminator(b);
    for (unsigned k = 0, n = t && b != entry ? LLVMGetNumSuccessors(t) : 0; k < n; ++k)
      if (LLVMGetSuccessor(t, k) == side) return 0;
  }
  return LLVMGetSuccessor(term, 0) != LLVMGetSuccessor(term, 1) &&
         whole_store(dl, first_use(LLVMGetFirstInstruction(side), param), pointee);
}

/* Bit k: parameter k of `fn` is an out-parameter written first (cached). */
static uint32_t out_params(LLVMTargetDataRef dl, weir_llvm_map *cache, LLVMValueRef fn) {
  uint32_t known = weir_llvm_map_get(cache, fn);
  if (known != UINT32_MAX) return known;
  uint32_t mask = 0;
  unsigned n = LLVMCountParams(fn);
  if (LLVMCountBasicBlocks(fn) && !LLVMIsFunctionVarArg(LLVMGlobalGetValueType(fn)))
    for (unsigned k = 0; k < n && k < PARAMS_MAX; ++k)
      if (must_write(dl, fn, LLVMGetParam(fn, k))) mask |= 1u << k;
  weir_llvm_map_put(cache, fn, mask & 0x7fffffffu);
  return mask & 0x7fffffffu;
}

/* The argument index of `slot` in `call` when it is passed once, to an
 * out-parameter of a defined callee; -1 otherwise. */
static int out_argument(LLVMTargetDataRef dl, weir_llvm_map *cache, LLVMValueRef call, LLVMValueRef slot) {
  LLVMValueRef callee = LLVMGetCalledValue(call);
  if (!callee || !LLVMIsAFunction(callee) || !LLVMCountBasicBlocks(callee)) return -1;
  int at = -1;
  unsigned args = LLVMGetNumArgOperands(call);
  for (unsigned k = 0; k < args; ++k)
    if (LLVMGetOperand(call, k) == slot) {
      if (at >= 0) return -1;
      at = (int)k;
    }
  if (at < 0 || at >= PARAMS_MAX || LLVMGetOperand(call, LLVMGetNumOperands(call) - 1) == slot) return -1;
  return (out_params(dl, cache, callee) >> at) & 1u ? at : -1;
}

/* Whether every use of `slot` is a load, a store into it, a call handing it
 * to an out-parameter, or a bitcast only lifetime markers use; and at
 * least one is such a call. */
static int rewritable(LLVMTargetDataRef dl, weir_llvm_map *cache, LLVMValueRef slot) {
  int calls = 0;
  for (LLVMUseRef u = LLVMGetFirstUse(slot); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (LLVMIsALoadInst(user) && !LLVMGetVolatile(user) && LLVMTypeOf(user) == LLVMGetAllocatedType(slot)) continue;
    if (LLVMIsAStoreInst(user) && LLVMGetOperand(user, 1) == slot && LLVMGetOperand(user, 0) != slot &&
        !LLVMGetVolatile(user) && LLVMTypeOf(LLVMGetOperand(user, 0)) == LLVMGetAllocatedType(slot))
      continue;
    if (LLVMIsACallInst(user) && out_argument(dl, cache, user, slot) >= 0) {
      ++calls;
      continue;
    }
    if (LLVMIsABitCastInst(user)) {
      for (LLVMUseRef v = LLVMGetFirstUse(user); v; v = LLVMGetNextUse(v)) {
        LLVMValueRef marker = LLVMGetUser(v);
        if (!LLVMIsACallInst(marker) || !weir_llvm_calls_named(marker, "llvm.lifetime.")) return 0;
      }
      continue;
    }
    return 0;
  }
  return calls > 0;
}

/* Each call gets its own slot, copied back into `slot` after it; the
 * lifetime markers of `slot` go (mem2reg would refuse them). */
static int rewrite(LLVMBuilderRef builder, weir_llvm_map *cache, LLVMTargetDataRef dl, LLVMValueRef fn,
                   LLVMValueRef slot) {
  LLVMTypeRef type = LLVMGetAllocatedType(slot);
  LLVMValueRef users[64];
  size_t n = 0;
  int more = 0;
  for (LLVMUseRef u = LLVMGetFirstUse(slot); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (!LLVMIsACallInst(user) && !LLVMIsABitCastInst(user)) continue;
    if (n == 64) more = 1;
    else users[n++] = user;
  }
  if (more) return 0; /* not worth it: left as it is */
  for (size_t k = 0; k < n; ++k) {
    LLVMValueRef user = users[k];
    if (LLVMIsABitCastInst(user)) {
      for (LLVMUseRef v = LLVMGetFirstUse(user); v; v = LLVMGetFirstUse(user))
        LLVMInstructionEraseFromParent(LLVMGetUser(v));
      LLVMInstructionEraseFromParent(user);
      continue;
    }
    int at = out_argument(dl, cache, user, slot);
    LLVMPositionBuilderBefore(builder, LLVMGetFirstInstruction(LLVMGetEntryBasicBlock(fn)));
    LLVMValueRef own = LLVMBuildAlloca(builder, type, "");
    LLVMSetAlignment(own, LLVMGetAlignment(slot));
    LLVMSetOperand(user, (unsigned)at, own);
    LLVMValueRef next = LLVMGetNextInstruction(user);
    LLVMPositionBuilderBefore(builder, next);
    LLVMValueRef value = LLVMBuildLoad2(builder, type, own, "");
    LLVMBuildStore(builder, value, slot);
  }
  return 1;
}

weir_status weir_llvm_split_out_slots(LLVMModuleRef module, weir_llvm_prepare_stats *stats) {
  LLVMTargetDataRef dl = LLVMGetModuleDataLayout(module);
  LLVMBuilderRef builder = LLVMCreateBuilderInContext(LLVMGetModuleContext(module));
  weir_llvm_map cache;
  memset(&cache, 0, sizeof cache);
  if (!builder)
    return weir_fail(WEIR_ERR_OUT_OF_MEMORY, "analyze: no memory for an IR builder. Fix: free memory");
  for (LLVMValueRef fn = LLVMGetFirstFunction(module); fn; fn = LLVMGetNextFunction(fn)) {
    if (!LLVMCountBasicBlocks(fn)) continue;
    LLVMValueRef next = NULL;
    for (LLVMValueRef i = LLVMGetFirstInstruction(LLVMGetEntryBasicBlock(fn)); i; i = next) {
      next = LLVMGetNextInstruction(i);
      if (!LLVMIsAAllocaInst(i)) continue;
      LLVMValueRef count = LLVMGetOperand(i, 0);
      if (!LLVMIsAConstantInt(count) || LLVMConstIntGetZExtValue(count) != 1) continue;
      if (!rewritable(dl, &cache, i)) continue;
      if (rewrite(builder, &cache, dl, fn, i) && stats) stats->out_slots++;
    }
  }
  int failed = cache.failed;
  weir_llvm_map_free(&cache);
  LLVMDisposeBuilder(builder);
  if (failed)
    return weir_fail(WEIR_ERR_OUT_OF_MEMORY, "analyze: no memory while splitting out-parameter slots. Fix: free "
                     "memory or analyse fewer modules");
  return WEIR_OK;
}
