/* FFT on the CUDA backend with the mock driver: `missing` (WEIR_CUFFT_LIBRARY
 * names no library) must give WEIR_ERR_UNAVAILABLE naming libcufft with a
 * Fix; `mock` (the mock cuFFT, mock_cufft.c) checks the plan parameters,
 * that every exec runs on the stream set on the plan (the backend's), the
 * step inside a sequence behind one sync, and a naive-DFT result. */
#include <check.h>
#include <complex.h>
#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/cuda/mock_cufft.h"
#include "weir/builtins.h"
#include "weir/fft.h"
#include "weir/weir.h"
#include "tests/check_run.h"

static const char *g_mode;

static weir_mock_cufft_log cufft_log(void) {
  void *h = dlopen(getenv("WEIR_CUFFT_LIBRARY"), RTLD_NOW | RTLD_NOLOAD);
  ck_assert_ptr_nonnull(h);
  void *sym = dlsym(h, "weir_mock_cufft_get");
  ck_assert_ptr_nonnull(sym);
  weir_mock_cufft_get_fn get;
  memcpy(&get, &sym, sizeof sym);
  weir_mock_cufft_log l;
  get(&l);
  dlclose(h);
  return l;
}

START_TEST(missing_cufft) {
  weir_backend *b = NULL;
  ck_assert_int_eq(weir_backend_open("cuda", &b), WEIR_OK);
  weir_fft_desc d = {.rank = 1, .shape = {64}};
  weir_fft *f = NULL;
  ck_assert_int_eq(weir_fft_plan(b, &d, &f), WEIR_ERR_UNAVAILABLE);
  const char *e = weir_last_error();
  ck_assert_msg(strstr(e, "libcufft") && strstr(e, "Fix:") && strstr(e, "cuFFT"), "%s", e);
  weir_backend_close(b);
}
END_TEST

