/* An uninitialised buffer handed down two calls and read at the bottom; the
 * same chain handed an initialised buffer reads nothing uninitialised. */
#include <stdio.h>
#include <string.h>

#define NOINLINE __attribute__((noinline))

static NOINLINE void badLevel2(const int *values) {
  printf("%d\n", values[1]); /* EXPECT weir-uninit */
}
static NOINLINE void badLevel1(const int *values) { badLevel2(values); }

static NOINLINE void goodLevel2(const int *values) {
  printf("%d\n", values[1]); /* EXPECT-NOT weir-uninit */
}
static NOINLINE void goodLevel1(const int *values) { goodLevel2(values); }

int main(int argc, char **argv) {
  (void)argv;
  int unset[4];
  int set[4];
  memset(set, argc, sizeof set);
  badLevel1(unset);
  goodLevel1(set);
  return 0;
}
