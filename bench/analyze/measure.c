/* One (program, analysis): in a child process, build the problem (frontend
 * figures, peak RSS so far), load it, then each solver in a child of its
 * own: the reference solver first, then the engine on every listed backend
 * that opens (the others are rows with the reason). Results are compared to
 * the reference by a digest of path edges and holds. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "bench/analyze/bench.h"
#include "weir/ifds.h"

typedef struct row_job {
  const bench_program *program;
  const bench_options *options;
  const char *analysis;
} row_job;

typedef struct solver_job {
  const char *backend; /* NULL: the reference solver */
  const weir_llvm_problem *lp;
  const weir_ifds_problem *p;
  int repeat;
} solver_job;

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* FNV-1a over what two correct solvers must agree on. */
static uint64_t digest(const weir_ifds_result *r) {
  uint64_t h = 1469598103934665603ull;
  const uint64_t head[2] = {r->path_edges, r->hold_count};
  const unsigned char *parts[3] = {(const void *)head, (const void *)r->hold_node, (const void *)r->hold_fact};
  size_t sizes[3] = {sizeof head, r->hold_count * sizeof(uint32_t), r->hold_count * sizeof(uint32_t)};
  for (int k = 0; k < 3; ++k)
    for (size_t i = 0; i < sizes[k]; ++i) h = (h ^ parts[k][i]) * 1099511628211ull;
  return h;
}

/* Solves `repeat` times (keeps the last result); median time. */
static weir_status timed_solve(weir_backend *backend, const weir_ifds_problem *p, int repeat,
                               weir_ifds_result *result, weir_ifds_stats *stats, double *median) {
  double t[16];
  for (int r = 0; r < repeat; ++r) {
    weir_ifds_result_free(result);
    memset(stats, 0, sizeof *stats);
    double t0 = now();
    weir_status s;
    if (backend) {
      weir_ifds_engine_options options;
      memset(&options, 0, sizeof options);
      s = weir_ifds_solve_engine(backend, p, &options, result, stats);
    } else {
      s = weir_ifds_solve_reference(p, result, stats);
    }
    if (s != WEIR_OK) return s;
    t[r] = now() - t0;
  }
  qsort(t, (size_t)repeat, sizeof t[0], cmp_double);
  *median = t[repeat / 2];
  return WEIR_OK;
}

/* The resident set now (kB), from /proc/self/statm; 0 when unknown. */
static long resident_kb(void) {
  FILE *f = fopen("/proc/self/statm", "r");
  long size = 0, resident = 0;
  if (!f) return 0;
  if (fscanf(f, "%ld %ld", &size, &resident) != 2) resident = 0;
  fclose(f);
  long page = sysconf(_SC_PAGESIZE);
  return page > 0 ? resident * (page / 1024) : 0;
}

/* In the solver child. */
static void solve_in_child(void *arg, void *out) {
  const solver_job *job = arg;
  bench_solver *s = out;
  s->start_rss_kb = resident_kb();
  weir_backend *backend = NULL;
  if (job->backend && weir_backend_open(job->backend, &backend) != WEIR_OK) {
    snprintf(s->note, sizeof s->note, "skipped: %.180s", weir_last_error());
    return;
  }
  weir_ifds_result result;
  weir_ifds_stats stats;
  memset(&result, 0, sizeof result);
  weir_status st = timed_solve(backend, job->p, job->repeat, &result, &stats, &s->seconds);
  weir_backend_close(backend);
  if (st != WEIR_OK) {
    snprintf(s->note, sizeof s->note, "failed: %.180s", weir_last_error());
    weir_ifds_result_free(&result);
    return;
  }
  weir_llvm_findings findings;
  if (weir_llvm_findings_collect(job->lp, job->p, &result, &findings) == WEIR_OK) {
    s->findings = findings.count;
    weir_llvm_findings_free(&findings);
  }
  s->ok = 1;
  s->path_edges = result.path_edges;
  s->holds = result.hold_count;
  s->digest = digest(&result);
  s->engine_peak_bytes = backend ? stats.peak_resident_bytes : 0;
  weir_ifds_result_free(&result);
}

static bench_solver *add_solver(bench_row *row, const char *backend) {
  bench_solver *s = &row->solvers[row->solver_count++];
  memset(s, 0, sizeof *s);
  snprintf(s->name, sizeof s->name, "%s%.16s", backend ? "engine/" : "reference", backend ? backend : "");
  return s;
}

