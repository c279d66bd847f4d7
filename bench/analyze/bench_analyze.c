/* Real-workload benchmark of the LLVM frontend: one or more programs (weir's
 * own sources, see module.sh; btmon from Debian's bluez-source, see
 * real-program.sh), each analysis (taint, uninit, uaf); for each: ICFG
 * nodes, facts (and before pruning), edges, frontend time with the
 * points-to and prepare parts, load time, peak RSS; then the reference
 * solver and the engine on every backend that opens: solve time (median of
 * --repeat), path edges, findings (checked identical to the reference), peak
 * RSS and the engine's own peak. Prints a table and writes JSON; asserts
 * nothing about timings.
 *
 *   weir_bench_analyze MODULE.bc|.ll [--config TAINT.cfg] [options]
 *   weir_bench_analyze --program NAME=FILE[,FILE...] [--program NAME=@LIST] ...
 *                      [--taint-config NAME=CFG] [options]
 *   options: [--backends cpu,vulkan] [--repeat N] [--analyses taint,uninit,uaf]
 *            [--solver-timeout S] [--frontend-timeout S] [--memory-limit-mb MB] [--json FILE]
 * Each (program, analysis) runs in a child process, each solver in a child
 * of that one: peak RSS per analysis and solver, and limits that stop a
 * runaway frontend or solver without ending the benchmark. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/analyze/bench.h"

#define MAX_PROGRAMS 8

static const char *usage =
    "usage: weir_bench_analyze MODULE.bc | --program NAME=FILE[,FILE...] | --program NAME=@LIST ...\n"
    "       [--config TAINT.cfg] [--taint-config NAME=CFG] [--backends a,b] [--analyses taint,uninit,uaf]\n"
    "       [--repeat N] [--solver-timeout SECONDS] [--frontend-timeout SECONDS] [--memory-limit-mb MB]\n"
    "       [--json FILE]\n";

/* Splits "a,b,c" into a new array of strings. */
static char **split_files(const char *list, size_t *count) {
  size_t n = 1;
  for (const char *c = list; *c; ++c) n += *c == ',';
  char **files = calloc(n, sizeof *files);
  char *copy = strdup(list);
  if (!files || !copy) {
    free(files);
    free(copy);
    return NULL;
  }
  *count = 0;
  for (char *tok = strtok(copy, ","); tok; tok = strtok(NULL, ","))
    if ((files[*count] = strdup(tok))) ++*count;
  free(copy);
  return files;
}

/* Reads a list file: one path a line (real-program.sh's btmon-O0.files). */
static char **read_list(const char *path, size_t *count) {
  FILE *f = fopen(path, "r");
  if (!f) return NULL;
  size_t cap = 16;
  char **files = calloc(cap, sizeof *files);
  char line[4096];
  *count = 0;
  while (files && fgets(line, sizeof line, f)) {
    line[strcspn(line, "\r\n")] = '\0';
    if (!line[0]) continue;
    if (*count == cap) {
      char **grown = realloc(files, 2 * cap * sizeof *files);
      if (!grown) break;
      files = grown;
      cap *= 2;
    }
    if ((files[*count] = strdup(line))) ++*count;
  }
  fclose(f);
  return files;
}

/* "NAME=FILE[,FILE...]" or "NAME=@LIST". */
static int add_program(bench_program *programs, int *n, const char *spec) {
  const char *eq = strchr(spec, '=');
  if (*n == MAX_PROGRAMS || !eq || eq == spec || eq - spec > 31 || !eq[1]) {
    fprintf(stderr, "weir_bench_analyze: bad --program '%s' (or more than %d). Fix: --program NAME=FILE[,FILE...] "
                    "or NAME=@LISTFILE, NAME at most 31 characters\n", spec, MAX_PROGRAMS);
    return -1;
  }
  bench_program *p = &programs[*n];
  memset(p, 0, sizeof *p);
  p->name = strndup(spec, (size_t)(eq - spec));
  p->files = eq[1] == '@' ? read_list(eq + 2, &p->count) : split_files(eq + 1, &p->count);
  if (!p->name || !p->files || p->count == 0) {
    fprintf(stderr, "weir_bench_analyze: --program '%s' names no readable module list. Fix: check the list file "
                    "(one .bc a line; real-program.sh writes btmon-O0.files)\n", spec);
    ++*n; /* free_programs releases what was allocated */
    return -1;
  }
  ++*n;
  return 0;
}

/* "NAME=CFG": the taint configuration of program NAME. */
static int set_config(bench_program *programs, int n, const char *spec) {
  const char *eq = strchr(spec, '=');
  for (int i = 0; eq && i < n; ++i)
    if (strlen(programs[i].name) == (size_t)(eq - spec) && strncmp(programs[i].name, spec, (size_t)(eq - spec)) == 0) {
      programs[i].config = eq + 1;
      return 0;
    }
  fprintf(stderr, "weir_bench_analyze: --taint-config '%s' names no program given before it. Fix: "
                  "--program NAME=... first, then --taint-config NAME=FILE\n", spec);
  return -1;
}

