/* Abstract objects and their locations: making objects once per site,
 * naming them for messages, and turning byte offsets into locations (wrap,
 * field start, collapse). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontends/llvm/memory/pta.h"

static uint64_t object_key(LLVMValueRef site, uint32_t tag) { return (uint64_t)(uintptr_t)site * 4u + tag; }

uint32_t pta_object_find(const weir_llvm_memory *m, LLVMValueRef site, uint32_t tag) {
  return pta_map_get(&m->object_key, object_key(site, tag));
}

uint64_t pta_type_size(const weir_llvm_memory *m, LLVMTypeRef type) {
  if (!type || !LLVMTypeIsSized(type)) return 0;
  return LLVMABISizeOfType(m->layout, type);
}

static int is_array_type(LLVMTypeRef type) {
  return type && (LLVMGetTypeKind(type) == LLVMArrayTypeKind || LLVMGetTypeKind(type) == LLVMVectorTypeKind);
}

static void new_location(weir_llvm_memory *m, uint32_t object, int64_t offset, uint32_t *out);

/* A record whose last member is an array of no elements (C99's flexible
 * array member, `struct datum fields[]`) is allocated larger than its type:
 * the elements lie past the type's size. Offsets there fold onto the one
 * element (fam_at, fam_size), not modulo the record back onto its header. */
static void flexible_member(const weir_llvm_memory *m, pta_object *o) {
  o->fam_at = o->fam_size = 0;
  if (!o->type || LLVMGetTypeKind(o->type) != LLVMStructTypeKind) return;
  unsigned count = LLVMCountStructElementTypes(o->type);
  if (count == 0) return;
  LLVMTypeRef last = LLVMStructGetTypeAtIndex(o->type, count - 1);
  if (LLVMGetTypeKind(last) != LLVMArrayTypeKind || LLVMGetArrayLength(last) != 0) return;
  uint64_t element = pta_type_size(m, LLVMGetElementType(last));
  if (element == 0) return;
  o->fam_at = LLVMOffsetOfElement(m->layout, o->type, count - 1);
  o->fam_size = element;
}

uint32_t pta_object_get(weir_llvm_memory *m, LLVMValueRef site, uint32_t tag, weir_llvm_object_kind kind,
                    LLVMValueRef function, LLVMTypeRef type) {
  uint64_t key = object_key(site, tag);
  uint32_t found = pta_map_get(&m->object_key, key);
  if (found != PTA_NONE) return found;
  if (m->object_count == m->object_cap) {
    uint32_t cap = m->object_cap ? m->object_cap * 2 : 256;
    pta_object *grown = realloc(m->objects, (size_t)cap * sizeof *grown);
    if (!grown) {
      m->failed = 1;
      return PTA_NONE;
    }
    m->objects = grown;
    m->object_cap = cap;
  }
  uint32_t id = m->object_count++;
  pta_object *o = &m->objects[id];
  memset(o, 0, sizeof *o);
  o->pub.kind = kind;
  o->pub.site = site;
  o->pub.function = function;
  o->type = type;
  o->type_size = pta_type_size(m, type);
  if (o->type_size == 0) o->type = NULL;
  flexible_member(m, o);
  /* heap and external blocks have a layout (from a cast) but no known size */
  int sized = kind == WEIR_LLVM_OBJECT_STACK || kind == WEIR_LLVM_OBJECT_GLOBAL || kind == WEIR_LLVM_OBJECT_CONSTANT;
  o->pub.size = sized ? o->type_size : 0;
  o->pub.is_array = kind == WEIR_LLVM_OBJECT_HEAP || kind == WEIR_LLVM_OBJECT_EXTERNAL || is_array_type(o->type);
  o->loc0 = PTA_NONE;
  pta_map_put(m, &m->object_key, key, id);
  new_location(m, id, 0, &o->loc0);
  return id;
}

/* The pointee of the pointer type a site's value is cast to (malloc's i8*
 * to %struct.S*), or of its own type (a `struct S *` parameter). i8
 * (void *, char *) tells nothing. */
static LLVMTypeRef cast_layout(LLVMValueRef value) {
  LLVMTypeRef type = LLVMTypeOf(value);
  for (LLVMUseRef u = LLVMGetFirstUse(value); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (LLVMIsABitCastInst(user) && LLVMGetTypeKind(LLVMTypeOf(user)) == LLVMPointerTypeKind) {
      type = LLVMTypeOf(user);
      break;
    }
  }
  if (LLVMGetTypeKind(type) != LLVMPointerTypeKind) return NULL;
  LLVMTypeRef pointee = LLVMGetElementType(type);
  LLVMTypeKind kind = LLVMGetTypeKind(pointee);
  if (kind == LLVMIntegerTypeKind && LLVMGetIntTypeWidth(pointee) == 8) return NULL;
  if (kind == LLVMFunctionTypeKind || !LLVMTypeIsSized(pointee)) return NULL;
  return pointee;
}

