#version 450
// counter_u32: b0[0] += 1, once per dispatch (first invocation of workgroup 0).
#include "weir_common.glsl"
layout(std430, set = 0, binding = 0) buffer B0 { uint data[]; } b0;
void main() {
  if (gl_WorkGroupID != uvec3(0u) || gl_LocalInvocationIndex != 0u) return;
  if (b0.data.length() >= 1) b0.data[0] += 1u;
}
