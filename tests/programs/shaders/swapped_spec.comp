#version 450
// Workgroup x on specialization constant 1: weir sets x through constant 0.
layout(local_size_x_id = 1) in;
layout(std430, set = 0, binding = 0) buffer B0 { uint data[]; } b0;
void main() { b0.data[gl_GlobalInvocationID.x] = 1u; }
