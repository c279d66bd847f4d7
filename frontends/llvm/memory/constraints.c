/* Constraint generation: one walk over the module turns globals (their
 * initializers), main's argv and every instruction into address-of, copy,
 * offset, load, store, call and memcpy constraints. */
#include <stdlib.h>
#include <string.h>

#include "frontends/llvm/memory/pta.h"

/* A constant initializer stores its pointers into the global's fields. */
static void initialize(weir_llvm_memory *m, uint32_t object, int64_t offset, LLVMValueRef c, int depth) {
  if (!c || depth > 32 || m->failed) return;
  LLVMTypeRef type = LLVMTypeOf(c);
  if (LLVMIsAConstantStruct(c)) {
    int count = LLVMGetNumOperands(c);
    for (int k = 0; k < count; ++k)
      initialize(m, object, offset + (int64_t)LLVMOffsetOfElement(m->layout, type, (unsigned)k),
                 LLVMGetOperand(c, (unsigned)k), depth + 1);
    return;
  }
  if (LLVMIsAConstantArray(c) || LLVMIsAConstantVector(c)) {
    int count = LLVMGetNumOperands(c);
    for (int k = 0; k < count; ++k) initialize(m, object, offset, LLVMGetOperand(c, (unsigned)k), depth + 1);
    return;
  }
  if (LLVMIsAConstantDataSequential(c) || LLVMIsAConstantAggregateZero(c) || LLVMIsAConstantInt(c) ||
      LLVMIsAConstantPointerNull(c) || LLVMIsAUndefValue(c) || LLVMIsAConstantFP(c))
    return;
  uint32_t node = pta_value(m, c);
  if (node == PTA_NONE) return;
  uint32_t location = pta_location(m, object, offset);
  if (location != PTA_NONE) pta_copy(m, node, m->loc_node[location]);
}

static void globals(weir_llvm_memory *m) {
  for (LLVMValueRef g = LLVMGetFirstGlobal(m->module); g; g = LLVMGetNextGlobal(g)) {
    if (pta_value(m, g) == PTA_NONE) continue;
    uint32_t object = pta_object_find(m, g, 0);
    LLVMValueRef init = LLVMIsDeclaration(g) ? NULL : LLVMGetInitializer(g);
    if (object != PTA_NONE && init) initialize(m, object, 0, init, 0);
  }
}

/* main's argv: an external array whose cells point to external strings. */
static void argv_objects(weir_llvm_memory *m) {
  m->argv_array = m->argv_strings = PTA_NONE;
  LLVMValueRef main_fn = LLVMGetNamedFunction(m->module, "main");
  if (!main_fn || LLVMIsDeclaration(main_fn) || LLVMCountParams(main_fn) < 2) return;
  LLVMValueRef argv = LLVMGetParam(main_fn, 1);
  if (LLVMGetTypeKind(LLVMTypeOf(argv)) != LLVMPointerTypeKind) return;
  uint32_t before = m->object_count;
  uint32_t array = pta_object_get(m, argv, 0, WEIR_LLVM_OBJECT_EXTERNAL, main_fn, NULL);
  uint32_t strings = pta_object_get(m, argv, 1, WEIR_LLVM_OBJECT_EXTERNAL, main_fn, NULL);
  if (array == PTA_NONE || strings == PTA_NONE) return;
  if (array >= before) {
    m->objects[array].pub.site = NULL;
    m->objects[strings].pub.site = NULL;
    strcpy(m->objects[array].pub.name, "argv[]");
    strcpy(m->objects[strings].pub.name, "argv strings");
  }
  m->argv_array = array;
  m->argv_strings = strings;
  pta_addr(m, pta_value(m, argv), m->objects[array].loc0);
  pta_addr(m, m->loc_node[m->objects[array].loc0], m->objects[strings].loc0);
}

