/* `weir analyze ANALYSIS FILE.ll|.bc`: IFDS analyses of LLVM IR (taint,
 * uninit) through the LLVM frontend (frontends/llvm), solved by the reference
 * solver or the resident engine, findings printed compiler-style and written
 * as SARIF 2.1.0. The frontend is compiled in only when LLVM 14 was found at
 * configure time (WEIR_HAVE_LLVM_FRONTEND). */
#include <stdio.h>
#include <string.h>

#include "tools/cli_util.h"
#include "tools/commands.h"
#include "weir/ifds.h"

static void usage(FILE *out) {
  fprintf(out,
          "usage: weir analyze ANALYSIS FILE.ll|.bc [options]\n\n"
          "ANALYSIS is `taint` (untrusted data reaching sensitive calls) or `uninit`\n"
          "(stack variables read before initialization). FILE is one LLVM 14 module:\n"
          "  clang-14 -g -O0 -emit-llvm -c prog.c -o prog.bc   (several: llvm-link-14)\n\n"
          "options:\n"
          "  --config FILE       taint sources/sinks/sanitizers (frontends/llvm/README.md)\n"
          "  --solver NAME       reference (default) or engine\n"
          "  --backend SPEC      backend of the engine (default auto): cpu, vulkan, cuda, ...\n"
          "  --sarif OUT.sarif   also write the findings as SARIF 2.1.0\n"
          "  --emit-ifds OUT     write the IFDS problem (text format) for other solvers\n"
          "  --quiet             no summary line on stderr\n\n"
          "Findings go to stdout as `file:line:col: warning: ... [weir-taint]`; the exit code\n"
          "is 0 when the analysis ran (with or without findings), 2 for bad input, 1 otherwise.\n");
}

#ifndef WEIR_HAVE_LLVM_FRONTEND

int weir_cmd_analyze(int argc, char **argv) {
  if (argc >= 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
    usage(stdout);
    printf("\nNote: this weir was built WITHOUT the LLVM frontend; `weir analyze` cannot run.\n");
    return 0;
  }
  fprintf(stderr,
          "weir analyze: the LLVM IR frontend was not compiled into this weir (LLVM 14 was not "
          "found at configure time, or -DWEIR_ENABLE_LLVM=OFF). Fix: apt-get install llvm-14-dev "
          "clang-14, then reconfigure with -DWEIR_ENABLE_LLVM=ON and rebuild.\n");
  return 1;
}

#else

#include "frontends/llvm/frontend.h"

typedef struct analyze_args {
  const char *analysis, *file, *config, *solver, *backend, *sarif, *emit;
  int quiet;
} analyze_args;

static int parse_args(int argc, char **argv, analyze_args *a) {
  memset(a, 0, sizeof *a);
  a->solver = "reference";
  a->backend = "auto";
  const char **values[] = {&a->config, &a->solver, &a->backend, &a->sarif, &a->emit};
  const char *names[] = {"--config", "--solver", "--backend", "--sarif", "--emit-ifds"};
  int positional = 0;
  for (int i = 1; i < argc; ++i) {
    int matched = 0;
    for (int k = 0; k < 5 && !matched; ++k) {
      if (strcmp(argv[i], names[k]) != 0) continue;
      if (i + 1 >= argc) {
        fprintf(stderr, "weir analyze: %s needs a value. Fix: see `weir analyze --help`\n", names[k]);
        return 2;
      }
      *values[k] = argv[++i];
      matched = 1;
    }
    if (matched) continue;
    if (strcmp(argv[i], "--quiet") == 0) a->quiet = 1;
    else if (argv[i][0] == '-' && argv[i][1]) {
      fprintf(stderr, "weir analyze: unknown option '%s'. Fix: see `weir analyze --help`\n", argv[i]);
      return 2;
    } else if (positional == 0) a->analysis = argv[i], positional++;
    else if (positional == 1) a->file = argv[i], positional++;
    else {
      fprintf(stderr, "weir analyze: unexpected argument '%s' (one ANALYSIS and one FILE). Fix: link "
                      "several modules first with llvm-link-14\n", argv[i]);
      return 2;
    }
  }
  if (!a->file) {
    fprintf(stderr, "weir analyze: need ANALYSIS and FILE (found %d of 2). Fix: weir analyze taint prog.bc\n",
            positional);
    return 2;
  }
  if (strcmp(a->solver, "reference") != 0 && strcmp(a->solver, "engine") != 0) {
    fprintf(stderr, "weir analyze: unknown solver '%s'. Fix: use --solver reference or --solver engine\n",
            a->solver);
    return 2;
  }
  return 0;
}

