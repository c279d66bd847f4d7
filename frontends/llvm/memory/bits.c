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

static int reserve(weir_llvm_memory *m, pta_bits *s, uint32_t need) {
  if (need <= s->cap) return 1;
  if (m->failed) return 0;
  uint32_t cap = s->cap ? s->cap : 2;
  while (cap < need) cap *= 2;
  uint32_t *base = realloc(s->base, (size_t)cap * sizeof *base);
  if (base) s->base = base;
  uint64_t *word = base ? realloc(s->word, (size_t)cap * sizeof *word) : NULL;
  if (word) s->word = word;
  if (!base || !word) {
    m->failed = 1;
    return 0;
  }
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

int pta_bits_has(const pta_bits *s, uint32_t value) {
  uint32_t at = find_block(s, 0, value / 64);
  return at < s->n && s->base[at] == value / 64 && (s->word[at] >> (value % 64) & 1);
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

/* Blocks of `from` that `to` lacks: found by search when from is small. */
static uint32_t missing_blocks(const pta_bits *to, const pta_bits *from) {
  uint32_t missing = 0, at = 0;
  int search = to->dense || (uint64_t)from->n * 8 < to->n;
  for (uint32_t k = 0; k < from->n; ++k) {
    if (!from->word[k]) continue;
    if (search) at = find_block(to, at, from->base[k]);
    else
      while (at < to->n && to->base[at] < from->base[k]) ++at;
    missing += at == to->n || to->base[at] != from->base[k];
  }
  return missing;
}

static void note_added(pta_bits *added, uint32_t base, uint64_t fresh) {
  added->base[added->n] = base;
  added->word[added->n++] = fresh;
  added->count += (uint32_t)__builtin_popcountll(fresh);
}

/* Every block of `from` has one in `to`. */
static void union_in_place(weir_llvm_memory *m, pta_bits *to, const pta_bits *from, pta_bits *added) {
  for (uint32_t k = 0, at = 0; k < from->n; ++k) {
    if (!from->word[k]) continue;
    at = find_block(to, at, from->base[k]);
    uint64_t fresh = from->word[k] & ~to->word[at];
    if (!fresh) continue;
    to->word[at] |= fresh;
    to->count += (uint32_t)__builtin_popcountll(fresh);
    if (added) note_added(added, from->base[k], fresh);
  }
  (void)m;
}

/* Merges from the back so that `to` grows in place; what is new goes to
 * the end of `added` back to front and is reversed after. */
static void union_merge(pta_bits *to, const pta_bits *from, uint32_t missing, pta_bits *added) {
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
    to->count += (uint32_t)__builtin_popcountll(fresh);
    if (fresh && added) note_added(added, from->base[k], fresh);
    --k;
  }
  to->n += missing;
  to->dense = 0;
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
  uint32_t before = to->count, missing = missing_blocks(to, from);
  if (added && !reserve(m, added, added->n + from->n)) return 0;
  if (missing == 0) {
    union_in_place(m, to, from, added);
    return to->count - before;
  }
  if (!reserve(m, to, to->n + missing)) return 0;
  union_merge(to, from, missing, added);
  densify(m, to);
  return to->count - before;
}

void pta_bits_free(pta_bits *s) {
  free(s->base);
  free(s->word);
  memset(s, 0, sizeof *s);
}
