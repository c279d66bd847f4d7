/* What the mock cuFFT (mock_cufft.c) recorded, read through dlsym. */
#ifndef WEIR_TESTS_CUDA_MOCK_CUFFT_H
#define WEIR_TESTS_CUDA_MOCK_CUFFT_H

#include <stddef.h>

typedef struct weir_mock_cufft_log {
  int created, live;
  int rank, type;
  long long n[8], inembed[8], onembed[8];
  long long istride, idist, ostride, odist, batch;
  void *set_stream;  /* last cufftSetStream */
  void *exec_stream; /* the stream of the plan of the last exec */
  int exec_direction;
  long long execs;
} weir_mock_cufft_log;

typedef void (*weir_mock_cufft_get_fn)(weir_mock_cufft_log *out);

#endif
