/* Engine-core behaviour that is the same for every backend: status values and
 * messages, opening by spec (auto, indices, unknown ids), the backend reports
 * behind `weir info`, program validation, statistics. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "programs/generic.h"
#include "weir/backend.h"
#include "weir/weir.h"
#include "tests/check_run.h"

START_TEST(status_messages) {
  ck_assert_str_eq(weir_status_name(WEIR_ERR_OUT_OF_RANGE), "WEIR_ERR_OUT_OF_RANGE");
  ck_assert_int_eq(weir_fail(WEIR_ERR_IO, "reading %s failed. Fix: check it.", "x.ifds"), WEIR_ERR_IO);
  ck_assert_str_eq(weir_last_error(), "reading x.ifds failed. Fix: check it.");
  weir_fail_context(WEIR_ERR_IO, "loading %d", 7);
  ck_assert_str_eq(weir_last_error(), "loading 7: reading x.ifds failed. Fix: check it.");
  char big[5000];
  memset(big, 'a', sizeof big - 1);
  big[sizeof big - 1] = '\0';
  weir_fail(WEIR_ERR_PARSE, "%s", big);
  size_t n = strlen(weir_last_error());
  ck_assert_uint_lt(n, sizeof big);
  ck_assert_str_eq(weir_last_error() + n - 3, "..."); /* cut, and says so */
  weir_clear_error();
  ck_assert_str_eq(weir_last_error(), "");
}
END_TEST

START_TEST(open_specs) {
  weir_backend *b = NULL;
  ck_assert_int_eq(weir_backend_open("cpu:2", &b), WEIR_OK);
  weir_device_info info = WEIR_DEVICE_INFO_INIT;
  ck_assert_int_eq(weir_backend_device_info(b, &info), WEIR_OK);
  ck_assert_str_eq(info.spec, "cpu:2");
  ck_assert_int_eq(info.dl_device_type, 1);
  ck_assert_int_eq(info.dl_device_id, 2);
  ck_assert_str_eq(weir_backend_id(b), "cpu");
  ck_assert_int_eq(weir_backend_format(b), WEIR_FORMAT_HOST);
  weir_backend_close(b);
  /* An index past the devices is a wrong spec, not a missing backend. */
  ck_assert_int_eq(weir_backend_open("cpu:8", &b), WEIR_ERR_OUT_OF_RANGE);
  ck_assert_ptr_nonnull(strstr(weir_last_error(), "has no device 8"));
  ck_assert_ptr_nonnull(strstr(weir_last_error(), "largest valid index is 7"));
  ck_assert_ptr_nonnull(strstr(weir_last_error(), "Fix: "));
  ck_assert_int_eq(weir_backend_open("plugin:/nonexistent/libx.so", &b), WEIR_ERR_INVALID_ARGUMENT);
  ck_assert_ptr_nonnull(strstr(weir_last_error(), "/nonexistent/libx.so"));
  ck_assert_int_eq(weir_backend_open("plugin:", &b), WEIR_ERR_INVALID_ARGUMENT);
  ck_assert_ptr_null(b);
}
END_TEST

START_TEST(auto_prefers_a_real_gpu) {
  weir_backend *b = NULL;
  ck_assert_int_eq(weir_backend_open("auto", &b), WEIR_OK);
  weir_device_info info = WEIR_DEVICE_INFO_INIT;
  weir_backend_device_info(b, &info);
  /* auto never picks a CPU implementation of Vulkan (lavapipe): either a GPU
   * backend with a non-CPU device, or the cpu backend itself. */
  if (strcmp(weir_backend_id(b), "cpu") != 0) ck_assert_str_ne(info.kind, "cpu");
  weir_backend_close(b);
}
END_TEST

