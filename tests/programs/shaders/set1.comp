#version 450
// A buffer at set 1: weir binds buffer i at set 0, binding i.
layout(local_size_x_id = 0) in;
layout(std430, set = 1, binding = 0) buffer B0 { uint data[]; } b0;
void main() { b0.data[gl_GlobalInvocationID.x] = 1u; }
