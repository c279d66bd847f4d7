/* SPIR-V reflection: what a compute module needs from the backend (its entry
 * point, workgroup size, set-0 storage buffers, push-constant block), read
 * from the instruction stream without any external library. Only what weir's
 * shader ABI (include/weir/program_file.h) depends on is read; a module the
 * ABI cannot serve is refused here, at registration, instead of misbehaving
 * at the first dispatch. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/core/spirv_reflect.h"

enum {
  OP_ENTRY_POINT = 15, OP_EXECUTION_MODE = 16, OP_TYPE_BOOL = 20, OP_TYPE_INT = 21,
  OP_TYPE_FLOAT = 22, OP_TYPE_VECTOR = 23, OP_TYPE_MATRIX = 24, OP_TYPE_ARRAY = 28,
  OP_TYPE_RUNTIME_ARRAY = 29, OP_TYPE_STRUCT = 30, OP_TYPE_POINTER = 32, OP_CONSTANT = 43,
  OP_CONSTANT_COMPOSITE = 44, OP_SPEC_CONSTANT_TRUE = 48, OP_SPEC_CONSTANT_FALSE = 49,
  OP_SPEC_CONSTANT = 50, OP_SPEC_CONSTANT_COMPOSITE = 51, OP_SPEC_CONSTANT_OP = 52,
  OP_VARIABLE = 59, OP_DECORATE = 71, OP_MEMBER_DECORATE = 72, OP_EXECUTION_MODE_ID = 331,
  OP_TYPE_FORWARD_POINTER = 39
};
enum {
  DEC_SPEC_ID = 1, DEC_BLOCK = 2, DEC_BUFFER_BLOCK = 3, DEC_ARRAY_STRIDE = 6,
  DEC_MATRIX_STRIDE = 7, DEC_BUILTIN = 11, DEC_BINDING = 33, DEC_DESCRIPTOR_SET = 34,
  DEC_OFFSET = 35
};
enum { MODE_LOCAL_SIZE = 17, MODE_LOCAL_SIZE_ID = 38, BUILTIN_WORKGROUP_SIZE = 25 };
enum { SC_UNIFORM_CONSTANT = 0, SC_UNIFORM = 2, SC_PUSH_CONSTANT = 9, SC_STORAGE_BUFFER = 12 };
#define NONE UINT32_MAX
#define MAX_IDS (1u << 22)

static const char *model_name(uint32_t m) {
  static const char *const names[] = {"Vertex", "TessellationControl", "TessellationEvaluation",
                                      "Geometry", "Fragment", "GLCompute", "Kernel"};
  return m < 7 ? names[m] : "a ray-tracing or mesh stage";
}

static weir_status bad(const sv_module *m, const char *what) {
  return weir_fail(WEIR_ERR_INVALID_ARGUMENT, "SPIR-V module (%zu bytes): %s", m->words * 4, what);
}

/* A literal string inside instruction `at` starting at word `first`; NULL if
 * it runs past the instruction (no terminating NUL). */
static const char *literal_string(const sv_module *m, size_t at, size_t first, size_t *words) {
  size_t count = m->code[at] >> 16;
  const char *s = (const char *)&m->code[at + first];
  size_t max = (count - first) * 4;
  size_t len = strnlen(s, max);
  if (len == max) return NULL;
  *words = len / 4 + 1;
  return s;
}

/* Walks the stream once: every instruction well-formed, every result id's
 * defining instruction and its decorations recorded. */
