/* Flow-function tokens: parse, canonicalize, intern. */
#include "engine/ifds/flows.h"

#include <stdlib.h>
#include <string.h>

typedef struct ifds_raw_entry {
  uint64_t hash;
  uint32_t offset; /* into the arena */
  uint32_t length;
  uint32_t flow; /* interned index + 1; 0 = empty slot */
} ifds_raw_entry;

enum { RAW_ARENA_LIMIT = 256u << 20 }; /* stop caching raw tokens past this */

void ifds_flow_table_init(ifds_flow_table *t) { memset(t, 0, sizeof *t); }

void ifds_flow_table_free(ifds_flow_table *t) {
  ifds_vec *vecs[] = {&t->identity,  &t->kill_offset, &t->kill_fact, &t->pair_offset,
                      &t->pair_from, &t->pair_to,     &t->kills};
  for (size_t i = 0; i < sizeof vecs / sizeof vecs[0]; ++i) ifds_vec_free(vecs[i]);
  free(t->slots);
  free(t->raw);
  free(t->arena);
  free(t->pairs);
  memset(t, 0, sizeof *t);
}

static weir_status oom(size_t bytes) {
  return weir_fail(WEIR_ERR_OUT_OF_MEMORY,
                   "allocating %zu bytes for the flow-function table failed. Fix: free memory.",
                   bytes);
}

/* ---- parsing one token into the scratch (kills, pairs) ------------------ */

static void set_error(ifds_flow_error *err, size_t offset, const char *what, const char *found,
                      size_t found_len, const char *expected, const char *fix) {
  err->offset = offset;
  err->what = what;
  size_t cap = sizeof err->found - 8;
  if (found_len > cap)
    snprintf(err->found, sizeof err->found, "'%.*s...'", (int)cap, found);
  else
    snprintf(err->found, sizeof err->found, "'%.*s'", (int)found_len, found);
  snprintf(err->expected, sizeof err->expected, "%s", expected);
  err->fix = fix;
}

/* A fact number of a term: `s` (n bytes) at `offset` in the token. */
static int parse_fact(const char *s, size_t n, size_t offset, uint32_t fact_count, uint32_t *out,
                      ifds_flow_error *err) {
  switch (ifds_parse_u32(s, n, out)) {
    case IFDS_NUMBER_OK: break;
    case IFDS_NUMBER_EMPTY:
      set_error(err, offset, "missing fact number in flow term", "", 0, "a fact number",
                "write terms as id, -D, A>B or none");
      snprintf(err->found, sizeof err->found, "nothing");
      return -1;
    case IFDS_NUMBER_NEGATIVE:
      set_error(err, offset, "negative fact number", s, n, "a number 0..4294967295",
                "facts are numbered from 0");
      return -1;
    case IFDS_NUMBER_NOT_DIGITS:
      set_error(err, offset, "malformed fact number", s, n, "digits 0-9",
                "write terms as id, -D, A>B or none");
      return -1;
    case IFDS_NUMBER_TOO_LARGE:
      set_error(err, offset, "number too large", s, n, "at most 4294967295",
                "use a fact below the `facts` count");
      return -1;
  }
  if (*out >= fact_count) {
    char expected[64];
    snprintf(expected, sizeof expected, "a fact in 0..%u", fact_count - 1);
    set_error(err, offset, "fact out of range", s, n, expected,
              "raise `facts` in the header or fix the fact number");
    return -1;
  }
  return 0;
}

static weir_status push_pair(ifds_flow_table *t, uint32_t from, uint32_t to) {
  if (t->pair_len == t->pair_cap) {
    size_t cap = t->pair_cap ? t->pair_cap * 2 : 16;
    uint64_t *p = realloc(t->pairs, cap * sizeof *p);
    if (!p) return oom(cap * sizeof *p);
    t->pairs = p;
    t->pair_cap = cap;
  }
  t->pairs[t->pair_len++] = (uint64_t)from << 32 | to;
  return WEIR_OK;
}

