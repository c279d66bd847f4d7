/* A stand-in cuFFT (loaded by the CUDA backend through WEIR_CUFFT_LIBRARY)
 * for tests/cuda/cuda_fft_mock.c: it records the plan parameters and every
 * exec's stream, and computes single-precision C2C transforms with a naive
 * DFT on the mock driver's device memory (host memory there). */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "tests/cuda/mock_cufft.h"

static weir_mock_cufft_log g_log;
static void *g_stream[64]; /* per handle */
static long long g_n[64], g_istride[64], g_idist[64], g_batch[64];

#define EXPORT __attribute__((visibility("default")))

EXPORT void weir_mock_cufft_get(weir_mock_cufft_log *out) { *out = g_log; }

EXPORT int cufftCreate(int *plan) {
  if (g_log.live >= 63) return 2;
  *plan = ++g_log.created;
  g_log.live++;
  return 0;
}
EXPORT int cufftDestroy(int plan) {
  (void)plan;
  g_log.live--;
  return 0;
}
EXPORT int cufftSetStream(int plan, void *stream) {
  g_stream[plan & 63] = stream;
  g_log.set_stream = stream;
  return 0;
}
EXPORT int cufftMakePlanMany64(int plan, int rank, long long *n, long long *inembed,
                               long long istride, long long idist, long long *onembed,
                               long long ostride, long long odist, int type, long long batch,
                               size_t *work) {
  g_log.rank = rank;
  for (int a = 0; a < rank && a < 8; ++a) {
    g_log.n[a] = n[a];
    g_log.inembed[a] = inembed ? inembed[a] : 0;
    g_log.onembed[a] = onembed ? onembed[a] : 0;
  }
  g_log.istride = istride;
  g_log.idist = idist;
  g_log.ostride = ostride;
  g_log.odist = odist;
  g_log.type = type;
  g_log.batch = batch;
  if (work) *work = 0;
  g_n[plan & 63] = rank == 1 ? n[0] : 0;
  g_istride[plan & 63] = istride;
  g_idist[plan & 63] = idist;
  g_batch[plan & 63] = batch;
  return 0;
}
static void record(int plan, int direction) {
  g_log.execs++;
  g_log.exec_stream = g_stream[plan & 63];
  g_log.exec_direction = direction;
}
EXPORT int cufftExecC2C(int plan, void *in, void *out, int direction) {
  record(plan, direction);
  long long n = g_n[plan & 63], s = g_istride[plan & 63], dist = g_idist[plan & 63];
  if (!n || in == out) return 0;
  const float *x = in;
  float *y = out;
  for (long long b = 0; b < g_batch[plan & 63]; ++b)
    for (long long k = 0; k < n; ++k) {
      double re = 0, im = 0;
      for (long long j = 0; j < n; ++j) {
        double ph = (double)direction * 2.0 * M_PI * (double)((j * k) % n) / (double)n;
        const float *v = x + 2 * (b * dist + j * s);
        re += v[0] * cos(ph) - v[1] * sin(ph);
        im += v[0] * sin(ph) + v[1] * cos(ph);
      }
      y[2 * (b * dist + k * s)] = (float)re;
      y[2 * (b * dist + k * s) + 1] = (float)im;
    }
  return 0;
}
EXPORT int cufftExecZ2Z(int plan, void *in, void *out, int direction) {
  (void)in; (void)out;
  record(plan, direction);
  return 0;
}
#define REAL_EXEC(name, dir)                       \
  EXPORT int name(int plan, void *in, void *out) { \
    (void)in; (void)out;                           \
    record(plan, dir);                             \
    return 0;                                      \
  }
REAL_EXEC(cufftExecR2C, -1)
REAL_EXEC(cufftExecD2Z, -1)
REAL_EXEC(cufftExecC2R, 1)
REAL_EXEC(cufftExecZ2D, 1)
