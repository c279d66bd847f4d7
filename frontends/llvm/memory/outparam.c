/* Out-parameter allocation helpers: a defined function that hands a new
 * block to its caller through a pointer parameter instead of returning it,
 * the usual growable array:
 *
 *   int grow(void **data, size_t *cap, size_t need) {
 *     void *p = realloc(*data, ...); if (!p) return -1;
 *     *data = p; ...
 *   }
 *
 * Context-insensitively, its one allocation site would be every array of
 * the program, and realloc's copy of the old block would pour the contents
 * of every array into every other one. So, as for allocation wrappers
 * (calls.c), each call of the helper is its own heap object: the call
 * stores it into the cell its argument points to, and it receives what the
 * helper's block holds and, for realloc of the block behind that same
 * cell, the contents of the caller's old block. The helper's own store
 * into *data (and that realloc's copy) are not generated: the callers'
 * objects stand for the block they would have carried.
 *
 * Recognised only when that stays sound: the stored value is only ever an
 * allocator's (or a wrapper's) new block or null, stored by one store into
 * the cell a parameter points to (directly, cast, or through an -O0 slot
 * that only holds the parameter), and the new block goes nowhere else
 * (compares, -O0 slots, that store, memset). */
#include <string.h>

#include "frontends/llvm/memory/pta.h"

#define OUT_MAX_ALLOCS 8

static int is_cast(LLVMValueRef v) {
  return LLVMIsABitCastInst(v) || LLVMIsAAddrSpaceCastInst(v) ||
         (LLVMIsAConstantExpr(v) && (LLVMGetConstOpcode(v) == LLVMBitCast || LLVMGetConstOpcode(v) == LLVMAddrSpaceCast));
}

static int intrinsic_named(LLVMValueRef call, const char *prefix) {
  LLVMValueRef callee = LLVMIsACallInst(call) ? weir_llvm_direct_callee(call) : NULL;
  size_t length = 0, n = strlen(prefix);
  const char *name = callee ? LLVMGetValueName2(callee, &length) : "";
  return length >= n && strncmp(name, prefix, n) == 0;
}

/* A bitcast only lifetime markers use (-O0 slots). */
static int only_markers(LLVMValueRef cast) {
  for (LLVMUseRef u = LLVMGetFirstUse(cast); u; u = LLVMGetNextUse(u))
    if (!intrinsic_named(LLVMGetUser(u), "llvm.lifetime.")) return 0;
  return 1;
}

static int param_index(LLVMValueRef fn, LLVMValueRef arg) {
  unsigned count = LLVMCountParams(fn);
  for (unsigned k = 0; k < count; ++k)
    if (LLVMGetParam(fn, k) == arg) return (int)k;
  return -1;
}

/* Which parameter of fn `v` is (through casts, or an -O0 slot that only
 * ever holds that parameter); -1 when none. */
static int param_of(LLVMValueRef fn, LLVMValueRef v, int depth) {
  if (!v || depth > 8) return -1;
  if (is_cast(v)) return param_of(fn, LLVMGetOperand(v, 0), depth + 1);
  if (LLVMIsAArgument(v)) return param_index(fn, v);
  if (!LLVMIsALoadInst(v) || !LLVMIsAAllocaInst(LLVMGetOperand(v, 0))) return -1;
  LLVMValueRef slot = LLVMGetOperand(v, 0);
  int found = -1;
  for (LLVMUseRef u = LLVMGetFirstUse(slot); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (LLVMIsALoadInst(user) || intrinsic_named(user, "llvm.dbg.") || intrinsic_named(user, "llvm.lifetime."))
      continue;
    if (LLVMIsABitCastInst(user) && only_markers(user)) continue;
    if (!LLVMIsAStoreInst(user) || LLVMGetOperand(user, 1) != slot) return -1;
    int k = LLVMIsAArgument(LLVMGetOperand(user, 0)) ? param_index(fn, LLVMGetOperand(user, 0)) : -1;
    if (k < 0 || (found >= 0 && k != found)) return -1;
    found = k;
  }
  return found;
}

typedef struct out_allocs {
  LLVMValueRef call[OUT_MAX_ALLOCS];
  uint32_t n;
} out_allocs;

static void add_alloc(out_allocs *a, LLVMValueRef call) {
  for (uint32_t k = 0; k < a->n; ++k)
    if (a->call[k] == call) return;
  if (a->n < OUT_MAX_ALLOCS) a->call[a->n] = call;
  a->n++; /* past the maximum: too many, rejected */
}

/* The allocator calls whose results `v` may be (pta_new_block said that it
 * is nothing else). */
