/* FFTs with cuFFT loaded at run time (cuda_fft.c). */
#ifndef WEIR_BACKENDS_CUDA_FFT_H
#define WEIR_BACKENDS_CUDA_FFT_H

#include "backends/cuda/cuda_backend.h"

weir_status weir_cuda_fft_plan(void *self, const weir_fft_desc *desc, void **out_plan);
void weir_cuda_fft_destroy(void *self, void *plan);
/* Issues an FFT step (cufftExec on the instance's stream, then the scale
 * kernel when the norm needs one); called by weir_cuda_launch. */
weir_status weir_cuda_fft_exec(weir_cuda_instance *inst, const weir_native_step *step);

#endif
