/* Stale handles across backend instances (issue #11, item 1): a buffer handle
 * of a closed instance must be refused by a new instance that the allocator
 * placed at the same address, and a second close of an instance is detected
 * while its memory is not reused yet. */
#include <check.h>
#include <string.h>

#include "tests/check_run.h"
#include "weir/weir.h"

#if defined(__SANITIZE_ADDRESS__)
#define WEIR_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define WEIR_TEST_ASAN 1
#endif
#endif

#ifdef WEIR_TEST_ASAN
/* ASan's quarantine keeps freed memory out of reach, which hides address
 * reuse; without it the allocator hands the closed instance's block back. */
const char *__asan_default_options(void);
const char *__asan_default_options(void) {
  return "quarantine_size_mb=0:thread_local_quarantine_size_kb=0";
}
#endif

#define MAX_TRIES 256

static weir_backend *open_cpu(void) {
  weir_open_options options = {.struct_size = sizeof(weir_open_options), .threads = 1};
  weir_backend *b = NULL;
  ck_assert_int_eq(weir_backend_open_ex("cpu", &options, &b), WEIR_OK);
  return b;
}

START_TEST(stale_handle_at_reused_address_is_refused) {
  weir_backend *old = open_cpu();
  weir_buffer stale;
  ck_assert_int_eq(weir_allocate(old, 16, &stale), WEIR_OK);
  uint32_t old_data[4] = {1, 2, 3, 4};
  ck_assert_int_eq(weir_upload(old, stale, old_data, sizeof old_data), WEIR_OK);
  weir_backend *old_address = old;
  weir_backend_close(old);

  /* Open instances until one lands where the closed one was; keep the others
   * open so that the allocator cannot hand out their blocks again. */
  weir_backend *held[MAX_TRIES], *b = NULL;
  int held_count = 0;
  while (held_count < MAX_TRIES) {
    weir_backend *candidate = open_cpu();
    if (candidate == old_address) {
      b = candidate;
      break;
    }
    held[held_count++] = candidate;
  }
  ck_assert_msg(b != NULL, "no instance landed at the closed one's address in %d opens",
                MAX_TRIES);
  /* The new instance's first buffer takes the same slot and generation. */
  weir_buffer live;
  ck_assert_int_eq(weir_allocate(b, 16, &live), WEIR_OK);
  ck_assert_uint_eq(live.slot, stale.slot);
  ck_assert_uint_eq(live.generation, stale.generation);
  ck_assert_ptr_eq(live.owner, stale.owner);
  uint32_t live_data[4] = {10, 20, 30, 40}, back[4] = {0};
  ck_assert_int_eq(weir_upload(b, live, live_data, sizeof live_data), WEIR_OK);

  ck_assert_int_eq(weir_download_range_into(b, stale, 0, sizeof back, back),
                   WEIR_ERR_FOREIGN_RESOURCE);
  ck_assert_ptr_nonnull(strstr(weir_last_error(), "was closed"));
  ck_assert_ptr_nonnull(strstr(weir_last_error(), "Fix:"));
  ck_assert_int_eq(weir_upload(b, stale, old_data, sizeof old_data), WEIR_ERR_FOREIGN_RESOURCE);
  ck_assert_int_eq(weir_free(b, stale), WEIR_ERR_FOREIGN_RESOURCE);
  uint64_t bytes = 0;
  ck_assert_int_eq(weir_buffer_size(b, stale, &bytes), WEIR_ERR_FOREIGN_RESOURCE);
  weir_range range = {stale, 0, 4};
  void *outs[1] = {back};
  ck_assert_int_eq(weir_download_ranges_into(b, &range, 1, outs, 1), WEIR_ERR_FOREIGN_RESOURCE);

  /* The live buffer was not touched by any of the refused calls. */
  ck_assert_int_eq(weir_download_range_into(b, live, 0, sizeof back, back), WEIR_OK);
  ck_assert_mem_eq(back, live_data, sizeof live_data);
  ck_assert_int_eq(weir_free(b, live), WEIR_OK);
  weir_backend_close(b);
  for (int i = 0; i < held_count; ++i) weir_backend_close(held[i]);
}
END_TEST

START_TEST(handles_carry_distinct_instance_ids) {
  weir_backend *a = open_cpu(), *b = open_cpu();
  weir_buffer x, y;
  ck_assert_int_eq(weir_allocate(a, 4, &x), WEIR_OK);
  ck_assert_int_eq(weir_allocate(b, 4, &y), WEIR_OK);
  ck_assert_uint_ne(x.instance, 0);
  ck_assert_uint_ne(x.instance, y.instance);
  /* A forged handle naming b with a's id is the stale case without reuse. */
  weir_buffer forged = x;
  forged.owner = b;
  ck_assert_int_eq(weir_free(b, forged), WEIR_ERR_FOREIGN_RESOURCE);
  ck_assert_ptr_nonnull(strstr(weir_last_error(), "was closed"));
  ck_assert_int_eq(weir_free(b, y), WEIR_OK);
  weir_backend_close(b);
  weir_backend_close(a);
}
END_TEST

#ifndef WEIR_TEST_ASAN
/* Reads freed memory on purpose (documented as undefined in weir.h): the
 * check catches it while the block is not reused. Under ASan the same calls
 * are reported as heap-use-after-free, so this case only runs without it. */
START_TEST(double_close_is_detected) {
  weir_backend *b = open_cpu();
  weir_buffer x;
  ck_assert_int_eq(weir_allocate(b, 4, &x), WEIR_OK);
  weir_backend_close(b);
  weir_clear_error();
  weir_backend_close(b); /* must not free twice */
  ck_assert_ptr_nonnull(strstr(weir_last_error(), "already closed"));
  ck_assert_int_eq(weir_free(b, x), WEIR_ERR_FOREIGN_RESOURCE);
  ck_assert_ptr_nonnull(strstr(weir_last_error(), "already closed"));
}
END_TEST
#endif

int main(void) {
  Suite *s = suite_create("handles");
  TCase *tc = tcase_create("handles");
  tcase_add_test(tc, stale_handle_at_reused_address_is_refused);
  tcase_add_test(tc, handles_carry_distinct_instance_ids);
#ifndef WEIR_TEST_ASAN
  tcase_add_test(tc, double_close_is_detected);
#endif
  suite_add_tcase(s, tc);
  return weir_check_run(srunner_create(s));
}
