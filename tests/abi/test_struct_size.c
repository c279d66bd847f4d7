/* The struct_size of caller-allocated public structs (weir/weir.h, "Structs
 * the caller allocates"; docs/packaging.md): a caller built against newer
 * headers (a larger struct) gets the fields this library knows and zeros
 * past them, a zeroed struct (0) means the first layout, a size below the
 * first layout is refused with a Fix and nothing is written, and options of
 * a newer caller are refused only when a field this library lacks is set. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "tests/check_run.h"
#include "weir/ifds.h"
#include "weir/weir.h"

#define EXTRA 64 /* bytes a "newer" caller's struct has past ours */

static weir_ifds_problem *problem(void) {
  weir_ifds_problem *p = NULL;
  ck_assert_msg(weir_ifds_load_file(WEIR_IFDS_MICRO_FILE, &p) == WEIR_OK, "%s", weir_last_error());
  return p;
}

static void assert_refused(weir_status s, const char *type) {
  ck_assert_int_eq(s, WEIR_ERR_INVALID_ARGUMENT);
  ck_assert_msg(strstr(weir_last_error(), type) && strstr(weir_last_error(), "struct_size is 3") &&
                    strstr(weir_last_error(), "Fix: "),
                "%s", weir_last_error());
}

START_TEST(device_info_sizes) {
  weir_backend *b = NULL;
  ck_assert_int_eq(weir_backend_open("cpu:1", &b), WEIR_OK);
  /* newer caller: known fields filled, struct_size kept, its own tail zeroed */
  unsigned char *big = malloc(sizeof(weir_device_info) + EXTRA);
  memset(big, 0xab, sizeof(weir_device_info) + EXTRA);
  size_t n = sizeof(weir_device_info) + EXTRA;
  memcpy(big, &n, sizeof n);
  ck_assert_int_eq(weir_backend_device_info(b, (weir_device_info *)big), WEIR_OK);
  weir_device_info got;
  memcpy(&got, big, sizeof got);
  ck_assert_uint_eq(got.struct_size, n);
  ck_assert_str_eq(got.spec, "cpu:1");
  for (size_t i = 0; i < EXTRA; ++i) ck_assert_uint_eq(big[sizeof(weir_device_info) + i], 0);
  ck_assert_int_eq(weir_backend_describe("cpu", 1, (weir_device_info *)big), WEIR_OK);
  free(big);
  /* zeroed: the first layout */
  weir_device_info zero;
  memset(&zero, 0, sizeof zero);
  ck_assert_int_eq(weir_backend_device_info(b, &zero), WEIR_OK);
  ck_assert_str_eq(zero.spec, "cpu:1");
  ck_assert_uint_eq(zero.struct_size, 0);
  /* too small: refused, untouched */
  weir_device_info small;
  memset(&small, 0x5a, sizeof small);
  small.struct_size = 3;
  assert_refused(weir_backend_device_info(b, &small), "weir_device_info");
  ck_assert_uint_eq((unsigned char)small.spec[0], 0x5a);
  assert_refused(weir_backend_describe("cpu", 0, &small), "weir_device_info");
  weir_backend_close(b);
}
END_TEST

START_TEST(open_options_sizes) {
  weir_backend *b = NULL;
  weir_open_options o = WEIR_OPEN_OPTIONS_INIT;
  o.struct_size = 3;
  assert_refused(weir_backend_open_ex("cpu", &o, &b), "weir_open_options");
  ck_assert_ptr_null(b);
  /* a newer caller's options: its unknown bytes zero -> accepted, honoured */
  unsigned char *big = calloc(1, sizeof(weir_open_options) + EXTRA);
  weir_open_options known = WEIR_OPEN_OPTIONS_INIT;
  known.struct_size = sizeof(weir_open_options) + EXTRA;
  known.max_binding_bytes = 4096;
  memcpy(big, &known, sizeof known);
  ck_assert_msg(weir_backend_open_ex("cpu", (weir_open_options *)big, &b) == WEIR_OK, "%s",
                weir_last_error());
  weir_device_info info = WEIR_DEVICE_INFO_INIT;
  ck_assert_int_eq(weir_backend_device_info(b, &info), WEIR_OK);
  ck_assert_uint_eq(info.max_binding_bytes, 4096);
  weir_backend_close(b);
  b = NULL;
  /* ... a field this library does not know is set -> refused, naming the byte */
  big[sizeof(weir_open_options) + 5] = 1;
  ck_assert_int_eq(weir_backend_open_ex("cpu", (weir_open_options *)big, &b),
                   WEIR_ERR_INVALID_ARGUMENT);
  ck_assert_msg(strstr(weir_last_error(), "not zero") && strstr(weir_last_error(), "Fix: "), "%s",
                weir_last_error());
  free(big);
  /* zeroed (0): the first layout, fields honoured */
  weir_open_options zero;
  memset(&zero, 0, sizeof zero);
  zero.max_binding_bytes = 2048;
  ck_assert_int_eq(weir_backend_open_ex("cpu", &zero, &b), WEIR_OK);
  ck_assert_int_eq(weir_backend_device_info(b, &info), WEIR_OK);
  ck_assert_uint_eq(info.max_binding_bytes, 2048);
  weir_backend_close(b);
}
END_TEST

