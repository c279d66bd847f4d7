/* weir — the NCCL transport: collectives between CUDA backends of this
 * process through NVIDIA's NCCL (weir/residency.h: groups and collectives).
 *
 * NCCL is loaded at run time: libweir never links it (nor needs its header
 * to build). The first weir_nccl_transport_create dlopen()s "libnccl.so.2"
 * (or options->library, or $WEIR_NCCL_LIBRARY); without it the call fails
 * with WEIR_ERR_UNAVAILABLE naming the library and how to install it. Where
 * CUDA support is not compiled into libweir the same status says so.
 *
 * One communicator per member (ncclCommInitAll over the members' devices).
 * Collectives run on the device pointers of the members' chunks and on each
 * member's CUDA backend stream (the stream the backend queues its own copies
 * and kernels on, so no extra synchronization is needed before a call):
 * broadcast -> ncclBroadcast, allgather -> ncclAllGather, allreduce ->
 * ncclAllReduce (u32/u64/f32/f64 x sum/min/max), scatter, gather and
 * alltoallv -> ncclSend/ncclRecv between distinct members (a member's piece
 * for itself is a device copy on its stream), every member's call inside
 * one ncclGroupStart/ncclGroupEnd. On return the call is complete: every
 * member's stream was synchronized once (weir_finish).
 *
 * Float sums follow NCCL's own order (ring or tree), which may differ in the
 * last bits from the stream transport's rank order. */
#ifndef WEIR_NCCL_H
#define WEIR_NCCL_H

#include "weir/export.h"

#include <stdint.h>

#include "weir/residency.h"

#ifdef __cplusplus
extern "C" {
#endif

#define WEIR_NCCL_DEFAULT_LIBRARY "libnccl.so.2"

typedef struct weir_nccl_options {
  /* The NCCL library to dlopen: NULL means $WEIR_NCCL_LIBRARY when set,
   * else WEIR_NCCL_DEFAULT_LIBRARY. */
  const char *library;
} weir_nccl_options;

/* A transport over `count` CUDA backends of this process (distinct devices,
 * e.g. "cuda:0" .. "cuda:3"; each is retained until the transport is
 * destroyed), one NCCL communicator per backend, in this order: member i of
 * a group over it is backends[i]. Make the group with
 * weir_group_create_local(transport, backends, count, &group) (same
 * backends, same order). Refused: a backend that is not CUDA
 * (WEIR_ERR_INVALID_ARGUMENT naming it), a device given twice, NCCL missing
 * (WEIR_ERR_UNAVAILABLE). Point-to-point copy/copy_async between two members
 * go through ncclSend/ncclRecv; within one member they are device copies;
 * chunks elsewhere (a CPU backend) go through a stream transport. options
 * may be NULL. */
WEIR_API weir_status weir_nccl_transport_create(weir_backend *const *backends, uint32_t count,
                                                const weir_nccl_options *options,
                                                weir_transport **out);

/* The NCCL version of the transport's library (e.g. 22809 for 2.28.9), or 0
 * for NULL or another transport. */
WEIR_API int weir_nccl_transport_version(const weir_transport *transport);

#ifdef __cplusplus
}
#endif
#endif