static void parameter_objects(weir_llvm_memory *m, uint32_t fi) {
  LLVMValueRef fn = m->fns[fi];
  unsigned count = LLVMCountParams(fn);
  for (unsigned k = 0; k < count; ++k) {
    LLVMValueRef param = LLVMGetParam(fn, k);
    if (LLVMGetTypeKind(LLVMTypeOf(param)) != LLVMPointerTypeKind) continue;
    if (m->argv_array != PTA_NONE && pta_object_find(m, param, 0) == m->argv_array) continue;
    uint32_t before = m->object_count;
    uint32_t object = pta_object_get(m, param, 0, WEIR_LLVM_OBJECT_EXTERNAL, fn, pta_layout_of(m, param));
    if (object == PTA_NONE) return;
    if (object >= before) {
      size_t length = 0, fn_length = 0;
      const char *name = LLVMGetValueName2(param, &length);
      const char *fn_name = LLVMGetValueName2(fn, &fn_length);
      weir_llvm_object *o = &m->objects[object].pub;
      if (length)
        snprintf(o->name, sizeof o->name, "memory behind parameter %.*s of %.*s", (int)length, name, (int)fn_length,
                 fn_name);
      else
        snprintf(o->name, sizeof o->name, "memory behind parameter %u of %.*s", k + 1, (int)fn_length, fn_name);
    }
    pta_addr(m, pta_value(m, param), m->objects[object].loc0);
  }
}

uint32_t pta_unreached_parameters(weir_llvm_memory *m) {
  uint32_t added = 0;
  for (uint32_t fi = 0; fi < m->fn_count; ++fi) {
    if (m->fn_called[fi] || m->fn_params_external[fi] || LLVMIsDeclaration(m->fns[fi])) continue;
    m->fn_params_external[fi] = 1;
    uint32_t before = m->constraint_stat;
    parameter_objects(m, fi);
    if (m->constraint_stat != before) ++added;
  }
  return added;
}

/* ---- instructions ---------------------------------------------------------------- */

/* Aggregates, vectors and wide integers move field by field: a load of
 * {i8*, i8*} or <2 x i8*> reads two cells. */
static void load_or_store(weir_llvm_memory *m, pta_kind kind, uint32_t pointer, uint32_t value, LLVMTypeRef type) {
  if (pointer == PTA_NONE || value == PTA_NONE) return;
  LLVMTypeKind k = LLVMGetTypeKind(type);
  if (k == LLVMPointerTypeKind || (k == LLVMIntegerTypeKind && LLVMGetIntTypeWidth(type) < 2 * m->pointer_bits)) {
    pta_complex(m, kind, pointer, value, 0, 0, 0);
    return;
  }
  uint64_t fields[PTA_MAX_FIELDS];
  uint32_t count = pta_pointer_fields(m, type, fields, PTA_MAX_FIELDS);
  for (uint32_t f = 0; f < count; ++f) {
    uint32_t at = pointer;
    if (fields[f]) {
      at = pta_node_new(m);
      if (at == PTA_NONE) return;
      pta_complex(m, PTA_OFFSET, pointer, at, 0, (int64_t)fields[f], 0);
    }
    pta_complex(m, kind, at, value, 0, 0, 0);
  }
}

static void copy_operands(weir_llvm_memory *m, LLVMValueRef inst, unsigned first, unsigned last) {
  if (!pta_can_hold_pointer(m, LLVMTypeOf(inst))) return;
  uint32_t to = pta_value(m, inst);
  for (unsigned k = first; k <= last && (int)k < LLVMGetNumOperands(inst); ++k)
    pta_copy(m, pta_value(m, LLVMGetOperand(inst, k)), to);
}

/* Integer arithmetic carries a pointer only when an operand comes from a
 * ptrtoint (tagging, alignment): sizes and counters must not pick up
 * whatever a merged cell holds. */
static int from_pointer(LLVMValueRef v, int depth) {
  if (depth > 8 || !v) return 0;
  if (LLVMIsAPtrToIntInst(v) || (LLVMIsAConstantExpr(v) && LLVMGetConstOpcode(v) == LLVMPtrToInt)) return 1;
  if (LLVMIsABinaryOperator(v) || LLVMIsASelectInst(v)) {
    int count = LLVMGetNumOperands(v);
    for (int k = 0; k < count; ++k)
      if (from_pointer(LLVMGetOperand(v, (unsigned)k), depth + 1)) return 1;
    return 0;
  }
  if (LLVMIsAPHINode(v)) {
    unsigned count = LLVMCountIncoming(v);
    for (unsigned k = 0; k < count && k < 8; ++k)
      if (LLVMGetIncomingValue(v, k) != v && from_pointer(LLVMGetIncomingValue(v, k), depth + 1)) return 1;
  }
  return 0;
}

