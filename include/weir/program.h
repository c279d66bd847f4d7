/* weir — compute programs.
 *
 * A program is a named compute kernel: how many buffers it binds, how many
 * bytes of push constants it takes, its workgroup size, and its code in one or
 * more formats. A backend runs exactly one format (host, SPIR-V or CUDA) and
 * refuses a program that lacks it. Programs are plain constant data: the
 * built-in ones live in programs/ (weir_builtin_programs), and users bring
 * their own by filling a weir_program and passing it to dispatch (or
 * registering it on a backend instance to make it findable by name). */
#ifndef WEIR_PROGRAM_H
#define WEIR_PROGRAM_H

#include "weir/export.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define WEIR_MAX_BINDINGS 32
#define WEIR_MAX_PUSH_CONSTANT_BYTES 128
#define WEIR_NO_BINDING UINT32_MAX

typedef enum weir_program_format {
  WEIR_FORMAT_HOST = 0,  /* a C function run by the CPU backend per workgroup */
  WEIR_FORMAT_SPIRV = 1, /* a SPIR-V compute module, entry point "main" */
  WEIR_FORMAT_CUDA = 2   /* a fatbin/PTX image and an entry-point name */
} weir_program_format;

WEIR_API const char *weir_program_format_name(weir_program_format format);

typedef struct weir_grid {
  uint32_t x, y, z; /* workgroup counts; {0,0,0} means "the program's default" */
} weir_grid;

/* What a host kernel sees for one workgroup. Bindings are the resident
 * buffers' bytes in binding order; the kernel loops over its own local
 * invocations (workgroup_size), which lets it aggregate per workgroup (one
 * atomic reservation per workgroup instead of one per item). */
typedef struct weir_host_invocation {
  uint32_t workgroup_id[3];
  uint32_t grid[3];
  uint32_t workgroup_size[3];
  void *const *bindings;
  const uint64_t *binding_bytes;
  const void *push_constants;
  uint32_t push_constant_bytes;
} weir_host_invocation;

typedef void (*weir_host_kernel)(const weir_host_invocation *invocation);

typedef struct weir_program {
  const char *name;
  uint32_t binding_count;       /* <= WEIR_MAX_BINDINGS */
  uint32_t push_constant_bytes; /* <= WEIR_MAX_PUSH_CONSTANT_BYTES, multiple of 4 */
  uint32_t workgroup_size[3];   /* every entry >= 1 */

  /* Default grid when a step gives {0,0,0}: if default_grid_binding is a binding
   * index, grid.x = ceil(bytes(binding) / default_grid_elem_bytes / workgroup_size[0])
   * (at least 1); otherwise {1,1,1}. */
  uint32_t default_grid_binding;
  uint32_t default_grid_elem_bytes;

  /* Code, one field group per format; NULL/0 where the format is absent. */
  weir_host_kernel host;
  const uint32_t *spirv;
  size_t spirv_bytes;
  const void *cuda_image;
  size_t cuda_image_bytes;
  const char *cuda_entry;
} weir_program;

/* Does `program` carry code in `format`? */
WEIR_API int weir_program_has_format(const weir_program *program, weir_program_format format);

/* Checks a program's declaration (name, counts, sizes); used by dispatch and
 * registration so that a hand-filled struct fails early with a clear message. */
#include "weir/status.h"
WEIR_API weir_status weir_program_validate(const weir_program *program);

/* The built-in programs (programs/): noop, fill_u32, copy_u32, add_u32,
 * counter_u32, atomic_add_u32, and the IFDS engine's kernels. Looked up by
 * exact name; NULL if unknown. */
WEIR_API const weir_program *weir_builtin_program(const char *name);
WEIR_API size_t weir_builtin_program_count(void);
WEIR_API const weir_program *weir_builtin_program_at(size_t index);

#ifdef __cplusplus
}
#endif

/* Programs from files (SPIR-V reflected and checked, PTX/cubin, host shared
 * libraries, .weirprog manifests) and the shader ABI in full. */
#include "weir/program_file.h"
#endif