/* One comma-separated term at `offset` of the token. */
static weir_status parse_term(ifds_flow_table *t, const char *term, size_t n, size_t offset,
                              const char *token, size_t token_len, uint32_t fact_count,
                              int *identity, ifds_flow_error *err) {
  if (n == 0) {
    set_error(err, offset, "empty term in flow function", token, token_len,
              "a term (id, -D or A>B) between commas", "remove the extra comma");
    return WEIR_ERR_PARSE;
  }
  if (n == 2 && term[0] == 'i' && term[1] == 'd') {
    *identity = 1;
    return WEIR_OK;
  }
  if (n == 4 && memcmp(term, "none", 4) == 0) {
    set_error(err, offset, "`none` combined with other terms", token, token_len, "`none` alone",
              "drop `none`: the other terms already list what flows");
    return WEIR_ERR_PARSE;
  }
  const char *gt = memchr(term, '>', n);
  if (term[0] == '-' && !gt) {
    uint32_t d;
    if (!*identity) {
      set_error(err, offset, "kill without an earlier `id` term", term, n, "`id` before the kill",
                "write `id,-D` (a kill removes D from the identity)");
      return WEIR_ERR_PARSE;
    }
    if (parse_fact(term + 1, n - 1, offset + 1, fact_count, &d, err)) return WEIR_ERR_PARSE;
    if (d == 0) {
      set_error(err, offset, "the zero fact cannot be killed", term, n, "a kill of a non-zero fact",
                "remove `-0`: fact 0 flows along every edge");
      return WEIR_ERR_PARSE;
    }
    return ifds_vec_push(&t->kills, d);
  }
  if (!gt) {
    set_error(err, offset, "unknown flow term", term, n, "id, none, -D or A>B",
              "write terms as id, -D (kill), A>B (pair) or none");
    return WEIR_ERR_PARSE;
  }
  size_t left = (size_t)(gt - term);
  if (left == 0) {
    set_error(err, offset, "pair without a source fact", term, n, "A>B",
              "write the fact before '>' (0>B generates B)");
    return WEIR_ERR_PARSE;
  }
  if (left + 1 == n) {
    set_error(err, offset, "pair without a target fact", term, n, "A>B",
              "write the fact after '>'");
    return WEIR_ERR_PARSE;
  }
  uint32_t a, b;
  if (parse_fact(term, left, offset, fact_count, &a, err)) return WEIR_ERR_PARSE;
  if (parse_fact(gt + 1, n - left - 1, offset + left + 1, fact_count, &b, err))
    return WEIR_ERR_PARSE;
  if (b == 0 && a != 0) {
    set_error(err, offset, "only the zero fact flows into the zero fact", term, n,
              "A>B with B != 0, or 0>0", "remove the pair (0>0 is implied everywhere)");
    return WEIR_ERR_PARSE;
  }
  if (a == 0 && b == 0) return WEIR_OK; /* implied; not stored */
  return push_pair(t, a, b);
}

/* ---- canonical form and interning --------------------------------------- */

static int cmp_u32(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return (x > y) - (x < y);
}

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return (x > y) - (x < y);
}

/* Sorted and unique kills and pairs; with the identity, a pair d>d says d
 * flows to itself, which the identity already does unless d is killed; so
 * d>d is dropped and a kill of d with d>d cancels (one stored form per
 * function). */
