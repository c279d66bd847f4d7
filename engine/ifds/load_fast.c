/* The fast path of the loader: a proc or body line of the shape every
 * writer produces ("edge 12 13 id,0>3\n": single spaces, plain digits, no
 * comment, no CR) is parsed in one pass over its bytes, with no tokenizing
 * and no copy, and handed to the builder (or to a chunk's arrays,
 * load_chunk.c). Anything else, and any line where
 * something is wrong, is left to the general path (NULL *next), which
 * checks it again from scratch and reports it; so this file never formats
 * a message, and a line refused here costs only the time of a second look. */
#include <stdlib.h>
#include <string.h>

#include "engine/ifds/load.h"

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ && \
    (defined(__GNUC__) || defined(__clang__))
/* Up to 7 digits ending at `stop`, 8 bytes at a time (the file's numbers
 * are node indices: cachegrind put the byte loop below at 27% of a load's
 * instructions). The first byte that is not a digit is found with one add
 * (a non-digit's carry only reaches bytes after it), and the digits,
 * shifted so that the last is in the top byte, are combined in three
 * multiplies. *decided is 0 when the 8 bytes are all digits: the byte loop
 * takes such a number; else the result is digits()'s (NULL: refused). */
static inline const char *digits8(const char *p, char stop, uint32_t *out, int *decided) {
  uint64_t x;
  memcpy(&x, p, 8);
  uint64_t t = x ^ 0x3030303030303030ull; /* a digit becomes 0..9 */
  uint64_t bad = ((t + 0x7676767676767676ull) | t) & 0x8080808080808080ull;
  *decided = bad != 0; /* 8 digits or more: the byte loop */
  if (!bad) return NULL;
  unsigned n = (unsigned)__builtin_ctzll(bad) / 8;
  if (n == 0 || p[n] != stop) return NULL;
  uint64_t v = t << (8 * (8 - n)); /* leading zero digits below */
  v = (v * 2561) >> 8 & 0x00FF00FF00FF00FFull;
  v = (v * 6553601) >> 16 & 0x0000FFFF0000FFFFull;
  v = (v * 42949672960001ull) >> 32;
  *out = (uint32_t)v;
  return p + n + 1;
}
#define IFDS_HAVE_DIGITS8 1
#endif

/* Decimal digits ending at `stop` (a space, or the LF of the last field):
 * at most 10, at most 4294967295. */
static inline const char *digits(const char *p, const char *end, char stop, uint32_t *out) {
#ifdef IFDS_HAVE_DIGITS8
  if (end - p >= 8) {
    int decided;
    const char *next = digits8(p, stop, out, &decided);
    if (decided) return next;
  }
#endif
  const char *start = p;
  uint64_t v = 0;
  while (p < end && (unsigned)(*p - '0') < 10u) {
    v = v * 10 + (uint64_t)(*p - '0');
    if (++p - start > 10) return NULL;
  }
  if (p == start || v > UINT32_MAX || p >= end || *p != stop) return NULL;
  *out = (uint32_t)v;
  return p + 1;
}

/* A node or procedure index: digits, below `limit`, ending at `stop`. */
static inline const char *index_until(const char *p, const char *end, char stop, uint32_t limit,
                                      uint32_t *out) {
  *out = 0; /* defined on a refused line too, where callers still pass it along */
  p = p ? digits(p, end, stop, out) : NULL;
  return p && *out < limit ? p : NULL;
}

static inline const char *index_below(const char *p, const char *end, uint32_t limit,
                                      uint32_t *out) {
  return index_until(p, end, ' ', limit, out);
}

/* ---- flow tokens ------------------------------------------------------------ */

enum { TOKEN_CACHE_MAX = 1u << 20 }; /* slots; past half of it, new tokens are not cached */

/* The key of a token of n <= 16 bytes at s, where s + 16 <= end or not. */
static inline void token_key(const char *s, size_t n, const char *end, uint64_t *a, uint64_t *b) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  if (end - s >= 16) { /* two loads, masked to the token's bytes */
    uint64_t x, y;
    memcpy(&x, s, 8);
    memcpy(&y, s + 8, 8);
    *a = n >= 8 ? x : x & ((1ull << (8 * n)) - 1);
    *b = n >= 16 ? y : n <= 8 ? 0 : y & ((1ull << (8 * (n - 8))) - 1);
    return;
  }
