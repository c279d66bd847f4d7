/* The constraint graph: nodes for values (constant expressions included),
 * address-of seeds, copy edges (deduplicated) and complex constraints. */
#include <stdlib.h>
#include <string.h>

#include "frontends/llvm/memory/pta.h"

uint32_t pta_node_new(weir_llvm_memory *m) {
  if (m->failed) return PTA_NONE;
  if (m->node_count == m->node_cap) {
    uint32_t cap = m->node_cap ? m->node_cap * 2 : 4096;
    pta_node *grown = realloc(m->nodes, (size_t)cap * sizeof *grown);
    if (grown) m->nodes = grown;
    uint32_t *rep = realloc(m->rep, (size_t)cap * sizeof *rep);
    if (rep) m->rep = rep;
    if (!grown || !rep) {
      m->failed = 1;
      return PTA_NONE;
    }
    m->node_cap = cap;
  }
  memset(&m->nodes[m->node_count], 0, sizeof *m->nodes);
  m->nodes[m->node_count].rank = 0x80000000u + m->node_count; /* after every ranked node */
  m->rep[m->node_count] = m->node_count;
  return m->node_count++;
}

void pta_graph_reset(weir_llvm_memory *m) {
  for (uint32_t k = 0; k < m->node_count; ++k) {
    pta_node *n = &m->nodes[k];
    pta_set_free(&n->pts);
    pta_bits_free(&n->set);
    pta_bits_free(&n->delta);
    pta_set_free(&n->copy);
    pta_set_free(&n->complex);
  }
  m->node_count = 0;
  m->next_cycle_check = 0;
  m->work_done = 0;
  weir_llvm_map_free(&m->value_node);
  pta_map_free(&m->edge_key);
  pta_map_free(&m->watch_key);
  m->watch.n = 0;
  pta_map_free(&m->rel_key);
  m->rel_count = 0;
  m->con_count = 0;
  m->constraint_stat = 0;
  for (uint32_t k = 0; k < m->call_count; ++k) {
    pta_set_free(&m->calls[k].defined);
    pta_set_free(&m->calls[k].declared);
  }
  m->call_count = 0;
  weir_llvm_map_free(&m->call_index);
  m->wave_now.n = m->wave_next.n = 0;
  m->wave_rank = 0;
  pta_locations_reset(m);
}

/* to ∪= from; what is new goes to to's delta and `to` is queued. A typed
 * data pointer takes no function objects (pta_value). */
void pta_propagate_bits(weir_llvm_memory *m, uint32_t to, const pta_bits *from) {
  if (from->n == 0) return;
  to = pta_find(m, to);
  if (m->nodes[to].no_functions && pta_bits_meet(from, &m->function_locs)) {
    pta_bits_diff(m, &m->filtered, from, &m->function_locs);
    from = &m->filtered;
    if (from->count == 0) return;
  }
  m->work_done += from->count;
  pta_bits_clear(&m->added);
  if (pta_bits_union(m, &m->nodes[to].set, from, &m->added) == 0) return;
  pta_bits_union(m, &m->nodes[to].delta, &m->added, NULL);
  pta_push(m, to);
}

void pta_propagate(weir_llvm_memory *m, uint32_t to, const uint32_t *v, uint32_t n) {
  if (n == 0) return;
  pta_bits_from_sorted(m, &m->incoming, v, n);
  pta_propagate_bits(m, to, &m->incoming);
}

void pta_addr(weir_llvm_memory *m, uint32_t node, uint32_t location) {
  if (node == PTA_NONE || location == PTA_NONE) return;
  m->constraint_stat++;
  pta_propagate(m, node, &location, 1);
}

void pta_copy(weir_llvm_memory *m, uint32_t from, uint32_t to) {
  if (from == PTA_NONE || to == PTA_NONE) return;
  from = pta_find(m, from);
  to = pta_find(m, to);
  if (from == to) return;
  uint64_t key = (uint64_t)from << 32 | to;
  if (pta_map_get(&m->edge_key, key) != PTA_NONE) return;
  pta_map_put(m, &m->edge_key, key, 1);
  m->constraint_stat++;
  pta_set_push(m, &m->nodes[from].copy, to);
  /* A new edge carries everything `from` already has. */
  if (m->nodes[from].set.count) pta_propagate_bits(m, to, &m->nodes[from].set);
}

