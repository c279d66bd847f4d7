/* Plugins through the public interface: the template backend loaded by path
 * and from WEIR_BACKEND_PATH, computing real results, listed in the reports;
 * and a wrong-ABI plugin refused with a clear message. Paths come from CMake
 * (WEIR_TEMPLATE_PLUGIN, WEIR_TEMPLATE_DIR, WEIR_BAD_PLUGIN, WEIR_BAD_DIR). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "programs/generic.h"
#include "weir/backend.h"
#include "weir/weir.h"
#include "tests/check_run.h"

#define OK(expr) ck_assert_msg((expr) == WEIR_OK, "%s failed: %s", #expr, weir_last_error())

static weir_backend *open_template(void) {
  weir_backend *b = NULL;
  OK(weir_backend_open("plugin:" WEIR_TEMPLATE_PLUGIN, &b));
  return b;
}

START_TEST(template_by_path_computes) {
  weir_backend *b = open_template();
  ck_assert_str_eq(weir_backend_id(b), "template");
  ck_assert_int_eq(weir_backend_format(b), WEIR_FORMAT_HOST);
  enum { N = 1000 };
  weir_buffer buf;
  OK(weir_allocate(b, N * 4, &buf));
  const weir_program *fill = weir_backend_find_program(b, "fill_u32");
  const weir_program *add = weir_backend_find_program(b, "add_u32");
  ck_assert_ptr_nonnull(fill);
  weir_fill_u32_push fp = {7, N};
  weir_add_u32_push ap = {5, N - 1}; /* the last word keeps 7 */
  weir_step steps[2] = {{fill, &buf, 1, {0, 0, 0}, &fp, sizeof fp},
                        {add, &buf, 1, {0, 0, 0}, &ap, sizeof ap}};
  uint32_t out[N];
  weir_range range = {buf, 0, sizeof out};
  void *outputs[1] = {out};
  weir_backend_reset_stats(b);
  OK(weir_dispatch_sequence_read_ranges_into(b, steps, 2, &range, 1, outputs, 1));
  for (int i = 0; i < N - 1; ++i) ck_assert_uint_eq(out[i], 12);
  ck_assert_uint_eq(out[N - 1], 7);
  weir_backend_stats stats;
  weir_backend_get_stats(b, &stats);
  ck_assert_uint_eq(stats.dispatches, 2);
  ck_assert_uint_eq(stats.bytes_downloaded, sizeof out);
  weir_backend_close(b);
}
END_TEST

START_TEST(template_repeated_counts_every_step) {
  weir_backend *b = open_template();
  weir_buffer counter;
  uint32_t zero = 0, got = 0;
  OK(weir_allocate(b, 4, &counter));
  OK(weir_upload(b, counter, &zero, 4));
  const weir_program *inc = weir_backend_find_program(b, "counter_u32");
  weir_step step = {inc, &counter, 1, {0, 0, 0}, NULL, 0};
  weir_range range = {counter, 0, 4};
  void *outputs[1] = {&got};
  OK(weir_dispatch_repeated_sequence_read_ranges_into(b, &step, 1, &step, 1, 41, &range, 1, outputs,
                                                      1));
  ck_assert_uint_eq(got, 42);
  weir_backend_close(b);
}
END_TEST

START_TEST(template_from_backend_path) {
  ck_assert_int_eq(setenv("WEIR_BACKEND_PATH", "/nonexistent:" WEIR_TEMPLATE_DIR, 1), 0);
  weir_backend *b = NULL;
  OK(weir_backend_open("template", &b));
  weir_device_info info = WEIR_DEVICE_INFO_INIT;
  OK(weir_backend_device_info(b, &info));
  ck_assert_str_eq(info.backend_id, "template");
  ck_assert_int_eq(info.timestamps_are_device, 0);
  weir_backend_close(b);

  weir_backend_report reports[16];
  size_t count = 0;
  OK(weir_backend_reports(reports, 16, &count));
  int found = 0;
  for (size_t i = 0; i < count && i < 16; ++i)
    if (strcmp(reports[i].id, "template") == 0) {
      found = 1;
      ck_assert_int_eq(reports[i].available, 1);
      ck_assert_uint_eq(reports[i].device_count, 1);
      ck_assert_str_eq(reports[i].version, "1.0.0");
    }
  ck_assert_msg(found, "template plugin missing from weir_backend_reports (%zu reports)", count);
}
END_TEST

