/* weir_fft on the cpu backend against a reference DFT in long double:
 * 1-D and N-D, c2c / r2c / c2r, every norm, f32 and f64, batches and strided
 * inner batches; the same bits for any thread count; an FFT inside a
 * sequence and a repeated sequence (one host sync); refusals. */
#include <check.h>
#include <complex.h>
#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "weir/backend.h"
#include "weir/builtins.h"
#include "weir/fft.h"
#include "weir/weir.h"
#include "tests/check_run.h"

typedef long double complex lcx;

/* Relative L2 error bound per precision: 2 * eps * (log2(N) + 2), eps the
 * unit roundoff (float 1.2e-7, double 2.3e-16 with margin); the worst
 * measured error over this suite is below a fifth of it (docs/fft.md). */
static double bound(weir_fft_precision p, uint64_t total) {
  double lg = total > 2 ? log2((double)total) : 1.0;
  return (p == WEIR_FFT_F32 ? 1.2e-7 : 2.3e-16) * 2.0 * (lg + 2.0);
}

static uint64_t rng_next(uint64_t *s) {
  *s ^= *s << 13;
  *s ^= *s >> 7;
  *s ^= *s << 17;
  return *s;
}
static double rnd(uint64_t *s) { return (double)(rng_next(s) >> 11) / 9007199254740992.0 * 2.0 - 1.0; }

/* Naive DFT along `axis` of a contiguous complex array with extents ext. */
static void ref_axis(lcx *x, const uint64_t *ext, uint32_t rank, uint32_t axis, int inverse) {
  uint64_t before = 1, after = 1, n = ext[axis];
  for (uint32_t d = 0; d < axis; ++d) before *= ext[d];
  for (uint32_t d = axis + 1; d < rank; ++d) after *= ext[d];
  lcx *line = malloc(n * sizeof *line), *res = malloc(n * sizeof *res), *tw = malloc(n * sizeof *tw);
  long double pi = 3.141592653589793238462643383279502884L;
  for (uint64_t j = 0; j < n; ++j) {
    long double ph = (inverse ? 2 : -2) * pi * (long double)j / (long double)n;
    tw[j] = cosl(ph) + I * sinl(ph);
  }
  for (uint64_t b = 0; b < before; ++b)
    for (uint64_t a = 0; a < after; ++a) {
      for (uint64_t j = 0; j < n; ++j) line[j] = x[(b * n + j) * after + a];
      for (uint64_t k = 0; k < n; ++k) {
        lcx acc = 0;
        for (uint64_t j = 0, jk = 0; j < n; ++j, jk = (jk + k) % n) acc += line[j] * tw[jk];
        res[k] = acc;
      }
      for (uint64_t j = 0; j < n; ++j) x[(b * n + j) * after + a] = res[j];
    }
  free(line);
  free(res);
  free(tw);
}

typedef struct fcase {
  weir_fft_kind kind;
  weir_fft_direction dir;
  weir_fft_precision prec;
  weir_fft_norm norm;
  uint32_t rank;
  uint64_t shape[3];
  uint64_t batch, inner;
} fcase;

static double get(const void *p, weir_fft_precision prec, uint64_t k) {
  return prec == WEIR_FFT_F32 ? ((const float *)p)[k] : ((const double *)p)[k];
}

/* Reference for element (o, i): returns the output element as complex values
 * (real outputs in the real part), in the output layout's order. */
static void reference(const fcase *c, const void *in, uint64_t o, uint64_t i, lcx *out,
                      uint64_t *out_count) {
  uint64_t ext[3], half[3], total = 1, htotal = 1;
  for (uint32_t d = 0; d < c->rank; ++d) ext[d] = half[d] = c->shape[d];
  if (c->kind != WEIR_FFT_C2C) half[c->rank - 1] = c->shape[c->rank - 1] / 2 + 1;
  for (uint32_t d = 0; d < c->rank; ++d) {
    total *= ext[d];
    htotal *= half[d];
  }
  int inverse = c->kind == WEIR_FFT_C2R || (c->kind == WEIR_FFT_C2C && c->dir == WEIR_FFT_INVERSE);
  long double scale = c->norm == WEIR_FFT_NORM_ORTHO ? 1.0L / sqrtl((long double)total)
                      : (c->norm == WEIR_FFT_NORM_BACKWARD) == inverse ? 1.0L / (long double)total
                                                                       : 1.0L;
  uint64_t inner = c->inner;
  lcx *x = calloc(total, sizeof *x);
  if (c->kind == WEIR_FFT_C2C) {
    for (uint64_t k = 0; k < total; ++k) {
      uint64_t at = (o * total + k) * inner + i;
      x[k] = get(in, c->prec, 2 * at) + I * get(in, c->prec, 2 * at + 1);
    }
    for (uint32_t a = c->rank; a-- > 0;) ref_axis(x, ext, c->rank, a, inverse);
    for (uint64_t k = 0; k < total; ++k) out[k] = x[k] * scale;
    *out_count = total;
  } else if (c->kind == WEIR_FFT_R2C) {
    for (uint64_t k = 0; k < total; ++k) x[k] = get(in, c->prec, (o * total + k) * inner + i);
    for (uint32_t a = c->rank; a-- > 0;) ref_axis(x, ext, c->rank, a, 0);
    /* crop the last axis to the half spectrum */
    uint64_t n = ext[c->rank - 1], h = half[c->rank - 1];
    for (uint64_t k = 0; k < htotal; ++k) out[k] = x[(k / h) * n + k % h] * scale;
    *out_count = htotal;
  } else {
    lcx *hx = calloc(htotal, sizeof *hx);
    for (uint64_t k = 0; k < htotal; ++k) {
      uint64_t at = (o * htotal + k) * inner + i;
      hx[k] = get(in, c->prec, 2 * at) + I * get(in, c->prec, 2 * at + 1);
    }
    for (uint32_t a = 0; a + 1 < c->rank; ++a) ref_axis(hx, half, c->rank, a, 1);
    uint64_t n = ext[c->rank - 1], h = half[c->rank - 1];
    for (uint64_t l = 0; l < total / n; ++l) { /* Hermitian fill, as numpy's irfft */
      lcx *row = x + l * n, *hr = hx + l * h;
      for (uint64_t j = 0; j < h; ++j) row[j] = hr[j];
      row[0] = creall(row[0]);
      if (n % 2 == 0) row[n / 2] = creall(row[n / 2]);
      for (uint64_t j = 1; n - j >= h; ++j) row[n - j] = conjl(row[j]);
    }
    uint64_t one[1] = {n};
    for (uint64_t l = 0; l < total / n; ++l) ref_axis(x + l * n, one, 1, 0, 1);
    for (uint64_t k = 0; k < total; ++k) out[k] = creall(x[k]) * scale;
    *out_count = total;
    free(hx);
  }
  free(x);
}