static void canonicalize(ifds_flow_table *t, int identity) {
  ifds_vec *k = &t->kills;
  if (k->len > 1) qsort(k->data, k->len, sizeof(uint32_t), cmp_u32);
  size_t m = 0;
  for (size_t i = 0; i < k->len; ++i)
    if (m == 0 || k->data[m - 1] != k->data[i]) k->data[m++] = k->data[i];
  k->len = m;
  if (t->pair_len > 1) qsort(t->pairs, t->pair_len, sizeof(uint64_t), cmp_u64);
  m = 0;
  for (size_t i = 0; i < t->pair_len; ++i)
    if (m == 0 || t->pairs[m - 1] != t->pairs[i]) t->pairs[m++] = t->pairs[i];
  t->pair_len = m;
  if (!identity) return;
  /* Pairs come sorted by source, so a kill zeroed here is never searched
   * for again, and later searches (for larger values) still see the zeroed
   * entries on the correct side. */
  int cancelled = 0;
  m = 0;
  for (size_t i = 0; i < t->pair_len; ++i) {
    uint32_t a = (uint32_t)(t->pairs[i] >> 32), b = (uint32_t)t->pairs[i];
    if (a != b) {
      t->pairs[m++] = t->pairs[i];
      continue;
    }
    uint32_t *killed = k->len == 0 ? NULL : bsearch(&a, k->data, k->len, sizeof(uint32_t), cmp_u32);
    if (killed) {
      *killed = 0;
      cancelled = 1;
    }
  }
  t->pair_len = m;
  if (cancelled) { /* drop the cancelled kills (marked 0; 0 is never a kill) */
    size_t w = 0;
    for (size_t i = 0; i < k->len; ++i)
      if (k->data[i]) k->data[w++] = k->data[i];
    k->len = w;
  }
}

static uint64_t scratch_hash(const ifds_flow_table *t, int identity) {
  uint64_t h = ifds_mix64(0x51ed27ull + (uint64_t)identity);
  for (size_t i = 0; i < t->kills.len; ++i) h = ifds_mix64(h ^ t->kills.data[i]);
  h = ifds_mix64(h ^ 0xabcdefull);
  for (size_t i = 0; i < t->pair_len; ++i) h = ifds_mix64(h ^ t->pairs[i]);
  return h;
}

static int equals_stored(const ifds_flow_table *t, int identity, uint32_t f) {
  if ((int)t->identity.data[f] != identity) return 0;
  uint32_t k0 = t->kill_offset.data[f], k1 = t->kill_offset.data[f + 1];
  uint32_t p0 = t->pair_offset.data[f], p1 = t->pair_offset.data[f + 1];
  if (k1 - k0 != t->kills.len || p1 - p0 != t->pair_len) return 0;
  if (t->kills.len && memcmp(t->kill_fact.data + k0, t->kills.data, t->kills.len * 4)) return 0;
  for (size_t i = 0; i < t->pair_len; ++i)
    if (t->pair_from.data[p0 + i] != (uint32_t)(t->pairs[i] >> 32) ||
        t->pair_to.data[p0 + i] != (uint32_t)t->pairs[i])
      return 0;
  return 1;
}

static weir_status grow_slots(ifds_flow_table *t);

/* Stores the scratch function unless it is already there. */
static weir_status intern(ifds_flow_table *t, int identity, uint32_t *index) {
  if (t->identity.len * 2 >= t->slot_cap) WEIR_TRY(grow_slots(t));
  size_t mask = t->slot_cap - 1, i = scratch_hash(t, identity) & mask;
  for (; t->slots[i]; i = (i + 1) & mask)
    if (equals_stored(t, identity, t->slots[i] - 1)) {
      *index = t->slots[i] - 1;
      return WEIR_OK;
    }
  if (t->identity.len >= UINT32_MAX - 1)
    return weir_fail(WEIR_ERR_OUT_OF_RANGE,
                     "more than %u distinct flow functions. Fix: split "
                     "the problem.",
                     UINT32_MAX - 2);
  if (t->kill_fact.len + t->kills.len > UINT32_MAX || t->pair_from.len + t->pair_len > UINT32_MAX)
    return weir_fail(WEIR_ERR_OUT_OF_RANGE,
                     "the flow functions hold more than 2^32 kills or "
                     "pairs. Fix: split the problem.");
  uint32_t f = (uint32_t)t->identity.len;
  WEIR_TRY(ifds_vec_push(&t->identity, (uint32_t)identity));
  WEIR_TRY(ifds_vec_reserve(&t->kill_fact, t->kills.len));
  WEIR_TRY(ifds_vec_reserve(&t->pair_from, t->pair_len));
  WEIR_TRY(ifds_vec_reserve(&t->pair_to, t->pair_len));
  WEIR_TRY(ifds_vec_reserve(&t->kill_offset, 1));
  WEIR_TRY(ifds_vec_reserve(&t->pair_offset, 1));
  for (size_t k = 0; k < t->kills.len; ++k)
    t->kill_fact.data[t->kill_fact.len++] = t->kills.data[k];
  for (size_t k = 0; k < t->pair_len; ++k) {
    t->pair_from.data[t->pair_from.len++] = (uint32_t)(t->pairs[k] >> 32);
    t->pair_to.data[t->pair_to.len++] = (uint32_t)t->pairs[k];
  }
  t->kill_offset.data[t->kill_offset.len++] = (uint32_t)t->kill_fact.len;
  t->pair_offset.data[t->pair_offset.len++] = (uint32_t)t->pair_from.len;
  t->slots[i] = f + 1;
  *index = f;
  return WEIR_OK;
}

