/* weir — residency: chunks, views, replica sets, partitions, transports.
 *
 * Built only on the public dispatch interface (weir.h), so it works with every
 * backend, in-tree or plugin.
 *
 * chunk      one resident buffer + the backend instance that holds it + its
 *            byte size + whether it owns the memory. Reference counted, so that
 *            a DLPack export can keep it alive after its creator lets go.
 * view       a typed window onto a chunk: byte offset, element size, shape
 *            (up to WEIR_VIEW_MAX_DIMS dims, the TRAILING one is the sample
 *            dimension) and strides IN ELEMENTS (as in DLPack).
 * replica    one owning chunk per device of an explicit backend list;
 * set        broadcast() makes every replica a bit-exact copy of a source.
 * partition  {parts, pad_to}: cuts the sample dimension of a view into
 *            `parts` padded blocks, each a view of the same memory.
 * transport  a small vtable (copy, copy_async, wait, destroy) moving bytes
 *            between chunks. The stream transport uses weir_copy within one
 *            backend and a bounded host staging buffer between backends; an
 *            MPI or NCCL transport is another weir_transport_ops table (see
 *            docs/residency.md).
 * group      the members of collectives over one transport: N chunks on N
 *            backends of this process (local), or one per MPI rank; broadcast,
 *            scatter, gather, allgather, alltoallv and allreduce on chunks.
 *
 * Threading: like the backends underneath, these objects are used from one
 * thread at a time. Only the chunk reference count is atomic, so that a DLPack
 * consumer may drop its reference from another thread as long as the backend
 * is not in use concurrently when that drop is the last one.
 *
 * Lifetime: release every chunk (and destroy every replica set) before closing
 * the backend instances they live on. */
#ifndef WEIR_RESIDENCY_H
#define WEIR_RESIDENCY_H

#include "weir/export.h"

#include <stddef.h>
#include <stdint.h>

#include "weir/weir.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- chunks -------------------------------------------------------------- */

typedef struct weir_chunk weir_chunk;

/* A new chunk owning a fresh buffer of `bytes` bytes (>= 1) on `backend`;
 * reference count 1. */
WEIR_API weir_status weir_chunk_allocate(weir_backend *backend, uint64_t bytes, weir_chunk **out);
/* Wraps an existing buffer of `backend`. owns_memory = 1: the chunk frees the
 * buffer when its last reference goes; 0: the caller keeps the buffer and must
 * free it after the chunk is gone. */
WEIR_API weir_status weir_chunk_adopt(weir_backend *backend, weir_buffer buffer, int owns_memory,
                             weir_chunk **out);

/* Called once when the last reference of an external chunk goes, after weir
 * has forgotten the buffer; tells the memory's real owner it may reclaim it. */
typedef void (*weir_chunk_release_fn)(void *context);

/* Wraps memory weir does not own (weir_buffer_import_external) as a
 * non-owning chunk of `bytes` bytes. `on_release` (may be NULL) is called
 * exactly once with `context` when the last reference goes. */
WEIR_API weir_status weir_chunk_import_external(weir_backend *backend, void *pointer, uint64_t bytes,
                                       weir_chunk_release_fn on_release, void *context,
                                       weir_chunk **out);

/* Adds a reference (NULL allowed). */
WEIR_API void weir_chunk_retain(weir_chunk *chunk);
/* Drops a reference (NULL allowed). The last one frees the buffer if the
 * chunk owns it, forgets it if imported, and returns the status of that. */
WEIR_API weir_status weir_chunk_release(weir_chunk *chunk);

WEIR_API weir_backend *weir_chunk_backend(const weir_chunk *chunk);
WEIR_API weir_buffer weir_chunk_buffer(const weir_chunk *chunk);
WEIR_API uint64_t weir_chunk_bytes(const weir_chunk *chunk);
/* 1 when releasing the chunk frees device memory weir allocated. */
WEIR_API int weir_chunk_owns_memory(const weir_chunk *chunk);
/* Current reference count (for tests and diagnostics). */
WEIR_API uint32_t weir_chunk_ref_count(const weir_chunk *chunk);

