/* `weir analyze [ANALYSIS] FILE.ll|.bc...`: IFDS analyses of LLVM IR (taint,
 * uninit, uaf; without ANALYSIS all three, the default set) through the LLVM frontend (frontends/llvm), solved by the
 * reference solver or the resident engine, findings printed compiler-style
 * and written as SARIF 2.1.0. The frontend is compiled in only when LLVM 14
 * was found at configure time, and then into a helper program of its own,
 * weir-analyze (WEIR_HAVE_LLVM_FRONTEND; analyze_main.c), so that the weir
 * command does not load LLVM: `weir analyze` runs the helper
 * (WEIR_ANALYZE_HELPER). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tools/cli_util.h"
#include "tools/commands.h"
#include "tools/output.h"
#include "weir/ifds.h"

/* Exit codes (README "Exit codes"). */
enum { EXIT_OK = 0, EXIT_FAILURE_RUN = 1, EXIT_USAGE = 2, EXIT_FINDINGS = 3 };

static void usage(FILE *out) {
  fprintf(out,
          "usage: weir analyze [ANALYSIS] FILE.ll|.bc [FILE...] [options] [-- FILE...]\n\n"
          "ANALYSIS is one of\n"
          "  taint   untrusted data reaching commands, format strings and configured sinks\n"
          "  uninit  memory read before it is initialized\n"
          "  uaf     heap memory used after free, and double free\n"
          "  typestate  calls a protocol forbids in the state a resource is in (use after\n"
          "          fclose, double close, double lock) and resources never closed: --spec FILE\n"
          "          (share/weir/typestate: file, fd, mutex), an IDE problem (docs/typestate.md)\n"
          "  const   linear constant propagation (an IDE problem): the integers that are the\n"
          "          same constant on every path at a compare, switch, branch or call\n"
          "          argument; --emit-values FILE writes them as JSON (docs/const.md)\n"
          "  plugin:/path/libmine.so, or the id of a plugin on WEIR_ANALYSIS_PATH: an analysis\n"
          "          written against include/weir/analysis.h (docs/analysis-api.md)\n"
          "Without ANALYSIS (the first argument is a file) the default set runs: taint,\n"
          "uninit and uaf, one after the other, and the summary says so. A first argument\n"
          "that is neither an analysis nor a file is an error (a typo never runs a default).\n"
          "FILE is an LLVM 14 module; several are linked in process into one program:\n"
          "  clang-14 -g -O0 -emit-llvm -c prog.c -o prog.bc\n\n"
          "options (`--opt value` or `--opt=value`):\n"
          "  --analysis NAME      the analysis, instead of the first argument: taint, uninit, uaf, typestate, const,\n"
          "                       plugin:/path/libmine.so (an analysis plugin, include/weir/analysis.h),\n"
          "                       or the id of a plugin in a directory on WEIR_ANALYSIS_PATH\n"
          "  --config FILE        library table: sources, sinks, sanitizers, ... (taint and plugins\n"
          "                       read the sinks and sources; every analysis reads the memory models)\n"
          "  --spec FILE          typestate: the protocol (share/weir/typestate/file.spec)\n"
          "  --emit-values FILE   const: the constant uses as JSON (function, file:line:col, C name, value)\n"
          "  --prune-with-const   every analysis but const: run const first and drop the edges of the\n"
          "                       branches it proves constant (a flag set once and tested); the\n"
          "                       summary counts them (docs/const.md, off by default)\n"
          "  --solver NAME        reference (default) or engine\n"
          "  --backend SPEC       backend of the engine: auto, cpu, cpu:N, vulkan, cuda, ...;\n"
          "                       given without --solver it selects the engine\n"
          "  --sarif OUT.sarif    also write the findings as SARIF 2.1.0 (with code flows)\n"
          "  --emit-ifds OUT      write the IFDS problem (text format) for other solvers\n"
          "  --source-root DIR    paths in the output are relative to DIR (default: the\n"
          "                       current directory); SARIF names it %%SRCROOT%%\n"
          "  --min-confidence L   report only findings of confidence L or more: high, medium,\n"
          "                       low (all; the default) or a number 0..100\n"
          "  --baseline OLD.sarif report only findings whose fingerprint OLD (an earlier\n"
          "                       --sarif of weir) does not hold; SARIF marks them \"new\"\n"
          "  --fail-on-findings   exit with 3 when at least one finding is reported\n"
          "  --all-facts          keep the facts that lead to no check (pruned by default): the\n"
          "                       same findings from a larger problem, for --emit-ifds and solver\n"
          "                       benchmarks\n"
          "  --quiet              no summaries on stderr\n"
          "  --                   the end of the options: what follows is the analysis (when not\n"
          "                       given yet) and modules, even a name that starts with '-'\n\n"
          "Findings go to stdout as `file:line:col: warning: ... [weir-taint-command-injection]`,\n"
          "one per rule and place, its other sources counted (\"and 2 more sources\"); then a\n"
          "summary by rule and by file on stderr. A comment `// weir: ignore` or\n"
          "`/* weir: ignore[uninit] */` on a finding's line or the line above suppresses it\n"
          "(SARIF keeps it, with `suppressions`).\n"
          "Output files are checked before the analysis runs and written atomically (an\n"
          "earlier file stays when writing fails).\n"
          "Exit codes: 0 the analysis ran (with or without findings); 3 findings and\n"
          "--fail-on-findings; 2 bad input or usage (unknown analysis or option, missing or\n"
          "unreadable module or config, bad output path); 1 any other failure.\n");
}

