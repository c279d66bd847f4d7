/* The CUDA backend end to end through weir's public API, against the strict
 * stand-in driver (mock_cuda_driver.c, loaded via WEIR_CUDA_DRIVER): checks
 * the promises that are about the backend's own logic — one synchronization
 * per batch or sequence, ranged reads that move only the range, repeated
 * groups captured into a graph once and replayed, timed dispatch, errors
 * that name the driver's error. On a GPU the conformance suite covers the
 * device itself. */
#include <check.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/cuda/mock_cuda_driver.h"
#include "weir/weir.h"
#include "tests/check_run.h"

static weir_backend *g_b;
static weir_mock_cuda_get_counters_fn g_counters;

static weir_mock_cuda_counters counters(void) {
  weir_mock_cuda_counters c;
  g_counters(&c);
  return c;
}

static void setup(void) {
  const char *path = getenv("WEIR_CUDA_DRIVER");
  ck_assert_msg(path && *path, "run through CTest: WEIR_CUDA_DRIVER must name the mock driver");
  ck_assert_int_eq(weir_backend_open("cuda", &g_b), WEIR_OK);
  /* The library the backend loaded: dlopen returns the same handle. */
  void *h = dlopen(path, RTLD_NOW | RTLD_NOLOAD);
  ck_assert_ptr_nonnull(h);
  void *sym = dlsym(h, WEIR_MOCK_CUDA_COUNTERS_SYMBOL);
  ck_assert_ptr_nonnull(sym);
  memcpy(&g_counters, &sym, sizeof sym);
  dlclose(h);
}

/* Closing the instance returns everything it took from the driver. */
static void teardown(void) {
  weir_backend_close(g_b);
  g_b = NULL;
  weir_mock_cuda_counters c = counters();
  ck_assert_int_eq(c.live_device_blocks, 0);
  ck_assert_int_eq(c.live_pinned_blocks, 0);
  ck_assert_int_eq(c.live_streams, 0);
  ck_assert_int_eq(c.live_events, 0);
  ck_assert_int_eq(c.live_graphs, 0);
  ck_assert_int_eq(c.live_graph_execs, 0);
  ck_assert_uint_eq(c.modules_loaded, c.modules_unloaded);
}

static const weir_program *program(const char *name) {
  const weir_program *p = weir_backend_find_program(g_b, name);
  ck_assert_ptr_nonnull(p);
  return p;
}

#define OK(expr) ck_assert_msg((expr) == WEIR_OK, "%s: %s", #expr, weir_last_error())

START_TEST(device_description) {
  weir_device_info info = WEIR_DEVICE_INFO_INIT;
  OK(weir_backend_device_info(g_b, &info));
  ck_assert_str_eq(info.backend_id, "cuda");
  ck_assert_str_eq(info.spec, "cuda:0");
  ck_assert_str_eq(info.name, "weir mock CUDA device");
  ck_assert_str_eq(info.driver, "CUDA driver 13.0");
  ck_assert_int_eq(info.dl_device_type, 2);
  ck_assert_int_eq(info.timestamps_are_device, 1);
  ck_assert_ptr_nonnull(strstr(info.details, "compute capability: 9.0"));
  ck_assert_int_eq(counters().last_requested_version, 12000);
}
END_TEST

