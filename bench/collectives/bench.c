/* weir collectives benchmark: median wall time per call and bandwidth
 * (bytes per member / time, as nccl-tests' "algbw") of allreduce, allgather
 * and alltoallv, for each size. Each case: one warm-up call, then --runs
 * timed calls, each between barriers; under MPI a run's time is the slowest
 * rank's. */
#include "bench/collectives/bench.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAXL WEIR_GROUP_MAX_LOCAL
enum { KINDS = 3 };
static const char *const kind_names[KINDS] = {"allreduce_u32_sum", "allgather", "alltoallv"};

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* A whole positive number (decimal or 0x-hex) up to max; 0 when it is not one. */
static unsigned long long parse_count(const char *text, unsigned long long max) {
  char *end = NULL;
  errno = 0;
  unsigned long long v = strtoull(text, &end, 0);
  if (errno || !end || *end || text[0] < '0' || text[0] > '9' || v > max) return 0;
  return v;
}

int bench_parse(int argc, char **argv, bench_options *o, int print) {
  o->runs = 7;
  o->size_count = 0;
  if (!o->backend) o->backend = "cpu";
  int members_ok = o->members > 0;
  for (int k = 1; k < argc; ++k)
    if (!strcmp(argv[k], "--help") || !strcmp(argv[k], "-h")) return -1;
  for (int i = 1; i < argc; ++i) {
    const char *opt = argv[i];
    int known = !strcmp(opt, "--size") || !strcmp(opt, "--runs") || !strcmp(opt, "--json") ||
                !strcmp(opt, "--backend") || (members_ok && !strcmp(opt, "--members"));
    if (!known) {
      if (print)
        fprintf(stderr, "unknown argument '%s'. Fix: see --help for the options.\n", opt);
      return 2;
    }
    if (i + 1 >= argc) {
      if (print) fprintf(stderr, "%s needs a value. Fix: e.g. %s %s.\n", opt, opt,
                         !strcmp(opt, "--json") ? "out.json" : !strcmp(opt, "--backend") ? "cpu"
                         : !strcmp(opt, "--size") ? "4096" : "4");
      return 2;
    }
    const char *v = argv[++i];
    if (!strcmp(opt, "--size")) {
      /* At least one u32 element: a size that rounds down to 0 bytes measures nothing. */
      uint64_t n = parse_count(v, UINT64_MAX / 8);
      if (n < 4 || o->size_count == 16) {
        if (print)
          fprintf(stderr, n < 4 ? "--size '%s' is not a byte count of at least 4. Fix: e.g. "
                                  "--size 4096.\n"
                                : "--size '%s': more than 16 sizes. Fix: give at most 16.\n", v);
        return 2;
      }
      o->sizes[o->size_count++] = n;
    } else if (!strcmp(opt, "--runs")) {
      o->runs = (int)parse_count(v, 1000000);
      if (o->runs < 1) {
        if (print)
          fprintf(stderr, "--runs '%s' is not a count in 1..1000000. Fix: e.g. --runs 7.\n", v);
        return 2;
      }
    } else if (!strcmp(opt, "--json")) {
      o->json = v;
    } else if (!strcmp(opt, "--backend")) {
      o->backend = v;
    } else {
      o->members = (int)parse_count(v, 8);
      if (o->members < 1) {
        if (print)
          fprintf(stderr, "--members '%s' is not a count in 1..8. Fix: e.g. --members 4.\n", v);
        return 2;
      }
    }
  }
  if (o->size_count == 0) {
    const uint64_t defaults[] = {4096, 262144, 4194304, 16777216};
    memcpy(o->sizes, defaults, sizeof defaults);
    o->size_count = 4;
  }
  return 0;
}