/* Prints the last error once with the command's prefix: frontend messages
 * that start with "analyze" already name the command. */
static int report_error(weir_status status) {
  const char *message = weir_last_error();
  if (strncmp(message, "analyze: ", 9) == 0) message += 9;
  else if (strncmp(message, "analyze ", 8) == 0) {
    fprintf(stderr, "weir %s\n", message);
    return weir_cli_exit_code(status);
  }
  fprintf(stderr, "weir analyze: %s\n", message);
  return weir_cli_exit_code(status);
}

#ifndef WEIR_HAVE_LLVM_FRONTEND

#ifdef WEIR_ANALYZE_HELPER
/* The frontend lives in a helper program, weir-analyze (the only part of weir
 * that links LLVM), found next to this executable (a build tree) or at
 * WEIR_ANALYZE_HELPER relative to it (an installation: libexec/weir). Runs it
 * in place of this process; returns only when there is none to run. */
static void exec_helper(char **argv) {
  weir_cli_exec_helper("weir analyze", "the LLVM IR frontend", "weir-analyze",
                       WEIR_ANALYZE_HELPER, argv);
  exit(EXIT_FAILURE_RUN);
}
#endif

int weir_cmd_analyze(int argc, char **argv) {
#ifdef WEIR_ANALYZE_HELPER
  exec_helper(argv);
#endif
  for (int i = 1; i < argc; ++i)
    if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
      usage(stdout);
      printf("\nNote: this weir was built WITHOUT the LLVM frontend; `weir analyze` cannot run.\n");
      return EXIT_OK;
    }
  (void)report_error;
  fprintf(stderr,
          "weir analyze: the LLVM IR frontend was not compiled into this weir (LLVM 14 was not "
          "found at configure time, or -DWEIR_ENABLE_LLVM=OFF). Fix: apt-get install llvm-14-dev "
          "clang-14, then reconfigure with -DWEIR_ENABLE_LLVM=ON and rebuild.\n");
  return EXIT_FAILURE_RUN;
}

#else

#include "frontends/llvm/frontend.h"

#define MAX_FILES 256

typedef struct analyze_args {
  const char *analysis, *analysis_option, *config, *solver, *backend, *sarif, *emit, *root, *baseline, *min_confidence;
  const char *spec; /* typestate: the protocol (docs/typestate.md) */
  const char *values; /* const: --emit-values (docs/const.md) */
  int prune_with_const;
  const char *files[MAX_FILES];
  size_t file_count;
  int quiet, fail_on_findings, all_facts;
  int default_set; /* no ANALYSIS named: run every one of default_analyses */
} analyze_args;

/* What `weir analyze FILE...` runs, in this order (as clang's analyzer and
 * CodeQL run their default checkers when none is named). */
static const char *const default_analyses[] = {"taint", "uninit", "uaf"};
#define DEFAULT_ANALYSES (sizeof default_analyses / sizeof default_analyses[0])

static int is_builtin(const char *name) {
  if (strcmp(name, "typestate") == 0) return 1; /* built in, but not in the default set: it needs --spec */
  if (strcmp(name, "const") == 0) return 1;     /* built in; finds values, not findings */
  for (size_t k = 0; k < DEFAULT_ANALYSES; ++k)
    if (strcmp(name, default_analyses[k]) == 0) return 1;
  return 0;
}

/* A module's name as the user would write one: an existing path, or a name
 * ending in .ll or .bc (a missing module is then reported as such). */
static int looks_like_module(const char *arg) {
  size_t n = strlen(arg);
  if (n > 3 && (strcmp(arg + n - 3, ".ll") == 0 || strcmp(arg + n - 3, ".bc") == 0)) return 1;
  return access(arg, F_OK) == 0;
}

static const char *const value_options[] = {"--config",      "--solver",   "--backend",       "--sarif",
                                            "--emit-ifds",   "--source-root", "--baseline", "--min-confidence",
                                            "--analysis",    "--spec",     "--emit-values"};
#define VALUE_OPTIONS (sizeof value_options / sizeof value_options[0])