static void set(void *p, weir_fft_precision prec, uint64_t k, double v) {
  if (prec == WEIR_FFT_F32) ((float *)p)[k] = (float)v;
  else ((double *)p)[k] = v;
}

/* VkFFT's C2R reads the imaginary parts of the DC and Nyquist columns, which
 * numpy (and weir's cpu code) ignore after the other axes' inverse
 * transforms: the two agree on Hermitian-consistent input (what an R2C
 * produces), which this makes of a random C2R input (inner == 1):
 * x[m, j] = (x[m, j] + conj(x[-m, j])) / 2 for j = 0 and n/2. */
static void hermitian_columns(const fcase *c, void *in) {
  uint64_t n = c->shape[c->rank - 1], h = n / 2 + 1, rows = 1;
  for (uint32_t a = 0; a + 1 < c->rank; ++a) rows *= c->shape[a];
  uint64_t batch = c->batch ? c->batch : 1;
  for (uint64_t o = 0; o < batch; ++o)
    for (uint64_t j = 0; j < h; j += n % 2 == 0 && n > 1 ? n / 2 : h)
      for (uint64_t m = 0; m < rows; ++m) {
        uint64_t neg = 0, rest = m, mul = 1; /* -m, axis by axis (last fastest) */
        for (uint32_t a = c->rank - 1; a-- > 0;) {
          uint64_t e = c->shape[a], k = rest % e;
          neg += ((e - k) % e) * mul;
          mul *= e;
          rest /= e;
        }
        if (neg < m) continue;
        uint64_t p = 2 * ((o * rows + m) * h + j), q = 2 * ((o * rows + neg) * h + j);
        double re = (get(in, c->prec, p) + get(in, c->prec, q)) / 2;
        double im = (get(in, c->prec, p + 1) - get(in, c->prec, q + 1)) / 2;
        set(in, c->prec, p, re);
        set(in, c->prec, p + 1, im);
        set(in, c->prec, q, re);
        set(in, c->prec, q + 1, -im);
      }
}

/* Runs case c on backend b, checks it against the reference, and returns
 * the output bytes (caller frees) when out_copy is given. */
static void run_case_with(weir_backend *b, const fcase *c, void **out_copy) {
  weir_fft_desc d = {0};
  d.rank = c->rank;
  for (uint32_t a = 0; a < c->rank; ++a) d.shape[a] = c->shape[a];
  d.batch = c->batch;
  d.inner = c->inner;
  d.kind = c->kind;
  d.direction = c->dir;
  d.precision = c->prec;
  d.norm = c->norm;
  weir_fft *f = NULL;
  weir_status st = weir_fft_plan(b, &d, &f);
  ck_assert_msg(st == WEIR_OK, "plan: %s", weir_last_error());
  uint64_t ib, ob;
  ck_assert_int_eq(weir_fft_sizes(f, &ib, &ob), WEIR_OK);
  size_t real = c->prec == WEIR_FFT_F32 ? 4 : 8;
  uint64_t seed = 0x9E3779B97F4A7C15ull ^ (ib * 31 + c->kind);
  void *in = malloc(ib), *out = malloc(ob);
  for (uint64_t k = 0; k < ib / real; ++k) {
    if (real == 4) ((float *)in)[k] = (float)rnd(&seed);
    else ((double *)in)[k] = rnd(&seed);
  }
  /* Every backend must give numpy's result on any C2R input: vulkan runs
   * C2R as a C2C of the Hermitian fill (vk_fft.c). hermitian_columns stays
   * for a backend whose library needs consistent input (none today). */
  (void)hermitian_columns;
  weir_buffer bi, bo;
  ck_assert_int_eq(weir_allocate(b, ib, &bi), WEIR_OK);
  ck_assert_int_eq(weir_allocate(b, ob, &bo), WEIR_OK);
  ck_assert_int_eq(weir_upload(b, bi, in, ib), WEIR_OK);
  st = weir_fft_execute(f, bi, bo);
  ck_assert_msg(st == WEIR_OK, "execute: %s", weir_last_error());
  ck_assert_int_eq(weir_download_into(b, bo, out, ob), WEIR_OK);
  uint64_t total = 1;
  for (uint32_t a = 0; a < c->rank; ++a) total *= c->shape[a];
  lcx *ref = malloc(total * sizeof *ref);
  long double err = 0, norm = 0;
  int real_out = c->kind == WEIR_FFT_C2R;
  uint64_t batch = c->batch ? c->batch : 1, inner = c->inner ? c->inner : 1;
  fcase cc = *c;
  cc.inner = inner;
  for (uint64_t o = 0; o < batch; ++o)
    for (uint64_t i = 0; i < inner; ++i) {
      uint64_t count = 0;
      reference(&cc, in, o, i, ref, &count);
      for (uint64_t k = 0; k < count; ++k) {
        uint64_t at = (o * count + k) * inner + i;
        lcx got = real_out ? get(out, c->prec, at)
                           : get(out, c->prec, 2 * at) + I * get(out, c->prec, 2 * at + 1);
        long double diff = cabsl(got - ref[k]), mag = cabsl(ref[k]);
        err += diff * diff;
        norm += mag * mag;
      }
    }
  double rel = norm > 0 ? (double)sqrtl(err / norm) : (double)sqrtl(err);
  if (getenv("WEIR_FFT_TEST_VERBOSE"))
    fprintf(stderr, "kind %d prec %d rank %u n0 %llu: rel %.3g (bound %.3g)\n", c->kind, c->prec,
            c->rank, (unsigned long long)c->shape[0], rel, bound(c->prec, total));
  ck_assert_msg(rel <= bound(c->prec, total),
                "kind %d dir %d prec %d norm %d rank %u shape %llu x %llu x %llu batch %llu inner "
                "%llu: relative error %.3g > %.3g",
                c->kind, c->dir, c->prec, c->norm, c->rank, (unsigned long long)c->shape[0],
                (unsigned long long)(c->rank > 1 ? c->shape[1] : 1),
                (unsigned long long)(c->rank > 2 ? c->shape[2] : 1), (unsigned long long)batch,
                (unsigned long long)inner, rel, bound(c->prec, total));
  free(ref);
  free(in);
  if (out_copy) *out_copy = out;
  else free(out);
  weir_fft_destroy(f);
  weir_free(b, bi);
  weir_free(b, bo);
}