static void allocs_of(const weir_llvm_memory *m, LLVMValueRef v, out_allocs *a, int depth) {
  if (!v || depth > 24) return;
  if (is_cast(v)) {
    allocs_of(m, LLVMGetOperand(v, 0), a, depth + 1);
  } else if (LLVMIsAPHINode(v)) {
    unsigned count = LLVMCountIncoming(v);
    for (unsigned k = 0; k < count; ++k)
      if (LLVMGetIncomingValue(v, k) != v) allocs_of(m, LLVMGetIncomingValue(v, k), a, depth + 1);
  } else if (LLVMIsASelectInst(v)) {
    allocs_of(m, LLVMGetOperand(v, 1), a, depth + 1);
    allocs_of(m, LLVMGetOperand(v, 2), a, depth + 1);
  } else if (LLVMIsALoadInst(v) && LLVMIsAAllocaInst(LLVMGetOperand(v, 0))) {
    LLVMValueRef slot = LLVMGetOperand(v, 0);
    for (LLVMUseRef u = LLVMGetFirstUse(slot); u; u = LLVMGetNextUse(u))
      if (LLVMIsAStoreInst(LLVMGetUser(u)) && LLVMGetOperand(LLVMGetUser(u), 1) == slot)
        allocs_of(m, LLVMGetOperand(LLVMGetUser(u), 0), a, depth + 1);
  } else if (LLVMIsACallInst(v)) {
    add_alloc(a, v);
  }
}

/* The new block `v` goes nowhere but compares, -O0 slots, memset and the
 * one store `store` (as the stored value). */
static int only_stored_by(LLVMValueRef v, LLVMValueRef store, int depth) {
  if (depth > 16) return 0;
  for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (LLVMIsAICmpInst(user) || intrinsic_named(user, "llvm.dbg.") || intrinsic_named(user, "llvm.lifetime."))
      continue;
    if (user == store && LLVMGetOperand(store, 0) == v && LLVMGetOperand(store, 1) != v) continue;
    if (intrinsic_named(user, "llvm.memset.") && LLVMGetOperand(user, 0) == v) continue;
    if (is_cast(user) || LLVMIsAPHINode(user) || LLVMIsASelectInst(user)) {
      if (!only_stored_by(user, store, depth + 1)) return 0;
      continue;
    }
    if (LLVMIsAStoreInst(user) && LLVMGetOperand(user, 0) == v && LLVMIsAAllocaInst(LLVMGetOperand(user, 1))) {
      LLVMValueRef slot = LLVMGetOperand(user, 1);
      for (LLVMUseRef s = LLVMGetFirstUse(slot); s; s = LLVMGetNextUse(s)) {
        LLVMValueRef su = LLVMGetUser(s);
        if (LLVMIsALoadInst(su) && !only_stored_by(su, store, depth + 1)) return 0;
        if (!LLVMIsALoadInst(su) && !LLVMIsAStoreInst(su) && !intrinsic_named(su, "llvm.") &&
            !(LLVMIsABitCastInst(su) && only_markers(su)))
          return 0;
        if (LLVMIsAStoreInst(su) && LLVMGetOperand(su, 0) == slot) return 0; /* the slot's address escapes */
      }
      continue;
    }
    return 0;
  }
  return 1;
}

/* `store` hands a new block out through parameter *param: its allocator
 * calls, or 0. */
static int hands_out(const weir_llvm_memory *m, LLVMValueRef fn, LLVMValueRef store, int *param, out_allocs *a,
                     uint8_t *kind) {
  LLVMValueRef value = LLVMGetOperand(store, 0);
  if (LLVMGetTypeKind(LLVMTypeOf(value)) != LLVMPointerTypeKind) return 0;
  *param = param_of(fn, LLVMGetOperand(store, 1), 0);
  if (*param < 0 || !pta_new_block(m, value, kind)) return 0;
  a->n = 0;
  allocs_of(m, value, a, 0);
  if (a->n == 0 || a->n > OUT_MAX_ALLOCS) return 0;
  for (uint32_t k = 0; k < a->n; ++k)
    if (!only_stored_by(a->call[k], store, 0)) return 0;
  return 1;
}

/* realloc-like allocators among `a` whose old block is *param: their copy
 * moves to the calls (the caller's old block); 1 when there is one. */
