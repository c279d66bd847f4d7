/* FFTs on the Vulkan backend with VkFFT (weir_backend_ops.fft_plan).
 *
 * A plan is one VkFFT application (its kernels compiled by glslang at plan
 * time), two buffers of its own, and, for norms VkFFT cannot apply itself,
 * a scale pass (programs/glsl/fft_scale_*.comp). Executing records into the
 * backend's command buffer: VkFFTAppend with our command buffer, so an FFT
 * is one more step of a sequence behind the call's one fence.
 *
 * VkFFT binds buffers through descriptor sets of its own, updated when the
 * buffers change (vkUpdateDescriptorSets). A descriptor set must not change
 * while a recorded command uses it, so per call (weir_vk_fft_begin/_note)
 * each plan is either bound to the one (input, output) pair all its steps
 * use ("direct"), or, when one call uses a plan with several pairs, staged:
 * every step copies its input into the plan's own input buffer and its
 * result out of the plan's own output buffer. Every previous call has
 * completed behind its fence, so rebinding before the first record of a
 * call is safe. C2R always reads a copy of its input (VkFFT overwrites the
 * complex input of a multi-axis C2R); an in-place C2C reads a copy too.
 *
 * Built without VkFFT (libvkfft-dev / glslang-dev missing): fft_plan fails
 * with WEIR_ERR_UNAVAILABLE naming the package. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/vulkan/vk_internal.h"
#include "programs/formats.h"

#ifndef WEIR_HAVE_VKFFT

#ifndef WEIR_VKFFT_MISSING
#define WEIR_VKFFT_MISSING 2
#endif

weir_status weir_vk_fft_plan(void *self, const weir_fft_desc *desc, void **out_plan) {
  (void)self;
  (void)desc;
  *out_plan = NULL;
  return weir_fail(WEIR_ERR_UNAVAILABLE,
                   "vulkan: FFT is not built in: %s. Fix: apt-get install libvkfft-dev "
                   "glslang-dev and rebuild weir (or run the FFT on \"cpu\").",
                   WEIR_VKFFT_MISSING == 1   ? "VkFFT was disabled with -DWEIR_ENABLE_VKFFT=OFF"
                   : WEIR_VKFFT_MISSING == 3 ? "glslang-dev (VkFFT's run-time shader compiler) "
                                               "was not found when weir was built"
                                             : "libvkfft-dev (VkFFT, vkFFT.h) was not found when "
                                               "weir was built");
}
void weir_vk_fft_destroy(void *self, void *plan) {
  (void)self;
  (void)plan;
}
void weir_vk_fft_release_compiler(weir_vk *vk) { (void)vk; }
void weir_vk_fft_begin(weir_vk *vk) { vk->fft_call++; }
weir_status weir_vk_fft_note(weir_vk *vk, const weir_native_step *step, size_t index) {
  (void)vk;
  (void)step;
  return weir_fail(WEIR_ERR_INTERNAL, "vulkan: step %zu is an FFT step, but FFT is not built in. "
                   "Fix: report this bug.", index);
}
weir_status weir_vk_fft_record(weir_vk *vk, VkCommandBuffer cmd, const weir_native_step *step) {
  (void)vk;
  (void)cmd;
  (void)step;
  return weir_fail(WEIR_ERR_INTERNAL, "vulkan: FFT step without VkFFT. Fix: report this bug.");
}

#else

/* VkFFT's code is compiled in vk_fft_vkfft.c (its own object, see
 * backends/vulkan/CMakeLists.txt); this file sees its types only and calls
 * it through weir_vkfft_initialize / _append / _delete. */
#include "backends/vulkan/vk_fft_vkfft.h"

/* How a plan runs (see weir_vk_fft_plan). */
enum {
  FFT_DIRECT = 0,   /* VkFFT's own C2C / R2C / C2R */
  FFT_VIA_C2C = 1,  /* a real transform VkFFT refuses, as a C2C between two moves */
  FFT_IDENTITY = 2  /* every axis of length 1: a copy (or a move) */
};
/* fft_real_u32's modes (programs/glsl/fft_real_u32.comp) */
enum { MOVE_PROMOTE = 0, MOVE_REAL_PART = 1, MOVE_HALF = 2, MOVE_HERMITIAN = 3 };