/* Case c on a backend of its own (`spec` with `threads`). */
static void run_case_on(const char *spec, const fcase *c, uint32_t threads, void **out_copy) {
  weir_open_options opt = WEIR_OPEN_OPTIONS_INIT;
  opt.threads = threads;
  weir_backend *b = NULL;
  ck_assert_msg(weir_backend_open_ex(spec, &opt, &b) == WEIR_OK, "open %s: %s", spec,
                weir_last_error());
  run_case_with(b, c, out_copy);
  weir_backend_close(b);
}

/* The backend the shared cases run on: "cpu", or the spec given on the
 * command line (CTest fft-vulkan runs this program with "vulkan"). */
static const char *g_spec = "cpu";

/* Whether loop iteration `i` (of 4) plans size index s on this backend.
 * Elsewhere than cpu plans compile kernels (slow on lavapipe): half the
 * sizes per iteration, every size in two (precision, direction) pairs (all
 * of them: 3 times as long, the large Bluestein lengths); with
 * WEIR_TEST_QUICK (the sanitizer build, tests/fft/CMakeLists.txt) a quarter,
 * every size in one pair: the same planning and execution paths, half the
 * kernels. */
static int size_in_iteration(size_t s, int i) {
  if (strcmp(g_spec, "cpu") == 0) return 1;
  if (getenv("WEIR_TEST_QUICK")) return s % 4 == (size_t)i % 4;
  return s % 2 == (size_t)i % 2;
}

/* Elsewhere than cpu (where `threads` matters), every case of a test runs on
 * one backend, opened by the test's fixture: plans made one after another
 * on one instance, as an application makes them (and glslang's built-ins
 * parsed once per test, not once per case: vk_fft.c). */
static weir_backend *g_shared;
static void open_shared(void) {
  ck_assert_msg(weir_backend_open(g_spec, &g_shared) == WEIR_OK, "open %s: %s", g_spec, weir_last_error());
}
static void close_shared(void) {
  weir_backend_close(g_shared);
  g_shared = NULL;
}

static void run_case(const fcase *c, uint32_t threads, void **out_copy) {
  if (g_shared) run_case_with(g_shared, c, out_copy);
  else run_case_on(g_spec, c, threads, out_copy);
}

static const uint64_t sizes_1d[] = {1, 2, 3, 4, 5, 7, 8, 9, 12, 15, 16, 17, 31, 32, 60,
                                    64, 67, 97, 100, 125, 128, 194, 210, 243, 256, 509, 1000,
                                    1024, 2018};

START_TEST(c2c_1d) {
  weir_fft_precision prec = (weir_fft_precision)(_i % 2);
  weir_fft_direction dir = (weir_fft_direction)((_i / 2) % 2);
  for (size_t s = 0; s < sizeof sizes_1d / sizeof *sizes_1d; ++s) {
    if (!size_in_iteration(s, _i)) continue;
    fcase c = {WEIR_FFT_C2C, dir, prec, (weir_fft_norm)(s % 3), 1, {sizes_1d[s]}, 3, 1};
    run_case(&c, 2, NULL);
  }
}
END_TEST

START_TEST(real_1d) {
  weir_fft_precision prec = (weir_fft_precision)(_i % 2);
  weir_fft_kind kind = _i / 2 ? WEIR_FFT_C2R : WEIR_FFT_R2C;
  for (size_t s = 0; s < sizeof sizes_1d / sizeof *sizes_1d; ++s) {
    if (!size_in_iteration(s, _i)) continue;
    fcase c = {kind, WEIR_FFT_FORWARD, prec, (weir_fft_norm)(s % 3), 1, {sizes_1d[s]}, 2, 1};
    run_case(&c, 2, NULL);
  }
}
END_TEST

START_TEST(n_dimensional) {
  static const struct {
    uint32_t rank;
    uint64_t shape[3];
  } shapes[] = {{2, {3, 5}}, {2, {8, 8}}, {2, {6, 10}}, {3, {4, 6, 8}}, {3, {5, 3, 7}},
                {2, {1, 9}}, {2, {67, 4}}, {2, {3, 194}}};
  for (size_t s = 0; s < sizeof shapes / sizeof *shapes; ++s)
    for (int kind = 0; kind < 3; ++kind)
      for (int prec = 0; prec < 2; ++prec) {
        /* quick (see size_in_iteration): one precision per shape and kind */
        if (strcmp(g_spec, "cpu") != 0 && getenv("WEIR_TEST_QUICK") &&
            prec != (int)((s + (size_t)kind) % 2))
          continue;
        fcase c = {(weir_fft_kind)kind, (weir_fft_direction)(s % 2), (weir_fft_precision)prec,
                   (weir_fft_norm)((s + (size_t)kind) % 3), shapes[s].rank,
                   {shapes[s].shape[0], shapes[s].shape[1], shapes[s].shape[2]}, 2, 1};
        run_case(&c, 3, NULL);
      }
}
END_TEST

/* The inner (strided) batch: numpy's fft over a middle axis. */
START_TEST(inner_batch) {
  for (int kind = 0; kind < 3; ++kind)
    for (int prec = 0; prec < 2; ++prec) {
      fcase c = {(weir_fft_kind)kind, WEIR_FFT_INVERSE, (weir_fft_precision)prec,
                 WEIR_FFT_NORM_ORTHO, 1, {12}, 3, 5};
      run_case(&c, 2, NULL);
      fcase c2 = {(weir_fft_kind)kind, WEIR_FFT_FORWARD, (weir_fft_precision)prec,
                  WEIR_FFT_NORM_BACKWARD, 2, {6, 7}, 2, 3};
      run_case(&c2, 2, NULL);
    }
}
END_TEST