START_TEST(reports_list_every_backend) {
  weir_backend_report reports[16];
  size_t count = 0;
  ck_assert_int_eq(weir_backend_reports(reports, 16, &count), WEIR_OK);
  ck_assert_uint_ge(count, 3); /* cpu, vulkan, cuda: built or not */
  int seen_cpu = 0, seen_vulkan = 0, seen_cuda = 0;
  for (size_t i = 0; i < count && i < 16; ++i) {
    if (strcmp(reports[i].id, "cpu") == 0) {
      seen_cpu = 1;
      ck_assert_int_eq(reports[i].available, 1);
      ck_assert_uint_eq(reports[i].device_count, 8);
    }
    if (strcmp(reports[i].id, "vulkan") == 0) seen_vulkan = 1;
    if (strcmp(reports[i].id, "cuda") == 0) seen_cuda = 1;
    if (!reports[i].available) ck_assert_msg(reports[i].reason[0] != '\0', "%s unavailable without a reason", reports[i].id);
  }
  ck_assert(seen_cpu && seen_vulkan && seen_cuda);
  size_t just_count = 0;
  ck_assert_int_eq(weir_backend_reports(NULL, 0, &just_count), WEIR_OK);
  ck_assert_uint_eq(just_count, count);
}
END_TEST

START_TEST(program_validation) {
  weir_program p = *weir_builtin_program("fill_u32");
  ck_assert_int_eq(weir_program_validate(&p), WEIR_OK);
  p.push_constant_bytes = 6;
  ck_assert_int_eq(weir_program_validate(&p), WEIR_ERR_INVALID_ARGUMENT);
  p = *weir_builtin_program("fill_u32");
  p.workgroup_size[1] = 0;
  ck_assert_int_eq(weir_program_validate(&p), WEIR_ERR_INVALID_ARGUMENT);
  p = *weir_builtin_program("fill_u32");
  p.default_grid_binding = 3;
  ck_assert_int_eq(weir_program_validate(&p), WEIR_ERR_INVALID_ARGUMENT);
  p = *weir_builtin_program("fill_u32");
  p.binding_count = WEIR_MAX_BINDINGS + 1;
  ck_assert_int_eq(weir_program_validate(&p), WEIR_ERR_INVALID_ARGUMENT);
  ck_assert_int_eq(weir_program_validate(NULL), WEIR_ERR_INVALID_ARGUMENT);
  ck_assert_ptr_null(weir_builtin_program("no_such_program"));
  for (size_t i = 0; i < weir_builtin_program_count(); ++i) {
    const weir_program *q = weir_builtin_program_at(i);
    ck_assert_msg(weir_program_validate(q) == WEIR_OK, "%s: %s", q->name, weir_last_error());
    ck_assert_msg(weir_program_has_format(q, WEIR_FORMAT_HOST), "%s has no host code", q->name);
    ck_assert_ptr_eq(weir_builtin_program(q->name), q);
  }
}
END_TEST

START_TEST(stats_and_reset) {
  weir_backend *b = NULL;
  ck_assert_int_eq(weir_backend_open("cpu", &b), WEIR_OK);
  weir_buffer x, y;
  ck_assert_int_eq(weir_allocate(b, 1000, &x), WEIR_OK);
  ck_assert_int_eq(weir_allocate(b, 24, &y), WEIR_OK);
  weir_backend_stats s;
  weir_backend_get_stats(b, &s);
  ck_assert_uint_eq(s.resident_bytes, 1024);
  ck_assert_uint_eq(s.live_buffers, 2);
  ck_assert_int_eq(weir_free(b, x), WEIR_OK);
  weir_backend_reset_stats(b);
  weir_backend_get_stats(b, &s);
  ck_assert_uint_eq(s.resident_bytes, 24);
  ck_assert_uint_eq(s.peak_resident_bytes, 24);
  ck_assert_uint_eq(s.host_syncs, 0);
  ck_assert_uint_eq(s.live_buffers, 1);
  weir_backend_close(b); /* frees y */
}
END_TEST

