#version 450
// add_u32: b0[i] += value (wrapping) for i < min(count, elements of b0).
#include "weir_common.glsl"
layout(push_constant) uniform Push { uint value; uint count; } pc; // weir_add_u32_push
layout(std430, set = 0, binding = 0) buffer B0 { uint data[]; } b0;
void main() {
  uint i;
  if (!weir_element_index(i)) return;
  if (i < pc.count && i < uint(b0.data.length())) b0.data[i] += pc.value;
}
