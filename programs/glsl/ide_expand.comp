#version 450
// ide_expand: after each round, one changed target per workgroup (grid-
// stride), its slot words and dependents spread over the workgroup's
// invocations (ide_expand_item in programs/ide/ide_kernels.h): a source read
// by thousands of rules would otherwise spend one invocation's loop budget.
// Either family: it copies words and never looks inside a function.
#include "ide_common.glsl"
void main() {
  if (!ide_stopped()) {
    uint n = ctrl[C_CHANGES];
    for (uint i = gl_WorkGroupID.x; i < n; i += gl_NumWorkGroups.x)
      ide_expand_item(i, gl_LocalInvocationID.x, gl_WorkGroupSize.x);
  }
  ide_check_loops();
}