static const char **value_slot(analyze_args *a, size_t k) {
  const char **slots[VALUE_OPTIONS] = {&a->config, &a->solver,   &a->backend,        &a->sarif,
                                       &a->emit,   &a->root,     &a->baseline,       &a->min_confidence,
                                       &a->analysis_option, &a->spec, &a->values};
  return slots[k];
}

/* --help or -h as an option: not the value of another option (--backend
 * --help is a bad backend) and not after "--" (a file named -h). */
static int wants_help(int argc, char **argv) {
  for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; ++i) {
    if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) return 1;
    for (size_t k = 0; k < VALUE_OPTIONS; ++k)
      if (strcmp(argv[i], value_options[k]) == 0) ++i; /* its value */
  }
  return 0;
}

static int usage_error(const char *what, const char *arg, const char *fix) {
  fprintf(stderr, "weir analyze: %s '%s'. Fix: %s\n", what, arg, fix);
  return EXIT_USAGE;
}

/* One option at argv[*i] (`--opt value` or `--opt=value`); 0 when taken. */
static int parse_option(int argc, char **argv, int *i, analyze_args *a) {
  const char *arg = argv[*i];
  if (strcmp(arg, "--quiet") == 0) return a->quiet = 1, 0;
  if (strcmp(arg, "--all-facts") == 0) return a->all_facts = 1, 0;
  if (strcmp(arg, "--prune-with-const") == 0) return a->prune_with_const = 1, 0;
  if (strcmp(arg, "--fail-on-findings") == 0) return a->fail_on_findings = 1, 0;
  for (size_t k = 0; k < VALUE_OPTIONS; ++k) {
    size_t length = strlen(value_options[k]);
    if (strncmp(arg, value_options[k], length) != 0) continue;
    if (arg[length] == '=') {
      *value_slot(a, k) = arg + length + 1;
    } else if (arg[length] == 0) {
      if (*i + 1 >= argc) return usage_error("missing the value of", arg, "see `weir analyze --help`");
      *value_slot(a, k) = argv[++*i];
    } else {
      continue;
    }
    if (!**value_slot(a, k)) return usage_error("empty value for", value_options[k], "give a value");
    return 0;
  }
  return usage_error("unknown option", arg, "see `weir analyze --help`");
}

/* The first argument is the analysis, unless it is a module: then every
 * argument is a module and the default set runs. A plugin id is looked up
 * exactly as --analysis ID does, with its errors; only a name nothing
 * provides gets the message that also says it is no file. */
static int first_argument(analyze_args *a) {
  if (!a->analysis || is_builtin(a->analysis) || strncmp(a->analysis, "plugin:", 7) == 0) return 0;
  if (!looks_like_module(a->analysis)) {
    weir_llvm_plugin *plugin = NULL;
    int unknown = 0;
    weir_status s = weir_llvm_plugin_lookup(a->analysis, &plugin, &unknown);
    weir_llvm_plugin_close(plugin); /* run() opens it again, as for --analysis */
    if (s == WEIR_OK) return 0;
    if (!unknown) return report_error(s);
    char ids[512] = ""; /* loads the libraries on WEIR_ANALYSIS_PATH: only for a name nothing provides */
    weir_llvm_plugin_path_ids(ids, sizeof ids);
    fprintf(stderr, "weir analyze: '%s' is neither an analysis (taint, uninit, uaf, typestate, const%s%s) nor an "
                    "existing file. Fix: name one of taint, uninit, uaf (weir analyze taint prog.bc), typestate "
                    "with --spec FILE, const, a plugin "
                    "(--analysis plugin:/path/libmine.so), or give only modules to run all three (weir "
                    "analyze prog.bc).\n", a->analysis, ids[0] ? ", " : "", ids);
    return EXIT_USAGE;
  }
  if (a->file_count == MAX_FILES)
    return usage_error("too many modules, at", a->files[MAX_FILES - 1],
                       "link some first with llvm-link-14 (256 at most)");
  memmove(a->files + 1, a->files, a->file_count * sizeof a->files[0]);
  a->files[0] = a->analysis;
  a->file_count++;
  a->analysis = NULL;
  a->default_set = 1;
  return 0;
}