typedef struct vk_fft {
  weir_fft_desc desc;
  VkFFTApplication app;
  int inverse; /* VkFFTAppend: 1 inverse, -1 forward */
  int c2r;
  int route;                      /* FFT_* */
  uint64_t in_bytes, out_bytes;   /* the step's input and output */
  uint64_t app_in_bytes, app_out_bytes; /* VkFFT reads these through pointers: keep them here */
  weir_vk_buffer own_in, own_out; /* the plan's buffers: first binding, copies, staging */
  VkBuffer set[2][2];             /* [which][input, output]: what VkFFT's pointers point at */
  int which;
  /* the current call (weir_vk_fft_note) */
  uint64_t call;
  const weir_vk_buffer *first_in, *first_out;
  int staged;
  /* the scale pass (norms VkFFT does not apply) */
  double scale;
  uint32_t scale_count; /* real values of the output */
  weir_program scale_program;
  weir_vk_program *scale_state;
  /* FFT_VIA_C2C / FFT_IDENTITY: the moves before and after (fft_real_u32) */
  weir_program move_program;
  weir_vk_program *move_state;
  uint32_t pre_mode, post_mode, pre_count, post_count;
  uint32_t move_push[8]; /* mode, count, w, n, h, d1, d2, 0 */
  int rebound;           /* FFT_VIA_C2C: VkFFT's descriptor sets rewritten once */
} vk_fft;

static const char *vkfft_error_name(VkFFTResult r) {
  switch (r) {
  case VKFFT_ERROR_MALLOC_FAILED: return "VKFFT_ERROR_MALLOC_FAILED";
  case VKFFT_ERROR_UNSUPPORTED_RADIX: return "VKFFT_ERROR_UNSUPPORTED_RADIX";
  case VKFFT_ERROR_UNSUPPORTED_FFT_LENGTH: return "VKFFT_ERROR_UNSUPPORTED_FFT_LENGTH";
  case VKFFT_ERROR_UNSUPPORTED_FFT_LENGTH_R2C: return "VKFFT_ERROR_UNSUPPORTED_FFT_LENGTH_R2C";
  case VKFFT_ERROR_UNSUPPORTED_FFT_OMIT: return "VKFFT_ERROR_UNSUPPORTED_FFT_OMIT";
  case VKFFT_ERROR_FAILED_TO_ALLOCATE: return "VKFFT_ERROR_FAILED_TO_ALLOCATE";
  case VKFFT_ERROR_FAILED_TO_ALLOCATE_MEMORY: return "VKFFT_ERROR_FAILED_TO_ALLOCATE_MEMORY";
  case VKFFT_ERROR_FAILED_SHADER_PARSE: return "VKFFT_ERROR_FAILED_SHADER_PARSE";
  case VKFFT_ERROR_FAILED_SHADER_LINK: return "VKFFT_ERROR_FAILED_SHADER_LINK";
  case VKFFT_ERROR_FAILED_TO_CREATE_PIPELINE: return "VKFFT_ERROR_FAILED_TO_CREATE_PIPELINE";
  case VKFFT_ERROR_FAILED_TO_INITIALIZE: return "VKFFT_ERROR_FAILED_TO_INITIALIZE";
  default: return "VkFFTResult";
  }
}

static const char *kind_name(weir_fft_kind k) {
  return k == WEIR_FFT_C2C ? "c2c" : k == WEIR_FFT_R2C ? "r2c" : "c2r";
}

void weir_vk_fft_release_compiler(weir_vk *vk) {
  if (vk->glslang_held) weir_vkfft_compiler_release();
  vk->glslang_held = 0;
}

void weir_vk_fft_destroy(void *self, void *plan) {
  weir_vk *vk = self;
  vk_fft *f = plan;
  if (!f) return;
  weir_vkfft_delete(&vk->vk, &f->app);
  if (f->scale_state) weir_vk_release_program(vk, &f->scale_program, f->scale_state);
  if (f->move_state) weir_vk_release_program(vk, &f->move_program, f->move_state);
  weir_vk_buffer_destroy(vk, &f->own_in);
  weir_vk_buffer_destroy(vk, &f->own_out);
  free(f);
}

static weir_status unsupported(const weir_vk *vk, const char *what, const weir_fft_desc *d) {
  return weir_fail(WEIR_ERR_UNSUPPORTED,
                   "vulkan (VkFFT on %s): %s (a %s plan of rank %u, batch %llu, inner %llu). "
                   "Fix: run this transform on \"cpu\", or reshape it (VkFFT does up to 3 "
                   "axes; with inner > 1, C2C over up to 2 axes).",
                   vk->props.deviceName, what, kind_name(d->kind), d->rank,
                   (unsigned long long)d->batch, (unsigned long long)d->inner);
}

/* VkFFT's application for `dims` (fastest first). real_plan: VkFFT's own
 * R2C/C2R; else a C2C (of the plan's kind for FFT_DIRECT, or standing in for
 * a real transform: FFT_VIA_C2C) between the plan's own buffers. */
