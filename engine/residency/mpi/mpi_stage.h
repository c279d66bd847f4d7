/* Host staging of the MPI collectives: the transport's growable buffer and
 * ranged reads/writes of one place, with messages that name the call. */
#ifndef WEIR_MPI_STAGE_H
#define WEIR_MPI_STAGE_H

#include "engine/residency/mpi/mpi_internal.h"

/* Makes t->host hold at least `bytes` bytes (kept for later calls). */
weir_status weir_mpi_reserve(mpi_transport *t, const char *op, uint64_t bytes);
/* MPI counts are int: refuses values above INT_MAX. */
weir_status weir_mpi_as_int(const char *op, const char *what, uint64_t value, int *out);
/* [place.offset + rel, +bytes) of the place's chunk into / from host memory
 * (no-ops for 0 bytes). */
weir_status weir_mpi_read(const char *op, weir_place place, uint64_t rel, uint64_t bytes,
                          void *into);
weir_status weir_mpi_write(const char *op, weir_place place, uint64_t rel, uint64_t bytes,
                           const void *from);

#endif
