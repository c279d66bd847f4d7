/* FFTs on the CUDA backend with cuFFT (weir_backend_ops.fft_plan), loaded at
 * run time like the driver: dlopen of $WEIR_CUFFT_LIBRARY, else
 * libcufft.so.12, libcufft.so.13, libcufft.so. No cuFFT header or library is
 * needed to build; the few prototypes used are declared here.
 *
 * A plan is one cufftHandle made with cufftMakePlanMany64 (work area
 * allocated at plan time), bound to the instance's stream (cufftSetStream).
 * An FFT step is cufftExec* on that stream, so it sits in the sequence like
 * a kernel launch (and is captured into the graphs of repeated groups); a
 * plan with an outer batch AND a strided inner batch runs one exec per
 * outer element (cuFFT has one batch axis). cuFFT never normalises: norms
 * other than "unscaled" run a scale kernel (programs/cuda/fft_scale.cu)
 * after it. */
#include <dlfcn.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/cuda/cuda_backend.h"
#include "backends/cuda/cuda_fft.h"
#include "weir/builtins.h"

typedef int cufft_handle;
typedef int cufft_result;
enum {
  CUFFT_R2C_ = 0x2a, CUFFT_C2R_ = 0x2c, CUFFT_C2C_ = 0x29,
  CUFFT_D2Z_ = 0x6a, CUFFT_Z2D_ = 0x6c, CUFFT_Z2Z_ = 0x69,
  CUFFT_FORWARD_ = -1, CUFFT_INVERSE_ = 1
};

typedef struct cufft_api {
  cufft_result (*create)(cufft_handle *);
  cufft_result (*destroy)(cufft_handle);
  cufft_result (*set_stream)(cufft_handle, CUstream);
  cufft_result (*make_plan_many64)(cufft_handle, int, long long *, long long *, long long,
                                   long long, long long *, long long, long long, int, long long,
                                   size_t *);
  cufft_result (*exec_c2c)(cufft_handle, void *, void *, int);
  cufft_result (*exec_z2z)(cufft_handle, void *, void *, int);
  cufft_result (*exec_r2c)(cufft_handle, void *, void *);
  cufft_result (*exec_d2z)(cufft_handle, void *, void *);
  cufft_result (*exec_c2r)(cufft_handle, void *, void *);
  cufft_result (*exec_z2d)(cufft_handle, void *, void *);
} cufft_api;

static pthread_once_t g_once = PTHREAD_ONCE_INIT;
static cufft_api g_api;
static int g_loaded;
static char g_reason[512];

static void load_cufft(void) {
  const char *env = getenv("WEIR_CUFFT_LIBRARY");
  const char *names[] = {env && *env ? env : NULL, "libcufft.so.12", "libcufft.so.13", "libcufft.so"};
  void *h = NULL;
  const char *tried = "";
  for (size_t i = 0; i < sizeof names / sizeof *names && !h; ++i)
    if (names[i]) {
      h = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
      tried = names[i];
      if (env && *env) break; /* an explicit library is the only one tried */
    }
  if (!h) {
    const char *why = dlerror();
    snprintf(g_reason, sizeof g_reason,
             "cuFFT could not be loaded (tried %s%s): %s",
             env && *env ? "WEIR_CUFFT_LIBRARY=" : "libcufft.so.12, libcufft.so.13, libcufft.so; last ",
             tried, why ? why : "not found");
    return;
  }
  struct { const char *name; void **slot; } syms[] = {
      {"cufftCreate", (void **)&g_api.create},
      {"cufftDestroy", (void **)&g_api.destroy},
      {"cufftSetStream", (void **)&g_api.set_stream},
      {"cufftMakePlanMany64", (void **)&g_api.make_plan_many64},
      {"cufftExecC2C", (void **)&g_api.exec_c2c},
      {"cufftExecZ2Z", (void **)&g_api.exec_z2z},
      {"cufftExecR2C", (void **)&g_api.exec_r2c},
      {"cufftExecD2Z", (void **)&g_api.exec_d2z},
      {"cufftExecC2R", (void **)&g_api.exec_c2r},
      {"cufftExecZ2D", (void **)&g_api.exec_z2d},
  };
  for (size_t i = 0; i < sizeof syms / sizeof *syms; ++i) {
    void *fn = dlsym(h, syms[i].name);
    if (!fn) {
      snprintf(g_reason, sizeof g_reason, "%s (loaded) has no %s: not a cuFFT library", tried,
               syms[i].name);
      return; /* the handle stays open, like the driver's */
    }
    memcpy(syms[i].slot, &fn, sizeof fn); /* POSIX: object and function pointers convert */
  }
  g_loaded = 1;
}

typedef struct cuda_fft {
  weir_fft_desc desc;
  cufft_handle handle;
  int made;
  int type, direction;
  uint64_t in_bytes, out_bytes;
  uint64_t outer;                    /* execs per step (outer batch when inner > 1), else 1 */
  uint64_t in_step, out_step;        /* bytes between those execs */
  double scale;
  weir_program scale_program;
  void *scale_state;
  uint32_t scale_count;
} cuda_fft;

