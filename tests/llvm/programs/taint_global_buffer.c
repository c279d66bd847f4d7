/* A global array filled from stdin in one function and used as a format
 * string in another; a second global array keeps a constant format. */
#include <stdio.h>
#include <string.h>

char gInput[128];
char gFormat[32];

static void load(void) {
  if (fgets(gInput, sizeof gInput, stdin) == NULL) gInput[0] = '\0';
  strcpy(gFormat, "%s\n");
}

static void show(void) {
  printf(gFormat, gInput); /* EXPECT-NOT weir-taint */
  printf(gInput); /* EXPECT weir-taint-format-string from=fgets */
}

int main(void) {
  load();
  show();
  return 0;
}
