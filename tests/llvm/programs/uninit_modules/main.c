/* Initialisation by functions of another module: load_limits (config.c)
 * writes both fields; load_name may return without writing the buffer. */
#include <stdio.h>

#include "config.h"

int main(void) {
  struct limits l;
  load_limits(&l);
  printf("%d %d\n", l.soft, l.hard); /* EXPECT-NOT weir-uninit */
  char name[32];
  load_name(name, sizeof name);
  printf("%c\n", name[0]); /* KNOWN-FN weir-uninit: a callee that may write (on some path) counts as initialising (optimistic) */
  return 0;
}
