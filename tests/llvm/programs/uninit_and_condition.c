/* Short-circuit conditions and the conditional operator: `if (f(&x) &&
 * g(&y)) use(x, y)` uses both only when both callees ran, and
 * `v = c ? a : b` picks between two initialised values. The bad function
 * uses y after `||`, where g may not have run. */
#include <stdio.h>
#include <stdlib.h>

static int read_value(int *out) {
  int c = getchar();
  *out = c;
  return c != EOF;
}

static void good(int argc) {
  int x, y;
  if (read_value(&x) && read_value(&y)) printf("%d %d\n", x, y); /* EXPECT-NOT weir-uninit */
  int a = argc * 2, b = argc + 7;
  int v = argc > 2 ? a : b;
  printf("%d\n", v); /* EXPECT-NOT weir-uninit */
}

static void bad(void) {
  int x, y;
  if (read_value(&x) || read_value(&y)) printf("%d %d\n", x, y); /* EXPECT-O0 weir-uninit */
  /* -O2: when the first call succeeds y is never written; clang treats
   * that path as undefined behaviour and may drop the read. */
}

int main(int argc, char **argv) {
  (void)argv;
  good(argc);
  bad();
  return 0;
}