static VkFFTResult init_app(weir_vk *vk, vk_fft *f, const weir_fft_desc *d, const uint64_t dims[3],
                            uint32_t ndim, int real_plan, int vk_normalize) {
  uint64_t cdims[3] = {dims[0], dims[1], dims[2]}, rstride = 1, cstride = 1;
  if (real_plan) cdims[0] = dims[0] / 2 + 1;
  VkFFTConfiguration c = {0};
  c.FFTdim = ndim;
  for (int i = 0; i < 3; ++i) {
    c.size[i] = dims[i];
    rstride *= dims[i];
    cstride *= cdims[i];
    c.bufferStride[i] = real_plan ? cstride : rstride;
    c.inputBufferStride[i] = real_plan && d->kind == WEIR_FFT_R2C ? rstride : c.bufferStride[i];
    c.outputBufferStride[i] = real_plan && d->kind == WEIR_FFT_C2R ? rstride : c.bufferStride[i];
  }
  if (d->inner > 1) c.omitDimension[0] = 1;
  c.numberBatches = d->batch;
  c.physicalDevice = &vk->physical;
  c.device = &vk->device;
  c.queue = &vk->queue;
  c.commandPool = &vk->pool;
  c.fence = &vk->fence;
  c.doublePrecision = d->precision == WEIR_FFT_F64;
  c.performR2C = (uint64_t)real_plan;
  c.normalize = (uint64_t)vk_normalize;
  /* Known: for lengths VkFFT runs through Bluestein (a prime factor above
   * 13) VkFFT 1.2.26 writes one null descriptor while planning (validation:
   * VUID-VkDescriptorBufferInfo-buffer-02998); results are correct. */
  c.makeForwardPlanOnly = f->inverse < 0;
  c.makeInversePlanOnly = f->inverse > 0;

  f->set[0][0] = f->own_in.buffer;
  f->set[0][1] = f->own_out.buffer;
  f->which = 0;
  if (real_plan && f->c2r) { /* complex input (a copy) in `buffer`, real result to outputBuffer */
    c.buffer = &f->set[0][0];
    c.bufferSize = &f->app_in_bytes;
    c.isOutputFormatted = 1;
    c.outputBuffer = &f->set[0][1];
    c.outputBufferSize = &f->app_out_bytes;
    c.inputBuffer = &f->set[0][0]; /* unused, but never a null descriptor */
    c.inputBufferSize = &f->app_in_bytes;
  } else { /* input in inputBuffer, result in buffer (both directions) */
    c.isInputFormatted = 1;
    c.inputBuffer = &f->set[0][0];
    c.inputBufferSize = &f->app_in_bytes;
    c.buffer = &f->set[0][1];
    c.bufferSize = &f->app_out_bytes;
    c.outputBuffer = &f->set[0][1]; /* unused, but never a null descriptor */
    c.outputBufferSize = &f->app_out_bytes;
  }
  /* VkFFT initialises glslang for each application and finalises it after
   * compiling, and glslang frees its parsed built-ins when its last
   * reference goes. With the instance's own reference held and
   * isCompilerInitialized set, VkFFT calls neither, and the built-ins stay
   * parsed from one plan to the next (a plan of size 16: ~0.3 s of parsing
   * less; ~12 MB kept while the instance lives). Without the reference
   * (glslang refused it), VkFFT initialises and finalises as before. */
  if (!vk->glslang_held) vk->glslang_held = weir_vkfft_compiler_hold();
  c.isCompilerInitialized = (uint64_t)vk->glslang_held;
  VkFFTResult r = weir_vkfft_initialize(&vk->vk, &f->app, c);
  if (r != VKFFT_SUCCESS) memset(&f->app, 0, sizeof f->app); /* it frees what it made */
  return r;
}

/* The plan's own buffers (VkFFT's bindings), replacing earlier ones. */
static weir_status own_buffers(weir_vk *vk, vk_fft *f, uint64_t in_bytes, uint64_t out_bytes) {
  weir_vk_buffer_destroy(vk, &f->own_in);
  weir_vk_buffer_destroy(vk, &f->own_out);
  f->app_in_bytes = in_bytes;
  f->app_out_bytes = out_bytes;
  weir_status st = weir_vk_buffer_create(vk, in_bytes, vk->buffer_type, 0, &f->own_in);
  if (st == WEIR_OK) st = weir_vk_buffer_create(vk, out_bytes, vk->buffer_type, 0, &f->own_out);
  return st;
}

