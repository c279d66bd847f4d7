/* Scratch memory as libraries write it (libxcrypt's crypt_ra and bcrypt):
 * - a context block kept by the caller, made by malloc on the first call
 *   and grown by realloc on a later one (`*data` is one or the other, never
 *   both: a write through it updates the block it is);
 * - a helper that fills what its parameter points to, called with the
 *   scratch block from one function and with two locals of another (the
 *   parameter's points-to set holds all three; each call passes one);
 * - a field range zeroed by memset with a constant length (what -O2 makes
 *   of a designated initialiser that leaves the last fields out).
 * The reads below come after the writes; the fields never written are
 * still reported. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#define NOINLINE __attribute__((noinline))

struct ctx {
  unsigned key[8];
  unsigned state[8];
  unsigned rounds;
  unsigned never[4]; /* nothing writes it */
};

static NOINLINE void set_key(const char *k, unsigned *out) {
  for (int i = 0; i < 8; ++i) out[i] = (unsigned)k[i % 4] * 31u + (unsigned)i;
  out[0] ^= 0x10000u; /* EXPECT-NOT weir-uninit (written by the loop, in every caller's context) */
}

static NOINLINE unsigned hash(const char *k, struct ctx *c) {
  set_key(k, c->key);
  c->state[0] = c->key[1];
  c->rounds = 16; /* through *data: the malloc'd block or the realloc'd one, never both */
  memset(&c->state[1], 0, sizeof c->state - sizeof c->state[0]);
  unsigned h = c->key[3] + c->state[0] + c->state[2] + c->rounds; /* EXPECT-NOT weir-uninit (all written) */
  return h + c->never[1]; /* EXPECT weir-uninit */
}

char *context_hash(const char *k, void **data, int *size) {
  if (!*data) {
    *data = malloc(sizeof(struct ctx));
    if (!*data) return NULL;
    *size = sizeof(struct ctx);
  }
  if (*size < 0 || (size_t)*size < sizeof(struct ctx)) {
    void *grown = realloc(*data, sizeof(struct ctx));
    if (!grown) return NULL;
    *data = grown;
    *size = sizeof(struct ctx);
  }
  struct ctx *c = *data;
  return hash(k, c) ? (char *)c : NULL;
}

static NOINLINE int self_test(const char *k) {
  unsigned a[8], b[8], unset[8];
  set_key(k, a);
  set_key(k + 1, b);
  return a[0] == b[0] && unset[2] == 0; /* EXPECT-O0 weir-uninit (-O2 folds the read away) */
}

struct params {
  int flags;
  long n;
  int r, p;
  int t, g;
  long rom;
};

static NOINLINE long use_params(const struct params *q) { return q->n + q->t + q->g + q->rom; }

static NOINLINE long kdf(long n, int r, int p) {
  struct params q;
  q.flags = 0;
  q.n = n;
  q.r = r;
  q.p = p;
  memset(&q.t, 0, sizeof q - offsetof(struct params, t));
  long v = use_params(&q); /* EXPECT-NOT weir-uninit (memset wrote t, g and rom) */
  struct params half;
  half.n = n;
  memset(&half.t, 0, sizeof half.t);
  return v + half.rom; /* EXPECT-O0 weir-uninit (-O2 folds the read away) */
}

static NOINLINE long kdf_designated(long n, int r, int p) {
  struct params q = {.flags = 0, .n = n, .r = r, .p = p};
  return use_params(&q); /* EXPECT-NOT weir-uninit */
}

int main(int argc, char **argv) {
  void *data = NULL;
  int size = 0;
  char *h = context_hash(argv[0], &data, &size);
  h = context_hash(argv[0], &data, &size);
  free(data);
  return (h != NULL) + self_test(argv[0]) + (int)kdf(argc, 1, 2) + (int)kdf_designated(argc, 3, 4);
}
