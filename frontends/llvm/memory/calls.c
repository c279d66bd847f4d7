/* Calls: the function table (library model per declaration, allocation
 * wrappers among the definitions), binding a call to a target (arguments
 * to parameters, returns to the call, library effects) directly or, for
 * indirect calls, when the solver finds a function in the called value. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontends/llvm/memory/pta.h"

uint32_t pta_fn(const weir_llvm_memory *m, LLVMValueRef fn) { return weir_llvm_map_get(&m->fn_index, fn); }

int pta_is_intrinsic(LLVMValueRef fn) {
  size_t length = 0;
  const char *name = LLVMGetValueName2(fn, &length);
  return length >= 5 && strncmp(name, "llvm.", 5) == 0;
}

static int name_starts(LLVMValueRef fn, const char *prefix) {
  size_t length = 0, n = strlen(prefix);
  const char *name = LLVMGetValueName2(fn, &length);
  return length >= n && strncmp(name, prefix, n) == 0;
}

/* ---- allocation wrappers ------------------------------------------------------ */

typedef struct wrap_walk {
  int allocates; /* some path returns an allocator's result */
  uint8_t kind;  /* its WEIR_LLVM_ALLOC_* */
} wrap_walk;

static int returns_new_block(const weir_llvm_memory *m, LLVMValueRef v, wrap_walk *w, int depth);

/* -O0: `p = malloc(n); ...; return p;` goes through a local that nothing
 * else sees (only loads, stores into it of allocator results, debug uses). */
static int slot_holds_new_block(const weir_llvm_memory *m, LLVMValueRef slot, wrap_walk *w, int depth) {
  for (LLVMUseRef u = LLVMGetFirstUse(slot); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (LLVMIsALoadInst(user)) continue;
    if (LLVMIsAStoreInst(user) && LLVMGetOperand(user, 1) == slot) {
      if (!returns_new_block(m, LLVMGetOperand(user, 0), w, depth + 1)) return 0;
      continue;
    }
    if (LLVMIsACallInst(user)) {
      LLVMValueRef callee = weir_llvm_direct_callee(user);
      if (callee && (name_starts(callee, "llvm.dbg.") || name_starts(callee, "llvm.lifetime."))) continue;
    }
    if (LLVMIsABitCastInst(user)) {
      /* lifetime markers take the slot as i8* */
      int only_markers = 1;
      for (LLVMUseRef c = LLVMGetFirstUse(user); c && only_markers; c = LLVMGetNextUse(c)) {
        LLVMValueRef cu = LLVMGetUser(c);
        LLVMValueRef callee = LLVMIsACallInst(cu) ? weir_llvm_direct_callee(cu) : NULL;
        only_markers = callee && name_starts(callee, "llvm.lifetime.");
      }
      if (only_markers) continue;
    }
    return 0;
  }
  return 1;
}

static int returns_new_block(const weir_llvm_memory *m, LLVMValueRef v, wrap_walk *w, int depth) {
  if (depth > 24 || !v) return 0;
  if (LLVMIsAConstantPointerNull(v) || (LLVMIsAConstant(v) && LLVMIsNull(v))) return 1;
  if (LLVMIsABitCastInst(v) || LLVMIsAAddrSpaceCastInst(v) ||
      (LLVMIsAConstantExpr(v) && (LLVMGetConstOpcode(v) == LLVMBitCast || LLVMGetConstOpcode(v) == LLVMAddrSpaceCast)))
    return returns_new_block(m, LLVMGetOperand(v, 0), w, depth + 1);
  if (LLVMIsAPHINode(v)) {
    unsigned count = LLVMCountIncoming(v);
    for (unsigned k = 0; k < count; ++k)
      if (LLVMGetIncomingValue(v, k) != v && !returns_new_block(m, LLVMGetIncomingValue(v, k), w, depth + 1)) return 0;
    return 1;
  }
  if (LLVMIsASelectInst(v))
    return returns_new_block(m, LLVMGetOperand(v, 1), w, depth + 1) &&
           returns_new_block(m, LLVMGetOperand(v, 2), w, depth + 1);
  if (LLVMIsALoadInst(v) && LLVMIsAAllocaInst(LLVMGetOperand(v, 0)))
    return slot_holds_new_block(m, LLVMGetOperand(v, 0), w, depth + 1);
  if (LLVMIsACallInst(v)) {
    LLVMValueRef callee = weir_llvm_direct_callee(v);
    uint32_t fi = callee ? pta_fn(m, callee) : PTA_NONE;
    if (fi == PTA_NONE || !m->fn_lib[fi].call.alloc) return 0;
    if (!w->allocates) w->kind = m->fn_lib[fi].call.alloc;
    w->allocates = 1;
    return 1;
  }
  return 0;
}