static int by_value(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* Per-call arguments for one kind and size, on chunks of 2 x bytes per member
 * (send half, recv half; allgather's recv spans size x piece). */
typedef struct bench_case {
  weir_place send[MAXL], recv[MAXL];
  uint64_t *counts, *displs; /* alltoallv: local x size, shared by send and recv */
  uint64_t piece;            /* allgather / alltoallv bytes per peer */
} bench_case;

static weir_status run_once(weir_group *g, int kind, uint64_t bytes, bench_case *c) {
  switch (kind) {
  case 0: return weir_allreduce(g, c->recv, c->recv, bytes / 4, WEIR_DTYPE_U32, WEIR_REDUCE_SUM);
  case 1: return weir_allgather(g, c->send, c->recv, c->piece);
  default: return weir_alltoallv(g, c->send, c->counts, c->displs, c->recv, c->counts, c->displs);
  }
}

static double median_time(weir_group *g, int kind, uint64_t bytes, bench_case *c,
                          const bench_options *o, const bench_sync *s, weir_status *status) {
  double *t = calloc((size_t)o->runs, sizeof *t);
  *status = t ? run_once(g, kind, bytes, c) : WEIR_ERR_OUT_OF_MEMORY; /* warm-up */
  for (int r = 0; r < o->runs && *status == WEIR_OK; ++r) {
    if (s->barrier) s->barrier();
    double start = now();
    *status = run_once(g, kind, bytes, c);
    t[r] = now() - start;
    if (s->max) t[r] = s->max(t[r]);
  }
  double median = 0;
  if (*status == WEIR_OK) {
    qsort(t, (size_t)o->runs, sizeof *t, by_value);
    median = t[o->runs / 2];
  }
  free(t);
  return median;
}

static weir_status make_case(weir_group *g, weir_backend *const *b, uint64_t bytes,
                             weir_chunk **chunks, bench_case *c) {
  uint32_t n = weir_group_size(g), local = weir_group_local_count(g);
  c->piece = bytes / n ? bytes / n : 1;
  c->counts = calloc((size_t)local * n * 2, sizeof *c->counts);
  if (!c->counts)
    return weir_fail(WEIR_ERR_OUT_OF_MEMORY, "bench: no host memory for the counts. Fix: free "
                     "host memory.");
  c->displs = c->counts + (size_t)local * n;
  for (uint32_t i = 0; i < local; ++i) {
    for (uint32_t j = 0; j < n; ++j) {
      c->counts[i * n + j] = c->piece;
      c->displs[i * n + j] = j * c->piece;
    }
    uint64_t half = bytes > c->piece * n ? bytes : c->piece * n;
    WEIR_TRY(weir_chunk_allocate(b[i], 2 * half, &chunks[i]));
    c->send[i] = (weir_place){chunks[i], 0};
    c->recv[i] = (weir_place){chunks[i], half};
  }
  return WEIR_OK;
}

static void free_case(weir_chunk **chunks, uint32_t local, bench_case *c) {
  for (uint32_t i = 0; i < local; ++i) (void)weir_chunk_release(chunks[i]);
  free(c->counts);
}

static void json_row(FILE *json, const bench_options *o, int first, int kind, uint64_t bytes,
                     double median) {
  if (!json) return;
  fprintf(json, "%s    {\"label\": \"%s\", \"op\": \"%s\", \"bytes_per_member\": %llu, "
          "\"runs\": %d, \"median_s\": %.9f, \"algbw_gbps\": %.4f}",
          first ? "" : ",\n", o->label, kind_names[kind], (unsigned long long)bytes, o->runs,
          median, (double)bytes / median / 1e9);
}

int bench_run(weir_group *g, weir_backend *const *b, const bench_options *o,
              const bench_sync *s, int print) {
  FILE *json = print && o->json ? fopen(o->json, "w") : NULL;
  /* Rank 0 must not leave early (the other ranks would wait in the next
   * collective): it measures on and fails at the end. */
  int json_failed = print && o->json && !json;
  if (json_failed)
    fprintf(stderr, "weir_bench_collectives: cannot write '%s': %s. Fix: name a writable "
                    "file.\n", o->json, strerror(errno));
  if (json) fprintf(json, "{\"benchmark\": \"collectives\", \"results\": [\n");
  if (print) printf("%-22s %-18s %14s %12s %10s\n", "group", "op", "bytes/member", "median us", "GB/s");
  int rows = 0, failed = 0;
  for (int si = 0; si < o->size_count && !failed; ++si) {
    uint64_t bytes = o->sizes[si] / 4 * 4;
    weir_chunk *chunks[MAXL] = {0};
    bench_case c = {0};
    weir_status st = weir_group_agree(g, make_case(g, b, bytes, chunks, &c));
    for (int kind = 0; kind < KINDS && st == WEIR_OK; ++kind) {
      double median = median_time(g, kind, bytes, &c, o, s, &st);
      if (st != WEIR_OK || !print) continue;
      printf("%-22s %-18s %14llu %12.1f %10.3f\n", o->label, kind_names[kind],
             (unsigned long long)bytes, median * 1e6, (double)bytes / median / 1e9);
      json_row(json, o, rows++ == 0, kind, bytes, median);
    }
    free_case(chunks, weir_group_local_count(g), &c);
    if (st != WEIR_OK) {
      fprintf(stderr, "weir_bench_collectives: %s\n", weir_last_error());
      failed = 1;
    }
  }
  if (json) {
    fprintf(json, "\n]}\n");
    if (ferror(json) | fclose(json)) {
      fprintf(stderr, "weir_bench_collectives: writing '%s' failed. Fix: check free disk "
                      "space.\n", o->json);
      json_failed = 1;
    }
  }
  return failed || json_failed;
}