static weir_status index_module(sv_module *m) {
  for (size_t at = 5; at < m->words;) {
    uint32_t count = m->code[at] >> 16, op = m->code[at] & 0xffffu;
    if (count == 0 || at + count > m->words) {
      char what[160];
      snprintf(what, sizeof what, "malformed instruction at word %zu (%u words, the module has "
               "%zu). Fix: rebuild the module and check it with spirv-val", at, count, m->words);
      return bad(m, what);
    }
    uint32_t result = NONE;
    if (op == OP_TYPE_BOOL || op == OP_TYPE_INT || op == OP_TYPE_FLOAT || op == OP_TYPE_VECTOR ||
        op == OP_TYPE_MATRIX || op == OP_TYPE_ARRAY || op == OP_TYPE_RUNTIME_ARRAY ||
        op == OP_TYPE_STRUCT || op == OP_TYPE_POINTER)
      result = count > 1 ? m->code[at + 1] : NONE;
    else if ((op >= OP_CONSTANT && op <= OP_CONSTANT_COMPOSITE) ||
             (op >= OP_SPEC_CONSTANT_TRUE && op <= OP_SPEC_CONSTANT_OP) || op == OP_VARIABLE)
      result = count > 2 ? m->code[at + 2] : NONE;
    if (result != NONE && result < m->bound) m->ids[result].at = (uint32_t)at;
    if (op == OP_DECORATE && count >= 3 && m->code[at + 1] < m->bound) {
      sv_id *t = &m->ids[m->code[at + 1]];
      uint32_t dec = m->code[at + 2], v = count > 3 ? m->code[at + 3] : 0;
      if (dec == DEC_SPEC_ID) t->spec_id = v;
      if (dec == DEC_DESCRIPTOR_SET) t->set = v;
      if (dec == DEC_BINDING) t->binding = v;
      if (dec == DEC_BUILTIN) t->builtin = v;
      if (dec == DEC_ARRAY_STRIDE) t->array_stride = v;
      if (dec == DEC_BLOCK) t->block = 1;
      if (dec == DEC_BUFFER_BLOCK) t->buffer_block = 1;
    }
    at += count;
  }
  return WEIR_OK;
}

static uint32_t op_of(const sv_module *m, uint32_t id) {
  return id < m->bound && m->ids[id].at ? m->code[m->ids[id].at] & 0xffffu : 0;
}
static const uint32_t *def_of(const sv_module *m, uint32_t id) { return &m->code[m->ids[id].at]; }

/* Offset (or matrix stride) decoration of member `member` of struct `s`. */
static uint32_t member_decoration(const sv_module *m, uint32_t s, uint32_t member, uint32_t dec) {
  for (size_t at = 5; at < m->words; at += m->code[at] >> 16) {
    const uint32_t *w = &m->code[at];
    if ((w[0] & 0xffffu) == OP_MEMBER_DECORATE && (w[0] >> 16) >= 5 && w[1] == s &&
        w[2] == member && w[3] == dec)
      return w[4];
  }
  return NONE;
}

/* Bytes a value of type `id` spans in an explicitly laid-out block. */
static uint64_t type_bytes(const sv_module *m, uint32_t id, int depth) {
  if (depth > 16 || op_of(m, id) == 0) return 0;
  const uint32_t *w = def_of(m, id);
  uint32_t count = w[0] >> 16;
  switch (w[0] & 0xffffu) {
    case OP_TYPE_BOOL: return 4;
    case OP_TYPE_INT:
    case OP_TYPE_FLOAT: return count > 2 ? w[2] / 8 : 0;
    case OP_TYPE_POINTER: return 8;
    case OP_TYPE_VECTOR:
    case OP_TYPE_MATRIX: return count > 3 ? w[3] * type_bytes(m, w[2], depth + 1) : 0;
    case OP_TYPE_ARRAY: {
      if (count < 4 || op_of(m, w[3]) != OP_CONSTANT) return 0;
      uint64_t n = def_of(m, w[3])[3];
      uint32_t stride = m->ids[id].array_stride;
      return n * (stride ? stride : type_bytes(m, w[2], depth + 1));
    }
    case OP_TYPE_STRUCT: {
      uint64_t end = 0;
      for (uint32_t k = 0; k + 2 < count; ++k) {
        uint32_t off = member_decoration(m, id, k, DEC_OFFSET);
        uint64_t size = type_bytes(m, w[2 + k], depth + 1);
        uint32_t stride = member_decoration(m, id, k, DEC_MATRIX_STRIDE);
        if (stride != NONE && op_of(m, w[2 + k]) == OP_TYPE_MATRIX)
          size = (uint64_t)stride * def_of(m, w[2 + k])[3];
        if (off != NONE && off + size > end) end = off + size;
      }
      return end;
    }
  }
  return 0;
}

