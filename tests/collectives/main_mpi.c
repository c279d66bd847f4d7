/* The collectives conformance suite on the MPI group of MPI_COMM_WORLD; run
 * under mpirun. Check's fork mode is off: forked children cannot use the
 * parent's MPI connection. Every rank runs the same tests in the same order,
 * and the tests' checks are agreed across ranks, so a failure on one rank
 * fails that test on all of them instead of desynchronising the rest. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "tests/collectives/fixture.h"

int main(int argc, char **argv) {
  if (MPI_Init(&argc, &argv) != MPI_SUCCESS) {
    fprintf(stderr, "MPI_Init failed. Fix: run under mpirun (openmpi-bin).\n");
    return EXIT_FAILURE;
  }
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  SRunner *runner = srunner_create(collectives_suite("collectives.mpi"));
  srunner_set_fork_status(runner, CK_NOFORK);
  srunner_run_all(runner, CK_NORMAL);
  int failed = srunner_ntests_failed(runner);
  srunner_free(runner);
  MPI_Finalize();
  if (failed) fprintf(stderr, "rank %d: %d test(s) failed\n", rank, failed);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