/* Large batches over 64 chunks: the same bits on 1, 2, 5 and 16 threads. */
START_TEST(same_bits_any_threads) {
  static const fcase cases[] = {
      {WEIR_FFT_C2C, WEIR_FFT_FORWARD, WEIR_FFT_F32, WEIR_FFT_NORM_BACKWARD, 1, {240}, 700, 1},
      {WEIR_FFT_R2C, WEIR_FFT_FORWARD, WEIR_FFT_F64, WEIR_FFT_NORM_ORTHO, 1, {97}, 900, 1},
      {WEIR_FFT_C2R, WEIR_FFT_INVERSE, WEIR_FFT_F32, WEIR_FFT_NORM_FORWARD, 2, {16, 30}, 100, 1},
  };
  static const uint32_t threads[] = {1, 2, 5, 16};
  for (size_t k = 0; k < sizeof cases / sizeof *cases; ++k) {
    void *first = NULL;
    uint64_t total = cases[k].shape[0] * (cases[k].rank > 1 ? cases[k].shape[1] : 1);
    uint64_t h = cases[k].kind == WEIR_FFT_C2R ? total : cases[k].kind == WEIR_FFT_R2C
                                                             ? total / cases[k].shape[0] *
                                                                   (cases[k].shape[0] / 2 + 1) * 2
                                                             : total * 2;
    size_t bytes = (size_t)(h * cases[k].batch * (cases[k].prec == WEIR_FFT_F32 ? 4 : 8));
    for (size_t t = 0; t < sizeof threads / sizeof *threads; ++t) {
      void *out = NULL;
      run_case(&cases[k], threads[t], &out);
      if (!first) first = out;
      else {
        ck_assert_msg(memcmp(first, out, bytes) == 0, "case %zu: %u threads differ from 1",
                      k, threads[t]);
        free(out);
      }
    }
    free(first);
  }
}
END_TEST

/* FFT + other steps + a ranged read-back: one host synchronization, also
 * repeated (forward, inverse, forward, ...: no allocation per iteration). */
START_TEST(in_sequences) {
  weir_backend *b = NULL;
  ck_assert_int_eq(weir_backend_open(g_spec, &b), WEIR_OK);
  enum { N = 256, BATCH = 64 };
  weir_fft_desc d = {.rank = 1, .shape = {N}, .batch = BATCH, .kind = WEIR_FFT_C2C,
                     .direction = WEIR_FFT_FORWARD, .precision = WEIR_FFT_F32};
  weir_fft *fwd = NULL, *inv = NULL;
  ck_assert_int_eq(weir_fft_plan(b, &d, &fwd), WEIR_OK);
  d.direction = WEIR_FFT_INVERSE;
  ck_assert_int_eq(weir_fft_plan(b, &d, &inv), WEIR_OK);
  size_t count = 2u * N * BATCH;
  float *x = malloc(count * 4), *y = malloc(count * 4);
  uint64_t seed = 7;
  for (size_t k = 0; k < count; ++k) x[k] = (float)rnd(&seed);
  weir_buffer a, spec, copy;
  ck_assert_int_eq(weir_allocate(b, count * 4, &a), WEIR_OK);
  ck_assert_int_eq(weir_allocate(b, count * 4, &spec), WEIR_OK);
  ck_assert_int_eq(weir_allocate(b, count * 4, &copy), WEIR_OK);
  ck_assert_int_eq(weir_upload(b, a, x, count * 4), WEIR_OK);

  weir_fft_step_data d1, d2;
  weir_step steps[3];
  ck_assert_int_eq(weir_fft_step(fwd, a, spec, &d1, &steps[0]), WEIR_OK);
  ck_assert_int_eq(weir_fft_step(inv, spec, a, &d2, &steps[1]), WEIR_OK);
  weir_buffer cb[2] = {copy, a};
  weir_copy_u32_push push = {(uint32_t)count};
  steps[2] = (weir_step){weir_builtin_program("copy_u32"), cb, 2, {0, 0, 0}, &push, sizeof push};
  float tail[8];
  weir_range r = {copy, (count - 8) * 4, sizeof tail};
  void *outs[1] = {tail};
  weir_backend_reset_stats(b);
  ck_assert_int_eq(weir_dispatch_sequence_read_ranges_into(b, steps, 3, &r, 1, outs, 1), WEIR_OK);
  weir_backend_stats s;
  weir_backend_get_stats(b, &s);
  ck_assert_uint_eq(s.host_syncs, 1);
  ck_assert_uint_eq(s.dispatches, 3);
  for (int k = 0; k < 8; ++k) ck_assert_float_eq_tol(tail[k], x[count - 8 + k], 1e-5);

  /* forward + inverse, 10 times in one repeated sequence: x comes back */
  weir_backend_reset_stats(b);
  ck_assert_int_eq(weir_dispatch_repeated_sequence_read_ranges_into(b, NULL, 0, steps, 2, 10, NULL,
                                                                   0, NULL, 0),
                   WEIR_OK);
  weir_backend_get_stats(b, &s);
  ck_assert_uint_eq(s.host_syncs, 1);
  ck_assert_uint_eq(s.dispatches, 20);
  ck_assert_uint_eq(s.uploads, 0);
  ck_assert_int_eq(weir_download_into(b, a, y, count * 4), WEIR_OK);
  for (size_t k = 0; k < count; ++k) ck_assert_float_eq_tol(y[k], x[k], 1e-4);

  /* c2c in place */
  ck_assert_int_eq(weir_fft_execute(fwd, a, a), WEIR_OK);
  ck_assert_int_eq(weir_fft_execute(inv, a, a), WEIR_OK);
  ck_assert_int_eq(weir_download_into(b, a, y, count * 4), WEIR_OK);
  for (size_t k = 0; k < count; ++k) ck_assert_float_eq_tol(y[k], x[k], 1e-4);

  /* a step whose plan was destroyed is refused, not run */
  weir_fft_destroy(fwd);
  ck_assert_int_eq(weir_dispatch_sequence_read_ranges_into(b, steps, 1, NULL, 0, NULL, 0),
                   WEIR_ERR_FOREIGN_RESOURCE);
  weir_fft_destroy(inv);
  free(x);
  free(y);
  weir_free(b, a);
  weir_free(b, spec);
  weir_free(b, copy);
  weir_backend_close(b);
}
END_TEST

