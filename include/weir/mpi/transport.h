/* weir — the MPI transport: collectives between processes, one group member
 * per MPI rank (weir/residency.h: groups and collectives).
 *
 * Lives in its own library, libweir_mpi (target weir_mpi, CMake: built when
 * find_package(MPI COMPONENTS C) succeeds), so that libweir never depends on
 * MPI: link weir_mpi and MPI::MPI_C only in programs that use it. The header
 * sits in a sub-folder because libweir does not export these functions.
 *
 * Every collective stages through host memory (MPI here is not assumed to be
 * CUDA-aware): the rank's ranges are read back into a buffer the transport
 * keeps (grown to the largest call), exchanged with one MPI call
 * (MPI_Bcast, MPI_Scatter, MPI_Gather, MPI_Allgather, MPI_Alltoallv,
 * MPI_Allreduce), and uploaded. Around the exchange every rank agrees on the
 * call's arguments and on each step's status (weir_group_agree), so an error
 * on any rank ends the collective on every rank with that rank's message
 * instead of a hang. MPI calls use MPI_ERRORS_RETURN on a duplicate of the
 * communicator. */
#ifndef WEIR_MPI_TRANSPORT_H
#define WEIR_MPI_TRANSPORT_H

#include <mpi.h>

#include "weir/residency.h"

#if defined(__GNUC__) || defined(__clang__)
#define WEIR_MPI_API __attribute__((visibility("default")))
#else
#define WEIR_MPI_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* A transport over a duplicate of `comm` (collective over comm: every rank
 * calls it). MPI must be initialized; destroy the transport (also collective)
 * before MPI_Finalize. Its point-to-point copy/copy_async move bytes between
 * chunks of this process (as the stream transport); bytes cross ranks only
 * through collectives. */
WEIR_MPI_API weir_status weir_mpi_transport_create(MPI_Comm comm, weir_transport **out);

/* The group of every rank of the transport's communicator, this rank's member
 * on `backend` (NULL: a rank that has none, e.g. whose backend failed to
 * open; it can still take part in weir_group_agree). Not collective. */
WEIR_MPI_API weir_status weir_mpi_group_create(weir_transport *transport, weir_backend *backend,
                                               weir_group **out);

#ifdef __cplusplus
}
#endif
#endif
