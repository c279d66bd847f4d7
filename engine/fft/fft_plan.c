/* weir_fft_plan and friends: validation, factoring, tables, scratch, and the
 * step that runs the host program (engine/fft/fft_kernel.c). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine/core/internal.h"
#include "engine/fft/fft_internal.h"
#include "weir/fft.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

struct weir_fft {
  weir_backend *backend; /* retained */
  weir_fft_desc desc;
  weir_buffer plan;    /* fft_header + tables; with a backend op: the plan's token */
  weir_buffer scratch; /* chunks x scratch_per_chunk complex values (host programs) */
  void *native;        /* the backend's plan (ops->fft_plan), or NULL */
  uint64_t input_bytes, output_bytes;
  uint32_t chunks;
};

static const char *kind_name(weir_fft_kind kind) {
  return kind == WEIR_FFT_C2C ? "c2c" : kind == WEIR_FFT_R2C ? "r2c" : "c2r";
}

static int mul_ok(uint64_t *acc, uint64_t factor) {
  return !__builtin_mul_overflow(*acc, factor, acc);
}

/* KissFFT's order: 4s first (fewest passes), then 2, 3, 5, 7, ...; the
 * result is (p, m) pairs, m the length still left after p. Returns the
 * largest p. */
static uint64_t factorize(uint64_t n, uint32_t *factors) {
  uint64_t p = 4, largest = 1;
  size_t k = 0;
  if (n == 1) {
    factors[0] = 1;
    factors[1] = 1;
    return 1;
  }
  while (n > 1) {
    while (n % p) {
      p = p == 4 ? 2 : p == 2 ? 3 : p + 2;
      if (p * p > n) p = n;
    }
    n /= p;
    factors[k++] = (uint32_t)p;
    factors[k++] = (uint32_t)n;
    if (p > largest) largest = p;
  }
  return largest;
}

/* count values exp(-+2 pi i k / n), k < count. */
static void twiddles(double *out, uint64_t count, uint64_t n, int inverse) {
  for (uint64_t i = 0; i < count; ++i) {
    double phase = (inverse ? 2.0 : -2.0) * M_PI * (double)i / (double)n;
    out[2 * i] = cos(phase);
    out[2 * i + 1] = sin(phase);
  }
}

/* Bluestein tables of an axis of length n (ax->m, ax->tw, ax->chirp, ax->bhat
 * set): chirp c_k = exp(-+i pi k^2 / n), bhat = FFT_m(conj(c) wrapped) / m. */
static weir_status bluestein_tables(const fft_axis *ax, double *tab, int inverse) {
  uint64_t n = ax->n, m = ax->m;
  twiddles(tab + 2 * ax->tw, m, m, 0);
  double *c = tab + 2 * ax->chirp;
  uint64_t sq = 0; /* k^2 mod 2n, kept exact for any n */
  for (uint64_t k = 0; k < n; ++k) {
    double phase = (inverse ? 1.0 : -1.0) * M_PI * (double)sq / (double)n;
    c[2 * k] = cos(phase);
    c[2 * k + 1] = sin(phase);
    sq = (sq + 2 * k + 1) % (2 * n);
  }
  double *b = calloc(2 * m, sizeof *b);
  if (!b)
    return weir_fail(WEIR_ERR_OUT_OF_MEMORY,
                     "weir_fft_plan: no host memory for a %llu-point Bluestein table. Fix: free "
                     "memory or plan a shorter transform.",
                     (unsigned long long)m);
  for (uint64_t k = 0; k < n; ++k) {
    b[2 * k] = c[2 * k];
    b[2 * k + 1] = -c[2 * k + 1];
    if (k) {
      b[2 * (m - k)] = c[2 * k];
      b[2 * (m - k) + 1] = -c[2 * k + 1];
    }
  }
  fft_axis direct = *ax;
  direct.n = m;
  direct.m = 0;
  double *bhat = tab + 2 * ax->bhat;
  fft_line_f64(&direct, tab, 0, b, bhat, NULL);
  for (uint64_t k = 0; k < 2 * m; ++k) bhat[k] /= (double)m;
  free(b);
  return WEIR_OK;
}