/* The layout a block is used with: the cast's (cast_layout), or the larger
 * record a pointer variable that holds it points to by debug info
 * (names.c: -O2 first casts a block to its first member's type). */
LLVMTypeRef pta_layout_of(const weir_llvm_memory *m, LLVMValueRef value) {
  LLVMTypeRef cast = cast_layout(value);
  LLVMTypeRef debug = pta_debug_layout(m, value);
  return debug && (!cast || pta_type_size(m, debug) > pta_type_size(m, cast)) ? debug : cast;
}

/* ---- names ------------------------------------------------------------------ */

/* The variable name of an alloca (weir_llvm_alloca_variable: operand 1 of
 * its DILocalVariable). */
static int debug_name(LLVMValueRef alloca, char *out, size_t capacity) {
  LLVMValueRef var = weir_llvm_alloca_variable(alloca);
  if (!var || LLVMGetMDNodeNumOperands(var) < 2 || LLVMGetMDNodeNumOperands(var) > 8) return 0;
  LLVMValueRef ops[8] = {0};
  LLVMGetMDNodeOperands(var, ops);
  unsigned name_length = 0;
  const char *name = ops[1] ? LLVMGetMDString(ops[1], &name_length) : NULL;
  if (!name || !name_length) return 0;
  snprintf(out, capacity, "%.*s", (int)name_length, name);
  return 1;
}

/* A string literal reads as its first characters: "\"usage: %s\"". */
static int string_name(LLVMValueRef global, char *out, size_t capacity) {
  LLVMValueRef init = LLVMGetInitializer(global);
  if (!init || !LLVMIsAConstantDataSequential(init) || !LLVMIsConstantString(init)) return 0;
  size_t length = 0;
  const char *s = LLVMGetAsString(init, &length);
  char shown[40];
  size_t w = 0;
  for (size_t k = 0; k < length && w + 3 < sizeof shown; ++k) {
    char c = s[k];
    if (c == '\0') break;
    shown[w++] = (c >= 32 && c < 127 && c != '"' && c != '\\') ? c : '.';
  }
  shown[w] = '\0';
  snprintf(out, capacity, "string \"%s%s\"", shown, w + 3 >= sizeof shown ? "..." : "");
  return 1;
}

/* Sets the object's name: prefix + the value's source or IR name. */
void pta_object_name(weir_llvm_memory *m, uint32_t object, const char *prefix, LLVMValueRef value) {
  if (object == PTA_NONE) return;
  weir_llvm_object *o = &m->objects[object].pub;
  char base[80] = "";
  if (value && LLVMIsAAllocaInst(value) && debug_name(value, base, sizeof base)) {
  } else if (value && LLVMIsAGlobalVariable(value) && string_name(value, base, sizeof base)) {
  } else if (value) {
    size_t length = 0;
    const char *name = LLVMGetValueName2(value, &length);
    if (length) snprintf(base, sizeof base, "%.*s", (int)length, name);
  }
  if (!base[0] && o->function) {
    size_t length = 0;
    const char *fn = LLVMGetValueName2(o->function, &length);
    if (value && LLVMIsAAllocaInst(value) && weir_llvm_dynamic_alloca(value))
      snprintf(base, sizeof base, "block from alloca in %.*s", (int)length, fn);
    else snprintf(base, sizeof base, "unnamed object %u in %.*s", object, (int)length, fn);
  }
  snprintf(o->name, sizeof o->name, "%s%s", prefix ? prefix : "", base);
}

/* ---- types ------------------------------------------------------------------ */

int pta_can_hold_pointer(const weir_llvm_memory *m, LLVMTypeRef type) {
  switch (LLVMGetTypeKind(type)) {
  case LLVMPointerTypeKind:
  case LLVMStructTypeKind:
  case LLVMArrayTypeKind:
  case LLVMVectorTypeKind: return 1;
  case LLVMIntegerTypeKind: return LLVMGetIntTypeWidth(type) >= m->pointer_bits;
  default: return 0;
  }
}