START_TEST(mock_cufft) {
  weir_backend *b = NULL;
  ck_assert_int_eq(weir_backend_open("cuda", &b), WEIR_OK);
  /* 2-D R2C, float64, batch 3: the parameters cuFFT gets */
  weir_fft_desc d = {.rank = 2, .shape = {6, 10}, .batch = 3, .kind = WEIR_FFT_R2C,
                     .precision = WEIR_FFT_F64};
  weir_fft *f = NULL;
  ck_assert_msg(weir_fft_plan(b, &d, &f) == WEIR_OK, "%s", weir_last_error());
  weir_mock_cufft_log l = cufft_log();
  ck_assert_int_eq(l.rank, 2);
  ck_assert_int_eq(l.n[0], 6);
  ck_assert_int_eq(l.n[1], 10);
  ck_assert_int_eq(l.inembed[1], 10);
  ck_assert_int_eq(l.onembed[1], 6);
  ck_assert_int_eq(l.type, 0x6a); /* CUFFT_D2Z */
  ck_assert_int_eq(l.batch, 3);
  ck_assert_int_eq(l.idist, 60);
  ck_assert_int_eq(l.odist, 36);
  ck_assert_ptr_nonnull(l.set_stream);
  weir_fft_destroy(f);
  ck_assert_int_eq(cufft_log().live, 0);

  /* 1-D C2C float32 forward, batch 2, in a sequence with a copy + read */
  enum { N = 16, B = 2 };
  d = (weir_fft_desc){.rank = 1, .shape = {N}, .batch = B, .kind = WEIR_FFT_C2C,
                      .precision = WEIR_FFT_F32};
  ck_assert_msg(weir_fft_plan(b, &d, &f) == WEIR_OK, "%s", weir_last_error());
  l = cufft_log();
  ck_assert_int_eq(l.type, 0x29); /* CUFFT_C2C */
  ck_assert_int_eq(l.istride, 1);
  ck_assert_int_eq(l.idist, N);
  float x[2 * N * B], y[2 * N * B];
  for (int k = 0; k < 2 * N * B; ++k) x[k] = (float)((k * 7) % 11) - 5.0f;
  weir_buffer in, out, copy;
  ck_assert_int_eq(weir_allocate(b, sizeof x, &in), WEIR_OK);
  ck_assert_int_eq(weir_allocate(b, sizeof x, &out), WEIR_OK);
  ck_assert_int_eq(weir_allocate(b, sizeof x, &copy), WEIR_OK);
  ck_assert_int_eq(weir_upload(b, in, x, sizeof x), WEIR_OK);
  weir_fft_step_data sd;
  weir_step steps[2];
  ck_assert_int_eq(weir_fft_step(f, in, out, &sd, &steps[0]), WEIR_OK);
  weir_buffer cb[2] = {copy, out};
  weir_copy_u32_push push = {2 * N * B};
  steps[1] = (weir_step){weir_builtin_program("copy_u32"), cb, 2, {0, 0, 0}, &push, sizeof push};
  weir_range r = {copy, 0, sizeof y};
  void *outs[1] = {y};
  weir_backend_reset_stats(b);
  ck_assert_msg(weir_dispatch_sequence_read_ranges_into(b, steps, 2, &r, 1, outs, 1) == WEIR_OK,
                "%s", weir_last_error());
  weir_backend_stats s;
  weir_backend_get_stats(b, &s);
  ck_assert_uint_eq(s.host_syncs, 1);
  l = cufft_log();
  ck_assert_int_eq(l.execs, 1);
  ck_assert_ptr_eq(l.exec_stream, l.set_stream);
  ck_assert_int_eq(l.exec_direction, -1);
  for (int bb = 0; bb < B; ++bb)
    for (int k = 0; k < N; ++k) {
      double complex acc = 0;
      for (int j = 0; j < N; ++j)
        acc += (x[2 * (bb * N + j)] + I * x[2 * (bb * N + j) + 1]) * cexp(-2 * I * M_PI * j * k / N);
      ck_assert_double_eq_tol(y[2 * (bb * N + k)], creal(acc), 1e-3);
      ck_assert_double_eq_tol(y[2 * (bb * N + k) + 1], cimag(acc), 1e-3);
    }
  /* repeated: captured into a graph (exec inside the capture), one sync */
  weir_backend_reset_stats(b);
  ck_assert_int_eq(weir_dispatch_repeated_sequence_read_ranges_into(b, NULL, 0, steps, 1, 100, NULL,
                                                                   0, NULL, 0),
                   WEIR_OK);
  weir_backend_get_stats(b, &s);
  ck_assert_uint_eq(s.host_syncs, 1);
  ck_assert_ptr_eq(cufft_log().exec_stream, l.set_stream);
  weir_fft_destroy(f);
  /* strided inner batch with an outer batch: one exec per outer element */
  d = (weir_fft_desc){.rank = 1, .shape = {8}, .batch = 3, .inner = 4, .kind = WEIR_FFT_C2C,
                      .precision = WEIR_FFT_F64};
  ck_assert_msg(weir_fft_plan(b, &d, &f) == WEIR_OK, "%s", weir_last_error());
  l = cufft_log();
  ck_assert_int_eq(l.istride, 4);
  ck_assert_int_eq(l.idist, 1);
  ck_assert_int_eq(l.batch, 4);
  long long before = l.execs;
  weir_buffer big;
  ck_assert_int_eq(weir_allocate(b, 8 * 3 * 4 * 16, &big), WEIR_OK);
  ck_assert_int_eq(weir_fft_execute(f, big, big), WEIR_OK);
  ck_assert_int_eq(cufft_log().execs, before + 3);
  weir_fft_destroy(f);
  ck_assert_int_eq(cufft_log().live, 0);
  weir_free(b, big);
  weir_free(b, in);
  weir_free(b, out);
  weir_free(b, copy);
  weir_backend_close(b);
}
END_TEST

int main(int argc, char **argv) {
  g_mode = argc > 1 ? argv[1] : "mock";
  Suite *s = suite_create("cuda_fft");
  TCase *t = tcase_create(g_mode);
  if (strcmp(g_mode, "missing") == 0) tcase_add_test(t, missing_cufft);
  else tcase_add_test(t, mock_cufft);
  suite_add_tcase(s, t);
  return weir_check_run(srunner_create(s));
}
