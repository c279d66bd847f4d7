/* Recursion: the out-parameter is written only at the bottom of the
 * recursion, which every call reaches; a second recursive function writes
 * nothing and its caller reads the unset value. */
#include <stdio.h>

#define NOINLINE __attribute__((noinline))

static NOINLINE void depth_into(int n, int *out) {
  if (n <= 0) {
    *out = 0;
    return;
  }
  depth_into(n - 1, out);
  *out += 1;
}

static NOINLINE void walk(int n, int *out) {
  if (n > 0) walk(n - 1, out);
  if (n > 100) puts("deep");
}

int main(int argc, char **argv) {
  (void)argv;
  int depth, lost;
  depth_into(argc, &depth);
  printf("%d\n", depth); /* EXPECT-NOT weir-uninit */
  walk(argc, &lost);
  printf("%d\n", lost); /* EXPECT weir-uninit */
  return 0;
}
