/* The fault test's program, under mpirun: every rank opens a backend, the
 * rank named by WEIR_FAULT_RANK opens "bogus" instead (which fails), and all
 * agree on the outcome before any collective. With a fault, every rank must
 * print the failing rank's reason and exit 1, promptly; without one, they run
 * an allreduce and exit 0. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "weir/mpi/transport.h"

static int fail(int rank, const char *step) {
  fprintf(stderr, "weir-mpi-fault: rank %d: %s: %s\n", rank, step, weir_last_error());
  return 1;
}

/* One allreduce of the ranks' numbers; the sum must be size*(size-1)/2. */
static int run_allreduce(weir_group *group, weir_backend *backend, int rank, int size) {
  weir_chunk *chunk = NULL;
  uint32_t mine = (uint32_t)rank, sum = 0;
  weir_status status = weir_chunk_allocate(backend, 4, &chunk);
  if (status == WEIR_OK) status = weir_upload(backend, weir_chunk_buffer(chunk), &mine, 4);
  status = weir_group_agree(group, status);
  weir_place place = {chunk, 0};
  if (status == WEIR_OK)
    status = weir_allreduce(group, &place, &place, 1, WEIR_DTYPE_U32, WEIR_REDUCE_SUM);
  if (status == WEIR_OK)
    status = weir_download_range_into(backend, weir_chunk_buffer(chunk), 0, 4, &sum);
  (void)weir_chunk_release(chunk);
  if (status != WEIR_OK) return fail(rank, "allreduce");
  printf("weir-mpi-fault: rank %d: sum %u\n", rank, sum);
  return sum == (uint32_t)(size * (size - 1) / 2) ? 0 : 1;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1, code = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const char *fault = getenv("WEIR_FAULT_RANK");
  const char *spec = fault && atoi(fault) == rank ? "bogus" : "cpu";
  weir_backend *backend = NULL;
  weir_status opened = weir_backend_open(spec, &backend);
  weir_transport *transport = NULL;
  weir_group *group = NULL;
  if (weir_mpi_transport_create(MPI_COMM_WORLD, &transport) != WEIR_OK ||
      weir_mpi_group_create(transport, backend, &group) != WEIR_OK) {
    code = fail(rank, "setup"); /* local: MPI is broken here, nothing to agree over */
  } else if (weir_group_agree(group, opened) != WEIR_OK) {
    code = fail(rank, "opening the backends");
  } else {
    code = run_allreduce(group, backend, rank, size);
  }
  weir_group_destroy(group);
  weir_transport_destroy(transport);
  weir_backend_close(backend);
  MPI_Finalize();
  return code;
}
