/* Bitsets for the solver's points-to sets: sorted 64-bit blocks (base =
 * location / 64). Merging a delta of d blocks into a set of n blocks costs
 * d searches when nothing new needs a block of its own, and one merge
 * otherwise, instead of n + d steps for every delta: the solver merges
 * small deltas into big sets millions of times. A set with at least as
 * many elements as the blocks its range spans is kept dense (every block
 * of the range present, empty ones too): a search is then an index, and it
 * takes at most 8 bytes per element. Empty blocks are allowed anywhere.
 * Allocation failure sets m->failed and leaves the set as it was. */
#include <stdlib.h>
#include <string.h>

#include "frontends/llvm/memory/pta.h"

/* One allocation per set: `cap` words, then `cap` bases. */
static int reserve(weir_llvm_memory *m, pta_bits *s, uint32_t need) {
  if (need <= s->cap) return 1;
  if (m->failed) return 0;
  uint32_t cap = s->cap ? s->cap : 2;
  while (cap < need) cap *= 2;
  uint64_t *word = realloc(s->word, (size_t)cap * (sizeof *s->word + sizeof *s->base));
  if (!word) {
    m->failed = 1;
    return 0;
  }
  uint32_t *base = (uint32_t *)(word + cap);
  memmove(base, (uint32_t *)(word + s->cap), (size_t)s->n * sizeof *base); /* the bases move up */
  s->word = word;
  s->base = base;
  s->cap = cap;
  return 1;
}

