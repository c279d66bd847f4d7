/* Internal to the residency layer: the group record and the pieces of the
 * collectives engine (validation, generic fallbacks, host reduction) that the
 * dispatcher and the stream transport share. Not installed. */
#ifndef WEIR_RESIDENCY_COLLECTIVE_H
#define WEIR_RESIDENCY_COLLECTIVE_H

#include <stddef.h>

#include "weir/residency.h"

/* One byte range a call reads or writes, for the bounds and overlap checks. */
typedef struct weir_coll_range {
  weir_chunk *chunk;
  uint64_t offset, bytes;
  uint32_t member; /* rank */
  int write;
  const char *what; /* "send", "recv" */
} weir_coll_range;

struct weir_group {
  weir_transport *transport;
  weir_group_layout layout;
  weir_backend **backends;   /* local_count entries, each retained or NULL */
  weir_transfer *transfers;  /* room for every copy of one generic call */
  size_t transfer_capacity;
  weir_coll_range *ranges;   /* room for every range of one call (validation) */
  size_t range_capacity;
};

/* "weir_allreduce" etc.: the public name of the call, for messages. */
const char *weir_coll_op_name(weir_collective_kind kind);

/* Checks this process's part of a call: arrays, roots, dtype/op, every range
 * inside its chunk and on its member's backend, and no conflicting overlap. */
weir_status weir_coll_validate(weir_group *group, const weir_collective *call);

/* 1 when member `rank`'s allgather send is the in-place form. */
int weir_coll_allgather_in_place(const weir_collective *call, uint32_t local_index,
                                 uint32_t rank);

/* Generic ops over copy_async/wait; need every member in this process. */
weir_status weir_coll_generic_broadcast(weir_transport *self, weir_group *group,
                                        const weir_collective *call);
weir_status weir_coll_generic_scatter(weir_transport *self, weir_group *group,
                                      const weir_collective *call);
weir_status weir_coll_generic_gather(weir_transport *self, weir_group *group,
                                     const weir_collective *call);
weir_status weir_coll_generic_allgather(weir_transport *self, weir_group *group,
                                        const weir_collective *call);
weir_status weir_coll_generic_alltoallv(weir_transport *self, weir_group *group,
                                        const weir_collective *call);
/* Allreduce on the host in pieces that fit `scratch` (>= 2 elements). */
weir_status weir_coll_host_allreduce(weir_group *group, const weir_collective *call,
                                     unsigned char *scratch, uint64_t scratch_bytes);
/* The generic allreduce: host_allreduce with a scratch buffer of its own. */
weir_status weir_coll_generic_allreduce(weir_transport *self, weir_group *group,
                                        const weir_collective *call);

/* acc[i] = acc[i] op in[i] for n elements of dtype (both suitably aligned). */
void weir_coll_combine(void *acc, const void *in, uint64_t n, weir_dtype dtype,
                       weir_reduce_op op);

#endif