/* ---- views --------------------------------------------------------------- */

#define WEIR_VIEW_MAX_DIMS 4

/* A view does not hold a reference on its chunk: keep the chunk alive while
 * the view is in use. Element (i0, ..., i{n-1}) lives at byte
 * byte_offset + element_bytes * sum(i_d * strides[d]). ndim 0 is a scalar
 * (and has no sample dimension). Strides are non-negative. */
typedef struct weir_view {
  weir_chunk *chunk;
  uint64_t byte_offset;
  uint32_t element_bytes;
  uint32_t ndim;
  uint64_t shape[WEIR_VIEW_MAX_DIMS];
  uint64_t strides[WEIR_VIEW_MAX_DIMS]; /* in elements */
} weir_view;

/* A compact row-major view (trailing stride 1) of `ndim` dims at
 * `byte_offset`; fails if it does not fit in the chunk. */
WEIR_API weir_status weir_view_make(weir_chunk *chunk, uint64_t byte_offset, uint32_t element_bytes,
                           uint32_t ndim, const uint64_t *shape, weir_view *out);
/* Checks that every element of the view lies inside its chunk. */
WEIR_API weir_status weir_view_validate(const weir_view *view);
/* Elements in the view (product of the shape); 0 if any extent is 0. */
WEIR_API uint64_t weir_view_element_count(const weir_view *view);
/* Byte offset in the chunk of the element at `index` (ndim entries). */
WEIR_API weir_status weir_view_element_offset(const weir_view *view, const uint64_t *index,
                                     uint64_t *out);
/* Bytes from the view's first to one past its last element (0 for an empty
 * view). Needs only element_bytes, ndim, shape and strides (chunk may be NULL). */
WEIR_API weir_status weir_view_span_bytes(const weir_view *view, uint64_t *out);

/* ---- partitions ---------------------------------------------------------- */

#define WEIR_PARTITION_DEFAULT_PAD_TO 32u

typedef struct weir_partition_spec {
  uint64_t parts;  /* >= 1 */
  uint64_t pad_to; /* >= 1; block starts are multiples of it */
} weir_partition_spec;

/* {parts, WEIR_PARTITION_DEFAULT_PAD_TO}. */
WEIR_API weir_partition_spec weir_partition_spec_default(uint64_t parts);

/* round_up(ceil(total / parts), pad_to): samples per full block. */
WEIR_API weir_status weir_padded_block_samples(uint64_t total, weir_partition_spec spec, uint64_t *out);

/* Block `index` (< parts) of the view's sample (trailing) dimension, as a view
 * into the same memory: it starts at index * padded_block_samples and holds
 * the real samples left there, at most padded_block_samples. A block past the
 * end is empty: sample extent 0, byte offset that of the whole view. */
WEIR_API weir_status weir_partition_view(const weir_view *view, weir_partition_spec spec, uint64_t index,
                                weir_view *out);

/* ---- transports ---------------------------------------------------------- */

typedef struct weir_transport weir_transport;

/* A started copy; wait for it with weir_transport_wait. A plain value (no
 * allocation): `backend` is where completion must be awaited (NULL: already
 * complete), `token` is the implementation's own. */
typedef struct weir_transfer {
  weir_transport *transport;
  weir_backend *backend;
  uint64_t token;
} weir_transfer;

/* What an implementation provides. The engine validates the arguments
 * (chunks non-NULL, ranges inside both chunks, no overlap within one chunk,
 * bytes >= 1) before calling copy/copy_async, so implementations only move
 * bytes. */
