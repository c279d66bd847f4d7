/* Overflow-checked 64-bit arithmetic for residency offsets and extents.
 * Each returns 1 on overflow (and leaves *out unspecified), 0 otherwise. */
#ifndef WEIR_RESIDENCY_CHECKED_H
#define WEIR_RESIDENCY_CHECKED_H

#include <stdint.h>

static inline int weir_checked_add(uint64_t a, uint64_t b, uint64_t *out) {
  return __builtin_add_overflow(a, b, out);
}

static inline int weir_checked_mul(uint64_t a, uint64_t b, uint64_t *out) {
  return __builtin_mul_overflow(a, b, out);
}

#endif