/* The first block at or after `from` whose base is not below `base`. */
static uint32_t find_block(const pta_bits *s, uint32_t from, uint32_t base) {
  if (s->dense) {
    if (s->n == 0 || base <= s->base[0]) return from;
    uint32_t at = base - s->base[0];
    return at < s->n ? (at > from ? at : from) : s->n;
  }
  uint32_t lo = from, hi = s->n;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (s->base[mid] < base) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

static void append(weir_llvm_memory *m, pta_bits *s, uint32_t base, uint64_t word) {
  s->dense = 0;
  if (!reserve(m, s, s->n + 1)) return;
  s->base[s->n] = base;
  s->word[s->n++] = word;
  s->count += (uint32_t)__builtin_popcountll(word);
}

int pta_bits_add(weir_llvm_memory *m, pta_bits *s, uint32_t value) {
  uint32_t at = s->n && s->base[s->n - 1] < value / 64 ? s->n : find_block(s, 0, value / 64);
  uint64_t bit = 1ull << (value % 64);
  if (at < s->n && s->base[at] == value / 64) {
    if (s->word[at] & bit) return 0;
    s->word[at] |= bit;
    s->count++;
    return 1;
  }
  if (!reserve(m, s, s->n + 1)) return 0;
  s->dense = 0; /* a block outside the range */
  memmove(s->base + at + 1, s->base + at, (size_t)(s->n - at) * sizeof *s->base);
  memmove(s->word + at + 1, s->word + at, (size_t)(s->n - at) * sizeof *s->word);
  s->base[at] = value / 64;
  s->word[at] = bit;
  s->n++;
  s->count++;
  return 1;
}

/* Fills the gaps of the range when the set is dense enough (see above). */
static void densify(weir_llvm_memory *m, pta_bits *s) {
  if (s->dense || s->n < 4) return;
  uint32_t first = s->base[0], range = s->base[s->n - 1] - first + 1;
  if (range > s->count || !reserve(m, s, range)) return;
  /* back to front: a block only moves up, over slots already read */
  for (uint32_t k = s->n, hi = range; k-- > 0;) {
    uint32_t to = s->base[k] - first;
    for (uint32_t j = to + 1; j < hi; ++j) s->word[j] = 0;
    s->word[to] = s->word[k];
    hi = to;
  }
  for (uint32_t k = 0; k < range; ++k) s->base[k] = first + k;
  s->n = range;
  s->dense = 1;
}

void pta_bits_clear(pta_bits *s) { s->n = s->count = s->dense = 0; }

void pta_bits_from_sorted(weir_llvm_memory *m, pta_bits *s, const uint32_t *v, uint32_t n) {
  pta_bits_clear(s);
  for (uint32_t k = 0; k < n;) {
    uint32_t base = v[k] / 64;
    uint64_t word = 0;
    for (; k < n && v[k] / 64 == base; ++k) word |= 1ull << (v[k] % 64);
    append(m, s, base, word);
  }
}

void pta_bits_to_sorted(weir_llvm_memory *m, const pta_bits *s, pta_set *out) {
  out->n = 0;
  for (uint32_t k = 0; k < s->n; ++k)
    for (uint64_t w = s->word[k]; w; w &= w - 1) pta_set_push(m, out, s->base[k] * 64 + (uint32_t)__builtin_ctzll(w));
}

static void note_added(pta_bits *added, uint32_t base, uint64_t fresh) {
  added->base[added->n] = base;
  added->word[added->n++] = fresh;
  added->count += (uint32_t)__builtin_popcountll(fresh);
}

static uint64_t or_word(pta_bits *to, uint32_t at, uint64_t word) {
  uint64_t fresh = word & ~to->word[at];
  to->word[at] |= fresh;
  if (fresh) to->count += (uint32_t)__builtin_popcountll(fresh);
  return fresh;
}

/* A dense `to` whose range holds every block of `from`: indexing only. */
static int union_dense(pta_bits *to, const pta_bits *from, pta_bits *added) {
  if (!to->dense || !to->n || from->base[0] < to->base[0] || from->base[from->n - 1] - to->base[0] >= to->n) return 0;
  uint32_t first = to->base[0];
  for (uint32_t k = 0; k < from->n; ++k) {
    uint64_t fresh = or_word(to, from->base[k] - first, from->word[k]);
    if (fresh && added) note_added(added, from->base[k], fresh);
  }
  return 1;
}

/* A few blocks into a big set: search each, insert the missing ones. */
static void union_search(weir_llvm_memory *m, pta_bits *to, const pta_bits *from, pta_bits *added) {
  for (uint32_t k = 0, at = 0; k < from->n && !m->failed; ++k) {
    if (!from->word[k]) continue;
    at = find_block(to, at, from->base[k]);
    if (at == to->n || to->base[at] != from->base[k]) {
      if (!reserve(m, to, to->n + 1)) return;
      memmove(to->base + at + 1, to->base + at, (size_t)(to->n - at) * sizeof *to->base);
      memmove(to->word + at + 1, to->word + at, (size_t)(to->n - at) * sizeof *to->word);
      to->base[at] = from->base[k];
      to->word[at] = 0;
      to->n++;
      to->dense = 0;
    }
    uint64_t fresh = or_word(to, at, from->word[k]);
    if (fresh && added) note_added(added, from->base[k], fresh);
  }
}

/* Blocks of `from` (non-empty ones) that `to` lacks, by one walk. */
static uint32_t missing_blocks(const pta_bits *to, const pta_bits *from) {
  uint32_t missing = 0;
  for (uint32_t k = 0, at = 0; k < from->n; ++k) {
    if (!from->word[k]) continue;
    while (at < to->n && to->base[at] < from->base[k]) ++at;
    missing += at == to->n || to->base[at] != from->base[k];
  }
  return missing;
}

/* Merges from the back so that `to` grows in place; what is new goes to
 * the end of `added` back to front and is reversed after. */
static void union_merge(weir_llvm_memory *m, pta_bits *to, const pta_bits *from, pta_bits *added) {
  uint32_t missing = missing_blocks(to, from);
  if (!reserve(m, to, to->n + missing)) return;
  uint32_t first_added = added ? added->n : 0;
  int64_t r = (int64_t)to->n - 1, k = (int64_t)from->n - 1, w = (int64_t)to->n + missing - 1;
  while (k >= 0) {
    if (!from->word[k]) {
      --k;
      continue;
    }
    if (r >= 0 && to->base[r] > from->base[k]) {
      to->base[w] = to->base[r];
      to->word[w--] = to->word[r--];
      continue;
    }
    uint64_t old = r >= 0 && to->base[r] == from->base[k] ? to->word[r--] : 0;
    uint64_t fresh = from->word[k] & ~old;
    to->base[w] = from->base[k];
    to->word[w--] = old | fresh;
    if (fresh) {
      to->count += (uint32_t)__builtin_popcountll(fresh);
      if (added) note_added(added, from->base[k], fresh);
    }
    --k;
  }
  to->n += missing;
  if (missing) to->dense = 0;
  for (uint32_t i = first_added, j = added ? added->n : 0; added && i + 1 < j; ++i, --j) {
    uint32_t b = added->base[i];
    uint64_t x = added->word[i];
    added->base[i] = added->base[j - 1];
    added->word[i] = added->word[j - 1];
    added->base[j - 1] = b;
    added->word[j - 1] = x;
  }
}

uint32_t pta_bits_union(weir_llvm_memory *m, pta_bits *to, const pta_bits *from, pta_bits *added) {
  if (from->n == 0) return 0;
  if (added && !reserve(m, added, added->n + from->n)) return 0;
  uint32_t before = to->count, blocks = to->n;
  if (union_dense(to, from, added)) return to->count - before;
  if ((uint64_t)from->n * 16 < to->n) union_search(m, to, from, added);
  else union_merge(m, to, from, added);
  if (to->n != blocks) densify(m, to);
  return to->count - before;
}

void pta_bits_diff(weir_llvm_memory *m, pta_bits *out, const pta_bits *a, const pta_bits *b) {
  pta_bits_clear(out);
  if (!reserve(m, out, a->n)) return;
  for (uint32_t k = 0, at = 0; k < a->n; ++k) {
    if (!a->word[k]) continue;
    at = find_block(b, at, a->base[k]);
    uint64_t word = a->word[k] & ~(at < b->n && b->base[at] == a->base[k] ? b->word[at] : 0);
    if (word) note_added(out, a->base[k], word);
  }
}

int pta_bits_meet(const pta_bits *a, const pta_bits *b) {
  for (uint32_t k = 0, at = 0; k < a->n && at < b->n; ++k) {
    if (!a->word[k]) continue;
    at = find_block(b, at, a->base[k]);
    if (at < b->n && b->base[at] == a->base[k] && (a->word[k] & b->word[at])) return 1;
  }
  return 0;
}

void pta_bits_free(pta_bits *s) {
  free(s->word); /* the bases live in the same block */
  memset(s, 0, sizeof *s);
}
