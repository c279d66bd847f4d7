/* Vulkan-specific behaviour: device description, several instances at once,
 * one host synchronization per sequence, deferred device copies, timestamps,
 * refusals that name the device limit, and recovery after a refusal. */
#include <stdio.h>
#include <stdlib.h>

#include "programs/generic.h"
#include "tests/vulkan/vk_test.h"

static uint64_t detail_u64(const weir_device_info *info, const char *key) {
  const char *at = strstr(info->details, key);
  ck_assert_msg(at != NULL, "device details lack \"%s\":\n%s", key, info->details);
  return strtoull(at + strlen(key), NULL, 10);
}

START_TEST(device_info_details) {
  weir_backend *b = vt_open("vulkan");
  weir_device_info info = WEIR_DEVICE_INFO_INIT;
  OK(weir_backend_device_info(b, &info));
  ck_assert_str_eq(info.backend_id, "vulkan");
  ck_assert_int_eq(info.dl_device_type, 7);
  static const char *const keys[] = {"type: ", "driver: ", "memory heap 0: ", "max workgroup size: ",
                                     "max workgroup count: ", "push-constant bytes: ",
                                     "subgroup size: ", "64-bit buffer atomics: ", "timestamps: "};
  for (size_t i = 0; i < sizeof keys / sizeof keys[0]; ++i)
    ck_assert_msg(strstr(info.details, keys[i]) != NULL, "details lack \"%s\":\n%s", keys[i], info.details);
  ck_assert_uint_ge(detail_u64(&info, "push-constant bytes: "), 128);
  ck_assert_uint_ge(detail_u64(&info, "subgroup size: "), 1);
  ck_assert_int_eq(info.timestamps_are_device, strstr(info.details, "timestamps: yes") != NULL);
  const char *staged = getenv("WEIR_VULKAN_FORCE_STAGING");
  if (staged && strcmp(staged, "1") == 0) ck_assert_ptr_nonnull(strstr(info.details, "memory path: staged"));
  ck_assert_uint_gt(info.memory_bytes, 0);
  weir_backend_close(b);
}
END_TEST

static void add_all(weir_backend *b, weir_buffer buf, uint32_t count, uint32_t value) {
  weir_add_u32_push p = {value, count};
  OK(weir_dispatch(b, vt_program(b, "add_u32"), &buf, 1, (weir_grid){0, 0, 0}, &p, sizeof p));
}

/* Per-device function tables: three instances (two on the default device,
 * one by index) open and used interleaved, each with its own results. */
START_TEST(several_instances_at_once) {
  enum { N = 1000, K = 3 };
  const char *specs[K] = {"vulkan", "vulkan:0", "vulkan"};
  weir_backend *b[K];
  weir_buffer buf[K];
  uint32_t init[N];
  for (uint32_t i = 0; i < N; ++i) init[i] = i * 7u;
  for (int k = 0; k < K; ++k) {
    b[k] = vt_open(specs[k]);
    OK(weir_allocate(b[k], sizeof init, &buf[k]));
    OK(weir_upload(b[k], buf[k], init, sizeof init));
  }
  for (uint32_t round = 1; round <= 5; ++round)
    for (int k = 0; k < K; ++k) add_all(b[k], buf[k], N, round * (uint32_t)(k + 1));
  for (int k = 0; k < K; ++k) {
    uint32_t out[N];
    OK(weir_download_into(b[k], buf[k], out, sizeof out));
    for (uint32_t i = 0; i < N; ++i) ck_assert_uint_eq(out[i], i * 7u + 15u * (uint32_t)(k + 1));
  }
  for (int k = K - 1; k >= 0; --k) weir_backend_close(b[k]);
}
END_TEST