/* Rehashes into twice the slots (hashes recomputed from the stored form). */
static weir_status grow_slots(ifds_flow_table *t) {
  size_t cap = t->slot_cap ? t->slot_cap * 2 : 64;
  uint32_t *slots = calloc(cap, sizeof *slots);
  if (!slots) return oom(cap * sizeof *slots);
  if (t->kill_offset.len == 0) { /* first use: the offsets start with 0 */
    WEIR_TRY(ifds_vec_push(&t->kill_offset, 0));
    WEIR_TRY(ifds_vec_push(&t->pair_offset, 0));
  }
  for (uint32_t f = 0; f < t->identity.len; ++f) {
    /* the same hash as scratch_hash, over the stored form */
    uint32_t k0 = t->kill_offset.data[f], p0 = t->pair_offset.data[f];
    uint64_t h = ifds_mix64(0x51ed27ull + t->identity.data[f]);
    for (uint32_t k = k0; k < t->kill_offset.data[f + 1]; ++k)
      h = ifds_mix64(h ^ t->kill_fact.data[k]);
    h = ifds_mix64(h ^ 0xabcdefull);
    for (uint32_t k = p0; k < t->pair_offset.data[f + 1]; ++k)
      h = ifds_mix64(h ^ ((uint64_t)t->pair_from.data[k] << 32 | t->pair_to.data[k]));
    size_t i = h & (cap - 1);
    while (slots[i]) i = (i + 1) & (cap - 1);
    slots[i] = f + 1;
  }
  free(t->slots);
  t->slots = slots;
  t->slot_cap = cap;
  return WEIR_OK;
}

/* ---- raw-token cache ---------------------------------------------------- */

static ifds_raw_entry *raw_find(ifds_flow_table *t, const char *token, size_t n, uint64_t h) {
  if (!t->raw_cap) return NULL;
  size_t mask = t->raw_cap - 1;
  for (size_t i = h & mask;; i = (i + 1) & mask) {
    ifds_raw_entry *e = &t->raw[i];
    if (!e->flow) return e;
    if (e->hash == h && e->length == n && memcmp(t->arena + e->offset, token, n) == 0) return e;
  }
}