START_TEST(template_has_one_device) {
  weir_backend *b = NULL;
  weir_status st = weir_backend_open("plugin:" WEIR_TEMPLATE_PLUGIN ":1", &b);
  ck_assert_int_ne(st, WEIR_OK);
  ck_assert_ptr_null(b);
  ck_assert_ptr_nonnull(strstr(weir_last_error(), "Fix:"));
}
END_TEST

START_TEST(wrong_abi_refused_by_path) {
  weir_backend *b = NULL;
  weir_status st = weir_backend_open("plugin:" WEIR_BAD_PLUGIN, &b);
  ck_assert_int_eq(st, WEIR_ERR_UNSUPPORTED);
  ck_assert_ptr_null(b);
  char expect[96];
  snprintf(expect, sizeof expect, "found %u, expected %u", WEIR_BACKEND_ABI_VERSION + 1,
           WEIR_BACKEND_ABI_VERSION);
  ck_assert_msg(strstr(weir_last_error(), expect) != NULL, "message lacks '%s': %s", expect,
                weir_last_error());
  ck_assert_ptr_nonnull(strstr(weir_last_error(), WEIR_BAD_PLUGIN));
  ck_assert_ptr_nonnull(strstr(weir_last_error(), "Fix:"));
}
END_TEST

START_TEST(wrong_abi_reported_from_backend_path) {
  ck_assert_int_eq(setenv("WEIR_BACKEND_PATH", WEIR_BAD_DIR, 1), 0);
  weir_backend_report reports[16];
  size_t count = 0;
  OK(weir_backend_reports(reports, 16, &count));
  int found = 0;
  for (size_t i = 0; i < count && i < 16; ++i)
    if (strstr(reports[i].reason, "ABI version") != NULL) {
      found = 1;
      ck_assert_int_eq(reports[i].available, 0);
    }
  ck_assert_msg(found, "no report names the wrong ABI version (%zu reports)", count);
  weir_backend *b = NULL;
  ck_assert_int_ne(weir_backend_open("badabi", &b), WEIR_OK);
  ck_assert_ptr_null(b);
}
END_TEST

START_TEST(missing_plugin_file) {
  weir_backend *b = NULL;
  /* A path that names no file is a typo (bad input), not a missing backend. */
  ck_assert_int_eq(weir_backend_open("plugin:/nonexistent/libnothing.so", &b),
                   WEIR_ERR_INVALID_ARGUMENT);
  ck_assert_ptr_nonnull(strstr(weir_last_error(), "/nonexistent/libnothing.so"));
}
END_TEST

/* Tests that set WEIR_BACKEND_PATH get the process's own value back after
 * them: without a forked child per case (CK_FORK=no, the sanitizer run of
 * scripts/dev.sh) the next case would otherwise see it. */
static char *saved_backend_path;
static void save_backend_path(void) {
  const char *v = getenv("WEIR_BACKEND_PATH");
  saved_backend_path = v ? strdup(v) : NULL;
}
static void restore_backend_path(void) {
  if (saved_backend_path) setenv("WEIR_BACKEND_PATH", saved_backend_path, 1);
  else unsetenv("WEIR_BACKEND_PATH");
  free(saved_backend_path);
  saved_backend_path = NULL;
}

int main(void) {
  Suite *s = suite_create("plugin");
  TCase *tc = tcase_create("plugin");
  tcase_add_checked_fixture(tc, save_backend_path, restore_backend_path);
  tcase_add_test(tc, template_by_path_computes);
  tcase_add_test(tc, template_repeated_counts_every_step);
  tcase_add_test(tc, template_from_backend_path);
  tcase_add_test(tc, template_has_one_device);
  tcase_add_test(tc, wrong_abi_refused_by_path);
  tcase_add_test(tc, wrong_abi_reported_from_backend_path);
  tcase_add_test(tc, missing_plugin_file);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  return weir_check_run(sr);
}