static weir_status check_desc(weir_backend *backend, const weir_fft_desc *d, weir_fft **out) {
  if (!backend || !d || !out)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "weir_fft_plan: backend, desc and out must not be NULL (got %p, %p, %p). "
                     "Fix: pass an open backend, a filled weir_fft_desc and a weir_fft* to fill.",
                     (void *)backend, (const void *)d, (void *)out);
  if (d->rank < 1 || d->rank > WEIR_FFT_MAX_RANK)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "weir_fft_plan: rank %u (expected 1..%u transformed axes). Fix: set "
                     "weir_fft_desc.rank and shape[0..rank-1].",
                     d->rank, WEIR_FFT_MAX_RANK);
  for (uint32_t a = 0; a < d->rank; ++a)
    if (d->shape[a] < 1 || d->shape[a] > UINT32_MAX)
      return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                       "weir_fft_plan: shape[%u] = %llu (expected 1 .. 4294967295 = 2^32-1). "
                       "Fix: give every transformed axis a length of %s.",
                       a, (unsigned long long)d->shape[a],
                       d->shape[a] < 1 ? "at least 1" : "at most 4294967295 (split longer data)");
  if ((unsigned)d->kind > WEIR_FFT_C2R || (unsigned)d->direction > WEIR_FFT_INVERSE ||
      (unsigned)d->precision > WEIR_FFT_F64 || (unsigned)d->norm > WEIR_FFT_NORM_ORTHO)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "weir_fft_plan: kind %d, direction %d, precision %d or norm %d is not a "
                     "value of its enum. Fix: use WEIR_FFT_C2C/R2C/C2R, WEIR_FFT_FORWARD/INVERSE, "
                     "WEIR_FFT_F32/F64 and WEIR_FFT_NORM_BACKWARD/FORWARD/ORTHO.",
                     (int)d->kind, (int)d->direction, (int)d->precision, (int)d->norm);
  WEIR_TRY(weir_check_backend(backend, "weir_fft_plan"));
  if (weir_backend_format(backend) != WEIR_FORMAT_HOST &&
      !(backend->ops->fft_plan && backend->ops->fft_destroy))
    return weir_fail(WEIR_ERR_UNSUPPORTED,
                     "weir_fft_plan: backend '%s' has no FFT (FFTs exist on cpu, vulkan (VkFFT), "
                     "cuda (cuFFT), on plugins that run host programs and on plugins with the "
                     "fft_plan operation). Fix: open \"cpu\" for the transform and move the data "
                     "there (weir_copy through the host, or weir.asarray(x, device=\"cpu\")).",
                     weir_backend_id(backend));
  return WEIR_OK;
}

/* Builds the header and the tables (doubles; converted to the plan's
 * precision into `blob`). */