static void raw_remember(ifds_flow_table *t, const char *token, size_t n, uint64_t h,
                         uint32_t flow) {
  if (t->arena_len + n > RAW_ARENA_LIMIT) return; /* a cache: forgetting is always fine */
  if ((t->raw_count + 1) * 2 > t->raw_cap) {
    size_t cap = t->raw_cap ? t->raw_cap * 2 : 256;
    ifds_raw_entry *raw = calloc(cap, sizeof *raw);
    if (!raw) return;
    for (size_t i = 0; i < t->raw_cap; ++i) {
      if (!t->raw[i].flow) continue;
      size_t j = t->raw[i].hash & (cap - 1);
      while (raw[j].flow) j = (j + 1) & (cap - 1);
      raw[j] = t->raw[i];
    }
    free(t->raw);
    t->raw = raw;
    t->raw_cap = cap;
  }
  if (t->arena_len + n > t->arena_cap) {
    size_t cap = t->arena_cap ? t->arena_cap * 2 : 4096;
    while (cap < t->arena_len + n) cap *= 2;
    char *arena = realloc(t->arena, cap);
    if (!arena) return;
    t->arena = arena;
    t->arena_cap = cap;
  }
  memcpy(t->arena + t->arena_len, token, n);
  ifds_raw_entry *e = raw_find(t, token, n, h);
  *e = (ifds_raw_entry){h, (uint32_t)t->arena_len, (uint32_t)n, flow + 1};
  t->arena_len += n;
  t->raw_count++;
}

/* ---- the entry points ---------------------------------------------------- */

weir_status ifds_flow_parse_uncached(ifds_flow_table *t, const char *token, size_t n,
                                     uint32_t fact_count, uint32_t *index, ifds_flow_error *err) {
  t->kills.len = 0;
  t->pair_len = 0;
  int identity = 0;
  if (!(n == 4 && memcmp(token, "none", 4) == 0)) {
    size_t start = 0;
    for (size_t i = 0; i <= n; ++i) {
      if (i < n && token[i] != ',') continue;
      WEIR_TRY(
          parse_term(t, token + start, i - start, start, token, n, fact_count, &identity, err));
      start = i + 1;
    }
  }
  canonicalize(t, identity);
  return intern(t, identity, index);
}

weir_status ifds_flow_parse(ifds_flow_table *t, const char *token, size_t n, uint32_t fact_count,
                            uint32_t *index, ifds_flow_error *err) {
  if (n == 2 && token[0] == 'i' && token[1] == 'd' && t->id_index) { /* by far the most common */
    *index = t->id_index - 1;
    return WEIR_OK;
  }
  uint64_t h = ifds_hash_bytes(token, n);
  ifds_raw_entry *e = raw_find(t, token, n, h);
  if (e && e->flow) {
    *index = e->flow - 1;
    return WEIR_OK;
  }
  WEIR_TRY(ifds_flow_parse_uncached(t, token, n, fact_count, index, err));
  raw_remember(t, token, n, h, *index);
  if (n == 2 && token[0] == 'i' && token[1] == 'd') t->id_index = *index + 1;
  return WEIR_OK;
}

/* A fact of a term given as numbers: the same checks as parse_fact, with
 * the term written out as the loader would show it. */
static int check_array_fact(uint32_t d, size_t term, const char *prefix, uint32_t fact_count,
                            ifds_flow_error *err) {
  if (d < fact_count) return 0; /* the common case formats nothing: builders pass millions of terms */
  char text[32], expected[64];
  snprintf(text, sizeof text, "%s%u", prefix, d);
  snprintf(expected, sizeof expected, "a fact in 0..%u", fact_count - 1);
  set_error(err, term, "fact out of range", text, strlen(text), expected,
            "pass a fact below the count given to weir_ifds_builder_create or create the "
            "builder with more facts");
  return -1;
}

static weir_status array_kill(ifds_flow_table *t, uint32_t d, size_t term, int identity,
                              uint32_t fact_count, ifds_flow_error *err) {
  if (!identity) {
    char text[16];
    snprintf(text, sizeof text, "-%u", d);
    set_error(err, term, "kill without the identity", text, strlen(text),
              "identity set when there are kills",
              "pass identity 1 to weir_ifds_builder_flow (a kill removes a fact from the "
              "identity)");
    return WEIR_ERR_PARSE;
  }
  if (check_array_fact(d, term, "", fact_count, err)) return WEIR_ERR_PARSE;
  if (d == 0) {
    set_error(err, term, "the zero fact cannot be killed", "-0", 2, "a kill of a non-zero fact",
              "remove 0 from the kills: fact 0 flows along every edge");
    return WEIR_ERR_PARSE;
  }
  return ifds_vec_push(&t->kills, d);
}

