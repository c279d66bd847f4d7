/* The simplest use after free: a line read into a heap buffer is printed
 * after the buffer was freed (a library call with the dangling pointer)
 * and a byte is read through it. The good function uses it first. */
#include <stdio.h>
#include <stdlib.h>

static void bad(void) {
  char *data = malloc(100);
  if (data == NULL) return;
  if (fgets(data, 100, stdin) == NULL) data[0] = '\0';
  free(data);
  printf("%s\n", data); /* EXPECT weir-use-after-free */
}

static void bad_read(void) {
  int *count = malloc(sizeof *count);
  if (count == NULL) return;
  *count = getchar();
  free(count);
  if (*count == 'q') puts("quit"); /* EXPECT weir-use-after-free */
}

static void good(void) {
  char *data = malloc(100);
  if (data == NULL) return;
  if (fgets(data, 100, stdin) == NULL) data[0] = '\0';
  printf("%s\n", data); /* EXPECT-NOT weir-use-after-free */
  free(data);
}

int main(void) {
  good();
  bad();
  bad_read();
  return 0;
}
