#version 450
// ide_round_linear: one round of the jump-function fixed point over every
// target path edge of a linear problem, grid-stride (ide_round_item in
// programs/ide/ide_kernels.h).
#define IDE_LINEAR
#include "ide_common.glsl"
void main() {
  if (ide_round_skipped()) return;
  uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
  for (uint t = gl_GlobalInvocationID.x; t < pc.targets; t += stride) ide_round_item(t);
  ide_check_loops();
}
