/* A helper that frees its argument on one path but returns it anyway: the
 * caller uses the dangling result. The good helper returns NULL when it
 * freed the block. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NOINLINE __attribute__((noinline))

static NOINLINE char *bad_validate(char *line) {
  if (strchr(line, ';') != NULL) free(line);
  return line;
}

static NOINLINE char *good_validate(char *line) {
  if (strchr(line, ';') != NULL) {
    free(line);
    return NULL;
  }
  return line;
}

static char *read_line(void) {
  char *line = malloc(64);
  if (line == NULL) exit(1);
  if (fgets(line, 64, stdin) == NULL) line[0] = '\0';
  return line;
}

int main(void) {
  char *ok = good_validate(read_line());
  if (ok != NULL) {
    puts(ok); /* EXPECT-NOT weir-use-after-free KNOWN-FP weir-use-after-free: freed only on the path that returns NULL (path-insensitive) */
    free(ok); /* KNOWN-FP weir-double-free: freed only on the path that returns NULL (path-insensitive) */
  }
  char *checked = bad_validate(read_line());
  puts(checked); /* EXPECT weir-use-after-free */
  return 0;
}
