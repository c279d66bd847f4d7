/* Helpers shared by the IFDS host side (loader, writers, reference solver,
 * generator). Not a public header: nothing here is exported. */
#ifndef WEIR_ENGINE_IFDS_INTERNAL_H
#define WEIR_ENGINE_IFDS_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "weir/status.h"

/* A growable uint32_t array. Growth doubles, so appends are amortized O(1). */
typedef struct ifds_vec {
  uint32_t *data;
  size_t len;
  size_t cap;
} ifds_vec;

/* Makes room for `extra` more elements; WEIR_ERR_OUT_OF_MEMORY on failure. */
weir_status ifds_vec_reserve(ifds_vec *v, size_t extra);
static inline weir_status ifds_vec_push(ifds_vec *v, uint32_t x) {
  if (v->len == v->cap) {
    weir_status s = ifds_vec_reserve(v, 1);
    if (s != WEIR_OK) return s;
  }
  v->data[v->len++] = x;
  return WEIR_OK;
}
void ifds_vec_free(ifds_vec *v);
/* Hands the array over (shrunk to its length; never NULL on success, even
 * when empty, so that the problem's arrays are always valid pointers). */
weir_status ifds_vec_take(ifds_vec *v, uint32_t **out);

/* A 64-bit mix (the splitmix64 finalizer): hash tables key on it. */
static inline uint64_t ifds_mix64(uint64_t x) {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ull;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebull;
  x ^= x >> 31;
  return x;
}

/* Parses a decimal `[0-9]+` of n bytes that fits in 32 bits. */
typedef enum ifds_number_error {
  IFDS_NUMBER_OK = 0,
  IFDS_NUMBER_EMPTY,
  IFDS_NUMBER_NEGATIVE,
  IFDS_NUMBER_NOT_DIGITS,
  IFDS_NUMBER_TOO_LARGE
} ifds_number_error;
ifds_number_error ifds_parse_u32(const char *s, size_t n, uint32_t *out);

/* 'text' quoted and shortened to fit `cap` bytes, for a message. */
void ifds_quote(char *out, size_t cap, const char *text, size_t length);

/* A 64-bit hash of n bytes. */
uint64_t ifds_hash_bytes(const char *s, size_t n);

/* Sorts 64-bit keys ascending (LSD radix, 16-bit digits, a temporary copy of
 * the keys). Passes whose digit is the same for every key are skipped. */
weir_status ifds_sort_u64(uint64_t *keys, size_t count);

/* Sorts a few 32-bit values ascending in place: insertion sort up to 32,
 * qsort past that (the facts of one node in a result, mostly a handful). */
void ifds_sort_u32_small(uint32_t *v, size_t n);

/* Buffered text output with fast integer formatting; the generator and the
 * writers emit hundreds of MB, where fprintf per number would dominate. */
typedef struct ifds_out {
  FILE *file;
  size_t len;
  int failed;
  char buf[1 << 16];
} ifds_out;

void ifds_out_init(ifds_out *o, FILE *file);
void ifds_out_flush(ifds_out *o);
static inline void ifds_out_reserve(ifds_out *o, size_t n) {
  if (o->len + n > sizeof o->buf) ifds_out_flush(o);
}
void ifds_out_bytes(ifds_out *o, const char *s, size_t n);
void ifds_out_str(ifds_out *o, const char *s);
void ifds_out_u64(ifds_out *o, uint64_t x);
struct weir_ifds_problem;
/* The `facts`, `procs`, `nodes` lines and one `proc` line per procedure
 * (write.c): the header after the magic line, shared by the IFDS and the
 * IDE writers. */
void ifds_write_counts_and_procs(ifds_out *o, const struct weir_ifds_problem *p);
static inline void ifds_out_char(ifds_out *o, char c) {
  ifds_out_reserve(o, 1);
  o->buf[o->len++] = c;
}
/* Flushes and reports a write failure of `what` as WEIR_ERR_IO. */
weir_status ifds_out_finish(ifds_out *o, const char *what);

/* Writes flow `f` of `flows` in the canonical text form (`id,-3,0>7`, `none`). */
struct weir_ifds_flows;
void ifds_out_flow(ifds_out *o, const struct weir_ifds_flows *flows, uint32_t f);

#endif
