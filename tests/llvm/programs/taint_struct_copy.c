/* Whole-struct assignment (a memcpy of the struct): the tainted field is
 * tainted in the copy, the clean field is still clean. Structs are also
 * passed and returned by value. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct pair {
  char text[64];
  char fixed[64];
};

static struct pair make_pair(void) {
  struct pair p;
  if (fgets(p.text, sizeof p.text, stdin) == NULL) p.text[0] = '\0';
  strcpy(p.fixed, "date");
  return p;
}

static void use_pair(struct pair q) {
  system(q.fixed); /* EXPECT-NOT weir-taint */
  system(q.text); /* EXPECT weir-taint-command-injection from=fgets */
}

int main(void) {
  struct pair a = make_pair();
  struct pair b;
  b = a;
  use_pair(b);
  return 0;
}
