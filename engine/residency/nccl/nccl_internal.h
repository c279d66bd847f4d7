/* The NCCL transport's record and the CUDA-backend access it needs. Not
 * installed. */
#ifndef WEIR_RESIDENCY_NCCL_INTERNAL_H
#define WEIR_RESIDENCY_NCCL_INTERNAL_H

#include "engine/residency/collective.h"
#include "engine/residency/nccl/nccl_api.h"
#include "weir/nccl.h"

typedef struct weir_nccl_transport {
  weir_transport base; /* first: the weir_transport * is this struct */
  weir_nccl_api api;
  uint32_t count;
  weir_backend **backends;   /* count, retained */
  int *ordinals;             /* CUDA device of each member */
  weir_nccl_stream *streams; /* each member's CUDA backend stream */
  weir_nccl_comm *comms;     /* one communicator per member, rank = index */
  weir_transport *staged;    /* copies of chunks outside the members */
  void **send, **recv;       /* per-call device pointers, count each */
} weir_nccl_transport;

/* ---- the CUDA backend's side (nccl_cuda.c) ------------------------------- */

/* The CUDA device ordinal and stream of `backend`; WEIR_ERR_INVALID_ARGUMENT
 * naming it when it is not a CUDA backend, WEIR_ERR_UNAVAILABLE when CUDA
 * support is not compiled into libweir. */
weir_status weir_nccl_cuda_member(weir_backend *backend, const char *what, uint32_t index,
                                  int *ordinal, weir_nccl_stream *stream);
/* The device address of byte `offset` of `buffer` (already validated). */
weir_status weir_nccl_cuda_pointer(weir_backend *backend, weir_buffer buffer, uint64_t offset,
                                   const char *what, void **out);
/* "cuda:1": what weir_backend_open accepted for it, for messages. */
const char *weir_nccl_backend_spec(const weir_backend *backend);
/* Makes the backend's context current on this thread (NCCL then finds it). */
weir_status weir_nccl_cuda_enter(weir_backend *backend);

/* ---- collectives (nccl_collectives.c) ------------------------------------- */

extern const weir_collective_ops weir_nccl_collective_ops;

/* Member index of `backend` in the transport, or count when it is none. */
uint32_t weir_nccl_member_of(const weir_nccl_transport *t, const weir_backend *backend);

#endif