static const char *kind_name(weir_fft_kind k) {
  return k == WEIR_FFT_C2C ? "c2c" : k == WEIR_FFT_R2C ? "r2c" : "c2r";
}

void weir_cuda_fft_destroy(void *self, void *plan) {
  weir_cuda_instance *inst = self;
  cuda_fft *f = plan;
  if (!f) return;
  if (weir_cuda_enter(inst) == WEIR_OK && f->made) g_api.destroy(f->handle);
  if (f->scale_state) weir_cuda_release_program(inst, &f->scale_program, f->scale_state);
  free(f);
}

weir_status weir_cuda_fft_plan(void *self, const weir_fft_desc *d, void **out_plan) {
  weir_cuda_instance *inst = self;
  *out_plan = NULL;
  pthread_once(&g_once, load_cufft);
  if (!g_loaded)
    return weir_fail(WEIR_ERR_UNAVAILABLE,
                     "cuda: %s. Fix: install cuFFT (the CUDA toolkit's libcufft, e.g. apt-get "
                     "install libcufft-12-x from NVIDIA's repository, or /usr/local/cuda/lib64 on "
                     "LD_LIBRARY_PATH), or set WEIR_CUFFT_LIBRARY=/path/to/libcufft.so.12",
                     g_reason);
  int f64 = d->precision == WEIR_FFT_F64;
  uint64_t real = f64 ? 8 : 4;
  int inv = d->kind == WEIR_FFT_C2R || (d->kind == WEIR_FFT_C2C && d->direction == WEIR_FFT_INVERSE);
  cuda_fft *f = calloc(1, sizeof *f);
  if (!f) return weir_fail(WEIR_ERR_OUT_OF_MEMORY, "cuda: no memory for an FFT plan. Fix: free memory.");
  f->desc = *d;
  f->type = d->kind == WEIR_FFT_C2C ? (f64 ? CUFFT_Z2Z_ : CUFFT_C2C_)
            : d->kind == WEIR_FFT_R2C ? (f64 ? CUFFT_D2Z_ : CUFFT_R2C_)
                                      : (f64 ? CUFFT_Z2D_ : CUFFT_C2R_);
  f->direction = inv ? CUFFT_INVERSE_ : CUFFT_FORWARD_;
  long long n[WEIR_FFT_MAX_RANK], real_embed[WEIR_FFT_MAX_RANK], cpx_embed[WEIR_FFT_MAX_RANK];
  uint64_t rsize = 1, csize = 1, n_total = 1;
  for (uint32_t a = 0; a < d->rank; ++a) {
    n[a] = real_embed[a] = cpx_embed[a] = (long long)d->shape[a];
    if (a + 1 == d->rank && d->kind != WEIR_FFT_C2C) cpx_embed[a] = (long long)(d->shape[a] / 2 + 1);
    rsize *= (uint64_t)real_embed[a];
    csize *= (uint64_t)cpx_embed[a];
    n_total *= d->shape[a];
  }
  /* element counts (reals for real sides, complex values otherwise) */
  uint64_t in_count = d->kind == WEIR_FFT_R2C ? rsize : csize;
  uint64_t out_count = d->kind == WEIR_FFT_C2R ? rsize : csize;
  uint64_t in_unit = d->kind == WEIR_FFT_R2C ? real : 2 * real;
  uint64_t out_unit = d->kind == WEIR_FFT_C2R ? real : 2 * real;
  long long stride, batch;
  long long idist, odist;
  if (d->inner > 1) { /* inner: cuFFT's batch, strided; outer: one exec each */
    stride = (long long)d->inner;
    batch = (long long)d->inner;
    idist = odist = 1;
    f->outer = d->batch;
  } else {
    stride = 1;
    batch = (long long)d->batch;
    idist = (long long)in_count;
    odist = (long long)out_count;
    f->outer = 1;
  }
  f->in_step = in_count * d->inner * in_unit;
  f->out_step = out_count * d->inner * out_unit;
  f->in_bytes = f->in_step * d->batch;
  f->out_bytes = f->out_step * d->batch;
  f->scale = d->norm == WEIR_FFT_NORM_ORTHO ? 1.0 / sqrt((double)n_total)
             : (d->norm == WEIR_FFT_NORM_BACKWARD) == inv ? 1.0 / (double)n_total
                                                         : 1.0;
  uint64_t out_reals = f->out_bytes / real;
  if (f->scale != 1.0 && out_reals > UINT32_MAX) {
    free(f);
    return weir_fail(WEIR_ERR_UNSUPPORTED,
                     "cuda: the norm's scale pass handles at most 2^32-1 output values (this %s "
                     "plan has %llu). Fix: use norm \"backward\" for forward transforms, or split "
                     "the batch.",
                     kind_name(d->kind), (unsigned long long)out_reals);
  }
  f->scale_count = (uint32_t)out_reals;
  weir_status st = weir_cuda_enter(inst);
  if (st != WEIR_OK) {
    free(f);
    return st;
  }
  cufft_result r = g_api.create(&f->handle);
  const char *call = "cufftCreate";
  if (r == 0) {
    f->made = 1;
    size_t work = 0;
    call = "cufftMakePlanMany64";
    r = g_api.make_plan_many64(f->handle, (int)d->rank, n,
                               d->kind == WEIR_FFT_R2C ? real_embed : cpx_embed, stride, idist,
                               d->kind == WEIR_FFT_C2R ? real_embed : cpx_embed, stride, odist,
                               f->type, batch, &work);
  }
  if (r == 0) {
    call = "cufftSetStream";
    r = g_api.set_stream(f->handle, inst->stream);
  }
  if (r != 0) {
    weir_cuda_fft_destroy(inst, f);
    /* cufftResult: 2 ALLOC_FAILED, 4 INVALID_VALUE, 8 INVALID_SIZE, 13 NOT_SUPPORTED */
    return weir_fail(r == 2 ? WEIR_ERR_OUT_OF_MEMORY
                     : r == 4 || r == 8 || r == 13 ? WEIR_ERR_UNSUPPORTED
                                                   : WEIR_ERR_DEVICE,
                     "cuda: %s returned cufftResult %d for a %s %s plan of rank %u (shape[0] "
                     "%llu, batch %llu, inner %llu) on device %u. Fix: run it on \"cpu\", or "
                     "change the shape or batch.",
                     call, r, kind_name(d->kind), f64 ? "float64" : "float32", d->rank,
                     (unsigned long long)d->shape[0], (unsigned long long)d->batch,
                     (unsigned long long)d->inner, inst->ordinal);
  }
  if (f->scale != 1.0) {
    const weir_program *noop = weir_builtin_program("noop"); /* the fatbin holds fft_scale.cu too */
    f->scale_program = (weir_program){.name = f64 ? "fft_scale_f64" : "fft_scale_f32",
                                      .binding_count = 1,
                                      .push_constant_bytes = 16,
                                      .workgroup_size = {256, 1, 1},
                                      .default_grid_binding = WEIR_NO_BINDING,
                                      .cuda_image = noop ? noop->cuda_image : NULL,
                                      .cuda_image_bytes = noop ? noop->cuda_image_bytes : 0,
                                      .cuda_entry = f64 ? "weir_fft_scale_f64" : "weir_fft_scale_f32"};
    st = f->scale_program.cuda_image
             ? weir_cuda_prepare_program(inst, &f->scale_program, &f->scale_state)
             : weir_fail(WEIR_ERR_INTERNAL, "cuda: no built-in fatbin for the FFT scale kernel. "
                         "Fix: report this bug.");
    if (st != WEIR_OK) {
      weir_cuda_fft_destroy(inst, f);
      return st;
    }
  }
  *out_plan = f;
  return WEIR_OK;
}

