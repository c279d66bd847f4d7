/* popen: the command string is the sink; the mode string never is. A
 * tainted mode argument is not a finding. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void) {
  char data[100];
  if (fgets(data, sizeof data, stdin) == NULL) return 1;
  data[strcspn(data, "\n")] = '\0';
  FILE *bad = popen(data, "r"); /* EXPECT weir-taint-command-injection from=fgets */
  if (bad != NULL) pclose(bad);
  const char *mode = strlen(data) > 5 ? data + 5 : "r";
  FILE *good = popen("ls -l", mode); /* EXPECT-NOT weir-taint */
  if (good != NULL) pclose(good);
  return 0;
}
