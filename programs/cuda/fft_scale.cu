/* The CUDA backend's normalisation pass after a cuFFT transform (cuFFT never
 * scales): b0[i] *= scale for i < count, grid-stride. Not a built-in program
 * of the other backends (backends/cuda/cuda_fft.c prepares it itself). */
#include "programs/cuda/weir_cuda_abi.h"

struct weir_fft_scale_push {
  double scale;
  uint32_t count, pad;
};

template <typename T>
static __device__ __forceinline__ void weir_fft_scale(const weir_cuda_args &args) {
  weir_fft_scale_push p = weir_cuda_push<weir_fft_scale_push>(args);
  uint64_t n = WEIR_CUDA_BINDING_COUNT(T, 0);
  if (p.count < n) n = p.count;
  T s = (T)p.scale;
  uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
  for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
    WEIR_CUDA_BINDING(T, 0)[i] *= s;
}

WEIR_CUDA_KERNEL_WG(weir_fft_scale_f32, 256) { weir_fft_scale<float>(args); }
WEIR_CUDA_KERNEL_WG(weir_fft_scale_f64, 256) { weir_fft_scale<double>(args); }
