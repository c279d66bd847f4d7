/* Initialisation through out-parameters of defined functions: both values
 * are set by the callees on the path where they are used
 * (`if (f(&x) && g(&y)) use(x, y)`); a callee that never writes leaves its
 * argument uninitialised, and one that only reads through its parameter
 * reads uninitialised memory. */
#include <stdio.h>
#include <stdlib.h>

static int parse_first(const char *text, int *out) {
  *out = atoi(text);
  return *out > 0;
}

static int parse_second(const char *text, int *out) {
  char *end;
  *out = (int)strtol(text, &end, 10);
  return end != text;
}

static void describe(int *out) { (void)out; }

static void show_next(const int *counter) {
  printf("%d\n", *counter + 1); /* EXPECT weir-uninit */
}

int main(int argc, char **argv) {
  if (argc < 3) return 1;
  int x, y, z, w;
  if (parse_first(argv[1], &x) && parse_second(argv[2], &y)) printf("%d %d\n", x, y); /* EXPECT-NOT weir-uninit */
  describe(&z);
  printf("%d\n", z); /* EXPECT weir-uninit */
  show_next(&w);
  return 0;
}