static weir_status build(const weir_fft_desc *d, fft_header *h, unsigned char **blob,
                         uint64_t *blob_bytes) {
  memset(h, 0, sizeof *h);
  h->magic = FFT_MAGIC;
  h->kind = (uint32_t)d->kind;
  h->precision = (uint32_t)d->precision;
  h->rank = d->rank;
  h->inverse = d->kind == WEIR_FFT_C2R || (d->kind == WEIR_FFT_C2C && d->direction == WEIR_FFT_INVERSE);
  h->batch = d->batch ? d->batch : 1;
  h->inner = d->inner ? d->inner : 1;
  uint64_t total = 1, htotal = 1, table = 0, work = 1, max_n = 1;
  int ok = 1;
  h->elements = h->batch;
  ok &= mul_ok(&h->elements, h->inner);
  for (uint32_t a = 0; a < d->rank; ++a) {
    uint64_t n = d->shape[a];
    h->shape[a] = n;
    ok &= mul_ok(&total, n);
    ok &= mul_ok(&htotal, a + 1 == d->rank && d->kind != WEIR_FFT_C2C ? n / 2 + 1 : n);
    if (n > max_n) max_n = n;
    fft_axis *ax = &h->axes[a];
    /* An even real axis runs as a complex line of half its length. */
    int packed = a + 1 == d->rank && d->kind != WEIR_FFT_C2C && n % 2 == 0;
    uint32_t same = a;
    for (uint32_t b = 0; b < a; ++b)
      if (h->axes[b].n == n && !packed) same = b;
    if (same != a) { /* shares the tables of an earlier axis of the same length */
      *ax = h->axes[same];
      continue;
    }
    if (packed) {
      ax->real_n = n;
      n /= 2;
      ax->rtw = table;
      table += n;
    }
    ax->n = n;
    uint64_t largest = factorize(n, ax->factors);
    if (largest > FFT_BLUESTEIN_PRIME) {
      uint64_t m = 1;
      while (m < 2 * n - 1) m *= 2;
      ax->m = m;
      factorize(m, ax->factors);
      ax->tw = table;
      ax->chirp = table + m;
      ax->bhat = table + m + n;
      table += 2 * m + n;
      if (2 * m > work) work = 2 * m;
    } else {
      ax->tw = table;
      table += n;
      if (largest > work) work = largest;
    }
  }
  if (!ok)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "weir_fft_plan: batch %llu x inner %llu x the shape overflows 64 bits. Fix: "
                     "split the batch over several plans.",
                     (unsigned long long)h->batch, (unsigned long long)h->inner);
  h->max_n = max_n;
  h->work = work;
  h->element_scratch = d->kind == WEIR_FFT_C2R && d->rank > 1 ? htotal : 0;
  h->scratch_per_chunk = 2 * max_n + work + h->element_scratch;
  /* One chunk for small jobs (no thread wake-up); else up to 64, never more
   * than there are elements. */
  uint64_t job = h->elements;
  h->chunks = !mul_ok(&job, total) || job >= 16384
                  ? (uint32_t)(h->elements < FFT_MAX_CHUNKS ? h->elements : FFT_MAX_CHUNKS)
                  : 1u;
  double n_total = (double)total;
  int inv = (int)h->inverse;
  h->scale = d->norm == WEIR_FFT_NORM_ORTHO ? 1.0 / sqrt(n_total)
             : (d->norm == WEIR_FFT_NORM_BACKWARD) == inv ? 1.0 / n_total
                                                         : 1.0;
  uint64_t real = d->precision == WEIR_FFT_F32 ? 4 : 8, cpx = 2 * real;
  uint64_t in_n = h->elements, out_n = h->elements, scratch = h->scratch_per_chunk;
  ok &= mul_ok(&in_n, d->kind == WEIR_FFT_C2R ? htotal : total);
  ok &= mul_ok(&out_n, d->kind == WEIR_FFT_R2C ? htotal : total);
  ok &= mul_ok(&in_n, d->kind == WEIR_FFT_R2C ? real : cpx);
  ok &= mul_ok(&out_n, d->kind == WEIR_FFT_C2R ? real : cpx);
  ok &= mul_ok(&scratch, (uint64_t)h->chunks * cpx);
  if (!ok || table > (UINT64_MAX - sizeof *h) / cpx)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "weir_fft_plan: the buffers of %llu transforms of %llu points overflow 64 "
                     "bits. Fix: split the batch over several plans.",
                     (unsigned long long)h->elements, (unsigned long long)total);
  h->input_bytes = in_n;
  h->output_bytes = out_n;
  h->scratch_bytes = scratch;
  h->tables = (sizeof *h + 63) / 64 * 64;

  double *tab = table ? calloc(table * 2, sizeof *tab) : NULL;
  *blob_bytes = h->tables + table * cpx;
  *blob = calloc(1, (size_t)*blob_bytes);
  if ((table && !tab) || !*blob) {
    free(tab);
    free(*blob);
    return weir_fail(WEIR_ERR_OUT_OF_MEMORY,
                     "weir_fft_plan: no host memory for %llu table bytes. Fix: free memory or "
                     "plan shorter axes.",
                     (unsigned long long)*blob_bytes);
  }
  for (uint32_t a = 0; a < d->rank; ++a) {
    const fft_axis *ax = &h->axes[a];
    int first = 1; /* shared axes copied an earlier axis, offsets included */
    for (uint32_t b = 0; b < a; ++b) first &= h->axes[b].tw != ax->tw;
    if (!first) continue;
    if (ax->m) {
      weir_status st = bluestein_tables(ax, tab, inv);
      if (st != WEIR_OK) {
        free(tab);
        free(*blob);
        return st;
      }
    } else {
      twiddles(tab + 2 * ax->tw, ax->n, ax->n, inv);
    }
    /* the split of a packed real axis, whatever runs its half-length core */
    if (ax->real_n) twiddles(tab + 2 * ax->rtw, ax->n, ax->real_n, inv);
  }
  memcpy(*blob, h, sizeof *h);
  if (d->precision == WEIR_FFT_F32) {
    float *f = (float *)(*blob + h->tables);
    for (uint64_t k = 0; k < 2 * table; ++k) f[k] = (float)tab[k];
  } else if (table) {
    memcpy(*blob + h->tables, tab, table * cpx);
  }
  free(tab);
  return WEIR_OK;
}

