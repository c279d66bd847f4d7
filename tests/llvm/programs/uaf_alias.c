/* Use after free through an alias: q = p; free(p); *q. Writing through the
 * alias is a use as well. The good function frees through the alias after
 * the last use. */
#include <stdio.h>
#include <stdlib.h>

static void bad(void) {
  char *p = malloc(64);
  if (p == NULL) return;
  if (fgets(p, 64, stdin) == NULL) p[0] = '\0';
  char *q = p;
  free(p);
  putchar(*q); /* EXPECT weir-use-after-free */
}

static void bad_write(void) {
  int *p = malloc(4 * sizeof *p);
  if (p == NULL) return;
  int *q = p + 1;
  p[0] = getchar();
  printf("%d\n", p[0]);
  free(p);
  *q = 0; /* EXPECT-O0 weir-use-after-free */
  /* -O2: clang deletes the store into the freed block (a dead store). */
}

static void good(void) {
  char *p = malloc(64);
  if (p == NULL) return;
  if (fgets(p, 64, stdin) == NULL) p[0] = '\0';
  char *q = p;
  putchar(*q); /* EXPECT-NOT weir-use-after-free */
  free(q);
}

int main(void) {
  good();
  bad();
  bad_write();
  return 0;
}