weir_status weir_cuda_fft_exec(weir_cuda_instance *inst, const weir_native_step *step) {
  cuda_fft *f = step->fft;
  const weir_cuda_buffer *in = step->bindings[0], *out = step->bindings[1];
  for (uint64_t o = 0; o < f->outer; ++o) {
    void *ip = (void *)(uintptr_t)(in->ptr + o * f->in_step);
    void *op = (void *)(uintptr_t)(out->ptr + o * f->out_step);
    cufft_result r;
    switch (f->type) {
      case CUFFT_C2C_: r = g_api.exec_c2c(f->handle, ip, op, f->direction); break;
      case CUFFT_Z2Z_: r = g_api.exec_z2z(f->handle, ip, op, f->direction); break;
      case CUFFT_R2C_: r = g_api.exec_r2c(f->handle, ip, op); break;
      case CUFFT_D2Z_: r = g_api.exec_d2z(f->handle, ip, op); break;
      case CUFFT_C2R_: r = g_api.exec_c2r(f->handle, ip, op); break;
      default: r = g_api.exec_z2d(f->handle, ip, op); break;
    }
    if (r != 0)
      return weir_fail(WEIR_ERR_DEVICE,
                       "cuda: cufftExec (%s) returned cufftResult %d on device %u. Fix: check "
                       "the device's state (weir info); run the transform on \"cpu\" to compare.",
                       kind_name(f->desc.kind), r, inst->ordinal);
  }
  if (!f->scale_state) return WEIR_OK;
  unsigned char push[16] = {0};
  memcpy(push, &f->scale, 8);
  memcpy(push + 8, &f->scale_count, 4);
  void *bindings[1] = {step->bindings[1]};
  uint64_t bytes[1] = {step->binding_bytes[1]};
  uint32_t groups = (f->scale_count + 255u) / 256u;
  if (groups > 65535u) groups = 65535u;
  weir_native_step scale = {&f->scale_program, f->scale_state, bindings, bytes, 1,
                            {groups ? groups : 1u, 1, 1}, push, 16, NULL};
  return weir_cuda_launch(inst, &scale);
}