#ifdef WEIR_TEMPLATE_PLUGIN
/* A plugin that runs host programs runs the same FFT code: the same bits. */
START_TEST(host_plugin_same_bits) {
  static const fcase cases[] = {
      {WEIR_FFT_C2C, WEIR_FFT_INVERSE, WEIR_FFT_F64, WEIR_FFT_NORM_ORTHO, 2, {12, 97}, 3, 1},
      {WEIR_FFT_R2C, WEIR_FFT_FORWARD, WEIR_FFT_F32, WEIR_FFT_NORM_BACKWARD, 1, {256}, 300, 1},
  };
  size_t bytes[] = {12 * 97 * 3 * 16, 129 * 300 * 8};
  for (size_t k = 0; k < 2; ++k) {
    void *cpu = NULL, *plugin = NULL;
    run_case(&cases[k], 4, &cpu);
    run_case_on("plugin:" WEIR_TEMPLATE_PLUGIN, &cases[k], 0, &plugin);
    ck_assert_msg(memcmp(cpu, plugin, bytes[k]) == 0, "case %zu: plugin differs from cpu", k);
    free(cpu);
    free(plugin);
  }
}
END_TEST
#endif

START_TEST(refusals) {
  weir_backend *b = NULL;
  ck_assert_int_eq(weir_backend_open("cpu", &b), WEIR_OK);
  weir_fft *f = NULL;
  weir_fft_desc d = {.rank = 0};
  ck_assert_int_eq(weir_fft_plan(b, &d, &f), WEIR_ERR_INVALID_ARGUMENT);
  ck_assert_ptr_nonnull(strstr(weir_last_error(), "Fix:"));
  d = (weir_fft_desc){.rank = 1, .shape = {0}};
  ck_assert_int_eq(weir_fft_plan(b, &d, &f), WEIR_ERR_INVALID_ARGUMENT);
  d = (weir_fft_desc){.rank = 1, .shape = {16}, .kind = (weir_fft_kind)9};
  ck_assert_int_eq(weir_fft_plan(b, &d, &f), WEIR_ERR_INVALID_ARGUMENT);
  d = (weir_fft_desc){.rank = 2, .shape = {1ull << 31, 1ull << 31}, .batch = 1ull << 40};
  ck_assert_int_eq(weir_fft_plan(b, &d, &f), WEIR_ERR_INVALID_ARGUMENT);
  d = (weir_fft_desc){.rank = 1, .shape = {16}, .kind = WEIR_FFT_R2C};
  ck_assert_int_eq(weir_fft_plan(b, &d, &f), WEIR_OK);
  uint64_t ib, ob;
  ck_assert_int_eq(weir_fft_sizes(f, &ib, &ob), WEIR_OK);
  ck_assert_uint_eq(ib, 16 * 4);
  ck_assert_uint_eq(ob, 9 * 8);
  weir_buffer small, big;
  ck_assert_int_eq(weir_allocate(b, 8, &small), WEIR_OK);
  ck_assert_int_eq(weir_allocate(b, 128, &big), WEIR_OK);
  weir_fft_step_data data;
  weir_step step;
  ck_assert_int_eq(weir_fft_step(f, small, big, &data, &step), WEIR_ERR_OUT_OF_RANGE);
  ck_assert_ptr_nonnull(strstr(weir_last_error(), "64"));
  ck_assert_int_eq(weir_fft_step(f, big, big, &data, &step), WEIR_ERR_INVALID_ARGUMENT);
  ck_assert_int_eq(weir_fft_execute(f, WEIR_NULL_BUFFER, big), WEIR_ERR_FOREIGN_RESOURCE);
  weir_fft_destroy(f);
  weir_fft_destroy(NULL);
  weir_free(b, small);
  weir_free(b, big);
  weir_backend_close(b);
}
END_TEST

/* ---- the backend operation (weir_backend_ops.fft_plan / fft_destroy) ----
 * A fake SPIR-V-format backend: without the operation it has no FFT (and
 * says so, naming itself); with it, the engine hands it the normalised desc
 * and its plan's steps arrive as native steps with .fft set, in order with
 * the other steps. Its "transform" copies the input to the output. */
typedef struct fake_plan {
  weir_fft_desc desc;
  uint32_t magic;
} fake_plan;
static int fake_ffts_run, fake_plans_live;
static char fake_memory[8];
static weir_status fake_probe(uint32_t *n) { *n = 1; return WEIR_OK; }
static weir_status fake_describe_device(uint32_t i, weir_device_info *o) {
  (void)i;
  memset(o, 0, sizeof *o);
  strcpy(o->backend_id, "fakevk");
  return WEIR_OK;
}
static weir_status fake_open(uint32_t i, const weir_open_options *o, void **self) {
  (void)i; (void)o;
  *self = fake_memory;
  return WEIR_OK;
}
static void fake_destroy(void *self) { (void)self; }
static weir_status fake_describe(void *self, weir_device_info *o) { (void)self; return fake_describe_device(0, o); }
static weir_status fake_allocate(void *self, uint64_t n, void **out) { (void)self; *out = calloc(1, n); return WEIR_OK; }
static void fake_release(void *self, void *b) { (void)self; free(b); }
static weir_status fake_upload(void *self, const weir_native_upload *u, size_t n) {
  (void)self;
  for (size_t i = 0; i < n; ++i) memcpy((char *)u[i].buffer + u[i].offset, u[i].data, u[i].bytes);
  return WEIR_OK;
}
static weir_status fake_download(void *self, const weir_native_range *r, size_t n) {
  (void)self;
  for (size_t i = 0; i < n; ++i) memcpy(r[i].output, (char *)r[i].buffer + r[i].offset, r[i].bytes);
  return WEIR_OK;
}
static weir_status fake_dispatch(void *self, const weir_native_step *s) {
  (void)self;
  if (!s->fft) return WEIR_OK;
  const fake_plan *p = s->fft;
  ck_assert_uint_eq(p->magic, 0xfff7u);
  ck_assert_uint_eq(s->binding_count, 2);
  ck_assert_str_eq(s->program->name, "weir_fft");
  ck_assert_ptr_null(s->program_state);
  uint64_t n = s->binding_bytes[0] < s->binding_bytes[1] ? s->binding_bytes[0] : s->binding_bytes[1];
  memmove(s->bindings[1], s->bindings[0], n);
  fake_ffts_run++;
  return WEIR_OK;
}
static weir_status fake_fft_plan(void *self, const weir_fft_desc *d, void **out) {
  (void)self;
  if (d->shape[0] == 13)
    return weir_fail(WEIR_ERR_UNSUPPORTED, "fakevk: shape[0] = 13 is not supported. Fix: use 12.");
  fake_plan *p = calloc(1, sizeof *p);
  p->desc = *d;
  p->magic = 0xfff7u;
  fake_plans_live++;
  *out = p;
  return WEIR_OK;
}
static void fake_fft_destroy(void *self, void *plan) {
  (void)self;
  fake_plans_live--;
  free(plan);
}
#define FAKE_OPS .destroy = fake_destroy, .describe = fake_describe, .allocate = fake_allocate, \
                 .release = fake_release, .upload_many = fake_upload,                            \
                 .download_ranges_into = fake_download, .dispatch = fake_dispatch
