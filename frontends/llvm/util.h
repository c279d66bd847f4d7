/* Small containers for the LLVM frontend: growable uint32 arrays, a text
 * buffer and a pointer -> uint32 hash map. Allocation failure is sticky
 * (`failed`) so that builders check once at the end instead of after every
 * append; the caller turns it into WEIR_ERR_OUT_OF_MEMORY. */
#ifndef WEIR_FRONTENDS_LLVM_UTIL_H
#define WEIR_FRONTENDS_LLVM_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include "weir/status.h"

typedef struct weir_llvm_vec {
  uint32_t *v;
  size_t n, cap;
  int failed;
} weir_llvm_vec;

void weir_llvm_vec_push(weir_llvm_vec *vec, uint32_t value);
void weir_llvm_vec_free(weir_llvm_vec *vec);
/* Sorts and removes duplicates; returns the new count. */
size_t weir_llvm_sort_unique_u32(uint32_t *v, size_t n);
/* Sorts and removes duplicates. */
void weir_llvm_vec_sort_unique(weir_llvm_vec *vec);
/* Sorts (a, b) pairs by a then b and drops repeated pairs. */
void weir_llvm_vec_sort_pairs(weir_llvm_vec *vec);
/* Binary search in a sorted vector. */
int weir_llvm_vec_contains(const weir_llvm_vec *sorted, uint32_t value);

typedef struct weir_llvm_text {
  char *p;
  size_t n, cap;
  int failed;
} weir_llvm_text;

void weir_llvm_text_put(weir_llvm_text *text, const char *s, size_t length);
void weir_llvm_text_printf(weir_llvm_text *text, const char *fmt, ...) WEIR_PRINTF(2, 3);
void weir_llvm_text_free(weir_llvm_text *text);

/* Open addressing, keys are non-NULL pointers. */
typedef struct weir_llvm_map {
  const void **keys;
  uint32_t *values;
  size_t cap, count;
  int failed;
} weir_llvm_map;

void weir_llvm_map_put(weir_llvm_map *map, const void *key, uint32_t value);
/* Returns WEIR_IFDS_NONE (UINT32_MAX) when absent. */
uint32_t weir_llvm_map_get(const weir_llvm_map *map, const void *key);
void weir_llvm_map_free(weir_llvm_map *map);

/* strdup that records failure in *failed instead of returning NULL silently. */
char *weir_llvm_strndup(const char *s, size_t length, int *failed);

#endif
