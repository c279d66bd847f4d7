/* Program declarations: format names and validation. */
#include "weir/program.h"

#include <string.h>

const char *weir_program_format_name(weir_program_format format) {
  switch (format) {
    case WEIR_FORMAT_HOST: return "host";
    case WEIR_FORMAT_SPIRV: return "spirv";
    case WEIR_FORMAT_CUDA: return "cuda";
  }
  return "unknown";
}

int weir_program_has_format(const weir_program *program, weir_program_format format) {
  if (!program) return 0;
  switch (format) {
    case WEIR_FORMAT_HOST: return program->host != NULL;
    case WEIR_FORMAT_SPIRV: return program->spirv != NULL && program->spirv_bytes >= 20;
    case WEIR_FORMAT_CUDA:
      return program->cuda_image != NULL && program->cuda_entry != NULL && program->cuda_entry[0];
  }
  return 0;
}

weir_status weir_program_validate(const weir_program *program) {
  if (!program)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "program is NULL. Fix: pass a weir_program (weir_builtin_program(\"noop\") "
                     "or your own).");
  if (!program->name || !program->name[0])
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "program has no name. Fix: set weir_program.name to a unique string.");
  if (program->binding_count > WEIR_MAX_BINDINGS)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "program '%s' declares %u bindings (found %u, expected at most %u). Fix: "
                     "pack data into fewer buffers.",
                     program->name, program->binding_count, program->binding_count,
                     WEIR_MAX_BINDINGS);
  if (program->push_constant_bytes > WEIR_MAX_PUSH_CONSTANT_BYTES ||
      program->push_constant_bytes % 4 != 0)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "program '%s' declares %u push-constant bytes (expected a multiple of 4, at "
                     "most %u). Fix: pad the push-constant struct to 4 bytes, or move large "
                     "parameters into a buffer.",
                     program->name, program->push_constant_bytes, WEIR_MAX_PUSH_CONSTANT_BYTES);
  for (int i = 0; i < 3; ++i)
    if (program->workgroup_size[i] == 0)
      return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                       "program '%s' has workgroup_size[%d] = 0 (expected >= 1). Fix: set every "
                       "workgroup dimension, e.g. {64, 1, 1}.",
                       program->name, i);
  if (program->default_grid_binding != WEIR_NO_BINDING &&
      (program->default_grid_binding >= program->binding_count ||
       program->default_grid_elem_bytes == 0))
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "program '%s' derives its default grid from binding %u with %u-byte "
                     "elements, but it has %u bindings. Fix: use a binding index below the "
                     "binding count and a non-zero element size, or WEIR_NO_BINDING.",
                     program->name, program->default_grid_binding,
                     program->default_grid_elem_bytes, program->binding_count);
  return WEIR_OK;
}
