/* Arrays: a partial initialiser zeroes the rest ({first} initialises all
 * four), a loop writes every element; an array with one element written is
 * read at another index. */
#include <stdio.h>
#include <stdlib.h>

static void bad(int argc) {
  int data[4];
  data[0] = argc;
  printf("%d\n", data[2]); /* EXPECT weir-uninit (element 2 of 4 is never written) */
}

static void good_partial_initialiser(int argc) {
  int data[4] = {argc};
  printf("%d\n", data[2]); /* EXPECT-NOT weir-uninit */
}

static void good_loop(int argc) {
  int data[4];
  for (int i = 0; i < 4; i++) data[i] = argc + i;
  printf("%d\n", data[2]); /* EXPECT-NOT weir-uninit */
}

static void good_string(void) {
  char data[100] = "";
  puts(data); /* EXPECT-NOT weir-uninit */
}

int main(int argc, char **argv) {
  (void)argv;
  good_partial_initialiser(argc);
  good_loop(argc);
  good_string();
  bad(argc);
  return 0;
}