#endif
  uint64_t w[2] = {0, 0};
  for (size_t i = 0; i < n; ++i) w[i / 8] |= (uint64_t)(unsigned char)s[i] << (8 * (i % 8));
  *a = w[0], *b = w[1];
}

static inline size_t token_hash(uint64_t a, uint64_t b) {
  return (size_t)ifds_mix64(a ^ (b * 0x9e3779b97f4a7c15ull));
}

static int cache_grow(ifds_token_cache *c) {
  size_t cap = c->cap ? c->cap * 2 : 4096;
  ifds_token_slot *slots = calloc(cap, sizeof *slots);
  if (!slots) return -1;
  for (size_t i = 0; i < c->cap; ++i) {
    if (!c->slots[i].flow) continue;
    size_t j = token_hash(c->slots[i].a, c->slots[i].b) & (cap - 1);
    while (slots[j].flow) j = (j + 1) & (cap - 1);
    slots[j] = c->slots[i];
  }
  free(c->slots);
  c->slots = slots;
  c->cap = cap;
  return 0;
}

/* The interned index of token [s, s + n): from the cache, else parsed and
 * interned (and cached). -1 when the token is not valid (or memory ran out). */
static inline int token_flow(ifds_loader *L, const char *s, size_t n, const char *end,
                             uint32_t *out) {
  ifds_flow_error err;
  ifds_token_cache *c = &L->tokens;
  if (n == 2 && s[0] == 'i' && s[1] == 'd' && c->id_flow) { /* most tokens are `id` */
    *out = c->id_flow - 1;
    return 0;
  }
  if (n > 16) return ifds_flow_parse(&L->b.flows, s, n, L->facts, out, &err) == WEIR_OK ? 0 : -1;
  uint64_t a, b;
  token_key(s, n, end, &a, &b);
  size_t i = 0;
  if (c->cap) {
    size_t mask = c->cap - 1;
    for (i = token_hash(a, b) & mask; c->slots[i].flow; i = (i + 1) & mask)
      if (c->slots[i].a == a && c->slots[i].b == b) {
        *out = c->slots[i].flow - 1;
        return 0;
      }
  }
  /* the flow table's own token cache would only repeat this one, unless this
   * one is full (then tokens past it still parse once each there) */
  int full = c->count * 2 >= TOKEN_CACHE_MAX;
  weir_status st = full ? ifds_flow_parse(&L->b.flows, s, n, L->facts, out, &err)
                        : ifds_flow_parse_uncached(&L->b.flows, s, n, L->facts, out, &err);
  if (st != WEIR_OK) return -1;
  if (n == 2 && s[0] == 'i' && s[1] == 'd') c->id_flow = *out + 1;
  if ((c->count + 1) * 2 > c->cap) { /* grow, then find the free slot again */
    if (c->cap >= TOKEN_CACHE_MAX || cache_grow(c) != 0) return 0; /* a cache may forget */
    for (i = token_hash(a, b) & (c->cap - 1); c->slots[i].flow; i = (i + 1) & (c->cap - 1)) {
    }
  }
  c->slots[i] = (ifds_token_slot){a, b, *out + 1};
  c->count++;
  return 0;
}

/* A flow token ending at `stop` (' ' or '\n'): its interned index. */
static inline const char *flow(ifds_loader *L, const char *p, const char *end, char stop,
                               uint32_t *out) {
  if (!p) return NULL;
  const char *start = p;
  while (p < end && (unsigned char)*p > ' ' && *p != '#' && *p != 0x7f) ++p;
  if (p == start || p >= end || *p != stop) return NULL;
  if (token_flow(L, start, (size_t)(p - start), end, out) != 0) return NULL;
  return p + 1;
}