static weir_status prepare_move(weir_vk *vk, vk_fft *f) {
  f->move_program = (weir_program){.name = "fft_real_u32",
                                   .spirv = weir_spirv_fft_real_u32,
                                   .spirv_bytes = sizeof weir_spirv_fft_real_u32,
                                   .binding_count = 2,
                                   .push_constant_bytes = sizeof f->move_push,
                                   .workgroup_size = {256, 1, 1},
                                   .default_grid_binding = WEIR_NO_BINDING};
  void *state = NULL;
  weir_status st = weir_vk_prepare_program(vk, &f->move_program, &state);
  f->move_state = state;
  return st;
}

static uint64_t mul3(uint64_t a, uint64_t b, uint64_t c) {
  uint64_t r;
  if (__builtin_mul_overflow(a, b, &r) || __builtin_mul_overflow(r, c, &r)) return UINT64_MAX;
  return r;
}

/* Plans d. Routes (docs/fft.md, "vulkan: VkFFT"):
 * - FFT_DIRECT: VkFFT's own transform of d's kind over the axes longer
 *   than 1 (length-1 axes are identities; VkFFT refuses them).
 * - FFT_VIA_C2C: a real transform VkFFT's R2C/C2R refuses
 *   (VKFFT_ERROR_UNSUPPORTED_FFT_LENGTH_R2C: many odd lengths, e.g. 2049,
 *   3001, 4097, 8191, 15015, 65537) or whose last axis has length 1: R2C
 *   promotes the real input to complex in the plan's buffer, runs a forward
 *   C2C and keeps the half spectrum; C2R fills the full Hermitian spectrum
 *   (numpy's irfftn on any input), runs an inverse C2C and keeps the real
 *   parts. Twice the memory of the direct route, three passes.
 * - FFT_IDENTITY: every axis has length 1 (N = 1, so every norm is 1): C2C
 *   copies the input (nothing in place), R2C writes (x, 0), C2R the real
 *   parts. */