static uint32_t add_constraint(weir_llvm_memory *m, pta_kind kind, uint32_t a, uint32_t b, int64_t offset,
                               int64_t delta) {
  if (m->failed) return PTA_NONE;
  if (m->con_count == m->con_cap) {
    uint32_t cap = m->con_cap ? m->con_cap * 2 : 1024;
    pta_constraint *grown = realloc(m->cons, (size_t)cap * sizeof *grown);
    if (!grown) {
      m->failed = 1;
      return PTA_NONE;
    }
    m->cons = grown;
    m->con_cap = cap;
  }
  m->cons[m->con_count] = (pta_constraint){kind, a, b, offset, delta, PTA_NONE};
  m->constraint_stat++;
  return m->con_count++;
}

/* Hangs constraint `id` on `node`. What the node already propagated (pts
 * minus its pending delta) must meet the new constraint now; the delta
 * meets it when the node is popped. */
static void attach(weir_llvm_memory *m, uint32_t node, uint32_t id) {
  node = pta_find(m, node);
  pta_set_push(m, &m->nodes[node].complex, id);
  const pta_node *n = &m->nodes[node];
  if (n->set.count == n->delta.count) return;
  pta_set done = {0};
  for (uint32_t k = 0, d = 0; k < n->set.n; ++k) {
    while (d < n->delta.n && n->delta.base[d] < n->set.base[k]) ++d;
    uint64_t w = n->set.word[k] & ~(d < n->delta.n && n->delta.base[d] == n->set.base[k] ? n->delta.word[d] : 0);
    for (; w; w &= w - 1) pta_set_push(m, &done, n->set.base[k] * 64 + (uint32_t)__builtin_ctzll(w));
  }
  pta_apply(m, id, node, done.v, done.n);
  pta_set_free(&done);
}

void pta_complex(weir_llvm_memory *m, pta_kind kind, uint32_t node, uint32_t a, uint32_t b, int64_t offset,
                 int64_t delta) {
  if (node == PTA_NONE) return;
  uint32_t id = add_constraint(m, kind, a, b, offset, delta);
  if (id != PTA_NONE) attach(m, node, id);
}

/* `length`: the bytes copied when known, else < 0. */
void pta_memcpy(weir_llvm_memory *m, uint32_t dst, uint32_t src, int64_t length) {
  if (dst == PTA_NONE || src == PTA_NONE) return;
  uint32_t id = add_constraint(m, PTA_MEMCPY, dst, src, length < 0 ? INT64_MAX : length, 0);
  if (id == PTA_NONE) return;
  attach(m, dst, id);
  if (src != dst) attach(m, src, id);
}

/* ---- values ------------------------------------------------------------------- */

/* A pointer to data of a known type (a struct, a pointer, an integer wider
 * than a byte, a float): no C program makes it point to a function's code,
 * however many callbacks share its `void *user_data` on the way. Only
 * i8* (void *, char *) and function pointers may. Without this filter one
 * callback registration that passes a function as user data makes every
 * struct pointer reaching the same callbacks point to every function too,
 * and stores through them write into "the function". */
static int refuses_functions(LLVMTypeRef type) {
  if (LLVMGetTypeKind(type) != LLVMPointerTypeKind) return 0;
  LLVMTypeRef pointee = LLVMGetElementType(type);
  switch (LLVMGetTypeKind(pointee)) {
  case LLVMIntegerTypeKind: return LLVMGetIntTypeWidth(pointee) != 8;
  case LLVMStructTypeKind:
  case LLVMArrayTypeKind:
  case LLVMPointerTypeKind:
  case LLVMVectorTypeKind:
  case LLVMFloatTypeKind:
  case LLVMDoubleTypeKind: return 1;
  default: return 0;
  }
}

static uint32_t mapped(weir_llvm_memory *m, LLVMValueRef value) {
  uint32_t node = pta_node_new(m);
  if (node != PTA_NONE) m->nodes[node].no_functions = (uint8_t)refuses_functions(LLVMTypeOf(value));
  if (node != PTA_NONE) weir_llvm_map_put(&m->value_node, value, node);
  if (m->value_node.failed) m->failed = 1;
  return node;
}

static uint32_t object_node(weir_llvm_memory *m, LLVMValueRef value, weir_llvm_object_kind kind, LLVMTypeRef type) {
  uint32_t before = m->object_count;
  uint32_t object = pta_object_get(m, value, 0, kind, NULL, type);
  if (object == PTA_NONE) return PTA_NONE;
  if (object >= before) pta_object_name(m, object, "", value);
  uint32_t node = mapped(m, value);
  pta_addr(m, node, m->objects[object].loc0);
  return node;
}

