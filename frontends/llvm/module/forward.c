/* Store-to-load forwarding (prepare step 3b).
 *
 *     f->headers = cmalloc(num, sizeof *f->headers);
 *     if (f->headers == NULL) return false;
 *     for (i = 0, h = f->headers; i < num; i++, h++) h->size = ...;
 *
 * At -O0 every mention of `f->headers` is a load of the field. The memory
 * model is flow-insensitive: the field holds every block any code ever
 * stores there, so `h` may point to all of them, the stores through it are
 * weak, and the loop fills nothing (readelf: 500 false uninit findings on
 * section headers). Clang at -O2 reuses the stored value; so does this
 * step, and only where that is plain: the load's address is the store's
 * (the same pointer, or the same GEP of the same base with the same
 * indices), the store is reached by walking back from the load through its
 * block and then through blocks with one predecessor each (so the store
 * dominates the load), and nothing on that walk may write the address: no
 * call (intrinsics for debug info and lifetimes aside), no volatile or
 * atomic access, no store that is not provably elsewhere (a different
 * constant offset from the same base, or a different local or global).
 * Volatile loads and loads of another type than the stored value's stay. */
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Target.h>

#include "frontends/llvm/module/module.h"
#include "frontends/llvm/util.h"

#define WALK_MAX 512 /* instructions looked at per load */

/* Bitcasts (instructions or constant expressions) do not move an address. */
static LLVMValueRef strip(LLVMValueRef v) {
  while (v && (LLVMIsABitCastInst(v) || (LLVMIsAConstantExpr(v) && LLVMGetConstOpcode(v) == LLVMBitCast)))
    v = LLVMGetOperand(v, 0);
  return v;
}

static int is_gep(LLVMValueRef v) {
  return LLVMIsAGetElementPtrInst(v) || (LLVMIsAConstantExpr(v) && LLVMGetConstOpcode(v) == LLVMGetElementPtr);
}

/* Same address: the same value, or GEPs of the same type over the same
 * address with identical index operands. */
static int same_address(LLVMValueRef a, LLVMValueRef b) {
  a = strip(a);
  b = strip(b);
  if (a == b) return 1;
  if (!is_gep(a) || !is_gep(b) || !LLVMIsAGetElementPtrInst(a) != !LLVMIsAGetElementPtrInst(b)) return 0;
  int n = LLVMGetNumOperands(a);
  if (n != LLVMGetNumOperands(b) || LLVMTypeOf(a) != LLVMTypeOf(b)) return 0;
  if (LLVMIsAGetElementPtrInst(a) && LLVMGetGEPSourceElementType(a) != LLVMGetGEPSourceElementType(b)) return 0;
  for (int k = 1; k < n; ++k)
    if (LLVMGetOperand(a, k) != LLVMGetOperand(b, k)) return 0;
  return same_address(LLVMGetOperand(a, 0), LLVMGetOperand(b, 0));
}

/* Splits an address into a base and a constant byte offset over GEPs whose
 * indices are all constant; 0 when an index is not. */
static int base_offset(LLVMTargetDataRef dl, LLVMValueRef v, LLVMValueRef *base, int64_t *offset) {
  uint64_t off = 0; /* wraps instead of overflowing on absurd indices (then never "disjoint") */
  for (v = strip(v); LLVMIsAGetElementPtrInst(v); v = strip(LLVMGetOperand(v, 0))) {
    LLVMTypeRef type = LLVMGetGEPSourceElementType(v);
    int n = LLVMGetNumOperands(v);
    for (int k = 1; k < n; ++k) {
      LLVMValueRef index = LLVMGetOperand(v, k);
      if (!LLVMIsAConstantInt(index)) return 0;
      int64_t i = LLVMConstIntGetSExtValue(index);
      if (i < -(1ll << 40) || i > (1ll << 40)) return 0; /* no real object is that big */
      if (k == 1) {
        off += (uint64_t)i * LLVMABISizeOfType(dl, type);
      } else if (LLVMGetTypeKind(type) == LLVMStructTypeKind) {
        off += LLVMOffsetOfElement(dl, type, (unsigned)i);
        type = LLVMStructGetTypeAtIndex(type, (unsigned)i);
      } else if (LLVMGetTypeKind(type) == LLVMArrayTypeKind || LLVMGetTypeKind(type) == LLVMVectorTypeKind) {
        type = LLVMGetElementType(type);
        off += (uint64_t)i * LLVMABISizeOfType(dl, type);
      } else {
        return 0;
      }
    }
  }
  *base = v;
  *offset = (int64_t)off;
  return *offset > -(1ll << 50) && *offset < (1ll << 50); /* far from overflow in disjoint() */
}

/* Storage whose address is fixed and named: a local or a global. */
static int named_storage(LLVMValueRef v) { return LLVMIsAAllocaInst(v) || LLVMIsAGlobalVariable(v); }

/* A store of `bytes` at `store_ptr` provably leaves [load_ptr, +load_bytes) alone. */
static int disjoint(LLVMTargetDataRef dl, LLVMValueRef store_ptr, uint64_t store_bytes, LLVMValueRef load_ptr,
                    uint64_t load_bytes) {
  LLVMValueRef sb, lb;
  int64_t so, lo;
  if (store_bytes > (1ull << 40) || load_bytes > (1ull << 40)) return 0;
  if (!base_offset(dl, store_ptr, &sb, &so) || !base_offset(dl, load_ptr, &lb, &lo)) return 0;
  if (sb == lb) return so + (int64_t)store_bytes <= lo || lo + (int64_t)load_bytes <= so; /* |offsets| < 2^50 */
  return named_storage(sb) && named_storage(lb);
}

