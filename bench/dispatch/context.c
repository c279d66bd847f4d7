/* The context block of `weir bench --json`: what a figure depends on besides
 * the code, so that two reports can be compared knowingly (weir bench
 * compare prints where contexts differ). */
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "bench/dispatch/bench.h"

#ifndef WEIR_BENCH_GIT_COMMIT
#define WEIR_BENCH_GIT_COMMIT "unknown"
#endif
#ifndef WEIR_BENCH_BUILD_TYPE
#define WEIR_BENCH_BUILD_TYPE "unknown"
#endif

/* Environment variables that change what a backend measures. */
static const char *const environment[] = {
    "LP_NUM_THREADS", "VK_DRIVER_FILES", "VK_ICD_FILENAMES", "WEIR_VULKAN_VALIDATION",
    "WEIR_VULKAN_FORCE_STAGING", "WEIR_MAX_BINDING_BYTES", "WEIR_BACKEND_PATH",
    "CUDA_VISIBLE_DEVICES", "OMP_NUM_THREADS", NULL};

static void cpu_model(char *buf, size_t n) {
  snprintf(buf, n, "unknown");
  FILE *f = fopen("/proc/cpuinfo", "r");
  if (!f) return;
  char line[512];
  while (fgets(line, sizeof line, f))
    if (strncmp(line, "model name", 10) == 0 && strchr(line, ':')) {
      char *v = strchr(line, ':') + 1;
      while (*v == ' ' || *v == '\t') ++v;
      v[strcspn(v, "\n")] = 0;
      snprintf(buf, n, "%s", v);
      break;
    }
  fclose(f);
}

void weir_bench_write_context(FILE *f, void (*json_string)(FILE *, const char *)) {
  char host[256] = "unknown", cpu[256], date[32] = "unknown", os[400] = "unknown";
  gethostname(host, sizeof host - 1);
  cpu_model(cpu, sizeof cpu);
  time_t now = time(NULL);
  struct tm tm;
  if (gmtime_r(&now, &tm)) strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", &tm);
  struct utsname u;
  if (uname(&u) == 0) snprintf(os, sizeof os, "%s %s %s", u.sysname, u.release, u.machine);
  long cores = sysconf(_SC_NPROCESSORS_ONLN);
  long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  fprintf(f, "\"context\": {\"schema\": 2, \"date\": ");
  json_string(f, date);
  fprintf(f, ", \"host\": ");
  json_string(f, host);
  fprintf(f, ", \"os\": ");
  json_string(f, os);
  fprintf(f, ", \"cpu\": ");
  json_string(f, cpu);
  fprintf(f, ", \"cpu_count\": %ld, \"memory_bytes\": %llu, \"weir_version\": ", cores,
          pages > 0 && page > 0 ? (unsigned long long)pages * (unsigned long long)page : 0ull);
  json_string(f, weir_version());
  fprintf(f, ", \"weir_commit\": ");
  json_string(f, WEIR_BENCH_GIT_COMMIT);
  fprintf(f, ", \"build_type\": ");
  json_string(f, WEIR_BENCH_BUILD_TYPE);
#if defined(__SANITIZE_ADDRESS__)
  fprintf(f, ", \"sanitized\": true");
#else
  fprintf(f, ", \"sanitized\": false");
#endif
  fprintf(f, ", \"compiler\": ");
#if defined(__VERSION__)
  json_string(f, __VERSION__);
#else
  json_string(f, "unknown");
#endif
  fprintf(f, ", \"environment\": {");
  for (size_t i = 0; environment[i]; ++i) {
    const char *v = getenv(environment[i]);
    fprintf(f, "%s\"%s\": ", i ? ", " : "", environment[i]);
    if (v)
      json_string(f, v);
    else
      fprintf(f, "null");
  }
  fprintf(f, "}}");
}
