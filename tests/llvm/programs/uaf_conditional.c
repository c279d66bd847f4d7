/* A block freed on one branch and used after the branches merge (may be
 * freed: a finding); in the good function the branch that frees also
 * returns. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void bad(int argc) {
  char *data = malloc(64);
  if (data == NULL) return;
  if (fgets(data, 64, stdin) == NULL) data[0] = '\0';
  if (argc > 2) free(data);
  puts(data); /* EXPECT weir-use-after-free */
}

static void good(int argc) {
  char *data = malloc(64);
  if (data == NULL) return;
  if (fgets(data, 64, stdin) == NULL) data[0] = '\0';
  if (argc > 2) {
    free(data);
    return;
  }
  puts(data); /* EXPECT-NOT weir-use-after-free */
  free(data);
}

int main(int argc, char **argv) {
  (void)argv;
  good(argc);
  bad(argc);
  return 0;
}