static weir_status find_entry(sv_module *m, const char *entry, weir_spirv_info *out) {
  char names[256] = "";
  size_t found = 0, computes = 0;
  for (size_t at = 5; at < m->words; at += m->code[at] >> 16) {
    if ((m->code[at] & 0xffffu) != OP_ENTRY_POINT || (m->code[at] >> 16) < 4) continue;
    size_t sw = 0;
    const char *name = literal_string(m, at, 3, &sw);
    if (!name) return bad(m, "an OpEntryPoint name is not terminated. Fix: rebuild the module");
    size_t len = strlen(names);
    snprintf(names + len, sizeof names - len, "%s%s (%s)", len ? ", " : "", name,
             model_name(m->code[at + 1]));
    int compute = m->code[at + 1] == 5;
    computes += compute;
    if (entry ? strcmp(name, entry) == 0 : compute) {
      ++found;
      m->entry_at = at;
      m->entry_id = m->code[at + 2];
      snprintf(out->entry, sizeof out->entry, "%s", name);
      out->execution_model = m->code[at + 1];
    }
  }
  char what[512];
  if (found == 0 || (!entry && computes > 1)) {
    snprintf(what, sizeof what, "%s (entry points: %s). Fix: %s",
             entry ? "has no entry point with the requested name" : "has not exactly one compute entry point",
             names[0] ? names : "none",
             computes ? "name one of the compute entry points"
                      : "the module has no compute entry point; compile a compute shader "
                        "(glslc -fshader-stage=compute)");
    if (entry) return weir_fail_context(bad(m, what), "entry '%s'", entry);
    return bad(m, what);
  }
  if (out->execution_model != 5) {
    snprintf(what, sizeof what, "entry point '%s' is a %s shader, weir runs GLCompute (compute) "
             "shaders. Fix: compile a compute shader (.comp)", out->entry,
             model_name(out->execution_model));
    return bad(m, what);
  }
  return WEIR_OK;
}

/* One workgroup dimension from a constant id: hard-coded or specialised. */
static weir_status size_from_constant(sv_module *m, uint32_t id, int d, weir_spirv_info *out) {
  uint32_t op = op_of(m, id);
  if (op != OP_CONSTANT && op != OP_SPEC_CONSTANT)
    return bad(m, "a workgroup size component is not an integer constant. Fix: use "
               "layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2)");
  out->workgroup_size[d] = def_of(m, id)[3];
  out->workgroup_spec_id[d] = op == OP_SPEC_CONSTANT ? m->ids[id].spec_id : WEIR_SPIRV_NO_SPEC;
  if (op == OP_SPEC_CONSTANT) m->wg_spec_const[d] = id;
  return WEIR_OK;
}

/* The WorkgroupSize built-in overrides LocalSize / LocalSizeId (SPIR-V spec). */
static weir_status find_workgroup(sv_module *m, weir_spirv_info *out) {
  int have = 0;
  for (uint32_t id = 0; id < m->bound && !have; ++id) {
    if (m->ids[id].builtin != BUILTIN_WORKGROUP_SIZE) continue;
    uint32_t op = op_of(m, id);
    if ((op != OP_CONSTANT_COMPOSITE && op != OP_SPEC_CONSTANT_COMPOSITE) ||
        (def_of(m, id)[0] >> 16) < 6)
      return bad(m, "the WorkgroupSize built-in is not a 3-component constant. Fix: rebuild");
    for (int d = 0; d < 3; ++d) WEIR_TRY(size_from_constant(m, def_of(m, id)[3 + d], d, out));
    have = 1;
  }
  for (size_t at = 5; at < m->words && !have; at += m->code[at] >> 16) {
    const uint32_t *w = &m->code[at];
    uint32_t op = w[0] & 0xffffu, count = w[0] >> 16;
    if (count < 6 || (op != OP_EXECUTION_MODE && op != OP_EXECUTION_MODE_ID) || w[1] != m->entry_id)
      continue;
    if (op == OP_EXECUTION_MODE && w[2] == MODE_LOCAL_SIZE) {
      for (int d = 0; d < 3; ++d) {
        out->workgroup_size[d] = w[3 + d];
        out->workgroup_spec_id[d] = WEIR_SPIRV_NO_SPEC;
      }
      have = 1;
    } else if (op == OP_EXECUTION_MODE_ID && w[2] == MODE_LOCAL_SIZE_ID) {
      for (int d = 0; d < 3; ++d) WEIR_TRY(size_from_constant(m, w[3 + d], d, out));
      have = 1;
    }
  }
  if (!have)
    return bad(m, "the compute entry point has no workgroup size. Fix: declare "
               "layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;");
  return WEIR_OK;
}

