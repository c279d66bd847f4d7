/* IFDS benchmark: generated problems (realistic at about 10k, 200k and 2M
 * nodes, and the stress presets), each solved by the serial reference
 * solver and by the resident engine on each backend. Prints a table and
 * writes JSON; asserts nothing about timings, but it is a correctness check:
 * the exit status is 1 when a backend named in --backends cannot be opened,
 * a solve fails, or an engine result differs from the reference solver's
 * (2 for bad arguments).
 *
 *   weir_bench_ifds [--cases a,b,...] [--backends SPEC,SPEC,...] [--repeat N]
 *                   [--json FILE]
 * Cases: realistic-10k realistic-200k realistic-2m chain fanout recursive
 * wide-facts loops (default: all). Backends: any weir_backend_open spec
 * (cpu, vulkan:1, cuda:0, ...); without --backends, whichever of cpu, vulkan
 * and cuda open here (the others are skipped with the reason). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "weir/ifds.h"
#include "weir/ifds_gen.h"

typedef struct bench_case {
  const char *name;
  weir_ifds_preset preset;
  uint32_t procs, nodes_per_proc, facts, seeds;
} bench_case;

static const bench_case cases[] = {
    {"realistic-10k", WEIR_IFDS_PRESET_REALISTIC, 500, 20, 0, 0},
    {"realistic-200k", WEIR_IFDS_PRESET_REALISTIC, 10000, 20, 0, 0},
    {"realistic-2m", WEIR_IFDS_PRESET_REALISTIC, 100000, 20, 0, 0},
    {"chain", WEIR_IFDS_PRESET_CHAIN, 5000, 0, 0, 0},
    {"fanout", WEIR_IFDS_PRESET_FANOUT, 5000, 0, 0, 0},
    {"recursive", WEIR_IFDS_PRESET_RECURSIVE, 2000, 0, 0, 0},
    {"wide-facts", WEIR_IFDS_PRESET_WIDE_FACTS, 0, 0, 0, 0},
    {"loops", WEIR_IFDS_PRESET_LOOPS, 2000, 0, 0, 0},
};
#define CASE_COUNT (sizeof cases / sizeof cases[0])

typedef struct run_figures {
  double seconds[16], cpu_seconds[16];
  weir_ifds_stats stats;
  int ok, same;
} run_figures;

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* CPU time of the whole process (all threads): on a shared machine the wall
 * clock also counts other processes' time; this does not. */
static double cpu_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double median(double *v, int n) {
  qsort(v, (size_t)n, sizeof *v, cmp_double);
  return v[n / 2];
}

static int same_result(const weir_ifds_result *a, const weir_ifds_result *b) {
  return a->path_edges == b->path_edges && a->hold_count == b->hold_count &&
         memcmp(a->hold_node, b->hold_node, a->hold_count * 4) == 0 &&
         memcmp(a->hold_fact, b->hold_fact, a->hold_count * 4) == 0;
}

/* backend NULL: the reference solver. Every run's result is compared with
 * `truth` (when given); the first is kept in *keep (when given). */
static void measure(weir_backend *backend, const weir_ifds_problem *pb, int repeat,
                    const weir_ifds_result *truth, weir_ifds_result *keep, run_figures *f) {
  memset(f, 0, sizeof *f);
  f->ok = 1;
  f->same = 1;
  for (int i = 0; i < repeat; ++i) {
    weir_ifds_result r;
    weir_ifds_stats st = WEIR_IFDS_STATS_INIT;
    double t0 = now(), c0 = cpu_now();
    weir_status s = backend ? weir_ifds_solve_engine(backend, pb, NULL, &r, &st)
                            : weir_ifds_solve_reference(pb, &r, &st);
    f->seconds[i] = now() - t0;
    f->cpu_seconds[i] = cpu_now() - c0;
    if (s != WEIR_OK) {
      fprintf(stderr, "  %s failed: %s\n", backend ? weir_backend_id(backend) : "reference",
              weir_last_error());
      f->ok = 0;
      return;
    }
    if (i == 0) f->stats = st;
    if (truth && !same_result(&r, truth)) {
      if (f->same)
        fprintf(stderr, "  %s: run %d differs from the reference (%llu path edges, %llu holds; "
                        "reference %llu, %llu)\n",
                weir_backend_id(backend), i + 1, (unsigned long long)r.path_edges,
                (unsigned long long)r.hold_count, (unsigned long long)truth->path_edges,
                (unsigned long long)truth->hold_count);
      f->same = 0;
    }
    if (keep && i == 0) *keep = r;
    else weir_ifds_result_free(&r);
  }
}

