/* An uninitialized read on one branch only. */
#include <stdio.h>

static int choose(int flag) {
  int value;
  int other = 7;
  if (flag > 3) value = flag * 2;
  printf("%d\n", other);
  return value; /* EXPECT weir-uninit */
}

int main(int argc, char **argv) {
  (void)argv;
  return choose(argc);
}
