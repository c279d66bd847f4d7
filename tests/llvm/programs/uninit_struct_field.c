/* A struct with one field set and one never set: only the read of the unset
 * field is a finding (field sensitivity). */
#include <stdio.h>
#include <stdlib.h>

struct point {
  int x;
  int y;
};

int main(int argc, char **argv) {
  (void)argv;
  struct point p;
  p.x = argc;
  printf("%d\n", p.x); /* EXPECT-NOT weir-uninit */
  printf("%d\n", p.y); /* EXPECT weir-uninit */
  struct point q = {.x = argc};
  printf("%d\n", q.y); /* EXPECT-NOT weir-uninit */
  return 0;
}