static int parse_args(int argc, char **argv, analyze_args *a) {
  memset(a, 0, sizeof *a);
  int options = 1; /* until "--": after it every argument is the analysis or a module, even "-x.bc" */
  for (int i = 1; i < argc; ++i) {
    if (options && strcmp(argv[i], "--") == 0) {
      options = 0;
    } else if (options && argv[i][0] == '-' && argv[i][1]) {
      int rc = parse_option(argc, argv, &i, a);
      if (rc) return rc;
    } else if (!a->analysis && !a->analysis_option) {
      a->analysis = argv[i];
    } else if (a->file_count < MAX_FILES) {
      a->files[a->file_count++] = argv[i];
    } else {
      return usage_error("too many modules, at", argv[i], "link some first with llvm-link-14 (256 at most)");
    }
  }
  if (a->analysis_option && a->analysis) { /* the first argument came before --analysis */
    if (!looks_like_module(a->analysis))
      return usage_error("two analyses: --analysis and the first argument", a->analysis,
                         "name the analysis once (weir analyze --analysis NAME prog.bc)");
    if (a->file_count == MAX_FILES)
      return usage_error("too many modules, at", a->analysis, "link some first with llvm-link-14 (256 at most)");
    memmove(a->files + 1, a->files, a->file_count * sizeof a->files[0]);
    a->files[0] = a->analysis;
    a->file_count++;
  }
  if (a->analysis_option) a->analysis = a->analysis_option;
  else {
    int rc = first_argument(a);
    if (rc) return rc;
  }
  if (!a->file_count) {
    fprintf(stderr, "weir analyze: need at least one FILE (found %s). Fix: weir analyze prog.bc "
                    "(taint, uninit and uaf) or weir analyze %s prog.bc\n",
            a->analysis ? "only the analysis" : "no argument", a->analysis ? a->analysis : "taint");
    return EXIT_USAGE;
  }
  if (a->default_set && (a->sarif || a->emit))
    return usage_error("no ANALYSIS named (the default set: taint, uninit, uaf) with",
                       a->sarif ? "--sarif" : "--emit-ifds",
                       "name the analysis whose findings or problem to write, e.g. weir analyze "
                       "taint prog.bc --sarif out.sarif (one file holds one analysis)");
  /* --backend alone means the engine on that backend. */
  if (!a->solver) a->solver = a->backend ? "engine" : "reference";
  if (!a->backend) a->backend = "auto";
  if (strcmp(a->solver, "reference") != 0 && strcmp(a->solver, "engine") != 0)
    return usage_error("unknown solver", a->solver, "use --solver reference or --solver engine");
  if (strcmp(a->solver, "reference") == 0 && strcmp(a->backend, "auto") != 0)
    return usage_error("--backend with --solver reference: the reference solver runs on the host, not on",
                       a->backend, "drop --solver reference to run the engine on that backend");
  return 0;
}

/* ---- checks before the analysis runs ------------------------------------- */

static weir_status check_readable(const char *path, const char *what, const char *fix) {
  struct stat st;
  if (stat(path, &st) != 0 || access(path, R_OK) != 0)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT, "cannot read the %s '%s': %s. Fix: %s", what, path,
                     strerror(errno), fix);
  if (S_ISDIR(st.st_mode))
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT, "the %s '%s' is a directory. Fix: %s", what, path, fix);
  return WEIR_OK;
}

static int same_file(const char *a, const char *b) {
  struct stat x, y;
  return stat(a, &x) == 0 && stat(b, &y) == 0 && x.st_dev == y.st_dev && x.st_ino == y.st_ino;
}

/* The directory of `path` (as written) and its last component. */
static void split_path(const char *path, char *dir, size_t size, const char **base) {
  const char *slash = strrchr(path, '/');
  snprintf(dir, size, "%.*s", slash ? (int)(slash - path) + (slash == path) : 1, slash ? path : ".");
  *base = slash ? slash + 1 : path;
}

/* Two output paths name one file, whether or not it exists yet. */
static int same_output(const char *a, const char *b) {
  if (strcmp(a, b) == 0 || same_file(a, b)) return 1;
  char da[4096], db[4096];
  const char *ba, *bb;
  split_path(a, da, sizeof da, &ba);
  split_path(b, db, sizeof db, &bb);
  return strcmp(ba, bb) == 0 && same_file(da, db);
}

/* An output goes into an existing, writable directory, and may not be an
 * input (nor the other output, checked by the caller). */
static weir_status check_output(const analyze_args *a, const char *path, const char *option) {
  if (strcmp(path, "-") != 0) {
    char dir[4096];
    const char *base;
    split_path(path, dir, sizeof dir, &base);
    struct stat st;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
      return weir_fail(WEIR_ERR_INVALID_ARGUMENT, "%s '%s': the directory '%s' does not exist. Fix: create "
                       "it or write elsewhere", option, path, dir);
    if (access(dir, W_OK | X_OK) != 0)
      return weir_fail(WEIR_ERR_INVALID_ARGUMENT, "%s '%s': the directory '%s' is not writable (%s). Fix: "
                       "write elsewhere", option, path, dir, strerror(errno));
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
      return weir_fail(WEIR_ERR_INVALID_ARGUMENT, "%s '%s' is a directory. Fix: name a file in it", option,
                       path);
  }
  for (size_t k = 0; k < a->file_count; ++k)
    if (same_file(path, a->files[k]))
      return weir_fail(WEIR_ERR_INVALID_ARGUMENT, "%s '%s' is the input module '%s'; writing it would "
                       "destroy the input. Fix: choose another output path", option, path, a->files[k]);
  if (a->config && same_file(path, a->config))
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT, "%s '%s' is the --config file. Fix: choose another "
                     "output path", option, path);
  return WEIR_OK;
}

