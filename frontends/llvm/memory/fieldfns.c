/* Functions by struct field, for indirect calls (one layer of type-based
 * call resolution, as multi-layer type analysis does for C).
 *
 *     (stream->class->run)(stream)      load (gep %struct.stream_class, c, 0, 7)
 *
 * C keeps methods in tables of function pointers. When the points-to set
 * of `stream` is polluted (a generic `void *` once held something else),
 * the loaded pointer takes every function any object stores anywhere, and
 * `run` reaches every `close` of every class (ovsdb-client at -O2: 34
 * false uses after free, each stream "closed" by its own run method).
 * A function can only come out of field k of a struct T if it was put
 * there: by a global's initializer (`static const struct stream_class
 * fd_class = { .close = fd_close, ... }`) or by a store of the function
 * into field k of a T (`class->run = my_run`). So the call binds only
 * those functions, when they are all known: a store of anything else (a
 * parameter, a loaded pointer) into the field, or a field that is never
 * filled that way, leaves the call to the points-to set alone.
 *
 * Structs are matched by their C tag (`struct.stream_class.12` is
 * `stream_class`: no `struct.` prefix, no `.N` that linking appends to a
 * second copy of a type); a global whose initializer has a literal struct
 * type (clang writes one when the initializer does not fit the declared
 * type, and linked copies lose the name) is matched by its debug-info
 * type name, the same tag. */
#include <llvm-c/DebugInfo.h>
#include <stdlib.h>
#include <string.h>

#include "frontends/llvm/memory/pta.h"

enum { OPEN = 1u };

/* One (struct, field) and what was put into it. */
typedef struct field_fns {
  const char *record; /* the name without a linking suffix */
  size_t length;
  unsigned field;
  uint32_t flags;     /* OPEN: something other than a known function was stored */
  pta_set fns;        /* function indices (m->fn_index) */
} field_fns;

struct pta_field_table {
  field_fns *v;
  size_t n, cap;
};

/* A struct name without the `.N` that linking appends (`struct.stream.123`). */
static size_t base_name(const char *name, size_t length) {
  size_t end = length;
  while (end > 0 && name[end - 1] >= '0' && name[end - 1] <= '9') --end;
  return end > 0 && end < length && name[end - 1] == '.' ? end - 1 : length;
}

static field_fns *entry(weir_llvm_memory *m, struct pta_field_table *t, const char *record, size_t length,
                        unsigned field) {
  for (size_t k = 0; k < t->n; ++k)
    if (t->v[k].field == field && t->v[k].length == length && memcmp(t->v[k].record, record, length) == 0)
      return &t->v[k];
  if (t->n == t->cap) {
    size_t cap = t->cap ? t->cap * 2 : 64;
    field_fns *grown = realloc(t->v, cap * sizeof *grown);
    if (!grown) {
      m->failed = 1;
      return NULL;
    }
    t->v = grown;
    t->cap = cap;
  }
  field_fns *e = &t->v[t->n++];
  memset(e, 0, sizeof *e);
  e->record = record;
  e->length = length;
  e->field = field;
  return e;
}

/* The C tag of a named struct type: `struct.stream_class.12` is
 * `stream_class`, as debug info names it. */
static const char *struct_name(LLVMTypeRef type, size_t *length) {
  const char *name = LLVMGetTypeKind(type) == LLVMStructTypeKind ? LLVMGetStructName(type) : NULL;
  *length = 0;
  if (!name) return NULL;
  if (strncmp(name, "struct.", 7) == 0) name += 7;
  else if (strncmp(name, "union.", 6) == 0) name += 6;
  *length = base_name(name, strlen(name));
  return *length ? name : NULL;
}

static LLVMValueRef strip(LLVMValueRef v) {
  for (int depth = 0; depth < 8 && v; ++depth) {
    if (LLVMIsABitCastInst(v) || (LLVMIsAConstantExpr(v) && LLVMGetConstOpcode(v) == LLVMBitCast))
      v = LLVMGetOperand(v, 0);
    else
      break;
  }
  return v;
}

/* Records what `value` puts into field `field` of the struct `record`. */
static void put(weir_llvm_memory *m, struct pta_field_table *t, const char *record, size_t length, unsigned field,
                LLVMValueRef value) {
  if (LLVMGetTypeKind(LLVMTypeOf(value)) != LLVMPointerTypeKind) return;
  LLVMValueRef v = strip(value);
  field_fns *e = entry(m, t, record, length, field);
  if (!e || LLVMIsAConstantPointerNull(v) || LLVMIsUndef(v)) return; /* known to hold no function */
  uint32_t fi = LLVMIsAFunction(v) ? pta_fn(m, v) : PTA_NONE;
  if (fi == PTA_NONE) e->flags |= OPEN; /* data, or a function pointer from elsewhere */
  else pta_set_insert(m, &e->fns, fi);
}

/* The fields of a constant initializer: structs by their own (or, for the
 * outermost literal one, the global's debug) name, nested ones too. */