weir_status weir_vk_fft_plan(void *self, const weir_fft_desc *d, void **out_plan) {
  weir_vk *vk = self;
  *out_plan = NULL;
  char why[200];
  if (d->precision == WEIR_FFT_F64 && !vk->has_float64)
    return unsupported(vk, "precision float64 needs shaderFloat64, which the device lacks", d);
  if (d->kind != WEIR_FFT_C2C && d->inner > 1)
    return unsupported(vk, "inner > 1 (strided transforms) is supported for C2C only", d);
  int real = d->kind != WEIR_FFT_C2C;
  uint64_t n_last = d->shape[d->rank - 1];
  /* VkFFT's axes, fastest first: [inner,] the axes longer than 1, last first */
  uint64_t dims[3] = {1, 1, 1};
  uint32_t ndim = 0, axes = 0;
  for (uint32_t a = 0; a < d->rank; ++a) axes += d->shape[a] > 1;
  if (axes > 0 && d->inner > 1) dims[ndim++] = d->inner;
  if (axes + ndim > 3) {
    snprintf(why, sizeof why, "rank %u%s exceeds VkFFT's 3 dimensions", axes,
             d->inner > 1 ? " + an inner batch axis" : "");
    return unsupported(vk, why, d);
  }
  for (uint32_t a = d->rank; a-- > 0;)
    if (d->shape[a] > 1) dims[ndim++] = d->shape[a];
  uint64_t real_bytes = d->precision == WEIR_FFT_F64 ? 8 : 4, w = real_bytes / 4;
  uint64_t n_total = 1;
  for (uint32_t a = 0; a < d->rank; ++a) n_total *= d->shape[a];

  vk_fft *f = calloc(1, sizeof *f);
  if (!f) return weir_fail(WEIR_ERR_OUT_OF_MEMORY, "vulkan: no memory for an FFT plan. Fix: free memory.");
  f->desc = *d;
  f->c2r = d->kind == WEIR_FFT_C2R;
  int inv = d->kind == WEIR_FFT_C2R || (d->kind == WEIR_FFT_C2C && d->direction == WEIR_FFT_INVERSE);
  f->inverse = inv ? 1 : -1;
  uint64_t elements = d->batch * d->inner, in_n = elements, out_n = elements;
  uint64_t csize = 1, rsize = 1;
  for (uint32_t a = 0; a < d->rank; ++a) {
    rsize *= d->shape[a];
    csize *= a + 1 == d->rank && real ? d->shape[a] / 2 + 1 : d->shape[a];
  }
  in_n *= d->kind == WEIR_FFT_C2R ? csize * 2 : d->kind == WEIR_FFT_R2C ? rsize : csize * 2;
  out_n *= d->kind == WEIR_FFT_R2C ? csize * 2 : d->kind == WEIR_FFT_C2R ? rsize : csize * 2;
  f->in_bytes = in_n * real_bytes;
  f->out_bytes = out_n * real_bytes;

  /* norms: VkFFT normalises inverse transforms by 1/N; anything else is a pass */
  double scale = d->norm == WEIR_FFT_NORM_ORTHO ? 1.0 / sqrt((double)n_total)
                 : (d->norm == WEIR_FFT_NORM_BACKWARD) == inv ? 1.0 / (double)n_total
                                                               : 1.0;
  int vk_normalize = inv && d->norm == WEIR_FFT_NORM_BACKWARD;
  f->scale = vk_normalize ? 1.0 : scale;
  if (f->scale != 1.0 && out_n > UINT32_MAX) {
    weir_vk_fft_destroy(vk, f);
    return unsupported(vk, "the norm's scale pass handles at most 2^32-1 output values", d);
  }
  f->scale_count = (uint32_t)out_n;

  weir_status st = weir_vk_flush(vk); /* VkFFT submits on our queue with our fence */
  if (st == WEIR_OK && f->scale != 1.0) {
    int f64 = d->precision == WEIR_FFT_F64;
    f->scale_program = (weir_program){.name = f64 ? "fft_scale_f64" : "fft_scale_f32",
                                      .binding_count = 1,
                                      .push_constant_bytes = f64 ? 16 : 8,
                                      .workgroup_size = {256, 1, 1},
                                      .default_grid_binding = WEIR_NO_BINDING};
    if (f64) {
      f->scale_program.spirv = weir_spirv_fft_scale_f64;
      f->scale_program.spirv_bytes = sizeof weir_spirv_fft_scale_f64;
    } else {
      f->scale_program.spirv = weir_spirv_fft_scale_f32;
      f->scale_program.spirv_bytes = sizeof weir_spirv_fft_scale_f32;
    }
    void *state = NULL;
    st = weir_vk_prepare_program(vk, &f->scale_program, &state);
    f->scale_state = state;
  }
  if (st != WEIR_OK) {
    weir_vk_fft_destroy(vk, f);
    return st;
  }

  if (axes == 0) { /* N = 1: the transform is the identity (times 1, whatever the norm) */
    f->route = FFT_IDENTITY;
    if (real) {
      if (mul3(elements, 2, w) > UINT32_MAX) {
        weir_vk_fft_destroy(vk, f);
        return unsupported(vk, "a length-1 real transform moves at most 2^32-1 words", d);
      }
      f->pre_mode = d->kind == WEIR_FFT_R2C ? MOVE_PROMOTE : MOVE_REAL_PART;
      f->pre_count = (uint32_t)elements;
      st = prepare_move(vk, f);
    }
  } else {
    VkFFTResult r = VKFFT_SUCCESS, r_real = VKFFT_SUCCESS;
    /* VkFFT's R2C refuses a last axis of length 1. And every C2R goes the
     * C2C way: VkFFT's own C2R reads the imaginary parts of the DC and
     * Nyquist bins, which numpy drops, and with an even batch of 1-D
     * transforms it packs two rows into one complex transform, so one
     * row's DC imaginary part leaked into its neighbour's output. The
     * Hermitian fill below gives numpy's irfft/irfftn exactly. */
    int via = (real && n_last == 1) || d->kind == WEIR_FFT_C2R;
    if (!via) {
      st = own_buffers(vk, f, f->in_bytes, f->out_bytes);
      if (st == WEIR_OK) r = r_real = init_app(vk, f, d, dims, ndim, real, vk_normalize);
      via = st == WEIR_OK && real && r == VKFFT_ERROR_UNSUPPORTED_FFT_LENGTH_R2C;
    }
    if (st == WEIR_OK && via) {
      uint64_t full = mul3(elements, n_total, 2); /* complex full spectrum, real values */
      if (mul3(full, w, 1) > UINT32_MAX) {
        snprintf(why, sizeof why,
                 "VkFFT's R2C/C2R refuses last axis %llu (%s), and the C2C that stands in for it "
                 "handles at most 2^32-1 words (got %llu)",
                 (unsigned long long)n_last, n_last == 1 ? "length 1" : "UNSUPPORTED_FFT_LENGTH_R2C",
                 (unsigned long long)mul3(full, w, 1));
        weir_vk_fft_destroy(vk, f);
        return unsupported(vk, why, d);
      }
      f->route = FFT_VIA_C2C;
      uint64_t h = n_last / 2 + 1;
      f->move_push[3] = (uint32_t)n_last;
      f->move_push[4] = (uint32_t)h;
      f->move_push[5] = n_last > 1 && ndim > 1 ? (uint32_t)dims[1] : 1u;
      f->move_push[6] = n_last > 1 && ndim > 2 ? (uint32_t)dims[2] : 1u;
      if (d->kind == WEIR_FFT_R2C) {
        f->pre_mode = MOVE_PROMOTE;
        f->pre_count = (uint32_t)(elements * n_total);
        f->post_mode = MOVE_HALF;
        f->post_count = (uint32_t)(elements * (n_total / n_last) * h);
      } else {
        f->pre_mode = MOVE_HERMITIAN;
        f->pre_count = (uint32_t)(elements * n_total);
        f->post_mode = MOVE_REAL_PART;
        f->post_count = (uint32_t)(elements * n_total);
      }
      st = own_buffers(vk, f, full * real_bytes, full * real_bytes);
      if (st == WEIR_OK) r = init_app(vk, f, d, dims, ndim, 0, vk_normalize);
      if (st == WEIR_OK && r == VKFFT_SUCCESS) st = prepare_move(vk, f);
    }
    if (st == WEIR_OK && r != VKFFT_SUCCESS) {
      int stand_in = f->route == FFT_VIA_C2C;
      weir_vk_fft_destroy(vk, f);
      weir_status code = r == VKFFT_ERROR_UNSUPPORTED_RADIX || r == VKFFT_ERROR_UNSUPPORTED_FFT_LENGTH ||
                                 r == VKFFT_ERROR_UNSUPPORTED_FFT_LENGTH_R2C ||
                                 r == VKFFT_ERROR_UNSUPPORTED_FFT_OMIT
                             ? WEIR_ERR_UNSUPPORTED
                         : r == VKFFT_ERROR_MALLOC_FAILED || r == VKFFT_ERROR_FAILED_TO_ALLOCATE ||
                                 r == VKFFT_ERROR_FAILED_TO_ALLOCATE_MEMORY
                             ? WEIR_ERR_OUT_OF_MEMORY
                             : WEIR_ERR_DEVICE;
      char also[160] = "";
      if (r_real != VKFFT_SUCCESS && r_real != r)
        snprintf(also, sizeof also, " (after its %s refused it: %s (%d))", kind_name(d->kind),
                 vkfft_error_name(r_real), (int)r_real);
      return weir_fail(code,
                       "vulkan: VkFFT cannot plan this transform on %s: initializeVkFFT returned "
                       "%s (%d) for a %s %s plan of rank %u%s%s (last axis %llu, dims %llu x %llu x "
                       "%llu, batch %llu). Fix: run it on \"cpu\", or change the shape.",
                       vk->props.deviceName, vkfft_error_name(r), (int)r,
                       stand_in ? "c2c" : kind_name(d->kind),
                       d->precision == WEIR_FFT_F64 ? "float64" : "float32", d->rank,
                       stand_in ? " standing in for a real transform" : "", also,
                       (unsigned long long)n_last, (unsigned long long)dims[0],
                       (unsigned long long)dims[1], (unsigned long long)dims[2],
                       (unsigned long long)d->batch);
    }
  }
  if (st != WEIR_OK) {
    weir_vk_fft_destroy(vk, f);
    return st;
  }
  f->move_push[2] = (uint32_t)w;
  *out_plan = f;
  return WEIR_OK;
}

