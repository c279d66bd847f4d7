/* Run with VK_DRIVER_FILES pointing at a file that does not exist: Vulkan
 * must be reported unavailable with the loader's error by name, and nothing
 * else may break. */
#include <stdlib.h>

#include "tests/vulkan/vk_test.h"

START_TEST(vulkan_unavailable_with_reason) {
  const char *files = getenv("VK_DRIVER_FILES");
  ck_assert_msg(files && strstr(files, "nonexistent"), "run this suite with VK_DRIVER_FILES=/nonexistent/...");
  weir_backend *b = NULL;
  FAILS_WITH(weir_backend_open("vulkan", &b), WEIR_ERR_UNAVAILABLE);
  ck_assert_ptr_null(b);
  ck_assert_msg(strstr(weir_last_error(), "VK_ERROR_INCOMPATIBLE_DRIVER") != NULL, "reason: %s",
                weir_last_error());
  FAILS_WITH(weir_backend_open("vulkan:0", &b), WEIR_ERR_UNAVAILABLE);

  weir_backend_report reports[16];
  size_t count = 0;
  OK(weir_backend_reports(reports, 16, &count));
  int seen_vulkan = 0, seen_cpu = 0;
  for (size_t i = 0; i < count && i < 16; ++i) {
    if (strcmp(reports[i].id, "vulkan") == 0) {
      seen_vulkan = 1;
      ck_assert_int_eq(reports[i].available, 0);
      ck_assert_msg(strstr(reports[i].reason, "VK_ERROR_INCOMPATIBLE_DRIVER") != NULL, "reason: %s",
                    reports[i].reason);
    }
    if (strcmp(reports[i].id, "cpu") == 0) seen_cpu = reports[i].available;
  }
  ck_assert_msg(seen_vulkan, "no report for vulkan");
  ck_assert_msg(seen_cpu, "cpu must stay available");
  /* "auto" falls back to the cpu backend. */
  OK(weir_backend_open("auto", &b));
  ck_assert_str_eq(weir_backend_id(b), "cpu");
  weir_backend_close(b);
}
END_TEST

Suite *vt_nodriver_suite(void) {
  Suite *s = suite_create("vulkan-nodriver");
  TCase *tc = tcase_create("nodriver");
  tcase_add_test(tc, vulkan_unavailable_with_reason);
  suite_add_tcase(s, tc);
  return s;
}
