/* A pointer to a local stored in another local and reloaded: reading
 * through it reads the local it points to, set or not. */
#include <stdio.h>
#include <stdlib.h>

static void bad(void) {
  int value;
  int *p = &value;
  int *q = p;
  printf("%d\n", *q); /* EXPECT weir-uninit */
}

static void good(int argc) {
  int value;
  int *p = &value;
  *p = argc;
  int *q = p;
  printf("%d\n", *q); /* EXPECT-NOT weir-uninit */
}

int main(int argc, char **argv) {
  (void)argv;
  good(argc);
  bad();
  return 0;
}
