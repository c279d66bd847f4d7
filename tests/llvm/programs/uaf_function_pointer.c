/* A free through a table of cleanup handlers: the handler chosen at run
 * time may be the one that frees, and the block is used after the call.
 * Handlers of the second table never free. */
#include <stdio.h>
#include <stdlib.h>

typedef void (*cleanup_fn)(char *);

static void drop(char *p) { free(p); }
static void clear(char *p) { p[0] = '\0'; } /* KNOWN-FP weir-use-after-free: clear is reached with a and b; context-insensitive points-to */
static void keep(char *p) { (void)p; }

static const cleanup_fn risky[] = {drop, clear};
static const cleanup_fn safe[] = {clear, keep};

int main(int argc, char **argv) {
  (void)argv;
  char *a = malloc(32);
  char *b = malloc(32);
  if (a == NULL || b == NULL) return 1;
  if (fgets(a, 32, stdin) == NULL) a[0] = '\0';
  if (fgets(b, 32, stdin) == NULL) b[0] = '\0';
  risky[argc % 2](a);
  safe[argc % 2](b);
  puts(b); /* EXPECT-NOT weir-use-after-free */
  puts(a); /* EXPECT weir-use-after-free */
  free(b);
  return 0;
}
