/* The IFDS engine's programs: one entry per kernel, with its host code and,
 * where the build compiled them, its SPIR-V (programs/glsl/ifds_*.comp) and
 * CUDA (programs/cuda/ifds.cu) code. The engine finds them by name. */
#include <stddef.h>

#include "programs/formats.h"
#include "programs/ifds/ifds_host.h"
#include "programs/ifds/ifds_layout.h"

#define IFDS_LAYOUT(prog, bindings)                                                        \
  .binding_count = (bindings), .push_constant_bytes = sizeof(weir_ifds_push),                \
  .workgroup_size = {WEIR_IFDS_WORKGROUP, 1, 1}, .default_grid_binding = WEIR_NO_BINDING,   \
  .host = weir_host_##prog
#define IFDS_PROGRAM(prog, bindings) .name = #prog, IFDS_LAYOUT(prog, bindings)

/* The same program whose SPIR-V reserves appended entries once per subgroup
 * (programs/glsl/ifds_common.glsl, IFDS_SUBGROUP); its host and CUDA code
 * are the program's own, which aggregate anyway (ifds_sink.h). The engine
 * runs these where the device reports subgroup ballots. */
#define IFDS_SUBGROUP_PROGRAM(prog)                                                        \
  {.name = #prog "_sg", IFDS_LAYOUT(prog, WEIR_IFDS_BINDINGS), WEIR_SPIRV(prog##_sg)          \
   WEIR_CUDA(prog)}

const weir_program weir_ifds_programs[] = {
    {IFDS_PROGRAM(ifds_clear, 1), WEIR_SPIRV(ifds_clear) WEIR_CUDA(ifds_clear)},
    {IFDS_PROGRAM(ifds_restore, WEIR_IFDS_BINDINGS), WEIR_SPIRV(ifds_restore) WEIR_CUDA(ifds_restore)},
    {IFDS_PROGRAM(ifds_seed, WEIR_IFDS_BINDINGS), WEIR_SPIRV(ifds_seed) WEIR_CUDA(ifds_seed)},
    {IFDS_PROGRAM(ifds_rehash, WEIR_IFDS_BINDINGS), WEIR_SPIRV(ifds_rehash) WEIR_CUDA(ifds_rehash)},
    {IFDS_PROGRAM(ifds_unlink, WEIR_IFDS_BINDINGS), WEIR_SPIRV(ifds_unlink) WEIR_CUDA(ifds_unlink)},
    {IFDS_PROGRAM(ifds_relate, WEIR_IFDS_BINDINGS), WEIR_SPIRV(ifds_relate) WEIR_CUDA(ifds_relate)},
    {IFDS_PROGRAM(ifds_expand, WEIR_IFDS_BINDINGS), WEIR_SPIRV(ifds_expand) WEIR_CUDA(ifds_expand)},
    {IFDS_PROGRAM(ifds_advance, WEIR_IFDS_BINDINGS), WEIR_SPIRV(ifds_advance) WEIR_CUDA(ifds_advance)},
    {IFDS_PROGRAM(ifds_ingest, WEIR_IFDS_BINDINGS), WEIR_SPIRV(ifds_ingest) WEIR_CUDA(ifds_ingest)},
    IFDS_SUBGROUP_PROGRAM(ifds_seed),
    IFDS_SUBGROUP_PROGRAM(ifds_relate),
    IFDS_SUBGROUP_PROGRAM(ifds_expand),
    IFDS_SUBGROUP_PROGRAM(ifds_ingest),
};
const size_t weir_ifds_program_count = sizeof weir_ifds_programs / sizeof weir_ifds_programs[0];
