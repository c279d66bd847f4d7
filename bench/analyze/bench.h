/* bench/analyze: the shared types of the real-workload benchmark of
 * `weir analyze` (bench_analyze.c: options; measure.c: one program and
 * analysis, each solver in a child process; child.c: the child helper;
 * report.c: table and JSON). */
#ifndef WEIR_BENCH_ANALYZE_BENCH_H
#define WEIR_BENCH_ANALYZE_BENCH_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "frontends/llvm/frontend.h"

#define BENCH_MAX_SOLVERS 8
#define BENCH_MAX_ANALYSES 3

/* One solver on one problem, measured in its own child process (so a solver
 * that runs past the time limit can be stopped, and its peak RSS is its own). */
typedef struct bench_solver {
  char name[32];
  int ok, same, timed_out;
  char note[200];
  double seconds; /* median of the repeats */
  uint64_t path_edges, holds, digest;
  uint64_t engine_peak_bytes; /* the engine's own figure (0: reference) */
  long maxrss_kb;             /* ru_maxrss of the child: inherited heap (problem) + solve */
  long start_rss_kb;          /* its resident set when it started: maxrss - this = the solve's own growth */
  size_t findings;
} bench_solver;

/* One (program, analysis): the frontend's figures and every solver. Plain
 * data: it travels through a pipe from the child that measured it. */
typedef struct bench_row {
  char program[32];
  char analysis[16];
  int ok;
  char note[400];
  weir_llvm_build_stats build;
  double seconds_load;
  long frontend_maxrss_kb; /* ru_maxrss after build + load, before any solve */
  bench_solver solvers[BENCH_MAX_SOLVERS];
  int solver_count;
} bench_row;

/* A program: one linked module, or several modules linked in process. */
typedef struct bench_program {
  const char *name;
  char **files;
  size_t count;
  const char *config; /* taint configuration (NULL: the defaults) */
} bench_program;

typedef struct bench_options {
  const char *backends; /* NULL: every backend */
  const char *analyses;
  int repeat;
  unsigned solver_timeout;   /* seconds per solver child (all its repeats) */
  unsigned frontend_timeout; /* seconds for build + load of one (program, analysis) */
  unsigned long memory_limit_mb; /* RLIMIT_AS of each (program, analysis) child; 0: none */
} bench_options;

/* "a,b,c" contains `name` (NULL list: everything). */
int bench_listed(const char *list, const char *name);

/* Runs fn(arg, out) in a child process that sends `out` (size bytes of
 * plain data) back; stops it after `timeout` seconds (0: none). Returns 0
 * when the child finished and sent everything, else fills note and returns
 * -1; *timed_out is set when the limit stopped it; *maxrss_kb receives the
 * child's peak RSS. */
int bench_in_child(void (*fn)(void *arg, void *out), void *arg, void *out, size_t size, unsigned timeout,
                   long *maxrss_kb, int *timed_out, char *note, size_t note_size);

/* Measures one (program, analysis) into row (program and analysis filled). */
void bench_measure_row(const bench_program *program, const bench_options *options, bench_row *row);

void bench_print_table(const bench_row *rows, int n, FILE *out);
void bench_write_json(FILE *f, const bench_program *programs, int program_count, const bench_row *rows, int n,
                      const bench_options *options);

#endif
