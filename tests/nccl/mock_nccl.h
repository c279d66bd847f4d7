/* The mock NCCL's record of calls (tests/nccl/mock_nccl.c), read by tests
 * through dlsym on the library the NCCL transport loaded. */
#ifndef WEIR_TESTS_NCCL_MOCK_H
#define WEIR_TESTS_NCCL_MOCK_H

#include <stddef.h>
#include <stdint.h>

typedef struct weir_mock_nccl_call {
  char fn[24];          /* "ncclAllReduce" */
  int rank, size;       /* of the communicator */
  int device;           /* the communicator's CUDA device */
  int stream_device;    /* the device of the stream passed (-1: not a mock CUDA stream) */
  const void *stream;
  const void *send;
  void *recv;
  size_t count;
  int datatype, op;
  int peer;             /* root (broadcast) or peer (send/recv); -1 otherwise */
  int in_group;         /* issued between ncclGroupStart and ncclGroupEnd */
} weir_mock_nccl_call;

typedef struct weir_mock_nccl_state {
  size_t calls;         /* recorded calls (log below, at most WEIR_MOCK_NCCL_LOG) */
  uint64_t groups;      /* ncclGroupEnd that issued work */
  uint64_t jobs_run;    /* collectives / transfers executed at a stream sync */
  int64_t live_comms;   /* 0 once every transport is destroyed */
  uint64_t init_all;    /* ncclCommInitAll calls */
} weir_mock_nccl_state;

#define WEIR_MOCK_NCCL_LOG 4096

/* Functions exported by the mock (dlsym them from the loaded library). */
typedef void (*weir_mock_nccl_state_fn)(weir_mock_nccl_state *out);
typedef int (*weir_mock_nccl_call_fn)(size_t index, weir_mock_nccl_call *out);
typedef void (*weir_mock_nccl_reset_fn)(void);
/* The next call of function `fn` ("ncclAllReduce", "ncclGroupEnd",
 * "ncclCommInitAll", ...) returns `result` instead of running. */
typedef void (*weir_mock_nccl_fail_next_fn)(const char *fn, int result);

#endif