void pta_gep_offsets(const weir_llvm_memory *m, LLVMValueRef gep, int64_t *offset, int64_t *delta) {
  *offset = *delta = 0;
  LLVMTypeRef type = LLVMGetGEPSourceElementType(gep);
  int count = LLVMGetNumOperands(gep);
  if (count < 2 || !type) return;
  LLVMValueRef first = LLVMGetOperand(gep, 1);
  LLVMTypeKind kind;
  /* p + c moves c elements of the source type, aggregates too: -O2 writes
   * `conn->rpc` as `(struct ovs_list *)&conn->node + 1` once the struct
   * type is gone. pta_field applies it in typed objects only, where the
   * offset wraps modulo the layout: an array of that type stays one cell. */
  if (LLVMIsAConstantInt(first)) *delta = LLVMConstIntGetSExtValue(first) * (int64_t)pta_type_size(m, type);
  for (int k = 2; k < count; ++k) {
    kind = LLVMGetTypeKind(type);
    if (kind == LLVMStructTypeKind) {
      LLVMValueRef index = LLVMGetOperand(gep, (unsigned)k);
      if (!LLVMIsAConstantInt(index)) return;
      unsigned field = (unsigned)LLVMConstIntGetZExtValue(index);
      if (field >= LLVMCountStructElementTypes(type)) return;
      *offset += (int64_t)LLVMOffsetOfElement(m->layout, type, field);
      type = LLVMStructGetTypeAtIndex(type, field);
    } else if (kind == LLVMArrayTypeKind || kind == LLVMVectorTypeKind) {
      type = LLVMGetElementType(type);
    } else {
      return;
    }
  }
}

static void offset_edge(weir_llvm_memory *m, uint32_t from, uint32_t to, int64_t offset, int64_t delta) {
  if (offset == 0 && delta == 0) pta_copy(m, from, to);
  else pta_complex(m, PTA_OFFSET, from, to, 0, offset, delta);
}

static uint32_t constant_expr(weir_llvm_memory *m, LLVMValueRef value) {
  uint32_t node = mapped(m, value);
  LLVMOpcode op = LLVMGetConstOpcode(value);
  switch (op) {
  case LLVMGetElementPtr: {
    int64_t offset, delta;
    pta_gep_offsets(m, value, &offset, &delta);
    offset_edge(m, pta_value(m, LLVMGetOperand(value, 0)), node, offset, delta);
    break;
  }
  case LLVMBitCast:
  case LLVMAddrSpaceCast:
  case LLVMIntToPtr:
  case LLVMPtrToInt:
    pta_copy(m, pta_value(m, LLVMGetOperand(value, 0)), node);
    break;
  case LLVMSelect:
    pta_copy(m, pta_value(m, LLVMGetOperand(value, 1)), node);
    pta_copy(m, pta_value(m, LLVMGetOperand(value, 2)), node);
    break;
  case LLVMAdd:
  case LLVMSub:
  case LLVMAnd:
  case LLVMOr:
  case LLVMXor:
    pta_copy(m, pta_value(m, LLVMGetOperand(value, 0)), node);
    pta_copy(m, pta_value(m, LLVMGetOperand(value, 1)), node);
    break;
  default: break;
  }
  return node;
}

uint32_t pta_value(weir_llvm_memory *m, LLVMValueRef value) {
  if (!value || m->failed) return PTA_NONE;
  uint32_t node = weir_llvm_map_get(&m->value_node, value);
  if (node != PTA_NONE) return node;
  if (LLVMIsAInstruction(value) || LLVMIsAArgument(value)) return mapped(m, value);
  if (LLVMIsAGlobalVariable(value))
    return object_node(m, value, LLVMIsGlobalConstant(value) ? WEIR_LLVM_OBJECT_CONSTANT : WEIR_LLVM_OBJECT_GLOBAL,
                       LLVMGlobalGetValueType(value));
  if (LLVMIsAFunction(value)) return object_node(m, value, WEIR_LLVM_OBJECT_FUNCTION, NULL);
  if (LLVMIsAGlobalAlias(value)) {
    node = mapped(m, value);
    pta_copy(m, pta_value(m, LLVMAliasGetAliasee(value)), node);
    return node;
  }
  if (LLVMIsAConstantExpr(value)) return constant_expr(m, value);
  if (LLVMIsAConstantStruct(value) || LLVMIsAConstantArray(value) || LLVMIsAConstantVector(value)) {
    node = mapped(m, value);
    int count = LLVMGetNumOperands(value);
    for (int k = 0; k < count; ++k) pta_copy(m, pta_value(m, LLVMGetOperand(value, (unsigned)k)), node);
    return node;
  }
  return PTA_NONE;
}