/* The backend writes x, y, z into specialization constants 0, 1, 2: a
 * dimension on another id would never be set, and another use of 0..2 would
 * be overwritten with a workgroup size. */
static weir_status check_spec_ids(sv_module *m, const weir_spirv_info *out) {
  char what[400];
  static const char axis[] = "xyz";
  for (int d = 0; d < 3; ++d)
    if (out->workgroup_spec_id[d] != WEIR_SPIRV_NO_SPEC && out->workgroup_spec_id[d] != (uint32_t)d) {
      snprintf(what, sizeof what, "workgroup size %c comes from specialization constant %u, but "
               "weir sets %c through constant %d. Fix: write local_size_%c_id = %d",
               axis[d], out->workgroup_spec_id[d], axis[d], d, axis[d], d);
      return bad(m, what);
    }
  for (uint32_t id = 0; id < m->bound; ++id) {
    uint32_t spec = m->ids[id].spec_id;
    if (spec > 2 || !m->ids[id].at || m->wg_spec_const[spec] == id) continue;
    snprintf(what, sizeof what, "specialization constant %u is used for something other than "
             "workgroup size %c, and weir sets it to that size. Fix: give that constant an id "
             "of 3 or more (constant_id = 3)", spec, axis[spec]);
    return bad(m, what);
  }
  return WEIR_OK;
}

static weir_status check_binding(sv_module *m, uint32_t var, uint32_t pointee, weir_spirv_info *out) {
  const sv_id *v = &m->ids[var];
  char what[400];
  uint32_t set = v->set == NONE ? 0 : v->set, binding = v->binding;
  uint32_t pop = op_of(m, pointee);
  if (pop == OP_TYPE_ARRAY || pop == OP_TYPE_RUNTIME_ARRAY) {
    snprintf(what, sizeof what, "binding %u of set %u is an array of buffers; weir binds one "
             "buffer per binding. Fix: declare one buffer per binding", binding, set);
    return bad(m, what);
  }
  if (set != 0 || binding == NONE || binding >= WEIR_MAX_BINDINGS) {
    snprintf(what, sizeof what, "a storage buffer is at set %u, binding %d; weir binds buffer i at "
             "set 0, binding i (i < %d). Fix: write layout(set = 0, binding = i)",
             set, binding == NONE ? -1 : (int)binding, WEIR_MAX_BINDINGS);
    return bad(m, what);
  }
  out->binding_mask |= 1u << binding;
  if (binding + 1 > out->binding_count) out->binding_count = binding + 1;
  return WEIR_OK;
}

/* Every module-level resource (weir does not trace which entry point uses
 * which variable: a resource of another entry point counts too). */
static weir_status find_resources(sv_module *m, weir_spirv_info *out) {
  for (size_t at = 5; at < m->words; at += m->code[at] >> 16) {
    const uint32_t *w = &m->code[at];
    if ((w[0] & 0xffffu) != OP_VARIABLE || (w[0] >> 16) < 4) continue;
    uint32_t type = w[1], var = w[2], sc = w[3];
    if (op_of(m, type) != OP_TYPE_POINTER || var >= m->bound) continue;
    uint32_t pointee = def_of(m, type)[3];
    const sv_id *t = pointee < m->bound ? &m->ids[pointee] : NULL;
    if (sc == SC_STORAGE_BUFFER || (sc == SC_UNIFORM && t && t->buffer_block)) {
      WEIR_TRY(check_binding(m, var, pointee, out));
    } else if (sc == SC_UNIFORM || (sc == SC_UNIFORM_CONSTANT && m->ids[var].binding != NONE)) {
      char what[320];
      snprintf(what, sizeof what, "binding %d of set %u is a %s; weir binds storage buffers only. "
               "Fix: declare it as `layout(std430, set = 0, binding = i) buffer`",
               m->ids[var].binding == NONE ? -1 : (int)m->ids[var].binding,
               m->ids[var].set == NONE ? 0 : m->ids[var].set,
               sc == SC_UNIFORM ? "uniform buffer" : "image, sampler or acceleration structure");
      return bad(m, what);
    } else if (sc == SC_PUSH_CONSTANT) {
      uint64_t bytes = (type_bytes(m, pointee, 0) + 3) / 4 * 4;
      if (bytes > out->push_constant_bytes) out->push_constant_bytes = (uint32_t)bytes;
    }
  }
  return WEIR_OK;
}