START_TEST(upload_many_is_one_sync_and_ranged_read_moves_only_the_range) {
  weir_buffer b[3];
  uint32_t data[3][256];
  weir_upload_item up[3];
  for (int i = 0; i < 3; ++i) {
    OK(weir_allocate(g_b, sizeof data[i], &b[i]));
    for (int k = 0; k < 256; ++k) data[i][k] = (uint32_t)(i * 1000 + k);
    up[i] = (weir_upload_item){b[i], 0, data[i], sizeof data[i]};
  }
  weir_mock_cuda_counters c0 = counters();
  OK(weir_upload_many(g_b, up, 3));
  weir_mock_cuda_counters c1 = counters();
  ck_assert_uint_eq(c1.syncs - c0.syncs, 1);
  ck_assert_uint_eq(c1.bytes_to_device - c0.bytes_to_device, 3 * sizeof data[0]);
  uint32_t got[2] = {0, 0};
  OK(weir_download_range_into(g_b, b[2], 100 * 4, sizeof got, got));
  weir_mock_cuda_counters c2 = counters();
  ck_assert_uint_eq(got[0], 2100);
  ck_assert_uint_eq(got[1], 2101);
  ck_assert_uint_eq(c2.bytes_to_host - c1.bytes_to_host, sizeof got);
  ck_assert_uint_eq(c2.syncs - c1.syncs, 1);
  /* upload_at_many at an offset, then the last byte. */
  uint32_t patch = 0xdeadbeef;
  weir_upload_item at = {b[1], 255 * 4, &patch, 4};
  OK(weir_upload_at_many(g_b, &at, 1));
  uint8_t last = 0;
  OK(weir_download_range_into(g_b, b[1], 1023, 1, &last));
  ck_assert_uint_eq(last, 0xde);
  for (int i = 0; i < 3; ++i) OK(weir_free(g_b, b[i]));
}
END_TEST

START_TEST(sequence_is_one_sync_with_reads) {
  weir_buffer x;
  OK(weir_allocate(g_b, 1024 * 4, &x));
  struct { uint32_t value, count; } fill = {5, 1024}, add = {3, 1024};
  weir_step steps[101];
  steps[0] = (weir_step){program("fill_u32"), &x, 1, {0, 0, 0}, &fill, sizeof fill};
  for (int i = 1; i < 101; ++i)
    steps[i] = (weir_step){program("add_u32"), &x, 1, {0, 0, 0}, &add, sizeof add};
  weir_range r = {x, 1000 * 4, 8};
  uint32_t out[2] = {0, 0};
  void *outs[1] = {out};
  weir_mock_cuda_counters c0 = counters();
  OK(weir_dispatch_sequence_read_ranges_into(g_b, steps, 101, &r, 1, outs, 1));
  weir_mock_cuda_counters c1 = counters();
  ck_assert_uint_eq(out[0], 5 + 300);
  ck_assert_uint_eq(out[1], 5 + 300);
  ck_assert_uint_eq(c1.syncs - c0.syncs, 1);
  ck_assert_uint_eq(c1.launches - c0.launches, 101);
  ck_assert_uint_eq(c1.bytes_to_host - c0.bytes_to_host, 8);
  OK(weir_free(g_b, x));
}
END_TEST

/* counter_u32 repeated `n` times after a fill, read back with one sync. */
static uint32_t run_counter(weir_buffer counter, uint32_t start, uint64_t n) {
  struct { uint32_t value, count; } fill = {start, 1};
  weir_step prefix = {program("fill_u32"), &counter, 1, {1, 1, 1}, &fill, sizeof fill};
  weir_step tick = {program("counter_u32"), &counter, 1, {0, 0, 0}, NULL, 0};
  weir_range r = {counter, 0, 4};
  uint32_t got = 0;
  void *outs[1] = {&got};
  OK(weir_dispatch_repeated_sequence_read_ranges_into(g_b, &prefix, 1, &tick, 1, n, &r, 1, outs, 1));
  return got;
}