/* A built-in by name, else a plugin (opened: *plugin, the caller closes it). */
static weir_status resolve_analysis(const analyze_args *a, weir_llvm_analysis *analysis, weir_llvm_plugin **plugin) {
  *plugin = NULL;
  if (is_builtin(a->analysis)) return weir_llvm_analysis_parse(a->analysis, analysis);
  *analysis = WEIR_LLVM_PLUGIN;
  return weir_llvm_plugin_open(a->analysis, plugin);
}

/* typestate takes --spec and the reference IDE solver; --spec is for it alone. */
static weir_status check_typestate(const analyze_args *a, weir_llvm_analysis analysis) {
  if (analysis != WEIR_LLVM_TYPESTATE) {
    if (a->spec)
      return weir_fail(WEIR_ERR_INVALID_ARGUMENT, "--spec '%s' is for typestate, not %s. Fix: run `weir analyze "
                       "typestate --spec %s FILE`, or drop --spec", a->spec, a->analysis, a->spec);
    return WEIR_OK;
  }
  if (!a->spec)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT, "typestate needs a protocol to check. Fix: pass --spec FILE (the "
                     "installed share/weir/typestate/file.spec checks FILE*; the format is in docs/typestate.md)");
  return check_readable(a->spec, "--spec file", "give a typestate spec (share/weir/typestate/*.spec)");
}

/* const: the reference IDE solver, --emit-values for it alone, no pruning by itself. */
static weir_status check_const(const analyze_args *a, weir_llvm_analysis analysis) {
  if (analysis != WEIR_LLVM_CONST) {
    if (a->values)
      return weir_fail(WEIR_ERR_INVALID_ARGUMENT, "--emit-values '%s' is for const, not %s. Fix: run `weir analyze "
                       "const --emit-values %s FILE`, or drop --emit-values", a->values, a->analysis, a->values);
    return WEIR_OK;
  }
  if (a->prune_with_const)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT, "--prune-with-const is for the other analyses (const would prune "
                     "what it reports). Fix: drop --prune-with-const, or use it with uninit, uaf, taint or typestate");
  return WEIR_OK;
}

static weir_status check_inputs(const analyze_args *a, weir_llvm_analysis *analysis, weir_llvm_plugin **plugin) {
  WEIR_TRY(resolve_analysis(a, analysis, plugin));
  WEIR_TRY(check_typestate(a, *analysis));
  WEIR_TRY(check_const(a, *analysis));
  uint32_t minimum = 0;
  if (a->min_confidence) WEIR_TRY(weir_llvm_confidence_parse(a->min_confidence, &minimum));
  if (a->baseline)
    WEIR_TRY(check_readable(a->baseline, "--baseline file", "give the SARIF file of an earlier weir analyze --sarif"));
  for (size_t k = 0; k < a->file_count; ++k)
    WEIR_TRY(check_readable(a->files[k], "module",
                            "give .ll or .bc files made by clang-14 -emit-llvm (see --help)"));
  if (a->config) WEIR_TRY(check_readable(a->config, "--config file", "check the path"));
  if (a->root) {
    struct stat st;
    if (stat(a->root, &st) != 0 || !S_ISDIR(st.st_mode))
      return weir_fail(WEIR_ERR_INVALID_ARGUMENT, "--source-root '%s' is not a directory. Fix: give the "
                       "directory the reported paths are relative to (usually the checkout)", a->root);
  }
  if (a->sarif) WEIR_TRY(check_output(a, a->sarif, "--sarif"));
  /* --baseline and --sarif may name one file: the old one is read before the new one replaces it. */
  if (a->emit) WEIR_TRY(check_output(a, a->emit, "--emit-ifds"));
  if (a->values) WEIR_TRY(check_output(a, a->values, "--emit-values"));
  if (a->values && ((a->sarif && same_output(a->sarif, a->values)) || (a->emit && same_output(a->emit, a->values))))
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT, "--emit-values '%s' names the file of another output. Fix: give "
                     "each output its own file", a->values);
  if (a->sarif && a->emit && same_output(a->sarif, a->emit))
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT, "--sarif and --emit-ifds both name '%s'. Fix: give two "
                     "different files", a->sarif);
  return WEIR_OK;
}

/* The output files, opened (as temporary files next to their paths) before
 * the analysis so that a bad path fails in a second, not after the solve. */
