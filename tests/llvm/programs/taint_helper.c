/* Taint flows through a helper (argument -> return value): the solver needs
 * the helper's summary to carry it back to the caller. */
#include <stdio.h>
#include <stdlib.h>

static char *pick(char *text, int skip) {
  char *p = text;
  if (skip > 0) p = p + skip;
  return p;
}

int main(void) {
  char line[128];
  if (!fgets(line, sizeof line, stdin)) return 1;
  char *cmd = pick(line, 0);
  return system(cmd); /* EXPECT weir-taint from=fgets */
}
