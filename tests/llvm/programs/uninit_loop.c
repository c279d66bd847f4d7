/* Loops: a value set inside a while loop that may run zero times is
 * read after it; a do-while body always runs once. */
#include <stdio.h>

static void bad(void) {
  int c, last;
  while ((c = getchar()) != EOF) last = c;
  printf("%d\n", last); /* EXPECT weir-uninit */
}

static void good(void) {
  int c, last;
  do {
    c = getchar();
    last = c;
  } while (c != EOF && c != '\n');
  printf("%d\n", last); /* EXPECT-NOT weir-uninit */
}

int main(void) {
  good();
  bad();
  return 0;
}