int pta_new_block(const weir_llvm_memory *m, LLVMValueRef v, uint8_t *kind) {
  wrap_walk w = {0, 0};
  int ok = returns_new_block(m, v, &w, 0) && w.allocates;
  *kind = w.kind;
  return ok;
}

/* Whether the new block `v` (an allocator's result, or what it flowed
 * into) is only checked, kept in a -O0 slot and returned: a wrapper that
 * writes into its block (a constructor filling fields) is no allocator for
 * the analyses, since what it writes belongs to the block its caller gets. */
static int only_returned(LLVMValueRef v, int depth) {
  if (depth > 16) return 0;
  for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (LLVMIsAReturnInst(user) || LLVMIsAICmpInst(user)) continue;
    if (LLVMIsABitCastInst(user) || LLVMIsAAddrSpaceCastInst(user) || LLVMIsAPHINode(user) ||
        LLVMIsASelectInst(user)) {
      if (!only_returned(user, depth + 1)) return 0;
      continue;
    }
    if (LLVMIsAStoreInst(user) && LLVMGetOperand(user, 0) == v && LLVMIsAAllocaInst(LLVMGetOperand(user, 1))) {
      LLVMValueRef slot = LLVMGetOperand(user, 1);
      for (LLVMUseRef s = LLVMGetFirstUse(slot); s; s = LLVMGetNextUse(s)) {
        LLVMValueRef su = LLVMGetUser(s);
        if (LLVMIsALoadInst(su) && !only_returned(su, depth + 1)) return 0;
      }
      continue;
    }
    if (LLVMIsACallInst(user)) {
      LLVMValueRef callee = weir_llvm_direct_callee(user);
      if (callee && (name_starts(callee, "llvm.dbg.") || name_starts(callee, "llvm.lifetime."))) continue;
    }
    return 0;
  }
  return 1;
}

static int writes_its_block(const weir_llvm_memory *m, LLVMValueRef fn) {
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
      if (!LLVMIsACallInst(i)) continue;
      LLVMValueRef callee = weir_llvm_direct_callee(i);
      uint32_t fi = callee ? pta_fn(m, callee) : PTA_NONE;
      if (fi != PTA_NONE && m->fn_lib[fi].call.alloc && !only_returned(i, 0)) return 1;
    }
  return 0;
}

/* A defined function whose every return is an allocator's (or another
 * wrapper's) result or null, and that does not write into the block;
 * found by iterating until nothing changes. */
static void find_wrappers(weir_llvm_memory *m) {
  for (int changed = 1; changed;) {
    changed = 0;
    for (uint32_t fi = 0; fi < m->fn_count; ++fi) {
      LLVMValueRef fn = m->fns[fi];
      if (LLVMIsDeclaration(fn) || m->fn_lib[fi].call.alloc) continue;
      if (LLVMGetTypeKind(LLVMGetReturnType(LLVMGlobalGetValueType(fn))) != LLVMPointerTypeKind) continue;
      wrap_walk w = {0, 0};
      int all = 1, rets = 0;
      for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb && all; bb = LLVMGetNextBasicBlock(bb)) {
        LLVMValueRef term = LLVMGetBasicBlockTerminator(bb);
        if (!term || !LLVMIsAReturnInst(term)) continue;
        ++rets;
        all = returns_new_block(m, LLVMGetOperand(term, 0), &w, 0);
      }
      if (all && rets && w.allocates && !writes_its_block(m, fn)) {
        m->fn_lib[fi].wrapper = 1;
        m->fn_lib[fi].call.alloc = w.kind;
        changed = 1;
      }
    }
  }
}

