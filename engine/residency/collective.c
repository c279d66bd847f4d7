/* The collectives dispatcher: validate this process's part, agree on it
 * across processes, run the transport's op (or weir's generic one). A
 * transport op for groups spanning processes agrees on its own steps' status
 * (weir_collective_ops). The agreements are what keeps every rank from
 * hanging when one of them fails: nobody enters an exchange another skips. */
#include "engine/residency/collective.h"

static const char *const op_names[] = {"weir_broadcast", "weir_scatter", "weir_gather",
                                       "weir_allgather", "weir_alltoallv", "weir_allreduce"};

const char *weir_coll_op_name(weir_collective_kind kind) {
  return (unsigned)kind < sizeof op_names / sizeof op_names[0] ? op_names[kind]
                                                               : "weir_group_collective";
}

const char *weir_collective_kind_name(weir_collective_kind kind) {
  return (unsigned)kind < sizeof op_names / sizeof op_names[0] ? op_names[kind] + 5 : "unknown";
}

uint32_t weir_dtype_bytes(weir_dtype dtype) {
  switch (dtype) {
  case WEIR_DTYPE_U32: case WEIR_DTYPE_F32: return 4;
  case WEIR_DTYPE_U64: case WEIR_DTYPE_F64: return 8;
  default: return 0;
  }
}

const char *weir_dtype_name(weir_dtype dtype) {
  static const char *const names[] = {"u32", "u64", "f32", "f64"};
  return (unsigned)dtype < 4u ? names[dtype] : "unknown";
}

const char *weir_reduce_op_name(weir_reduce_op op) {
  static const char *const names[] = {"sum", "min", "max"};
  return (unsigned)op < 3u ? names[op] : "unknown";
}

/* The transport's op for `kind`, or the generic one (NULL: none fits). */
static weir_collective_fn pick(const weir_group *g, weir_collective_kind kind) {
  static const weir_collective_fn generic[] = {
      weir_coll_generic_broadcast, weir_coll_generic_scatter,   weir_coll_generic_gather,
      weir_coll_generic_allgather, weir_coll_generic_alltoallv, weir_coll_generic_allreduce};
  const weir_collective_ops *ops = g->transport->ops->collectives;
  weir_collective_fn own = NULL;
  if (ops) {
    const weir_collective_fn mine[] = {ops->broadcast, ops->scatter,   ops->gather,
                                       ops->allgather, ops->alltoallv, ops->allreduce};
    own = mine[kind];
  }
  if (own) return own;
  return g->layout.local_count == g->layout.size ? generic[kind] : NULL;
}

static int spans_processes(const weir_group *g) {
  return g->layout.local_count < g->layout.size;
}

static weir_status agree(weir_group *g, weir_status local, const weir_collective *call) {
  if (!spans_processes(g)) return local;
  return g->transport->ops->collectives->agree(g->transport, g, local, call);
}

weir_status weir_group_collective(weir_group *group, const weir_collective *call) {
  if (!group || !call)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "weir_group_collective: group or call is NULL. Fix: pass both.");
  /* A failed validation (an unknown kind included) still takes part in the
   * agreement, so the other ranks learn of it instead of waiting. */
  WEIR_TRY(agree(group, weir_coll_validate(group, call), call));
  weir_collective_fn fn = pick(group, call->kind);
  /* The same transport everywhere: a missing op is missing on every rank. */
  if (!fn)
    return weir_fail(WEIR_ERR_UNSUPPORTED,
                       "%s: transport \"%s\" implements no %s, and the generic one needs every "
                       "member in this process (this one holds %u of %u). Fix: use a transport "
                       "that implements it (weir_mpi_transport_create) or a local group.",
                       weir_coll_op_name(call->kind), weir_transport_name(group->transport),
                       weir_collective_kind_name(call->kind), group->layout.local_count,
                       group->layout.size);
  return fn(group->transport, group, call);
}

weir_status weir_broadcast(weir_group *group, uint32_t root, const weir_place *places,
                           uint64_t bytes) {
  weir_collective c = {.kind = WEIR_COLLECTIVE_BROADCAST, .root = root, .recv = places,
                       .bytes = bytes};
  return weir_group_collective(group, &c);
}

weir_status weir_scatter(weir_group *group, uint32_t root, const weir_place *send,
                         const weir_place *recv, uint64_t bytes) {
  weir_collective c = {.kind = WEIR_COLLECTIVE_SCATTER, .root = root, .send = send,
                       .recv = recv, .bytes = bytes};
  return weir_group_collective(group, &c);
}

weir_status weir_gather(weir_group *group, uint32_t root, const weir_place *send,
                        const weir_place *recv, uint64_t bytes) {
  weir_collective c = {.kind = WEIR_COLLECTIVE_GATHER, .root = root, .send = send,
                       .recv = recv, .bytes = bytes};
  return weir_group_collective(group, &c);
}

weir_status weir_allgather(weir_group *group, const weir_place *send, const weir_place *recv,
                           uint64_t bytes) {
  weir_collective c = {.kind = WEIR_COLLECTIVE_ALLGATHER, .send = send, .recv = recv,
                       .bytes = bytes};
  return weir_group_collective(group, &c);
}

weir_status weir_alltoallv(weir_group *group, const weir_place *send,
                           const uint64_t *send_counts, const uint64_t *send_displs,
                           const weir_place *recv, const uint64_t *recv_counts,
                           const uint64_t *recv_displs) {
  weir_collective c = {.kind = WEIR_COLLECTIVE_ALLTOALLV, .send = send, .recv = recv,
                       .send_counts = send_counts, .send_displs = send_displs,
                       .recv_counts = recv_counts, .recv_displs = recv_displs};
  return weir_group_collective(group, &c);
}

weir_status weir_allreduce(weir_group *group, const weir_place *send, const weir_place *recv,
                           uint64_t count, weir_dtype dtype, weir_reduce_op op) {
  weir_collective c = {.kind = WEIR_COLLECTIVE_ALLREDUCE, .send = send, .recv = recv,
                       .count = count, .dtype = dtype, .op = op};
  return weir_group_collective(group, &c);
}
