/* `weir solve`: load an IFDS problem, solve it (the resident engine, on one
 * device or across a list of them, or the serial reference solver), write
 * the result file and a one-line summary. `--mpi` runs the MPI runner,
 * weir-solve-mpi (solve_mpi.c), in place of this process. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tools/cli_util.h"
#include "tools/commands.h"
#include "tools/output.h"
#include "tools/solve.h"
#include "weir/ifds.h"

void weir_solve_usage(FILE *out) {
  fprintf(out,
          "usage: weir solve PROBLEM [-o RESULT] [--solver engine|reference] [--backend SPEC[,SPEC...]]\n"
          "                          [--stats FILE.json] [--strict] [--progress]\n"
          "       mpirun -n N weir solve PROBLEM --mpi [--backend SPEC[,SPEC...]] [-o RESULT] [...]\n\n"
          "Solves an IFDS problem (docs/ifds-format.md) and writes the result file.\n"
          "  -o RESULT          write the result file there; without -o the result goes to\n"
          "                     standard output and the summary line to standard error\n"
          "  --solver NAME      engine (default: the resident fixed-point engine) or\n"
          "                     reference (the serial worklist solver, the oracle)\n"
          "  --backend SPEC     backend of the engine: auto (default), cpu, cpu:N, vulkan,\n"
          "                     vulkan:N, cuda, cuda:N, plugin:PATH (see `weir info`).\n"
          "                     A comma-separated list (cpu:0,cpu:1,vulkan; at most 64) is\n"
          "                     ONE solve across those devices, each owning a block of the\n"
          "                     procedures; the result is the same as on one device. Each\n"
          "                     device may appear once (cpu and cpu:0 are one); cpu:0 ..\n"
          "                     cpu:7 are distinct instances, stand-ins for several GPUs\n"
          "  --mpi              one solve across the ranks of an MPI job (run under mpirun;\n"
          "                     needs a weir built with MPI): every rank loads PROBLEM and\n"
          "                     opens its own device: SPEC as given, except that cuda and\n"
          "                     vulkan without an index mean the rank's node-local device\n"
          "                     (local rank modulo the device count); a list gives rank r\n"
          "                     its element r (one element per rank). Rank 0 writes the\n"
          "                     result, --stats and the summary; a failure on any rank\n"
          "                     (its file, its device) stops every rank with that rank's\n"
          "                     message, and every rank exits with the same code\n"
          "  --stats FILE.json  write the solver's figures as JSON (across devices also:\n"
          "                     devices, rounds, exchanged_keys, exchanged_bytes,\n"
          "                     seconds_exchange, member_path_edges, member_busy_seconds,\n"
          "                     path_edge_imbalance)\n"
          "  --strict           refuse a problem file without its `end` line (it may be\n"
          "                     truncated); without --strict such a file loads with a warning\n"
          "  --progress         progress lines on standard error, also when it is not a\n"
          "                     terminal (a log): each phase once with its seconds (load,\n"
          "                     upload, solve, read-back; the reference: load, solve), and\n"
          "                     path edges and rate at least every 2 s while solving\n\n"
          "Without --progress a live progress line appears on standard error when it is a\n"
          "terminal.\n"
          "Exit codes: 0 solved; 2 bad input (an invalid problem file, whose message is\n"
          "FILE:LINE:COL: error: ..., a missing file, a bad option, a bad backend spec or\n"
          "list element, a device listed twice, a list with --solver reference);\n"
          "1 other failure (backend unavailable, out of memory, cannot write, --mpi in a\n"
          "weir built without MPI). Under --mpi every rank exits with the code of the\n"
          "first failing rank's failure.\n");
}

#if defined(__GNUC__) || defined(__clang__)
__attribute__((format(printf, 2, 3)))
#endif
static int parse_error(int quiet, const char *fmt, ...) {
  if (!quiet) {
    va_list ap;
    va_start(ap, fmt);
    fputs("weir solve: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
  }
  return -1;
}

/* Splits a->backend at its commas into a->devices. */
static int split_backends(weir_solve_args *a, int quiet) {
  size_t length = strlen(a->backend);
  if (length >= sizeof a->list) {
    if (!quiet)
      fprintf(stderr, "weir solve: --backend is %zu characters long (at most %zu). Fix: list at "
              "most %d devices with short specs.\n", length, sizeof a->list - 1,
              WEIR_SOLVE_MAX_DEVICES);
    return -1;
  }
  memcpy(a->list, a->backend, length + 1);
  a->device_count = 0;
  size_t elements = 1;
  for (const char *c = a->list; *c; ++c) elements += *c == ',';
  if (elements > WEIR_SOLVE_MAX_DEVICES) {
    if (!quiet)
      fprintf(stderr, "weir solve: --backend '%s' lists %zu devices (at most %d). Fix: solve "
              "across at most %d devices.\n", a->backend, elements, WEIR_SOLVE_MAX_DEVICES,
              WEIR_SOLVE_MAX_DEVICES);
    return -1;
  }
  for (char *start = a->list;;) {
    char *comma = strchr(start, ',');
    if (comma) *comma = '\0';
    if (!*start) {
      if (!quiet)
        fprintf(stderr, "weir solve: --backend '%s': element %zu of %zu is empty. Fix: separate "
                "the device specs with single commas, e.g. --backend cpu:0,cpu:1.\n",
                a->backend, a->device_count + 1, elements);
      return -1;
    }
    a->devices[a->device_count++] = start;
    if (!comma) break;
    start = comma + 1;
  }
  return 0;
}