START_TEST(repeated_group_is_captured_once_and_replayed) {
  weir_buffer counter;
  OK(weir_allocate(g_b, 4, &counter));
  weir_mock_cuda_counters c0 = counters();
  ck_assert_uint_eq(run_counter(counter, 7, 1000), 1007);
  weir_mock_cuda_counters c1 = counters();
  ck_assert_uint_eq(c1.syncs - c0.syncs, 1);
  ck_assert_uint_eq(c1.instantiations - c0.instantiations, 1);
  ck_assert_uint_eq(c1.graph_launches - c0.graph_launches, 1000 / 64);
  ck_assert_uint_eq(c1.kernels_run - c0.kernels_run, 1 + 1000);
  /* Same group again: no new capture, same replay count. */
  ck_assert_uint_eq(run_counter(counter, 1, 1000), 1001);
  weir_mock_cuda_counters c2 = counters();
  ck_assert_uint_eq(c2.instantiations - c1.instantiations, 0);
  ck_assert_uint_eq(c2.captures - c1.captures, 0);
  ck_assert_uint_eq(c2.graph_launches - c1.graph_launches, 1000 / 64);
  /* Fewer iterations than a graph holds, and zero: direct launches. */
  ck_assert_uint_eq(run_counter(counter, 0, 10), 10);
  ck_assert_uint_eq(run_counter(counter, 3, 0), 3);
  ck_assert_uint_eq(run_counter(counter, 0, 64), 64);
  weir_mock_cuda_counters c3 = counters();
  ck_assert_uint_eq(c3.instantiations - c2.instantiations, 0);
  ck_assert_uint_eq(c3.graph_launches - c2.graph_launches, 1);
  OK(weir_free(g_b, counter));
}
END_TEST

START_TEST(changed_group_gets_its_own_graph) {
  weir_buffer x;
  OK(weir_allocate(g_b, 64 * 4, &x));
  struct { uint32_t value, count; } fill = {0, 64}, add = {1, 64};
  weir_step prefix = {program("fill_u32"), &x, 1, {0, 0, 0}, &fill, sizeof fill};
  weir_step group = {program("add_u32"), &x, 1, {0, 0, 0}, &add, sizeof add};
  weir_range r = {x, 63 * 4, 4};
  uint32_t got = 0;
  void *outs[1] = {&got};
  weir_mock_cuda_counters c0 = counters();
  OK(weir_dispatch_repeated_sequence_read_ranges_into(g_b, &prefix, 1, &group, 1, 200, &r, 1, outs, 1));
  ck_assert_uint_eq(got, 200);
  add.value = 2; /* different push constants: a different graph */
  OK(weir_dispatch_repeated_sequence_read_ranges_into(g_b, &prefix, 1, &group, 1, 200, &r, 1, outs, 1));
  ck_assert_uint_eq(got, 400);
  weir_mock_cuda_counters c1 = counters();
  ck_assert_uint_eq(c1.instantiations - c0.instantiations, 2);
  OK(weir_free(g_b, x));
}
END_TEST

START_TEST(timed_sequence_uses_events_and_one_sync) {
  weir_buffer x;
  OK(weir_allocate(g_b, 4096 * 4, &x));
  struct { uint32_t value, count; } fill = {9, 4096};
  weir_step steps[4];
  for (int i = 0; i < 4; ++i) steps[i] = (weir_step){program("fill_u32"), &x, 1, {0, 0, 0}, &fill, sizeof fill};
  uint64_t ns[4] = {~0ull, ~0ull, ~0ull, ~0ull};
  weir_mock_cuda_counters c0 = counters();
  OK(weir_dispatch_sequence_timed(g_b, steps, 4, ns));
  weir_mock_cuda_counters c1 = counters();
  ck_assert_uint_eq(c1.syncs - c0.syncs, 1);
  for (int i = 0; i < 4; ++i) ck_assert_uint_lt(ns[i], 10ull * 1000 * 1000 * 1000);
  uint32_t v = 0;
  OK(weir_download_range_into(g_b, x, 4095 * 4, 4, &v));
  ck_assert_uint_eq(v, 9);
  OK(weir_free(g_b, x));
}
END_TEST

