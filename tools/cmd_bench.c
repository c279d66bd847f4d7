/* `weir bench`: built-in dispatch scenarios on every available backend, or a
 * user-described sequence file (`weir bench run FILE`). Measures, prints a
 * table, and writes JSON / a Chrome trace on request; never asserts timings.
 * The work is in bench/dispatch; this file parses the command line. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/dispatch/bench.h"
#include "tools/cli_util.h"
#include "tools/commands.h"
#include "tools/output.h"

typedef struct bench_cli {
  const char *backends[WEIR_BENCH_MAX_BACKENDS];
  size_t backend_count;
  const char *scenarios, *json, *trace, *file;
  int verify, quiet, explicit_backends, all_scenarios;
  weir_bench_params params;
  weir_program_decl decl;  /* --workgroup, for a program file */
  weir_program *program;   /* --program FILE, loaded */
} bench_cli;

static void usage(FILE *out) {
  fprintf(out,
          "usage: weir bench [OPTIONS]            built-in scenarios\n"
          "       weir bench run FILE [OPTIONS]   a sequence file (format: bench/README.md)\n"
          "       weir bench compare OLD.json NEW.json [--threshold R]   per-scenario ratios\n"
          "       weir bench fft [OPTIONS]        FFT GFLOP/s (weir bench fft --help)\n\n"
          "Runs on every available backend unless --backend SPEC is given (repeatable).\n"
          "Scenarios: fence-per-dispatch, sequence, repeated (the default: the program\n"
          "dispatched), upload-many, upload-single, ranged-readback, copy (--all-scenarios\n"
          "runs all 7, 13 records with the read-back sizes; --scenario a,b,c picks some).\n"
          "Each scenario prints a line on stdout as it completes, then a table of all.\n\n"
          "  --min-time S (0.5)             seconds of timed runs per scenario: after the\n"
          "                                 warm-up, one timed run, then as many as fill S\n"
          "                                 (3 to 1000 runs); scenarios run one after another\n"
          "  --runs N                       exactly N timed runs instead (overrides --min-time),\n"
          "                                 each after the warm-up, interleaved across scenarios\n"
          "                                 (a sequence file: 7 when not given)\n"
          "  --warmup N (1)                 untimed runs before each scenario (with --runs:\n"
          "                                 before each timed run); median, min, max\n"
          "  --all-scenarios                every scenario: the transfers too (upload, read-back\n"
          "                                 at each size, copy), as bench/plot draws\n"
          "  --steps N (1000)               dispatches per fence-per-dispatch / sequence run\n"
          "  --group N (4) --repeat K       repeated: 1 prefix step + K x group (K: steps/group)\n"
          "  --program NAME (noop)          built-in program to dispatch, or a program file\n"
          "  --program FILE[:ENTRY]         .spv (reflected), .weirprog, .ptx, .cubin, .so\n"
          "  --workgroup X[,Y[,Z]]          its workgroup (a .spv that hard-codes another is refused)\n"
          "  --verify                       compare the bindings after one dispatch across\n"
          "                                 backends (reference: cpu when the program has host code)\n"
          "  --grid X[,Y[,Z]]               its grid (default: the program's)\n"
          "  --buffer-size B (64K)          size of each buffer the program binds\n"
          "  --push V,V,...                 its push constants (default: value 1, count = words)\n"
          "  --upload-size B (64K) --upload-count N (64)\n"
          "  --readback-min B (4) --readback-max B (64M)   sizes min, x16, ..., max\n"
          "  --copy-size B (16M)\n"
          "  --no-device-time               skip the timed-dispatch runs\n"
          "  --no-verify                    (run) do not compare read-backs with cpu\n"
          "  --json FILE                    one record per scenario x backend (FILE -: stdout,\n"
          "                                 the lines and the table go to stderr then)\n"
          "  --trace FILE                   Chrome trace events (Perfetto, chrome://tracing)\n"
          "  --quiet                        no progress lines on stderr, no line per scenario\n");
}

static int bad_value(const char *opt, const char *value) {
  const char *why = weir_last_error();
  size_t n = strlen(opt); /* the parsers may have named the option already */
  if (value && strncmp(why, opt, n) == 0 && why[n] == ':')
    fprintf(stderr, "weir bench: %s\n", why);
  else if (value)
    fprintf(stderr, "weir bench: %s: %s\n", opt, why);
  else
    fprintf(stderr, "weir bench: %s: missing or too many values. Fix: see `weir bench --help`.\n",
            opt);
  return 2;
}

static weir_status parse_u64(const char *text, const char *what, uint64_t *out) {
  return weir_bench_parse_size(text, what, out);
}

