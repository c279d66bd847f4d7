#version 450
// ifds_advance: one invocation (see ifds_advance in programs/ifds/ifds_kernels.h).
#include "ifds_common.glsl"
void main() {
  if (ifds_leader()) ifds_advance();
}
