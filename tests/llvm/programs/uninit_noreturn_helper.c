/* A fatal-error helper not declared noreturn (`die`, OVS's ovs_fatal
 * before the attribute, an assert helper whose condition folds to "fails"):
 * clang -O0 keeps the path past its call, as if it returned. It has no
 * `ret`, so prepare ends the block after each call of it: `x` is set on
 * every path that reaches its use. The read of `y` after a helper that does
 * return is still reported. */
#include <stdio.h>
#include <stdlib.h>

static void die(const char *message) {
  fprintf(stderr, "fatal: %s\n", message);
  exit(1);
}

static void warn(const char *message) { fprintf(stderr, "warning: %s\n", message); }

int main(int argc, char **argv) {
  int x, y;
  if (argc > 1) x = atoi(argv[1]);
  else die("no number");
  if (argc > 2) y = atoi(argv[2]);
  else warn("no second number");
  printf("%d\n", x); /* EXPECT-NOT weir-uninit */
  printf("%d\n", y); /* EXPECT weir-uninit */
  return 0;
}
