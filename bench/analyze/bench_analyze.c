/* Real-workload benchmark of the LLVM frontend: one module (weir's own
 * sources, see module.sh), both analyses; for each: ICFG nodes, facts,
 * edges, frontend and load time, then the reference solver and the engine on
 * every backend that opens: solve time (median of --repeat), path edges,
 * findings (checked identical to the reference). Prints a table and writes
 * JSON; asserts nothing about timings.
 *
 *   weir_bench_analyze MODULE.bc|.ll [--backends cpu,vulkan] [--repeat N]
 *                      [--analyses taint,uninit] [--config TAINT.cfg] [--json FILE] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "frontends/llvm/frontend.h"
#include "weir/ifds.h"

#define MAX_SOLVERS 8

typedef struct solver_row {
  char name[32];
  int ok, same;
  char note[160];
  double seconds; /* median */
  uint64_t path_edges, holds;
  size_t findings;
} solver_row;

typedef struct analysis_row {
  const char *analysis;
  weir_llvm_build_stats build;
  double seconds_load;
  solver_row solvers[MAX_SOLVERS];
  int solver_count;
} analysis_row;

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static int listed(const char *list, const char *name) {
  if (!list) return 1;
  size_t n = strlen(name);
  for (const char *p = list; (p = strstr(p, name)); p += n)
    if ((p == list || p[-1] == ',') && (p[n] == '\0' || p[n] == ',')) return 1;
  return 0;
}

/* Solves `repeat` times (backend NULL: reference); keeps the last result. */
static weir_status timed_solve(weir_backend *backend, const weir_ifds_problem *p, int repeat,
                               weir_ifds_result *result, double *median) {
  double t[16];
  for (int r = 0; r < repeat; ++r) {
    weir_ifds_result_free(result);
    double t0 = now();
    weir_status s;
    if (backend) {
      weir_ifds_engine_options options;
      memset(&options, 0, sizeof options);
      s = weir_ifds_solve_engine(backend, p, &options, result, NULL);
    } else {
      s = weir_ifds_solve_reference(p, result, NULL);
    }
    if (s != WEIR_OK) return s;
    t[r] = now() - t0;
  }
  qsort(t, (size_t)repeat, sizeof t[0], cmp_double);
  *median = t[repeat / 2];
  return WEIR_OK;
}

static int same_result(const weir_ifds_result *a, const weir_ifds_result *b) {
  return a->path_edges == b->path_edges && a->hold_count == b->hold_count &&
         memcmp(a->hold_node, b->hold_node, a->hold_count * sizeof(uint32_t)) == 0 &&
         memcmp(a->hold_fact, b->hold_fact, a->hold_count * sizeof(uint32_t)) == 0;
}

static void run_solver(analysis_row *row, const char *backend_id, const weir_llvm_problem *lp,
                       const weir_ifds_problem *p, int repeat, const weir_ifds_result *reference,
                       weir_ifds_result *keep) {
  solver_row *s = &row->solvers[row->solver_count++];
  memset(s, 0, sizeof *s);
  snprintf(s->name, sizeof s->name, "%s%s", backend_id ? "engine/" : "reference", backend_id ? backend_id : "");
  weir_backend *backend = NULL;
  if (backend_id && weir_backend_open(backend_id, &backend) != WEIR_OK) {
    snprintf(s->note, sizeof s->note, "skipped: %.140s", weir_last_error());
    return;
  }
  weir_ifds_result result;
  memset(&result, 0, sizeof result);
  weir_status st = timed_solve(backend, p, repeat, &result, &s->seconds);
  weir_backend_close(backend);
  if (st != WEIR_OK) {
    snprintf(s->note, sizeof s->note, "failed: %.140s", weir_last_error());
    weir_ifds_result_free(&result);
    return;
  }
  weir_llvm_findings findings;
  if (weir_llvm_findings_collect(lp, p, &result, &findings) == WEIR_OK) {
    s->findings = findings.count;
    weir_llvm_findings_free(&findings);
  }
  s->ok = 1;
  s->path_edges = result.path_edges;
  s->holds = result.hold_count;
  s->same = reference ? same_result(reference, &result) : 1;
  if (keep) *keep = result;
  else weir_ifds_result_free(&result);
}

