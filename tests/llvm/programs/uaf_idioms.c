/* Idioms of correct code that a use-after-free checker must not flag, found
 * by a review of the dangling-pointer model: the realloc whose failure
 * path frees the old block (realloc freed nothing there), a free-and-null
 * helper called on two structs (its `f->val = NULL` has two targets), and
 * a grow helper that frees the old array and stores the new one through a
 * pointer that may be any of two caches. The bugs beside them stay found. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NOINLINE __attribute__((noinline))

static NOINLINE int grow(char **bufp, size_t *cap) {
  size_t bigger = *cap * 2;
  char *next = realloc(*bufp, bigger);
  if (!next) {
    free(*bufp); /* EXPECT-NOT weir-double-free: a failed realloc freed nothing */
    *bufp = NULL;
    return -1;
  }
  *bufp = next;
  *cap = bigger;
  return 0;
}

static NOINLINE int fill(int n) {
  size_t cap = 8;
  char *buf = malloc(cap);
  if (!buf) return -1;
  for (int i = 0; i < n; ++i) {
    if ((size_t)i >= cap && grow(&buf, &cap)) return -1;
    buf[i] = 'x'; /* EXPECT-NOT weir-use-after-free */
  }
  int first = buf[0];
  free(buf); /* EXPECT-NOT weir-double-free */
  return first;
}

static NOINLINE int fill_bad(int n) {
  char *buf = malloc(8);
  if (!buf) return -1;
  char *old = buf;
  char *grown = realloc(buf, (size_t)n + 8);
  if (!grown) {
    free(buf);
    return -1;
  }
  old[0] = 'y'; /* EXPECT-O0 weir-use-after-free: the block may have moved (-O2 deletes the whole function: malloc, realloc and free elided) */
  free(grown);
  return 0;
}

struct field {
  char *val;
};

static NOINLINE void clear(struct field *f) {
  free(f->val);
  f->val = NULL;
}

static NOINLINE void two_fields(const char *s) {
  struct field a, b;
  a.val = strdup(s);
  b.val = strdup(s);
  clear(&a);
  clear(&b);
  if (a.val) puts(a.val); /* EXPECT-NOT weir-use-after-free: cleared by the helper */
}

struct cache {
  int *slots;
  size_t cap;
};

static NOINLINE int cache_grow(struct cache *c) {
  size_t cap = c->cap ? c->cap * 2 : 16;
  int *slots = calloc(cap, sizeof *slots);
  if (!slots) return -1;
  if (c->slots) memcpy(slots, c->slots, c->cap * sizeof *slots);
  free(c->slots);
  c->slots = slots;
  c->cap = cap;
  return 0;
}

static NOINLINE int caches(int n) {
  struct cache x = {NULL, 0}, y = {NULL, 0};
  for (int i = 0; i < n; ++i)
    if (cache_grow(i % 2 ? &x : &y)) return -1;
  int sum = (x.slots ? x.slots[0] : 0) + (y.slots ? y.slots[0] : 0); /* EXPECT-NOT weir-use-after-free */
  free(x.slots);
  free(y.slots);
  return sum;
}

static NOINLINE void clear_bad(void) {
  struct field a;
  a.val = strdup("z");
  free(a.val);
  if (a.val) puts(a.val); /* EXPECT weir-use-after-free: freed, not cleared */
}

int main(int argc, char **argv) {
  (void)argv;
  int r = fill(argc * 20);
  r += fill_bad(argc);
  two_fields("hello");
  r += caches(argc + 3);
  clear_bad();
  return r > 0 ? 0 : 1;
}
