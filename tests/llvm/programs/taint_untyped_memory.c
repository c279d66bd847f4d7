/* Constant tables and fresh allocations carry no taint: a format chosen at
 * run time from a table of literals is not attacker-controlled, and a buffer
 * whose size came from input holds only what is copied into it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char line[64];
static const char *const formats[10] = {"%d\n", "<%d>\n", "[%d]\n", "(%d)\n",
                                        "{%d}\n", "%x\n", "%o\n", "%i\n",
                                        "#%d\n", "=%d\n"};

int main(int argc, char **argv) {
  (void)argv;
  if (fgets(line, sizeof line, stdin) == NULL) return 1;
  printf(formats[argc % 10], argc); /* EXPECT-NOT weir-taint */
  char *cmd = malloc(strlen(line) + 8);
  if (cmd == NULL) return 1;
  strcpy(cmd, "ls -l");
  system(cmd); /* EXPECT-NOT weir-taint */
  system(line); /* EXPECT weir-taint-command-injection from=fgets */
  free(cmd);
  return 0;
}