static int run_analysis(analysis_row *row, const char *module, const weir_llvm_config *config,
                        const char *backends, int repeat) {
  weir_llvm_analysis analysis;
  weir_llvm_problem *lp = NULL;
  weir_ifds_problem *p = NULL;
  if (weir_llvm_analysis_parse(row->analysis, &analysis) != WEIR_OK ||
      weir_llvm_build(module, analysis, config, &lp) != WEIR_OK) {
    fprintf(stderr, "bench-analyze: %s\n", weir_last_error());
    return 1;
  }
  row->build = *weir_llvm_problem_stats(lp);
  double t0 = now();
  if (weir_llvm_problem_load(lp, &p) != WEIR_OK) {
    fprintf(stderr, "bench-analyze: %s\n", weir_last_error());
    weir_llvm_problem_free(lp);
    return 1;
  }
  row->seconds_load = now() - t0;
  weir_ifds_result reference;
  memset(&reference, 0, sizeof reference);
  run_solver(row, NULL, lp, p, repeat, NULL, &reference);
  weir_backend_report reports[16];
  size_t count = 0;
  if (weir_backend_reports(reports, 16, &count) != WEIR_OK) count = 0;
  for (size_t r = 0; r < count && r < 16 && row->solver_count < MAX_SOLVERS; ++r) {
    if (!listed(backends, reports[r].id)) continue;
    if (!reports[r].available) {
      solver_row *s = &row->solvers[row->solver_count++];
      memset(s, 0, sizeof *s);
      snprintf(s->name, sizeof s->name, "engine/%.15s", reports[r].id);
      snprintf(s->note, sizeof s->note, "skipped: %.140s", reports[r].reason);
      continue;
    }
    run_solver(row, reports[r].id, lp, p, repeat, &reference, NULL);
  }
  weir_ifds_result_free(&reference);
  weir_ifds_problem_free(p);
  weir_llvm_problem_free(lp);
  return 0;
}

static void print_table(const analysis_row *rows, int n) {
  printf("\n%-7s %6s %8s %7s %8s %6s %9s %8s | %-16s %10s %10s %9s %8s %s\n", "analysis", "procs",
         "nodes", "facts", "edges", "calls", "frontend", "load", "solver", "solve s", "path edges",
         "holds", "findings", "same");
  for (int a = 0; a < n; ++a) {
    const analysis_row *r = &rows[a];
    for (int s = 0; s < r->solver_count; ++s) {
      const solver_row *x = &r->solvers[s];
      if (s == 0)
        printf("%-7s %6u %8u %7u %8u %6u %8.3fs %7.3fs | ", r->analysis, r->build.functions, r->build.nodes,
               r->build.facts, r->build.edges, r->build.call_sites,
               r->build.seconds_parse + r->build.seconds_build, r->seconds_load);
      else
        printf("%-7s %6s %8s %7s %8s %6s %9s %8s | ", "", "", "", "", "", "", "", "");
      if (x->ok)
        printf("%-16s %10.4f %10llu %9llu %8zu %s\n", x->name, x->seconds, (unsigned long long)x->path_edges,
               (unsigned long long)x->holds, x->findings, x->same ? "yes" : "NO");
      else
        printf("%-16s %s\n", x->name, x->note);
    }
  }
}