void weir_vk_fft_begin(weir_vk *vk) { vk->fft_call++; }

weir_status weir_vk_fft_note(weir_vk *vk, const weir_native_step *step, size_t index) {
  vk_fft *f = step->fft;
  const weir_vk_buffer *in = step->bindings[0], *out = step->bindings[1];
  if (step->binding_count != 2 || step->binding_bytes[0] < f->in_bytes ||
      step->binding_bytes[1] < f->out_bytes)
    return weir_fail(WEIR_ERR_INTERNAL,
                     "vulkan: FFT step %zu has %u bindings of %llu and %llu bytes (expected 2 of "
                     "at least %llu and %llu). Fix: report this bug.",
                     index, step->binding_count, (unsigned long long)step->binding_bytes[0],
                     (unsigned long long)(step->binding_count > 1 ? step->binding_bytes[1] : 0),
                     (unsigned long long)f->in_bytes, (unsigned long long)f->out_bytes);
  if (f->call != vk->fft_call) {
    f->call = vk->fft_call;
    f->first_in = in;
    f->first_out = out;
    f->staged = 0;
  } else if (in != f->first_in || out != f->first_out) {
    f->staged = 1;
  }
  return WEIR_OK;
}

static void full_barrier(weir_vk *vk, VkCommandBuffer cmd) {
  const VkPipelineStageFlags both = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT;
  VkMemoryBarrier b = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                       .srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT,
                       .dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT |
                                        VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT};
  vk->vk.vkCmdPipelineBarrier(cmd, both, both, 0, 1, &b, 0, NULL, 0, NULL);
}

