/* Helpers for program tables: WEIR_SPIRV(name) and WEIR_CUDA(name) expand to
 * the designated initialisers of a program's SPIR-V / CUDA code when the build
 * compiled that format, and to nothing otherwise. A table entry names the
 * formats its program has; a missing GLSL/.cu source is then a build error,
 * not a silent gap. */
#ifndef WEIR_PROGRAMS_FORMATS_H
#define WEIR_PROGRAMS_FORMATS_H

#include "weir/program.h"

#if defined(WEIR_HAVE_SPIRV)
#include "weir_spirv_blobs.h" /* generated: extern const uint32_t weir_spirv_NAME[WORDS]; */
#define WEIR_SPIRV(n) .spirv = weir_spirv_##n, .spirv_bytes = sizeof(weir_spirv_##n),
#else
#define WEIR_SPIRV(n)
#endif

#if defined(WEIR_HAVE_CUDA_CODE)
#include "weir_cuda_fatbin.h" /* generated: extern const unsigned char weir_cuda_fatbin[BYTES]; */
#define WEIR_CUDA(n)                                                                   \
  .cuda_image = weir_cuda_fatbin, .cuda_image_bytes = sizeof(weir_cuda_fatbin),          \
  .cuda_entry = "weir_" #n,
#else
#define WEIR_CUDA(n)
#endif

#endif
