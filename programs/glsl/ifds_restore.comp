#version 450
// ifds_restore: one invocation (see ifds_restore in programs/ifds/ifds_kernels.h).
#include "ifds_common.glsl"
void main() {
  if (ifds_leader()) ifds_restore();
}