static const weir_backend_ops fake_ops_plain = {FAKE_OPS};
static const weir_backend_ops fake_ops_fft = {FAKE_OPS, .fft_plan = fake_fft_plan,
                                              .fft_destroy = fake_fft_destroy};
static const weir_provider fake_plain = {WEIR_BACKEND_ABI_VERSION, "fakevk", "1", WEIR_FORMAT_SPIRV,
                                         7, fake_probe, fake_describe_device, fake_open,
                                         &fake_ops_plain};
static const weir_provider fake_fft = {WEIR_BACKEND_ABI_VERSION, "fakevk", "1", WEIR_FORMAT_SPIRV,
                                       7, fake_probe, fake_describe_device, fake_open,
                                       &fake_ops_fft};

START_TEST(backend_op) {
  weir_fft *f = NULL;
  weir_backend *b = NULL;
  /* no operation, no host programs: refused, naming the backend */
  ck_assert_int_eq(weir_backend_open_provider(&fake_plain, 0, NULL, &b), WEIR_OK);
  weir_fft_desc d = {.rank = 1, .shape = {16}};
  ck_assert_int_eq(weir_fft_plan(b, &d, &f), WEIR_ERR_UNSUPPORTED);
  ck_assert_ptr_nonnull(strstr(weir_last_error(), "'fakevk'"));
  ck_assert_ptr_nonnull(strstr(weir_last_error(), "Fix:"));
  weir_backend_close(b);
  /* a provider of the plugin ABI before the FFT (2) is refused, as any other number */
  weir_provider old = fake_fft;
  old.abi_version = 2;
  ck_assert_int_eq(weir_backend_open_provider(&old, 0, NULL, &b), WEIR_ERR_UNSUPPORTED);
  char expect[64];
  snprintf(expect, sizeof expect, "found 2, expected %u", WEIR_BACKEND_ABI_VERSION);
  ck_assert_msg(strstr(weir_last_error(), expect), "%s", weir_last_error());
  /* with the operation */
  ck_assert_int_eq(weir_backend_open_provider(&fake_fft, 0, NULL, &b), WEIR_OK);
  d = (weir_fft_desc){.rank = 1, .shape = {13}};
  ck_assert_int_eq(weir_fft_plan(b, &d, &f), WEIR_ERR_UNSUPPORTED);
  ck_assert_ptr_nonnull(strstr(weir_last_error(), "shape[0] = 13"));
  ck_assert_ptr_nonnull(strstr(weir_last_error(), "'fakevk'"));
  ck_assert_int_eq(fake_plans_live, 0);
  d = (weir_fft_desc){.rank = 1, .shape = {4}, .kind = WEIR_FFT_C2C, .precision = WEIR_FFT_F32};
  ck_assert_int_eq(weir_fft_plan(b, &d, &f), WEIR_OK);
  ck_assert_int_eq(fake_plans_live, 1);
  uint64_t ib, ob;
  ck_assert_int_eq(weir_fft_sizes(f, &ib, &ob), WEIR_OK);
  ck_assert_uint_eq(ib, 32);
  ck_assert_uint_eq(ob, 32);
  weir_buffer in, out;
  ck_assert_int_eq(weir_allocate(b, 32, &in), WEIR_OK);
  ck_assert_int_eq(weir_allocate(b, 32, &out), WEIR_OK);
  const char data[32] = "0123456789abcdefghijklmnopqrstu";
  ck_assert_int_eq(weir_upload(b, in, data, 32), WEIR_OK);
  weir_fft_step_data sd;
  weir_step steps[2];
  ck_assert_int_eq(weir_fft_step(f, in, out, &sd, &steps[0]), WEIR_OK);
  weir_program noop = *weir_builtin_program("noop");
  noop.host = NULL; /* give it "SPIR-V" (a magic word) so the fake backend accepts it */
  static const uint32_t fake_spirv[5] = {0x07230203u};
  noop.spirv = fake_spirv;
  noop.spirv_bytes = sizeof fake_spirv;
  ck_assert_msg(weir_program_has_format(&noop, WEIR_FORMAT_SPIRV), "noop: no SPIR-V");
  steps[1] = (weir_step){&noop, NULL, 0, {0, 0, 0}, NULL, 0};
  char back[8];
  weir_range r = {out, 24, 8};
  void *outs[1] = {back};
  ck_assert_msg(weir_dispatch_repeated_sequence_read_ranges_into(b, steps, 2, steps, 1, 3, &r, 1,
                                                                 outs, 1) == WEIR_OK,
                "%s", weir_last_error());
  ck_assert_int_eq(fake_ffts_run, 4);
  ck_assert(memcmp(back, data + 24, 8) == 0);
  /* a step of a destroyed plan is refused by the handle checks */
  weir_fft_destroy(f);
  ck_assert_int_eq(fake_plans_live, 0);
  ck_assert_int_eq(weir_dispatch_sequence_read_ranges_into(b, steps, 1, NULL, 0, NULL, 0),
                   WEIR_ERR_FOREIGN_RESOURCE);
  ck_assert_int_eq(fake_ffts_run, 4);
  /* a hand-made step naming a plain buffer as the plan is refused */
  weir_buffer fake3[3] = {in, in, out};
  weir_step forged = steps[0];
  forged.bindings = fake3;
  ck_assert_int_eq(weir_dispatch_sequence_read_ranges_into(b, &forged, 1, NULL, 0, NULL, 0),
                   WEIR_ERR_INVALID_ARGUMENT);
  ck_assert_ptr_nonnull(strstr(weir_last_error(), "not a plan"));
  weir_free(b, in);
  weir_free(b, out);
  weir_backend_close(b);
}
END_TEST

/* ---- vulkan (VkFFT) ---- */

/* The same plan twice in one sequence on different buffers (staged through
 * the plan's own buffers), real transforms with the scale pass (ortho) in a
 * repeated sequence: results and one host sync per call. */
