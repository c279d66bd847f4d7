#include "tests/engine/engine_check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

size_t engine_open_backends(weir_backend **out, size_t capacity) {
  return engine_open_backends_ex(out, capacity, NULL);
}

size_t engine_open_backends_ex(weir_backend **out, size_t capacity,
                               const weir_open_options *options) {
  const char *list = getenv("WEIR_TEST_BACKENDS");
  char buf[128];
  snprintf(buf, sizeof buf, "%s", list && *list ? list : "cpu,vulkan");
  size_t n = 0;
  for (char *save = NULL, *spec = strtok_r(buf, ",", &save); spec && n < capacity;
       spec = strtok_r(NULL, ",", &save)) {
    weir_backend *b = NULL;
    if (weir_backend_open_ex(spec, options, &b) == WEIR_OK) out[n++] = b;
    else if (strcmp(spec, "cpu") == 0 || (list && *list)) /* asked for by name */
      fprintf(stderr, "engine tests: cannot open %s: %s\n", spec, weir_last_error());
  }
  return n;
}

void engine_close_backends(weir_backend **backends, size_t count) {
  for (size_t i = 0; i < count; ++i) weir_backend_close(backends[i]);
}

/* Probed in a child process: a driver initialised here (CUDA) could not be
 * used in the children that Check forks for the tests. */
int engine_requested_backends_missing(void) {
  const char *list = getenv("WEIR_TEST_BACKENDS");
  if (!list || !*list) return 0;
  pid_t pid = fork();
  if (pid == 0) {
    weir_backend *b[ENGINE_MAX_BACKENDS];
    size_t n = engine_open_backends(b, ENGINE_MAX_BACKENDS);
    engine_close_backends(b, n);
    _exit(n == 0 ? 1 : 0);
  }
  int status = 0;
  if (pid < 0 || waitpid(pid, &status, 0) != pid) return 0; /* cannot tell: run the tests */
  int missing = WIFEXITED(status) && WEXITSTATUS(status) == 1;
  if (missing) fprintf(stderr, "skipped: none of WEIR_TEST_BACKENDS=%s opens here\n", list);
  return missing;
}

char *engine_result_text(const weir_ifds_result *result) {
  char *text = NULL;
  size_t size = 0;
  FILE *f = open_memstream(&text, &size);
  if (!f) return NULL;
  weir_status st = weir_ifds_write_result(result, f);
  fclose(f);
  if (st != WEIR_OK) {
    free(text);
    return NULL;
  }
  return text;
}

/* First line where two texts differ, for the failure message. */
static void first_difference(const char *a, const char *b, char *why, size_t capacity) {
  size_t line = 1, i = 0;
  while (a[i] && a[i] == b[i]) line += a[i++] == '\n';
  size_t start = i;
  while (start > 0 && a[start - 1] != '\n') --start;
  snprintf(why, capacity, "results differ at line %zu: engine '%.40s' vs reference '%.40s'", line,
           a + start, b + start);
}

int engine_matches_reference(weir_backend *backend, const weir_ifds_problem *problem,
                             const weir_ifds_engine_options *options, weir_ifds_stats *stats,
                             char *why, size_t capacity) {
  weir_ifds_result mine, ref;
  memset(&mine, 0, sizeof mine);
  memset(&ref, 0, sizeof ref);
  if (weir_ifds_solve_reference(problem, &ref, NULL) != WEIR_OK) {
    snprintf(why, capacity, "reference solver failed: %s", weir_last_error());
    return 0;
  }
  weir_status st = weir_ifds_solve_engine(backend, problem, options, &mine, stats);
  if (st != WEIR_OK) {
    snprintf(why, capacity, "engine on %s failed: %s: %s", weir_backend_id(backend),
             weir_status_name(st), weir_last_error());
    weir_ifds_result_free(&ref);
    return 0;
  }
  char *a = engine_result_text(&mine), *b = engine_result_text(&ref);
  int same = a && b && strcmp(a, b) == 0;
  if (!same && a && b) first_difference(a, b, why, capacity);
  else if (!same) snprintf(why, capacity, "could not write a result file");
  free(a);
  free(b);
  weir_ifds_result_free(&mine);
  weir_ifds_result_free(&ref);
  return same;
}

void engine_gen_command(const weir_ifds_gen_options *o, char *out, size_t capacity) {
  snprintf(out, capacity,
           "weir gen %s --procs %u --nodes-per-proc %u --facts %u --seeds %u --seed %llu",
           weir_ifds_preset_name(o->preset), o->procs, o->nodes_per_proc, o->facts, o->seeds,
           (unsigned long long)o->seed);
}
