/* Counters of the mock CUDA driver (tests/cuda/mock_cuda_driver.c), read by
 * tests through dlsym on the same library the backend loaded. */
#ifndef WEIR_TESTS_CUDA_MOCK_DRIVER_H
#define WEIR_TESTS_CUDA_MOCK_DRIVER_H

#include <stdint.h>

typedef struct weir_mock_cuda_counters {
  uint64_t syncs;          /* cuStreamSynchronize + cuEventSynchronize */
  uint64_t launches;       /* cuLaunchKernel calls (captured ones included) */
  uint64_t kernels_run;    /* kernels executed (graph replays included) */
  uint64_t copies;         /* async memcpy calls */
  uint64_t bytes_to_device, bytes_to_host;
  uint64_t captures, instantiations, graph_launches;
  uint64_t modules_loaded, modules_unloaded;
  /* What is alive now: all zero once every backend instance is closed. */
  int64_t live_device_blocks, live_pinned_blocks, live_streams, live_events, live_graphs,
      live_graph_execs;
  int last_requested_version; /* cudaVersion of the last cuGetProcAddress */
} weir_mock_cuda_counters;

#define WEIR_MOCK_CUDA_COUNTERS_SYMBOL "weir_mock_cuda_get_counters"
typedef void (*weir_mock_cuda_get_counters_fn)(weir_mock_cuda_counters *out);
void weir_mock_cuda_get_counters(weir_mock_cuda_counters *out);

#endif