static void walk_initializer(weir_llvm_memory *m, struct pta_field_table *t, LLVMValueRef c, const char *record,
                             size_t length, int depth) {
  if (!c || depth > 8) return;
  LLVMTypeRef type = LLVMTypeOf(c);
  LLVMTypeKind kind = LLVMGetTypeKind(type);
  if (kind == LLVMArrayTypeKind || kind == LLVMVectorTypeKind) {
    if (!LLVMIsAConstantArray(c) && !LLVMIsAConstantVector(c) && !LLVMIsAConstantStruct(c)) return;
    for (int k = 0, n = LLVMGetNumOperands(c); k < n; ++k)
      walk_initializer(m, t, LLVMGetOperand(c, (unsigned)k), NULL, 0, depth + 1);
    return;
  }
  if (kind != LLVMStructTypeKind || !LLVMIsAConstantStruct(c)) return;
  size_t own = 0;
  const char *name = struct_name(type, &own);
  if (name) record = name, length = own;
  for (int k = 0, n = LLVMGetNumOperands(c); k < n; ++k) {
    LLVMValueRef op = LLVMGetOperand(c, (unsigned)k);
    if (record) put(m, t, record, length, (unsigned)k, op);
    walk_initializer(m, t, op, NULL, 0, depth + 1);
  }
}

static void scan_globals(weir_llvm_memory *m, struct pta_field_table *t) {
  for (LLVMValueRef g = LLVMGetFirstGlobal(m->module); g; g = LLVMGetNextGlobal(g)) {
    LLVMValueRef init = LLVMGetInitializer(g);
    if (!init) continue;
    size_t length = 0;
    const char *record = NULL;
    LLVMTypeRef type = LLVMTypeOf(init);
    if (LLVMGetTypeKind(type) == LLVMStructTypeKind && !LLVMGetStructName(type))
      record = pta_global_record_name(g, &length); /* a literal struct: the declared type's name */
    walk_initializer(m, t, init, record, length, 0);
  }
}

/* `gep %struct.T, p, 0, k` (an instruction or a constant expression): T's
 * name and k; 0 for anything else. */
static int field_of(LLVMValueRef pointer, const char **record, size_t *length, unsigned *field) {
  LLVMValueRef p = strip(pointer);
  if (!LLVMIsAGetElementPtrInst(p) && !(LLVMIsAConstantExpr(p) && LLVMGetConstOpcode(p) == LLVMGetElementPtr))
    return 0;
  if (LLVMGetNumOperands(p) != 3) return 0;
  LLVMValueRef first = LLVMGetOperand(p, 1), index = LLVMGetOperand(p, 2);
  if (!LLVMIsAConstantInt(first) || LLVMConstIntGetZExtValue(first) != 0 || !LLVMIsAConstantInt(index)) return 0;
  LLVMTypeRef base = LLVMTypeOf(LLVMGetOperand(p, 0));
  if (LLVMGetTypeKind(base) != LLVMPointerTypeKind) return 0;
  *record = struct_name(LLVMGetElementType(base), length);
  *field = (unsigned)LLVMConstIntGetZExtValue(index);
  return *record != NULL;
}

static void scan_stores(weir_llvm_memory *m, struct pta_field_table *t) {
  for (LLVMValueRef fn = LLVMGetFirstFunction(m->module); fn; fn = LLVMGetNextFunction(fn))
    for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(fn); b; b = LLVMGetNextBasicBlock(b))
      for (LLVMValueRef i = LLVMGetFirstInstruction(b); i; i = LLVMGetNextInstruction(i)) {
        const char *record;
        size_t length;
        unsigned field;
        if (LLVMIsAStoreInst(i) && field_of(LLVMGetOperand(i, 1), &record, &length, &field))
          put(m, t, record, length, field, LLVMGetOperand(i, 0));
      }
}

static struct pta_field_table *table(weir_llvm_memory *m) {
  if (m->field_fns) return m->field_fns;
  struct pta_field_table *t = calloc(1, sizeof *t);
  if (!t) {
    m->failed = 1;
    return NULL;
  }
  m->field_fns = t;
  scan_globals(m, t);
  scan_stores(m, t);
  return t;
}

int pta_field_allows(weir_llvm_memory *m, LLVMValueRef call, uint32_t fi) {
  LLVMValueRef called = strip(LLVMGetCalledValue(call));
  if (!called || !LLVMIsALoadInst(called)) return 1;
  const char *record;
  size_t length;
  unsigned field;
  if (!field_of(LLVMGetOperand(called, 0), &record, &length, &field)) return 1;
  struct pta_field_table *t = table(m);
  if (!t) return 1;
  for (size_t k = 0; k < t->n; ++k) {
    const field_fns *e = &t->v[k];
    if (e->field != field || e->length != length || memcmp(e->record, record, length) != 0) continue;
    if (e->flags & OPEN) return 1;
    for (uint32_t j = 0; j < e->fns.n; ++j)
      if (e->fns.v[j] == fi) return 1;
    return 0;
  }
  return 1; /* nothing known about the field */
}

void pta_field_table_free(weir_llvm_memory *m) {
  struct pta_field_table *t = m->field_fns;
  if (!t) return;
  for (size_t k = 0; k < t->n; ++k) pta_set_free(&t->v[k].fns);
  free(t->v);
  free(t);
  m->field_fns = NULL;
}
