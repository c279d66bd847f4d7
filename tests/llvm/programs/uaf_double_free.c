/* Double free: the same block freed twice, directly and through an alias;
 * freeing a pointer reset to NULL is harmless. */
#include <stdio.h>
#include <stdlib.h>

static void bad(void) {
  char *data = malloc(100);
  if (data == NULL) return;
  if (fgets(data, 100, stdin) != NULL) puts(data);
  free(data);
  free(data); /* EXPECT weir-double-free */
}

static void bad_alias(void) {
  char *data = malloc(100);
  if (data == NULL) return;
  char *copy = data;
  if (fgets(data, 100, stdin) != NULL) puts(copy);
  free(data);
  free(copy); /* EXPECT weir-double-free */
}

static void good(void) {
  char *data = malloc(100);
  if (data == NULL) return;
  if (fgets(data, 100, stdin) != NULL) puts(data);
  free(data);
  data = NULL;
  free(data); /* EXPECT-NOT weir-double-free */
}

int main(void) {
  good();
  bad();
  bad_alias();
  return 0;
}
