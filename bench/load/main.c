/* weir_bench_load: how fast the IFDS loader reads a large problem and how
 * much memory it needs at its peak, relative to the file size.
 *
 *   weir_bench_load [--nodes N] [--file PATH] [--keep] [--repeat R] [--json FILE]
 *
 * Generates a `realistic` problem of N nodes (default 4,000,000: about 120 MB)
 * unless --file names an existing one, then loads it R times (default 3).
 * Reports wall and CPU time (the machine may be shared: CPU MB/s is the
 * loader's own speed), a plain read() of the file for comparison, the peak
 * resident memory of a load above what the process held before, and the
 * bytes of the loaded problem. Peak memory comes from /proc/self/status
 * (VmHWM, reset through /proc/self/clear_refs before each load). */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "weir/ifds.h"
#include "weir/ifds_gen.h"

static double wall_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double cpu_now(void) {
  struct rusage u;
  getrusage(RUSAGE_SELF, &u);
  return (double)u.ru_utime.tv_sec + (double)u.ru_utime.tv_usec * 1e-6 + (double)u.ru_stime.tv_sec +
         (double)u.ru_stime.tv_usec * 1e-6;
}

/* A "VmRSS:"/"VmHWM:" line of /proc/self/status, in bytes (0 if absent). */
static uint64_t proc_status_bytes(const char *key) {
  FILE *f = fopen("/proc/self/status", "r");
  char line[256];
  uint64_t kb = 0;
  size_t n = strlen(key);
  while (f && fgets(line, sizeof line, f))
    if (strncmp(line, key, n) == 0) kb = strtoull(line + n, NULL, 10);
  if (f) fclose(f);
  return kb * 1024;
}

static void reset_peak(void) {
  FILE *f = fopen("/proc/self/clear_refs", "w");
  if (f) {
    fputs("5", f); /* resets VmHWM to the current RSS (Linux >= 4.0) */
    fclose(f);
  }
}

static uint64_t problem_bytes(const weir_ifds_problem *p) {
  uint64_t N = p->node_count, P = p->proc_count, E = p->succ_offset[N], C = p->call_count;
  uint64_t K = p->callee_offset[C], F = p->flows.count;
  uint64_t words = 2 * P + (P + 1) + N + (N + 1) + 2 * E + 3 * C + N + (C + 1) + 3 * K +
                   2 * (uint64_t)p->seed_count + F + 2 * (F + 1) + p->flows.kill_offset[F] +
                   2 * (uint64_t)p->flows.pair_offset[F];
  return words * 4 + p->proc_name_offset[P] + sizeof *p;
}

static double read_only_seconds(const char *path) {
  int fd = open(path, O_RDONLY);
  if (fd < 0) return 0;
  char *buf = malloc(4u << 20);
  double t0 = wall_now();
  while (buf && read(fd, buf, 4u << 20) > 0) {
  }
  double t = wall_now() - t0;
  free(buf);
  close(fd);
  return t;
}

typedef struct figures {
  double wall, cpu;
  uint64_t peak_above_base, problem;
} figures;

static int load_once(const char *path, figures *f) {
  uint64_t base = proc_status_bytes("VmRSS:");
  reset_peak();
  weir_ifds_problem *p = NULL;
  double w0 = wall_now(), c0 = cpu_now();
  weir_status s = weir_ifds_load_file(path, &p);
  f->wall = wall_now() - w0;
  f->cpu = cpu_now() - c0;
  uint64_t peak = proc_status_bytes("VmHWM:");
  if (s != WEIR_OK) {
    fprintf(stderr, "weir_bench_load: %s\n", weir_last_error());
    return -1;
  }
  f->peak_above_base = peak > base ? peak - base : 0;
  f->problem = problem_bytes(p);
  weir_ifds_problem_free(p);
  return 0;
}

