/* The data pointer is redirected to a constant before the sink (the old
 * tainted buffer is still alive but no longer used); in the bad function
 * the redirect happens only after the sink. */
#include <stdio.h>
#include <stdlib.h>

static void bad(void) {
  char dataBuffer[100] = "";
  char *data = dataBuffer;
  if (fgets(data, 100, stdin) == NULL) return;
  system(data); /* EXPECT weir-taint-command-injection from=fgets */
  data = "ls";
  puts(data);
}

static void good(void) {
  char dataBuffer[100] = "";
  char *data = dataBuffer;
  if (fgets(data, 100, stdin) == NULL) return;
  puts(data);
  data = "ls";
  system(data); /* EXPECT-NOT weir-taint */
}

int main(void) {
  bad();
  good();
  return 0;
}