static void print_row(FILE *json, int *first_json, const char *case_name, uint32_t nodes,
                      const char *solver, int repeat, run_figures *f) {
  if (!f->ok) {
    printf("%-15s %9u %-10s %10s\n", case_name, nodes, solver, "failed");
    return;
  }
  double t = median(f->seconds, repeat), cpu = median(f->cpu_seconds, repeat);
  const weir_ifds_stats *s = &f->stats;
  double per_edge = s->path_edges ? (double)s->peak_resident_bytes / (double)s->path_edges : 0;
  double atomics = s->path_edges ? (double)s->reserve_atomics / (double)s->path_edges : 0;
  printf("%-15s %9u %-10s %10.3f %8.3f %11llu %12.0f %6llu %6llu %7llu %6.1f %9.4f %5s\n", case_name,
         nodes, solver, t, cpu, (unsigned long long)s->path_edges,
         t > 0 ? (double)s->path_edges / t : 0, (unsigned long long)s->host_syncs,
         (unsigned long long)s->windows, (unsigned long long)s->iterations, per_edge, atomics,
         f->same ? "yes" : "NO");
  if (json)
    fprintf(json,
            "%s\n  {\"case\": \"%s\", \"nodes\": %u, \"solver\": \"%s\", \"seconds_median\": %.6f, "
            "\"cpu_seconds_median\": %.6f, "
            "\"repeat\": %d, \"path_edges\": %llu, \"path_edges_per_second\": %.1f, "
            "\"host_syncs\": %llu, \"windows\": %llu, \"iterations\": %llu, "
            "\"peak_resident_bytes\": %llu, \"bytes_per_path_edge\": %.2f, \"growths\": %llu, "
            "\"atomics_per_path_edge\": %.4f, \"matches_reference\": %s}",
            *first_json ? "" : ",", case_name, nodes, solver, t, cpu, repeat,
            (unsigned long long)s->path_edges, t > 0 ? (double)s->path_edges / t : 0,
            (unsigned long long)s->host_syncs, (unsigned long long)s->windows,
            (unsigned long long)s->iterations, (unsigned long long)s->peak_resident_bytes,
            per_edge, (unsigned long long)s->growths, atomics, f->same ? "true" : "false");
  *first_json = 0;
}

static int wanted(const char *list, const char *name) {
  if (!list) return 1;
  size_t n = strlen(name);
  for (const char *p = strstr(list, name); p; p = strstr(p + 1, name))
    if ((p == list || p[-1] == ',') && (p[n] == 0 || p[n] == ',')) return 1;
  return 0;
}

/* Every name in --cases must be a case: a typo must not pass as an empty run. */
static int check_case_list(const char *list) {
  if (!list) return 1;
  char copy[512];
  snprintf(copy, sizeof copy, "%s", list);
  for (char *save = NULL, *name = strtok_r(copy, ",", &save); name;
       name = strtok_r(NULL, ",", &save)) {
    size_t c = 0;
    while (c < CASE_COUNT && strcmp(cases[c].name, name) != 0) ++c;
    if (c == CASE_COUNT) {
      fprintf(stderr, "weir_bench_ifds: unknown case '%s' (see the source's header)\n", name);
      return 0;
    }
  }
  return 1;
}

#define MAX_BACKENDS 8

/* Opens each spec of `list` (NULL: cpu, vulkan and cuda, skipping those that
 * do not open). A named spec that does not open counts as a failure. */
