/* `weir bench`: dispatch benchmarks and user-described sequences.
 *
 * A static library linked into the `weir` command (tools/cmd_bench.c parses
 * the command line). A benchmark produces records, one per scenario x
 * backend, each carrying its parameters and its figures; the reporters turn
 * records into a table, JSON and a Chrome trace. Benchmarks never assert
 * timings: they measure and print. */
#ifndef WEIR_BENCH_DISPATCH_BENCH_H
#define WEIR_BENCH_DISPATCH_BENCH_H

#include <stdint.h>
#include <stdio.h>

#include "weir/weir.h"

#define WEIR_BENCH_MAX_PUSH_WORDS (WEIR_MAX_PUSH_CONSTANT_BYTES / 4)
#define WEIR_BENCH_MAX_BACKENDS 16

/* Bounds of the runs a time budget picks (min_time_s, runs 0). */
#define WEIR_BENCH_MIN_RUNS 3
#define WEIR_BENCH_MAX_RUNS 1000

/* Knobs of the built-in scenarios (defaults: weir_bench_default_params). */
typedef struct weir_bench_params {
  /* runs 0 (the default): a time budget. Each scenario runs on its own, one
   * after the other: `warmup` untimed runs, one timed run, then as many more
   * as make min_time_s of timed work (the timed-dispatch run of device time
   * included), WEIR_BENCH_MIN_RUNS to WEIR_BENCH_MAX_RUNS in all. runs N:
   * exactly N timed runs, each after `warmup` untimed ones, interleaved
   * across the scenarios (clock drift hits every scenario alike). */
  uint32_t warmup, runs;
  double min_time_s;     /* seconds of timed runs per scenario when runs is 0 */
  uint64_t steps;        /* dispatches per fence-per-dispatch / sequence run */
  uint64_t group;        /* steps in the repeated group */
  uint64_t repeat;       /* times the group repeats (0: steps / group) */
  const char *program;   /* built-in program dispatched (by name) */
  /* A program loaded from a file (--program FILE); overrides `program`. */
  const weir_program *user_program;
  int verify; /* compare the bindings after one dispatch across backends */
  weir_grid grid;        /* {0,0,0}: the program's default */
  uint64_t buffer_bytes; /* size of each buffer the program binds */
  uint32_t push[WEIR_BENCH_MAX_PUSH_WORDS];
  uint32_t push_words;                 /* 0: derived from the program (see scenarios.c) */
  uint64_t upload_bytes;               /* per buffer in upload-many / upload-single */
  uint64_t upload_count;               /* buffers per upload run */
  uint64_t readback_min, readback_max; /* ranged-readback sizes: min, x16, ... max */
  uint64_t copy_bytes;
  int device_time; /* also run timed dispatch for dispatch scenarios */
  /* One line per scenario as it completes (weir_bench_print_line), flushed;
   * NULL: none. */
  FILE *lines;
} weir_bench_params;

/* The scenarios that run when none are named: the three that dispatch the
 * program (a kernel measured in seconds); the transfers (upload, read-back,
 * copy) join with every scenario (scenarios NULL, --all-scenarios). */
extern const char weir_bench_default_scenarios[];

void weir_bench_default_params(weir_bench_params *out);
/* Checks the knobs and that `program` is a built-in program taking the given
 * push words; the CLI calls it before running anything. */
weir_status weir_bench_check_params(const weir_bench_params *params);

typedef struct weir_bench_summary {
  uint64_t median, min, max;
} weir_bench_summary;

/* One scenario on one backend. Counters are those of one timed run. */
typedef struct weir_bench_record {
  char scenario[64];
  char backend[16], spec[48], device[128];
  int timestamps_are_device;
  /* parameters */
  char program[64];
  uint64_t steps, group, repeat, bytes, count;
  weir_grid grid;
  uint32_t warmup, runs;
  /* figures */
  const char *item; /* what `items` counts: "dispatch", "upload", "readback", "copy" */
  uint64_t items;   /* per run */
  weir_bench_summary wall_ns;
  int has_device;
  weir_bench_summary device_ns; /* sum of per-step times of a timed dispatch run */
  weir_backend_stats stats;     /* of the last timed run */
  char ratio_to[64];            /* "" when none */
  double ratio;                 /* per-item median of this / per-item median of ratio_to */
  int verified;                 /* -1 not checked, 0 mismatch, 1 equal to the reference */
  char driver[128];             /* weir_device_info.driver */
  /* every timed run's sample, in run order (owned; device_samples NULL without device time) */
  uint64_t *wall_samples, *device_samples;
  /* per-step device spans of the last timed dispatch run, for --trace */
  uint64_t trace_start_ns;  /* host clock at the start of that run, from bench start */
  uint64_t *trace_ns;       /* trace_count per-step times (owned) */
  const char **trace_names; /* trace_count span names (owned array) */
  char *trace_name_storage; /* the names, when they are not program names (owned) */
  size_t trace_count;
  uint64_t trace_step_bytes; /* bytes of each buffer a traced step binds, for the span names (0: none) */
  /* host spans of one timed call, for --trace: the call itself ("submit": the
   * dispatch, upload, read-back...) and the weir_finish that follows it
   * ("wait"). The device-timed run where there is one (next to its device
   * spans), else the last timed run. has_host 0: none recorded. */
  int has_host;
  uint64_t host_start_ns; /* host clock at the call, from bench start */
  uint64_t host_submit_ns, host_wait_ns;
} weir_bench_record;

/* The bindings after one verification dispatch (verify.c): the first backend
 * to finish one (cpu first when the program has host code) is the reference. */
