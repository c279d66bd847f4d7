/* The collectives benchmark (bench.c), run over a group made by
 * main_local.c (N backends of this process, stream transport) or main_mpi.c
 * (one rank per member, MPI transport). */
#ifndef WEIR_BENCH_COLLECTIVES_H
#define WEIR_BENCH_COLLECTIVES_H

#include <stdio.h>

#include "weir/residency.h"

typedef struct bench_options {
  uint64_t sizes[16]; /* bytes per member */
  int size_count;
  int runs;           /* timed runs per case (median reported) */
  const char *json;   /* NULL: no JSON file */
  const char *label;  /* "local 4 x cpu", "mpi 4 ranks" */
  const char *backend; /* --backend SPEC (default "cpu") */
  int members;        /* --members N; 0 on entry: the option is not accepted */
} bench_options;

/* A timing barrier across processes (MPI_Barrier), or NULL for local
 * groups, and the max of a value over processes (NULL: identity). */
typedef struct bench_sync {
  void (*barrier)(void);
  double (*max)(double);
} bench_sync;

/* Parses --backend SPEC, --size BYTES (repeatable), --runs R, --json FILE and,
 * when o->members is nonzero on entry (its default), --members 1..8, in any
 * order. Returns 0; -1 for --help or -h; 2 on a bad or unknown argument,
 * having said why on stderr when print is 1 (MPI: rank 0 only). */
int bench_parse(int argc, char **argv, bench_options *o, int print);
/* Runs allreduce (u32 sum, in place), allgather and alltoallv (even split)
 * for each size; prints a table (print 1) and writes JSON. */
int bench_run(weir_group *group, weir_backend *const *backends, const bench_options *o,
              const bench_sync *sync, int print);

#endif
