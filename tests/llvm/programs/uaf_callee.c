/* Frees and uses across calls: a callee frees the block and the caller
 * uses it afterwards; the caller frees and a callee uses it; a destroy
 * function is followed by a second free in the caller. */
#include <stdio.h>
#include <stdlib.h>

#define NOINLINE __attribute__((noinline))

struct buffer {
  char *bytes;
  size_t size;
};

static NOINLINE void release(char *p) { free(p); } /* KNOWN-FP weir-double-free: points-to is context-insensitive, p may point to the block of good() here */

static NOINLINE void show(const char *p) {
  printf("%s\n", p); /* EXPECT-NOT weir-use-after-free: reported where the dangling pointer is passed (line 39), once */
}

static NOINLINE void show_fresh(const char *p) {
  printf("%s\n", p); /* EXPECT-NOT weir-use-after-free */
}

static NOINLINE void buffer_destroy(struct buffer *b) { free(b->bytes); }

static void bad_callee_frees(void) {
  char *p = malloc(32);
  if (p == NULL) return;
  if (fgets(p, 32, stdin) == NULL) p[0] = '\0';
  release(p);
  putchar(p[0]); /* EXPECT weir-use-after-free */
}

static void bad_callee_uses(void) {
  char *p = malloc(32);
  if (p == NULL) return;
  if (fgets(p, 32, stdin) == NULL) p[0] = '\0';
  free(p);
  show(p); /* EXPECT weir-use-after-free: a dangling pointer passed on is a use (CWE-416) */
}

static void bad_double_destroy(void) {
  struct buffer b;
  b.size = 32;
  b.bytes = malloc(b.size);
  if (b.bytes == NULL) return;
  if (fgets(b.bytes, (int)b.size, stdin) != NULL) puts(b.bytes);
  buffer_destroy(&b);
  free(b.bytes); /* EXPECT weir-double-free */
}

static void good(void) {
  char *p = malloc(32);
  if (p == NULL) return;
  if (fgets(p, 32, stdin) == NULL) p[0] = '\0';
  show_fresh(p);
  release(p);
}

int main(void) {
  good();
  bad_callee_frees();
  bad_callee_uses();
  bad_double_destroy();
  return 0;
}
