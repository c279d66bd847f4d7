#include <stdio.h>
#include <stdlib.h>

struct output {
  FILE *stream;
  int lines;
};

/* A copy of the handle is closed, the original used. */
__attribute__((noinline)) static int copy_closed(const char *path) {
  FILE *f = fopen(path, "w");
  if (!f) return 1;
  FILE *g = f;
  fclose(g);
  fprintf(f, "late\n"); /* EXPECT weir-typestate-use-after-close */
  return 0;
}

/* The handle lives in a struct; closing it through the struct closes it. */
__attribute__((noinline)) static int through_field(const char *path) {
  struct output out = {fopen(path, "w"), 0};
  if (!out.stream) return 1;
  FILE *f = out.stream;
  fputs("header\n", f);
  fclose(out.stream);
  fputs("trailer\n", f); /* EXPECT weir-typestate-use-after-close */
  return 0;
}

/* Correct: closed once on every path, the error path included. */
__attribute__((noinline)) static int well_behaved(const char *path, int n) {
  FILE *f = fopen(path, "r");
  if (f == NULL) return -1;
  char line[128];
  int count = 0;
  while (fgets(line, sizeof line, f)) { /* EXPECT-NOT weir-typestate */
    if (++count > n) {
      fclose(f); /* EXPECT-NOT weir-typestate */
      return -1;
    }
  }
  fclose(f); /* EXPECT-NOT weir-typestate */
  return count;
}

/* Opened, read, never closed: leaks at the function's return. */
__attribute__((noinline)) static int first_char(const char *path) {
  FILE *f = fopen(path, "r");
  if (!f) return -1;
  return fgetc(f);
} /* EXPECT weir-typestate-leak */

static FILE *log_file;

int main(int argc, char **argv) {
  if (argc < 2) return 2;
  log_file = fopen("run.log", "a");
  if (!log_file) return 1;
  fprintf(log_file, "start\n");
  int r = copy_closed(argv[1]) + through_field(argv[1]) + well_behaved(argv[1], argc) + first_char(argv[1]);
  return r;
} /* EXPECT weir-typestate-leak: log_file is still open when main returns */
