#version 450
// atomic_add_u32: every invocation adds value to b0[0] (wrapping). The host
// kernel adds workgroup_size * value once per workgroup: the same sum mod 2^32.
#include "weir_common.glsl"
layout(push_constant) uniform Push { uint value; } pc; // weir_atomic_add_u32_push
layout(std430, set = 0, binding = 0) buffer B0 { uint data[]; } b0;
void main() {
  if (b0.data.length() >= 1) atomicAdd(b0.data[0], pc.value);
}