START_TEST(one_sync_per_sequence) {
  weir_backend *b = vt_open("vulkan");
  weir_buffer counter, data;
  uint32_t zero[256] = {0};
  OK(weir_allocate(b, 4, &counter));
  OK(weir_allocate(b, sizeof zero, &data));
  weir_upload_item ups[2] = {{counter, 0, zero, 4}, {data, 0, zero, sizeof zero}};
  OK(weir_upload_many(b, ups, 2));
  enum { STEPS = 500 };
  weir_step *steps = calloc(STEPS, sizeof *steps);
  weir_add_u32_push add = {2, 256};
  for (int i = 0; i < STEPS; ++i)
    steps[i] = i % 2 ? (weir_step){vt_program(b, "counter_u32"), &counter, 1, {1, 1, 1}, NULL, 0}
                     : (weir_step){vt_program(b, "add_u32"), &data, 1, {0, 0, 0}, &add, sizeof add};
  weir_range reads[2] = {{counter, 0, 4}, {data, 1020, 4}};
  uint32_t out[2] = {0, 0};
  void *outputs[2] = {&out[0], &out[1]};
  weir_backend_stats before, after;
  weir_backend_get_stats(b, &before);
  OK(weir_dispatch_sequence_read_ranges_into(b, steps, STEPS, reads, 2, outputs, 2));
  weir_backend_get_stats(b, &after);
  ck_assert_uint_eq(after.host_syncs - before.host_syncs, 1);
  ck_assert_uint_eq(out[0], STEPS / 2);
  ck_assert_uint_eq(out[1], 2u * (STEPS / 2));
  /* Repeated: 1000 x a 3-step group (more than one batch of executes). */
  weir_step group[3] = {steps[1], steps[1], steps[0]};
  weir_backend_get_stats(b, &before);
  OK(weir_dispatch_repeated_sequence_read_ranges_into(b, steps, 1, group, 3, 1000, reads, 2, outputs, 2));
  weir_backend_get_stats(b, &after);
  ck_assert_uint_eq(after.host_syncs - before.host_syncs, 1);
  ck_assert_uint_eq(out[0], STEPS / 2 + 2000);
  ck_assert_uint_eq(out[1], 2u * (STEPS / 2) + 2u + 2000u);
  free(steps);
  weir_backend_close(b);
}
END_TEST

/* weir_copy is recorded and runs with the next synchronizing call, in order:
 * a dispatch after it sees the copied data and a freed source is safe. */
START_TEST(deferred_copies_keep_order) {
  weir_backend *b = vt_open("vulkan");
  enum { N = 300 };
  uint32_t host[N];
  for (uint32_t i = 0; i < N; ++i) host[i] = 0x01000000u + i;
  weir_buffer a, c;
  OK(weir_allocate(b, sizeof host, &a));
  OK(weir_allocate(b, sizeof host, &c));
  OK(weir_upload(b, a, host, sizeof host));
  OK(weir_copy(b, c, 0, a, 0, sizeof host));
  add_all(b, c, N, 5); /* must see the copy */
  OK(weir_copy(b, a, 8, c, 0, 40)); /* then a freed source */
  OK(weir_free(b, c));
  uint32_t out[N];
  OK(weir_download_into(b, a, out, sizeof out));
  for (uint32_t i = 0; i < N; ++i) {
    uint32_t want = i >= 2 && i < 12 ? host[i - 2] + 5 : host[i];
    ck_assert_uint_eq(out[i], want);
  }
  weir_backend_close(b);
}
END_TEST

START_TEST(timed_steps_use_device_timestamps) {
  weir_backend *b = vt_open("vulkan");
  weir_device_info info = WEIR_DEVICE_INFO_INIT;
  OK(weir_backend_device_info(b, &info));
  weir_buffer counter;
  uint32_t zero = 0;
  OK(weir_allocate(b, 4, &counter));
  OK(weir_upload(b, counter, &zero, 4));
  weir_atomic_add_u32_push p = {1};
  const weir_program *atomic = vt_program(b, "atomic_add_u32");
  weir_step steps[3] = {{atomic, &counter, 1, {512, 4, 1}, &p, sizeof p},
                        {vt_program(b, "noop"), NULL, 0, {1, 1, 1}, NULL, 0},
                        {atomic, &counter, 1, {1, 1, 1}, &p, sizeof p}};
  uint64_t ns[3] = {0, 0, 0};
  OK(weir_dispatch_sequence_timed(b, steps, 3, ns));
  ck_assert_uint_gt(ns[0], 0);
  ck_assert_uint_lt(ns[0], 60ull * 1000000000ull);
  uint32_t got = 0;
  OK(weir_download_range_into(b, counter, 0, 4, &got));
  ck_assert_uint_eq(got, 512u * 4u * 64u + 64u);
  ck_assert_uint_lt(ns[1], 60ull * 1000000000ull);
  ck_assert_uint_lt(ns[2], 60ull * 1000000000ull);
  weir_backend_close(b);
}
END_TEST

