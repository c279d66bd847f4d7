/* getline and getdelim allocate (or grow) the line buffer and fill it: the
 * buffer they return through their char ** argument is tainted. */
#include <stdio.h>
#include <stdlib.h>

static void from_getline(void) {
  char *data = NULL;
  size_t cap = 0;
  if (getline(&data, &cap, stdin) < 0) {
    free(data);
    return;
  }
  system(data); /* EXPECT weir-taint-command-injection from=getline */
  free(data);
}

static void from_getdelim(void) {
  char *data = NULL;
  size_t cap = 0;
  if (getdelim(&data, &cap, ';', stdin) < 0) {
    free(data);
    return;
  }
  printf(data); /* EXPECT weir-taint-format-string from=getdelim */
  free(data);
}

static void good(void) {
  char *line = NULL;
  size_t cap = 0;
  ssize_t got = getline(&line, &cap, stdin);
  free(line);
  char *data = "uptime";
  if (got > 0) system(data); /* EXPECT-NOT weir-taint */
}

int main(void) {
  from_getline();
  from_getdelim();
  good();
  return 0;
}