static int open_backends(const char *list, weir_backend **out, char (*specs)[48],
                         size_t *count) {
  char copy[512];
  snprintf(copy, sizeof copy, "%s", list ? list : "cpu,vulkan,cuda");
  int ok = 1;
  *count = 0;
  for (char *save = NULL, *spec = strtok_r(copy, ",", &save); spec;
       spec = strtok_r(NULL, ",", &save)) {
    if (*count == MAX_BACKENDS) {
      fprintf(stderr, "weir_bench_ifds: more than %d backends; '%s' and after ignored\n",
              MAX_BACKENDS, spec);
      return 0;
    }
    if (weir_backend_open(spec, &out[*count]) == WEIR_OK) {
      snprintf(specs[*count], sizeof specs[*count], "%s", spec); /* labels the rows */
      ++*count;
      continue;
    }
    fprintf(stderr, "weir_bench_ifds: backend '%s' %s: %s\n", spec,
            list ? "cannot be opened" : "skipped", weir_last_error());
    if (list) ok = 0;
  }
  return ok;
}

int main(int argc, char **argv) {
  const char *case_list = NULL, *backend_list = NULL, *json_path = NULL;
  int repeat = 3;
  for (int i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "--cases") && i + 1 < argc) case_list = argv[++i];
    else if (!strcmp(argv[i], "--backends") && i + 1 < argc) backend_list = argv[++i];
    else if (!strcmp(argv[i], "--repeat") && i + 1 < argc) repeat = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--json") && i + 1 < argc) json_path = argv[++i];
    else {
      fprintf(stderr, "usage: %s [--cases LIST] [--backends LIST] [--repeat N] [--json FILE]\n",
              argv[0]);
      return 2;
    }
  }
  if ((case_list && strlen(case_list) >= 512) || (backend_list && strlen(backend_list) >= 512)) {
    fprintf(stderr, "weir_bench_ifds: --cases/--backends lists are limited to 511 characters\n");
    return 2;
  }
  if (!check_case_list(case_list)) return 2;
  if (repeat < 1) repeat = 1;
  if (repeat > 16) repeat = 16;
  weir_backend *backends[MAX_BACKENDS];
  char specs[MAX_BACKENDS][48];
  size_t nb = 0;
  int failed = !open_backends(backend_list, backends, specs, &nb);
  FILE *json = json_path ? fopen(json_path, "w") : NULL;
  if (json_path && !json) {
    fprintf(stderr, "weir_bench_ifds: cannot write %s\n", json_path);
    failed = 1;
  }
  if (json) fprintf(json, "[");
  int first_json = 1;
  printf("%-15s %9s %-10s %10s %8s %11s %12s %6s %6s %7s %6s %9s %5s\n", "case", "nodes", "solver",
         "median s", "cpu s", "path edges", "edges/s", "syncs", "windows", "iters", "B/edge",
         "atomics/e", "same");
  for (size_t c = 0; c < CASE_COUNT; ++c) {
    if (!wanted(case_list, cases[c].name)) continue;
    weir_ifds_gen_options o = {.preset = cases[c].preset, .procs = cases[c].procs,
                               .nodes_per_proc = cases[c].nodes_per_proc,
                               .facts = cases[c].facts, .seeds = cases[c].seeds, .seed = 1};
    weir_ifds_problem *pb = NULL;
    if (weir_ifds_generate_problem(&o, &pb) != WEIR_OK) {
      fprintf(stderr, "%s: %s\n", cases[c].name, weir_last_error());
      failed = 1;
      continue;
    }
    run_figures f;
    weir_ifds_result truth;
    memset(&truth, 0, sizeof truth);
    measure(NULL, pb, repeat, NULL, &truth, &f);
    print_row(json, &first_json, cases[c].name, pb->node_count, "reference", repeat, &f);
    int have_truth = f.ok;
    failed |= !f.ok;
    for (size_t b = 0; b < nb; ++b) {
      measure(backends[b], pb, repeat, have_truth ? &truth : NULL, NULL, &f);
      char label[64];
      snprintf(label, sizeof label, "engine/%s", specs[b]);
      print_row(json, &first_json, cases[c].name, pb->node_count, label, repeat, &f);
      failed |= !f.ok || !f.same;
    }
    fflush(stdout);
    weir_ifds_result_free(&truth);
    weir_ifds_problem_free(pb);
  }
  if (json) {
    fprintf(json, "\n]\n");
    fclose(json);
  }
  for (size_t b = 0; b < nb; ++b) weir_backend_close(backends[b]);
  if (failed)
    fprintf(stderr, "weir_bench_ifds: FAILED (a backend did not open, a solve failed or a "
                    "result differed from the reference; see above)\n");
  return failed ? 1 : 0;
}