typedef struct weir_transport_ops {
  const char *name; /* "stream", "mpi", "nccl" */
  weir_status (*copy)(weir_transport *self, weir_chunk *dst, uint64_t dst_offset,
                      weir_chunk *src, uint64_t src_offset, uint64_t bytes);
  /* Starts the copy and fills *out; the caller must not touch the ranges (or
   * the backends, for implementations that say so) until wait returns. */
  weir_status (*copy_async)(weir_transport *self, weir_chunk *dst, uint64_t dst_offset,
                            weir_chunk *src, uint64_t src_offset, uint64_t bytes,
                            weir_transfer *out);
  weir_status (*wait)(weir_transport *self, const weir_transfer *transfer);
  void (*destroy)(weir_transport *self);
  /* Collectives this transport implements itself (see "groups and
   * collectives" below); NULL, or a NULL member: the generic fallback. */
  const struct weir_collective_ops *collectives;
} weir_transport_ops;

/* The common head of every transport; implementations embed it first or
 * point `state` at their own data. */
struct weir_transport {
  const weir_transport_ops *ops;
  void *state;
};

/* Blocking copy of `bytes` bytes: dst[dst_offset..] = src[src_offset..].
 * Complete (readable through any backend call) on return. bytes 0 is a no-op. */
WEIR_API weir_status weir_transport_copy(weir_transport *transport, weir_chunk *dst, uint64_t dst_offset,
                                weir_chunk *src, uint64_t src_offset, uint64_t bytes);
/* Starts the same copy; complete after weir_transport_wait(*out). */
WEIR_API weir_status weir_transport_copy_async(weir_transport *transport, weir_chunk *dst,
                                      uint64_t dst_offset, weir_chunk *src, uint64_t src_offset,
                                      uint64_t bytes, weir_transfer *out);
WEIR_API weir_status weir_transport_wait(const weir_transfer *transfer);
/* NULL allowed. */
WEIR_API void weir_transport_destroy(weir_transport *transport);
WEIR_API const char *weir_transport_name(const weir_transport *transport);

#define WEIR_STREAM_TRANSPORT_DEFAULT_STAGING_BYTES (4u * 1024u * 1024u)

typedef struct weir_stream_transport_options {
  uint64_t staging_bytes; /* host staging buffer; 0: the 4 MiB default */
} weir_stream_transport_options;

/* The stream transport. Within one backend: weir_copy, asynchronous on the
 * device (wait = weir_finish of that backend). Between backends: pieces of at
 * most staging_bytes go download_range_into(staging) -> upload_at_many; this
 * needs the host, so copy_async between backends completes before it returns
 * and its wait is immediate. Collectives on a local group: weir's generic
 * ones over copy_async, except allreduce, which reduces on the host in the
 * staging buffer (per piece: one read-back and one upload per member; see
 * docs/residency.md). options may be NULL. */
WEIR_API weir_status weir_stream_transport_create(const weir_stream_transport_options *options,
                                         weir_transport **out);

/* ---- replica sets -------------------------------------------------------- */

typedef struct weir_replica_set weir_replica_set;

/* One owning chunk of `bytes` bytes on each of backends[0..count). The list
 * is explicit (no discovery); a device may appear only once. */
WEIR_API weir_status weir_replica_set_create(weir_backend *const *backends, size_t count, uint64_t bytes,
                                    weir_replica_set **out);
/* Releases every replica chunk (NULL allowed). */
WEIR_API weir_status weir_replica_set_destroy(weir_replica_set *set);
WEIR_API size_t weir_replica_set_count(const weir_replica_set *set);
WEIR_API uint64_t weir_replica_set_bytes(const weir_replica_set *set);
/* Replica i (borrowed: valid while the set lives; retain it to keep it). */
WEIR_API weir_status weir_replica_set_chunk(const weir_replica_set *set, size_t index, weir_chunk **out);
/* Makes every replica a bit-exact copy of `source` (same byte size; may be a
 * replica itself) through `transport`. Complete on return. */
WEIR_API weir_status weir_replica_set_broadcast(weir_replica_set *set, weir_transport *transport,
                                       weir_chunk *source);

/* ---- groups and collectives ---------------------------------------------- */

