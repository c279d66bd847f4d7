/* weir — batched Fourier transforms on resident buffers.
 *
 * A plan (weir_fft_plan) fixes everything about a transform: the logical
 * shape (1-D or N-D), how many transforms a call does (the batch), the kind
 * (complex-to-complex, real-to-complex, complex-to-real), the direction, the
 * precision and the normalisation, with NumPy's meaning for each
 * (numpy.fft.fft/ifft/rfft/irfft/fftn/ifftn/rfftn/irfftn, norm="backward",
 * "forward", "ortho"). Planning does every allocation (twiddle tables,
 * scratch); executing allocates nothing.
 *
 * Executing is a step like any other: weir_fft_step fills a weir_step that can
 * sit in weir_dispatch_sequence_read_ranges_into or a repeated sequence
 * between other steps, behind the same single synchronization;
 * weir_fft_execute is the one-step convenience (one fence).
 *
 * Data layout (row-major, no padding): complex values are a trailing axis of
 * extent 2 (re, im), i.e. interleaved float/double pairs, like C99 complex
 * and numpy's complex64/complex128. A buffer holds
 *
 *     batch x shape[0] x ... x shape[rank-1] x inner     values
 *
 * where the transform runs over the `shape` axes, and `batch` (outer) and
 * `inner` (a strided batch after the transformed axes; 1 when the transformed
 * axes are the last ones) are independent transforms. For real-to-complex
 * the complex side's last transformed extent is shape[rank-1]/2+1 (and the
 * same for the input of complex-to-real); `shape` is always the real
 * (logical) shape, as numpy's `s`.
 *
 * Backends: cpu (and host-format plugins) run weir's own mixed-radix code,
 * one thread per batch element with the same code, so the result has the
 * same bits for any thread count. vulkan runs VkFFT and cuda cuFFT through
 * the backend operation fft_plan (weir/backend.h): WEIR_ERR_UNSUPPORTED
 * naming a parameter the library cannot do, WEIR_ERR_UNAVAILABLE when the
 * library is missing. Other backends refuse the plan with
 * WEIR_ERR_UNSUPPORTED naming the backend (docs/fft.md says what exists). */
#ifndef WEIR_FFT_H
#define WEIR_FFT_H

#include "weir/export.h"

#include <stdint.h>

#include "weir/weir.h"

#ifdef __cplusplus
extern "C" {
#endif

#define WEIR_FFT_MAX_RANK 8

typedef enum weir_fft_kind {
  WEIR_FFT_C2C = 0, /* complex -> complex (fft, ifft, fftn, ifftn) */
  WEIR_FFT_R2C = 1, /* real -> half spectrum (rfft, rfftn); always forward */
  WEIR_FFT_C2R = 2  /* half spectrum -> real (irfft, irfftn); always inverse */
} weir_fft_kind;

typedef enum weir_fft_direction {
  WEIR_FFT_FORWARD = 0, /* exp(-2 pi i jk/n) */
  WEIR_FFT_INVERSE = 1  /* exp(+2 pi i jk/n) */
} weir_fft_direction;

typedef enum weir_fft_precision {
  WEIR_FFT_F32 = 0, /* float, complex64 */
  WEIR_FFT_F64 = 1  /* double, complex128 */
} weir_fft_precision;

/* numpy's norm= argument; N is the product of the transformed (real) shape. */
typedef enum weir_fft_norm {
  WEIR_FFT_NORM_BACKWARD = 0, /* forward unscaled, inverse 1/N (numpy's default) */
  WEIR_FFT_NORM_FORWARD = 1,  /* forward 1/N, inverse unscaled */
  WEIR_FFT_NORM_ORTHO = 2     /* 1/sqrt(N) both ways */
} weir_fft_norm;

typedef struct weir_fft_desc {
  uint32_t rank;                     /* 1 .. WEIR_FFT_MAX_RANK transformed axes */
  uint64_t shape[WEIR_FFT_MAX_RANK]; /* logical (real-side) extents, each >= 1 */
  uint64_t batch;                    /* outer independent transforms (0 means 1) */
  uint64_t inner;                    /* strided inner transforms (0 means 1) */
  weir_fft_kind kind;
  weir_fft_direction direction; /* C2C only; R2C is forward, C2R inverse */
  weir_fft_precision precision;
  weir_fft_norm norm;
} weir_fft_desc;

/* A plan on one backend instance; it holds a reference to the instance. */
typedef struct weir_fft weir_fft;

/* Plans a transform: validates `desc`, factors every length, computes the
 * twiddle tables and allocates the scratch the execution needs on
 * `backend` (or has the backend's library plan it). WEIR_ERR_UNSUPPORTED on
 * a backend without FFT support (the message names it and what exists) or
 * for a parameter its library cannot do; WEIR_ERR_UNAVAILABLE when its
 * library (VkFFT, cuFFT) is missing here. */
WEIR_API weir_status weir_fft_plan(weir_backend *backend, const weir_fft_desc *desc,
                                   weir_fft **out);
/* Frees the plan's tables and scratch. NULL is allowed. A step made from the
 * plan is refused afterwards (its bindings are freed buffers). */
WEIR_API void weir_fft_destroy(weir_fft *fft);

/* The bytes an input and an output buffer must hold at least. */
WEIR_API weir_status weir_fft_sizes(const weir_fft *fft, uint64_t *input_bytes,
                                    uint64_t *output_bytes);

/* What a step made by weir_fft_step points at; the caller keeps it alive
 * (and unchanged) for as long as the step is dispatched. */
typedef struct weir_fft_step_data {
  weir_buffer bindings[4];
} weir_fft_step_data;

/* Fills *out_step with the transform of `input` into `output` (buffers of
 * the plan's backend, at least weir_fft_sizes bytes). input == output (in
 * place) is allowed for C2C only. The step can be used in any sequence
 * (also repeatedly); it allocates nothing when dispatched. */
WEIR_API weir_status weir_fft_step(const weir_fft *fft, weir_buffer input, weir_buffer output,
                                   weir_fft_step_data *data, weir_step *out_step);

/* One transform, completed before the call returns (one dispatch, one fence). */
WEIR_API weir_status weir_fft_execute(weir_fft *fft, weir_buffer input, weir_buffer output);

#ifdef __cplusplus
}
#endif
#endif
