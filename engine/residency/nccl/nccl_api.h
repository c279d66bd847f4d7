/* The part of NCCL's C API the NCCL transport uses, declared here so that
 * weir builds without nccl.h, and loaded at run time with dlopen. Types and
 * enum values are those of NCCL's public API (stable since NCCL 2.0): a
 * communicator is an opaque pointer, results/datatypes/ops are ints, a
 * cudaStream_t is an opaque pointer (the CUDA backend's CUstream). */
#ifndef WEIR_RESIDENCY_NCCL_API_H
#define WEIR_RESIDENCY_NCCL_API_H

#include <stddef.h>

#include "weir/status.h"

typedef struct weir_nccl_comm *weir_nccl_comm; /* ncclComm_t */
typedef void *weir_nccl_stream;                /* cudaStream_t */
typedef int weir_nccl_result;                  /* ncclResult_t */
typedef int weir_nccl_datatype;                /* ncclDataType_t */
typedef int weir_nccl_redop;                   /* ncclRedOp_t */

enum {
  WEIR_NCCL_SUCCESS = 0,            /* ncclSuccess */
  WEIR_NCCL_UNHANDLED_CUDA = 1,     /* ncclUnhandledCudaError */
  WEIR_NCCL_SYSTEM_ERROR = 2,       /* ncclSystemError */
  WEIR_NCCL_INTERNAL_ERROR = 3,     /* ncclInternalError */
  WEIR_NCCL_INVALID_ARGUMENT = 4,   /* ncclInvalidArgument */
  WEIR_NCCL_INVALID_USAGE = 5,      /* ncclInvalidUsage */
  WEIR_NCCL_REMOTE_ERROR = 6,       /* ncclRemoteError */
  WEIR_NCCL_IN_PROGRESS = 7         /* ncclInProgress */
};
enum {
  WEIR_NCCL_UINT8 = 1,   /* ncclUint8 */
  WEIR_NCCL_UINT32 = 3,  /* ncclUint32 */
  WEIR_NCCL_UINT64 = 5,  /* ncclUint64 */
  WEIR_NCCL_FLOAT32 = 7, /* ncclFloat32 */
  WEIR_NCCL_FLOAT64 = 8  /* ncclFloat64 */
};
enum { WEIR_NCCL_SUM = 0, WEIR_NCCL_MAX = 2, WEIR_NCCL_MIN = 3 }; /* ncclSum/Max/Min */

#define WEIR_NCCL_FUNCTIONS(X)                                                              \
  X(ncclGetVersion, (int *version))                                                         \
  X(ncclCommInitAll, (weir_nccl_comm * comms, int ndev, const int *devlist))                \
  X(ncclCommDestroy, (weir_nccl_comm comm))                                                 \
  X(ncclCommCount, (weir_nccl_comm comm, int *count))                                       \
  X(ncclCommUserRank, (weir_nccl_comm comm, int *rank))                                     \
  X(ncclGroupStart, (void))                                                                 \
  X(ncclGroupEnd, (void))                                                                   \
  X(ncclBroadcast, (const void *send, void *recv, size_t count, weir_nccl_datatype type,    \
                    int root, weir_nccl_comm comm, weir_nccl_stream stream))                \
  X(ncclAllGather, (const void *send, void *recv, size_t count, weir_nccl_datatype type,    \
                    weir_nccl_comm comm, weir_nccl_stream stream))                          \
  X(ncclAllReduce, (const void *send, void *recv, size_t count, weir_nccl_datatype type,    \
                    weir_nccl_redop op, weir_nccl_comm comm, weir_nccl_stream stream))      \
  X(ncclSend, (const void *send, size_t count, weir_nccl_datatype type, int peer,           \
               weir_nccl_comm comm, weir_nccl_stream stream))                               \
  X(ncclRecv, (void *recv, size_t count, weir_nccl_datatype type, int peer,                 \
               weir_nccl_comm comm, weir_nccl_stream stream))

/* Each returns ncclResult_t; ncclGetErrorString (a string) is apart. */
#define WEIR_NCCL_FIELD(name, params) weir_nccl_result (*name) params;
typedef struct weir_nccl_api {
  void *handle; /* never closed: NCCL keeps threads and state per process */
  char library[256];
  int version; /* ncclGetVersion: 22809 for 2.28.9 */
  WEIR_NCCL_FUNCTIONS(WEIR_NCCL_FIELD)
  const char *(*ncclGetErrorString)(weir_nccl_result result);
  /* Optional (NCCL >= 2.13): the last error's detail for a communicator. */
  const char *(*ncclGetLastError)(weir_nccl_comm comm);
} weir_nccl_api;
#undef WEIR_NCCL_FIELD

/* The library to load: `requested` when non-NULL, else $WEIR_NCCL_LIBRARY,
 * else "libnccl.so.2". */
const char *weir_nccl_library_name(const char *requested);

/* dlopen()s `library` and resolves every entry point into *out (no
 * process-wide state: dlopen counts references, and the handle is never
 * closed). WEIR_ERR_UNAVAILABLE naming the library and how to get it. */
weir_status weir_nccl_api_load(const char *library, weir_nccl_api *out);

/* NCCL's text for a result: ncclGetErrorString's, or a fallback. */
const char *weir_nccl_error_text(const weir_nccl_api *api, weir_nccl_result result);

/* Records a failed NCCL call: "nccl: <what>: <name> (<code>): <NCCL's text>
 * [<last error detail>]. Fix: <hint>" and returns the status for it. `comm`
 * may be NULL. */
weir_status weir_nccl_fail(const weir_nccl_api *api, weir_nccl_comm comm,
                           weir_nccl_result result, const char *fmt, ...) WEIR_PRINTF(4, 5);

#endif
