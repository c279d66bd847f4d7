/* `weir solve`: load an IFDS problem, solve it (the resident engine or the
 * serial reference solver), write the result file and a one-line summary. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "tools/cli_util.h"
#include "tools/commands.h"
#include "tools/output.h"
#include "weir/ifds.h"

static void usage(FILE *out) {
  fprintf(out,
          "usage: weir solve PROBLEM [-o RESULT] [--solver engine|reference] [--backend SPEC]\n"
          "                          [--stats FILE.json] [--strict] [--progress]\n\n"
          "Solves an IFDS problem (docs/ifds-format.md) and writes the result file.\n"
          "  -o RESULT          write the result file there; without -o the result goes to\n"
          "                     standard output and the summary line to standard error\n"
          "  --solver NAME      engine (default: the resident fixed-point engine) or\n"
          "                     reference (the serial worklist solver, the oracle)\n"
          "  --backend SPEC     backend of the engine: auto (default), cpu, cpu:N, vulkan,\n"
          "                     cuda, plugin:PATH (see `weir info`)\n"
          "  --stats FILE.json  write the solver's figures as JSON\n"
          "  --strict           refuse a problem file without its `end` line (it may be\n"
          "                     truncated); without --strict such a file loads with a warning\n"
          "  --progress         progress lines on standard error, also when it is not a\n"
          "                     terminal (a log): load, upload, path edges and rate at least\n"
          "                     every 2 s while solving, read-back\n\n"
          "Without --progress a live progress line appears on standard error when it is a\n"
          "terminal.\n"
          "Exit codes: 0 solved; 2 bad input (an invalid problem file, whose message is\n"
          "FILE:LINE:COL: error: ..., a missing file, a bad option or backend spec);\n"
          "1 other failure (backend unavailable, out of memory, cannot write).\n");
}

typedef struct solve_args {
  const char *problem, *result, *solver, *backend, *stats;
  int strict, progress;
} solve_args;

static int parse(int argc, char **argv, solve_args *a) {
  *a = (solve_args){.solver = "engine", .backend = "auto"};
  for (int i = 1; i < argc; ++i) {
    const char *v = i + 1 < argc ? argv[i + 1] : NULL;
    const char **slot = strcmp(argv[i], "-o") == 0          ? &a->result
                        : strcmp(argv[i], "--solver") == 0  ? &a->solver
                        : strcmp(argv[i], "--backend") == 0 ? &a->backend
                        : strcmp(argv[i], "--stats") == 0   ? &a->stats
                                                            : NULL;
    if (strcmp(argv[i], "--strict") == 0) {
      a->strict = 1;
    } else if (strcmp(argv[i], "--progress") == 0) {
      a->progress = 1;
    } else if (slot && v) {
      *slot = v;
      ++i;
    } else if (!slot && argv[i][0] != '-' && !a->problem) {
      a->problem = argv[i];
    } else {
      fprintf(stderr, "weir solve: %s '%s'. Fix: see `weir solve --help`.\n",
              slot ? "missing the value of" : "unexpected argument", argv[i]);
      return -1;
    }
  }
  if (!a->problem) {
    fprintf(stderr,
            "weir solve: no problem file given. Fix: weir solve PROBLEM.ifds (see --help).\n");
    return -1;
  }
  if (strcmp(a->solver, "engine") && strcmp(a->solver, "reference")) {
    fprintf(stderr,
            "weir solve: unknown solver '%s'. Fix: use --solver engine or --solver reference.\n",
            a->solver);
    return -1;
  }
  return 0;
}

/* ---- the live progress line ------------------------------------------------ */

/* Two forms: a live line rewritten in place (a terminal, no --progress), or
 * with --progress one line per update for logs and pipes, at least every
 * 2 s while the engine solves (its windows last at most ~2 s) and at most
 * one a second from the reference solver's frequent callbacks. */
typedef struct progress {
  double start, last;
  int shown, lines;
} progress;

static void on_progress(void *user, uint64_t iterations, uint64_t path_edges) {
  progress *p = user;
  double t = weir_cli_now();
  if (t - p->last < (p->lines ? 1.0 : 0.2)) return;
  p->last = t;
  p->shown = 1;
  double rate = t > p->start ? (double)path_edges / (t - p->start) : 0;
  if (p->lines)
    fprintf(stderr, "weir solve: %.1f s: %llu iterations, %llu path edges, %.2f M path edges/s\n",
            t - p->start, (unsigned long long)iterations, (unsigned long long)path_edges,
            rate / 1e6);
  else
    fprintf(stderr, "\r\033[K  solving: %llu iterations, %llu path edges, %.2f M path edges/s",
            (unsigned long long)iterations, (unsigned long long)path_edges, rate / 1e6);
  fflush(stderr);
}

static void on_phase(void *user, const char *phase, double seconds) {
  progress *p = user;
  if (!p->lines) return;
  fprintf(stderr, "weir solve: %s %.3f s\n", phase, seconds);
  fflush(stderr);
}

static void progress_done(progress *p) {
  if (p->shown && !p->lines) fputs("\r\033[K", stderr);
}

/* ---- solving ------------------------------------------------------------------ */

static weir_status solve(const solve_args *a, const weir_ifds_problem *problem, progress *pr,
                         weir_ifds_result *result, weir_ifds_stats *stats, char *backend_id,
                         size_t cap) {
  weir_ifds_progress_fn fn = pr->lines || isatty(STDERR_FILENO) ? on_progress : NULL;
  if (strcmp(a->solver, "reference") == 0) {
    snprintf(backend_id, cap, "host");
    weir_ifds_reference_options options = {fn, pr};
    return weir_ifds_solve_reference_ex(problem, &options, result, stats);
  }
  weir_backend *backend = NULL;
  WEIR_TRY(weir_backend_open(a->backend, &backend));
  snprintf(backend_id, cap, "%s", weir_backend_id(backend));
  weir_ifds_engine_options options = {.progress = fn, .progress_user = pr, .phase = on_phase};
  weir_status s = weir_ifds_solve_engine(backend, problem, &options, result, stats);
  weir_backend_close(backend);
  return s;
}

