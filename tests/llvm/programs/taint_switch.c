/* switch: the case chosen at run time either reads the command from the
 * environment or uses a constant; the sink after the switch is reached
 * with tainted data on one path. A second switch assigns only constants. */
#include <stdio.h>
#include <stdlib.h>

static void bad(int mode) {
  const char *data;
  switch (mode) {
  case 1:
    data = getenv("CMD");
    break;
  case 2:
    data = "ls -l";
    break;
  default:
    data = "true";
    break;
  }
  if (data != NULL) system(data); /* EXPECT weir-taint-command-injection from=getenv */
}

static void good(int mode) {
  const char *data;
  switch (mode) {
  case 1:
    data = "date";
    break;
  case 2:
    data = "ls -l";
    break;
  default:
    data = getenv("CMD");
    puts(data == NULL ? "unset" : data);
    data = "true";
    break;
  }
  system(data); /* EXPECT-NOT weir-taint */
}

int main(int argc, char **argv) {
  (void)argv;
  bad(argc);
  good(argc);
  return 0;
}