typedef struct outputs {
  weir_cli_output *sarif, *emit, *values;
  FILE *sarif_stream, *emit_stream, *values_stream;
} outputs;

static weir_status open_outputs(const analyze_args *a, outputs *o) {
  memset(o, 0, sizeof *o);
  if (a->sarif) WEIR_TRY(weir_cli_output_open(a->sarif, a->files[0], &o->sarif, &o->sarif_stream));
  if (a->emit) {
    weir_status s = weir_cli_output_open(a->emit, a->files[0], &o->emit, &o->emit_stream);
    if (s != WEIR_OK) {
      weir_cli_output_abort(o->sarif);
      o->sarif = NULL;
      return s;
    }
  }
  if (a->values) {
    weir_status s = weir_cli_output_open(a->values, a->files[0], &o->values, &o->values_stream);
    if (s != WEIR_OK) {
      weir_cli_output_abort(o->sarif);
      weir_cli_output_abort(o->emit);
      o->sarif = o->emit = NULL;
      return s;
    }
  }
  return WEIR_OK;
}

static void abort_outputs(outputs *o) {
  weir_cli_output_abort(o->sarif);
  weir_cli_output_abort(o->emit);
  weir_cli_output_abort(o->values);
  memset(o, 0, sizeof *o);
}

/* ---- the run -------------------------------------------------------------- */

typedef struct run_state {
  weir_llvm_problem *lp;
  weir_ifds_problem *problem;
  weir_ifds_result result;
  weir_ifds_stats stats;
  weir_llvm_findings findings;
  weir_llvm_const_values values; /* const */
  char backend[200]; /* what solved it: "host", or the backend id and device */
  double seconds_load, seconds_solve;
} run_state;

/* The engine's backend (--backend), named in r->backend for the summary. */
static weir_status open_backend(const analyze_args *a, run_state *r, const char *suffix, weir_backend **out) {
  weir_backend *backend = NULL;
  WEIR_TRY(weir_backend_open(a->backend, &backend));
  weir_device_info info;
  memset(&info, 0, sizeof info);
  const char *id = weir_backend_id(backend);
  const char *picked = strcmp(a->backend, "auto") == 0 ? ", picked by auto" : "";
  if (weir_backend_device_info(backend, &info) == WEIR_OK && info.name[0])
    snprintf(r->backend, sizeof r->backend, "%s (%s)%s%s", id, info.name, picked, suffix);
  else snprintf(r->backend, sizeof r->backend, "%s%s%s", id, picked, suffix);
  *out = backend;
  return WEIR_OK;
}

static weir_status solve(const analyze_args *a, run_state *r) {
  int engine = strcmp(a->solver, "reference") != 0;
  const char *analysis = weir_llvm_problem_analysis(r->lp);
  weir_backend *backend = NULL;
  int ide = strcmp(analysis, "typestate") == 0 || strcmp(analysis, "const") == 0;
  if (!engine) snprintf(r->backend, sizeof r->backend, ide ? "host, IDE" : "host");
  else WEIR_TRY(open_backend(a, r, ide ? ", IDE engine" : "", &backend));
  weir_status s;
  if (strcmp(analysis, "typestate") == 0) {
    s = weir_llvm_typestate_solve(r->lp, backend, &r->result);
  } else if (strcmp(analysis, "const") == 0) {
    s = weir_llvm_const_solve(r->lp, backend, &r->values, &r->result);
  } else if (!engine) {
    s = weir_ifds_solve_reference(r->problem, &r->result, &r->stats);
  } else {
    weir_ifds_engine_options options;
    memset(&options, 0, sizeof options);
    s = weir_ifds_solve_engine(backend, r->problem, &options, &r->result, &r->stats);
  }
  if (backend) weir_backend_close(backend);
  return s;
}

/* --config goes into the memory model's table and, for a plugin, into the
 * plugin's own (its sources, sinks, sanitizers and transfers). */
static weir_status build(const analyze_args *a, weir_llvm_analysis analysis, weir_llvm_plugin *plugin,
                         weir_llvm_problem **out) {
  weir_llvm_config *config = NULL;
  WEIR_TRY(weir_llvm_config_new(&config));
  weir_status s = a->config ? weir_llvm_config_load_file(config, a->config) : WEIR_OK;
  if (s == WEIR_OK && analysis == WEIR_LLVM_TYPESTATE) s = weir_llvm_config_typestate_spec_file(config, a->spec);
  if (s == WEIR_OK && plugin && a->config) s = weir_llvm_plugin_config_file(plugin, a->config);
  weir_llvm_config_keep_all_facts(config, a->all_facts);
  weir_llvm_config_prune_with_const(config, a->prune_with_const);
  if (s == WEIR_OK)
    s = plugin ? weir_llvm_build_plugin_files(a->files, a->file_count, plugin, config, out)
               : weir_llvm_build_files(a->files, a->file_count, analysis, config, out);
  weir_llvm_config_free(config);
  return s;
}

