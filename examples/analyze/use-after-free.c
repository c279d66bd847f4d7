/* A small C program with a use after free and a double free, for
 * `weir analyze uaf`: the line is freed by a helper on the error path and
 * still printed by the caller, and the cleanup frees it once more.
 * Build and analyse it (README.md shows the output):
 *   clang-14 -g -O0 -emit-llvm -c examples/analyze/use-after-free.c -o use-after-free.bc
 *   weir analyze uaf use-after-free.bc */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Rejects (and frees) a line holding a shell metacharacter. */
static int check_line(char *line) {
  if (strpbrk(line, ";|&") != NULL) {
    free(line);
    return -1;
  }
  return 0;
}

int main(void) {
  char *line = malloc(128);
  if (line == NULL) return 1;
  if (fgets(line, 128, stdin) == NULL) line[0] = '\0';
  if (check_line(line) != 0) fprintf(stderr, "rejected: %s", line); /* used after the free */
  free(line); /* the rejected line is freed a second time */
  return 0;
}