/* A group is the set of members a collective runs over, on one transport.
 * Member r (its rank, 0 <= r < size) holds one chunk place per call. A
 * process holds the members first_local .. first_local + local_count - 1:
 * all of them for a local group (N backends of this process, e.g. cpu:0 ..
 * cpu:3), one for an MPI group (weir/mpi/transport.h). Every argument array
 * of a collective has one entry per LOCAL member, in rank order. */
typedef struct weir_group weir_group;

#define WEIR_GROUP_MAX_LOCAL 64u

typedef struct weir_group_layout {
  uint32_t size;        /* members in the whole group (>= 1) */
  uint32_t first_local; /* rank of this process's first member */
  uint32_t local_count; /* members in this process (>= 1) */
} weir_group_layout;

/* A group over `transport` (borrowed: destroy the group first).
 * local_backends: local_count entries or NULL; a member's chunks must live on
 * its backend (a NULL entry skips that check). A group spanning processes
 * (local_count < size) needs a transport with collectives->agree. */
WEIR_API weir_status weir_group_create(weir_transport *transport, const weir_group_layout *layout,
                                       weir_backend *const *local_backends, weir_group **out);
/* All `count` members in this process, member i on backends[i]. */
WEIR_API weir_status weir_group_create_local(weir_transport *transport,
                                             weir_backend *const *backends, uint32_t count,
                                             weir_group **out);
/* NULL allowed. */
WEIR_API void weir_group_destroy(weir_group *group);
WEIR_API uint32_t weir_group_size(const weir_group *group);
WEIR_API uint32_t weir_group_first_local(const weir_group *group);
WEIR_API uint32_t weir_group_local_count(const weir_group *group);
WEIR_API weir_transport *weir_group_transport(const weir_group *group);

/* Every process of the group calls this with the status of its own work
 * (the message is this thread's weir_last_error). Returns WEIR_OK on every
 * process when all were OK; otherwise, on EVERY process, the status of the
 * lowest failing rank and its message prefixed "rank R of N: ", so that all
 * ranks stop together with the same reason. Local groups: returns `local`. */
WEIR_API weir_status weir_group_agree(weir_group *group, weir_status local);

typedef enum weir_dtype {
  WEIR_DTYPE_U32 = 0,
  WEIR_DTYPE_U64 = 1,
  WEIR_DTYPE_F32 = 2,
  WEIR_DTYPE_F64 = 3
} weir_dtype;

typedef enum weir_reduce_op {
  WEIR_REDUCE_SUM = 0,
  WEIR_REDUCE_MIN = 1,
  WEIR_REDUCE_MAX = 2
} weir_reduce_op;

typedef enum weir_collective_kind {
  WEIR_COLLECTIVE_BROADCAST = 0,
  WEIR_COLLECTIVE_SCATTER = 1,
  WEIR_COLLECTIVE_GATHER = 2,
  WEIR_COLLECTIVE_ALLGATHER = 3,
  WEIR_COLLECTIVE_ALLTOALLV = 4,
  WEIR_COLLECTIVE_ALLREDUCE = 5
} weir_collective_kind;

/* Where a member's bytes start: a chunk and a byte offset in it. */
typedef struct weir_place {
  weir_chunk *chunk;
  uint64_t offset;
} weir_place;

