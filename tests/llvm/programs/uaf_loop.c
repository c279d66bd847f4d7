/* Loops: a block allocated and freed in every iteration is never used after
 * its own free (no finding); a block allocated once before the loop and
 * freed inside it is freed again by the second iteration, and read after
 * the first. */
#include <stdio.h>
#include <stdlib.h>

static void good(int n) {
  for (int i = 0; i < n; i++) {
    char *line = malloc(80);
    if (line == NULL) return;
    if (fgets(line, 80, stdin) == NULL) line[0] = '\0';
    fputs(line, stdout); /* EXPECT-NOT weir-use-after-free */
    free(line); /* EXPECT-NOT weir-double-free */
  }
}

static void bad(int n) {
  char *line = malloc(80);
  if (line == NULL) return;
  for (int i = 0; i < n; i++) {
    if (fgets(line, 80, stdin) == NULL) line[0] = '\0'; /* EXPECT weir-use-after-free */
    fputs(line, stdout); /* EXPECT weir-use-after-free */
    free(line); /* EXPECT weir-double-free */
  }
}

int main(int argc, char **argv) {
  (void)argv;
  good(argc);
  bad(argc);
  return 0;
}