/* "a.bc", or "a.bc and 2 more". */
static void inputs_name(const analyze_args *a, char *out, size_t size) {
  if (a->file_count == 1) snprintf(out, size, "%s", a->files[0]);
  else snprintf(out, size, "%s and %zu more", a->files[0], a->file_count - 1);
}

static void print_summary(const analyze_args *a, const run_state *r) {
  const weir_llvm_build_stats *b = weir_llvm_problem_stats(r->lp);
  char inputs[600];
  inputs_name(a, inputs, sizeof inputs);
  fprintf(stderr, "weir analyze: %s of %s: %u functions, %u nodes (%u bypassed), %u facts",
          weir_llvm_problem_analysis(r->lp), inputs,
          b->functions, b->nodes, b->bypassed_nodes, b->facts);
  if (b->facts_before_pruning > b->facts)
    fprintf(stderr, " (of %u before pruning, %u of them generable)", b->facts_before_pruning, b->facts_generable);
  if (b->modules > 1) fprintf(stderr, " from %u linked modules", b->modules);
  fprintf(stderr, "; frontend %.3f s (parse %.3f s, prepare %.3f s, points-to %.3f s)",
          b->seconds_parse + b->seconds_build, b->seconds_parse, b->seconds_prepare, b->seconds_points_to);
  if (b->promoted || b->forwarded_loads || b->folded_branches || b->removed_blocks || b->threaded_edges ||
      b->noreturn_calls)
    fprintf(stderr,
            "; prepared: %u allocas promoted (%u out-parameter slots), %u loads forwarded, %u branches folded, %u "
            "edges threaded, %u calls that never return, %u blocks removed",
            b->promoted, b->out_slots, b->forwarded_loads, b->folded_branches, b->threaded_edges,
            b->noreturn_calls, b->removed_blocks);
  if (b->memory_objects)
    fprintf(stderr,
            "; points-to: %u objects, %u locations, %llu pairs (%llu elements sent in %u iterations, %u nodes "
            "merged on cycles)%s",
            b->memory_objects, b->memory_locations, (unsigned long long)b->memory_pairs,
            (unsigned long long)b->memory_work, b->memory_iterations, b->memory_merged,
            b->memory_degraded ? " (coarser: it reached its safety bound, see frontends/llvm/memory/README.md)" : "");
  if (a->prune_with_const && !b->const_prune_skipped)
    fprintf(stderr, "; const pruned %u branches (%u blocks removed) in %.3f s", b->const_pruned_branches,
            b->const_pruned_blocks, b->seconds_const_prune);
  if (strcmp(weir_llvm_problem_analysis(r->lp), "const") == 0)
    fprintf(stderr, "; const: %zu uses, %zu constant, %zu unreached, %zu not constant (%llu jump function updates; "
            "memory %s)", r->values.count, r->values.constant, r->values.unreached,
            r->values.count - r->values.constant - r->values.unreached, (unsigned long long)r->values.jump_updates,
            r->values.local_memory ? "within functions: the interprocedural estimate passed its budget"
                                   : "interprocedural");
  size_t reported = weir_llvm_findings_reported(&r->findings);
  fprintf(stderr, "; load %.3f s; %s on %s: %llu path edges in %.3f s; %zu finding%s\n", r->seconds_load,
          a->solver, r->backend, (unsigned long long)r->result.path_edges, r->seconds_solve, reported,
          reported == 1 ? "" : "s");
}

/* --min-confidence, then the `weir: ignore` comments, then --baseline:
 * what is left is printed and counted by --fail-on-findings. */
static weir_status triage(const analyze_args *a, weir_llvm_findings *findings) {
  if (a->min_confidence) {
    uint32_t minimum = 0;
    WEIR_TRY(weir_llvm_confidence_parse(a->min_confidence, &minimum));
    weir_llvm_findings_min_confidence(findings, minimum);
  }
  WEIR_TRY(weir_llvm_findings_suppress(findings));
  if (a->baseline) WEIR_TRY(weir_llvm_findings_baseline(findings, a->baseline));
  return WEIR_OK;
}