static void instruction(weir_llvm_memory *m, LLVMValueRef inst, LLVMValueRef fn, uint32_t fi) {
  switch (LLVMGetInstructionOpcode(inst)) {
  case LLVMAlloca: {
    uint32_t before = m->object_count;
    uint32_t object = pta_object_get(m, inst, 0, WEIR_LLVM_OBJECT_STACK, fn, LLVMGetAllocatedType(inst));
    if (object == PTA_NONE) return;
    if (object >= before) pta_object_name(m, object, "", inst);
    pta_addr(m, pta_value(m, inst), m->objects[object].loc0);
    break;
  }
  case LLVMLoad:
    if (pta_can_hold_pointer(m, LLVMTypeOf(inst)))
      load_or_store(m, PTA_LOAD, pta_value(m, LLVMGetOperand(inst, 0)), pta_value(m, inst), LLVMTypeOf(inst));
    break;
  case LLVMStore: {
    LLVMValueRef value = LLVMGetOperand(inst, 0);
    if (pta_can_hold_pointer(m, LLVMTypeOf(value)) && !pta_out_skipped(m, inst))
      load_or_store(m, PTA_STORE, pta_value(m, LLVMGetOperand(inst, 1)), pta_value(m, value), LLVMTypeOf(value));
    break;
  }
  case LLVMGetElementPtr: {
    int64_t offset, delta;
    pta_gep_offsets(m, inst, &offset, &delta);
    uint32_t from = pta_value(m, LLVMGetOperand(inst, 0)), to = pta_value(m, inst);
    if (offset == 0 && delta == 0) pta_copy(m, from, to);
    else pta_complex(m, PTA_OFFSET, from, to, 0, offset, delta);
    break;
  }
  case LLVMBitCast:
  case LLVMAddrSpaceCast:
  case LLVMIntToPtr:
  case LLVMPtrToInt:
  case LLVMFreeze:
  case LLVMExtractValue:
  case LLVMExtractElement: copy_operands(m, inst, 0, 0); break;
  case LLVMInsertValue:
  case LLVMInsertElement:
  case LLVMShuffleVector: copy_operands(m, inst, 0, 1); break;
  case LLVMAdd:
  case LLVMSub:
  case LLVMAnd:
  case LLVMOr:
  case LLVMXor:
    if (from_pointer(inst, 0)) copy_operands(m, inst, 0, 1);
    break;
  case LLVMSelect: copy_operands(m, inst, 1, 2); break;
  case LLVMPHI: {
    if (!pta_can_hold_pointer(m, LLVMTypeOf(inst))) break;
    uint32_t to = pta_value(m, inst);
    unsigned count = LLVMCountIncoming(inst);
    for (unsigned k = 0; k < count; ++k) pta_copy(m, pta_value(m, LLVMGetIncomingValue(inst, k)), to);
    break;
  }
  case LLVMCall: pta_call_site(m, inst); break;
  case LLVMRet:
    if (LLVMGetNumOperands(inst) == 1) pta_copy(m, pta_value(m, LLVMGetOperand(inst, 0)), m->fn_ret[fi]);
    break;
  case LLVMAtomicRMW:
  case LLVMAtomicCmpXchg: {
    unsigned value_at = LLVMGetInstructionOpcode(inst) == LLVMAtomicRMW ? 1 : 2;
    LLVMValueRef value = LLVMGetOperand(inst, value_at);
    uint32_t pointer = pta_value(m, LLVMGetOperand(inst, 0));
    if (!pta_can_hold_pointer(m, LLVMTypeOf(value))) break;
    load_or_store(m, PTA_STORE, pointer, pta_value(m, value), LLVMTypeOf(value));
    pta_complex(m, PTA_LOAD, pointer, pta_value(m, inst), 0, 0, 0);
    break;
  }
  default: break;
  }
}

void pta_generate(weir_llvm_memory *m) {
  memset(m->fn_called, 0, m->fn_count);
  for (uint32_t fi = 0; fi < m->fn_count; ++fi)
    m->fn_ret[fi] = LLVMIsDeclaration(m->fns[fi]) ? PTA_NONE : pta_node_new(m);
  globals(m);
  argv_objects(m);
  for (uint32_t fi = 0; fi < m->fn_count; ++fi)
    if (m->fn_params_external[fi]) parameter_objects(m, fi);
  for (uint32_t fi = 0; fi < m->fn_count && !m->failed; ++fi) {
    LLVMValueRef fn = m->fns[fi];
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef inst = LLVMGetFirstInstruction(bb); inst; inst = LLVMGetNextInstruction(inst))
        instruction(m, inst, fn, fi);
  }
}
