/* Internal to bench/dispatch: the state of built-in scenarios on one backend. */
#ifndef WEIR_BENCH_DISPATCH_SCENARIOS_H
#define WEIR_BENCH_DISPATCH_SCENARIOS_H

#include "bench/dispatch/bench.h"

typedef enum bench_kind {
  BENCH_FENCE,
  BENCH_SEQUENCE,
  BENCH_REPEATED,
  BENCH_UPLOAD_MANY,
  BENCH_UPLOAD_SINGLE,
  BENCH_READBACK,
  BENCH_COPY
} bench_kind;

/* One scenario instance (ranged-readback has one per size). */
typedef struct bench_case {
  bench_kind kind;
  size_t record;     /* index into the results */
  uint64_t items;    /* dispatches / uploads / read-backs / copies per run */
  uint64_t bytes;    /* read-back or copy size */
  uint32_t runs;     /* timed runs taken so far (samples in wall, device) */
  uint64_t *wall;    /* runs samples */
  uint64_t *device;  /* runs samples, dispatch kinds with device time only */
  uint64_t *step_ns; /* per-step times of the latest timed-dispatch run */
  uint64_t trace_start_ns;
  /* host spans of the latest run (absolute host clock): the call [t0, t1),
   * then weir_finish [t1, t2) when one was timed (t2 0 otherwise) */
  uint64_t host_t0, host_t1, host_t2;
  weir_backend_stats stats;
} bench_case;

/* Everything the scenarios of one backend share, allocated once. */
typedef struct bench_state {
  weir_backend *backend;
  const weir_bench_params *params;
  const weir_program *program;
  weir_buffer bindings[WEIR_MAX_BINDINGS];
  uint32_t binding_count;
  uint32_t push[WEIR_BENCH_MAX_PUSH_WORDS];
  uint32_t push_bytes;
  weir_step *steps; /* max dispatches of any case, every one the same step */
  size_t step_count;
  uint64_t repeat;
  weir_buffer *upload_buffers;
  weir_upload_item *upload_items;
  void *upload_data;
  weir_buffer readback_buffer;
  void *readback_host;
  weir_buffer copy_src, copy_dst;
} bench_state;

/* scenarios.c */
weir_status weir_bench_state_init(bench_state *state, weir_backend *backend,
                                  const weir_bench_params *params, int need_dispatch,
                                  int need_upload, int need_readback, int need_copy);
void weir_bench_state_free(bench_state *state);
/* One run of a case: its wall time and counters. */
weir_status weir_bench_case_run(bench_state *state, bench_case *c, uint64_t *wall_ns);
/* weir_finish after a run, its end time in c->host_t2 (the trace's "wait"). */
weir_status weir_bench_case_wait(bench_state *state, bench_case *c);
/* One timed-dispatch run of a dispatch case: the sum of its step times. */
weir_status weir_bench_case_timed(bench_state *state, bench_case *c, uint64_t start_ns,
                                  uint64_t *device_ns);

#endif
