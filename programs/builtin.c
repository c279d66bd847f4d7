/* The table of built-in programs: every program weir ships, by name, with
 * its declaration and its code in each format this build compiled. */
#include <string.h>

#include "programs/formats.h"
#include "programs/generic.h"

#define ELEMENTWISE(prog, bindings, push_type)                                          \
  .name = #prog, .binding_count = (bindings), .push_constant_bytes = sizeof(push_type),   \
  .workgroup_size = {WEIR_GENERIC_WORKGROUP, 1, 1}, .default_grid_binding = 0,           \
  .default_grid_elem_bytes = 4, .host = weir_host_##prog

static const weir_program generic_programs[] = {
    {.name = "noop", .binding_count = 0, .push_constant_bytes = 0, .workgroup_size = {1, 1, 1},
     .default_grid_binding = WEIR_NO_BINDING, .host = weir_host_noop, WEIR_SPIRV(noop) WEIR_CUDA(noop)},
    {ELEMENTWISE(fill_u32, 1, weir_fill_u32_push), WEIR_SPIRV(fill_u32) WEIR_CUDA(fill_u32)},
    {ELEMENTWISE(copy_u32, 2, weir_copy_u32_push), WEIR_SPIRV(copy_u32) WEIR_CUDA(copy_u32)},
    {ELEMENTWISE(add_u32, 1, weir_add_u32_push), WEIR_SPIRV(add_u32) WEIR_CUDA(add_u32)},
    {.name = "counter_u32", .binding_count = 1, .push_constant_bytes = 0,
     .workgroup_size = {1, 1, 1}, .default_grid_binding = WEIR_NO_BINDING,
     .host = weir_host_counter_u32, WEIR_SPIRV(counter_u32) WEIR_CUDA(counter_u32)},
    {.name = "atomic_add_u32", .binding_count = 1,
     .push_constant_bytes = sizeof(weir_atomic_add_u32_push),
     .workgroup_size = {WEIR_GENERIC_WORKGROUP, 1, 1}, .default_grid_binding = WEIR_NO_BINDING,
     .host = weir_host_atomic_add_u32, WEIR_SPIRV(atomic_add_u32) WEIR_CUDA(atomic_add_u32)},
};

#define GENERIC_COUNT (sizeof generic_programs / sizeof generic_programs[0])

/* The IFDS engine's programs (programs/ifds/table.c). */
extern const weir_program weir_ifds_programs[];
extern const size_t weir_ifds_program_count;

/* The IDE engine's programs (programs/ide/table.c). */
extern const weir_program weir_ide_programs[];
extern const size_t weir_ide_program_count;

size_t weir_builtin_program_count(void) {
  return GENERIC_COUNT + weir_ifds_program_count + weir_ide_program_count;
}

const weir_program *weir_builtin_program_at(size_t index) {
  if (index < GENERIC_COUNT) return &generic_programs[index];
  index -= GENERIC_COUNT;
  if (index < weir_ifds_program_count) return &weir_ifds_programs[index];
  index -= weir_ifds_program_count;
  return index < weir_ide_program_count ? &weir_ide_programs[index] : NULL;
}

const weir_program *weir_builtin_program(const char *name) {
  if (!name) return NULL;
  for (size_t i = 0; i < weir_builtin_program_count(); ++i) {
    const weir_program *p = weir_builtin_program_at(i);
    if (strcmp(p->name, name) == 0) return p;
  }
  return NULL;
}
