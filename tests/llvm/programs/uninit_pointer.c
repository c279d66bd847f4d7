/* Initialization through a pointer: init() stores through its parameter, so
 * x is initialized after the call; keep() does not, so y stays
 * uninitialized; peek() reads (and prints) through its parameter before any
 * store.
 * scanf (a declaration) is assumed to initialize what it is given, and a
 * variable whose address is stored into memory escapes (counts as set). */
#include <stdio.h>

static void init(int *p) { *p = 42; }
static void keep(int *p) { (void)p; }
static int peek(int *p) { return printf("%d\n", *p); } /* EXPECT weir-uninit */

int main(void) {
  int x, y, z, w, v;
  int *aliases[1] = {&v};
  *aliases[0] = 5;
  init(&x);
  keep(&y);
  if (scanf("%d", &z) != 1) z = 0;
  int sum = x + z;
  printf("%d\n", y); /* EXPECT weir-uninit */
  sum += peek(&w);
  sum += v;
  return sum;
}
