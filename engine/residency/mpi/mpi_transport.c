/* The MPI transport's record: a duplicate of the user's communicator (so our
 * messages never match theirs, and errors return instead of aborting), a
 * stream transport for copies within this process, the host staging buffer
 * and the per-rank arrays alltoallv needs. */
#include <stdlib.h>

#include "engine/residency/mpi/mpi_internal.h"

static weir_status mpi_copy(weir_transport *base, weir_chunk *dst, uint64_t dst_offset,
                            weir_chunk *src, uint64_t src_offset, uint64_t bytes) {
  mpi_transport *t = (mpi_transport *)base;
  return weir_transport_copy(t->local, dst, dst_offset, src, src_offset, bytes);
}

/* The transfer names the inner stream transport, so waiting goes there. */
static weir_status mpi_copy_async(weir_transport *base, weir_chunk *dst, uint64_t dst_offset,
                                  weir_chunk *src, uint64_t src_offset, uint64_t bytes,
                                  weir_transfer *out) {
  mpi_transport *t = (mpi_transport *)base;
  return weir_transport_copy_async(t->local, dst, dst_offset, src, src_offset, bytes, out);
}

static weir_status mpi_wait(weir_transport *base, const weir_transfer *transfer) {
  (void)base;
  return weir_transport_wait(transfer);
}

static void mpi_destroy(weir_transport *base) {
  mpi_transport *t = (mpi_transport *)base;
  int finalized = 1;
  MPI_Finalized(&finalized);
  if (!finalized && t->comm != MPI_COMM_NULL) MPI_Comm_free(&t->comm);
  weir_transport_destroy(t->local);
  free(t->host);
  free(t->send_counts);
  free(t->send_displs);
  free(t->recv_counts);
  free(t->recv_displs);
  free(t->peer_counts);
  free(t->ranges);
  free(t->outputs);
  free(t->items);
  free(t);
}

static const weir_transport_ops mpi_ops = {
    .name = "mpi",
    .copy = mpi_copy,
    .copy_async = mpi_copy_async,
    .wait = mpi_wait,
    .destroy = mpi_destroy,
    .collectives = &weir_mpi_collective_ops,
};

static weir_status allocate_arrays(mpi_transport *t) {
  size_t n = (size_t)t->size;
  t->send_counts = calloc(n, sizeof *t->send_counts);
  t->send_displs = calloc(n, sizeof *t->send_displs);
  t->recv_counts = calloc(n, sizeof *t->recv_counts);
  t->recv_displs = calloc(n, sizeof *t->recv_displs);
  t->peer_counts = calloc(n, sizeof *t->peer_counts);
  t->ranges = calloc(n, sizeof *t->ranges);
  t->outputs = calloc(n, sizeof *t->outputs);
  t->items = calloc(n, sizeof *t->items);
  if (t->send_counts && t->send_displs && t->recv_counts && t->recv_displs && t->peer_counts &&
      t->ranges && t->outputs && t->items)
    return WEIR_OK;
  return weir_fail(WEIR_ERR_OUT_OF_MEMORY,
                   "weir_mpi_transport_create: no host memory for the per-rank arrays of %d "
                   "ranks. Fix: free host memory.",
                   t->size);
}

static weir_status open_comm(mpi_transport *t, MPI_Comm comm) {
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  if (!initialized || finalized)
    return weir_fail(WEIR_ERR_UNAVAILABLE,
                     "weir_mpi_transport_create: MPI is %s. Fix: call MPI_Init before and "
                     "MPI_Finalize after every weir MPI object.",
                     finalized ? "already finalized" : "not initialized");
  WEIR_TRY(weir_mpi_check(MPI_Comm_dup(comm, &t->comm), "weir_mpi_transport_create: MPI_Comm_dup"));
  WEIR_TRY(weir_mpi_check(MPI_Comm_set_errhandler(t->comm, MPI_ERRORS_RETURN),
                          "weir_mpi_transport_create: MPI_Comm_set_errhandler"));
  WEIR_TRY(weir_mpi_check(MPI_Comm_rank(t->comm, &t->rank), "MPI_Comm_rank"));
  return weir_mpi_check(MPI_Comm_size(t->comm, &t->size), "MPI_Comm_size");
}

weir_status weir_mpi_transport_create(MPI_Comm comm, weir_transport **out) {
  if (!out)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "weir_mpi_transport_create: out is NULL. Fix: pass a weir_transport **.");
  *out = NULL;
  mpi_transport *t = calloc(1, sizeof *t);
  if (!t)
    return weir_fail(WEIR_ERR_OUT_OF_MEMORY,
                     "weir_mpi_transport_create: no host memory for the transport record. "
                     "Fix: free host memory.");
  t->base.ops = &mpi_ops;
  t->base.state = t;
  t->comm = MPI_COMM_NULL;
  weir_status status = open_comm(t, comm);
  if (status == WEIR_OK) status = allocate_arrays(t);
  if (status == WEIR_OK) status = weir_stream_transport_create(NULL, &t->local);
  if (status != WEIR_OK) {
    mpi_destroy(&t->base);
    return weir_fail_context(status, "weir_mpi_transport_create");
  }
  *out = &t->base;
  return WEIR_OK;
}

weir_status weir_mpi_group_create(weir_transport *transport, weir_backend *backend,
                                  weir_group **out) {
  if (!transport || transport->ops != &mpi_ops)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "weir_mpi_group_create: transport \"%s\" is not an MPI transport. Fix: "
                     "create it with weir_mpi_transport_create.",
                     weir_transport_name(transport));
  mpi_transport *t = (mpi_transport *)transport;
  weir_group_layout layout = {.size = (uint32_t)t->size, .first_local = (uint32_t)t->rank,
                              .local_count = 1};
  return weir_group_create(transport, &layout, &backend, out);
}