weir_status weir_spirv_reflect_module(const void *bytes, size_t size, const char *entry,
                                      weir_spirv_info *out, sv_module *m) {
  memset(out, 0, sizeof *out);
  memset(m, 0, sizeof *m);
  const uint32_t *code = bytes;
  if (!bytes || size < 20 || size % 4 != 0 || code[0] != 0x07230203u)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "SPIR-V module: %zu bytes starting with 0x%08x is not SPIR-V (expected whole "
                     "32-bit words, at least 5, starting with the magic 0x07230203%s). Fix: pass "
                     "the .spv file glslc or another compiler wrote, unmodified.",
                     size, bytes && size >= 4 ? code[0] : 0,
                     bytes && size >= 4 && code[0] == 0x03022307u ? "; this one is byte-swapped" : "");
  m->code = code;
  m->words = size / 4;
  m->bound = code[3];
  if (m->bound == 0 || m->bound > MAX_IDS || m->bound > 16 * m->words)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "SPIR-V module (%zu bytes): id bound %u is implausible for %zu words. Fix: "
                     "rebuild the module and check it with spirv-val.", size, m->bound, m->words);
  m->ids = malloc((size_t)m->bound * sizeof *m->ids);
  if (!m->ids)
    return weir_fail(WEIR_ERR_OUT_OF_MEMORY, "SPIR-V reflection: no memory for %u ids. Fix: free "
                     "memory.", m->bound);
  for (uint32_t i = 0; i < m->bound; ++i)
    m->ids[i] = (sv_id){.spec_id = NONE, .set = NONE, .binding = NONE, .builtin = NONE};
  for (int d = 0; d < 3; ++d) m->wg_spec_const[d] = NONE;
  weir_status st = index_module(m);
  if (st == WEIR_OK) st = find_entry(m, entry, out);
  if (st == WEIR_OK) st = find_workgroup(m, out);
  if (st == WEIR_OK) st = check_spec_ids(m, out);
  if (st == WEIR_OK) st = find_resources(m, out);
  return st;
}

weir_status weir_spirv_reflect(const void *bytes, size_t size, const char *entry,
                               weir_spirv_info *out) {
  sv_module m;
  weir_status st = weir_spirv_reflect_module(bytes, size, entry, out, &m);
  free(m.ids);
  return st;
}

/* The module with `m`'s entry point as its only one, named "main": the
 * Vulkan backend (and weir_program) names no entry point. */
weir_status weir_spirv_keep_entry(const sv_module *m, uint32_t **out, size_t *out_bytes) {
  uint32_t *dst = malloc(m->words * 4 + 16);
  if (!dst)
    return weir_fail(WEIR_ERR_OUT_OF_MEMORY, "SPIR-V: no memory to copy %zu bytes. Fix: free "
                     "memory.", m->words * 4);
  memcpy(dst, m->code, 20);
  size_t n = 5;
  for (size_t at = 5; at < m->words; at += m->code[at] >> 16) {
    const uint32_t *w = &m->code[at];
    uint32_t op = w[0] & 0xffffu, count = w[0] >> 16;
    if ((op == OP_EXECUTION_MODE || op == OP_EXECUTION_MODE_ID) && w[1] != m->entry_id) continue;
    if (op == OP_ENTRY_POINT && at != m->entry_at) continue;
    if (op == OP_ENTRY_POINT) {
      size_t sw = 0;
      (void)literal_string(m, at, 3, &sw);
      uint32_t rest = count - 3 - (uint32_t)sw;
      dst[n++] = ((5 + rest) << 16) | OP_ENTRY_POINT;
      dst[n++] = w[1];
      dst[n++] = w[2];
      memcpy(&dst[n], "main\0\0\0\0", 8);
      n += 2;
      memcpy(&dst[n], w + 3 + sw, rest * 4);
      n += rest;
      continue;
    }
    memcpy(&dst[n], w, count * 4);
    n += count;
  }
  *out = dst;
  *out_bytes = n * 4;
  return WEIR_OK;
}