/* `path` with its directory resolved (the file itself need not exist yet):
 * "./x", "sub/../x" and "/abs/x" name one file. 0 when the directory does
 * not resolve. */
static int canonical(const char *path, char *out, size_t cap) {
  char dir[PATH_MAX], resolved[PATH_MAX];
  const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;
  size_t len = slash ? (size_t)(slash - path) : 1;
  if (len >= sizeof dir) return 0;
  if (!slash) {
    strcpy(dir, ".");
  } else if (len == 0) { /* "/x" */
    strcpy(dir, "/");
  } else {
    memcpy(dir, path, len);
    dir[len] = '\0';
  }
  if (!realpath(dir, resolved)) return 0;
  return snprintf(out, cap, "%s/%s", resolved, base) < (int)cap;
}

/* The same path, two spellings of one path, or two names of one existing
 * file (links). */
static int same_file(const char *x, const char *y) {
  struct stat sx, sy;
  char cx[PATH_MAX + 256], cy[PATH_MAX + 256];
  if (strcmp(x, y) == 0) return 1;
  if (canonical(x, cx, sizeof cx) && canonical(y, cy, sizeof cy) && strcmp(cx, cy) == 0) return 1;
  return stat(x, &sx) == 0 && stat(y, &sy) == 0 && sx.st_dev == sy.st_dev && sx.st_ino == sy.st_ino;
}

/* Whether a file can be created next to `path` (where the result and the
 * stats are written through a temporary file): checked before loading and
 * solving, so that an unwritable -o does not cost a whole solve. */
static weir_status probe_writable(const char *option, const char *path) {
  char probe[4096];
  int n = snprintf(probe, sizeof probe, "%s.probe-%ld", path, (long)getpid());
  int fd = n > 0 && (size_t)n < sizeof probe ? open(probe, O_WRONLY | O_CREAT | O_EXCL, 0600) : -1;
  if (fd >= 0) {
    close(fd);
    unlink(probe);
    return WEIR_OK;
  }
  return weir_fail(WEIR_ERR_IO,
                   "%s '%s': cannot create a file there (%s). Fix: pick a path in a writable "
                   "directory.",
                   option, path, strerror(errno));
}

weir_status weir_solve_probe_outputs(const weir_solve_args *a) {
  if (a->result) WEIR_TRY(probe_writable("-o", a->result));
  if (a->stats) WEIR_TRY(probe_writable("--stats", a->stats));
  return WEIR_OK;
}

int weir_solve_parse(int argc, char **argv, weir_solve_args *a, int quiet) {
  memset(a, 0, sizeof *a);
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
    } else if (strcmp(argv[i], "--mpi") == 0) {
      a->mpi = 1;
    } else if (slot && v && *slot) {
      return parse_error(quiet, "%s given twice ('%s', then '%s'). Fix: give it once.", argv[i],
                         *slot, v);
    } else if (slot && v) {
      *slot = v;
      ++i;
    } else if (!slot && argv[i][0] != '-' && !a->problem) {
      a->problem = argv[i];
    } else {
      return parse_error(quiet, "%s '%s'. Fix: see `weir solve --help`.",
                         slot ? "missing the value of" : "unexpected argument", argv[i]);
    }
  }
  if (!a->solver) a->solver = "engine";
  if (!a->problem)
    return parse_error(quiet, "no problem file given. Fix: weir solve PROBLEM.ifds (see --help).");
  if (a->result && a->stats && same_file(a->result, a->stats))
    return parse_error(quiet, "-o '%s' and --stats '%s' are the same file: the stats would "
                       "replace the result. Fix: give them different paths.",
                       a->result, a->stats);
  if (strcmp(a->solver, "engine") && strcmp(a->solver, "reference"))
    return parse_error(quiet, "unknown solver '%s'. Fix: use --solver engine or --solver reference.",
                       a->solver);
  int reference = strcmp(a->solver, "reference") == 0;
  if (reference && a->mpi)
    return parse_error(quiet, "--mpi with --solver reference: the reference solver runs in one "
                       "process on the host. Fix: drop --solver reference to solve across the "
                       "ranks with the engine, or drop --mpi.");
  if (reference && a->backend && strchr(a->backend, ','))
    return parse_error(quiet, "--solver reference with the device list --backend '%s': the "
                       "reference solver runs on the host, on no device. Fix: drop --solver "
                       "reference to solve across those devices with the engine, or drop --backend.",
                       a->backend);
  if (!a->backend) a->backend = "auto";
  return split_backends(a, quiet);
}