static void write_json(FILE *f, const char *module, const char *cfg, const analysis_row *rows, int n,
                       int repeat) {
  fprintf(f, "{\"benchmark\": \"analyze\", \"module\": \"%s\", \"taint_config\": \"%s\", \"repeat\": %d, "
             "\"analyses\": [",
          module, cfg ? cfg : "", repeat);
  for (int a = 0; a < n; ++a) {
    const analysis_row *r = &rows[a];
    const weir_llvm_build_stats *b = &r->build;
    fprintf(f,
            "%s\n {\"analysis\": \"%s\", \"functions\": %u, \"declarations\": %u, \"nodes\": %u, "
            "\"facts\": %u, \"edges\": %u, \"call_sites\": %u, \"callee_lines\": %u, "
            "\"indirect_sites\": %u, \"seeds\": %u, \"checks\": %u, \"text_bytes\": %llu, "
            "\"seconds_parse\": %.6f, \"seconds_build\": %.6f, \"seconds_load\": %.6f, \"solvers\": [",
            a ? "," : "", r->analysis, b->functions, b->declarations, b->nodes, b->facts, b->edges,
            b->call_sites, b->callee_lines, b->indirect_sites, b->seeds, b->checks,
            (unsigned long long)b->text_bytes, b->seconds_parse, b->seconds_build, r->seconds_load);
    for (int s = 0; s < r->solver_count; ++s) {
      const solver_row *x = &r->solvers[s];
      fprintf(f, "%s{\"solver\": \"%s\", \"ok\": %s", s ? ", " : "", x->name, x->ok ? "true" : "false");
      if (x->ok)
        fprintf(f, ", \"seconds_solve\": %.6f, \"path_edges\": %llu, \"holds\": %llu, \"findings\": %zu, "
                   "\"same_as_reference\": %s",
                x->seconds, (unsigned long long)x->path_edges, (unsigned long long)x->holds, x->findings,
                x->same ? "true" : "false");
      else {
        fputs(", \"note\": \"", f);
        for (const char *c = x->note; *c; ++c)
          if (*c != '"' && *c != '\\' && (unsigned char)*c >= 0x20) fputc(*c, f);
        fputc('"', f);
      }
      fputc('}', f);
    }
    fputs("]}", f);
  }
  fputs("\n]}\n", f);
}

int main(int argc, char **argv) {
  const char *module = NULL, *backends = NULL, *analyses = "taint,uninit", *json = NULL, *cfg = NULL;
  int repeat = 3;
  for (int i = 1; i < argc; ++i) {
    if (strcmp(argv[i], "--backends") == 0 && i + 1 < argc) backends = argv[++i];
    else if (strcmp(argv[i], "--analyses") == 0 && i + 1 < argc) analyses = argv[++i];
    else if (strcmp(argv[i], "--json") == 0 && i + 1 < argc) json = argv[++i];
    else if (strcmp(argv[i], "--config") == 0 && i + 1 < argc) cfg = argv[++i];
    else if (strcmp(argv[i], "--repeat") == 0 && i + 1 < argc) repeat = atoi(argv[++i]);
    else if (argv[i][0] != '-' && !module) module = argv[i];
    else {
      fprintf(stderr, "usage: weir_bench_analyze MODULE.bc [--backends a,b] [--analyses taint,uninit] "
                      "[--repeat N] [--config TAINT.cfg] [--json FILE]\n");
      return 2;
    }
  }
  if (!module || repeat < 1 || repeat > 16) {
    fprintf(stderr, "weir_bench_analyze: need MODULE and 1 <= --repeat <= 16. Fix: build it with "
                    "`cmake --build BUILD --target bench-analyze`\n");
    return 2;
  }
  weir_llvm_config *config = NULL;
  if (weir_llvm_config_new(&config) != WEIR_OK || (cfg && weir_llvm_config_load_file(config, cfg) != WEIR_OK)) {
    fprintf(stderr, "weir_bench_analyze: %s\n", weir_last_error());
    weir_llvm_config_free(config);
    return 2;
  }
  analysis_row rows[2];
  int n = 0;
  const char *names[] = {"taint", "uninit"};
  for (int a = 0; a < 2; ++a) {
    if (!listed(analyses, names[a])) continue;
    memset(&rows[n], 0, sizeof rows[n]);
    rows[n].analysis = names[a];
    if (run_analysis(&rows[n], module, config, backends, repeat)) {
      weir_llvm_config_free(config);
      return 1;
    }
    ++n;
  }
  weir_llvm_config_free(config);
  printf("bench-analyze: %s%s%s, solve time = median of %d", module, cfg ? ", taint config " : "",
         cfg ? cfg : "", repeat);
  print_table(rows, n);
  if (json) {
    FILE *f = fopen(json, "w");
    if (!f) {
      fprintf(stderr, "weir_bench_analyze: cannot write '%s'. Fix: check the path\n", json);
      return 1;
    }
    write_json(f, module, cfg, rows, n, repeat);
    fclose(f);
    printf("bench-analyze: JSON in %s\n", json);
  }
  return 0;
}
