/* Engine-internal SPIR-V reflection state (engine/core/spirv_reflect.c). */
#ifndef WEIR_ENGINE_CORE_SPIRV_REFLECT_H
#define WEIR_ENGINE_CORE_SPIRV_REFLECT_H

#include "weir/program_file.h"

/* What the reflector keeps per result id. */
typedef struct sv_id {
  uint32_t at; /* word index of the defining instruction; 0: not defined */
  uint32_t spec_id, set, binding, builtin, array_stride;
  uint8_t block, buffer_block;
} sv_id;

typedef struct sv_module {
  const uint32_t *code;
  size_t words;
  uint32_t bound;
  sv_id *ids; /* bound entries, owned */
  size_t entry_at;
  uint32_t entry_id;
  uint32_t wg_spec_const[3]; /* id of the spec constant giving dimension d, or UINT32_MAX */
} sv_module;

/* weir_spirv_reflect, keeping the index (caller frees m->ids, even on error). */
weir_status weir_spirv_reflect_module(const void *bytes, size_t size, const char *entry,
                                      weir_spirv_info *out, sv_module *m);
/* A copy of the module whose only entry point is m's, renamed "main". */
weir_status weir_spirv_keep_entry(const sv_module *m, uint32_t **out, size_t *out_bytes);

#endif