/* The barrier before a command of kind `next`: the primary buffer tracks
 * what came last; a secondary buffer (a repeated group) may follow itself,
 * so it always gets the full one. */
static void barrier(weir_vk *vk, VkCommandBuffer cmd, int next) {
  if (cmd == vk->cmd)
    weir_vk_barrier_to(vk, cmd, next);
  else
    full_barrier(vk, cmd);
}

static void copy(weir_vk *vk, VkCommandBuffer cmd, VkBuffer src, VkBuffer dst, uint64_t bytes) {
  barrier(vk, cmd, WEIR_VK_LAST_TRANSFER);
  VkBufferCopy region = {.srcOffset = 0, .dstOffset = 0, .size = bytes};
  vk->vk.vkCmdCopyBuffer(cmd, src, dst, 1, &region);
}

/* The norm's scale pass over the output (when VkFFT does not apply it). */
static void scale_pass(weir_vk *vk, VkCommandBuffer cmd, vk_fft *f, const weir_vk_buffer *out) {
  int primary = cmd == vk->cmd;
  if (f->scale_state) {
    barrier(vk, cmd, WEIR_VK_LAST_COMPUTE);
    const weir_vk_program *p = f->scale_state;
    vk->vk.vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, p->pipeline);
    vk->bound[!primary] = p->pipeline;
    VkDescriptorBufferInfo info = {.buffer = out->buffer, .offset = 0, .range = out->bytes};
    VkWriteDescriptorSet write = {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                                  .dstBinding = 0,
                                  .descriptorCount = 1,
                                  .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                  .pBufferInfo = &info};
    vk->vk.vkCmdPushDescriptorSetKHR(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, p->layout, 0, 1, &write);
    unsigned char push[16] = {0};
    if (f->desc.precision == WEIR_FFT_F64) {
      memcpy(push, &f->scale, 8);
      memcpy(push + 8, &f->scale_count, 4);
    } else {
      float s = (float)f->scale;
      memcpy(push, &s, 4);
      memcpy(push + 4, &f->scale_count, 4);
    }
    vk->vk.vkCmdPushConstants(cmd, p->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0,
                              f->scale_program.push_constant_bytes, push);
    uint32_t groups = (f->scale_count + 255u) / 256u;
    if (groups > 65535u) groups = 65535u;
    vk->vk.vkCmdDispatch(cmd, groups ? groups : 1u, 1, 1);
  }
}

/* One fft_real_u32 pass (f->move_push[2..6] set at plan time): src -> dst. */
static void move(weir_vk *vk, VkCommandBuffer cmd, vk_fft *f, uint32_t mode, uint32_t count,
                 VkBuffer src, VkBuffer dst) {
  int primary = cmd == vk->cmd;
  barrier(vk, cmd, WEIR_VK_LAST_COMPUTE);
  const weir_vk_program *p = f->move_state;
  vk->vk.vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, p->pipeline);
  vk->bound[!primary] = p->pipeline;
  VkDescriptorBufferInfo info[2] = {{.buffer = src, .offset = 0, .range = VK_WHOLE_SIZE},
                                    {.buffer = dst, .offset = 0, .range = VK_WHOLE_SIZE}};
  VkWriteDescriptorSet write[2];
  for (uint32_t k = 0; k < 2; ++k)
    write[k] = (VkWriteDescriptorSet){.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                                      .dstBinding = k,
                                      .descriptorCount = 1,
                                      .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                      .pBufferInfo = &info[k]};
  vk->vk.vkCmdPushDescriptorSetKHR(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, p->layout, 0, 2, write);
  uint32_t push[8];
  memcpy(push, f->move_push, sizeof push);
  push[0] = mode;
  push[1] = count;
  vk->vk.vkCmdPushConstants(cmd, p->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof push, push);
  uint32_t groups = (count + 255u) / 256u;
  if (groups > 65535u) groups = 65535u;
  vk->vk.vkCmdDispatch(cmd, groups ? groups : 1u, 1, 1);
}

/* VkFFTAppend into cmd (`what`: the transform, for the message). VkFFT binds
 * its own pipelines, so the backend forgets the one it had bound. */