static void free_programs(bench_program *programs, int n) {
  for (int i = 0; i < n; ++i) {
    for (size_t f = 0; f < programs[i].count; ++f) free(programs[i].files[f]);
    free(programs[i].files);
    free((char *)programs[i].name);
  }
}

static int parse_args(int argc, char **argv, bench_program *programs, int *n, bench_options *o,
                      const char **json) {
  const char *module = NULL, *config = NULL;
  for (int i = 1; i < argc; ++i) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (v && strcmp(a, "--backends") == 0) o->backends = v;
    else if (v && strcmp(a, "--analyses") == 0) o->analyses = v;
    else if (v && strcmp(a, "--json") == 0) *json = v;
    else if (v && strcmp(a, "--config") == 0) config = v;
    else if (v && strcmp(a, "--repeat") == 0) o->repeat = atoi(v);
    else if (v && strcmp(a, "--solver-timeout") == 0) o->solver_timeout = (unsigned)atoi(v);
    else if (v && strcmp(a, "--frontend-timeout") == 0) o->frontend_timeout = (unsigned)atoi(v);
    else if (v && strcmp(a, "--memory-limit-mb") == 0) o->memory_limit_mb = strtoul(v, NULL, 10);
    else if (v && strcmp(a, "--program") == 0) {
      if (add_program(programs, n, v)) return -1;
    } else if (v && strcmp(a, "--taint-config") == 0) {
      if (set_config(programs, *n, v)) return -1;
    } else if (a[0] != '-' && !module) {
      module = a;
      continue;
    } else {
      fputs(usage, stderr);
      return -1;
    }
    ++i;
  }
  if (module) { /* the original form: one module, named after its file */
    char spec[4096];
    const char *base = strrchr(module, '/') ? strrchr(module, '/') + 1 : module;
    snprintf(spec, sizeof spec, "%.*s=%s", (int)strcspn(base, "."), base, module);
    if (add_program(programs, n, spec)) return -1;
  }
  for (int i = 0; i < *n; ++i)
    if (!programs[i].config) programs[i].config = config;
  if (*n == 0 || o->repeat < 1 || o->repeat > 16) {
    fprintf(stderr, "weir_bench_analyze: need a MODULE or --program and 1 <= --repeat <= 16. Fix: build the "
                    "modules with `cmake --build BUILD --target bench-analyze` (or bench-analyze-real)\n");
    return -1;
  }
  return 0;
}

int main(int argc, char **argv) {
  bench_program programs[MAX_PROGRAMS];
  int program_count = 0;
  bench_options options = {.analyses = "taint,uninit,uaf", .repeat = 3, .solver_timeout = 150,
                           .frontend_timeout = 600};
  const char *json = NULL;
  if (parse_args(argc, argv, programs, &program_count, &options, &json)) {
    free_programs(programs, program_count);
    return 2;
  }
  static bench_row rows[MAX_PROGRAMS * BENCH_MAX_ANALYSES];
  int n = 0;
  const char *names[BENCH_MAX_ANALYSES] = {"taint", "uninit", "uaf"};
  for (int p = 0; p < program_count; ++p)
    for (int a = 0; a < BENCH_MAX_ANALYSES; ++a) {
      if (!bench_listed(options.analyses, names[a])) continue;
      bench_row *row = &rows[n++];
      memset(row, 0, sizeof *row);
      snprintf(row->program, sizeof row->program, "%s", programs[p].name);
      snprintf(row->analysis, sizeof row->analysis, "%s", names[a]);
      fprintf(stderr, "bench-analyze: %s, %s ...\n", row->program, row->analysis);
      bench_measure_row(&programs[p], &options, row);
    }
  printf("bench-analyze: %d program(s), solve time = median of %d, limits: frontend %u s, solver %u s, "
         "memory %lu MB", program_count, options.repeat, options.frontend_timeout, options.solver_timeout,
         options.memory_limit_mb);
  for (int p = 0; p < program_count; ++p)
    printf("\n  %s: %s%s (%zu module%s)%s%s", programs[p].name, programs[p].files[0], programs[p].count > 1 ? " ..." : "",
           programs[p].count, programs[p].count > 1 ? "s linked in process" : "",
           programs[p].config ? ", taint config " : "", programs[p].config ? programs[p].config : "");
  bench_print_table(rows, n, stdout);
  int failed = 0;
  for (int r = 0; r < n; ++r) failed |= !rows[r].ok;
  if (json) {
    FILE *f = fopen(json, "w");
    if (!f) {
      fprintf(stderr, "weir_bench_analyze: cannot write '%s'. Fix: check the path\n", json);
      free_programs(programs, program_count);
      return 1;
    }
    bench_write_json(f, programs, program_count, rows, n, &options);
    fclose(f);
    printf("bench-analyze: JSON in %s\n", json);
  }
  free_programs(programs, program_count);
  return failed;
}
