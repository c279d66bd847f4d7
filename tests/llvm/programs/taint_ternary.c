/* The conditional operator: the command is the tainted string on one arm;
 * in the good function both arms are constants and the tainted value only
 * chooses between them (an implicit flow, not a data flow). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void bad(int argc) {
  char *env = getenv("CMD");
  const char *command = (argc > 1 && env != NULL) ? env : "ls";
  system(command); /* EXPECT weir-taint-command-injection from=getenv */
}

static void good(void) {
  char *env = getenv("CMD");
  const char *command = (env != NULL && strcmp(env, "long") == 0) ? "ls -l" : "ls";
  system(command); /* EXPECT-NOT weir-taint */
}

int main(int argc, char **argv) {
  (void)argv;
  bad(argc);
  good();
  return 0;
}