static uint32_t fields_at(const weir_llvm_memory *m, LLVMTypeRef type, uint64_t base, uint64_t *out,
                          uint32_t n, uint32_t capacity, int depth) {
  if (n >= capacity || depth > 16) return n;
  switch (LLVMGetTypeKind(type)) {
  case LLVMStructTypeKind: {
    unsigned count = LLVMCountStructElementTypes(type);
    for (unsigned k = 0; k < count && n < capacity; ++k)
      n = fields_at(m, LLVMStructGetTypeAtIndex(type, k), base + LLVMOffsetOfElement(m->layout, type, k), out, n,
                    capacity, depth + 1);
    return n;
  }
  case LLVMArrayTypeKind: return fields_at(m, LLVMGetElementType(type), base, out, n, capacity, depth + 1);
  case LLVMVectorTypeKind: {
    /* -O2 stores two adjacent pointers as one <2 x i8*>: every lane */
    LLVMTypeRef element = LLVMGetElementType(type);
    uint64_t size = pta_type_size(m, element);
    unsigned lanes = LLVMGetVectorSize(type);
    for (unsigned k = 0; k < lanes && n < capacity; ++k)
      n = fields_at(m, element, base + k * size, out, n, capacity, depth + 1);
    return n;
  }
  case LLVMIntegerTypeKind: {
    /* an i128 copy of two pointers: every pointer-sized chunk */
    unsigned width = LLVMGetIntTypeWidth(type);
    for (unsigned bit = 0; width >= m->pointer_bits && bit + m->pointer_bits <= width && n < capacity;
         bit += m->pointer_bits)
      out[n++] = base + bit / 8;
    return n;
  }
  default:
    if (pta_can_hold_pointer(m, type)) out[n++] = base;
    return n;
  }
}

uint32_t pta_pointer_fields(const weir_llvm_memory *m, LLVMTypeRef type, uint64_t *out, uint32_t capacity) {
  return fields_at(m, type, 0, out, 0, capacity, 0);
}

/* The start of the innermost field at byte `offset` of `type`, array
 * elements folded onto the first one (an array is one element). */
static uint64_t field_start(const weir_llvm_memory *m, LLVMTypeRef type, uint64_t offset) {
  uint64_t base = 0;
  for (int depth = 0; depth < 32; ++depth) {
    LLVMTypeKind kind = LLVMGetTypeKind(type);
    if (kind == LLVMArrayTypeKind || kind == LLVMVectorTypeKind) {
      type = LLVMGetElementType(type);
      uint64_t size = pta_type_size(m, type);
      if (size == 0) return base;
      offset %= size;
    } else if (kind == LLVMStructTypeKind) {
      unsigned count = LLVMCountStructElementTypes(type);
      if (count == 0) return base;
      unsigned k = LLVMElementAtOffset(m->layout, type, offset);
      uint64_t at = LLVMOffsetOfElement(m->layout, type, k);
      if (at > offset) return base; /* inside padding before the first field */
      base += at;
      offset -= at;
      type = LLVMStructGetTypeAtIndex(type, k);
    } else {
      return base;
    }
  }
  return base;
}

/* ---- locations -------------------------------------------------------------- */

static void new_location(weir_llvm_memory *m, uint32_t object, int64_t offset, uint32_t *out) {
  if (m->loc_count == m->loc_cap) {
    uint32_t cap = m->loc_cap ? m->loc_cap * 2 : 1024;
    uint32_t *obj = realloc(m->loc_object, (size_t)cap * sizeof *obj);
    if (obj) m->loc_object = obj;
    uint32_t *node = realloc(m->loc_node, (size_t)cap * sizeof *node);
    if (node) m->loc_node = node;
    int64_t *off = realloc(m->loc_offset, (size_t)cap * sizeof *off);
    if (off) m->loc_offset = off;
    if (!obj || !node || !off) {
      m->failed = 1;
      *out = PTA_NONE;
      return;
    }
    m->loc_cap = cap;
  }
  uint32_t node = pta_node_new(m);
  if (node == PTA_NONE) {
    *out = PTA_NONE;
    return;
  }
  uint32_t id = m->loc_count++;
  m->loc_object[id] = object;
  m->loc_offset[id] = offset;
  m->loc_node[id] = node;
  pta_object *o = &m->objects[object];
  o->field_count++;
  pta_set_push(m, &o->locs, id);
  pta_map_put(m, &m->loc_key, (uint64_t)object << 32 | (uint64_t)offset, id);
  pta_set_push(m, &m->new_locs, id);
  if (o->pub.kind == WEIR_LLVM_OBJECT_FUNCTION) pta_bits_add(m, &m->function_locs, id);
  *out = id;
}