/* A plan on a backend with ops->fft_plan: the backend's library does the
 * transform; a 16-byte buffer stands for the plan in steps (binding 0), so a
 * step of a destroyed plan is refused by the handle checks. */
static weir_status plan_with_backend(weir_backend *backend, const weir_fft_desc *desc,
                                     const fft_header *h, weir_fft **out) {
  weir_fft *f = calloc(1, sizeof *f);
  if (!f)
    return weir_fail(WEIR_ERR_OUT_OF_MEMORY, "weir_fft_plan: no memory for the plan. Fix: free memory.");
  f->desc = *desc;
  f->desc.batch = h->batch;
  f->desc.inner = h->inner;
  f->input_bytes = h->input_bytes;
  f->output_bytes = h->output_bytes;
  weir_status st = backend->ops->fft_plan(backend->self, &f->desc, &f->native);
  if (st != WEIR_OK) {
    weir_fail_context(st, "weir_fft_plan on backend '%s' (%s, %u-D, %llu transforms)",
                      weir_backend_id(backend), kind_name(desc->kind), desc->rank,
                      (unsigned long long)h->elements);
    free(f);
    return st;
  }
  st = weir_allocate(backend, 16, &f->plan);
  if (st == WEIR_OK) st = weir_backend_fft_attach(backend, f->plan, f->native);
  if (st != WEIR_OK) {
    if (f->plan.instance) weir_free(backend, f->plan);
    backend->ops->fft_destroy(backend->self, f->native);
    free(f);
    return weir_fail_context(st, "weir_fft_plan (the plan's token buffer)");
  }
  weir_backend_retain(backend);
  f->backend = backend;
  *out = f;
  return WEIR_OK;
}

weir_status weir_fft_plan(weir_backend *backend, const weir_fft_desc *desc, weir_fft **out) {
  WEIR_TRY(check_desc(backend, desc, out));
  *out = NULL;
  fft_header h;
  unsigned char *blob = NULL;
  uint64_t blob_bytes = 0;
  WEIR_TRY(build(desc, &h, &blob, &blob_bytes));
  if (backend->ops->fft_plan && backend->ops->fft_destroy) {
    free(blob);
    return plan_with_backend(backend, desc, &h, out);
  }
  weir_fft *f = calloc(1, sizeof *f);
  if (!f) {
    free(blob);
    return weir_fail(WEIR_ERR_OUT_OF_MEMORY, "weir_fft_plan: no memory for the plan. Fix: free memory.");
  }
  f->desc = *desc;
  f->input_bytes = h.input_bytes;
  f->output_bytes = h.output_bytes;
  f->chunks = h.chunks;
  weir_status st = weir_allocate(backend, blob_bytes, &f->plan);
  if (st == WEIR_OK) st = weir_upload(backend, f->plan, blob, blob_bytes);
  if (st == WEIR_OK) st = weir_allocate(backend, h.scratch_bytes, &f->scratch);
  free(blob);
  if (st != WEIR_OK) {
    weir_fail_context(st, "weir_fft_plan (%s, %u-D, %llu transforms, %llu scratch bytes)",
                      kind_name(desc->kind), desc->rank, (unsigned long long)h.elements,
                      (unsigned long long)h.scratch_bytes);
    if (f->plan.instance) weir_free(backend, f->plan);
    free(f);
    return st;
  }
  weir_backend_retain(backend);
  f->backend = backend;
  *out = f;
  return WEIR_OK;
}

