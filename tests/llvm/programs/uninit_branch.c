/* An uninitialized read on one branch only: `value` is printed after a
 * branch that may not have set it. */
#include <stdio.h>

static int choose(int flag) {
  int value;
  int other = 7;
  if (flag > 3) value = flag * 2;
  printf("%d\n", other);
  printf("%d\n", value); /* EXPECT weir-uninit */
  return other;
}

int main(int argc, char **argv) {
  (void)argv;
  return choose(argc);
}
