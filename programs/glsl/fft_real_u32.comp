#version 450
// fft_real_u32: the Vulkan backend's moves around a VkFFT C2C that stands in
// for a real transform VkFFT cannot plan (odd lengths its R2C refuses, a last
// axis of length 1) and for transforms whose axes all have length 1. Values
// move as uint words (w = 1 for float32, 2 for float64), so no shaderFloat64
// is needed; conjugation flips the sign bit of the imaginary part's top word.
// Not a built-in program of the other backends (backends/vulkan/vk_fft.c).
//   mode 0, promote:   real i            -> complex i = (re, 0)          (count reals)
//   mode 1, real part: complex i         -> real i = re                   (count reals)
//   mode 2, half:      complex (line, m) of n-long lines -> (line, m < h) (count = lines * h)
//   mode 3, Hermitian: half lines (b, k2, k1, m < h) -> full lines of n: m >= h reads
//                      conj(b, -k2, -k1, n - m)                          (count = lines * n)
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;
layout(push_constant) uniform Push {
  uint mode;
  uint count;
  uint w;
  uint n;
  uint h;
  uint d1;
  uint d2;
  uint unused;
} pc;
layout(std430, set = 0, binding = 0) readonly buffer Src { uint s[]; } src;
layout(std430, set = 0, binding = 1) writeonly buffer Dst { uint d[]; } dst;
void main() {
  uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
  uint w = pc.w;
  uint i = gl_GlobalInvocationID.x;
  while (i < pc.count) {
    if (pc.mode == 0u) {
      for (uint j = 0u; j < w; ++j) {
        dst.d[2u * i * w + j] = src.s[i * w + j];
        dst.d[(2u * i + 1u) * w + j] = 0u;
      }
    } else if (pc.mode == 1u) {
      for (uint j = 0u; j < w; ++j) dst.d[i * w + j] = src.s[2u * i * w + j];
    } else {
      uint from, flip = 0u;
      if (pc.mode == 2u) {
        uint line = i / pc.h;
        from = line * pc.n + (i - line * pc.h);
      } else {
        uint m = i % pc.n, r = i / pc.n;
        uint k1 = r % pc.d1;
        r /= pc.d1;
        uint k2 = r % pc.d2, b = r / pc.d2;
        if (m >= pc.h) {
          m = pc.n - m;
          k1 = (pc.d1 - k1) % pc.d1;
          k2 = (pc.d2 - k2) % pc.d2;
          flip = 0x80000000u;
        }
        from = ((b * pc.d2 + k2) * pc.d1 + k1) * pc.h + m;
      }
      for (uint j = 0u; j < 2u * w; ++j)
        dst.d[2u * i * w + j] = src.s[2u * from * w + j] ^ (j == 2u * w - 1u ? flip : 0u);
    }
    if (pc.count - i <= stride) break;
    i += stride;
  }
}
