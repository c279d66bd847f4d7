/* `weir solve`: the parts shared by the weir command (cmd_solve.c) and the
 * MPI runner it executes for --mpi (weir-solve-mpi, solve_mpi.c, built only
 * when MPI was found, so that neither libweir nor the weir command links MPI). */
#ifndef WEIR_TOOLS_SOLVE_H
#define WEIR_TOOLS_SOLVE_H

#include <stddef.h>
#include <stdio.h>

#include "weir/ifds.h"

/* At most this many devices in one --backend list (weir_ifds_solve_engine_multi). */
#define WEIR_SOLVE_MAX_DEVICES 64
/* The --backend list's text, commas and all. */
#define WEIR_SOLVE_LIST_BYTES 8192

typedef struct weir_solve_args {
  const char *problem, *result, *solver, *backend, *stats;
  int strict, progress, mpi;
  /* --backend split at its commas: device_count >= 1 specs (pointers into
   * list). More than one: one solve across those devices (the engine);
   * with --mpi: element r is rank r's device. */
  size_t device_count;
  const char *devices[WEIR_SOLVE_MAX_DEVICES];
  char list[WEIR_SOLVE_LIST_BYTES];
} weir_solve_args;

void weir_solve_usage(FILE *out);
/* Parses `weir solve` arguments (argv[0] is the command's name). 0 on
 * success; -1 after printing the reason and a Fix to stderr (unless quiet):
 * exit code 2. */
int weir_solve_parse(int argc, char **argv, weir_solve_args *a, int quiet);

/* Progress lines (tools/cmd_solve.c): a live line on a terminal, or one line
 * per update with --progress. */
typedef struct weir_solve_progress {
  double start, last;
  int shown, lines;
} weir_solve_progress;
void weir_solve_on_progress(void *user, uint64_t iterations, uint64_t path_edges);
void weir_solve_on_phase(void *user, const char *phase, double seconds);
void weir_solve_progress_done(weir_solve_progress *p);

/* Whether -o and --stats can be created (before loading and solving). */
weir_status weir_solve_probe_outputs(const weir_solve_args *a);
/* Writes the result (-o, else standard output) and --stats through temporary
 * files renamed into place once both are complete. */
weir_status weir_solve_write_outputs(const weir_solve_args *a, const weir_ifds_result *result,
                                     const weir_ifds_stats *stats, const char *backend_id,
                                     double seconds_load);
/* The one-line summary; engine runs add the figures of a resident solve,
 * solves across devices those of the exchanges. */
void weir_solve_print_summary(FILE *out, const weir_solve_args *a, const weir_ifds_problem *problem,
                              const weir_ifds_result *result, const weir_ifds_stats *st,
                              const char *backend_id, double seconds_load, double seconds_total);
/* weir_ifds_problem.warnings on stderr, one line each. */
void weir_solve_print_warnings(const char *path, const weir_ifds_problem *problem);

/* The exit code of a failed load (2: bad or missing file) and of a failure
 * after it (2: a bad argument such as an unknown backend; 1: the rest). */
int weir_solve_load_exit_code(weir_status status);
int weir_solve_exit_code(weir_status status);

/* The MPI runner's main (solve_mpi.c); argv as weir_solve_parse takes it. */
int weir_solve_mpi_main(int argc, char **argv);

#endif
