/* Numbers parsed from tainted text (atoi, strtol, strtoul) are tainted
 * values: formatted into a command they make it tainted. A number from a
 * constant string is clean. */
#include <stdio.h>
#include <stdlib.h>

static void run_with(long value) {
  char command[64];
  snprintf(command, sizeof command, "kill -%ld 1", value);
  system(command); /* EXPECT weir-taint-command-injection from=fgets */
}

int main(void) {
  char line[64];
  if (fgets(line, sizeof line, stdin) == NULL) return 1;
  int a = atoi(line);
  long b = strtol(line, NULL, 10);
  unsigned long c = strtoul(line, NULL, 16);
  run_with(a + b + (long)c);
  char command[64];
  snprintf(command, sizeof command, "sleep %d", atoi("5"));
  system(command); /* EXPECT-NOT weir-taint */
  return 0;
}
