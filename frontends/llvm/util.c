#include "frontends/llvm/util.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void weir_llvm_vec_push(weir_llvm_vec *vec, uint32_t value) {
  if (vec->failed) return;
  if (vec->n == vec->cap) {
    size_t cap = vec->cap ? vec->cap * 2 : 16;
    uint32_t *v = realloc(vec->v, cap * sizeof *v);
    if (!v) {
      vec->failed = 1;
      return;
    }
    vec->v = v;
    vec->cap = cap;
  }
  vec->v[vec->n++] = value;
}

void weir_llvm_vec_free(weir_llvm_vec *vec) {
  free(vec->v);
  memset(vec, 0, sizeof *vec);
}

static int cmp_u32(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return (x > y) - (x < y);
}

size_t weir_llvm_sort_unique_u32(uint32_t *v, size_t n) {
  if (n < 2) return n;
  qsort(v, n, sizeof *v, cmp_u32);
  size_t w = 1;
  for (size_t r = 1; r < n; ++r)
    if (v[r] != v[w - 1]) v[w++] = v[r];
  return w;
}

void weir_llvm_vec_sort_unique(weir_llvm_vec *vec) { vec->n = weir_llvm_sort_unique_u32(vec->v, vec->n); }

static int cmp_pair(const void *a, const void *b) {
  const uint32_t *x = a, *y = b;
  return x[0] != y[0] ? (x[0] > y[0]) - (x[0] < y[0]) : (x[1] > y[1]) - (x[1] < y[1]);
}

void weir_llvm_vec_sort_pairs(weir_llvm_vec *vec) {
  size_t pairs = vec->n / 2;
  if (pairs < 2) return;
  qsort(vec->v, pairs, 2 * sizeof *vec->v, cmp_pair);
  size_t w = 1;
  for (size_t r = 1; r < pairs; ++r)
    if (vec->v[2 * r] != vec->v[2 * w - 2] || vec->v[2 * r + 1] != vec->v[2 * w - 1]) {
      vec->v[2 * w] = vec->v[2 * r];
      vec->v[2 * w + 1] = vec->v[2 * r + 1];
      ++w;
    }
  vec->n = 2 * w;
}

static int text_reserve(weir_llvm_text *text, size_t extra) {
  if (text->failed) return 0;
  if (text->n + extra + 1 <= text->cap) return 1;
  size_t cap = text->cap ? text->cap : 4096;
  while (cap < text->n + extra + 1) cap *= 2;
  char *p = realloc(text->p, cap);
  if (!p) {
    text->failed = 1;
    return 0;
  }
  text->p = p;
  text->cap = cap;
  return 1;
}

void weir_llvm_text_put(weir_llvm_text *text, const char *s, size_t length) {
  if (!text_reserve(text, length)) return;
  memcpy(text->p + text->n, s, length);
  text->n += length;
  text->p[text->n] = '\0';
}

void weir_llvm_text_printf(weir_llvm_text *text, const char *fmt, ...) {
  char small[256];
  va_list ap;
  va_start(ap, fmt);
  int len = vsnprintf(small, sizeof small, fmt, ap);
  va_end(ap);
  if (len < 0) {
    text->failed = 1;
    return;
  }
  if ((size_t)len < sizeof small) {
    weir_llvm_text_put(text, small, (size_t)len);
    return;
  }
  if (!text_reserve(text, (size_t)len)) return;
  va_start(ap, fmt);
  vsnprintf(text->p + text->n, (size_t)len + 1, fmt, ap);
  va_end(ap);
  text->n += (size_t)len;
}

void weir_llvm_text_free(weir_llvm_text *text) {
  free(text->p);
  memset(text, 0, sizeof *text);
}

static size_t hash_ptr(const void *key, size_t cap) {
  uint64_t x = (uint64_t)(uintptr_t)key;
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdull;
  x ^= x >> 33;
  return (size_t)x & (cap - 1);
}

static int map_grow(weir_llvm_map *map) {
  size_t cap = map->cap ? map->cap * 2 : 256;
  const void **keys = calloc(cap, sizeof *keys);
  uint32_t *values = calloc(cap, sizeof *values);
  if (!keys || !values) {
    free(keys);
    free(values);
    map->failed = 1;
    return 0;
  }
  for (size_t i = 0; i < map->cap; ++i) {
    if (!map->keys[i]) continue;
    size_t h = hash_ptr(map->keys[i], cap);
    while (keys[h]) h = (h + 1) & (cap - 1);
    keys[h] = map->keys[i];
    values[h] = map->values[i];
  }
  free(map->keys);
  free(map->values);
  map->keys = keys;
  map->values = values;
  map->cap = cap;
  return 1;
}

void weir_llvm_map_put(weir_llvm_map *map, const void *key, uint32_t value) {
  if (map->failed) return;
  if ((map->count + 1) * 2 > map->cap && !map_grow(map)) return;
  size_t h = hash_ptr(key, map->cap);
  while (map->keys[h] && map->keys[h] != key) h = (h + 1) & (map->cap - 1);
  if (!map->keys[h]) map->count++;
  map->keys[h] = key;
  map->values[h] = value;
}

uint32_t weir_llvm_map_get(const weir_llvm_map *map, const void *key) {
  if (!map->cap || !key) return UINT32_MAX;
  size_t h = hash_ptr(key, map->cap);
  while (map->keys[h]) {
    if (map->keys[h] == key) return map->values[h];
    h = (h + 1) & (map->cap - 1);
  }
  return UINT32_MAX;
}

void weir_llvm_map_free(weir_llvm_map *map) {
  free(map->keys);
  free(map->values);
  memset(map, 0, sizeof *map);
}

char *weir_llvm_strndup(const char *s, size_t length, int *failed) {
  char *copy = malloc(length + 1);
  if (!copy) {
    *failed = 1;
    return NULL;
  }
  if (length) memcpy(copy, s, length);
  copy[length] = '\0';
  return copy;
}

int weir_llvm_vec_contains(const weir_llvm_vec *sorted, uint32_t value) {
  size_t lo = 0, hi = sorted->n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (sorted->v[mid] < value) lo = mid + 1;
    else hi = mid;
  }
  return lo < sorted->n && sorted->v[lo] == value;
}
