/* const: a flag passed as an argument (the same constant at every call),
 * a parameter that differs between calls, and returned constants. */
#include <stdio.h>

__attribute__((noinline)) int check(int flag, int n) {
  if (flag == 1) return n + 1;               /* EXPECT-VALUE flag=1 */
  if (n > 3) return 0;                       /* EXPECT-VARIES n */
  return n;
}

__attribute__((noinline)) int inc(int x) { return x + 1; } /* 3 + 1 comes back as the call's value */

int main(int argc, char **argv) {
  int total = check(1, argc) + check(1, 10);
  int k = inc(3);
  if (k == 4) total++;                       /* EXPECT-VALUE k=4 */
  printf("%d %s\n", total, argv[0]);
  return 0;
}
