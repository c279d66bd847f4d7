/* main's argv: the strings are under the caller's control. The source of
 * these findings is main's parameter, not a call, so no `from` is given. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void run(const char *data) {
  char command[256];
  snprintf(command, sizeof command, "ls %s", data);
  system(command); /* EXPECT weir-taint-command-injection */
}

int main(int argc, char **argv) {
  if (argc < 3) return 1;
  run(argv[1]);
  printf(argv[2]); /* EXPECT weir-taint-format-string */
  printf("%d arguments\n", argc); /* EXPECT-NOT weir-taint */
  return 0;
}
