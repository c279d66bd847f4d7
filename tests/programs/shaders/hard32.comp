#version 450
// The bug of issue 17: a hard-coded local size (32), which a declaration of
// 64 cannot change. Reflection refuses the contradiction.
layout(local_size_x = 32) in;
layout(push_constant) uniform Push { uint factor; uint count; } pc;
layout(std430, set = 0, binding = 0) buffer B0 { uint data[]; } b0;
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i < pc.count && i < uint(b0.data.length())) b0.data[i] *= pc.factor;
}
