/* A `char **` alias: the pointer is set (or not) through the alias and read
 * through its own name. */
#include <stdio.h>
#include <stdlib.h>

static void set_through(char **slot, const char *value) { *slot = (char *)value; }

static void bad(int argc) {
  char *data;
  char **alias = &data;
  if (argc > 2) *alias = getenv("HOME");
  if (data != NULL) puts(data); /* EXPECT-O0 weir-uninit */
  /* -O2: the branch on the uninitialised value is undefined behaviour, so
   * clang keeps only the initialised path. */
}

static void good(void) {
  char *data;
  char **alias = &data;
  set_through(alias, "fixed");
  puts(data); /* EXPECT-NOT weir-uninit */
}

int main(int argc, char **argv) {
  (void)argv;
  good();
  bad(argc);
  return 0;
}