/* ---- the live progress line ------------------------------------------------ */

/* Two forms: a live line rewritten in place (a terminal, no --progress), or
 * with --progress one line per update for logs and pipes, at least every
 * 2 s while the engine solves (its windows last at most ~2 s) and at most
 * one a second from the reference solver's frequent callbacks. */
void weir_solve_on_progress(void *user, uint64_t iterations, uint64_t path_edges) {
  weir_solve_progress *p = user;
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

void weir_solve_on_phase(void *user, const char *phase, double seconds) {
  weir_solve_progress *p = user;
  if (!p->lines) return;
  fprintf(stderr, "weir solve: %s %.3f s\n", phase, seconds); /* upload, solve, read-back */
  fflush(stderr);
}

void weir_solve_progress_done(weir_solve_progress *p) {
  if (p->shown && !p->lines) fputs("\r\033[K", stderr);
}

/* ---- solving ------------------------------------------------------------------ */

static void close_all(weir_backend **backends, size_t count) {
  for (size_t i = 0; i < count; ++i) weir_backend_close(backends[i]);
}

/* Opens every device of the list; refuses a device that two elements open
 * (cpu and cpu:0 are one; the engine's replica sets take each device once),
 * naming both. backend_id gets the device list ("cpu" for a single device,
 * as before; "cpu:0,cpu:1,vulkan:0" for a list). */
static weir_status open_devices(const weir_solve_args *a, weir_backend **backends,
                                char *backend_id, size_t cap) {
  size_t n = a->device_count;
  static weir_device_info info[WEIR_SOLVE_MAX_DEVICES]; /* 2 KiB each: not on the stack */
  for (size_t i = 0; i < n; ++i) {
    weir_status s = weir_backend_open(a->devices[i], &backends[i]);
    if (s != WEIR_OK) {
      close_all(backends, i);
      return n == 1 ? s
                    : weir_fail_context(s, "--backend '%s', element %zu of %zu ('%s')", a->backend,
                                        i + 1, n, a->devices[i]);
    }
    info[i].struct_size = sizeof info[i];
    if (weir_backend_device_info(backends[i], &info[i]) != WEIR_OK) {
      memset(&info[i], 0, sizeof info[i]); /* no identity: compare the spec as written */
      snprintf(info[i].backend_id, sizeof info[i].backend_id, "%s", weir_backend_id(backends[i]));
      snprintf(info[i].spec, sizeof info[i].spec, "%s", a->devices[i]);
    }
  }
  if (n == 1) {
    snprintf(backend_id, cap, "%s", weir_backend_id(backends[0]));
    return WEIR_OK;
  }
  for (size_t i = 0; i < n; ++i)
    for (size_t j = i + 1; j < n; ++j) {
      if (strcmp(info[i].backend_id, info[j].backend_id) || strcmp(info[i].spec, info[j].spec))
        continue;
      int cpu = strcmp(info[i].backend_id, "cpu") == 0;
      close_all(backends, n);
      return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                       "--backend '%s': elements %zu ('%s') and %zu ('%s') open the same device, "
                       "%s (%s); a device may appear once in the list (two instances of one device "
                       "would share its memory and compute and only add exchanges). Fix: list each "
                       "device once%s (see `weir info`).",
                       a->backend, i + 1, a->devices[i], j + 1, a->devices[j], info[i].spec,
                       info[i].name,
                       cpu ? "; for stand-ins of several devices use distinct cpu instances, "
                             "e.g. --backend cpu:0,cpu:1 (cpu:0 .. cpu:7 have memory of their own)"
                           : ", e.g. --backend vulkan:0,vulkan:1 or cuda:0,cuda:1");
    }
  size_t used = 0;
  backend_id[0] = '\0';
  for (size_t i = 0; i < n && used + 1 < cap; ++i) {
    int w = snprintf(backend_id + used, cap - used, "%s%s", i ? "," : "", info[i].spec);
    if (w < 0) break;
    used += (size_t)w;
  }
  return WEIR_OK;
}