static weir_status append(weir_vk *vk, VkCommandBuffer cmd, vk_fft *f, VkFFTLaunchParams *lp,
                          const char *what) {
  int primary = cmd == vk->cmd;
  VkFFTResult r = weir_vkfft_append(&vk->vk, &f->app, f->inverse, lp);
  vk->bound[!primary] = VK_NULL_HANDLE;
  if (primary) vk->last = WEIR_VK_LAST_COMPUTE;
  if (r == VKFFT_SUCCESS) return WEIR_OK;
  return weir_fail(WEIR_ERR_DEVICE,
                   "vulkan: VkFFTAppend returned %s (%d) recording %s %s transform. Fix: run it "
                   "on \"cpu\" and report the shape.",
                   vkfft_error_name(r), (int)r, what, kind_name(f->desc.kind));
}

/* FFT_IDENTITY and FFT_VIA_C2C (see weir_vk_fft_plan). */
static weir_status record_routed(weir_vk *vk, VkCommandBuffer cmd, vk_fft *f,
                                 const weir_vk_buffer *in, const weir_vk_buffer *out) {
  if (f->route == FFT_IDENTITY) {
    if (f->desc.kind == WEIR_FFT_C2C) {
      if (in != out) copy(vk, cmd, in->buffer, out->buffer, f->out_bytes);
    } else {
      move(vk, cmd, f, f->pre_mode, f->pre_count, in->buffer, out->buffer);
    }
    return WEIR_OK;
  }
  move(vk, cmd, f, f->pre_mode, f->pre_count, in->buffer, f->own_in.buffer);
  barrier(vk, cmd, WEIR_VK_LAST_COMPUTE);
  VkFFTLaunchParams lp = {0};
  lp.commandBuffer = &cmd;
  if (!f->rebound) {
    /* The same (own) buffers behind new pointers, once, at the plan's first
     * record (nothing recorded uses its sets yet): VkFFT then rewrites its
     * descriptor sets. Without this, the Bluestein lengths (e.g. 2049, 3001)
     * read zeros: VkFFT 1.2.26 leaves a null descriptor from planning
     * (docs/fft.md) that only a rebind replaces. */
    f->which = 1;
    f->set[1][0] = f->own_in.buffer;
    f->set[1][1] = f->own_out.buffer;
    f->rebound = 1;
  }
  lp.inputBuffer = &f->set[f->which][0]; /* always the plan's own buffers */
  lp.buffer = lp.outputBuffer = &f->set[f->which][1];
  WEIR_TRY(append(vk, cmd, f, &lp, "the c2c that stands in for a"));
  move(vk, cmd, f, f->post_mode, f->post_count, f->own_out.buffer, out->buffer);
  scale_pass(vk, cmd, f, out);
  return WEIR_OK;
}

weir_status weir_vk_fft_record(weir_vk *vk, VkCommandBuffer cmd, const weir_native_step *step) {
  vk_fft *f = step->fft;
  const weir_vk_buffer *in = step->bindings[0], *out = step->bindings[1];
  if (f->route != FFT_DIRECT) return record_routed(vk, cmd, f, in, out);
  int copy_in = f->c2r || f->staged || in == out;
  int copy_out = f->staged;
  VkBuffer app_in = copy_in ? f->own_in.buffer : in->buffer;
  VkBuffer app_out = copy_out ? f->own_out.buffer : out->buffer;
  if (copy_in) copy(vk, cmd, in->buffer, f->own_in.buffer, f->in_bytes);
  barrier(vk, cmd, WEIR_VK_LAST_COMPUTE);
  if (f->set[f->which][0] != app_in || f->set[f->which][1] != app_out) {
    /* new pointers, so VkFFT sees the change and rewrites its descriptor
     * sets (no recorded command uses them: see weir_vk_fft_note) */
    f->which ^= 1;
    f->set[f->which][0] = app_in;
    f->set[f->which][1] = app_out;
  }
  VkFFTLaunchParams lp = {0};
  lp.commandBuffer = &cmd;
  if (f->c2r) {
    lp.buffer = lp.inputBuffer = &f->set[f->which][0];
    lp.outputBuffer = &f->set[f->which][1];
  } else {
    lp.inputBuffer = &f->set[f->which][0];
    lp.buffer = lp.outputBuffer = &f->set[f->which][1];
  }
  WEIR_TRY(append(vk, cmd, f, &lp, "a"));
  if (copy_out) copy(vk, cmd, f->own_out.buffer, out->buffer, f->out_bytes);
  scale_pass(vk, cmd, f, out);
  return WEIR_OK;
}

#endif