START_TEST(ifds_stats_sizes) {
  weir_ifds_problem *p = problem();
  weir_backend *b = NULL;
  ck_assert_int_eq(weir_backend_open("cpu", &b), WEIR_OK);
  weir_ifds_result r;
  for (int engine = 0; engine < 3; ++engine) {
    unsigned char *big = malloc(sizeof(weir_ifds_stats) + EXTRA);
    memset(big, 0xab, sizeof(weir_ifds_stats) + EXTRA);
    size_t n = sizeof(weir_ifds_stats) + EXTRA;
    memcpy(big, &n, sizeof n);
    weir_ifds_stats *st = (weir_ifds_stats *)big;
    weir_status s = engine == 0   ? weir_ifds_solve_reference(p, &r, st)
                    : engine == 1 ? weir_ifds_solve_engine(b, p, NULL, &r, st)
                                  : weir_ifds_solve_engine_multi(&b, 1, p, NULL, &r, st);
    ck_assert_msg(s == WEIR_OK, "%d: %s", engine, weir_last_error());
    weir_ifds_stats got;
    memcpy(&got, big, sizeof got);
    ck_assert_uint_eq(got.struct_size, n);
    ck_assert_uint_eq(got.path_edges, r.path_edges);
    for (size_t i = 0; i < EXTRA; ++i) ck_assert_uint_eq(big[sizeof(weir_ifds_stats) + i], 0);
    weir_ifds_result_free(&r);
    free(big);
    weir_ifds_stats small;
    memset(&small, 0x5a, sizeof small);
    small.struct_size = 3;
    s = engine == 0   ? weir_ifds_solve_reference(p, &r, &small)
        : engine == 1 ? weir_ifds_solve_engine(b, p, NULL, &r, &small)
                      : weir_ifds_solve_engine_multi(&b, 1, p, NULL, &r, &small);
    assert_refused(s, "weir_ifds_stats");
    ck_assert_uint_eq(small.path_edges, 0x5a5a5a5a5a5a5a5aull);
  }
  /* the JSON writer reads only the caller's bytes */
  weir_ifds_stats st = WEIR_IFDS_STATS_INIT;
  st.struct_size = 3;
  FILE *devnull = fopen("/dev/null", "w");
  assert_refused(weir_ifds_write_stats_json(&st, "reference", "host", 0, devnull),
                 "weir_ifds_stats");
  fclose(devnull);
  weir_backend_close(b);
  weir_ifds_problem_free(p);
}
END_TEST

START_TEST(engine_options_sizes) {
  weir_ifds_problem *p = problem();
  weir_backend *b = NULL;
  ck_assert_int_eq(weir_backend_open("cpu", &b), WEIR_OK);
  weir_ifds_result r;
  weir_ifds_engine_options o = WEIR_IFDS_ENGINE_OPTIONS_INIT;
  o.struct_size = 3;
  assert_refused(weir_ifds_solve_engine(b, p, &o, &r, NULL), "weir_ifds_engine_options");
  assert_refused(weir_ifds_solve_engine_multi(&b, 1, p, &o, &r, NULL), "weir_ifds_engine_options");
  unsigned char *big = calloc(1, sizeof o + EXTRA);
  o.struct_size = sizeof o + EXTRA;
  o.initial_table_capacity = 4;
  memcpy(big, &o, sizeof o);
  ck_assert_msg(weir_ifds_solve_engine(b, p, (weir_ifds_engine_options *)big, &r, NULL) == WEIR_OK,
                "%s", weir_last_error());
  weir_ifds_result_free(&r);
  big[sizeof o + EXTRA - 1] = 7;
  ck_assert_int_eq(weir_ifds_solve_engine(b, p, (weir_ifds_engine_options *)big, &r, NULL),
                   WEIR_ERR_INVALID_ARGUMENT);
  ck_assert_msg(strstr(weir_last_error(), "weir_ifds_engine_options"), "%s", weir_last_error());
  free(big);
  weir_backend_close(b);
  weir_ifds_problem_free(p);
}
END_TEST

int main(void) {
  Suite *s = suite_create("struct_size");
  TCase *tc = tcase_create("abi");
  tcase_add_test(tc, device_info_sizes);
  tcase_add_test(tc, open_options_sizes);
  tcase_add_test(tc, ifds_stats_sizes);
  tcase_add_test(tc, engine_options_sizes);
  suite_add_tcase(s, tc);
  return weir_check_run(srunner_create(s));
}