/* One collective call. send/recv have local_count entries (rank order);
 * counts and displacements are in BYTES (elements for allreduce's count).
 *   broadcast  recv[i] [offset, +bytes): the root's is the source, every
 *              other member's the destination (send unused).
 *   scatter    the root's send [offset + r*bytes, +bytes) -> member r's recv
 *              [offset, +bytes). Only the root's send entry is read.
 *   gather     member r's send [offset, +bytes) -> the root's recv
 *              [offset + r*bytes, +bytes). Only the root's recv entry is used.
 *   allgather  member r's send [offset, +bytes) -> every member's recv
 *              [offset + r*bytes, +bytes). In place: send == recv + r*bytes.
 *   alltoallv  member i's send [offset + send_displs[i][j], +send_counts[i][j])
 *              -> member j's recv [offset + recv_displs[j][i], +recv_counts[j][i]);
 *              the arrays are local_count x size, row i for local member i,
 *              and send_counts[i][j] must equal member j's recv_counts[.][i].
 *   allreduce  every member's recv [offset, +count elements) = op over all
 *              members' send ranges; in place: send == recv. Integer sums
 *              wrap; float sums are computed in rank order (local) or by MPI.
 * Ranges must lie inside their chunks; within one buffer, no byte is written
 * twice or both written and read (beyond the in-place forms above). */
typedef struct weir_collective {
  weir_collective_kind kind;
  uint32_t root;
  const weir_place *send;
  const weir_place *recv;
  uint64_t bytes;
  uint64_t count;
  weir_dtype dtype;
  weir_reduce_op op;
  const uint64_t *send_counts;
  const uint64_t *send_displs;
  const uint64_t *recv_counts;
  const uint64_t *recv_displs;
} weir_collective;

/* Validates the call (this process's part), agrees on it across processes
 * and runs it: on return the call is complete on every local member
 * (readable through any backend call) and every process got the same status
 * (for a group spanning processes, with the failing rank's message). */
WEIR_API weir_status weir_group_collective(weir_group *group, const weir_collective *call);

WEIR_API weir_status weir_broadcast(weir_group *group, uint32_t root, const weir_place *places,
                                    uint64_t bytes);
WEIR_API weir_status weir_scatter(weir_group *group, uint32_t root, const weir_place *send,
                                  const weir_place *recv, uint64_t bytes);
WEIR_API weir_status weir_gather(weir_group *group, uint32_t root, const weir_place *send,
                                 const weir_place *recv, uint64_t bytes);
WEIR_API weir_status weir_allgather(weir_group *group, const weir_place *send,
                                    const weir_place *recv, uint64_t bytes);
WEIR_API weir_status weir_alltoallv(weir_group *group, const weir_place *send,
                                    const uint64_t *send_counts, const uint64_t *send_displs,
                                    const weir_place *recv, const uint64_t *recv_counts,
                                    const uint64_t *recv_displs);
WEIR_API weir_status weir_allreduce(weir_group *group, const weir_place *send,
                                    const weir_place *recv, uint64_t count, weir_dtype dtype,
                                    weir_reduce_op op);

WEIR_API uint32_t weir_dtype_bytes(weir_dtype dtype); /* 0 for an unknown dtype */
WEIR_API const char *weir_dtype_name(weir_dtype dtype);
WEIR_API const char *weir_reduce_op_name(weir_reduce_op op);
WEIR_API const char *weir_collective_kind_name(weir_collective_kind kind);

/* What a transport may implement. weir has validated the call (this
 * process's part) before calling in. An op left NULL falls back to weir's
 * generic one, built on copy_async/wait (allreduce: a host reduction in
 * bounded pieces), which needs every member in this process; a group
 * spanning processes needs the op and `agree`.
 * agree: the cross-process step of weir_group_agree. `call` (may be NULL)
 * must also match on every process (kind, root, bytes, count, dtype, op);
 * otherwise every process fails naming the values. weir calls it before each
 * collective op, with the validation status. An op for a group spanning
 * processes calls it itself after each fallible local step (before the
 * exchange, so that no process enters it alone, and at the end), so that it
 * returns the same status on every process. */
typedef weir_status (*weir_collective_fn)(weir_transport *self, weir_group *group,
                                          const weir_collective *call);
typedef struct weir_collective_ops {
  weir_collective_fn broadcast, scatter, gather, allgather, alltoallv, allreduce;
  weir_status (*agree)(weir_transport *self, weir_group *group, weir_status local,
                       const weir_collective *call);
} weir_collective_ops;

#ifdef __cplusplus
}
#endif
#endif