/* A backend without upload_at_many: the engine default accepts offset 0 only. */
static int minimal_bytes[64];
static weir_status min_probe(uint32_t *n) { *n = 1; return WEIR_OK; }
static weir_status min_describe_device(uint32_t i, weir_device_info *o) {
  (void)i;
  memset(o, 0, sizeof *o);
  strcpy(o->backend_id, "minimal");
  return WEIR_OK;
}
static weir_status min_open(uint32_t i, const weir_open_options *o, void **self) {
  (void)i; (void)o;
  *self = minimal_bytes;
  return WEIR_OK;
}
static void min_destroy(void *self) { (void)self; }
static weir_status min_describe(void *self, weir_device_info *o) { (void)self; return min_describe_device(0, o); }
static weir_status min_allocate(void *self, uint64_t n, void **out) { (void)self; *out = calloc(1, n); return WEIR_OK; }
static void min_release(void *self, void *b) { (void)self; free(b); }
static weir_status min_upload(void *self, const weir_native_upload *u, size_t n) {
  (void)self;
  for (size_t i = 0; i < n; ++i) memcpy((char *)u[i].buffer + u[i].offset, u[i].data, u[i].bytes);
  return WEIR_OK;
}
static weir_status min_download(void *self, const weir_native_range *r, size_t n) {
  (void)self;
  for (size_t i = 0; i < n; ++i) memcpy(r[i].output, (char *)r[i].buffer + r[i].offset, r[i].bytes);
  return WEIR_OK;
}
static weir_status min_dispatch(void *self, const weir_native_step *s) { (void)self; (void)s; return WEIR_OK; }
static const weir_backend_ops min_ops = {.destroy = min_destroy, .describe = min_describe,
    .allocate = min_allocate, .release = min_release, .upload_many = min_upload,
    .download_ranges_into = min_download, .dispatch = min_dispatch};
static const weir_provider min_provider = {WEIR_BACKEND_ABI_VERSION, "minimal", "1", WEIR_FORMAT_HOST, 1,
    min_probe, min_describe_device, min_open, &min_ops};

START_TEST(engine_defaults_for_optional_ops) {
  weir_backend *b = NULL;
  ck_assert_int_eq(weir_backend_open_provider(&min_provider, 0, NULL, &b), WEIR_OK);
  weir_buffer x, y;
  ck_assert_int_eq(weir_allocate(b, 16, &x), WEIR_OK);
  ck_assert_int_eq(weir_allocate(b, 16, &y), WEIR_OK);
  const char data[16] = "0123456789abcdef";
  weir_upload_item at0 = {x, 0, data, 16}, at4 = {x, 4, data, 4};
  ck_assert_int_eq(weir_upload_at_many(b, &at0, 1), WEIR_OK);
  ck_assert_int_eq(weir_upload_at_many(b, &at4, 1), WEIR_ERR_UNSUPPORTED);
  ck_assert_ptr_nonnull(strstr(weir_last_error(), "upload_at_many"));
  /* copy staged through the host; sequences as dispatch loops. */
  ck_assert_int_eq(weir_copy(b, y, 0, x, 8, 8), WEIR_OK);
  char out[8];
  ck_assert_int_eq(weir_download_range_into(b, y, 0, 8, out), WEIR_OK);
  ck_assert(memcmp(out, "89abcdef", 8) == 0);
  weir_program p = *weir_builtin_program("noop");
  weir_step step = {&p, NULL, 0, {0, 0, 0}, NULL, 0};
  uint64_t ns[2];
  weir_step two[2] = {step, step};
  ck_assert_int_eq(weir_dispatch_sequence_timed(b, two, 2, ns), WEIR_OK);
  weir_range r = {y, 0, 4};
  void *o[1] = {out};
  ck_assert_int_eq(weir_dispatch_repeated_sequence_read_ranges_into(b, &step, 1, &step, 1, 5, &r, 1, o, 1), WEIR_OK);
  weir_backend_stats s;
  weir_backend_get_stats(b, &s);
  ck_assert_uint_eq(s.dispatches, 2 + 6);
  weir_backend_close(b);
}
END_TEST

/* Step k+1 reads what other threads wrote in step k (the pool's barrier),
 * with more threads than this machine has cores. */
