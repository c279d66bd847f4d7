/* The host program of an FFT step (cpu backend, host-format plugins). One
 * workgroup per chunk of the batch; each chunk has its own scratch. */
#include <stddef.h>
#include <stdint.h>

#include "engine/fft/fft_internal.h"

#define R float
#define S(x) x##_f32
#include "engine/fft/fft_kernel.inc"
#undef R
#undef S

#define R double
#define S(x) x##_f64
#include "engine/fft/fft_kernel.inc"
#undef R
#undef S

void fft_line_f64(const fft_axis *ax, const void *tables, int inverse, const void *in, void *out,
                  void *work) {
  line_f64(ax, tables, inverse, in, out, work);
}

static void fft_host_kernel(const weir_host_invocation *inv) {
  const fft_header *h = inv->bindings[0];
  /* weir_fft_step checked every size; these checks only keep a hand-made
   * step with the wrong buffers from running past them (a kernel cannot
   * report an error). */
  if (inv->binding_bytes[0] < sizeof *h || h->magic != FFT_MAGIC ||
      inv->binding_bytes[1] < h->input_bytes || inv->binding_bytes[2] < h->output_bytes ||
      inv->binding_bytes[3] < h->scratch_bytes || inv->workgroup_id[0] >= h->chunks)
    return;
  if (h->precision == WEIR_FFT_F32)
    chunk_f32(h, inv->bindings[1], inv->bindings[2], inv->bindings[3], inv->workgroup_id[0]);
  else
    chunk_f64(h, inv->bindings[1], inv->bindings[2], inv->bindings[3], inv->workgroup_id[0]);
}

/* workgroup_size 4096: a chunk is a lot of work, so the cpu backend runs a
 * grid of two or more chunks on its pool (it keeps grids under 4,096
 * invocations on the calling thread); small transforms get one chunk. */
const weir_program weir_fft_host_program = {
    .name = "weir_fft",
    .binding_count = 4,
    .push_constant_bytes = 0,
    .workgroup_size = {4096, 1, 1},
    .default_grid_binding = WEIR_NO_BINDING,
    .host = fft_host_kernel,
};
