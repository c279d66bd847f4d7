#version 450
// ide_round_typestate: one round of the jump-function fixed point over the
// targets on the worklist of a typestate problem (all in a full round), grid-stride (ide_round_item in
// programs/ide/ide_kernels.h).
#define IDE_TYPESTATE
#include "ide_common.glsl"
void main() {
  if (ide_stopped()) return;
  uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x, n = ide_round_items();
  for (uint i = gl_GlobalInvocationID.x; i < n; i += stride) ide_round_item(ide_round_target(i));
  ide_check_loops();
}