/* Counts (runs, steps, ...) are whole numbers: no K/M/G suffix, and a
 * message that does not talk about sizes. */
static weir_status parse_count(const char *text, const char *what, uint64_t *out) {
  if (weir_cli_parse_u64(text, out) == 0) return WEIR_OK;
  return weir_fail(WEIR_ERR_PARSE,
                   "%s: needs a whole number, not '%s'. Fix: write the count in digits, e.g. "
                   "%s 7.",
                   what, text ? text : "(nothing)", what);
}

static weir_status parse_list(const char *text, const char *what, uint32_t *out, uint32_t max,
                              uint32_t *count) {
  char copy[512];
  snprintf(copy, sizeof copy, "%s", text);
  *count = 0;
  char *save = NULL;
  for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
    if (*count == max)
      return weir_fail(WEIR_ERR_PARSE, "%s: more than %u values. Fix: give fewer.", what, max);
    WEIR_TRY(weir_bench_parse_u32(t, what, &out[(*count)++]));
  }
  return WEIR_OK;
}

/* One option with a value; returns 0 if consumed, 1 if unknown, 2 on error. */
static int parse_valued(bench_cli *c, const char *opt, const char *v) {
  weir_bench_params *p = &c->params;
  uint64_t n = 0;
  uint32_t g[3] = {0, 0, 0}, count = 0;
  weir_status st = WEIR_OK;
  if (strcmp(opt, "--backend") == 0) {
    if (c->backend_count == WEIR_BENCH_MAX_BACKENDS) return bad_value(opt, NULL);
    c->backends[c->backend_count++] = v;
    c->explicit_backends = 1;
  } else if (strcmp(opt, "--workgroup") == 0) {
    st = parse_list(v, opt, g, 3, &count);
    if (st == WEIR_OK && (count == 0 || !g[0] || (count > 1 && !g[1]) || (count > 2 && !g[2])))
      st = weir_fail(WEIR_ERR_PARSE, "workgroup '%s' needs 1 to 3 positive sizes. Fix: write "
                     "e.g. --workgroup 64 or --workgroup 8,8,1.", v);
    c->decl.declared |= WEIR_DECL_WORKGROUP;
    c->decl.workgroup_size[0] = g[0];
    c->decl.workgroup_size[1] = count > 1 ? g[1] : 1;
    c->decl.workgroup_size[2] = count > 2 ? g[2] : 1;
  } else if (strcmp(opt, "--scenario") == 0) {
    c->scenarios = v;
    st = weir_bench_check_scenarios(v);
  } else if (strcmp(opt, "--min-time") == 0) {
    char *end = NULL;
    double t = v ? strtod(v, &end) : 0;
    if (!v || end == v || *end || !(t > 0 && t <= 3600))
      st = weir_fail(WEIR_ERR_PARSE, "--min-time: '%s' is not a number of seconds in (0, 3600]. "
                     "Fix: write e.g. --min-time 0.5 (or --runs N for a run count).", v ? v : "");
    else
      p->min_time_s = t;
  } else if (strcmp(opt, "--json") == 0)
    c->json = v;
  else if (strcmp(opt, "--trace") == 0)
    c->trace = v;
  else if (strcmp(opt, "--program") == 0)
    p->program = v;
  else if (strcmp(opt, "--grid") == 0) {
    st = parse_list(v, opt, g, 3, &count);
    if (st == WEIR_OK && (count == 0 || !g[0] || (count > 1 && !g[1]) || (count > 2 && !g[2])))
      st = weir_fail(WEIR_ERR_PARSE,
                     "grid '%s' needs 1 to 3 positive counts. Fix: write e.g. "
                     "--grid 16 or --grid 4,4,1.",
                     v);
    p->grid = (weir_grid){g[0], count > 1 ? g[1] : 1, count > 2 ? g[2] : 1};
  } else if (strcmp(opt, "--push") == 0) {
    st = parse_list(v, opt, p->push, WEIR_BENCH_MAX_PUSH_WORDS, &p->push_words);
  } else {
    /* Each sets a uint64_t field of weir_bench_params at `offset`, except
     * --runs / --warmup (32-bit, bounded). is_count: a whole number, not a
     * size with a K/M/G suffix. */
    static const struct { const char *name; size_t offset; int is_count; } opts[] = {
        {"--runs", 0, 1},
        {"--warmup", 0, 1},
        {"--steps", offsetof(weir_bench_params, steps), 1},
        {"--group", offsetof(weir_bench_params, group), 1},
        {"--repeat", offsetof(weir_bench_params, repeat), 1},
        {"--upload-count", offsetof(weir_bench_params, upload_count), 1},
        {"--buffer-size", offsetof(weir_bench_params, buffer_bytes), 0},
        {"--upload-size", offsetof(weir_bench_params, upload_bytes), 0},
        {"--readback-min", offsetof(weir_bench_params, readback_min), 0},
        {"--readback-max", offsetof(weir_bench_params, readback_max), 0},
        {"--copy-size", offsetof(weir_bench_params, copy_bytes), 0}};
    size_t k = 0;
    while (k < sizeof opts / sizeof opts[0] && strcmp(opt, opts[k].name) != 0) ++k;
    if (k == sizeof opts / sizeof opts[0]) return 1;
    st = opts[k].is_count ? parse_count(v, opt, &n) : parse_u64(v, opt, &n);
    if (st == WEIR_OK && k < 2 && n > 1000000)
      st = weir_fail(WEIR_ERR_PARSE, "%llu runs is more than 1000000. Fix: use fewer runs.",
                     (unsigned long long)n);
    if (st == WEIR_OK && k == 0 && n == 0)
      st = weir_fail(WEIR_ERR_PARSE, "--runs: 0 timed runs measure nothing. Fix: give --runs 1 "
                     "or more, or leave it out for a time budget (--min-time).");
    if (st == WEIR_OK && k == 0)
      p->runs = (uint32_t)n;
    else if (st == WEIR_OK && k == 1)
      p->warmup = (uint32_t)n;
    else if (st == WEIR_OK)
      memcpy((char *)p + opts[k].offset, &n, sizeof n);
  }
  return st == WEIR_OK ? 0 : bad_value(opt, v);
}

