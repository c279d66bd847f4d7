/* Counters of the mock CUDA driver (tests/cuda/mock_cuda_driver.c), read by
 * tests through dlsym on the same library the backend loaded. */
#ifndef WEIR_TESTS_CUDA_MOCK_DRIVER_H
#define WEIR_TESTS_CUDA_MOCK_DRIVER_H

#include <stddef.h>
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

/* For the mock NCCL (tests/nccl/mock_nccl.c), which links this library:
 * the device of a live stream (-1: not a stream of this mock), whether
 * [p, p + bytes) lies inside one live device allocation, and queueing
 * fn(arg) on a stream (it runs, in order, when the stream is drained at a
 * synchronization; returns a CUresult). */
int weir_mock_cuda_stream_device(const void *stream);
int weir_mock_cuda_device_range_ok(const void *p, size_t bytes);
int weir_mock_cuda_enqueue_host(const void *stream, void (*fn)(void *), void *arg);

#endif
