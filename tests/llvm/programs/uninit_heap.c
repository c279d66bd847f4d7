/* Heap blocks: malloc returns uninitialised memory, calloc zeroed memory;
 * a malloc'd block written by memset (or element by element before the
 * read) is initialised. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void bad(size_t n) {
  int *data = malloc(n * sizeof *data);
  if (data == NULL) return;
  printf("%d\n", data[0]); /* EXPECT weir-uninit */
  free(data);
}

static void good_calloc(size_t n) {
  int *data = calloc(n, sizeof *data);
  if (data == NULL) return;
  printf("%d\n", data[0]); /* EXPECT-NOT weir-uninit */
  free(data);
}

static void good_memset(size_t n) {
  int *data = malloc(n * sizeof *data);
  if (data == NULL) return;
  memset(data, 0, n * sizeof *data);
  printf("%d\n", data[0]); /* EXPECT-NOT weir-uninit */
  free(data);
}

static void good_struct(void) {
  struct {
    int a, b;
  } *s = malloc(sizeof *s);
  if (s == NULL) return;
  s->a = 1;
  s->b = 2;
  printf("%d %d\n", s->a, s->b); /* EXPECT-NOT weir-uninit */
  free(s);
}

int main(int argc, char **argv) {
  (void)argv;
  size_t n = (size_t)argc + 4;
  good_calloc(n);
  good_memset(n);
  good_struct();
  bad(n);
  return 0;
}