static void run_solver(bench_row *row, const char *backend, const solver_job *base, const bench_options *o) {
  bench_solver *s = add_solver(row, backend);
  solver_job job = *base;
  job.backend = backend;
  bench_solver got;
  memcpy(&got, s, sizeof got);
  char note[200];
  long rss = 0;
  int timed_out = 0;
  if (bench_in_child(solve_in_child, &job, &got, sizeof got, o->solver_timeout, &rss, &timed_out, note,
                     sizeof note) != 0) {
    snprintf(s->note, sizeof s->note, "%s", note);
    s->timed_out = timed_out;
    s->maxrss_kb = rss;
    return;
  }
  *s = got;
  s->maxrss_kb = rss;
  s->same = row->solvers[0].ok && row->solvers[0].digest == s->digest;
}

/* Backend reports come from a child: listing probes the drivers, and no
 * driver may be initialised in a process that forks solvers afterwards. */
typedef struct report_list {
  weir_backend_report reports[8];
  size_t count;
} report_list;

static void list_in_child(void *arg, void *out) {
  (void)arg;
  report_list *l = out;
  if (weir_backend_reports(l->reports, 8, &l->count) != WEIR_OK) l->count = 0;
  if (l->count > 8) l->count = 8;
}

static void run_solvers(bench_row *row, const solver_job *job, const bench_options *o) {
  run_solver(row, NULL, job, o);
  report_list list;
  memset(&list, 0, sizeof list);
  char note[200];
  long rss = 0;
  int timed_out = 0;
  if (bench_in_child(list_in_child, NULL, &list, sizeof list, 60, &rss, &timed_out, note, sizeof note) != 0)
    list.count = 0;
  for (size_t r = 0; r < list.count && row->solver_count < BENCH_MAX_SOLVERS; ++r) {
    const weir_backend_report *rep = &list.reports[r];
    if (!bench_listed(o->backends, rep->id)) continue;
    if (!rep->available) {
      bench_solver *s = add_solver(row, rep->id);
      snprintf(s->note, sizeof s->note, "skipped: %.180s", rep->reason);
      continue;
    }
    run_solver(row, rep->id, job, o);
  }
}

static void fail_row(bench_row *row, const char *what) {
  snprintf(row->note, sizeof row->note, "%s: %.360s", what, weir_last_error());
}

/* A frontend that runs away (time or memory) stops this child, not the
 * benchmark or the machine it shares. */
static void limit_child(const bench_options *o) {
  if (o->frontend_timeout) alarm(o->frontend_timeout);
  if (o->memory_limit_mb) {
    struct rlimit lim = {.rlim_cur = (rlim_t)o->memory_limit_mb << 20, .rlim_max = (rlim_t)o->memory_limit_mb << 20};
    if (setrlimit(RLIMIT_AS, &lim) != 0) perror("weir_bench_analyze: setrlimit(RLIMIT_AS)");
  }
}

/* In the row child. */
static void row_in_child(void *arg, void *out) {
  const row_job *job = arg;
  bench_row *row = out;
  limit_child(job->options);
  weir_llvm_analysis analysis;
  weir_llvm_config *config = NULL;
  if (weir_llvm_analysis_parse(job->analysis, &analysis) != WEIR_OK) {
    fail_row(row, "analysis");
    return;
  }
  if (weir_llvm_config_new(&config) != WEIR_OK ||
      (job->program->config && weir_llvm_config_load_file(config, job->program->config) != WEIR_OK)) {
    fail_row(row, "taint configuration");
    weir_llvm_config_free(config);
    return;
  }
  weir_llvm_problem *lp = NULL;
  weir_status st = weir_llvm_build_files((const char *const *)job->program->files, job->program->count,
                                         analysis, config, &lp);
  weir_llvm_config_free(config);
  if (st != WEIR_OK) {
    fail_row(row, "frontend");
    return;
  }
  row->build = *weir_llvm_problem_stats(lp);
  weir_ifds_problem *p = NULL;
  double t0 = now();
  if (weir_llvm_problem_load(lp, &p) != WEIR_OK) {
    fail_row(row, "load");
    weir_llvm_problem_free(lp);
    return;
  }
  row->seconds_load = now() - t0;
  alarm(0); /* the solvers have limits of their own */
  struct rusage usage;
  if (getrusage(RUSAGE_SELF, &usage) == 0) row->frontend_maxrss_kb = usage.ru_maxrss;
  row->ok = 1;
  solver_job sj = {.lp = lp, .p = p, .repeat = job->options->repeat};
  run_solvers(row, &sj, job->options);
  weir_ifds_problem_free(p);
  weir_llvm_problem_free(lp);
}

void bench_measure_row(const bench_program *program, const bench_options *options, bench_row *row) {
  row_job job = {.program = program, .options = options, .analysis = row->analysis};
  long rss = 0;
  int timed_out = 0;
  char note[200];
  if (bench_in_child(row_in_child, &job, row, sizeof *row, 0, &rss, &timed_out, note, sizeof note) != 0) {
    row->ok = 0;
    snprintf(row->note, sizeof row->note, "%s", note);
  }
}
