/* Loops: a command assembled character by character from stdin in a while
 * loop; a second buffer filled in a for loop from a constant table. */
#include <stdio.h>
#include <stdlib.h>

static const char letters[] = "date";

int main(void) {
  char command[64];
  char fixed[64];
  size_t n = 0;
  int c;
  while (n + 1 < sizeof command && (c = fgetc(stdin)) != EOF && c != '\n') {
    command[n] = (char)c;
    n++;
  }
  command[n] = '\0';
  size_t i;
  for (i = 0; i < sizeof letters - 1; i++) fixed[i] = letters[i];
  fixed[i] = '\0';
  system(command); /* EXPECT weir-taint-command-injection from=fgetc */
  system(fixed); /* EXPECT-NOT weir-taint */
  return 0;
}
