/* Sorted uint32 sets and a uint64 -> uint32 hash map for the points-to
 * solver. Allocation failure sets m->failed and leaves the set as it was,
 * so the build checks once at the end. */
#include <stdlib.h>
#include <string.h>

#include "frontends/llvm/memory/pta.h"

static int reserve(weir_llvm_memory *m, pta_set *s, uint32_t need) {
  if (need <= s->cap) return 1;
  if (m->failed) return 0;
  uint32_t cap = s->cap ? s->cap : 4;
  while (cap < need) cap *= 2;
  uint32_t *v = realloc(s->v, (size_t)cap * sizeof *v);
  if (!v) {
    m->failed = 1;
    return 0;
  }
  s->v = v;
  s->cap = cap;
  return 1;
}

void pta_set_push(weir_llvm_memory *m, pta_set *s, uint32_t value) {
  if (reserve(m, s, s->n + 1)) s->v[s->n++] = value;
}

static uint32_t lower_bound(const pta_set *s, uint32_t value) {
  uint32_t lo = 0, hi = s->n;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (s->v[mid] < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

int pta_set_insert(weir_llvm_memory *m, pta_set *s, uint32_t value) {
  uint32_t at = lower_bound(s, value);
  if (at < s->n && s->v[at] == value) return 0;
  if (!reserve(m, s, s->n + 1)) return 0;
  memmove(s->v + at + 1, s->v + at, (size_t)(s->n - at) * sizeof *s->v);
  s->v[at] = value;
  s->n++;
  return 1;
}

void pta_set_sort_unique(pta_set *s) { s->n = (uint32_t)weir_llvm_sort_unique_u32(s->v, s->n); }

void pta_set_free(pta_set *s) {
  free(s->v);
  memset(s, 0, sizeof *s);
}

static size_t hash_u64(uint64_t x, size_t cap) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdull;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ull;
  x ^= x >> 33;
  return (size_t)x & (cap - 1);
}

static int map_grow(weir_llvm_memory *m, pta_map *map) {
  size_t cap = map->cap ? map->cap * 2 : 1024;
  uint64_t *keys = malloc(cap * sizeof *keys);
  uint32_t *values = malloc(cap * sizeof *values);
  if (!keys || !values) {
    free(keys);
    free(values);
    m->failed = 1;
    return 0;
  }
  memset(keys, 0xff, cap * sizeof *keys);
  for (size_t i = 0; i < map->cap; ++i) {
    if (map->keys[i] == UINT64_MAX) continue;
    size_t h = hash_u64(map->keys[i], cap);
    while (keys[h] != UINT64_MAX) h = (h + 1) & (cap - 1);
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

uint32_t pta_map_get(const pta_map *map, uint64_t key) {
  if (!map->cap) return PTA_NONE;
  size_t h = hash_u64(key, map->cap);
  while (map->keys[h] != UINT64_MAX) {
    if (map->keys[h] == key) return map->values[h];
    h = (h + 1) & (map->cap - 1);
  }
  return PTA_NONE;
}

void pta_map_put(weir_llvm_memory *m, pta_map *map, uint64_t key, uint32_t value) {
  if ((map->count + 1) * 2 > map->cap && !map_grow(m, map)) return;
  size_t h = hash_u64(key, map->cap);
  while (map->keys[h] != UINT64_MAX && map->keys[h] != key) h = (h + 1) & (map->cap - 1);
  if (map->keys[h] == UINT64_MAX) map->count++;
  map->keys[h] = key;
  map->values[h] = value;
}

void pta_map_free(pta_map *map) {
  free(map->keys);
  free(map->values);
  memset(map, 0, sizeof *map);
}
