/* CUresult -> weir_status with the driver's own error name and text. */
#include <stdio.h>

#include "backends/cuda/cuda_driver.h"

weir_status weir_cuda_status_of(CUresult result) {
  switch (result) {
    case CUDA_ERROR_OUT_OF_MEMORY:
      return WEIR_ERR_OUT_OF_MEMORY;
    case CUDA_ERROR_NO_DEVICE:
    case CUDA_ERROR_NOT_INITIALIZED:
    case CUDA_ERROR_STUB_LIBRARY:
    case CUDA_ERROR_DEVICE_UNAVAILABLE:
    case CUDA_ERROR_SYSTEM_DRIVER_MISMATCH:
    case CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE:
      return WEIR_ERR_UNAVAILABLE;
    case CUDA_ERROR_NO_BINARY_FOR_GPU:
    case CUDA_ERROR_UNSUPPORTED_PTX_VERSION:
    case CUDA_ERROR_JIT_COMPILER_NOT_FOUND:
    case CUDA_ERROR_NOT_SUPPORTED:
      return WEIR_ERR_UNSUPPORTED;
    default:
      return WEIR_ERR_DEVICE;
  }
}

const char *weir_cuda_fix_hint(CUresult result) {
  switch (result) {
    case CUDA_ERROR_OUT_OF_MEMORY:
      return "free buffers or lower the working set (weir info shows the device memory); "
             "set memory_limit_bytes to fail earlier with weir's own message";
    case CUDA_ERROR_NO_DEVICE:
      return "no NVIDIA GPU is visible: check nvidia-smi and CUDA_VISIBLE_DEVICES, or use "
             "another backend (cpu, vulkan)";
    case CUDA_ERROR_SYSTEM_DRIVER_MISMATCH:
    case CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE:
      return "install an NVIDIA driver that matches the kernel module and supports CUDA 13 "
             "(R580 or newer)";
    case CUDA_ERROR_STUB_LIBRARY:
      return "the libcuda.so.1 found is the toolkit's stub: put the real driver's library "
             "first on the loader path (unset LD_LIBRARY_PATH entries pointing at stubs/)";
    case CUDA_ERROR_NO_BINARY_FOR_GPU:
    case CUDA_ERROR_UNSUPPORTED_PTX_VERSION:
    case CUDA_ERROR_JIT_COMPILER_NOT_FOUND:
      return "weir's fatbin has SASS for sm_80 and sm_90 and PTX for compute_90 built by CUDA "
             "13: the GPU needs compute capability 8.0 or newer and a driver for CUDA 13 "
             "(R580+)";
    case CUDA_ERROR_ILLEGAL_ADDRESS:
    case CUDA_ERROR_LAUNCH_FAILED:
    case CUDA_ERROR_ASSERT:
      return "a kernel faulted; the CUDA context is now unusable: close and reopen the backend, "
             "and run the program under compute-sanitizer to find the access";
    case CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES:
      return "the kernel needs more registers or shared memory than this block size allows: "
             "lower the program's workgroup_size";
    case CUDA_ERROR_INVALID_IMAGE:
    case CUDA_ERROR_INVALID_PTX:
      return "the program's cuda_image is not a valid fatbin, cubin or NUL-terminated PTX for "
             "this GPU: rebuild it with nvcc -fatbin";
    case CUDA_ERROR_NOT_FOUND:
      return "the program's cuda_entry does not name an extern \"C\" __global__ function of its "
             "image: check the name and the extern \"C\"";
    default:
      return "see the CUDA driver API documentation for this error; if weir passed wrong "
             "values, please report it";
  }
}

weir_status weir_cuda_fail(const weir_cuda_driver *d, CUresult result, const char *fmt, ...) {
  char what[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  const char *name = NULL, *text = NULL;
  if (!d || !d->pcuGetErrorName || d->pcuGetErrorName(result, &name) != CUDA_SUCCESS || !name)
    name = "unknown CUresult";
  if (!d || !d->pcuGetErrorString || d->pcuGetErrorString(result, &text) != CUDA_SUCCESS ||
      !text)
    text = "no description from the driver";
  return weir_fail(weir_cuda_status_of(result), "cuda: %s: %s (%d): %s. Fix: %s", what, name,
                   (int)result, text, weir_cuda_fix_hint(result));
}