static weir_status solve(const weir_solve_args *a, const weir_ifds_problem *problem,
                         weir_solve_progress *pr, weir_ifds_result *result, weir_ifds_stats *stats,
                         char *backend_id, size_t cap) {
  weir_ifds_progress_fn fn = pr->lines || isatty(STDERR_FILENO) ? weir_solve_on_progress : NULL;
  if (strcmp(a->solver, "reference") == 0) {
    snprintf(backend_id, cap, "host");
    weir_ifds_reference_options options = {fn, pr};
    double t0 = weir_cli_now();
    weir_status s = weir_ifds_solve_reference_ex(problem, &options, result, stats);
    /* The reference solves in host memory: no upload, no read-back to report. */
    if (s == WEIR_OK && pr->lines) {
      weir_solve_progress_done(pr);
      fprintf(stderr, "weir solve: solve %.3f s (reference solver on the host: nothing to upload "
                      "or read back)\n", weir_cli_now() - t0);
      fflush(stderr);
    }
    return s;
  }
  weir_backend *backends[WEIR_SOLVE_MAX_DEVICES] = {NULL};
  WEIR_TRY(open_devices(a, backends, backend_id, cap));
  weir_ifds_engine_options options = {
      .struct_size = sizeof options, .progress = fn, .progress_user = pr, .phase = weir_solve_on_phase};
  weir_status s =
      a->device_count == 1
          ? weir_ifds_solve_engine(backends[0], problem, &options, result, stats)
          : weir_ifds_solve_engine_multi(backends, a->device_count, problem, &options, result, stats);
  close_all(backends, a->device_count);
  return s;
}

/* Result and stats go through temporary files (tools/output.h): both are
 * written before either is renamed into place, and a failed write leaves the
 * files of an earlier run untouched. Neither may be the problem file itself. */
weir_status weir_solve_write_outputs(const weir_solve_args *a, const weir_ifds_result *result,
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

/* Across devices: "; imbalance 1.04 (path edges per member 4.1 M / 4.2 M,
 * busy 2.9 / 3.0 s)", members past the eighth left out of the lists. */
static void print_members(FILE *out, const weir_ifds_stats *st) {
  uint32_t n = st->devices < 8u ? st->devices : 8u;
  fprintf(out, "; imbalance %.2f (path edges per member", weir_ifds_stats_imbalance(st));
  for (uint32_t i = 0; i < n; ++i)
    fprintf(out, "%s%.2f M", i ? " / " : " ", (double)st->member_path_edges[i] / 1e6);
  fputs(", busy", out);
  for (uint32_t i = 0; i < n; ++i) fprintf(out, "%s%.2f", i ? " / " : " ", st->member_busy_seconds[i]);
  fprintf(out, " s%s)", st->devices > n ? ", the first 8 members" : "");
}

/* The one-line summary; engine runs add the figures of a resident solve,
 * solves across devices those of their exchanges. */
void weir_solve_print_summary(FILE *out, const weir_solve_args *a, const weir_ifds_problem *problem,
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
                 "%.1f B per path edge, %.3f atomics per path edge",
            st->seconds_upload, st->seconds_solve, st->seconds_readback,
            (unsigned long long)st->iterations, (unsigned long long)st->windows,
            (unsigned long long)st->host_syncs, (double)st->bytes_uploaded / 1e6,
            (double)st->bytes_downloaded / 1e6, (double)st->peak_resident_bytes / 1e6,
            result->path_edges ? (double)st->peak_resident_bytes / (double)result->path_edges : 0.0,
            st->path_edges ? (double)st->reserve_atomics / (double)st->path_edges : 0.0);
  if (st->devices > 1 || st->rounds)
    fprintf(out, "; %u devices, %llu rounds, exchanged %llu keys (%.1f MB, %.2f B per path edge) "
                 "in %.3f s",
            st->devices, (unsigned long long)st->rounds, (unsigned long long)st->exchanged_keys,
            (double)st->exchanged_bytes / 1e6,
            st->path_edges ? (double)st->exchanged_bytes / (double)st->path_edges : 0.0,
            st->seconds_exchange);
  if (st->devices > 1) print_members(out, st);
  fprintf(out, ")\n");
}

