/* The FFT plan as the host kernel sees it.
 *
 * A plan is data in a resident buffer (binding 0 of the FFT step): this
 * header, then the tables (twiddles, Bluestein chirps), addressed by offsets
 * so the buffer holds no pointers. Keeping the plan in a buffer (instead of a
 * pointer in push constants) lets the engine's handle checks refuse a step
 * whose plan was destroyed, and makes the step an ordinary weir_step. */
#ifndef WEIR_ENGINE_FFT_INTERNAL_H
#define WEIR_ENGINE_FFT_INTERNAL_H

#include <stdint.h>

#include "weir/fft.h"

#define FFT_MAGIC 0x46465431u /* "FFT1" */
#define FFT_MAX_FACTORS 64    /* (p, m) pairs; 2^64 has 64 factors at most */
/* A length whose largest prime factor is above this runs through Bluestein's
 * algorithm (a power-of-two convolution): the generic radix-p butterfly is
 * O(p^2) per output group. */
#define FFT_BLUESTEIN_PRIME 61u
/* Most workgroups (chunks of the batch) one FFT step uses; each has its own
 * scratch, so scratch is chunks x per-chunk. The count depends only on the
 * plan, never on the thread count. */
#define FFT_MAX_CHUNKS 64u

typedef struct fft_axis {
  uint64_t n;     /* length of the complex transform along this axis */
  uint64_t m;     /* Bluestein: power-of-two convolution length; 0: direct */
  uint64_t tw;    /* complex offset in the tables: n twiddles (direct, plan's
                     direction) or m forward twiddles (Bluestein) */
  uint64_t chirp; /* Bluestein: n chirp values exp(+-i pi k^2 / n) */
  uint64_t bhat;  /* Bluestein: m values, FFT of the conjugate chirp / m */
  /* The real axis of an R2C/C2R plan of even length: real_n = that length,
   * the line runs as a complex transform of n = real_n/2 (even samples in re,
   * odd in im) and rtw holds the n twiddles exp(-+2 pi i k/real_n) of the
   * split into the half spectrum. 0: a complex axis. */
  uint64_t real_n;
  uint64_t rtw;
  uint32_t factors[2 * FFT_MAX_FACTORS]; /* (p, m) pairs of n (or of m), last m == 1 */
} fft_axis;

typedef struct fft_header {
  uint32_t magic;
  uint32_t kind;      /* weir_fft_kind */
  uint32_t precision; /* weir_fft_precision */
  uint32_t rank;
  uint32_t inverse;   /* 1: exp(+2 pi i jk/n) */
  uint32_t chunks;
  uint64_t shape[WEIR_FFT_MAX_RANK]; /* real-side extents */
  uint64_t batch, inner, elements;   /* elements = batch * inner */
  uint64_t max_n;                    /* longest axis (complex line buffer) */
  uint64_t work;                     /* per-line work space, complex values */
  uint64_t element_scratch;          /* C2R rank >= 2: one element's half spectrum */
  uint64_t scratch_per_chunk;        /* complex values */
  uint64_t input_bytes, output_bytes, scratch_bytes;
  uint64_t tables;                   /* byte offset of the tables */
  double scale;                      /* applied on the last pass */
  fft_axis axes[WEIR_FFT_MAX_RANK];
} fft_header;

/* The host program of every FFT step: bindings plan, input, output, scratch. */
extern const weir_program weir_fft_host_program;

/* A whole complex transform of length `ax->n` in double precision (used at
 * plan time to build the Bluestein tables): in -> out, work of ax->work. */
void fft_line_f64(const fft_axis *ax, const void *tables, int inverse, const void *in, void *out,
                  void *work);

#endif