void weir_fft_destroy(weir_fft *fft) {
  if (!fft) return;
  if (fft->native) {
    (void)weir_backend_fft_attach(fft->backend, fft->plan, NULL);
    fft->backend->ops->fft_destroy(fft->backend->self, fft->native);
  }
  (void)weir_free(fft->backend, fft->plan);
  if (fft->scratch.instance) (void)weir_free(fft->backend, fft->scratch);
  weir_backend_close(fft->backend);
  free(fft);
}

weir_status weir_fft_sizes(const weir_fft *fft, uint64_t *input_bytes, uint64_t *output_bytes) {
  if (!fft)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "weir_fft_sizes: the plan is NULL. Fix: pass a plan from weir_fft_plan.");
  if (input_bytes) *input_bytes = fft->input_bytes;
  if (output_bytes) *output_bytes = fft->output_bytes;
  return WEIR_OK;
}

static int same_buffer(weir_buffer a, weir_buffer b) {
  return a.instance == b.instance && a.slot == b.slot && a.generation == b.generation;
}

weir_status weir_fft_step(const weir_fft *fft, weir_buffer input, weir_buffer output,
                          weir_fft_step_data *data, weir_step *out_step) {
  if (!fft || !data || !out_step)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "weir_fft_step: plan, data and out_step must not be NULL (got %p, %p, %p). "
                     "Fix: pass a plan, a weir_fft_step_data that outlives the step, and a "
                     "weir_step to fill.",
                     (const void *)fft, (void *)data, (void *)out_step);
  uint64_t in_bytes = 0, out_bytes = 0;
  weir_status st = weir_buffer_size(fft->backend, input, &in_bytes);
  if (st != WEIR_OK) return weir_fail_context(st, "weir_fft_step input");
  st = weir_buffer_size(fft->backend, output, &out_bytes);
  if (st != WEIR_OK) return weir_fail_context(st, "weir_fft_step output");
  if (in_bytes < fft->input_bytes || out_bytes < fft->output_bytes)
    return weir_fail(WEIR_ERR_OUT_OF_RANGE,
                     "weir_fft_step: the %s plan needs an input of %llu bytes and an output of "
                     "%llu bytes (got %llu and %llu). Fix: allocate the sizes weir_fft_sizes "
                     "reports.",
                     kind_name(fft->desc.kind), (unsigned long long)fft->input_bytes,
                     (unsigned long long)fft->output_bytes, (unsigned long long)in_bytes,
                     (unsigned long long)out_bytes);
  if (fft->desc.kind != WEIR_FFT_C2C && same_buffer(input, output))
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "weir_fft_step: a %s transform cannot run in place (input and output are "
                     "the same buffer, slot %u). Fix: use a separate output buffer.",
                     kind_name(fft->desc.kind), input.slot);
  data->bindings[0] = fft->plan;
  data->bindings[1] = input;
  data->bindings[2] = output;
  data->bindings[3] = fft->scratch;
  if (fft->native) {
    *out_step = (weir_step){&weir_backend_fft_program, data->bindings, 3, {1, 1, 1}, NULL, 0};
    return WEIR_OK;
  }
  *out_step = (weir_step){&weir_fft_host_program, data->bindings, 4, {fft->chunks, 1, 1}, NULL, 0};
  return WEIR_OK;
}

weir_status weir_fft_execute(weir_fft *fft, weir_buffer input, weir_buffer output) {
  weir_fft_step_data data;
  weir_step step;
  WEIR_TRY(weir_fft_step(fft, input, output, &data, &step));
  return weir_dispatch_sequence_read_ranges_into(fft->backend, &step, 1, NULL, 0, NULL, 0);
}
