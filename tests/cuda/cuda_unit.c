/* Host-side unit tests of the CUDA backend: what can be checked without a
 * GPU. Error messages, the graph cache and its keys, the unroll rule, driver
 * loading failures and the real provider's unavailable path. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "backends/cuda/cuda_backend.h"
#include "weir/backend.h"
#include "tests/check_run.h"

extern const weir_provider weir_provider_cuda;

/* ---- error formatting ---------------------------------------------------- */

static CUresult fake_name(CUresult r, const char **out) {
  *out = r == CUDA_ERROR_OUT_OF_MEMORY ? "CUDA_ERROR_OUT_OF_MEMORY" : NULL;
  return *out ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}
static CUresult fake_string(CUresult r, const char **out) {
  *out = r == CUDA_ERROR_OUT_OF_MEMORY ? "out of memory" : NULL;
  return *out ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

START_TEST(error_message_names_call_values_driver_text_and_fix) {
  weir_cuda_driver d;
  memset(&d, 0, sizeof d);
  d.pcuGetErrorName = fake_name;
  d.pcuGetErrorString = fake_string;
  weir_status s = weir_cuda_fail(&d, CUDA_ERROR_OUT_OF_MEMORY, "cuMemAlloc(%d bytes) on device %d",
                                 4096, 0);
  ck_assert_int_eq(s, WEIR_ERR_OUT_OF_MEMORY);
  const char *m = weir_last_error();
  ck_assert_ptr_nonnull(strstr(m, "cuda: cuMemAlloc(4096 bytes) on device 0: "
                                  "CUDA_ERROR_OUT_OF_MEMORY (2): out of memory. Fix: "));
  ck_assert_ptr_nonnull(strstr(m, weir_cuda_fix_hint(CUDA_ERROR_OUT_OF_MEMORY)));
}
END_TEST

START_TEST(error_message_without_driver_names_falls_back) {
  weir_status s = weir_cuda_fail(NULL, CUDA_ERROR_ILLEGAL_ADDRESS, "cuStreamSynchronize");
  ck_assert_int_eq(s, WEIR_ERR_DEVICE);
  ck_assert_ptr_nonnull(strstr(weir_last_error(), "cuStreamSynchronize: unknown CUresult (700)"));
  ck_assert_ptr_nonnull(strstr(weir_last_error(), "compute-sanitizer"));
  weir_cuda_driver d;
  memset(&d, 0, sizeof d);
  d.pcuGetErrorName = fake_name; /* refuses every code but OUT_OF_MEMORY */
  d.pcuGetErrorString = fake_string;
  s = weir_cuda_fail(&d, CUDA_ERROR_NO_BINARY_FOR_GPU, "cuModuleLoadDataEx");
  ck_assert_int_eq(s, WEIR_ERR_UNSUPPORTED);
  ck_assert_ptr_nonnull(strstr(weir_last_error(), "unknown CUresult (209): no description"));
  ck_assert_ptr_nonnull(strstr(weir_last_error(), "sm_90"));
}
END_TEST

START_TEST(status_classes) {
  ck_assert_int_eq(weir_cuda_status_of(CUDA_ERROR_OUT_OF_MEMORY), WEIR_ERR_OUT_OF_MEMORY);
  ck_assert_int_eq(weir_cuda_status_of(CUDA_ERROR_NO_DEVICE), WEIR_ERR_UNAVAILABLE);
  ck_assert_int_eq(weir_cuda_status_of(CUDA_ERROR_STUB_LIBRARY), WEIR_ERR_UNAVAILABLE);
  ck_assert_int_eq(weir_cuda_status_of(CUDA_ERROR_UNSUPPORTED_PTX_VERSION), WEIR_ERR_UNSUPPORTED);
  ck_assert_int_eq(weir_cuda_status_of(CUDA_ERROR_LAUNCH_FAILED), WEIR_ERR_DEVICE);
  ck_assert_int_eq(weir_cuda_status_of(CUDA_ERROR_INVALID_VALUE), WEIR_ERR_DEVICE);
  /* Every hint is a sentence to act on, never empty. */
  ck_assert_uint_gt(strlen(weir_cuda_fix_hint((CUresult)12345)), 20);
}
END_TEST

/* ---- graph cache ------------------------------------------------------------ */

static int g_destroyed[64];
static void count_destroy(void *ctx, void *graph, void *exec) {
  (void)ctx;
  ck_assert_ptr_eq(exec, (char *)graph + 1);
  g_destroyed[(uintptr_t)graph % 64]++;
}

START_TEST(graph_cache_finds_equal_keys_and_evicts_lru) {
  memset(g_destroyed, 0, sizeof g_destroyed);
  weir_cuda_graph_cache c;
  weir_cuda_graph_cache_init(&c, count_destroy, NULL);
  unsigned char key[8];
  for (int i = 0; i < WEIR_CUDA_GRAPH_CACHE_SLOTS; ++i) {
    memset(key, i, sizeof key);
    ck_assert_ptr_null(weir_cuda_graph_cache_find(&c, key, sizeof key));
    char *g = (char *)(uintptr_t)(i * 2 + 2);
    ck_assert_int_eq(weir_cuda_graph_cache_insert(&c, key, sizeof key, g, g + 1, NULL), WEIR_OK);
  }
  memset(key, 0, sizeof key); /* touch key 0: key 1 becomes the oldest */
  weir_cuda_graph_entry *e = weir_cuda_graph_cache_find(&c, key, sizeof key);
  ck_assert_ptr_nonnull(e);
  ck_assert_ptr_eq(e->graph, (void *)2);
  ck_assert_ptr_null(weir_cuda_graph_cache_find(&c, key, sizeof key - 1)); /* length counts */
  memset(key, 99, sizeof key);
  char *g = (char *)(uintptr_t)40;
  ck_assert_int_eq(weir_cuda_graph_cache_insert(&c, key, sizeof key, g, g + 1, NULL), WEIR_OK);
  ck_assert_int_eq(g_destroyed[4], 1); /* key 1's graph (4) was evicted */
  ck_assert_uint_eq(c.evictions, 1);
  memset(key, 1, sizeof key);
  ck_assert_ptr_null(weir_cuda_graph_cache_find(&c, key, sizeof key));
  memset(key, 99, sizeof key);
  ck_assert_ptr_eq(weir_cuda_graph_cache_find(&c, key, sizeof key)->graph, (void *)40);
  weir_cuda_graph_cache_free(&c);
  int total = 0;
  for (int i = 0; i < 64; ++i) total += g_destroyed[i];
  ck_assert_int_eq(total, WEIR_CUDA_GRAPH_CACHE_SLOTS + 1);
}
END_TEST

START_TEST(graph_unroll_rule) {
  ck_assert_uint_eq(weir_cuda_graph_unroll(0), 1);
  ck_assert_uint_eq(weir_cuda_graph_unroll(1), WEIR_CUDA_GRAPH_MAX_UNROLL);
  ck_assert_uint_eq(weir_cuda_graph_unroll(100), WEIR_CUDA_GRAPH_MAX_NODES / 100);
  ck_assert_uint_eq(weir_cuda_graph_unroll(WEIR_CUDA_GRAPH_MAX_NODES), 1);
  ck_assert_uint_eq(weir_cuda_graph_unroll(100000), 1);
  for (size_t n = 1; n < 2000; n += 7)
    ck_assert_uint_le(weir_cuda_graph_unroll(n) * n,
                      n > WEIR_CUDA_GRAPH_MAX_NODES ? n : WEIR_CUDA_GRAPH_MAX_NODES);
}
END_TEST

/* Two steps over fake buffers and fake prepared kernels. */
typedef struct key_fixture {
  weir_cuda_buffer buf[2];
  void *bindings[2];
  uint64_t sizes[2];
  weir_cuda_program_state state;
  weir_program program;
  uint32_t push[2];
  weir_native_step steps[2];
} key_fixture;

static void key_fixture_init(key_fixture *f) {
  memset(f, 0, sizeof *f);
  f->buf[0] = (weir_cuda_buffer){0x7f0000001000ull, 4096, 0};
  f->buf[1] = (weir_cuda_buffer){0x7f0000002000ull, 256, 0};
  f->bindings[0] = &f->buf[0];
  f->bindings[1] = &f->buf[1];
  f->sizes[0] = 4096;
  f->sizes[1] = 256;
  f->state.function = (CUfunction)(uintptr_t)0x1234;
  f->program = (weir_program){.name = "p", .binding_count = 2, .push_constant_bytes = 8,
                              .workgroup_size = {64, 1, 1}};
  f->push[0] = 7;
  f->push[1] = 1024;
  for (int i = 0; i < 2; ++i)
    f->steps[i] = (weir_native_step){&f->program, &f->state, f->bindings, f->sizes, 2,
                                     {16, 1, 1}, f->push, 8, NULL};
}

/* Key of the fixture's steps, copied out of the cache's scratch buffer. */
static size_t key_of(weir_cuda_graph_cache *c, key_fixture *f, uint32_t unroll, unsigned char *out,
                     size_t cap) {
  unsigned char *k = NULL;
  size_t n = 0;
  ck_assert_int_eq(weir_cuda_graph_key(c, f->steps, 2, unroll, &k, &n), WEIR_OK);
  ck_assert_uint_le(n, cap);
  memcpy(out, k, n);
  return n;
}

START_TEST(graph_key_covers_everything_a_launch_depends_on) {
  weir_cuda_graph_cache c;
  weir_cuda_graph_cache_init(&c, NULL, NULL);
  key_fixture f;
  key_fixture_init(&f);
  static unsigned char base[4096], other[4096];
  size_t n = key_of(&c, &f, 8, base, sizeof base);
  ck_assert_uint_eq(n, 16 + 2 * (32 + sizeof(weir_cuda_args)));
  ck_assert_uint_eq(key_of(&c, &f, 8, other, sizeof other), n);
  ck_assert_mem_eq(base, other, n); /* deterministic, padding included */

  f.push[1] = 1025; /* push constants */
  key_of(&c, &f, 8, other, sizeof other);
  ck_assert_int_ne(memcmp(base, other, n), 0);
  key_fixture_init(&f);
  f.buf[1].ptr += 256; /* a binding's device address */
  key_of(&c, &f, 8, other, sizeof other);
  ck_assert_int_ne(memcmp(base, other, n), 0);
  key_fixture_init(&f);
  f.sizes[0] = 2048; /* a binding's size */
  key_of(&c, &f, 8, other, sizeof other);
  ck_assert_int_ne(memcmp(base, other, n), 0);
  key_fixture_init(&f);
  f.steps[1].grid.y = 2; /* a grid */
  key_of(&c, &f, 8, other, sizeof other);
  ck_assert_int_ne(memcmp(base, other, n), 0);
  key_fixture_init(&f);
  f.state.function = (CUfunction)(uintptr_t)0x5678; /* the kernel */
  key_of(&c, &f, 8, other, sizeof other);
  ck_assert_int_ne(memcmp(base, other, n), 0);
  key_fixture_init(&f);
  key_of(&c, &f, 4, other, sizeof other); /* the unroll factor */
  ck_assert_int_ne(memcmp(base, other, n), 0);
  weir_cuda_graph_cache_free(&c);
}
END_TEST

START_TEST(args_block_carries_step_exactly) {
  key_fixture f;
  key_fixture_init(&f);
  weir_cuda_args a;
  memset(&a, 0xff, sizeof a);
  weir_cuda_args_fill(&f.steps[0], &a);
  ck_assert_uint_eq(a.binding[0], 0x7f0000001000ull);
  ck_assert_uint_eq(a.binding[1], 0x7f0000002000ull);
  ck_assert_uint_eq(a.binding[2], 0);
  ck_assert_uint_eq(a.binding_bytes[0], 4096);
  ck_assert_uint_eq(a.binding_bytes[1], 256);
  ck_assert_uint_eq(a.binding_bytes[15], 0);
  ck_assert_uint_eq(a.push[0], 7);
  ck_assert_uint_eq(a.push[1], 1024);
  ck_assert_uint_eq(a.push[2], 0);
  ck_assert_uint_eq(a.binding_count, 2);
  ck_assert_uint_eq(a.push_constant_bytes, 8);
  ck_assert_uint_eq(a.grid[0], 16);
  ck_assert_uint_eq(a.grid[2], 1);
  ck_assert_uint_eq(a.workgroup_size[0], 64);
  ck_assert_uint_eq(a.workgroup_size[1], 1);
}
END_TEST

/* ---- driver loading ------------------------------------------------------- */

START_TEST(missing_library_is_unavailable_with_dlopen_reason) {
  weir_cuda_driver d;
  char why[640];
  ck_assert_int_eq(weir_cuda_driver_load("/nonexistent/libcuda.so.1", &d, why, sizeof why),
                   WEIR_ERR_UNAVAILABLE);
  ck_assert_ptr_nonnull(strstr(why, "dlopen(\"/nonexistent/libcuda.so.1\") failed"));
  ck_assert_ptr_nonnull(strstr(why, "Fix: "));
}
END_TEST

START_TEST(library_without_get_proc_address_is_too_old) {
  weir_cuda_driver d;
  char why[640];
  ck_assert_int_eq(weir_cuda_driver_load("libc.so.6", &d, why, sizeof why), WEIR_ERR_UNAVAILABLE);
  ck_assert_ptr_nonnull(strstr(why, "cuGetProcAddress_v2"));
  ck_assert_ptr_nonnull(strstr(why, "Fix: "));
}
END_TEST

START_TEST(cuinit_failure_carries_driver_error) {
  setenv("WEIR_MOCK_CUDA_INIT", "100", 1); /* CUDA_ERROR_NO_DEVICE */
  weir_cuda_driver d;
  char why[640];
  ck_assert_int_eq(weir_cuda_driver_load(WEIR_MOCK_CUDA_PATH, &d, why, sizeof why),
                   WEIR_ERR_UNAVAILABLE);
  ck_assert_ptr_nonnull(strstr(why, "cuInit(0)"));
  ck_assert_ptr_nonnull(
      strstr(why, "CUDA_ERROR_NO_DEVICE (100): no CUDA-capable device is detected (mock)"));
  ck_assert_ptr_nonnull(strstr(why, "Fix: no NVIDIA GPU is visible"));
  unsetenv("WEIR_MOCK_CUDA_INIT");
  ck_assert_int_eq(weir_cuda_driver_load(WEIR_MOCK_CUDA_PATH, &d, why, sizeof why), WEIR_OK);
  ck_assert_int_eq(d.driver_version, 13000);
  ck_assert_ptr_nonnull(d.pcuLaunchKernel);
  ck_assert_ptr_nonnull(d.pcuGraphInstantiateWithFlags);
}
END_TEST

/* CUDA cannot be used in a child forked after cuInit: the guard says so
 * instead of letting driver calls fail obscurely. */
START_TEST(forked_child_is_refused_with_reason) {
  pid_t parent = getpid();
  ck_assert_int_eq(weir_cuda_check_process(parent), WEIR_OK);
  fflush(NULL);
  pid_t child = fork();
  ck_assert_int_ge(child, 0);
  if (child == 0) {
    int ok = weir_cuda_check_process(parent) == WEIR_ERR_UNAVAILABLE &&
             strstr(weir_last_error(), "forked from pid") && strstr(weir_last_error(), "Fix: ");
    _exit(ok ? 0 : 1);
  }
  int status = 0;
  ck_assert_int_eq(waitpid(child, &status, 0), child);
  ck_assert(WIFEXITED(status));
  ck_assert_int_eq(WEXITSTATUS(status), 0);
}
END_TEST

/* The provider as built, on this machine: unavailable with the dlopen/cuInit
 * reason where there is no driver (or no GPU), else it counts devices. */
START_TEST(provider_probe_here) {
  unsetenv("WEIR_CUDA_DRIVER");
  uint32_t count = 0;
  weir_status s = weir_provider_cuda.probe(&count);
  if (s == WEIR_OK) {
    ck_assert_uint_ge(count, 1);
    weir_device_info info = WEIR_DEVICE_INFO_INIT;
    ck_assert_int_eq(weir_provider_cuda.describe_device(0, &info), WEIR_OK);
    ck_assert_str_eq(info.backend_id, "cuda");
    ck_assert_uint_gt(info.memory_bytes, 0);
  } else {
    ck_assert_int_eq(s, WEIR_ERR_UNAVAILABLE);
    const char *m = weir_last_error();
    ck_assert_msg(strstr(m, "libcuda.so.1") || strstr(m, "cuInit") || strstr(m, "no CUDA device"),
                  "unexpected reason: %s", m);
    ck_assert_ptr_nonnull(strstr(m, "Fix: "));
    /* Asking again gives the same reason, and opening fails the same way. */
    void *self = NULL;
    ck_assert_int_eq(weir_provider_cuda.open(WEIR_DEVICE_DEFAULT, NULL, &self), WEIR_ERR_UNAVAILABLE);
    ck_assert_ptr_null(self);
  }
  ck_assert_str_eq(weir_provider_cuda.id, "cuda");
  ck_assert_int_eq(weir_provider_cuda.format, WEIR_FORMAT_CUDA);
  ck_assert_int_eq(weir_provider_cuda.dl_device_type, 2);
}
END_TEST

int main(void) {
  Suite *s = suite_create("cuda_unit");
  TCase *tc = tcase_create("unit");
  tcase_add_test(tc, error_message_names_call_values_driver_text_and_fix);
  tcase_add_test(tc, error_message_without_driver_names_falls_back);
  tcase_add_test(tc, status_classes);
  tcase_add_test(tc, graph_cache_finds_equal_keys_and_evicts_lru);
  tcase_add_test(tc, graph_unroll_rule);
  tcase_add_test(tc, graph_key_covers_everything_a_launch_depends_on);
  tcase_add_test(tc, args_block_carries_step_exactly);
  tcase_add_test(tc, missing_library_is_unavailable_with_dlopen_reason);
  tcase_add_test(tc, library_without_get_proc_address_is_too_old);
  tcase_add_test(tc, cuinit_failure_carries_driver_error);
  tcase_add_test(tc, provider_probe_here);
  tcase_add_test(tc, forked_child_is_refused_with_reason);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  return weir_check_run(sr);
}