/* Once per run, on standard error: what loaded but may not be what was meant. */
void weir_solve_print_warnings(const char *path, const weir_ifds_problem *problem) {
  for (uint32_t bit = 1; bit; bit <<= 1)
    if (problem->warnings & bit)
      fprintf(stderr, "%s: warning: %s.\n", path, weir_ifds_warning_text(bit));
}

int weir_solve_load_exit_code(weir_status status) {
  return status == WEIR_ERR_PARSE || status == WEIR_ERR_IO ? 2 : 1;
}

int weir_solve_exit_code(weir_status status) {
  /* a bad --backend spec (cpu:99: WEIR_ERR_OUT_OF_RANGE) is bad input, as in every command */
  return status == WEIR_OK ? 0 : status == WEIR_ERR_INVALID_ARGUMENT || status == WEIR_ERR_OUT_OF_RANGE ? 2 : 1;
}

#ifndef WEIR_SOLVE_MPI_RUNNER
/* --mpi: the MPI runner, weir-solve-mpi (the one program that links MPI),
 * next to this executable (a build tree) or at WEIR_SOLVE_MPI_HELPER
 * relative to it (an installation: libexec/weir), runs in place of this
 * process with the same arguments; exec keeps mpirun's environment, so
 * MPI_Init works in it. Returns the exit code when there is none to run. */
static int exec_mpi_runner(char **argv) {
#ifdef WEIR_SOLVE_MPI_HELPER
  weir_cli_exec_helper("weir solve: --mpi", "the MPI runner", "weir-solve-mpi",
                       WEIR_SOLVE_MPI_HELPER, argv);
  return 1;
#else
  (void)argv;
  fprintf(stderr, "weir solve: --mpi: this weir was built without MPI (MPI was not found at "
          "configure time, or -DWEIR_ENABLE_MPI=OFF), so it has no MPI runner. Fix: apt-get "
          "install libopenmpi-dev openmpi-bin, reconfigure and rebuild; or solve in one process "
          "across several devices with --backend cpu:0,cpu:1 (a list) instead of --mpi.\n");
  return 1;
#endif
}
#endif

int weir_cmd_solve(int argc, char **argv) {
  if (argc >= 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
    weir_solve_usage(stdout);
    return 0;
  }
#ifndef WEIR_SOLVE_MPI_RUNNER
  for (int i = 1; i < argc; ++i)
    if (strcmp(argv[i], "--mpi") == 0) return exec_mpi_runner(argv);
#endif
  weir_solve_args a;
  if (weir_solve_parse(argc, argv, &a, 0) != 0) return 2;
  if (weir_solve_probe_outputs(&a) != WEIR_OK) {
    fprintf(stderr, "weir solve: %s\n", weir_last_error());
    return 1;
  }
  double t0 = weir_cli_now();
  weir_ifds_problem *problem = NULL;
  weir_ifds_load_options load_options = {.strict = a.strict};
  weir_status s = weir_ifds_load_file_ex(a.problem, &load_options, &problem);
  if (s != WEIR_OK) { /* the loader's message as it is: FILE:LINE:COL: error: ... */
    fprintf(stderr, "%s\n", weir_last_error());
    return weir_solve_load_exit_code(s);
  }
  weir_solve_print_warnings(a.problem, problem);
  double t1 = weir_cli_now();
  weir_solve_progress pr = {t1, t1, 0, a.progress};
  if (a.progress)
    fprintf(stderr, "weir solve: loaded %s: %.1f MB in %.3f s (%.0f MB/s), %u nodes, %u facts\n",
            a.problem, (double)problem->source_bytes / 1e6, t1 - t0,
            t1 > t0 ? (double)problem->source_bytes / 1e6 / (t1 - t0) : 0.0,
            problem->node_count, problem->fact_count);
  weir_ifds_result result = {0};
  weir_ifds_stats stats = WEIR_IFDS_STATS_INIT;
  char backend_id[1024] = "";
  s = solve(&a, problem, &pr, &result, &stats, backend_id, sizeof backend_id);
  weir_solve_progress_done(&pr);
  double t2 = weir_cli_now();
  if (s == WEIR_OK) s = weir_solve_write_outputs(&a, &result, &stats, backend_id, t1 - t0);
  if (s == WEIR_OK)
    weir_solve_print_summary(a.result ? stdout : stderr, &a, problem, &result, &stats, backend_id,
                             t1 - t0, t2 - t1);
  weir_ifds_result_free(&result);
  weir_ifds_problem_free(problem);
  if (s == WEIR_OK) return 0;
  fprintf(stderr, "weir solve: %s\n", weir_last_error());
  return weir_solve_exit_code(s);
}
