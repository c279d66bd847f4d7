/* A local int set on one branch only and printed after the merge (Juliet's
 * CWE457 *_int pattern). The good function sets it on both branches. */
#include <stdio.h>
#include <stdlib.h>

static void bad(int argc, char **argv) {
  int data;
  if (argc > 1) data = atoi(argv[1]);
  printf("%d\n", data); /* EXPECT-O0 weir-uninit */
  /* -O2: clang treats the uninitialised path as undefined behaviour (the
   * value goes to a noundef argument) and assumes argc > 1 instead. */
}

static void good(int argc, char **argv) {
  int data;
  if (argc > 1) data = atoi(argv[1]);
  else data = 0;
  printf("%d\n", data); /* EXPECT-NOT weir-uninit */
}

int main(int argc, char **argv) {
  good(argc, argv);
  bad(argc, argv);
  return 0;
}