static int parse_args(bench_cli *c, int argc, char **argv) {
  int i = 1;
  if (i < argc && strcmp(argv[i], "run") == 0) {
    if (i + 1 < argc && (strcmp(argv[i + 1], "--help") == 0 || strcmp(argv[i + 1], "-h") == 0))
      return usage(stdout), -1;
    if (i + 1 >= argc || argv[i + 1][0] == '-') {
      fprintf(stderr, "weir bench: run needs a sequence file first. Fix: weir bench run "
                      "FILE [OPTIONS] (format: bench/README.md).\n");
      return 2;
    }
    c->file = argv[i + 1];
    i += 2;
  }
  for (; i < argc; ++i) {
    const char *a = argv[i];
    if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) return usage(stdout), -1;
    if (strcmp(a, "--no-device-time") == 0)
      c->params.device_time = 0;
    else if (strcmp(a, "--verify") == 0)
      c->params.verify = 1;
    else if (strcmp(a, "--no-verify") == 0)
      c->verify = 0;
    else if (strcmp(a, "--quiet") == 0)
      c->quiet = 1;
    else if (strcmp(a, "--all-scenarios") == 0 || strcmp(a, "--full") == 0)
      c->all_scenarios = 1;
    else if (i + 1 < argc && a[0] == '-') {
      int rc = parse_valued(c, a, argv[i + 1]);
      if (rc == 2) return 2;
      if (rc == 1) goto unknown;
      ++i;
    } else {
      goto unknown;
    }
    continue;
  unknown:
    fprintf(stderr, "weir bench: unexpected argument '%s'. Fix: see `weir bench --help`.\n", a);
    return 2;
  }
  return 0;
}

/* Without --backend: every backend that reports itself available. */
static int default_backends(bench_cli *c, weir_backend_report *reports, size_t cap) {
  size_t n = 0;
  weir_status st = weir_backend_reports(reports, cap, &n);
  if (st != WEIR_OK) {
    fprintf(stderr, "weir bench: %s\n", weir_last_error());
    return 1;
  }
  for (size_t i = 0; i < n && i < cap && c->backend_count < WEIR_BENCH_MAX_BACKENDS; ++i)
    if (reports[i].available) c->backends[c->backend_count++] = reports[i].id;
  return 0;
}

static void join_args(char *buf, size_t n, int argc, char **argv) {
  size_t len = snprintf(buf, n, "weir");
  for (int i = 0; i < argc && len < n; ++i) len += snprintf(buf + len, n - len, " %s", argv[i]);
}

/* 0 when every backend ran and verified; 1 when one failed; 2 when a backend
 * spec was bad input (an unknown id, a plugin path with no file, a device
 * index past the backend's devices). */