static weir_status analyze(const analyze_args *a, weir_llvm_analysis analysis, weir_llvm_plugin *plugin, outputs *o,
                           run_state *r) {
  WEIR_TRY(build(a, analysis, plugin, &r->lp));
  const weir_llvm_build_stats *b = weir_llvm_problem_stats(r->lp);
  if (b->const_prune_skipped) /* a warning even with --quiet: the findings are the unpruned ones */
    fprintf(stderr, "weir analyze: warning: --prune-with-const skipped after %.1f s, the module is analysed "
                    "unpruned: %s\n", b->seconds_const_prune, b->const_prune_reason);
  if (o->emit) WEIR_TRY(weir_llvm_problem_write_stream(r->lp, o->emit_stream));
  double t0 = weir_cli_now();
  WEIR_TRY(weir_llvm_problem_load(r->lp, &r->problem));
  double t1 = weir_cli_now();
  WEIR_TRY(solve(a, r));
  double t2 = weir_cli_now();
  r->seconds_load = t1 - t0;
  r->seconds_solve = t2 - t1;
  WEIR_TRY(weir_llvm_findings_collect(r->lp, r->problem, &r->result, &r->findings));
  WEIR_TRY(weir_llvm_findings_set_root(&r->findings, a->root));
  WEIR_TRY(triage(a, &r->findings));
  weir_llvm_findings_print(r->lp, &r->findings, stdout);
  fflush(stdout);
  if (o->sarif) WEIR_TRY(weir_llvm_write_sarif_stream(r->lp, &r->findings, o->sarif_stream));
  /* Both outputs are complete before either replaces an earlier file. */
  if (o->emit) {
    weir_status s = weir_cli_output_commit(o->emit);
    o->emit = NULL;
    WEIR_TRY(s);
  }
  if (o->values) WEIR_TRY(weir_llvm_const_write_json(r->lp, &r->values, a->root, o->values_stream));
  if (o->sarif) {
    weir_status s = weir_cli_output_commit(o->sarif);
    o->sarif = NULL;
    WEIR_TRY(s);
  }
  if (o->values) {
    weir_status s = weir_cli_output_commit(o->values);
    o->values = NULL;
    WEIR_TRY(s);
  }
  if (!a->quiet) {
    weir_llvm_findings_summary(&r->findings, stderr);
    print_summary(a, r);
  }
  return WEIR_OK;
}

/* One analysis; *count: the findings it reported. */
static int run(const analyze_args *a, size_t *count_out) {
  weir_llvm_analysis analysis;
  weir_llvm_plugin *plugin = NULL;
  weir_status s = check_inputs(a, &analysis, &plugin);
  outputs o;
  if (s == WEIR_OK) s = open_outputs(a, &o);
  if (s != WEIR_OK) {
    weir_llvm_plugin_close(plugin);
    return report_error(s);
  }
  run_state r;
  memset(&r, 0, sizeof r);
  s = analyze(a, analysis, plugin, &o, &r);
  abort_outputs(&o); /* what was not committed: an earlier file stays */
  size_t count = weir_llvm_findings_reported(&r.findings);
  *count_out = count;
  weir_llvm_findings_free(&r.findings);
  weir_llvm_const_values_free(&r.values);
  weir_ifds_result_free(&r.result);
  weir_ifds_problem_free(r.problem);
  weir_llvm_problem_free(r.lp);
  weir_llvm_plugin_close(plugin); /* after the report: nothing of the problem points into it */
  if (s != WEIR_OK) return report_error(s);
  return a->fail_on_findings && count > 0 ? EXIT_FINDINGS : EXIT_OK;
}

/* No ANALYSIS named: each of the default set in turn, findings and
 * summaries as for one, then a line that names the set and the counts. The
 * first failure stops the run with its exit code. */
static int run_default_set(const analyze_args *a) {
  size_t counts[DEFAULT_ANALYSES] = {0}, total = 0;
  if (!a->quiet)
    fprintf(stderr, "weir analyze: no analysis named: running the default set (taint, uninit, "
                    "uaf); name one to run only it, e.g. weir analyze taint %s\n", a->files[0]);
  for (size_t k = 0; k < DEFAULT_ANALYSES; ++k) {
    analyze_args one = *a;
    one.analysis = default_analyses[k];
    one.default_set = 0;
    one.fail_on_findings = 0;
    int rc = run(&one, &counts[k]);
    if (rc != EXIT_OK) return rc;
    total += counts[k];
  }
  if (!a->quiet) {
    char inputs[600];
    inputs_name(a, inputs, sizeof inputs);
    fprintf(stderr, "weir analyze: default set (taint, uninit, uaf) of %s: %zu finding%s (taint "
                    "%zu, uninit %zu, uaf %zu)\n", inputs, total, total == 1 ? "" : "s", counts[0],
            counts[1], counts[2]);
  }
  return a->fail_on_findings && total > 0 ? EXIT_FINDINGS : EXIT_OK;
}

int weir_cmd_analyze(int argc, char **argv) {
  if (wants_help(argc, argv)) {
    usage(stdout);
    return EXIT_OK;
  }
  analyze_args a;
  int rc = parse_args(argc, argv, &a);
  if (rc) return rc;
  if (a.default_set) return run_default_set(&a);
  size_t count = 0;
  return run(&a, &count);
}

#endif