/* Numbers every function and looks its library model up once. */
void pta_functions_prepare(weir_llvm_memory *m) {
  uint32_t count = 0;
  for (LLVMValueRef fn = LLVMGetFirstFunction(m->module); fn; fn = LLVMGetNextFunction(fn)) ++count;
  m->fns = calloc(count ? count : 1, sizeof *m->fns);
  m->fn_ret = calloc(count ? count : 1, sizeof *m->fn_ret);
  m->fn_lib = calloc(count ? count : 1, sizeof *m->fn_lib);
  m->fn_called = calloc(count ? count : 1, 1);
  m->fn_params_external = calloc(count ? count : 1, 1);
  if (!m->fns || !m->fn_ret || !m->fn_lib || !m->fn_called || !m->fn_params_external) {
    m->failed = 1;
    return;
  }
  for (LLVMValueRef fn = LLVMGetFirstFunction(m->module); fn; fn = LLVMGetNextFunction(fn)) {
    uint32_t fi = m->fn_count++;
    m->fns[fi] = fn;
    weir_llvm_map_put(&m->fn_index, fn, fi);
    size_t length = 0;
    const char *name = LLVMGetValueName2(fn, &length);
    weir_llvm_library_lookup(m->config, name, length, &m->fn_lib[fi].call);
    /* The intrinsics are modelled whatever the configuration says. */
    if (name_starts(fn, "llvm.memcpy") || name_starts(fn, "llvm.memmove")) {
      m->fn_lib[fi].call.known = 1;
      m->fn_lib[fi].call.copy_from = 1;
      m->fn_lib[fi].call.copy_to = 0;
      m->fn_lib[fi].call.writes |= 1u;
      m->fn_lib[fi].call.reads |= 2u;
    } else if (name_starts(fn, "llvm.memset")) {
      m->fn_lib[fi].call.known = 1;
      m->fn_lib[fi].call.writes |= 1u;
    }
  }
  if (m->fn_index.failed) m->failed = 1;
  find_wrappers(m);
  pta_find_out_helpers(m);
}

/* ---- binding ------------------------------------------------------------------- */

static uint32_t arg_node(weir_llvm_memory *m, LLVMValueRef call, uint32_t k) {
  if (k == PTA_NONE || k >= LLVMGetNumArgOperands(call)) return PTA_NONE;
  return pta_value(m, LLVMGetOperand(call, k));
}

static LLVMValueRef call_function(LLVMValueRef call) {
  return LLVMGetBasicBlockParent(LLVMGetInstructionParent(call));
}

static void bind_arguments(weir_llvm_memory *m, LLVMValueRef call, LLVMValueRef fn) {
  unsigned args = LLVMGetNumArgOperands(call), params = LLVMCountParams(fn);
  for (unsigned k = 0; k < args && k < params; ++k) {
    LLVMValueRef param = LLVMGetParam(fn, k);
    if (!pta_can_hold_pointer(m, LLVMTypeOf(param))) continue;
    pta_copy(m, pta_value(m, LLVMGetOperand(call, k)), pta_value(m, param));
  }
}

static void heap_site(weir_llvm_memory *m, LLVMValueRef call, LLVMValueRef fn, uint32_t fi) {
  uint32_t before = m->object_count;
  uint32_t object = pta_object_get(m, call, 0, WEIR_LLVM_OBJECT_HEAP, call_function(call), pta_layout_of(m, call));
  if (object == PTA_NONE) return;
  if (object >= before) {
    pta_object_name(m, object, "heap block from ", fn);
    m->objects[object].pub.alloc_kind = m->fn_lib[fi].call.alloc;
  }
  pta_addr(m, pta_value(m, call), m->objects[object].loc0);
}

int64_t weir_llvm_memory_call_length(LLVMValueRef call, LLVMValueRef fn) {
  static const struct { const char *name; unsigned size; } sized[] = {
      {"memcpy", 2},        {"memmove", 2},       {"mempcpy", 2},      {"__memcpy_chk", 2},
      {"__memmove_chk", 2}, {"llvm.memcpy.", 2},  {"llvm.memmove.", 2}, {"llvm.memcpy.inline.", 2},
      {"memset", 2},        {"__memset_chk", 2},  {"llvm.memset.", 2},  {"bzero", 1},
      {"explicit_bzero", 1},
  };
  size_t length = 0;
  const char *name = fn ? LLVMGetValueName2(fn, &length) : "";
  for (size_t k = 0; k < sizeof sized / sizeof *sized; ++k) {
    size_t n = strlen(sized[k].name);
    int known = sized[k].name[n - 1] == '.' ? length > n && strncmp(name, sized[k].name, n) == 0
                                            : length == n && memcmp(name, sized[k].name, n) == 0;
    if (!known) continue;
    if (LLVMGetNumArgOperands(call) <= sized[k].size) return -1;
    LLVMValueRef size = LLVMGetOperand(call, sized[k].size);
    if (!LLVMIsAConstantInt(size)) return -1;
    unsigned long long bytes = LLVMConstIntGetZExtValue(size);
    return bytes > (unsigned long long)INT64_MAX / 2 ? -1 : (int64_t)bytes;
  }
  return -1;
}