START_TEST(pool_orders_steps_across_threads) {
  weir_backend *b = NULL;
  weir_open_options options = {.struct_size = sizeof(weir_open_options), .threads = 4};
  ck_assert_int_eq(weir_backend_open_ex("cpu", &options, &b), WEIR_OK);
  enum { N = 8192 * 64 };
  weir_buffer x, y;
  ck_assert_int_eq(weir_allocate(b, N * 4ull, &x), WEIR_OK);
  ck_assert_int_eq(weir_allocate(b, N * 4ull, &y), WEIR_OK);
  const weir_program *fill = weir_builtin_program("fill_u32"), *copy = weir_builtin_program("copy_u32"),
                     *add = weir_builtin_program("add_u32");
  weir_fill_u32_push f = {1, N};
  weir_copy_u32_push c = {N};
  weir_add_u32_push one = {1, N};
  weir_buffer yx[2] = {y, x}, xy[2] = {x, y};
  weir_step steps[41];
  steps[0] = (weir_step){fill, &x, 1, {0, 0, 0}, &f, sizeof f};
  for (int i = 0; i < 20; ++i) {
    steps[1 + 2 * i] = (weir_step){copy, i % 2 ? xy : yx, 2, {0, 0, 0}, &c, sizeof c};
    steps[2 + 2 * i] = (weir_step){add, i % 2 ? &x : &y, 1, {0, 0, 0}, &one, sizeof one};
  }
  uint32_t *host = malloc(N * 4ull);
  weir_range r = {x, 0, N * 4ull};
  void *out[1] = {host};
  ck_assert_int_eq(weir_dispatch_sequence_read_ranges_into(b, steps, 41, &r, 1, out, 1), WEIR_OK);
  for (uint32_t i = 0; i < N; ++i)
    if (host[i] != 21) ck_abort_msg("element %u is %u, expected 21", i, host[i]);
  free(host);
  weir_backend_close(b);
}
END_TEST

/* A forced per-binding limit is reported as the device's and enforced on
 * every step; a malformed WEIR_MAX_BINDING_BYTES is an error, never ignored. */
START_TEST(forced_binding_limit) {
  weir_backend *b = NULL;
  weir_open_options options = {.struct_size = sizeof(weir_open_options), .max_binding_bytes = 1024};
  ck_assert_int_eq(weir_backend_open_ex("cpu", &options, &b), WEIR_OK);
  weir_device_info info = WEIR_DEVICE_INFO_INIT;
  ck_assert_int_eq(weir_backend_device_info(b, &info), WEIR_OK);
  ck_assert_uint_eq(info.max_binding_bytes, 1024);
  weir_buffer small, big;
  ck_assert_int_eq(weir_allocate(b, 1024, &small), WEIR_OK);
  ck_assert_int_eq(weir_allocate(b, 1028, &big), WEIR_OK);
  const weir_program *fill = weir_builtin_program("fill_u32");
  weir_fill_u32_push f = {7, 256};
  ck_assert_int_eq(weir_dispatch(b, fill, &small, 1, (weir_grid){0, 0, 0}, &f, sizeof f), WEIR_OK);
  ck_assert_int_eq(weir_dispatch(b, fill, &big, 1, (weir_grid){0, 0, 0}, &f, sizeof f),
                   WEIR_ERR_UNSUPPORTED);
  const char *msg = weir_last_error();
  ck_assert_msg(strstr(msg, "1028-byte buffer") && strstr(msg, "at most 1024 bytes") &&
                    strstr(msg, "Fix:"),
                "%s", msg);
  weir_backend_close(b);

  setenv("WEIR_MAX_BINDING_BYTES", "4096", 1);
  ck_assert_int_eq(weir_backend_open("cpu", &b), WEIR_OK);
  ck_assert_int_eq(weir_backend_device_info(b, &info), WEIR_OK);
  ck_assert_uint_eq(info.max_binding_bytes, 4096);
  weir_backend_close(b);
  setenv("WEIR_MAX_BINDING_BYTES", "4k", 1);
  ck_assert_int_eq(weir_backend_open("cpu", &b), WEIR_ERR_INVALID_ARGUMENT);
  ck_assert_msg(strstr(weir_last_error(), "WEIR_MAX_BINDING_BYTES is '4k'"), "%s", weir_last_error());
  unsetenv("WEIR_MAX_BINDING_BYTES");
}
END_TEST