START_TEST(batch_larger_than_staging_round_trips_in_chunks) {
  const uint64_t bytes = (64ull << 20) + 12;
  unsigned char *data = malloc(bytes), *back = malloc(bytes);
  ck_assert_ptr_nonnull(data);
  ck_assert_ptr_nonnull(back);
  for (uint64_t i = 0; i < bytes; ++i) data[i] = (unsigned char)(i * 131 + (i >> 13));
  weir_buffer b;
  OK(weir_allocate(g_b, bytes, &b));
  weir_mock_cuda_counters c0 = counters();
  OK(weir_upload(g_b, b, data, bytes));
  weir_mock_cuda_counters c1 = counters();
  ck_assert_uint_eq(c1.syncs - c0.syncs, 2); /* 64 MiB staging: two chunks */
  OK(weir_download_into(g_b, b, back, bytes));
  ck_assert_int_eq(memcmp(data, back, bytes), 0);
  OK(weir_free(g_b, b));
  free(data);
  free(back);
}
END_TEST

/* Short of pinned memory the 1 MiB staging buffer stays, and batches go
 * through it in more chunks: slower, never wrong. */
START_TEST(staging_growth_failure_falls_back_to_chunks) {
  setenv("WEIR_MOCK_CUDA_PINNED_MAX", "1048576", 1);
  const uint64_t bytes = (3ull << 20) + 5;
  unsigned char *data = malloc(bytes), *back = malloc(bytes);
  ck_assert_ptr_nonnull(data);
  ck_assert_ptr_nonnull(back);
  for (uint64_t i = 0; i < bytes; ++i) data[i] = (unsigned char)(i * 7 + 1);
  weir_buffer b;
  OK(weir_allocate(g_b, bytes, &b));
  weir_mock_cuda_counters c0 = counters();
  OK(weir_upload(g_b, b, data, bytes));
  weir_mock_cuda_counters c1 = counters();
  ck_assert_uint_eq(c1.syncs - c0.syncs, 4);
  OK(weir_download_into(g_b, b, back, bytes));
  ck_assert_int_eq(memcmp(data, back, bytes), 0);
  OK(weir_free(g_b, b));
  free(data);
  free(back);
  unsetenv("WEIR_MOCK_CUDA_PINNED_MAX");
}
END_TEST

START_TEST(copy_export_and_import) {
  weir_buffer a, b;
  OK(weir_allocate(g_b, 64, &a));
  OK(weir_allocate(g_b, 64, &b));
  unsigned char src[64];
  for (int i = 0; i < 64; ++i) src[i] = (unsigned char)i;
  OK(weir_upload(g_b, a, src, 64));
  OK(weir_copy(g_b, b, 8, a, 0, 32));
  unsigned char got[32];
  OK(weir_download_range_into(g_b, b, 8, 32, got));
  ck_assert_mem_eq(got, src, 32);
  void *ptr = NULL;
  OK(weir_buffer_export_pointer(g_b, a, &ptr));
  ck_assert_ptr_nonnull(ptr);
  weir_buffer view;
  OK(weir_buffer_import_external(g_b, (unsigned char *)ptr + 16, 16, &view));
  OK(weir_download_range_into(g_b, view, 0, 16, got));
  ck_assert_mem_eq(got, src + 16, 16);
  OK(weir_free(g_b, view)); /* forgets, does not free: a is still readable */
  OK(weir_download_range_into(g_b, a, 60, 4, got));
  ck_assert_mem_eq(got, src + 60, 4);
  OK(weir_free(g_b, a));
  OK(weir_free(g_b, b));
}
END_TEST

/* weir_copy is queued on the backend's stream: exporting the pointer must
 * finish it, or a consumer on another stream would read stale bytes. The
 * mock's device pointers are host memory, so the bytes are read directly. */
START_TEST(export_pointer_finishes_pending_copies) {
  weir_buffer a, b;
  OK(weir_allocate(g_b, 64, &a));
  OK(weir_allocate(g_b, 64, &b));
  unsigned char src[64];
  for (int i = 0; i < 64; ++i) src[i] = (unsigned char)(3 * i + 1);
  OK(weir_upload(g_b, a, src, 64));
  OK(weir_copy(g_b, b, 0, a, 0, 64)); /* queued, not yet run */
  weir_mock_cuda_counters c0 = counters();
  void *ptr = NULL;
  OK(weir_buffer_export_pointer(g_b, b, &ptr));
  weir_mock_cuda_counters c1 = counters();
  ck_assert_uint_eq(c1.syncs - c0.syncs, 1);
  ck_assert_mem_eq(ptr, src, 64);
  OK(weir_free(g_b, a));
  OK(weir_free(g_b, b));
}
END_TEST

