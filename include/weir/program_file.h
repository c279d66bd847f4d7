/* weir — programs from files: SPIR-V reflection, PTX/cubin, host shared
 * libraries and the program manifest.
 *
 * A weir_program filled by hand is only as right as its author: a GLSL kernel
 * hard-coding `local_size_x = 32` under a declaration of 64 silently skips
 * half of every buffer. These functions build the program from the code
 * itself: a SPIR-V module is read (entry points, execution model, workgroup
 * size, set-0 bindings and their types, the push-constant block) and whatever
 * the caller declares is checked against it; a contradiction is refused with
 * a message naming both values. Formats without reflection (PTX, cubin, host
 * code) take their layout from the caller or from a manifest file.
 *
 * The shader ABI every SPIR-V program must follow (the Vulkan backend's):
 *   - one GLCompute entry point (weir stores the chosen one as the module's
 *     only entry point, named "main");
 *   - workgroup size: for each dimension d, either specialization constant d
 *     (GLSL `layout(local_size_x_id = 0, local_size_y_id = 1,
 *     local_size_z_id = 2) in;`), which the backend sets from
 *     weir_program.workgroup_size, or a hard-coded size that must then equal
 *     the declared one; specialization constants 0..2 serve nothing else;
 *   - binding i of a step is the storage buffer at set 0, binding i (one
 *     buffer per binding: no uniform buffers, images or arrays of buffers);
 *   - push constants: one block starting at offset 0, whose size (end of its
 *     last member, rounded up to 4) is weir_program.push_constant_bytes.
 * The manifest format is documented in docs/program-files.md. */
#ifndef WEIR_PROGRAM_FILE_H
#define WEIR_PROGRAM_FILE_H

#include "weir/export.h"
#include "weir/program.h"
#include "weir/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* `weir_program_decl.declared` bits: which fields the caller states. A zeroed
 * declaration takes everything from the module (SPIR-V) and is refused for
 * formats that cannot be reflected. */
#define WEIR_DECL_BINDINGS 1u  /* binding_count */
#define WEIR_DECL_PUSH 2u      /* push_constant_bytes */
#define WEIR_DECL_WORKGROUP 4u /* workgroup_size */
#define WEIR_DECL_GRID 8u      /* default_grid_binding, default_grid_elem_bytes */

/* What the caller says about a program. Undeclared fields come from the code;
 * the default grid, when not declared, covers binding 0 as 4-byte elements
 * (weir's element-wise convention), or is {1,1,1} without bindings. */
typedef struct weir_program_decl {
  const char *name; /* NULL: the entry point's name */
  uint32_t declared;
  uint32_t binding_count;
  uint32_t push_constant_bytes;
  uint32_t workgroup_size[3];
  uint32_t default_grid_binding;
  uint32_t default_grid_elem_bytes;
} weir_program_decl;

#define WEIR_SPIRV_NO_SPEC UINT32_MAX

/* What a SPIR-V module says about one of its entry points. */
typedef struct weir_spirv_info {
  char entry[64];
  uint32_t execution_model;   /* 5 = GLCompute */
  uint32_t binding_count;     /* highest set-0 binding + 1 (0: none) */
  uint32_t binding_mask;      /* bit i: binding i exists */
  uint32_t push_constant_bytes;
  uint32_t workgroup_size[3]; /* hard-coded sizes, or the spec constants' defaults */
  uint32_t workgroup_spec_id[3]; /* spec constant id per dimension, or WEIR_SPIRV_NO_SPEC */
} weir_spirv_info;

/* Reads `bytes` (a SPIR-V module, `size` bytes, host byte order) and
 * describes entry point `entry` (NULL: the module's only GLCompute entry
 * point). Refuses garbage, a missing or non-compute entry point, bindings
 * outside set 0 or of another type than storage buffer, and a workgroup size
 * the backend cannot set, each naming what it found. */
WEIR_API weir_status weir_spirv_reflect(const void *bytes, size_t size, const char *entry,
                                        weir_spirv_info *out);

/* Builds a program from a SPIR-V module, checking `decl` (may be NULL)
 * against the module. *out owns copies of everything (free it with
 * weir_program_free). */
WEIR_API weir_status weir_program_from_spirv(const void *bytes, size_t size, const char *entry,
                                             const weir_program_decl *decl, weir_program **out);

/* Builds a CUDA program from PTX text or a cubin/fatbin image and kernel
 * `entry`. CUDA images carry no weir layout: decl must declare the binding
 * count and push-constant size (WEIR_DECL_BINDINGS | WEIR_DECL_PUSH); the
 * workgroup defaults to {64,1,1}. The kernel's parameters are the bindings'
 * device pointers in order, then the push-constant block (backends/cuda). */
WEIR_API weir_status weir_program_from_ptx(const char *ptx, size_t size, const char *entry,
                                           const weir_program_decl *decl, weir_program **out);
WEIR_API weir_status weir_program_from_cubin(const void *image, size_t size, const char *entry,
                                             const weir_program_decl *decl, weir_program **out);

/* Builds a host program from `symbol` (a weir_host_kernel) in shared library
 * `path`, which stays loaded until weir_program_free. decl must declare the
 * binding count and push-constant size, as for CUDA. */
WEIR_API weir_status weir_program_from_host_library(const char *path, const char *symbol,
                                                    const weir_program_decl *decl,
                                                    weir_program **out);

/* Loads a program file by its extension: `.spv` (reflected), `.ptx`,
 * `.cubin`/`.fatbin`, `.so` (entry = symbol), or `.weirprog`, a manifest
 * naming the layout and the code in one or more formats (a SPIR-V file named
 * there is reflected and checked against the manifest's layout). `entry` may
 * be NULL (the manifest's, or the module's only one); `decl` (may be NULL) is
 * checked against the file. */
WEIR_API weir_status weir_program_load(const char *path, const char *entry,
                                       const weir_program_decl *decl, weir_program **out);

/* Checks a program's SPIR-V (when it has some) against its declaration with
 * weir_spirv_reflect's rules; registration and the Vulkan backend call it. */
WEIR_API weir_status weir_program_check_spirv(const weir_program *program);

/* Frees a program made by the functions above (NULL allowed). Never pass a
 * program you filled yourself. */
WEIR_API void weir_program_free(weir_program *program);

#ifdef __cplusplus
}
#endif
#endif