/* Result and stats go through temporary files (tools/output.h): both are
 * written before either is renamed into place, and a failed write leaves the
 * files of an earlier run untouched. Neither may be the problem file itself. */
static weir_status write_outputs(const solve_args *a, const weir_ifds_result *result,
                                 const weir_ifds_stats *stats, const char *backend_id,
                                 double seconds_load) {
  weir_cli_output *result_out = NULL, *stats_out = NULL;
  FILE *rf = NULL, *sf = NULL;
  WEIR_TRY(weir_cli_output_open(a->result ? a->result : "-", a->problem, &result_out, &rf));
  weir_status s = WEIR_OK;
  if (a->stats) s = weir_cli_output_open(a->stats, a->problem, &stats_out, &sf);
  if (s == WEIR_OK) s = weir_ifds_write_result(result, rf);
  if (s == WEIR_OK && sf)
    s = weir_ifds_write_stats_json(stats, a->solver, backend_id, seconds_load, sf);
  if (s != WEIR_OK) {
    weir_cli_output_abort(result_out);
    weir_cli_output_abort(stats_out);
    return weir_fail_context(s, "writing '%s'%s%s", a->result ? a->result : "standard output",
                             a->stats ? " and " : "", a->stats ? a->stats : "");
  }
  s = weir_cli_output_commit(result_out);
  if (s != WEIR_OK) {
    weir_cli_output_abort(stats_out);
    return s;
  }
  return stats_out ? weir_cli_output_commit(stats_out) : WEIR_OK;
}

/* The one-line summary; engine runs add the figures of a resident solve. */
static void print_summary(FILE *out, const solve_args *a, const weir_ifds_problem *problem,
                          const weir_ifds_result *result, const weir_ifds_stats *st,
                          const char *backend_id, double seconds_load, double seconds_total) {
  fprintf(out, "solved %s: %u nodes, %u facts, %llu path edges, %llu holds in %.3f s (%s on %s; "
               "load %.3f s",
          a->problem, problem->node_count, problem->fact_count,
          (unsigned long long)result->path_edges, (unsigned long long)result->hold_count,
          seconds_total, a->solver, backend_id, seconds_load);
  if (st->windows)
    fprintf(out, "; upload %.3f s, solve %.3f s, read-back %.3f s; %llu iterations in %llu "
                 "windows, %llu host syncs; %.1f MB up, %.1f MB down; peak %.1f MB resident, "
                 "%.1f B per path edge",
            st->seconds_upload, st->seconds_solve, st->seconds_readback,
            (unsigned long long)st->iterations, (unsigned long long)st->windows,
            (unsigned long long)st->host_syncs, (double)st->bytes_uploaded / 1e6,
            (double)st->bytes_downloaded / 1e6, (double)st->peak_resident_bytes / 1e6,
            result->path_edges ? (double)st->peak_resident_bytes / (double)result->path_edges : 0.0);
  fprintf(out, ")\n");
}

/* Once per run, on standard error: what loaded but may not be what was meant. */
static void print_warnings(const char *path, const weir_ifds_problem *problem) {
  for (uint32_t bit = 1; bit; bit <<= 1)
    if (problem->warnings & bit)
      fprintf(stderr, "%s: warning: %s.\n", path, weir_ifds_warning_text(bit));
}

int weir_cmd_solve(int argc, char **argv) {
  if (argc >= 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
    usage(stdout);
    return 0;
  }
  solve_args a;
  if (parse(argc, argv, &a) != 0) return 2;
  double t0 = weir_cli_now();
  weir_ifds_problem *problem = NULL;
  weir_ifds_load_options load_options = {.strict = a.strict};
  weir_status s = weir_ifds_load_file_ex(a.problem, &load_options, &problem);
  if (s != WEIR_OK) { /* the loader's message as it is: FILE:LINE:COL: error: ... */
    fprintf(stderr, "%s\n", weir_last_error());
    return s == WEIR_ERR_PARSE || s == WEIR_ERR_IO ? 2 : 1;
  }
  print_warnings(a.problem, problem);
  double t1 = weir_cli_now();
  progress pr = {t1, t1, 0, a.progress};
  if (a.progress)
    fprintf(stderr, "weir solve: loaded %s: %.1f MB in %.3f s (%.0f MB/s), %u nodes, %u facts\n",
            a.problem, (double)problem->source_bytes / 1e6, t1 - t0,
            t1 > t0 ? (double)problem->source_bytes / 1e6 / (t1 - t0) : 0.0,
            problem->node_count, problem->fact_count);
  weir_ifds_result result = {0};
  weir_ifds_stats stats = {0};
  char backend_id[64] = "";
  s = solve(&a, problem, &pr, &result, &stats, backend_id, sizeof backend_id);
  progress_done(&pr);
  double t2 = weir_cli_now();
  if (s == WEIR_OK) s = write_outputs(&a, &result, &stats, backend_id, t1 - t0);
  if (s == WEIR_OK) print_summary(a.result ? stdout : stderr, &a, problem, &result, &stats,
                                  backend_id, t1 - t0, t2 - t1);
  weir_ifds_result_free(&result);
  weir_ifds_problem_free(problem);
  if (s == WEIR_OK) return 0;
  fprintf(stderr, "weir solve: %s\n", weir_last_error());
  return s == WEIR_ERR_INVALID_ARGUMENT ? 2 : 1; /* e.g. an unknown --backend */
}