static int generate(const char *path, uint32_t nodes) {
  weir_ifds_gen_options o = {.preset = WEIR_IFDS_PRESET_REALISTIC, .seed = 1};
  weir_ifds_gen_defaults(&o);
  o.procs = nodes / o.nodes_per_proc;
  FILE *f = fopen(path, "wb");
  if (!f) return -1;
  weir_status s = weir_ifds_generate(&o, f);
  fclose(f);
  if (s != WEIR_OK) fprintf(stderr, "weir_bench_load: %s\n", weir_last_error());
  return s == WEIR_OK ? 0 : -1;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

typedef struct options {
  uint32_t nodes, repeat;
  const char *file, *json;
  int keep;
} options;

static int parse(int argc, char **argv, options *o) {
  *o = (options){.nodes = 4000000, .repeat = 3};
  for (int i = 1; i < argc; ++i) {
    const char *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (strcmp(argv[i], "--nodes") == 0 && v)
      o->nodes = (uint32_t)strtoul(v, NULL, 10), ++i;
    else if (strcmp(argv[i], "--repeat") == 0 && v)
      o->repeat = (uint32_t)strtoul(v, NULL, 10), ++i;
    else if (strcmp(argv[i], "--file") == 0 && v)
      o->file = v, ++i;
    else if (strcmp(argv[i], "--json") == 0 && v)
      o->json = v, ++i;
    else if (strcmp(argv[i], "--keep") == 0)
      o->keep = 1;
    else {
      printf(
          "usage: weir_bench_load [--nodes N] [--file PATH] [--keep] [--repeat R] [--json FILE]\n");
      return strcmp(argv[i], "--help") == 0 ? 1 : -1;
    }
  }
  if (o->repeat < 1) o->repeat = 1;
  if (o->repeat > 15) o->repeat = 15;
  return 0;
}

static void report(FILE *out, const char *path, double mb, const figures *best, double median_wall,
                   double median_cpu, double read_wall) {
  fprintf(out,
          "{\"file\": \"%s\", \"file_mb\": %.1f, \"load_wall_s_median\": %.3f, "
          "\"load_cpu_s_median\": %.3f, \"mb_per_s_wall\": %.1f, \"mb_per_s_cpu\": %.1f, "
          "\"read_only_mb_per_s\": %.1f, \"peak_load_bytes\": %llu, \"peak_over_file\": %.3f, "
          "\"problem_bytes\": %llu, \"problem_over_file\": %.3f}\n",
          path, mb, median_wall, median_cpu, mb / median_wall, mb / median_cpu,
          read_wall > 0 ? mb / read_wall : 0, (unsigned long long)best->peak_above_base,
          best->peak_above_base / (mb * 1e6), (unsigned long long)best->problem,
          best->problem / (mb * 1e6));
}

int main(int argc, char **argv) {
  options o;
  int r = parse(argc, argv, &o);
  if (r) return r > 0 ? 0 : 2;
  char path[256];
  if (o.file)
    snprintf(path, sizeof path, "%s", o.file);
  else {
    snprintf(path, sizeof path, "/tmp/weir-bench-load-%u.ifds", o.nodes);
    printf("generating realistic, %u nodes -> %s\n", o.nodes, path);
    if (generate(path, o.nodes) != 0) return 1;
  }
  struct stat st;
  if (stat(path, &st) != 0) return fprintf(stderr, "weir_bench_load: cannot stat %s\n", path), 1;
  double mb = (double)st.st_size / 1e6, read_wall = read_only_seconds(path);
  figures runs[15], best = {0};
  double walls[15], cpus[15];
  for (uint32_t i = 0; i < o.repeat; ++i) {
    if (load_once(path, &runs[i]) != 0) return 2;
    walls[i] = runs[i].wall;
    cpus[i] = runs[i].cpu;
    if (i == 0 || runs[i].peak_above_base > best.peak_above_base) best = runs[i];
  }
  qsort(walls, o.repeat, sizeof *walls, cmp_double);
  qsort(cpus, o.repeat, sizeof *cpus, cmp_double);
  double mw = walls[o.repeat / 2], mc = cpus[o.repeat / 2];
  printf("\n%-28s %12s\n", "file", path);
  printf("%-28s %12.1f\n", "size (MB)", mb);
  printf("%-28s %12.3f\n", "load wall s (median of runs)", mw);
  printf("%-28s %12.3f\n", "load CPU s (median)", mc);
  printf("%-28s %12.1f\n", "MB/s wall", mb / mw);
  printf("%-28s %12.1f\n", "MB/s CPU", mb / mc);
  printf("%-28s %12.1f\n", "plain read() MB/s", read_wall > 0 ? mb / read_wall : 0);
  printf("%-28s %12.1f  (%.2fx the file)\n", "peak load memory (MB)", best.peak_above_base / 1e6,
         best.peak_above_base / (mb * 1e6));
  printf("%-28s %12.1f  (%.2fx the file)\n\n", "loaded problem (MB)", best.problem / 1e6,
         best.problem / (mb * 1e6));
  report(stdout, path, mb, &best, mw, mc, read_wall);
  if (o.json) {
    FILE *f = fopen(o.json, "w");
    if (f) report(f, path, mb, &best, mw, mc, read_wall), fclose(f);
  }
  if (!o.file && !o.keep) unlink(path);
  return 0;
}