START_TEST(vulkan_sequences) {
  weir_backend *b = NULL;
  ck_assert_int_eq(weir_backend_open(g_spec, &b), WEIR_OK);
  enum { N = 96, BATCH = 5 };
  weir_fft_desc d = {.rank = 1, .shape = {N}, .batch = BATCH, .kind = WEIR_FFT_R2C,
                     .precision = WEIR_FFT_F64, .norm = WEIR_FFT_NORM_ORTHO};
  weir_fft *r2c = NULL, *c2r = NULL;
  ck_assert_msg(weir_fft_plan(b, &d, &r2c) == WEIR_OK, "%s", weir_last_error());
  d.kind = WEIR_FFT_C2R;
  ck_assert_msg(weir_fft_plan(b, &d, &c2r) == WEIR_OK, "%s", weir_last_error());
  size_t rn = (size_t)N * BATCH, cn = (size_t)(N / 2 + 1) * 2 * BATCH;
  double *x = malloc(rn * 8), *y = malloc(rn * 8), *z = malloc(rn * 8);
  uint64_t seed = 11;
  for (size_t k = 0; k < rn; ++k) {
    x[k] = rnd(&seed);
    y[k] = rnd(&seed);
  }
  weir_buffer bx, by, sx, sy;
  ck_assert_int_eq(weir_allocate(b, rn * 8, &bx), WEIR_OK);
  ck_assert_int_eq(weir_allocate(b, rn * 8, &by), WEIR_OK);
  ck_assert_int_eq(weir_allocate(b, cn * 8, &sx), WEIR_OK);
  ck_assert_int_eq(weir_allocate(b, cn * 8, &sy), WEIR_OK);
  ck_assert_int_eq(weir_upload(b, bx, x, rn * 8), WEIR_OK);
  ck_assert_int_eq(weir_upload(b, by, y, rn * 8), WEIR_OK);
  weir_fft_step_data sd[4];
  weir_step steps[4];
  ck_assert_int_eq(weir_fft_step(r2c, bx, sx, &sd[0], &steps[0]), WEIR_OK);
  ck_assert_int_eq(weir_fft_step(r2c, by, sy, &sd[1], &steps[1]), WEIR_OK);
  ck_assert_int_eq(weir_fft_step(c2r, sx, by, &sd[2], &steps[2]), WEIR_OK); /* y := x */
  ck_assert_int_eq(weir_fft_step(c2r, sy, bx, &sd[3], &steps[3]), WEIR_OK); /* x := y */
  weir_backend_stats s;
  weir_backend_reset_stats(b);
  weir_range r = {bx, 0, rn * 8};
  void *outs[1] = {z};
  ck_assert_msg(weir_dispatch_sequence_read_ranges_into(b, steps, 4, &r, 1, outs, 1) == WEIR_OK,
                "%s", weir_last_error());
  weir_backend_get_stats(b, &s);
  ck_assert_uint_eq(s.host_syncs, 1);
  for (size_t k = 0; k < rn; ++k) ck_assert_double_eq_tol(z[k], y[k], 1e-12);
  /* swapped again 7 times (odd): x and y trade places */
  weir_backend_reset_stats(b);
  ck_assert_int_eq(weir_dispatch_repeated_sequence_read_ranges_into(b, NULL, 0, steps, 4, 7, &r, 1,
                                                                   outs, 1),
                   WEIR_OK);
  weir_backend_get_stats(b, &s);
  ck_assert_uint_eq(s.host_syncs, 1);
  ck_assert_uint_eq(s.dispatches, 28);
  for (size_t k = 0; k < rn; ++k) ck_assert_double_eq_tol(z[k], x[k], 1e-11);
  /* timed: one step each, no error */
  uint64_t ns[4];
  ck_assert_int_eq(weir_dispatch_sequence_timed(b, steps, 4, ns), WEIR_OK);
  weir_fft_destroy(r2c);
  weir_fft_destroy(c2r);
  free(x);
  free(y);
  free(z);
  weir_free(b, bx);
  weir_free(b, by);
  weir_free(b, sx);
  weir_free(b, sy);
  weir_backend_close(b);
}
END_TEST

/* Strided inner batches (C2C) on vulkan; what VkFFT cannot do is refused at
 * plan time naming the parameter. */
START_TEST(vulkan_limits) {
  for (int prec = 0; prec < 2; ++prec) {
    fcase c = {WEIR_FFT_C2C, WEIR_FFT_INVERSE, (weir_fft_precision)prec, WEIR_FFT_NORM_ORTHO, 1,
               {12}, 3, 5};
    run_case(&c, 0, NULL);
    fcase c2 = {WEIR_FFT_C2C, WEIR_FFT_FORWARD, (weir_fft_precision)prec, WEIR_FFT_NORM_BACKWARD,
                2, {6, 7}, 2, 3};
    run_case(&c2, 0, NULL);
  }
  weir_backend *b = NULL;
  ck_assert_int_eq(weir_backend_open(g_spec, &b), WEIR_OK);
  weir_fft *f = NULL;
  weir_fft_desc d = {.rank = 1, .shape = {12}, .inner = 3, .kind = WEIR_FFT_R2C};
  ck_assert_int_eq(weir_fft_plan(b, &d, &f), WEIR_ERR_UNSUPPORTED);
  ck_assert_ptr_nonnull(strstr(weir_last_error(), "inner"));
  ck_assert_ptr_nonnull(strstr(weir_last_error(), "Fix:"));
  d = (weir_fft_desc){.rank = 4, .shape = {2, 3, 4, 5}};
  ck_assert_int_eq(weir_fft_plan(b, &d, &f), WEIR_ERR_UNSUPPORTED);
  ck_assert_ptr_nonnull(strstr(weir_last_error(), "rank 4"));
  d = (weir_fft_desc){.rank = 3, .shape = {2, 3, 4}, .inner = 2};
  ck_assert_int_eq(weir_fft_plan(b, &d, &f), WEIR_ERR_UNSUPPORTED);
  ck_assert_ptr_nonnull(strstr(weir_last_error(), "rank 3"));
  weir_backend_close(b);
}
END_TEST

/* What VkFFT cannot plan itself runs anyway: every axis of length 1 (the
 * identity: a copy or a move), real transforms over a last axis of length 1
 * and the odd lengths VkFFT's R2C/C2R refuse
 * (VKFFT_ERROR_UNSUPPORTED_FFT_LENGTH_R2C), as a C2C between two moves. */
