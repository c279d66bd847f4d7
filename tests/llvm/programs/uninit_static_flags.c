/* Constant flags: the initialisation under staticTrue always runs, the one
 * under staticFalse never does (Juliet's *_05 / *_06 patterns with
 * STATIC_CONST_FIVE). With the constant branches folded, only the reads
 * after a dead initialisation are findings. */
#include <stdio.h>
#include <stdlib.h>

static int staticTrue = 1;
static int staticFalse = 0;
static const int STATIC_CONST_FIVE = 5;

static void good_true(int argc) {
  int data;
  if (staticTrue) data = argc * 3;
  printf("%d\n", data); /* EXPECT-NOT weir-uninit */
}

static void good_five(int argc) {
  int data;
  if (STATIC_CONST_FIVE == 5) data = argc * 5;
  printf("%d\n", data); /* EXPECT-NOT weir-uninit */
}

static void bad_false(int argc) {
  int data;
  if (staticFalse) data = argc * 7;
  printf("%d\n", data); /* EXPECT weir-uninit */
}

static void bad_not_five(int argc) {
  int data;
  if (STATIC_CONST_FIVE != 5) data = argc * 9;
  printf("%d\n", data); /* EXPECT weir-uninit */
}

int main(int argc, char **argv) {
  (void)argv;
  good_true(argc);
  good_five(argc);
  bad_false(argc);
  bad_not_five(argc);
  return 0;
}
