#version 450
// ide_round_typestate: one round of the jump-function fixed point over every
// target path edge of a typestate problem, grid-stride (ide_round_item in
// programs/ide/ide_kernels.h).
#define IDE_TYPESTATE
#include "ide_common.glsl"
void main() {
  if (ide_round_skipped()) return;
  uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
  for (uint t = gl_GlobalInvocationID.x; t < pc.targets; t += stride) ide_round_item(t);
  ide_check_loops();
}
