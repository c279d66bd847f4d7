/* `weir ide PROBLEM [-o RESULT] [--strict] [--solver reference|engine] [--backend SPEC]
 * [--stats FILE.json]`: loads an IDE problem (docs/ide-format.md) and solves it with the
 * serial reference solver (default) or the resident engine; prints the result file
 * (every node, fact and value) to RESULT or standard output and a summary
 * line to standard error. Exit 0, 1 (failure) or 2 (bad input or usage). */
#include <stdio.h>
#include <string.h>

#include "tools/cli_util.h"
#include "tools/commands.h"
#include "tools/output.h"
#include "weir/ide.h"

static void usage(FILE *out) {
  fprintf(out,
          "usage: weir ide PROBLEM [-o RESULT] [--strict] [--solver reference|engine]\n"
          "                        [--backend SPEC] [--engine] [--stats FILE.json]\n\n"
          "Solves an IDE problem file (`weir-ide 1`, docs/ide-format.md) and writes the\n"
          "result: `weir-ide-result 1`, the path-edge and hold counts, then one line\n"
          "`NODE FACT VALUE` per fact that holds. Both solvers write the same bytes.\n\n"
          "  -o RESULT          write the result there (default: standard output)\n"
          "  --strict           refuse a problem file without its `end` line (it may be\n"
          "                     truncated); without --strict such a file loads with a warning\n"
          "  --solver NAME      reference (default: the serial solver on the host) or engine\n"
          "                     (the resident engine: engine/ide/README.md)\n"
          "  --engine           the same as --solver engine\n"
          "  --backend SPEC     the engine's device: auto (default), cpu, vulkan, cuda, ...\n"
          "                     (one device; implies --solver engine)\n"
          "  --stats FILE.json  write the solver's figures as JSON\n"
          "\n"
          "Exit codes: 0 solved; 2 bad input (an invalid problem file, whose message is\n"
          "FILE:LINE:COL: error: ..., a missing file, a bad option); 1 other failure\n"
          "(out of memory, cannot write the result, backend unavailable, a problem the\n"
          "engine refuses: its message ends with a Fix).\n");
}

static int fail(const char *message, int code) {
  fprintf(stderr, "weir ide: %s\n", message);
  return code;
}

typedef struct ide_args {
  const char *problem, *result, *solver, *backend, *stats;
  weir_ifds_load_options load;
} ide_args;

/* 0, or the exit code of a usage error (printed). */
static int parse(int argc, char **argv, ide_args *a) {
  for (int i = 1; i < argc; ++i) {
    const char **value = strcmp(argv[i], "-o") == 0          ? &a->result
                         : strcmp(argv[i], "--solver") == 0  ? &a->solver
                         : strcmp(argv[i], "--backend") == 0 ? &a->backend
                         : strcmp(argv[i], "--stats") == 0   ? &a->stats
                                                             : NULL;
    if (value && i + 1 < argc) *value = argv[++i];
    else if (strcmp(argv[i], "--strict") == 0) a->load.strict = 1;
    else if (strcmp(argv[i], "--engine") == 0) a->solver = "engine";
    else if (argv[i][0] != '-' && !a->problem) a->problem = argv[i];
    else {
      fprintf(stderr, "weir ide: unexpected argument '%s'. Fix: see weir ide --help.\n", argv[i]);
      return 2;
    }
  }
  if (!a->problem) return fail("no problem file. Fix: weir ide PROBLEM.ide [-o RESULT].", 2);
  if (!a->solver) a->solver = a->backend ? "engine" : "reference";
  if (strcmp(a->solver, "reference") && strcmp(a->solver, "engine"))
    return fprintf(stderr, "weir ide: unknown solver '%s'. Fix: use --solver reference or "
                           "--solver engine.\n", a->solver), 2;
  if (strcmp(a->solver, "reference") == 0 && a->backend)
    return fail("--backend with --solver reference: the reference solver runs on the host, on "
                "no device. Fix: drop --solver reference, or drop --backend.", 2);
  if (a->backend && strchr(a->backend, ','))
    return fprintf(stderr, "weir ide: --backend '%s' lists several devices; the IDE engine runs "
                           "on one. Fix: name one device (e.g. --backend cpu), or use the reference "
                           "solver (weir ide without --backend).\n", a->backend), 2;
  if (!a->backend) a->backend = "auto";
  return 0;
}

static weir_status solve(const ide_args *a, const weir_ide_problem *p, weir_ide_result *r,
                         weir_ide_stats *stats, char *backend_id, size_t cap) {
  if (strcmp(a->solver, "reference") == 0) {
    snprintf(backend_id, cap, "host");
    return weir_ide_solve_reference(p, r, stats);
  }
  weir_backend *b = NULL;
  WEIR_TRY(weir_backend_open(a->backend, &b));
  snprintf(backend_id, cap, "%s", weir_backend_id(b));
  weir_status s = weir_ide_solve_engine(b, p, NULL, r, stats);
  weir_backend_close(b);
  return s;
}