START_TEST(vulkan_odd_and_length_1) {
  static const fcase cases[] = {
      {WEIR_FFT_C2C, WEIR_FFT_FORWARD, WEIR_FFT_F32, WEIR_FFT_NORM_ORTHO, 1, {1}, 4, 1},
      {WEIR_FFT_C2C, WEIR_FFT_INVERSE, WEIR_FFT_F64, WEIR_FFT_NORM_BACKWARD, 2, {1, 1}, 3, 2},
      {WEIR_FFT_R2C, WEIR_FFT_FORWARD, WEIR_FFT_F32, WEIR_FFT_NORM_FORWARD, 1, {1}, 5, 1},
      {WEIR_FFT_C2R, WEIR_FFT_FORWARD, WEIR_FFT_F64, WEIR_FFT_NORM_ORTHO, 1, {1}, 5, 1},
      {WEIR_FFT_R2C, WEIR_FFT_FORWARD, WEIR_FFT_F64, WEIR_FFT_NORM_ORTHO, 2, {6, 1}, 2, 1},
      {WEIR_FFT_C2R, WEIR_FFT_FORWARD, WEIR_FFT_F32, WEIR_FFT_NORM_BACKWARD, 2, {6, 1}, 2, 1},
      {WEIR_FFT_R2C, WEIR_FFT_FORWARD, WEIR_FFT_F32, WEIR_FFT_NORM_BACKWARD, 1, {2049}, 2, 1},
      {WEIR_FFT_C2R, WEIR_FFT_FORWARD, WEIR_FFT_F64, WEIR_FFT_NORM_FORWARD, 1, {2049}, 2, 1},
      {WEIR_FFT_R2C, WEIR_FFT_FORWARD, WEIR_FFT_F64, WEIR_FFT_NORM_ORTHO, 1, {3001}, 1, 1},
      {WEIR_FFT_C2R, WEIR_FFT_FORWARD, WEIR_FFT_F32, WEIR_FFT_NORM_BACKWARD, 1, {3001}, 1, 1},
      {WEIR_FFT_R2C, WEIR_FFT_FORWARD, WEIR_FFT_F64, WEIR_FFT_NORM_BACKWARD, 2, {3, 2049}, 1, 1},
      {WEIR_FFT_C2R, WEIR_FFT_FORWARD, WEIR_FFT_F64, WEIR_FFT_NORM_ORTHO, 3, {2, 3, 2049}, 1, 1},
  };
  for (size_t k = 0; k < sizeof cases / sizeof *cases; ++k) run_case(&cases[k], 0, NULL);
  /* length 1 in place (C2C): nothing to do, the data stays */
  weir_backend *b = NULL;
  ck_assert_int_eq(weir_backend_open(g_spec, &b), WEIR_OK);
  weir_fft_desc d = {.rank = 1, .shape = {1}, .batch = 3, .direction = WEIR_FFT_INVERSE,
                     .norm = WEIR_FFT_NORM_ORTHO};
  weir_fft *f = NULL;
  ck_assert_msg(weir_fft_plan(b, &d, &f) == WEIR_OK, "%s", weir_last_error());
  float x[6] = {1, 2, 3, 4, 5, 6}, y[6] = {0};
  weir_buffer bx;
  ck_assert_int_eq(weir_allocate(b, sizeof x, &bx), WEIR_OK);
  ck_assert_int_eq(weir_upload(b, bx, x, sizeof x), WEIR_OK);
  ck_assert_msg(weir_fft_execute(f, bx, bx) == WEIR_OK, "%s", weir_last_error());
  ck_assert_int_eq(weir_download_into(b, bx, y, sizeof y), WEIR_OK);
  ck_assert_mem_eq(x, y, sizeof x);
  weir_fft_destroy(f);
  weir_free(b, bx);
  weir_backend_close(b);
}
END_TEST

/* Under AddressSanitizer keep Mesa's lavapipe loaded (the refusal test opens
 * vulkan): unloaded, its leftovers are reported as "<unknown module>", which
 * tests/lsan.supp cannot match (tests/residency/main.c does the same). */
static void pin_lavapipe_for_leak_reports(void) {
#if defined(__SANITIZE_ADDRESS__)
  (void)dlopen("libvulkan_lvp.so", RTLD_NOW | RTLD_NODELETE);
#endif
}

int main(int argc, char **argv) {
  pin_lavapipe_for_leak_reports();
  Suite *s = suite_create("fft");
  TCase *t = tcase_create("cpu");
  tcase_set_timeout(t, 300);
  if (argc > 1) { /* a backend with its own FFT library: the shared cases there */
    g_spec = argv[1];
    weir_backend *b = NULL;
    if (weir_backend_open(g_spec, &b) != WEIR_OK) {
      printf("SKIPPED: backend '%s' is not available here: %s\n", g_spec, weir_last_error());
      return 77;
    }
    weir_fft_desc d = {.rank = 1, .shape = {8}};
    weir_fft *f = NULL;
    weir_status st = weir_fft_plan(b, &d, &f);
    weir_fft_destroy(f);
    weir_backend_close(b);
    if (st == WEIR_ERR_UNAVAILABLE) {
      printf("SKIPPED: backend '%s' has no FFT library here: %s\n", g_spec, weir_last_error());
      return 77;
    }
    tcase_set_timeout(t, 900);
    tcase_add_checked_fixture(t, open_shared, close_shared);
    tcase_add_loop_test(t, c2c_1d, 0, 4);
    tcase_add_loop_test(t, real_1d, 0, 4);
    tcase_add_test(t, n_dimensional);
    tcase_add_test(t, in_sequences);
    tcase_add_test(t, vulkan_sequences);
    tcase_add_test(t, vulkan_limits);
    tcase_add_test(t, vulkan_odd_and_length_1);
    suite_add_tcase(s, t);
    return weir_check_run(srunner_create(s));
  }
  tcase_add_loop_test(t, c2c_1d, 0, 4);
  tcase_add_loop_test(t, real_1d, 0, 4);
  tcase_add_test(t, n_dimensional);
  tcase_add_test(t, inner_batch);
  tcase_add_test(t, same_bits_any_threads);
  tcase_add_test(t, in_sequences);
  tcase_add_test(t, refusals);
  tcase_add_test(t, backend_op);
#ifdef WEIR_TEMPLATE_PLUGIN
  tcase_add_test(t, host_plugin_same_bits);
#endif
  suite_add_tcase(s, t);
  return weir_check_run(srunner_create(s));
}
