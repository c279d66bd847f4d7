/* Library calls with a freed block: strlen, memcpy from it and strcpy into
 * it are uses; strdup'd copies freed once are fine. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void bad(const char *input) {
  char *copy = strdup(input);
  if (copy == NULL) return;
  char out[64];
  free(copy);
  printf("%zu\n", strlen(copy)); /* EXPECT weir-use-after-free */
  memcpy(out, copy, 4); /* EXPECT weir-use-after-free */
  strcpy(copy, "x"); /* EXPECT weir-use-after-free */
  out[4] = '\0';
  puts(out);
}

static void good(const char *input) {
  char *copy = strdup(input);
  if (copy == NULL) return;
  char out[64];
  printf("%zu\n", strlen(copy)); /* EXPECT-NOT weir-use-after-free */
  memcpy(out, copy, 4); /* EXPECT-NOT weir-use-after-free */
  free(copy);
  out[4] = '\0';
  puts(out);
}

int main(int argc, char **argv) {
  if (argc < 2 || strlen(argv[1]) < 4) return 1;
  good(argv[1]);
  bad(argv[1]);
  return 0;
}