static void write_stats_json(FILE *f, const ide_args *a, const char *backend_id,
                             const weir_ide_stats *st, double seconds) {
  fprintf(f, "{\"solver\": \"%s\", \"backend\": \"%s\", \"seconds\": %.6f", a->solver,
          backend_id, seconds);
  const struct {
    const char *name;
    uint64_t value;
  } u[] = {{"path_edges", st->path_edges}, {"jump_updates", st->jump_updates},
           {"iterations", st->iterations}, {"value_iterations", st->value_iterations},
           {"rules", st->rules}, {"windows", st->windows}, {"ifds_iterations", st->ifds_iterations},
           {"ifds_windows", st->ifds_windows}, {"host_syncs", st->host_syncs},
           {"peak_resident_bytes", st->peak_resident_bytes},
           {"target_visits", st->target_visits}};
  for (size_t i = 0; i < sizeof u / sizeof u[0]; ++i)
    fprintf(f, ", \"%s\": %llu", u[i].name, (unsigned long long)u[i].value);
  fprintf(f, ", \"seconds_phase0\": %.6f, \"seconds_rules\": %.6f, \"seconds_phase1\": %.6f, "
             "\"seconds_values\": %.6f}\n", st->seconds_phase0, st->seconds_rules,
          st->seconds_phase1, st->seconds_values);
}

/* Result (and stats) through temporary files renamed into place (tools/output.h), as
 * weir solve -o: a failed write (a full disk, ulimit -f) leaves no partial result and an
 * earlier file untouched; the message names the path, the system's reason and a Fix. */
static weir_status write_outputs(const ide_args *a, const weir_ide_problem *p,
                                 const weir_ide_result *r, const weir_ide_stats *st,
                                 const char *backend_id, double seconds) {
  weir_cli_output *result_out = NULL, *stats_out = NULL;
  FILE *rf = NULL, *sf = NULL;
  WEIR_TRY(weir_cli_output_open(a->result ? a->result : "-", a->problem, &result_out, &rf));
  weir_status s = a->stats ? weir_cli_output_open(a->stats, a->problem, &stats_out, &sf) : WEIR_OK;
  if (s == WEIR_OK) s = weir_ide_write_result(p, r, rf);
  if (s == WEIR_OK && sf) write_stats_json(sf, a, backend_id, st, seconds);
  if (s != WEIR_OK) {
    weir_cli_output_abort(result_out);
    weir_cli_output_abort(stats_out);
    return weir_fail_context(s, "writing '%s'", a->result ? a->result : "standard output");
  }
  s = weir_cli_output_commit(result_out);
  if (s != WEIR_OK) {
    weir_cli_output_abort(stats_out);
    return s;
  }
  return stats_out ? weir_cli_output_commit(stats_out) : WEIR_OK;
}

int weir_cmd_ide(int argc, char **argv) {
  for (int i = 1; i < argc; ++i)
    if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) return usage(stdout), 0;
  ide_args a;
  memset(&a, 0, sizeof a);
  int code = parse(argc, argv, &a);
  if (code) return code;
  weir_ide_problem *p = NULL;
  weir_status s = weir_ide_load_file_ex(a.problem, &a.load, &p);
  if (s != WEIR_OK) { /* the loader's message as it is: FILE:LINE:COL: error: ... */
    fprintf(stderr, "%s\n", weir_last_error());
    return s == WEIR_ERR_PARSE || s == WEIR_ERR_IO ? 2 : 1;
  }
  for (uint32_t bit = 1; bit; bit <<= 1) /* the IFDS loader's warnings: no end line, no seeds */
    if (p->ifds->warnings & bit)
      fprintf(stderr, "%s: warning: %s.\n", a.problem, weir_ifds_warning_text(bit));
  weir_ide_result r;
  weir_ide_stats stats = WEIR_IDE_STATS_INIT;
  char backend_id[256];
  double t0 = weir_cli_now();
  s = solve(&a, p, &r, &stats, backend_id, sizeof backend_id);
  double seconds = weir_cli_now() - t0;
  if (s == WEIR_OK) s = write_outputs(&a, p, &r, &stats, backend_id, seconds);
  fflush(stdout);
  if (s == WEIR_OK) {
    fprintf(stderr, "solved %s: %u nodes, %u facts, %llu path edges, %llu holds, %llu jump "
            "function updates in %.3f s (%s on %s", a.problem, p->ifds->node_count,
            p->ifds->fact_count, (unsigned long long)r.path_edges, (unsigned long long)r.hold_count,
            (unsigned long long)stats.jump_updates, seconds, a.solver, backend_id);
    if (stats.windows)
      fprintf(stderr, "; %llu rules, %llu rounds in %llu windows, %llu host syncs, peak %.1f B "
              "per path edge", (unsigned long long)stats.rules, (unsigned long long)stats.iterations,
              (unsigned long long)stats.windows, (unsigned long long)stats.host_syncs,
              r.path_edges ? (double)stats.peak_resident_bytes / (double)r.path_edges : 0.0);
    fprintf(stderr, ")\n");
  }
  weir_ide_result_free(&r);
  weir_ide_problem_free(p);
  /* an output that is the problem file itself is a usage error, as in weir solve; a bad
   * --backend spec (cpu:99) is bad input too */
  return s == WEIR_OK ? 0
                      : fail(weir_last_error(),
                             s == WEIR_ERR_INVALID_ARGUMENT || s == WEIR_ERR_OUT_OF_RANGE ? 2 : 1);
}
