/* Recursion: a recursive function copies the tainted string one character
 * per call; a recursive length function returns a clean number. */
#include <stdio.h>
#include <stdlib.h>

static void copy_rec(char *dst, const char *src) {
  *dst = *src;
  if (*src != '\0') copy_rec(dst + 1, src + 1);
}

static int depth_of(int n) { return n <= 0 ? 0 : 1 + depth_of(n - 1); }

int main(int argc, char **argv) {
  (void)argv;
  char input[64];
  char command[64];
  char format[16];
  if (fgets(input, sizeof input, stdin) == NULL) return 1;
  copy_rec(command, input);
  system(command); /* EXPECT weir-taint-command-injection from=fgets */
  snprintf(format, sizeof format, "%d\n", depth_of(argc));
  printf(format); /* EXPECT-NOT weir-taint */
  return 0;
}
