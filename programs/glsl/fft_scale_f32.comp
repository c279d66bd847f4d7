#version 450
// fft_scale_f32: b0[i] *= scale for i < count. The Vulkan backend's
// normalisation pass after a VkFFT transform (norm="forward"/"ortho", which
// VkFFT cannot apply itself); not a built-in program of the other backends.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;
layout(push_constant) uniform Push { float scale; uint count; } pc;
layout(std430, set = 0, binding = 0) buffer B0 { float data[]; } b0;
void main() {
  uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
  uint i = gl_GlobalInvocationID.x;
  while (i < pc.count) {
    b0.data[i] *= pc.scale;
    if (pc.count - i <= stride) break;
    i += stride;
  }
}
