#include <stdio.h>

__attribute__((noinline)) static void finish(FILE *f) {
  fputs("done\n", f);
  fclose(f); /* EXPECT-NOT weir-typestate: each caller passes its own stream */
}

static int twice(const char *path) {
  FILE *f = fopen(path, "w");
  if (!f) return 1;
  fclose(f);
  fclose(f); /* EXPECT weir-typestate-double-close */
  return 0;
}

static int after_helper(const char *path) {
  FILE *f = fopen(path, "w");
  if (!f) return 1;
  finish(f);
  fprintf(f, "late %d\n", 1); /* EXPECT weir-typestate-use-after-close */
  return 0;
}

static int each_path(const char *path, int c) {
  FILE *f = fopen(path, "w");
  if (!f) return 1;
  if (c) {
    fclose(f); /* EXPECT-NOT weir-typestate */
  } else {
    fprintf(f, "x %d\n", c);
    fclose(f); /* EXPECT-NOT weir-typestate */
  }
  return 0;
}

int main(int argc, char **argv) {
  FILE *a = fopen(argv[1], "r"), *b = fopen(argv[2], "r");
  if (a) finish(a);
  if (b) finish(b);
  return twice(argv[1]) + after_helper(argv[1]) + each_path(argv[1], argc);
}
