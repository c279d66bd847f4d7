#version 450
// A uniform buffer at binding 1: weir binds storage buffers only.
layout(local_size_x_id = 0) in;
layout(std430, set = 0, binding = 0) buffer B0 { uint data[]; } b0;
layout(std140, set = 0, binding = 1) uniform U { uint value; } u;
void main() { b0.data[gl_GlobalInvocationID.x] = u.value; }
