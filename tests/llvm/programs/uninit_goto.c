/* goto: the error path jumps over the initialisation to the cleanup code
 * that prints the value; in the good function the value is set before the
 * first jump. */
#include <stdio.h>
#include <stdlib.h>

static int bad(const char *path) {
  FILE *f = fopen(path, "r");
  long length;
  if (f == NULL) goto done;
  if (fseek(f, 0, SEEK_END) != 0) goto close;
  length = ftell(f);
close:
  fclose(f);
done:
  printf("%ld\n", length); /* EXPECT weir-uninit */
  return 0;
}

static int good(const char *path) {
  long length = -1;
  FILE *f = fopen(path, "r");
  if (f == NULL) goto done;
  if (fseek(f, 0, SEEK_END) != 0) goto close;
  length = ftell(f);
close:
  fclose(f);
done:
  printf("%ld\n", length); /* EXPECT-NOT weir-uninit */
  return 0;
}

int main(int argc, char **argv) {
  if (argc < 2) return 1;
  good(argv[1]);
  bad(argv[1]);
  return 0;
}