static int run_all(bench_cli *c, weir_bench_results *results, FILE *progress) {
  int failed = 0, bad_input = 0;
  weir_bench_seqfile *file = NULL;
  if (c->file) {
    weir_status st = weir_bench_seqfile_load(c->file, &file);
    if (st == WEIR_OK && c->verify) st = weir_bench_seqfile_reference(file);
    if (st != WEIR_OK) {
      fprintf(stderr, "weir bench: %s\n", weir_last_error());
      weir_bench_seqfile_free(file);
      return st == WEIR_ERR_PARSE || st == WEIR_ERR_INVALID_ARGUMENT || st == WEIR_ERR_IO ? 2 : 1;
    }
  }
  for (size_t i = 0; i < c->backend_count; ++i) {
    weir_status st = file ? weir_bench_seqfile_run(file, c->backends[i], c->params.warmup,
                                                   c->params.runs, results, progress)
                          : weir_bench_run_scenarios(c->backends[i], c->scenarios, &c->params,
                                                     results, progress);
    if (st != WEIR_OK) {
      /* One backend failing does not stop the others. */
      fprintf(stderr, "weir bench: %s: %s\n", c->backends[i], weir_last_error());
      failed = 1;
      bad_input |= st == WEIR_ERR_INVALID_ARGUMENT || st == WEIR_ERR_OUT_OF_RANGE;
    }
  }
  weir_bench_seqfile_free(file);
  for (size_t i = 0; i < results->count; ++i) failed |= results->records[i].verified == 0;
  return bad_input ? 2 : failed;
}

/* Writes the JSON (trace = 0) or the trace through a temporary file, so that a
 * failed write leaves no truncated report and an earlier one untouched. */
static weir_status write_report(const char *path, const char *input, int trace,
                                const weir_bench_results *results, const char *command) {
  weir_cli_output *output = NULL;
  FILE *f = NULL;
  WEIR_TRY(weir_cli_output_open(path, input, &output, &f));
  if (trace)
    weir_bench_write_trace(results, f);
  else
    weir_bench_write_json(results, command, f);
  return weir_cli_output_commit(output);
}

/* --program names a file when it has a '/' or a program file's extension, or
 * exists: FILE[:ENTRY], the entry after the last ':' (never a path). */
static int load_program(bench_cli *c) {
  const char *v = c->params.program;
  char path[4096];
  snprintf(path, sizeof path, "%s", v);
  char *colon = strrchr(path, ':');
  const char *entry = NULL;
  if (colon && !strchr(colon, '/') && access(path, F_OK) != 0) *colon = 0, entry = colon + 1;
  const char *dot = strrchr(path, '.');
  int file = strchr(path, '/') || access(path, F_OK) == 0 ||
             (dot && (!strcmp(dot, ".spv") || !strcmp(dot, ".weirprog") || !strcmp(dot, ".ptx") ||
                      !strcmp(dot, ".cubin") || !strcmp(dot, ".fatbin") || !strcmp(dot, ".so")));
  if (!file) {
    if (c->decl.declared & WEIR_DECL_WORKGROUP) {
      fprintf(stderr, "weir bench: --workgroup applies to program files; built-in program '%s' "
              "has its own. Fix: drop --workgroup or pass --program FILE.\n", v);
      return 2;
    }
    return 0;
  }
  if (weir_program_load(path, entry, &c->decl, &c->program) != WEIR_OK) {
    fprintf(stderr, "weir bench: --program %s: %s\n", v, weir_last_error());
    return 2;
  }
  c->params.user_program = c->program;
  c->params.program = c->program->name;
  return 0;
}

/* weir bench compare OLD.json NEW.json [--threshold R] */
static int weir_cmd_bench_compare(int argc, char **argv) {
  const char *files[2] = {NULL, NULL};
  double threshold = 0.05;
  int n = 0;
  for (int i = 1; i < argc; ++i) {
    if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
      printf("usage: weir bench compare OLD.json NEW.json [--threshold R (0.05)]\n"
             "Matches records by backend spec, scenario, program and sizes; prints new/old of\n"
             "the per-item medians, the noise of both runs' samples, and context differences.\n");
      return 0;
    }
    if (strcmp(argv[i], "--threshold") == 0 && i + 1 < argc) {
      char *end = NULL;
      threshold = strtod(argv[++i], &end);
      if (*end || threshold < 0) {
        fprintf(stderr, "weir bench compare: --threshold '%s' is not a ratio >= 0. Fix: write "
                "e.g. --threshold 0.05 (5%%).\n", argv[i]);
        return 2;
      }
    } else if (argv[i][0] != '-' && n < 2) {
      files[n++] = argv[i];
    } else {
      fprintf(stderr, "weir bench compare: unexpected argument '%s'. Fix: weir bench compare "
              "OLD.json NEW.json [--threshold R].\n", argv[i]);
      return 2;
    }
  }
  if (n != 2) {
    fprintf(stderr, "weir bench compare: needs two reports. Fix: weir bench compare OLD.json "
            "NEW.json (both written by weir bench --json).\n");
    return 2;
  }
  return weir_bench_compare(files[0], files[1], threshold, stdout);
}