typedef struct preds {
  weir_llvm_map index; /* block -> its one predecessor's slot in `only`, or UINT32_MAX */
  LLVMBasicBlockRef *only;
  size_t count;
} preds;

/* The one predecessor of each block of `fn` (NULL: none or several). */
static int preds_open(preds *p, LLVMValueRef fn) {
  memset(p, 0, sizeof *p);
  p->count = LLVMCountBasicBlocks(fn);
  p->only = calloc(p->count ? p->count : 1, sizeof *p->only);
  uint8_t *seen = calloc(p->count ? p->count : 1, 1);
  if (!p->only || !seen) {
    free(seen);
    return 0;
  }
  uint32_t b = 0;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
    weir_llvm_map_put(&p->index, bb, b++);
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb)) {
    LLVMValueRef term = LLVMGetBasicBlockTerminator(bb);
    for (unsigned k = 0, n = term ? LLVMGetNumSuccessors(term) : 0; k < n; ++k) {
      uint32_t s = weir_llvm_map_get(&p->index, LLVMGetSuccessor(term, k));
      if (s == UINT32_MAX) continue;
      if (!seen[s]) p->only[s] = bb;
      else if (p->only[s] != bb) p->only[s] = NULL;
      seen[s] = 1;
    }
  }
  free(seen);
  return !p->index.failed;
}

static void preds_close(preds *p) {
  free(p->only);
  weir_llvm_map_free(&p->index);
}

/* The value a dominating store left at `load`'s address, or NULL. */
static LLVMValueRef stored_value(LLVMTargetDataRef dl, const preds *p, LLVMValueRef load) {
  LLVMValueRef addr = LLVMGetOperand(load, 0);
  LLVMTypeRef type = LLVMTypeOf(load);
  uint64_t bytes = LLVMStoreSizeOfType(dl, type);
  LLVMBasicBlockRef home = LLVMGetInstructionParent(load), bb = home;
  LLVMValueRef i = LLVMGetPreviousInstruction(load);
  for (unsigned steps = 0; steps < WALK_MAX; ++steps) {
    while (!i) { /* the block's start: on to its one predecessor */
      uint32_t b = weir_llvm_map_get(&p->index, bb);
      bb = b == UINT32_MAX ? NULL : p->only[b];
      if (!bb || bb == home) return NULL;
      i = LLVMGetLastInstruction(bb);
    }
    if (LLVMIsAStoreInst(i)) {
      LLVMValueRef value = LLVMGetOperand(i, 0), ptr = LLVMGetOperand(i, 1);
      if (LLVMGetVolatile(i) || LLVMGetOrdering(i) != LLVMAtomicOrderingNotAtomic) return NULL;
      if (same_address(ptr, addr)) return LLVMTypeOf(value) == type ? value : NULL;
      if (!disjoint(dl, ptr, LLVMStoreSizeOfType(dl, LLVMTypeOf(value)), addr, bytes)) return NULL;
    } else if (LLVMIsACallInst(i)) {
      if (!weir_llvm_marker_call(i)) return NULL;
    } else if (LLVMIsAInvokeInst(i) || LLVMIsAAtomicRMWInst(i) || LLVMIsAAtomicCmpXchgInst(i) ||
               LLVMIsAFenceInst(i) || LLVMIsAVAArgInst(i)) {
      return NULL;
    } else if (LLVMIsALoadInst(i) && (LLVMGetVolatile(i) || LLVMGetOrdering(i) != LLVMAtomicOrderingNotAtomic)) {
      return NULL;
    }
    i = LLVMGetPreviousInstruction(i);
  }
  return NULL;
}

weir_status weir_llvm_forward_stores(LLVMModuleRef module, weir_llvm_prepare_stats *stats) {
  LLVMTargetDataRef dl = LLVMGetModuleDataLayout(module);
  for (LLVMValueRef fn = LLVMGetFirstFunction(module); fn; fn = LLVMGetNextFunction(fn)) {
    if (!LLVMCountBasicBlocks(fn)) continue;
    preds p;
    if (!preds_open(&p, fn)) {
      preds_close(&p);
      return weir_fail(WEIR_ERR_OUT_OF_MEMORY, "analyze: no memory while forwarding stores to loads in a function "
                       "of %u blocks. Fix: free memory or analyse fewer modules",
                       LLVMCountBasicBlocks(fn));
    }
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb)) {
      LLVMValueRef next = NULL;
      for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = next) {
        next = LLVMGetNextInstruction(i);
        if (!LLVMIsALoadInst(i) || LLVMGetVolatile(i) || LLVMGetOrdering(i) != LLVMAtomicOrderingNotAtomic) continue;
        LLVMValueRef value = stored_value(dl, &p, i);
        if (!value) continue;
        LLVMReplaceAllUsesWith(i, value);
        LLVMInstructionEraseFromParent(i);
        if (stats) stats->forwarded_loads++;
      }
    }
    preds_close(&p);
  }
  return WEIR_OK;
}