static const char *edge(ifds_loader *L, const char *p, const char *end) {
  uint32_t from, to, f;
  p = index_below(p, end, L->nodes, &from);
  p = index_below(p, end, L->nodes, &to);
  p = flow(L, p, end, '\n', &f);
  if (!p) return NULL;
  weir_status s = L->chunk ? ifds_chunk_edge(L, from, to, f)
                           : ifds_builder_edge(&L->b, from, to, f, ifds_line32(L));
  return s == WEIR_OK ? p : NULL;
}

static const char *call(ifds_loader *L, const char *p, const char *end) {
  uint32_t site, ret, f;
  p = index_below(p, end, L->nodes, &site);
  p = index_below(p, end, L->nodes, &ret);
  p = flow(L, p, end, '\n', &f);
  if (!p) return NULL;
  weir_status s = L->chunk ? ifds_chunk_call(L, site, ret, f)
                           : ifds_builder_call(&L->b, site, ret, f, ifds_line32(L));
  return s == WEIR_OK ? p : NULL;
}

static const char *callee(ifds_loader *L, const char *p, const char *end) {
  uint32_t site, proc, cf, rf;
  p = index_below(p, end, L->nodes, &site);
  p = index_below(p, end, L->procs, &proc);
  p = flow(L, p, end, ' ', &cf);
  p = flow(L, p, end, '\n', &rf);
  if (!p) return NULL;
  weir_status s = L->chunk ? ifds_chunk_callee(L, site, proc, cf, rf)
                           : ifds_builder_callee(&L->b, site, proc, cf, rf, ifds_line32(L));
  return s == WEIR_OK ? p : NULL;
}

static const char *seed(ifds_loader *L, const char *p, const char *end) {
  uint32_t node, fact;
  p = index_below(p, end, L->nodes, &node);
  if (!p) return NULL;
  /* the fact ends the line: digits then LF */
  const char *start = p;
  uint64_t v = 0;
  while (p < end && (unsigned)(*p - '0') < 10u && p - start < 10) v = v * 10 + (uint64_t)(*p++ - '0');
  if (p == start || p >= end || *p != '\n' || v >= L->facts) return NULL;
  fact = (uint32_t)v;
  weir_status s = L->chunk ? ifds_chunk_seed(L, node, fact) : ifds_builder_seed(&L->b, node, fact);
  if (s != WEIR_OK) return NULL;
  return p + 1;
}

/* `proc ID NAME FIRST LAST`: the proc section is serial in a parallel load,
 * where its general path (tokens, then numbers) was a tenth of the work. */
static const char *proc(ifds_loader *L, const char *p, const char *end) {
  uint32_t id, first, last;
  p = index_below(p, end, L->procs, &id);
  if (!p) return NULL;
  const char *name = p; /* a token as tokenize() takes it */
  while (p < end && (unsigned char)*p > ' ' && *p != '#' && *p != 0x7f) ++p;
  if (p == name || p >= end || *p != ' ') return NULL;
  size_t length = (size_t)(p - name);
  p = index_below(p + 1, end, L->nodes, &first);
  p = index_until(p, end, '\n', L->nodes, &last);
  if (!p || ifds_builder_proc(&L->b, id, first, last, name, length, ifds_line32(L)) != WEIR_OK)
    return NULL;
  return p;
}

weir_status ifds_load_fast_line(ifds_loader *L, const char *p, const char *end,
                                const char **next) {
  *next = NULL;
  if (end - p < 8) return WEIR_OK;
  L->line_start = p;
  L->fast = 1;
  if (L->stage == IFDS_STAGE_PROC)
    *next = memcmp(p, "proc ", 5) == 0 ? proc(L, p + 5, end) : NULL;
  else if (memcmp(p, "edge ", 5) == 0)
    *next = edge(L, p + 5, end);
  else if (memcmp(p, "call", 4) == 0)
    *next = p[4] == ' ' ? call(L, p + 5, end) : memcmp(p + 4, "ee ", 3) == 0 ? callee(L, p + 7, end) : NULL;
  else if (memcmp(p, "seed ", 5) == 0)
    *next = seed(L, p + 5, end);
  L->fast = 0;
  return WEIR_OK;
}