/* Without --backend, a program file runs on the backends whose format it has. */
static void keep_backends_with_code(bench_cli *c, FILE *progress) {
  size_t kept = 0;
  for (size_t i = 0; i < c->backend_count; ++i) {
    weir_backend *b = NULL;
    int has = weir_backend_open(c->backends[i], &b) == WEIR_OK &&
              weir_program_has_format(c->program, weir_backend_format(b));
    if (has)
      c->backends[kept++] = c->backends[i];
    else if (progress && b)
      fprintf(progress, "bench: skipping %s: program '%s' has no %s code\n", c->backends[i],
              c->program->name, weir_program_format_name(weir_backend_format(b)));
    weir_backend_close(b);
  }
  c->backend_count = kept;
}

int weir_cmd_bench(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "compare") == 0) return weir_cmd_bench_compare(argc - 1, argv + 1);
  if (argc > 1 && strcmp(argv[1], "fft") == 0) return weir_cmd_bench_fft(argc - 1, argv + 1);
  bench_cli c;
  memset(&c, 0, sizeof c);
  c.verify = 1;
  weir_bench_default_params(&c.params);
  int rc = parse_args(&c, argc, argv);
  if (rc) return rc < 0 ? 0 : rc;
  if (c.all_scenarios && c.scenarios) {
    fprintf(stderr, "weir bench: --all-scenarios and --scenario %s: give one. Fix: drop "
            "--all-scenarios to run only those, or --scenario to run all.\n", c.scenarios);
    return 2;
  }
  if (!c.all_scenarios && !c.scenarios) c.scenarios = weir_bench_default_scenarios;
  if (c.file && c.params.runs == 0) c.params.runs = 7; /* sequence files: 7 runs by default */
  /* The human output (a line per scenario, the table) stays off a JSON or
   * trace written to standard output. */
  int report_on_stdout = (c.json && strcmp(c.json, "-") == 0) || (c.trace && strcmp(c.trace, "-") == 0);
  FILE *human = report_on_stdout ? stderr : stdout;
  c.params.lines = c.quiet ? NULL : human;
  if (!c.file && (rc = load_program(&c)) != 0) return rc;
  if (!c.file && weir_bench_check_params(&c.params) != WEIR_OK) {
    fprintf(stderr, "weir bench: %s\n", weir_last_error());
    return 2;
  }
  weir_backend_report reports[WEIR_BENCH_MAX_BACKENDS];
  if (c.backend_count == 0 && default_backends(&c, reports, WEIR_BENCH_MAX_BACKENDS)) {
    weir_program_free(c.program);
    return 1;
  }
  if (c.program && !c.explicit_backends) keep_backends_with_code(&c, c.quiet ? NULL : stderr);
  if (c.backend_count == 0) {
    weir_program_free(c.program);
    fprintf(stderr, "weir bench: no backend is available. Fix: run `weir info` to see why.\n");
    return 1;
  }
  weir_bench_results results = {0};
  results.start_ns = weir_bench_now_ns();
  /* --verify: the program's host code on cpu is the reference when it has some. */
  const weir_program *vp = c.params.user_program ? c.params.user_program
                                                 : weir_builtin_program(c.params.program);
  if (!c.file && c.params.verify && weir_program_has_format(vp, WEIR_FORMAT_HOST) &&
      weir_bench_verify_reference(&c.params, &results) != WEIR_OK) {
    fprintf(stderr, "weir bench: %s\n", weir_last_error());
    weir_bench_results_free(&results);
    weir_program_free(c.program);
    return 1;
  }
  rc = run_all(&c, &results, c.quiet ? NULL : stderr);
  if (rc == 2) {
    weir_bench_results_free(&results);
    weir_program_free(c.program);
    return rc;
  }
  if (results.count) weir_bench_print_table(&results, human);
  char command[1024];
  join_args(command, sizeof command, argc, argv);
  weir_status st = WEIR_OK;
  if (c.json) st = write_report(c.json, c.file, 0, &results, command);
  if (st == WEIR_OK && c.trace) st = write_report(c.trace, c.file, 1, &results, command);
  if (st != WEIR_OK) {
    fprintf(stderr, "weir bench: %s\n", weir_last_error());
    rc = 1;
  }
  weir_bench_results_free(&results);
  weir_program_free(c.program);
  return rc;
}
