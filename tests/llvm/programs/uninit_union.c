/* A union written through one member and read through another member of
 * the same size is initialised; a union never written is not. */
#include <stdio.h>
#include <string.h>

union word {
  unsigned int u;
  int i;
  float f;
};

int main(int argc, char **argv) {
  (void)argv;
  union word set;
  set.i = argc;
  printf("%u\n", set.u); /* EXPECT-NOT weir-uninit */
  union word unset;
  printf("%u\n", unset.u); /* EXPECT weir-uninit */
  return 0;
}