/* What calling `fn` (index fi) at `call` does to points-to sets. */
static void apply_target(weir_llvm_memory *m, LLVMValueRef call, LLVMValueRef fn, uint32_t fi) {
  const pta_lib *lib = &m->fn_lib[fi];
  int defined = !LLVMIsDeclaration(fn);
  if (defined) bind_arguments(m, call, fn);
  if (lib->call.alloc) {
    heap_site(m, call, fn, fi);
    /* Each call of a wrapper is its own block: it holds what the wrapper
     * stored into the block it returns (constructors fill fields). */
    if (defined) pta_memcpy(m, pta_value(m, call), m->fn_ret[fi], -1);
    else if (lib->call.alloc_from != PTA_NONE && !pta_out_skipped(m, call)) {
      uint32_t from = arg_node(m, call, lib->call.alloc_from);
      if (from != PTA_NONE) pta_memcpy(m, pta_value(m, call), from, -1);
    }
  } else if (defined) {
    if (LLVMGetTypeKind(LLVMTypeOf(call)) != LLVMVoidTypeKind) pta_copy(m, m->fn_ret[fi], pta_value(m, call));
  } else if (lib->call.returns_arg != PTA_NONE && lib->call.returns_arg < LLVMGetNumArgOperands(call)) {
    pta_copy(m, arg_node(m, call, lib->call.returns_arg), pta_value(m, call));
  } else if (LLVMGetTypeKind(LLVMTypeOf(call)) == LLVMPointerTypeKind) {
    uint32_t before = m->object_count;
    uint32_t object = pta_object_get(m, call, 0, WEIR_LLVM_OBJECT_EXTERNAL, call_function(call), pta_layout_of(m, call));
    if (object == PTA_NONE) return;
    if (object >= before) pta_object_name(m, object, "memory from ", fn);
    pta_addr(m, pta_value(m, call), m->objects[object].loc0);
  }
  if (defined && lib->out_param != PTA_NONE) pta_out_call(m, call, fn, fi);
  if (!defined && lib->call.copy_from != PTA_NONE && lib->call.copy_to != PTA_NONE) {
    uint32_t to = arg_node(m, call, lib->call.copy_to), from = arg_node(m, call, lib->call.copy_from);
    if (to != PTA_NONE && from != PTA_NONE) pta_memcpy(m, to, from, weir_llvm_memory_call_length(call, fn));
  }
}

static uint32_t call_record(weir_llvm_memory *m, LLVMValueRef call) {
  if (m->call_count == m->call_cap) {
    uint32_t cap = m->call_cap ? m->call_cap * 2 : 256;
    pta_call *grown = realloc(m->calls, (size_t)cap * sizeof *grown);
    if (!grown) {
      m->failed = 1;
      return PTA_NONE;
    }
    m->calls = grown;
    m->call_cap = cap;
  }
  uint32_t id = m->call_count++;
  memset(&m->calls[id], 0, sizeof m->calls[id]);
  m->calls[id].call = call;
  weir_llvm_map_put(&m->call_index, call, id);
  if (m->call_index.failed) m->failed = 1;
  return id;
}

void pta_call_site(weir_llvm_memory *m, LLVMValueRef call) {
  LLVMValueRef callee = weir_llvm_direct_callee(call);
  if (callee) {
    uint32_t fi = pta_fn(m, callee);
    if (fi == PTA_NONE) return;
    if (pta_is_intrinsic(callee) && !m->fn_lib[fi].call.known) return;
    if (!LLVMIsDeclaration(callee)) m->fn_called[fi] = 1;
    apply_target(m, call, callee, fi);
    return;
  }
  LLVMValueRef called = LLVMGetCalledValue(call);
  if (!called || LLVMIsAInlineAsm(called)) return;
  uint32_t node = pta_value(m, called);
  uint32_t record = call_record(m, call);
  if (node != PTA_NONE && record != PTA_NONE) pta_complex(m, PTA_CALL, node, record, 0, 0, 0);
}

