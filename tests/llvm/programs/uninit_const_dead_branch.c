/* A mode passed as the same constant at every call: the branch for the
 * other mode cannot run. Without --prune-with-const uninit reports the
 * read on that dead path (KNOWN-FP); with it (tests/llvm/test_const.c)
 * the dead edge is gone and only the real finding stays. */
#include <stdio.h>

__attribute__((noinline)) int compute(int mode, int n) {
  int result;
  if (mode == 1) result = n * 2;
  if (mode != 1) printf("fallback %d\n", result); /* KNOWN-FP weir-uninit (mode is 1 at every call) */
  return result;
}

int main(int argc, char **argv) {
  int r = compute(1, argc) + compute(1, 2);
  int real;
  if (argc > 5) real = 1;
  printf("%d %d %s\n", r, real, argv[0]); /* EXPECT weir-uninit */
  return 0;
}
