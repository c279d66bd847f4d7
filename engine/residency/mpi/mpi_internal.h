/* Internal to libweir_mpi: the transport record and the pieces its files
 * share. */
#ifndef WEIR_MPI_INTERNAL_H
#define WEIR_MPI_INTERNAL_H

#include "weir/mpi/transport.h"

typedef struct mpi_transport {
  weir_transport base; /* first: the weir_transport * is this struct */
  MPI_Comm comm;       /* our duplicate, MPI_ERRORS_RETURN */
  int rank, size;
  weir_transport *local; /* copies within this process */
  unsigned char *host;   /* staging, grown to the largest call */
  size_t host_bytes;
  /* Per-rank arrays for alltoallv, sized once. */
  int *send_counts, *send_displs, *recv_counts, *recv_displs;
  uint64_t *peer_counts;
  weir_range *ranges;
  void **outputs;
  weir_upload_item *items;
} mpi_transport;

/* The collectives table (mpi_collectives.c) and agree (mpi_agree.c). */
extern const weir_collective_ops weir_mpi_collective_ops;
weir_status weir_mpi_agree(weir_transport *self, weir_group *group, weir_status local,
                           const weir_collective *call);
weir_status weir_mpi_alltoallv(weir_transport *self, weir_group *group,
                               const weir_collective *c);
/* WEIR_OK, or a WEIR_ERR_DEVICE naming the MPI call and MPI's message. */
weir_status weir_mpi_check(int rc, const char *call);

#endif
