/* goto: a jump skips the line that replaces the command with a constant,
 * so the raw input reaches popen(); in the good function every jump lands
 * before the replacement. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void bad(void) {
  char data[100] = "";
  const char *command = data;
  if (fgets(data, sizeof data, stdin) == NULL) goto fail;
  if (strlen(data) > 2) goto run;
  command = "ls";
run:
  pclose(popen(command, "r")); /* EXPECT weir-taint-command-injection from=fgets */
fail:
  return;
}

static void good(void) {
  char data[100] = "";
  const char *command = data;
  if (fgets(data, sizeof data, stdin) == NULL) goto fail;
  if (strlen(data) > 2) goto reset;
  puts(data);
reset:
  command = "ls";
  pclose(popen(command, "r")); /* EXPECT-NOT weir-taint */
fail:
  return;
}

int main(void) {
  bad();
  good();
  return 0;
}