/* A block that fits the thread total but not a dimension's limit (z <= 64)
 * is refused when the program is prepared, naming the limit. */
START_TEST(block_dimension_over_device_limit_is_refused) {
  weir_program tall = *program("add_u32");
  tall.name = "mock_tall_block";
  tall.workgroup_size[0] = 2;
  tall.workgroup_size[1] = 2;
  tall.workgroup_size[2] = 128; /* 512 threads: under 1024 in all */
  weir_buffer x;
  OK(weir_allocate(g_b, 256, &x));
  struct { uint32_t value, count; } add = {1, 64};
  weir_mock_cuda_counters c0 = counters();
  weir_status s = weir_dispatch(g_b, &tall, &x, 1, (weir_grid){1, 1, 1}, &add, sizeof add);
  ck_assert_int_eq(s, WEIR_ERR_UNSUPPORTED);
  const char *msg = weir_last_error();
  ck_assert_ptr_nonnull(strstr(msg, "mock_tall_block"));
  ck_assert_ptr_nonnull(strstr(msg, "2x2x128"));
  ck_assert_ptr_nonnull(strstr(msg, "at most 64 threads in z"));
  ck_assert_ptr_nonnull(strstr(msg, "MAX_BLOCK_DIM_Z"));
  ck_assert_ptr_nonnull(strstr(msg, "1024x1024x64"));
  ck_assert_ptr_nonnull(strstr(msg, "Fix: "));
  ck_assert_uint_eq(counters().launches - c0.launches, 0);
  /* Within every limit: 1024 threads as 16x1x64 is accepted. */
  tall.name = "mock_wide_block";
  tall.workgroup_size[0] = 16;
  tall.workgroup_size[2] = 64;
  tall.workgroup_size[1] = 1;
  OK(weir_dispatch(g_b, &tall, &x, 1, (weir_grid){1, 1, 1}, &add, sizeof add));
  ck_assert_uint_eq(counters().launches - c0.launches, 1);
  OK(weir_free(g_b, x));
}
END_TEST

START_TEST(driver_errors_name_the_call_and_the_cuda_error) {
  weir_program missing = *program("add_u32");
  missing.name = "mock_missing_kernel";
  missing.cuda_entry = "weir_no_such_kernel";
  weir_buffer x;
  OK(weir_allocate(g_b, 256, &x));
  struct { uint32_t value, count; } add = {1, 64};
  weir_status s = weir_dispatch(g_b, &missing, &x, 1, (weir_grid){1, 1, 1}, &add, sizeof add);
  ck_assert_int_ne(s, WEIR_OK);
  ck_assert_ptr_nonnull(strstr(weir_last_error(), "weir_no_such_kernel"));
  ck_assert_ptr_nonnull(strstr(weir_last_error(), "CUDA_ERROR_NOT_FOUND"));
  ck_assert_ptr_nonnull(strstr(weir_last_error(), "Fix: "));
  s = weir_dispatch(g_b, program("add_u32"), &x, 1, (weir_grid){1, 70000, 1}, &add, sizeof add);
  ck_assert_int_eq(s, WEIR_ERR_UNSUPPORTED);
  ck_assert_ptr_nonnull(strstr(weir_last_error(), "65535"));
  /* The instance still works after both failures. */
  OK(weir_dispatch(g_b, program("add_u32"), &x, 1, (weir_grid){1, 1, 1}, &add, sizeof add));
  OK(weir_free(g_b, x));
}
END_TEST

/* A launch refused while a group is being captured ends the capture: the
 * error comes back and the stream keeps working. */
