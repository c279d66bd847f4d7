/* The reference solver's hash tables. */
#include "engine/ifds/tables.h"

#include "engine/ifds/builder.h"

#include <stdlib.h>
#include <string.h>

static weir_status oom(size_t bytes) {
  return weir_fail(WEIR_ERR_OUT_OF_MEMORY,
                   "allocating %zu bytes for a solver table failed. Fix: "
                   "free memory or solve a smaller problem.",
                   bytes);
}

/* The path-edge set doubles: before it takes `bytes` more (16 MiB and up),
 * the memory the process may still use is checked (ifds_memory_budget:
 * MemAvailable, ulimit -v, ulimit -d). Linux lets malloc promise more than
 * there is, so without this a problem too big for the machine runs until
 * the OOM killer ends it (ocamlrun's taint problem: 12 minutes, 22 GB). */
static weir_status fits(const ifds_triple_set *s, size_t bytes) {
  if (bytes < ((size_t)16 << 20)) return WEIR_OK;
  const char *source = NULL;
  uint64_t budget = ifds_memory_budget(&source);
  /* Half: the worklist and the summaries grow with the path edges too. */
  if (bytes <= budget / 2) return WEIR_OK;
  return weir_fail(WEIR_ERR_OUT_OF_MEMORY,
                   "the solver's path-edge set holds %zu path edges and must grow by %.2f GiB, more than "
                   "half of %s (%.2f GiB; the worklist grows with it): the problem does not fit this "
                   "machine. " IFDS_TOO_BIG_FIX,
                   s->count, (double)bytes / (1u << 30), source, (double)budget / (1u << 30));
}

void ifds_triple_set_pack(ifds_triple_set *s, uint32_t a_bits, uint32_t bc_bits) {
  s->bc_bits = bc_bits >= 1 && a_bits + 2u * bc_bits <= 63u ? bc_bits : 0u;
}

/* Slots past cap: far more than any probe run at 3/4 load needs. */
static size_t pad_for(size_t cap) { return 64u + cap / 32u; }

/* Puts a word that is not in the table at the first empty slot from its
 * home; 0 when the run reaches the end of the pad. */
static int packed_place(uint64_t *words, size_t cap, size_t end, uint64_t w) {
  for (size_t j = ifds_packed_hash(w) & (cap - 1); j < end; ++j)
    if (words[j] == UINT64_MAX) {
      words[j] = w;
      return 1;
    }
  return 0;
}

/* Doubles the table in place: realloc (mremap for big tables, so the old
 * and the new table never coexist) and one pass that moves every entry to
 * its slot under the new mask. An entry's new home is its old home h or
 * h + old cap. Taken in increasing slot order, an entry from slot p homed
 * at h stops at or before p (every slot below p is already rehashed or
 * empty), and one homed at h + old cap meets rehashed entries only: no
 * entry is placed past one that has yet to move, so every probe run stays
 * intact. The old pad's entries, whose homes lie below them, are set aside
 * first and placed last. */
static weir_status packed_grow(ifds_triple_set *s) {
  size_t old = s->cap, old_end = old + s->pad;
  size_t cap = old ? old * 2u : 1024u, pad = pad_for(cap), end = cap + pad;
  uint64_t *side = old ? malloc((old_end - old) * sizeof *side) : NULL;
  size_t side_count = 0;
  if (old && !side) return oom((old_end - old) * sizeof *side);
  weir_status budget = fits(s, (end - old_end) * sizeof(uint64_t));
  if (budget) {
    free(side);
    return budget;
  }
  for (size_t j = old; j < old_end; ++j)
    if (s->words[j] != UINT64_MAX) side[side_count++] = s->words[j];
  uint64_t *words = realloc(s->words, end * sizeof *words);
  if (!words) {
    free(side);
    return oom(end * sizeof *words);
  }
  memset(words + old, 0xff, (end - old) * sizeof *words);
  s->words = words;
  s->cap = cap;
  s->pad = pad;
  int placed = 1;
  for (size_t p = 0; p < old && placed; ++p) {
    uint64_t w = words[p];
    if (w == UINT64_MAX) continue;
    words[p] = UINT64_MAX;
    placed = packed_place(words, cap, end, w);
  }
  for (size_t i = 0; i < side_count && placed; ++i) placed = packed_place(words, cap, end, side[i]);
  free(side);
  if (!placed)
    return weir_fail(WEIR_ERR_INTERNAL,
                     "reference solver: a probe run of the path-edge set passed its %zu spare "
                     "slots while growing to %zu slots. Fix: report this bug with the problem.",
                     pad, cap);
  return WEIR_OK;
}

static weir_status packed_add(ifds_triple_set *s, uint64_t w, int *added) {
  if (!s->cap || (s->count + 1) * 4u > s->cap * 3u) WEIR_TRY(packed_grow(s));
  for (;;) {
    size_t end = s->cap + s->pad;
    for (size_t j = ifds_packed_hash(w) & (s->cap - 1); j < end; ++j) {
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
    WEIR_TRY(packed_grow(s)); /* the run reached the end of the pad */
  }
}

static weir_status triple_grow(ifds_triple_set *s) {
  size_t cap = s->cap ? s->cap * 2 : 1024;
  WEIR_TRY(fits(s, cap * 3 * sizeof(uint32_t)));
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
  if (s->bc_bits) return packed_add(s, ifds_triple_word(s, a, b, c), added);
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
  if (s->bc_bits) {
    uint64_t w = s->words[i], mask = (1ull << s->bc_bits) - 1u;
    if (w == UINT64_MAX) return 0;
    *a = (uint32_t)(w >> (2u * s->bc_bits));
    *b = (uint32_t)((w >> s->bc_bits) & mask);
    *c = (uint32_t)(w & mask);
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