/* Locations of the object already handed out stay valid as aliases of
 * offset 0: edges both ways keep their contents equal to offset 0's, every
 * later field of the object is offset 0, and the numbering at the end maps
 * them onto offset 0. So collapsing never needs a new solve. */
static uint32_t collapse(weir_llvm_memory *m, uint32_t object) {
  if (m->objects[object].pub.collapsed) return m->objects[object].loc0;
  m->objects[object].pub.collapsed = 1;
  m->objects[object].pub.is_array = 1;
  uint32_t loc0 = m->objects[object].loc0;
  for (uint32_t k = 0; k < m->objects[object].locs.n; ++k) {
    uint32_t l = m->objects[object].locs.v[k];
    if (l == loc0) continue;
    pta_copy(m, m->loc_node[l], m->loc_node[loc0]);
    pta_copy(m, m->loc_node[loc0], m->loc_node[l]);
  }
  return loc0;
}

uint32_t pta_location(weir_llvm_memory *m, uint32_t object, int64_t offset) {
  pta_object *o = &m->objects[object];
  /* a function has no fields: offsets on it only come from imprecision */
  if (o->pub.collapsed || offset == 0 || o->pub.kind == WEIR_LLVM_OBJECT_FUNCTION) return o->loc0;
  uint64_t wrapped_key = 0;
  int cache = 0;
  if (o->type) {
    int64_t size = (int64_t)o->type_size;
    if (o->fam_size && offset >= (int64_t)o->fam_at) {
      /* past the header of a record ending in a flexible array member
       * (`struct row { ...; struct datum fields[]; }`, sized at malloc):
       * every element is the array's one element, never the header */
      offset = (int64_t)o->fam_at + (offset - (int64_t)o->fam_at) % (int64_t)o->fam_size;
    } else {
      offset %= size;
      if (offset < 0) offset += size;
    }
    /* field_start asks LLVM for struct layouts: remember its answers */
    if (offset < (int64_t)UINT32_MAX) {
      cache = 1;
      wrapped_key = (uint64_t)object << 32 | (uint64_t)offset;
      uint32_t known = pta_map_get(&m->field_key, wrapped_key);
      if (known != PTA_NONE) return known;
    }
    offset = (int64_t)field_start(m, o->type, (uint64_t)offset);
    if (offset == 0) {
      if (cache) pta_map_put(m, &m->field_key, wrapped_key, o->loc0);
      return o->loc0;
    }
  } else if (offset < 0 || offset > (int64_t)PTA_MAX_UNKNOWN_OFFSET) {
    return collapse(m, object);
  }
  uint32_t found = pta_map_get(&m->loc_key, (uint64_t)object << 32 | (uint64_t)offset);
  if (found == PTA_NONE) {
    /* A typed object's fields are bounded by its layout; an untyped one
     * could grow without end. */
    if (o->field_count >= (o->type ? PTA_MAX_TYPED_FIELDS : PTA_MAX_FIELDS)) return collapse(m, object);
    /* past the solver's work budget objects stop growing fields (solve.c) */
    if (m->stats.degraded) return collapse(m, object);
    new_location(m, object, offset, &found);
    if (found == PTA_NONE) return o->loc0;
  }
  if (cache) pta_map_put(m, &m->field_key, wrapped_key, found);
  return found;
}

uint32_t pta_field(weir_llvm_memory *m, uint32_t location, int64_t offset, int64_t delta) {
  uint32_t object = m->loc_object[location];
  const pta_object *o = &m->objects[object];
  if (o->pub.collapsed) return o->loc0;
  if (offset == 0 && (delta == 0 || !o->type)) return location;
  /* Pointer arithmetic moves inside typed objects only: on a heap block of
   * unknown layout p + 1 and p[i] must stay the same cell. */
  return pta_location(m, object, m->loc_offset[location] + offset + (o->type ? delta : 0));
}

/* Empties the locations (before generating) and gives every object its offset 0. */
void pta_locations_reset(weir_llvm_memory *m) {
  m->loc_count = 0;
  pta_map_free(&m->loc_key);
  pta_map_free(&m->field_key);
  m->new_locs.n = 0;
  pta_bits_clear(&m->function_locs);
  for (uint32_t k = 0; k < m->object_count; ++k) {
    pta_object *o = &m->objects[k];
    o->field_count = 0;
    o->locs.n = 0;
    o->watchers.n = 0;
    new_location(m, k, 0, &o->loc0);
  }
}
