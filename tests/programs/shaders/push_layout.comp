#version 450
// Push-constant block size: the end of its last member (a uvec4 at 16 + a
// uint at 32 = 36 bytes), and two bindings.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;
layout(push_constant) uniform Push { uint a; layout(offset = 16) uvec4 v; uint last; } pc;
layout(std430, set = 0, binding = 0) buffer B0 { uint data[]; } b0;
layout(std430, set = 0, binding = 1) buffer B1 { uint data[]; } b1;
void main() { b0.data[0] = pc.a + pc.v.w + pc.last + b1.data[0]; }
