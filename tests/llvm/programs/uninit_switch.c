/* switch: the bad switch has no default, so an unexpected mode leaves the
 * value unset; the good switch sets it in its default. */
#include <stdio.h>
#include <stdlib.h>

static void bad(int mode) {
  int size;
  switch (mode) {
  case 1:
    size = 16;
    break;
  case 2:
    size = 32;
    break;
  }
  printf("%d\n", size); /* EXPECT-O0 weir-uninit */
  /* -O2: clang folds the unset path into the defined ones (its value is
   * undefined), so the read disappears. */
}

static void good(int mode) {
  int size;
  switch (mode) {
  case 1:
    size = 16;
    break;
  case 2:
    size = 32;
    break;
  default:
    size = 8;
    break;
  }
  printf("%d\n", size); /* EXPECT-NOT weir-uninit */
}

int main(int argc, char **argv) {
  (void)argv;
  good(argc);
  bad(argc);
  return 0;
}
