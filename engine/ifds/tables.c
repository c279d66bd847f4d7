/* The reference solver's hash tables. */
#include "engine/ifds/tables.h"

#include <stdlib.h>
#include <string.h>

static weir_status oom(size_t bytes) {
  return weir_fail(WEIR_ERR_OUT_OF_MEMORY,
                   "allocating %zu bytes for a solver table failed. Fix: "
                   "free memory or solve a smaller problem.",
                   bytes);
}

static weir_status packed_grow(ifds_triple_set *s) {
  size_t cap = s->cap ? s->cap * 2 : 1024;
  uint64_t *words = aligned_alloc(64, cap * sizeof *words); /* 8 slots per cache line */
  if (!words) return oom(cap * sizeof *words);
  memset(words, 0xff, cap * sizeof *words);
  for (size_t i = 0; i < s->cap; ++i) {
    uint64_t w = s->words[i];
    if (w == UINT64_MAX) continue;
    size_t j = ifds_packed_hash(w) & (cap - 1);
    while (words[j] != UINT64_MAX) j = (j + 1) & (cap - 1);
    words[j] = w;
  }
  free(s->words);
  s->words = words;
  s->cap = cap;
  return WEIR_OK;
}

static weir_status packed_add(ifds_triple_set *s, uint64_t w, int *added) {
  if ((s->count + 1) * 2 > s->cap) WEIR_TRY(packed_grow(s));
  size_t mask = s->cap - 1;
  for (size_t j = ifds_packed_hash(w) & mask;; j = (j + 1) & mask) {
    if (s->words[j] == w) {
      *added = 0;
      return WEIR_OK;
    }
    if (s->words[j] == UINT64_MAX) {
      s->words[j] = w;
      s->count++;
      *added = 1;
      return WEIR_OK;
    }
  }
}

static weir_status triple_grow(ifds_triple_set *s) {
  size_t cap = s->cap ? s->cap * 2 : 1024;
  uint32_t *slots = malloc(cap * 3 * sizeof *slots);
  if (!slots) return oom(cap * 3 * sizeof *slots);
  memset(slots, 0xff, cap * 3 * sizeof *slots);
  for (size_t i = 0; i < s->cap; ++i) {
    const uint32_t *t = s->slots + 3 * i;
    if (t[0] == UINT32_MAX) continue;
    size_t j = ifds_triple_hash(t[0], t[1], t[2]) & (cap - 1);
    while (slots[3 * j] != UINT32_MAX) j = (j + 1) & (cap - 1);
    memcpy(slots + 3 * j, t, 3 * sizeof *t);
  }
  free(s->slots);
  s->slots = slots;
  s->cap = cap;
  return WEIR_OK;
}

weir_status ifds_triple_set_add(ifds_triple_set *s, uint32_t a, uint32_t b, uint32_t c,
                                int *added) {
  if (s->packed) return packed_add(s, (uint64_t)a << 32 | (uint64_t)b << 16 | c, added);
  if ((s->count + 1) * 2 > s->cap) WEIR_TRY(triple_grow(s));
  size_t mask = s->cap - 1;
  for (size_t j = ifds_triple_hash(a, b, c) & mask;; j = (j + 1) & mask) {
    uint32_t *t = s->slots + 3 * j;
    if (t[0] == UINT32_MAX) {
      t[0] = a, t[1] = b, t[2] = c;
      s->count++;
      *added = 1;
      return WEIR_OK;
    }
    if (t[0] == a && t[1] == b && t[2] == c) {
      *added = 0;
      return WEIR_OK;
    }
  }
}

int ifds_triple_set_at(const ifds_triple_set *s, size_t i, uint32_t *a, uint32_t *b, uint32_t *c) {
  if (s->packed) {
    uint64_t w = s->words[i];
    if (w == UINT64_MAX) return 0;
    *a = (uint32_t)(w >> 32), *b = (uint32_t)(w >> 16) & 0xffff, *c = (uint32_t)w & 0xffff;
    return 1;
  }
  const uint32_t *t = s->slots + 3 * i;
  if (t[0] == UINT32_MAX) return 0;
  *a = t[0], *b = t[1], *c = t[2];
  return 1;
}

void ifds_triple_set_free(ifds_triple_set *s) {
  free(s->words);
  free(s->slots);
  memset(s, 0, sizeof *s);
}

static weir_status map_grow(ifds_map *m) {
  size_t cap = m->cap ? m->cap * 2 : 1024;
  uint64_t *keys = malloc(cap * sizeof *keys);
  uint32_t *values = malloc(cap * sizeof *values);
  if (!keys || !values) {
    free(keys);
    free(values);
    return oom(cap * (sizeof *keys + sizeof *values));
  }
  memset(keys, 0xff, cap * sizeof *keys);
  for (size_t i = 0; i < m->cap; ++i) {
    if (m->keys[i] == UINT64_MAX) continue;
    size_t j = ifds_mix64(m->keys[i]) & (cap - 1);
    while (keys[j] != UINT64_MAX) j = (j + 1) & (cap - 1);
    keys[j] = m->keys[i];
    values[j] = m->values[i];
  }
  free(m->keys);
  free(m->values);
  m->keys = keys;
  m->values = values;
  m->cap = cap;
  return WEIR_OK;
}

uint32_t *ifds_map_find(const ifds_map *m, uint64_t key) {
  if (!m->cap) return NULL;
  size_t mask = m->cap - 1;
  for (size_t j = ifds_mix64(key) & mask;; j = (j + 1) & mask) {
    if (m->keys[j] == key) return &m->values[j];
    if (m->keys[j] == UINT64_MAX) return NULL;
  }
}

weir_status ifds_map_upsert(ifds_map *m, uint64_t key, uint32_t fresh, uint32_t **value,
                            int *added) {
  if ((m->count + 1) * 2 > m->cap) WEIR_TRY(map_grow(m));
  size_t mask = m->cap - 1;
  size_t j = ifds_mix64(key) & mask;
  for (; m->keys[j] != UINT64_MAX; j = (j + 1) & mask)
    if (m->keys[j] == key) {
      *value = &m->values[j];
      *added = 0;
      return WEIR_OK;
    }
  m->keys[j] = key;
  m->values[j] = fresh;
  m->count++;
  *value = &m->values[j];
  *added = 1;
  return WEIR_OK;
}

void ifds_map_free(ifds_map *m) {
  free(m->keys);
  free(m->values);
  memset(m, 0, sizeof *m);
}
