#version 450
// scale_u32: b0[i] *= factor for i < count. Follows weir's shader ABI: the
// workgroup size comes from specialization constants 0..2.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;
layout(push_constant) uniform Push { uint factor; uint count; } pc;
layout(std430, set = 0, binding = 0) buffer B0 { uint data[]; } b0;
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i < pc.count && i < uint(b0.data.length())) b0.data[i] *= pc.factor;
}
