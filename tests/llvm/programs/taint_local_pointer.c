/* A pointer to the tainted buffer stored in a second local and reloaded
 * after unrelated work: the copy of the pointer still points to tainted
 * data. The good variant copies the pointer of a clean buffer. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void bad(void) {
  char dataBuffer[100] = "";
  char *data = dataBuffer;
  if (fgets(data, 100, stdin) == NULL) return;
  char *saved = data;
  size_t len = strlen(dataBuffer);
  if (len > 0 && saved[len - 1] == '\n') saved[len - 1] = '\0';
  system(saved); /* EXPECT weir-taint-command-injection from=fgets */
}

static void good(void) {
  char dataBuffer[100] = "";
  char cleanBuffer[100] = "ls -l";
  char *data = dataBuffer;
  if (fgets(data, 100, stdin) == NULL) return;
  char *saved = cleanBuffer;
  puts(data);
  system(saved); /* EXPECT-NOT weir-taint */
}

int main(void) {
  bad();
  good();
  return 0;
}