/* Device limits refuse with the limit's value and a Fix:, and the instance
 * (including a copy recorded before the refusal) keeps working. */
START_TEST(refusals_name_the_device_limit) {
  weir_backend *nope = NULL;
  FAILS_WITH(weir_backend_open("vulkan:99", &nope), WEIR_ERR_OUT_OF_RANGE); /* a wrong spec */
  weir_backend *b = vt_open("vulkan");
  weir_device_info info = WEIR_DEVICE_INFO_INIT;
  OK(weir_backend_device_info(b, &info));
  weir_buffer a, c;
  uint32_t v = 41, w = 0;
  OK(weir_allocate(b, 4, &a));
  OK(weir_allocate(b, 4, &c));
  OK(weir_upload(b, a, &v, 4));
  OK(weir_copy(b, c, 0, a, 0, 4)); /* pending across the refusals below */
  uint64_t max_x = detail_u64(&info, "max workgroup count: ");
  weir_fill_u32_push fill = {1, 1};
  if (max_x < UINT32_MAX)
    FAILS_WITH(weir_dispatch(b, vt_program(b, "fill_u32"), &a, 1, (weir_grid){(uint32_t)max_x + 1, 1, 1},
                             &fill, sizeof fill), WEIR_ERR_UNSUPPORTED);
  uint64_t range = detail_u64(&info, "max storage buffer range: ");
  if (range < (256ull << 20)) {
    weir_buffer big;
    OK(weir_allocate(b, range + 4, &big));
    FAILS_WITH(weir_dispatch(b, vt_program(b, "fill_u32"), &big, 1, (weir_grid){1, 1, 1}, &fill, sizeof fill),
               WEIR_ERR_UNSUPPORTED);
    OK(weir_free(b, big));
  }
  static const uint32_t bad_code[8] = {0x12345678u, 0, 0, 0, 0, 0, 0, 0};
  weir_program bad = {.name = "bad_magic", .workgroup_size = {1, 1, 1},
                      .default_grid_binding = WEIR_NO_BINDING, .spirv = bad_code,
                      .spirv_bytes = sizeof bad_code};
  FAILS_WITH(weir_dispatch(b, &bad, NULL, 0, (weir_grid){1, 1, 1}, NULL, 0), WEIR_ERR_INVALID_ARGUMENT);
  /* Right magic, then an OpCapability claiming 100 words: truncated module. */
  static const uint32_t truncated[8] = {0x07230203u, 0x00010300u, 0, 8, 0, (100u << 16) | 17u, 1, 0};
  weir_program cut = bad;
  cut.name = "truncated";
  cut.spirv = truncated;
  cut.spirv_bytes = sizeof truncated;
  FAILS_WITH(weir_dispatch(b, &cut, NULL, 0, (weir_grid){1, 1, 1}, NULL, 0), WEIR_ERR_INVALID_ARGUMENT);
  ck_assert_ptr_nonnull(strstr(weir_last_error(), "malformed SPIR-V"));
  weir_program huge = *vt_program(b, "noop");
  huge.name = "noop_huge_workgroup";
  huge.workgroup_size[0] = (uint32_t)detail_u64(&info, "max workgroup size: ") + 1;
  FAILS_WITH(weir_dispatch(b, &huge, NULL, 0, (weir_grid){1, 1, 1}, NULL, 0), WEIR_ERR_UNSUPPORTED);
  add_all(b, c, 1, 1);
  OK(weir_download_range_into(b, c, 0, 4, &w));
  ck_assert_uint_eq(w, 42);
  weir_backend_close(b);
}
END_TEST

Suite *vt_device_suite(void) {
  Suite *s = suite_create("vulkan-device");
  TCase *tc = tcase_create("device");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, device_info_details);
  tcase_add_test(tc, several_instances_at_once);
  tcase_add_test(tc, one_sync_per_sequence);
  tcase_add_test(tc, deferred_copies_keep_order);
  tcase_add_test(tc, timed_steps_use_device_timestamps);
  tcase_add_test(tc, refusals_name_the_device_limit);
  suite_add_tcase(s, tc);
  return s;
}