static weir_status solve(const analyze_args *a, const weir_ifds_problem *problem, weir_ifds_result *result,
                         weir_ifds_stats *stats) {
  if (strcmp(a->solver, "reference") == 0) return weir_ifds_solve_reference(problem, result, stats);
  weir_backend *backend = NULL;
  WEIR_TRY(weir_backend_open(a->backend, &backend));
  weir_ifds_engine_options options;
  memset(&options, 0, sizeof options);
  weir_status s = weir_ifds_solve_engine(backend, problem, &options, result, stats);
  weir_backend_close(backend);
  return s;
}

static weir_status build(const analyze_args *a, weir_llvm_problem **out) {
  weir_llvm_analysis analysis;
  WEIR_TRY(weir_llvm_analysis_parse(a->analysis, &analysis));
  weir_llvm_config *config = NULL;
  if (analysis == WEIR_LLVM_TAINT) {
    WEIR_TRY(weir_llvm_config_new(&config));
    if (a->config) {
      weir_status s = weir_llvm_config_load_file(config, a->config);
      if (s != WEIR_OK) {
        weir_llvm_config_free(config);
        return s;
      }
    }
  } else if (a->config) {
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "--config '%s' applies to the taint analysis only. Fix: drop --config for uninit",
                     a->config);
  }
  weir_status s = weir_llvm_build(a->file, analysis, config, out);
  weir_llvm_config_free(config);
  return s;
}

static weir_status run(const analyze_args *a, size_t *finding_count) {
  weir_llvm_problem *lp = NULL;
  weir_ifds_problem *problem = NULL;
  weir_ifds_result result;
  weir_ifds_stats stats;
  weir_llvm_findings findings;
  memset(&result, 0, sizeof result);
  memset(&stats, 0, sizeof stats);
  memset(&findings, 0, sizeof findings);
  weir_status s = build(a, &lp);
  if (s == WEIR_OK && a->emit) s = weir_llvm_problem_write(lp, a->emit);
  double t0 = weir_cli_now();
  if (s == WEIR_OK) s = weir_llvm_problem_load(lp, &problem);
  double t1 = weir_cli_now();
  if (s == WEIR_OK) s = solve(a, problem, &result, &stats);
  double t2 = weir_cli_now();
  if (s == WEIR_OK) s = weir_llvm_findings_collect(lp, problem, &result, &findings);
  if (s == WEIR_OK) {
    weir_llvm_findings_print(lp, &findings, stdout);
    fflush(stdout);
    *finding_count = findings.count;
  }
  if (s == WEIR_OK && a->sarif) s = weir_llvm_write_sarif(lp, &findings, a->sarif);
  if (s == WEIR_OK && !a->quiet) {
    const weir_llvm_build_stats *b = weir_llvm_problem_stats(lp);
    fprintf(stderr,
            "weir analyze: %s of %s: %u functions, %u nodes, %u facts; frontend %.3f s, load "
            "%.3f s; %s%s%s: %llu path edges in %.3f s; %zu finding%s\n",
            a->analysis, a->file, b->functions, b->nodes, b->facts, b->seconds_parse + b->seconds_build,
            t1 - t0, a->solver, strcmp(a->solver, "engine") == 0 ? " on " : "",
            strcmp(a->solver, "engine") == 0 ? a->backend : "", (unsigned long long)result.path_edges,
            t2 - t1, findings.count, findings.count == 1 ? "" : "s");
  }
  weir_llvm_findings_free(&findings);
  weir_ifds_result_free(&result);
  weir_ifds_problem_free(problem);
  weir_llvm_problem_free(lp);
  return s;
}

int weir_cmd_analyze(int argc, char **argv) {
  if (argc >= 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
    usage(stdout);
    return 0;
  }
  analyze_args a;
  int rc = parse_args(argc, argv, &a);
  if (rc) return rc;
  size_t count = 0;
  return weir_cli_report("analyze", run(&a, &count));
}

#endif