static weir_status array_pair(ifds_flow_table *t, uint32_t a, uint32_t b, size_t term,
                              uint32_t fact_count, ifds_flow_error *err) {
  if (check_array_fact(a, term, "", fact_count, err)) return WEIR_ERR_PARSE;
  if (check_array_fact(b, term, "", fact_count, err)) return WEIR_ERR_PARSE;
  if (b == 0 && a != 0) {
    char text[32];
    snprintf(text, sizeof text, "%u>%u", a, b);
    set_error(err, term, "only the zero fact flows into the zero fact", text, strlen(text),
              "A>B with B != 0, or 0>0", "remove the pair (0>0 is implied everywhere)");
    return WEIR_ERR_PARSE;
  }
  if (a == 0 && b == 0) return WEIR_OK; /* implied; not stored */
  return push_pair(t, a, b);
}

weir_status ifds_flow_from_arrays(ifds_flow_table *t, int identity, const uint32_t *kills,
                                  size_t kill_count, const uint32_t *pairs, size_t pair_count,
                                  uint32_t fact_count, uint32_t *index, ifds_flow_error *err) {
  t->kills.len = 0;
  t->pair_len = 0;
  identity = identity != 0;
  for (size_t k = 0; k < kill_count; ++k)
    WEIR_TRY(array_kill(t, kills[k], k, identity, fact_count, err));
  for (size_t k = 0; k < pair_count; ++k)
    WEIR_TRY(array_pair(t, pairs[2 * k], pairs[2 * k + 1], kill_count + k, fact_count, err));
  canonicalize(t, identity);
  return intern(t, identity, index);
}

weir_status ifds_flow_copy_in(ifds_flow_table *t, const ifds_flow_table *from, uint32_t f,
                              uint32_t *index) {
  t->kills.len = 0;
  t->pair_len = 0;
  for (uint32_t k = from->kill_offset.data[f]; k < from->kill_offset.data[f + 1]; ++k)
    WEIR_TRY(ifds_vec_push(&t->kills, from->kill_fact.data[k]));
  for (uint32_t k = from->pair_offset.data[f]; k < from->pair_offset.data[f + 1]; ++k)
    WEIR_TRY(push_pair(t, from->pair_from.data[k], from->pair_to.data[k]));
  return intern(t, (int)from->identity.data[f], index);
}

weir_status ifds_flow_table_take(ifds_flow_table *t, weir_ifds_flows *out) {
  memset(out, 0, sizeof *out);
  if (t->kill_offset.len == 0) { /* no function at all: still valid offset arrays */
    WEIR_TRY(ifds_vec_push(&t->kill_offset, 0));
    WEIR_TRY(ifds_vec_push(&t->pair_offset, 0));
  }
  out->count = (uint32_t)t->identity.len;
  weir_status s = WEIR_OK;
  if (s == WEIR_OK) s = ifds_vec_take(&t->identity, &out->identity);
  if (s == WEIR_OK) s = ifds_vec_take(&t->kill_offset, &out->kill_offset);
  if (s == WEIR_OK) s = ifds_vec_take(&t->kill_fact, &out->kill_fact);
  if (s == WEIR_OK) s = ifds_vec_take(&t->pair_offset, &out->pair_offset);
  if (s == WEIR_OK) s = ifds_vec_take(&t->pair_from, &out->pair_from);
  if (s == WEIR_OK) s = ifds_vec_take(&t->pair_to, &out->pair_to);
  ifds_flow_table_free(t);
  if (s != WEIR_OK) {
    free(out->identity);
    free(out->kill_offset);
    free(out->kill_fact);
    free(out->pair_offset);
    free(out->pair_from);
    free(out->pair_to);
    memset(out, 0, sizeof *out);
  }
  return s;
}