/* A struct name without the `.N` that linking appends to a second copy of
 * the same type (`struct.stream.123`). */
static size_t record_name(LLVMTypeRef type, const char **name) {
  size_t length = 0;
  *name = LLVMGetStructName(type);
  if (!*name) return 0;
  length = strlen(*name);
  size_t end = length;
  while (end > 0 && (*name)[end - 1] >= '0' && (*name)[end - 1] <= '9') --end;
  return end > 0 && end < length && (*name)[end - 1] == '.' ? end - 1 : length;
}

/* Pointers to two different named records (`struct stream *` against
 * `struct pstream *`) do not fit: C calls a function only through a
 * pointer of its own type, and code that passes structs through `void *`
 * has an i8* on one side. Opaque or unnamed records say nothing. */
static int record_fits(LLVMTypeRef a, LLVMTypeRef p) {
  if (a == p || LLVMGetTypeKind(a) != LLVMStructTypeKind || LLVMGetTypeKind(p) != LLVMStructTypeKind) return 1;
  if (LLVMIsOpaqueStruct(a) || LLVMIsOpaqueStruct(p) || LLVMIsLiteralStruct(a) || LLVMIsLiteralStruct(p)) return 1;
  const char *na, *np;
  size_t la = record_name(a, &na), lp = record_name(p, &np);
  return !la || !lp || (la == lp && memcmp(na, np, la) == 0);
}

/* Whether an argument of type `a` can be what a parameter of type `p`
 * receives: both pointers, or the same type (an integer of the same width,
 * the same floating-point or aggregate type). Calling a function through a
 * pointer of another type is undefined in C; clang lowers one C type the
 * same way at the call and in the callee. */
static int kind_fits(LLVMTypeRef a, LLVMTypeRef p) {
  if (a == p) return 1;
  if (LLVMGetTypeKind(a) != LLVMPointerTypeKind || LLVMGetTypeKind(p) != LLVMPointerTypeKind) return 0;
  return record_fits(LLVMGetElementType(a), LLVMGetElementType(p));
}

/* Only functions whose parameters fit: exactly the call's count, or at
 * most it for a vararg function, each of a kind the argument fits
 * (kind_fits: an indirect call `class->listen(name, suffix, &stream, dscp)`
 * does not reach `unixctl_cb(conn, argc, argv, aux)`, whose int parameter
 * takes a pointer). */
static int arity_fits(LLVMValueRef call, LLVMValueRef fn) {
  unsigned args = LLVMGetNumArgOperands(call), params = LLVMCountParams(fn);
  if (LLVMIsFunctionVarArg(LLVMGlobalGetValueType(fn)) ? params > args : params != args) return 0;
  /* int (*connect)(struct stream *) does not reach void close(struct pstream *) */
  if (!kind_fits(LLVMTypeOf(call), LLVMGetReturnType(LLVMGlobalGetValueType(fn)))) return 0;
  for (unsigned k = 0; k < params; ++k)
    if (!kind_fits(LLVMTypeOf(LLVMGetOperand(call, k)), LLVMTypeOf(LLVMGetParam(fn, k)))) return 0;
  return 1;
}

void pta_bind(weir_llvm_memory *m, uint32_t record, LLVMValueRef fn) {
  uint32_t fi = pta_fn(m, fn);
  LLVMValueRef call = m->calls[record].call;
  if (fi == PTA_NONE || pta_is_intrinsic(fn) || !arity_fits(call, fn)) return;
  if (!pta_field_allows(m, call, fi)) {
    m->calls[record].field_refused = 1;
    return;
  }
  int defined = !LLVMIsDeclaration(fn);
  pta_set *targets = defined ? &m->calls[record].defined : &m->calls[record].declared;
  if (!pta_set_insert(m, targets, fi)) return;
  if (defined) m->fn_called[fi] = 1;
  apply_target(m, call, fn, fi);
}
