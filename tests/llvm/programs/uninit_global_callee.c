/* A local handed to a callee in a file-scope pointer: the callee that
 * writes it through the global initialises it in the caller; one that only
 * reads it reads it uninitialised; one that touches neither leaves it. */
#include <stdio.h>

#define NOINLINE __attribute__((noinline))

struct point { int x, y; };

static int *g_out;
static struct point *g_point;

static NOINLINE void fill_out(void) { *g_out = 42; }
static NOINLINE int read_out(void) { return *g_out; /* EXPECT weir-uninit */ }
static NOINLINE void fill_point(void) {
  g_point->x = 1;
  g_point->y = 2;
}
static NOINLINE void unrelated(void) { puts("unrelated"); }

static NOINLINE int through_global(void) {
  int v;
  g_out = &v;
  fill_out();
  return v; /* EXPECT-NOT weir-uninit */
}

static NOINLINE int read_through_global(void) {
  int v;
  g_out = &v;
  return read_out();
}

static NOINLINE int struct_through_global(void) {
  struct point p;
  g_point = &p;
  fill_point();
  return p.x + p.y; /* EXPECT-NOT weir-uninit */
}

static NOINLINE void not_written(void) {
  int w;
  g_out = &w;
  unrelated();
  printf("%d\n", w); /* EXPECT weir-uninit */
}

int main(int argc, char **argv) {
  (void)argv;
  not_written();
  printf("%d\n", through_global() + read_through_global() + struct_through_global() + argc);
  return 0;
}
