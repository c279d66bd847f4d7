/* weir_bench_collectives_mpi: the collectives benchmark on the MPI group,
 * one "cpu" member per rank.
 *
 *   mpirun -n 4 weir_bench_collectives_mpi [--backend cpu] [--size BYTES]...
 *                                          [--runs R] [--json FILE]
 *
 * Rank 0 prints and writes the JSON; each run's time is the slowest rank's. */
#include <mpi.h>

#include "bench/collectives/bench.h"
#include "weir/mpi/transport.h"

static void barrier(void) { MPI_Barrier(MPI_COMM_WORLD); }

static double max_time(double t) {
  double m = t;
  MPI_Allreduce(&t, &m, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return m;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  bench_options o = {0};
  int parsed = bench_parse(argc, argv, &o, rank == 0), code = 2;
  const char *spec = o.backend;
  char label[64];
  snprintf(label, sizeof label, "mpi %d ranks x %s", size, spec);
  o.label = label;
  if (parsed != 0) {
    if (rank == 0) fprintf(parsed < 0 ? stdout : stderr, "usage: mpirun -n N "
                           "weir_bench_collectives_mpi [--backend cpu] [--size BYTES]... "
                           "[--runs R] [--json FILE]\n");
    if (parsed < 0) code = 0;
  } else {
    weir_backend *b = NULL;
    weir_transport *t = NULL;
    weir_group *g = NULL;
    weir_status opened = weir_backend_open(spec, &b);
    weir_status st = weir_mpi_transport_create(MPI_COMM_WORLD, &t);
    if (st == WEIR_OK) st = weir_mpi_group_create(t, b, &g);
    if (st == WEIR_OK) st = weir_group_agree(g, opened);
    code = st == WEIR_OK ? bench_run(g, &b, &o, &(bench_sync){barrier, max_time}, rank == 0) : 1;
    if (st != WEIR_OK) fprintf(stderr, "rank %d: %s\n", rank, weir_last_error());
    weir_group_destroy(g);
    weir_transport_destroy(t);
    weir_backend_close(b);
  }
  MPI_Finalize();
  return code;
}
