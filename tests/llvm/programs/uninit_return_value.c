/* A helper returns its local on a path where it was never set; the caller
 * branches on the result (the use). The good helper sets it on every path. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NOINLINE __attribute__((noinline))

static NOINLINE int bad_lookup(const char *key) {
  int value;
  if (key[0] == 'a') value = atoi(key + 1);
  else if (key[0] == 'b') value = (int)strlen(key);
  return value;
}

static NOINLINE int good_lookup(const char *key) {
  int value = 0;
  if (key[0] == 'a') value = atoi(key + 1);
  else if (key[0] == 'b') value = (int)strlen(key);
  return value;
}

int main(int argc, char **argv) {
  if (argc < 2) return 1;
  if (good_lookup(argv[1]) > 1) puts("b"); /* EXPECT-NOT weir-uninit */
  if (bad_lookup(argv[1]) > 1) puts("b"); /* EXPECT weir-uninit */
  return 0;
}
