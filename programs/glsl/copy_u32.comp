#version 450
// copy_u32: b0[i] = b1[i] for i < min(count, elements of b0, elements of b1).
#include "weir_common.glsl"
layout(push_constant) uniform Push { uint count; } pc; // weir_copy_u32_push
layout(std430, set = 0, binding = 0) writeonly buffer B0 { uint data[]; } b0;
layout(std430, set = 0, binding = 1) readonly buffer B1 { uint data[]; } b1;
void main() {
  uint i;
  if (!weir_element_index(i)) return;
  if (i < pc.count && i < uint(b0.data.length()) && i < uint(b1.data.length()))
    b0.data[i] = b1.data[i];
}