/* Refusals found in review: none may run, crash or allocate wildly. */
START_TEST(hostile_arguments) {
  weir_backend *b = NULL;
  ck_assert_int_eq(weir_backend_open("cpu", &b), WEIR_OK);
  weir_buffer x;
  ck_assert_int_eq(weir_allocate(b, 256, &x), WEIR_OK);
  weir_program p = *weir_builtin_program("fill_u32");
  weir_fill_u32_push push = {7, 64};
  /* A grid whose invocation count overflows 64 bits. */
  ck_assert_int_eq(weir_dispatch(b, &p, &x, 1, (weir_grid){1u << 31, 1u << 31, 4}, &push, sizeof push),
                   WEIR_ERR_OUT_OF_RANGE);
  /* A binding count far past the limit: refused before any allocation. */
  weir_buffer many[2] = {x, x};
  ck_assert_int_eq(weir_dispatch(b, &p, many, UINT32_MAX, (weir_grid){1, 1, 1}, &push, sizeof push),
                   WEIR_ERR_INVALID_ARGUMENT);
  /* A program struct edited after its first dispatch is validated again. */
  ck_assert_int_eq(weir_dispatch(b, &p, &x, 1, (weir_grid){0, 0, 0}, &push, sizeof push), WEIR_OK);
  p.default_grid_elem_bytes = 0;
  ck_assert_int_eq(weir_dispatch(b, &p, &x, 1, (weir_grid){0, 0, 0}, &push, sizeof push),
                   WEIR_ERR_INVALID_ARGUMENT);
  p = *weir_builtin_program("fill_u32");
  p.host = NULL; /* now a program without this backend's format */
  ck_assert_int_eq(weir_dispatch(b, &p, &x, 1, (weir_grid){1, 1, 1}, &push, sizeof push),
                   WEIR_ERR_UNSUPPORTED);
  /* Counts larger than any array. */
  weir_range r = {x, 0, 4};
  void *outs[1] = {&push};
  ck_assert_int_ne(weir_download_ranges_into(b, &r, (size_t)1 << 61, outs, (size_t)1 << 61), WEIR_OK);
  /* NULL outputs and a misaligned import. */
  ck_assert_int_eq(weir_buffer_size(b, x, NULL), WEIR_ERR_INVALID_ARGUMENT);
  ck_assert_int_eq(weir_backend_register_program(NULL, &p), WEIR_ERR_INVALID_ARGUMENT);
  static uint32_t words[8];
  weir_buffer imported;
  ck_assert_int_eq(weir_buffer_import_external(b, (char *)words + 1, 8, &imported),
                   WEIR_ERR_INVALID_ARGUMENT);
  weir_backend_stats s;
  weir_backend_get_stats(NULL, &s);
  ck_assert_uint_eq(s.host_syncs, 0);
  weir_backend_close(b);
}
END_TEST

/* A reference (a chunk, a DLPack export) keeps the instance alive after the
 * user's close. */
START_TEST(retained_backend_outlives_close) {
  weir_backend *b = NULL;
  ck_assert_int_eq(weir_backend_open("cpu", &b), WEIR_OK);
  weir_buffer x;
  ck_assert_int_eq(weir_allocate(b, 16, &x), WEIR_OK);
  weir_backend_retain(b);
  weir_backend_close(b); /* the user's reference */
  uint32_t v = 5, back = 0;
  ck_assert_int_eq(weir_upload(b, x, &v, 4), WEIR_OK);
  ck_assert_int_eq(weir_download_range_into(b, x, 0, 4, &back), WEIR_OK);
  ck_assert_uint_eq(back, 5);
  weir_backend_close(b); /* the last one: frees x and the instance */
}
END_TEST

int main(void) {
  Suite *s = suite_create("core");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, status_messages);
  tcase_add_test(tc, open_specs);
  tcase_add_test(tc, auto_prefers_a_real_gpu);
  tcase_add_test(tc, reports_list_every_backend);
  tcase_add_test(tc, program_validation);
  tcase_add_test(tc, stats_and_reset);
  tcase_add_test(tc, engine_defaults_for_optional_ops);
  tcase_add_test(tc, pool_orders_steps_across_threads);
  tcase_add_test(tc, hostile_arguments);
  tcase_add_test(tc, forced_binding_limit);
  tcase_add_test(tc, retained_backend_outlives_close);
  suite_add_tcase(s, tc);
  SRunner *r = srunner_create(s);
  return weir_check_run(r);
}
