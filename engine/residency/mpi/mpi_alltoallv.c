/* MPI alltoallv: the counts are checked against the peers' (one
 * MPI_Alltoall of 8 bytes per rank), the rank's send pieces are read back
 * with ONE ranged download into a packed host buffer, exchanged with
 * MPI_Alltoallv, and the received pieces uploaded with ONE ranged upload. */
#include "engine/residency/mpi/mpi_stage.h"

static const char *const op = "weir_alltoallv";

/* What each peer sends this rank must be what this rank expects. */
static weir_status counts_match(mpi_transport *t, const weir_collective *c) {
  WEIR_TRY(weir_mpi_check(MPI_Alltoall(c->send_counts, 1, MPI_UINT64_T, t->peer_counts, 1,
                                       MPI_UINT64_T, t->comm),
                          "weir_alltoallv: MPI_Alltoall of the counts"));
  for (int j = 0; j < t->size; ++j)
    if (t->peer_counts[j] != c->recv_counts[j])
      return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                       "%s: member %d sends %llu bytes to member %d, which expects %llu. Fix: "
                       "make send_counts[i][j] on rank i equal recv_counts[j][i] on rank j.",
                       op, j, (unsigned long long)t->peer_counts[j], t->rank,
                       (unsigned long long)c->recv_counts[j]);
  return WEIR_OK;
}

/* Packed int counts and displacements; *total is the sum. */
static weir_status pack(const uint64_t *counts, int size, int *out_counts, int *out_displs,
                        uint64_t *total) {
  *total = 0;
  for (int j = 0; j < size; ++j) {
    WEIR_TRY(weir_mpi_as_int(op, "a count", counts[j], &out_counts[j]));
    WEIR_TRY(weir_mpi_as_int(op, "the packed offset", *total, &out_displs[j]));
    *total += counts[j];
  }
  return weir_mpi_as_int(op, "the packed total", *total, &(int){0});
}

static weir_status read_pieces(mpi_transport *t, const weir_collective *c) {
  size_t k = 0;
  weir_chunk *chunk = c->send[0].chunk;
  for (int j = 0; j < t->size; ++j) {
    if (c->send_counts[j] == 0) continue;
    t->ranges[k] = (weir_range){weir_chunk_buffer(chunk), c->send[0].offset + c->send_displs[j],
                                c->send_counts[j]};
    t->outputs[k++] = t->host + t->send_displs[j];
  }
  if (k == 0) return WEIR_OK;
  weir_status status =
      weir_download_ranges_into(weir_chunk_backend(chunk), t->ranges, k, t->outputs, k);
  return status == WEIR_OK ? WEIR_OK
                           : weir_fail_context(status, "%s: staging %zu send pieces", op, k);
}

static weir_status write_pieces(mpi_transport *t, const weir_collective *c, unsigned char *in) {
  size_t k = 0;
  weir_chunk *chunk = c->recv[0].chunk;
  for (int j = 0; j < t->size; ++j) {
    if (c->recv_counts[j] == 0) continue;
    t->items[k++] = (weir_upload_item){weir_chunk_buffer(chunk),
                                       c->recv[0].offset + c->recv_displs[j],
                                       in + t->recv_displs[j], c->recv_counts[j]};
  }
  if (k == 0) return WEIR_OK;
  weir_status status = weir_upload_at_many(weir_chunk_backend(chunk), t->items, k);
  return status == WEIR_OK ? WEIR_OK
                           : weir_fail_context(status, "%s: uploading %zu received pieces", op, k);
}

weir_status weir_mpi_alltoallv(weir_transport *self, weir_group *group,
                               const weir_collective *c) {
  mpi_transport *t = (mpi_transport *)self;
  uint64_t sent = 0, got = 0;
  weir_status st = counts_match(t, c);
  if (st == WEIR_OK) st = pack(c->send_counts, t->size, t->send_counts, t->send_displs, &sent);
  if (st == WEIR_OK) st = pack(c->recv_counts, t->size, t->recv_counts, t->recv_displs, &got);
  if (st == WEIR_OK) st = weir_mpi_reserve(t, op, sent + got);
  if (st == WEIR_OK) st = read_pieces(t, c);
  WEIR_TRY(weir_mpi_agree(self, group, st, NULL));
  unsigned char *in = t->host + sent;
  st = weir_mpi_check(MPI_Alltoallv(t->host, t->send_counts, t->send_displs, MPI_BYTE, in,
                                    t->recv_counts, t->recv_displs, MPI_BYTE, t->comm),
                      "MPI_Alltoallv");
  if (st == WEIR_OK) st = write_pieces(t, c, in);
  return weir_mpi_agree(self, group, st, NULL);
}