START_TEST(failed_capture_leaves_stream_usable) {
  weir_buffer x;
  OK(weir_allocate(g_b, 256, &x));
  struct { uint32_t value, count; } add = {1, 64};
  weir_step bad = {program("add_u32"), &x, 1, {1, 70000, 1}, &add, sizeof add};
  weir_step prefix = {program("fill_u32"), &x, 1, {1, 1, 1}, &add, sizeof add};
  weir_range r = {x, 0, 4};
  uint32_t got = 0;
  void *outs[1] = {&got};
  weir_mock_cuda_counters c0 = counters();
  ck_assert_int_eq(weir_dispatch_repeated_sequence_read_ranges_into(g_b, &prefix, 1, &bad, 1, 100,
                                                                    &r, 1, outs, 1),
                   WEIR_ERR_UNSUPPORTED);
  ck_assert_ptr_nonnull(strstr(weir_last_error(), "70000"));
  weir_mock_cuda_counters c1 = counters();
  ck_assert_uint_eq(c1.instantiations - c0.instantiations, 0);
  ck_assert_int_eq(c1.live_graphs, c0.live_graphs);
  weir_step good = {program("add_u32"), &x, 1, {1, 1, 1}, &add, sizeof add};
  OK(weir_dispatch_repeated_sequence_read_ranges_into(g_b, &prefix, 1, &good, 1, 100, &r, 1, outs, 1));
  ck_assert_uint_eq(got, 101);
  OK(weir_free(g_b, x));
}
END_TEST

/* An instance opened before fork() is refused in the child (with the
 * reason), can still be closed there, and keeps working in the parent. */
START_TEST(instance_used_after_fork_is_refused) {
  weir_buffer x;
  OK(weir_allocate(g_b, 16, &x));
  fflush(NULL);
  pid_t child = fork();
  ck_assert_int_ge(child, 0);
  if (child == 0) {
    uint32_t v = 1;
    int ok = weir_upload(g_b, x, &v, 4) == WEIR_ERR_UNAVAILABLE &&
             strstr(weir_last_error(), "forked from pid") != NULL;
    weir_backend_close(g_b); /* must not touch the parent's driver objects */
    _exit(ok ? 0 : 1);
  }
  int status = 0;
  ck_assert_int_eq(waitpid(child, &status, 0), child);
  ck_assert(WIFEXITED(status));
  ck_assert_int_eq(WEXITSTATUS(status), 0);
  uint32_t v = 42, back = 0;
  OK(weir_upload(g_b, x, &v, 4));
  OK(weir_download_range_into(g_b, x, 0, 4, &back));
  ck_assert_uint_eq(back, 42);
  OK(weir_free(g_b, x));
}
END_TEST

int main(void) {
  Suite *s = suite_create("cuda_mock");
  TCase *tc = tcase_create("mock");
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, device_description);
  tcase_add_test(tc, upload_many_is_one_sync_and_ranged_read_moves_only_the_range);
  tcase_add_test(tc, sequence_is_one_sync_with_reads);
  tcase_add_test(tc, repeated_group_is_captured_once_and_replayed);
  tcase_add_test(tc, changed_group_gets_its_own_graph);
  tcase_add_test(tc, timed_sequence_uses_events_and_one_sync);
  tcase_add_test(tc, batch_larger_than_staging_round_trips_in_chunks);
  tcase_add_test(tc, staging_growth_failure_falls_back_to_chunks);
  tcase_add_test(tc, copy_export_and_import);
  tcase_add_test(tc, export_pointer_finishes_pending_copies);
  tcase_add_test(tc, block_dimension_over_device_limit_is_refused);
  tcase_add_test(tc, driver_errors_name_the_call_and_the_cuda_error);
  tcase_add_test(tc, failed_capture_leaves_stream_usable);
  tcase_add_test(tc, instance_used_after_fork_is_refused);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  return weir_check_run(sr);
}