typedef struct weir_bench_verify {
  void *reference[WEIR_MAX_BINDINGS];
  uint32_t count;
  uint64_t bytes;
  char spec[48]; /* the reference's backend spec; "" until there is one */
} weir_bench_verify;

typedef struct weir_bench_results {
  weir_bench_record *records;
  size_t count, capacity;
  uint64_t start_ns; /* host clock when the benchmark started */
  weir_bench_verify verify;
} weir_bench_results;

weir_status weir_bench_results_add(weir_bench_results *results, weir_bench_record **out);
/* Frees what a record owns (trace, samples). */
void weir_bench_record_release(weir_bench_record *record);
/* A malloc'ed copy of `count` samples (NULL when count is 0 or memory ran out:
 * the JSON then has no samples for that record). */
uint64_t *weir_bench_samples_copy(const uint64_t *samples, size_t count);
void weir_bench_results_free(weir_bench_results *results);

/* Names of the built-in scenarios, for --scenario and --help. */
extern const char *const weir_bench_scenario_names[];
/* Checks a comma-separated scenario list against the names. */
weir_status weir_bench_check_scenarios(const char *list);

/* Runs the built-in scenarios named in `scenarios` (comma-separated; NULL: all)
 * on backend `spec`, appending records. Runs are interleaved across scenarios
 * so that clock drift hits every scenario alike. `progress` may be NULL. */
weir_status weir_bench_run_scenarios(const char *spec, const char *scenarios,
                                     const weir_bench_params *params, weir_bench_results *results,
                                     FILE *progress);

/* ---- sequence files (seqfile.c, seqrun.c; format in bench/README.md) ---- */

typedef struct weir_bench_seqfile weir_bench_seqfile;

weir_status weir_bench_seqfile_load(const char *path, weir_bench_seqfile **out);
/* The same from memory (`name` stands for the file in messages; `file` lines
 * are read relative to the current directory). `max_bytes` bounds the bytes
 * of all buffers the file declares (0: this machine's physical memory, the
 * bound of weir_bench_seqfile_load). For tests and the fuzzer. */
weir_status weir_bench_seqfile_parse(const char *name, const char *text, size_t length,
                                     uint64_t max_bytes, weir_bench_seqfile **out);
void weir_bench_seqfile_free(weir_bench_seqfile *file);

/* Runs the file once on the cpu backend and keeps its read-backs as the
 * reference that later runs are verified against. */
weir_status weir_bench_seqfile_reference(weir_bench_seqfile *file);

/* Runs the file on `spec`: one verified run (against the reference, when one
 * was made), then warmup + runs timed runs and one timed-dispatch run for the
 * per-step device times. Appends one record. */
weir_status weir_bench_seqfile_run(weir_bench_seqfile *file, const char *spec, uint32_t warmup,
                                   uint32_t runs, weir_bench_results *results, FILE *progress);

/* ---- verification of a program's results across backends (verify.c) ----- */

/* Fills every binding with a pattern (32-bit word i = i + 0x01000000 * binding),
 * dispatches the step once and compares the bindings with the reference, or
 * makes them the reference. *verified: 1 equal, 0 different (the first
 * differing word is printed on `progress`), -1 this is the reference. */
weir_status weir_bench_verify_step(weir_backend *backend, const weir_step *step,
                                   uint64_t buffer_bytes, weir_bench_results *results,
                                   FILE *progress, int *verified);

/* Runs the reference of --verify on the cpu backend (programs with host code). */
weir_status weir_bench_verify_reference(const weir_bench_params *params,
                                        weir_bench_results *results);

/* ---- comparing two JSON reports (compare.c) -------------------------------- */

/* `weir bench compare OLD.json NEW.json`: per-scenario ratios of per-item
 * medians, with a noise estimate from the raw samples. Returns the exit code. */
int weir_bench_compare(const char *old_path, const char *new_path, double threshold, FILE *out);

/* ---- output (report.c) --------------------------------------------------- */

void weir_bench_print_table(const weir_bench_results *results, FILE *out);
/* One record as one line: "sequence on vulkan:0: scale_u32 x1000, 7 runs:
 * median 48.93 ms, 48.93 us per dispatch, device 95.38 us". */
void weir_bench_print_line(const weir_bench_record *record, FILE *out);
/* The writers only format: the caller opens the stream and checks the writes
 * (tools/output.h writes through a temporary file and renames into place). */
void weir_bench_write_json(const weir_bench_results *results, const char *command, FILE *out);
void weir_bench_write_trace(const weir_bench_results *results, FILE *out);
/* The "context" member of the JSON (context.c): date, host, OS, CPU, memory,
 * weir version and commit, build, the environment variables that change
 * figures (LP_NUM_THREADS, VK_DRIVER_FILES, ...). */
void weir_bench_write_context(FILE *out, void (*json_string)(FILE *, const char *));

/* ---- measurement helpers (measure.c) --------------------------------------- */

uint64_t weir_bench_now_ns(void);
/* Sorts `samples` in place and summarises them. count >= 1. */
weir_bench_summary weir_bench_summarise(uint64_t *samples, size_t count);
/* Parses "4096", "64K", "16MiB", "1G"; WEIR_ERR_PARSE naming `what` otherwise. */
weir_status weir_bench_parse_size(const char *text, const char *what, uint64_t *out);
/* "4 B", "64 KiB", "4 MiB", "1.5 GiB" (for span names). */
const char *weir_bench_format_size(char *buf, size_t n, uint64_t bytes);
/* Parses a decimal or 0x-hex u32. */
weir_status weir_bench_parse_u32(const char *text, const char *what, uint32_t *out);

#endif
