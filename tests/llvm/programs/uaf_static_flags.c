/* Constant flags: the free under staticTrue always runs, the one under
 * staticFalse (or STATIC_CONST_FIVE != 5) never does. With the constant
 * branches folded, only the uses after a live free are findings. */
#include <stdio.h>
#include <stdlib.h>

static int staticTrue = 1;
static int staticFalse = 0;
static const int STATIC_CONST_FIVE = 5;

static char *read_line(void) {
  char *line = malloc(64);
  if (line == NULL) exit(1);
  if (fgets(line, 64, stdin) == NULL) line[0] = '\0';
  return line;
}

static void bad(void) {
  char *data = read_line();
  if (staticTrue) free(data);
  puts(data); /* EXPECT weir-use-after-free */
}

static void good_false(void) {
  char *data = read_line();
  if (staticFalse) free(data);
  puts(data); /* EXPECT-NOT weir-use-after-free */
  free(data); /* EXPECT-NOT weir-double-free */
}

static void good_five(void) {
  char *data = read_line();
  if (STATIC_CONST_FIVE != 5) free(data);
  puts(data); /* EXPECT-NOT weir-use-after-free */
  free(data); /* EXPECT-NOT weir-double-free */
}

int main(void) {
  good_false();
  good_five();
  bad();
  return 0;
}
