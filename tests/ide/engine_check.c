/* The IDE engine against the reference (engine_check.h). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/ide/engine_check.h"

/* The result file's bytes (caller frees). */
static char *result_bytes(const weir_ide_problem *p, const weir_ide_result *r) {
  char *text = NULL;
  size_t size = 0;
  FILE *f = open_memstream(&text, &size);
  ck_assert_ptr_nonnull(f);
  ck_assert_int_eq(weir_ide_write_result(p, r, f), WEIR_OK);
  fclose(f);
  return text;
}

void ide_engine_check_on(weir_backend *b, const weir_ide_problem *p, const char *want,
                         const char *what) {
  weir_ide_result r;
  weir_ide_stats st = WEIR_IDE_STATS_INIT;
  weir_status s = weir_ide_solve_engine(b, p, NULL, &r, &st);
  ck_assert_msg(s == WEIR_OK, "%s on %s: %s", what, weir_backend_id(b), weir_last_error());
  char *got = result_bytes(p, &r);
  ck_assert_msg(strcmp(got, want) == 0, "%s on %s: the engine's result differs.\nengine:\n%.2000s\n"
                "reference:\n%.2000s", what, weir_backend_id(b), got, want);
  /* Figures of a device solve: every path edge came through phase 0 and a
   * rule, and at least one round ran behind at least one window. */
  ck_assert_uint_eq(st.path_edges, r.path_edges);
  ck_assert_uint_ge(st.rules, r.path_edges);
  ck_assert_uint_ge(st.iterations, 1);
  ck_assert_uint_ge(st.windows, 1);
  ck_assert_uint_gt(st.peak_resident_bytes, 0);
  free(got);
  weir_ide_result_free(&r);
}

size_t ide_engine_backends(const char *only, weir_backend **out, size_t capacity) {
  const char *list = only ? only : getenv("WEIR_TEST_BACKENDS");
  char buf[128];
  snprintf(buf, sizeof buf, "%s", list && *list ? list : "cpu,vulkan");
  size_t n = 0;
  for (char *save = NULL, *spec = strtok_r(buf, ",", &save); spec && n < capacity;
       spec = strtok_r(NULL, ",", &save)) {
    weir_backend *b = NULL;
    if (weir_backend_open(spec, &b) == WEIR_OK) out[n++] = b;
    else ck_assert_msg(!(list && *list) && strcmp(spec, "cpu") != 0, /* asked for by name */
                       "cannot open %s: %s", spec, weir_last_error());
  }
  ck_assert_uint_ge(n, 1);
  return n;
}

void ide_engine_check(weir_backend *const *b, size_t n, const weir_ide_problem *p,
                      const char *what) {
  weir_ide_result ref;
  ck_assert_int_eq(weir_ide_solve_reference(p, &ref, NULL), WEIR_OK);
  char *want = result_bytes(p, &ref);
  weir_ide_result_free(&ref);
  for (size_t i = 0; i < n; ++i) ide_engine_check_on(b[i], p, want, what);
  free(want);
}

void ide_engine_check_here(const weir_ide_problem *p, const char *only, const char *what) {
  weir_backend *b[IDE_ENGINE_MAX_BACKENDS];
  size_t n = ide_engine_backends(only, b, IDE_ENGINE_MAX_BACKENDS);
  ide_engine_check(b, n, p, what);
  for (size_t i = 0; i < n; ++i) weir_backend_close(b[i]);
}
