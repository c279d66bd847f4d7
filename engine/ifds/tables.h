/* Hash tables of the reference solver: open addressing, linear probing,
 * so every operation is expected O(1). The maps grow at half load; the
 * path-edge set, which holds most of the solver's memory, at 3/4 and in
 * place (see tables.c). */
#ifndef WEIR_ENGINE_IFDS_TABLES_H
#define WEIR_ENGINE_IFDS_TABLES_H

#include "engine/ifds/internal.h"

/* A set of (a, b, c) triples with a != UINT32_MAX (the empty mark). When
 * a fits `a_bits` and b and c fit `bc_bits` with a_bits + 2 bc_bits <= 63
 * (ifds_triple_set_pack, before the first insertion), a triple is one
 * 64-bit word and eight neighbouring slots fill one cache line; otherwise
 * it takes three 32-bit words.
 *
 * The packed table never wraps around: a probe run may go on into `pad`
 * slots past `cap`, and a run that reaches the end grows the table. That
 * is what lets it grow in place (tables.c). */
typedef struct ifds_triple_set {
  uint32_t bc_bits; /* packed: b and c take bc_bits each; 0: not packed */
  uint64_t *words;  /* packed: a << 2 bc_bits | b << bc_bits | c; UINT64_MAX when empty */
  uint32_t *slots;  /* not packed: 3 per slot */
  size_t cap, count;
  size_t pad; /* packed: slots past cap */
} ifds_triple_set;

/* Packs triples into one word when the widths allow (a < 2^a_bits, b and c
 * < 2^bc_bits); otherwise the set keeps three words per triple. */
void ifds_triple_set_pack(ifds_triple_set *s, uint32_t a_bits, uint32_t bc_bits);

/* The Fix of the messages that stop a solver whose tables outgrow the
 * memory left (tables.c, reference.c). */
#define IFDS_TOO_BIG_FIX                                                                              \
  "Fix: solve it where more memory is free, or solve a smaller problem (weir analyze: fewer "        \
  "modules, or the uninit or uaf analysis, whose problems are smaller than taint's)."
static inline uint64_t ifds_triple_word(const ifds_triple_set *s, uint32_t a, uint32_t b,
                                        uint32_t c) {
  return (uint64_t)a << (2u * s->bc_bits) | (uint64_t)b << s->bc_bits | c;
}
/* Slots to visit (cap, plus the pad when packed). */
static inline size_t ifds_triple_set_slots(const ifds_triple_set *s) { return s->cap + s->pad; }
/* Bytes the set's slots take (one word per triple packed, else three). */
static inline uint64_t ifds_triple_set_bytes(const ifds_triple_set *s) {
  return (uint64_t)ifds_triple_set_slots(s) * (s->bc_bits ? sizeof(uint64_t) : 3 * sizeof(uint32_t));
}

/* Inserts; *added is 1 when the triple was new. */
weir_status ifds_triple_set_add(ifds_triple_set *s, uint32_t a, uint32_t b, uint32_t c, int *added);
/* Triples that differ only in the low 3 bits of c hash to neighbouring
 * slots: the facts a node gets together mostly land in one or two cache
 * lines, which is what makes the solver's inserts cheap (they are cache
 * misses otherwise). Each run of neighbours is at most 8 long, so probe
 * sequences stay short. */
static inline uint64_t ifds_triple_hash(uint32_t a, uint32_t b, uint32_t c) {
  uint64_t h = ifds_mix64(((uint64_t)a << 32 | (c >> 3)) ^ ((uint64_t)b * 0x9e3779b97f4a7c15ull));
  return (h & ~(uint64_t)7) + (c & 7);
}

static inline uint64_t ifds_packed_hash(uint64_t w) {
  return (ifds_mix64(w >> 3) & ~(uint64_t)7) + (w & 7); /* same idea as triple_hash */
}

/* Starts loading the slot of (a, b, c) into the cache: the solver
 * prefetches a step's candidates before inserting them, so that their cache
 * misses overlap instead of queueing one after the other. */
static inline void ifds_triple_set_prefetch(const ifds_triple_set *s, uint32_t a, uint32_t b,
                                            uint32_t c) {
  if (!s->cap) return;
  size_t mask = s->cap - 1;
  if (s->bc_bits)
    __builtin_prefetch(s->words + (ifds_packed_hash(ifds_triple_word(s, a, b, c)) & mask));
  else
    __builtin_prefetch(s->slots + 3 * (ifds_triple_hash(a, b, c) & mask));
}

/* Slot i (< ifds_triple_set_slots): 1 and the triple if it is occupied, else 0. */
int ifds_triple_set_at(const ifds_triple_set *s, size_t i, uint32_t *a, uint32_t *b, uint32_t *c);
void ifds_triple_set_free(ifds_triple_set *s);

/* A map from 64-bit keys (never UINT64_MAX) to uint32_t values. */
typedef struct ifds_map {
  uint64_t *keys;
  uint32_t *values;
  size_t cap, count;
} ifds_map;

/* The value of `key`, or NULL. */
uint32_t *ifds_map_find(const ifds_map *m, uint64_t key);
/* The value slot of `key`, inserted with `fresh` if absent (*added = 1).
 * The pointer is valid until the next insertion. */
weir_status ifds_map_upsert(ifds_map *m, uint64_t key, uint32_t fresh, uint32_t **value,
                            int *added);
void ifds_map_free(ifds_map *m);

static inline uint64_t ifds_key(uint32_t a, uint32_t b) { return (uint64_t)a << 32 | b; }

#endif
