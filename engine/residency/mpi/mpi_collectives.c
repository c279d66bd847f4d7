/* The MPI collectives: each stages this rank's bytes on the host, agrees
 * (so that nobody enters the exchange alone when a rank failed to stage),
 * makes one MPI call, uploads, and agrees on the outcome. weir has validated
 * this rank's arguments and agreed on the call's signature before. */
#include "engine/residency/mpi/mpi_stage.h"

#define AGREE(status) weir_mpi_agree(self, group, (status), NULL)

static int is_root(const mpi_transport *t, const weir_collective *c) {
  return t->rank == (int)c->root;
}

static weir_status mpi_broadcast(weir_transport *self, weir_group *group,
                                 const weir_collective *c) {
  mpi_transport *t = (mpi_transport *)self;
  const char *op = "weir_broadcast";
  int n = 0;
  weir_status st = weir_mpi_as_int(op, "bytes", c->bytes, &n);
  if (st == WEIR_OK) st = weir_mpi_reserve(t, op, c->bytes);
  if (st == WEIR_OK && is_root(t, c)) st = weir_mpi_read(op, c->recv[0], 0, c->bytes, t->host);
  WEIR_TRY(AGREE(st));
  st = weir_mpi_check(MPI_Bcast(t->host, n, MPI_BYTE, (int)c->root, t->comm), "MPI_Bcast");
  if (st == WEIR_OK && !is_root(t, c)) st = weir_mpi_write(op, c->recv[0], 0, c->bytes, t->host);
  return AGREE(st);
}

/* The root's whole range (size * bytes) sits first, this rank's piece after. */
static weir_status mpi_scatter(weir_transport *self, weir_group *group,
                               const weir_collective *c) {
  mpi_transport *t = (mpi_transport *)self;
  const char *op = "weir_scatter";
  uint64_t all = is_root(t, c) ? c->bytes * (uint64_t)t->size : 0; /* validated */
  int n = 0;
  weir_status st = weir_mpi_as_int(op, "bytes", c->bytes, &n);
  if (st == WEIR_OK) st = weir_mpi_reserve(t, op, all + c->bytes);
  if (st == WEIR_OK && is_root(t, c)) st = weir_mpi_read(op, c->send[0], 0, all, t->host);
  WEIR_TRY(AGREE(st));
  unsigned char *mine = t->host + all;
  st = weir_mpi_check(MPI_Scatter(t->host, n, MPI_BYTE, mine, n, MPI_BYTE, (int)c->root, t->comm),
                      "MPI_Scatter");
  if (st == WEIR_OK) st = weir_mpi_write(op, c->recv[0], 0, c->bytes, mine);
  return AGREE(st);
}

static weir_status mpi_gather(weir_transport *self, weir_group *group, const weir_collective *c) {
  mpi_transport *t = (mpi_transport *)self;
  const char *op = "weir_gather";
  uint64_t all = is_root(t, c) ? c->bytes * (uint64_t)t->size : 0;
  int n = 0;
  weir_status st = weir_mpi_as_int(op, "bytes", c->bytes, &n);
  if (st == WEIR_OK) st = weir_mpi_reserve(t, op, c->bytes + all);
  if (st == WEIR_OK) st = weir_mpi_read(op, c->send[0], 0, c->bytes, t->host);
  WEIR_TRY(AGREE(st));
  unsigned char *gathered = t->host + c->bytes;
  st = weir_mpi_check(MPI_Gather(t->host, n, MPI_BYTE, gathered, n, MPI_BYTE, (int)c->root,
                                 t->comm),
                      "MPI_Gather");
  if (st == WEIR_OK && is_root(t, c)) st = weir_mpi_write(op, c->recv[0], 0, all, gathered);
  return AGREE(st);
}

static weir_status mpi_allgather(weir_transport *self, weir_group *group,
                                 const weir_collective *c) {
  mpi_transport *t = (mpi_transport *)self;
  const char *op = "weir_allgather";
  uint64_t all = c->bytes * (uint64_t)t->size, at = c->bytes * (uint64_t)t->rank;
  int in_place = c->send[0].chunk == c->recv[0].chunk && c->send[0].offset == c->recv[0].offset + at;
  weir_place own = in_place ? c->recv[0] : c->send[0];
  int n = 0;
  weir_status st = weir_mpi_as_int(op, "bytes", c->bytes, &n);
  if (st == WEIR_OK) st = weir_mpi_reserve(t, op, all);
  if (st == WEIR_OK) st = weir_mpi_read(op, own, in_place ? at : 0, c->bytes, t->host + at);
  WEIR_TRY(AGREE(st));
  st = weir_mpi_check(MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, t->host, n, MPI_BYTE,
                                    t->comm),
                      "MPI_Allgather");
  if (st == WEIR_OK) st = weir_mpi_write(op, c->recv[0], 0, all, t->host);
  return AGREE(st);
}

static MPI_Datatype mpi_type(weir_dtype dtype) {
  switch (dtype) {
  case WEIR_DTYPE_U32: return MPI_UINT32_T;
  case WEIR_DTYPE_U64: return MPI_UINT64_T;
  case WEIR_DTYPE_F32: return MPI_FLOAT;
  default: return MPI_DOUBLE;
  }
}

static MPI_Op mpi_op(weir_reduce_op op) {
  return op == WEIR_REDUCE_SUM ? MPI_SUM : op == WEIR_REDUCE_MIN ? MPI_MIN : MPI_MAX;
}

static weir_status mpi_allreduce(weir_transport *self, weir_group *group,
                                 const weir_collective *c) {
  mpi_transport *t = (mpi_transport *)self;
  const char *op = "weir_allreduce";
  uint64_t bytes = c->count * weir_dtype_bytes(c->dtype); /* validated */
  int n = 0;
  weir_status st = weir_mpi_as_int(op, "count", c->count, &n);
  if (st == WEIR_OK) st = weir_mpi_reserve(t, op, bytes);
  if (st == WEIR_OK) st = weir_mpi_read(op, c->send[0], 0, bytes, t->host);
  WEIR_TRY(AGREE(st));
  st = weir_mpi_check(MPI_Allreduce(MPI_IN_PLACE, t->host, n, mpi_type(c->dtype), mpi_op(c->op),
                                    t->comm),
                      "MPI_Allreduce");
  if (st == WEIR_OK) st = weir_mpi_write(op, c->recv[0], 0, bytes, t->host);
  return AGREE(st);
}

const weir_collective_ops weir_mpi_collective_ops = {
    .broadcast = mpi_broadcast,
    .scatter = mpi_scatter,
    .gather = mpi_gather,
    .allgather = mpi_allgather,
    .alltoallv = weir_mpi_alltoallv,
    .allreduce = mpi_allreduce,
    .agree = weir_mpi_agree,
};