static int skip_reallocs(weir_llvm_memory *m, LLVMValueRef fn, int param, const out_allocs *a) {
  int any = 0;
  for (uint32_t k = 0; k < a->n; ++k) {
    LLVMValueRef callee = weir_llvm_direct_callee(a->call[k]);
    uint32_t fi = callee ? pta_fn(m, callee) : PTA_NONE;
    if (fi == PTA_NONE || !LLVMIsDeclaration(callee)) continue;
    uint32_t from = m->fn_lib[fi].call.alloc_from;
    if (from == PTA_NONE || from >= LLVMGetNumArgOperands(a->call[k])) continue;
    LLVMValueRef old = LLVMGetOperand(a->call[k], from);
    while (is_cast(old)) old = LLVMGetOperand(old, 0);
    if (!LLVMIsALoadInst(old) || param_of(fn, LLVMGetOperand(old, 0), 0) != param) continue;
    weir_llvm_map_put(&m->out_skip, a->call[k], 1);
    any = 1;
  }
  return any;
}

void pta_find_out_helpers(weir_llvm_memory *m) {
  for (uint32_t fi = 0; fi < m->fn_count; ++fi) {
    LLVMValueRef fn = m->fns[fi], found = NULL;
    m->fn_lib[fi].out_param = PTA_NONE;
    if (LLVMIsDeclaration(fn)) continue;
    int param = -1, count = 0;
    out_allocs allocs = {{0}, 0};
    uint8_t kind = 0;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb && count < 2; bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i && count < 2; i = LLVMGetNextInstruction(i)) {
        int p = -1;
        out_allocs a = {{0}, 0};
        uint8_t k = 0;
        if (!LLVMIsAStoreInst(i) || !hands_out(m, fn, i, &p, &a, &k)) continue;
        found = i, param = p, allocs = a, kind = k;
        ++count;
      }
    if (count != 1) continue; /* one store, one cell: anything else stays as it is */
    pta_lib *lib = &m->fn_lib[fi];
    lib->out_param = (uint32_t)param;
    lib->out_value = LLVMGetOperand(found, 0);
    lib->out_kind = kind;
    lib->out_copy = (uint8_t)skip_reallocs(m, fn, param, &allocs);
    weir_llvm_map_put(&m->out_skip, found, 1);
  }
  if (m->out_skip.failed) m->failed = 1;
}

int pta_out_skipped(const weir_llvm_memory *m, LLVMValueRef inst) {
  return weir_llvm_map_get(&m->out_skip, inst) != PTA_NONE;
}

/* The pointee of the pointee of the caller's argument (`T **` cast to
 * `void **`): the layout of the caller's block. */
static LLVMTypeRef cell_layout(LLVMValueRef arg) {
  while (is_cast(arg)) arg = LLVMGetOperand(arg, 0);
  LLVMTypeRef type = LLVMTypeOf(arg);
  if (LLVMGetTypeKind(type) != LLVMPointerTypeKind) return NULL;
  type = LLVMGetElementType(type);
  if (LLVMGetTypeKind(type) != LLVMPointerTypeKind) return NULL;
  type = LLVMGetElementType(type);
  LLVMTypeKind kind = LLVMGetTypeKind(type);
  if (kind == LLVMIntegerTypeKind && LLVMGetIntTypeWidth(type) == 8) return NULL;
  if (kind == LLVMFunctionTypeKind || !LLVMTypeIsSized(type)) return NULL;
  return type;
}

void pta_out_call(weir_llvm_memory *m, LLVMValueRef call, LLVMValueRef fn, uint32_t fi) {
  const pta_lib *lib = &m->fn_lib[fi];
  if (lib->out_param == PTA_NONE || lib->out_param >= LLVMGetNumArgOperands(call)) return;
  LLVMValueRef arg = LLVMGetOperand(call, lib->out_param);
  uint32_t cell = pta_value(m, arg);
  if (cell == PTA_NONE) return;
  uint32_t before = m->object_count, tag = lib->call.alloc ? 2 : 0; /* 0: a wrapper's own block */
  LLVMValueRef caller = LLVMGetBasicBlockParent(LLVMGetInstructionParent(call));
  uint32_t object = pta_object_get(m, call, tag, WEIR_LLVM_OBJECT_HEAP, caller, cell_layout(arg));
  if (object == PTA_NONE) return;
  if (object >= before) {
    pta_object_name(m, object, "heap block from ", fn);
    m->objects[object].pub.alloc_kind = lib->out_kind;
  }
  uint32_t block = pta_node_new(m);
  if (block == PTA_NONE) return;
  pta_addr(m, block, m->objects[object].loc0);
  pta_complex(m, PTA_STORE, cell, block, 0, 0, 0);              /* *arg = the call's block */
  pta_memcpy(m, block, pta_value(m, lib->out_value), -1);           /* what the helper put into it */
  if (lib->out_copy) {                                          /* realloc: the caller's old block */
    uint32_t old = pta_node_new(m);
    if (old == PTA_NONE) return;
    pta_complex(m, PTA_LOAD, cell, old, 0, 0, 0);
    pta_memcpy(m, block, old, -1);
  }
}
