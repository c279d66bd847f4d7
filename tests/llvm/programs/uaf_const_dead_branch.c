/* A flag that is 1 at every call: the path that frees cannot run. Without
 * --prune-with-const uaf reports the use after the call (KNOWN-FP); with
 * it (tests/llvm/test_const.c) only the real use after free stays. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct buffer {
  char *data;
  int keep;
};

__attribute__((noinline)) void release(struct buffer *b) {
  if (!b->keep) free(b->data);
}

int main(int argc, char **argv) {
  struct buffer b;
  b.data = malloc(16);
  if (!b.data) return 1;
  strcpy(b.data, "kept");
  b.keep = 1;
  release(&b);
  puts(b.data);                      /* KNOWN-FP weir-use-after-free (keep is 1: release never frees) */
  char *gone = malloc(16);
  if (!gone) return 1;
  strcpy(gone, argv[0]);
  free(gone);
  puts(gone);                        /* EXPECT weir-use-after-free */
  return 0;
}
