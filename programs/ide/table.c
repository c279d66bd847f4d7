/* The IDE engine's programs: one entry per kernel, with its host code and,
 * where the build compiled them, its SPIR-V (programs/glsl/ide_*.comp) and
 * CUDA (programs/cuda/ide.cu) code. The engine finds them by name. */
#include <stddef.h>

#include "programs/formats.h"
#include "programs/ide/ide_host.h"

#define IDE_PROGRAM(prog)                                                                 \
  .name = #prog, .binding_count = WEIR_IDE_BINDINGS, .push_constant_bytes = sizeof(weir_ide_push), \
  .workgroup_size = {WEIR_IDE_WORKGROUP, 1, 1}, .default_grid_binding = WEIR_NO_BINDING,    \
  .host = weir_host_##prog

const weir_program weir_ide_programs[] = {
    /* One per family: the SPIR-V of each has only its family's code (see
     * ide_common.glsl); host and CUDA share one body that branches. */
    {IDE_PROGRAM(ide_round_linear), WEIR_SPIRV(ide_round_linear) WEIR_CUDA(ide_round_linear)},
    {IDE_PROGRAM(ide_round_typestate), WEIR_SPIRV(ide_round_typestate) WEIR_CUDA(ide_round_typestate)},
    {IDE_PROGRAM(ide_expand), WEIR_SPIRV(ide_expand) WEIR_CUDA(ide_expand)},
    {IDE_PROGRAM(ide_advance), WEIR_SPIRV(ide_advance) WEIR_CUDA(ide_advance)},
};
const size_t weir_ide_program_count = sizeof weir_ide_programs / sizeof weir_ide_programs[0];
