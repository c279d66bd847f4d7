/* Arrays initialised in part: a loop (or constant indices) writes some
 * elements, a later loop reads more. Initialisation is tracked by element
 * range where the bounds are constants or a loop's trip count follows from
 * its condition (analyses/uninit/ranges.c); elsewhere one written element counts
 * for the whole array. */
#include <alloca.h>
#include <stdio.h>
#include <stdlib.h>

struct point {
  int x;
  int y;
};

static void bad_stack_int(void) {
  int a[10];
  int i;
  for (i = 0; i < 5; i++) a[i] = i;
  for (i = 0; i < 10; i++) printf("%d\n", a[i]); /* EXPECT weir-uninit */
}

static void bad_stack_double(int seed) {
  double d[8];
  for (int i = 0; i < 4; ++i) d[i] = seed * 0.5;
  for (int i = 0; i < 8; ++i) printf("%f\n", d[i]); /* EXPECT weir-uninit */
}

static void bad_stack_struct(int seed) {
  struct point p[6];
  for (int i = 0; i < 3; i++) {
    p[i].x = seed;
    p[i].y = seed + i;
  }
  for (int i = 0; i < 6; i++) printf("%d %d\n", p[i].x, p[i].y); /* EXPECT weir-uninit */
}

static void bad_malloc_int(void) {
  int *m = malloc(10 * sizeof *m);
  if (!m) return;
  for (int i = 0; i < 5; i++) m[i] = i;
  for (int i = 0; i < 10; i++) printf("%d\n", m[i]); /* EXPECT weir-uninit */
  free(m);
}

static void bad_malloc_double(int seed) {
  double *m = malloc(6 * sizeof(double));
  if (m == NULL) return;
  int i = 0;
  while (i < 3) {
    m[i] = seed;
    i++;
  }
  for (i = 0; i < 6; i++) printf("%f\n", m[i]); /* EXPECT weir-uninit */
  free(m);
}

static void bad_alloca_int(int seed) {
  int *a = alloca(8 * sizeof(int));
  for (int i = 0; i < 4; i++) a[i] = seed;
  for (int i = 0; i < 8; i++) printf("%d\n", a[i]); /* EXPECT weir-uninit */
}

static void bad_counting_down(void) {
  int a[10];
  for (int i = 9; i >= 5; i--) a[i] = i;
  for (int i = 0; i < 10; i++) printf("%d\n", a[i]); /* EXPECT weir-uninit */
}

static void bad_le_bound(void) {
  long a[12];
  for (int i = 0; i <= 5; i++) a[i] = i;
  for (int i = 0; i <= 11; i++) printf("%ld\n", a[i]); /* EXPECT weir-uninit */
}

static void bad_do_while(void) {
  char s[8];
  int i = 0;
  do {
    s[i] = 'a';
  } while (++i < 4);
  /* -O2 inlines putchar and folds the undefined chars into 0: nothing left to see */
  for (i = 0; i < 8; i++) putchar(s[i]); /* EXPECT-O0 weir-uninit KNOWN-FN-O2 weir-uninit */
}

static void good_whole(void) {
  int a[10];
  for (int i = 0; i < 10; i++) a[i] = i;
  for (int i = 0; i < 10; i++) printf("%d\n", a[i]); /* EXPECT-NOT weir-uninit */
}

static void good_two_halves(int seed) {
  double d[8];
  for (int i = 0; i < 4; i++) d[i] = seed;
  for (int i = 4; i < 8; i++) d[i] = -seed;
  for (int i = 0; i < 8; i++) printf("%f\n", d[i]); /* EXPECT-NOT weir-uninit */
}

static void good_ne_bound(void) {
  short v[6];
  for (int i = 0; i != 6; ++i) v[i] = (short)i;
  for (int i = 0; i < 6; i++) printf("%d\n", v[i]); /* EXPECT-NOT weir-uninit */
}

static void good_prefix_read(void) {
  int *m = malloc(10 * sizeof(int));
  if (!m) return;
  for (int i = 0; i < 5; i++) m[i] = 2 * i;
  for (int i = 0; i < 5; i++) printf("%d\n", m[i]); /* EXPECT-NOT weir-uninit */
  free(m);
}

static void good_struct_whole(int seed) {
  struct point p[4];
  int i = 0;
  while (i < 4) {
    p[i].x = seed;
    p[i].y = i;
    ++i;
  }
  for (i = 0; i < 4; i++) printf("%d %d\n", p[i].x, p[i].y); /* EXPECT-NOT weir-uninit */
}

void *volatile escape_hole;

/* The array's address escapes (a global holds it): at -O2 it stays in memory
 * instead of becoming SSA values, loops unrolled or vectorised. */
static void bad_escaping_stack(int seed) {
  int a[16];
  escape_hole = a;
  for (int i = 0; i < 8; i++) a[i] = seed + i;
  for (int i = 0; i < 16; i++) printf("%d\n", a[i]); /* EXPECT weir-uninit */
}

static void bad_escaping_heap_struct(int seed) {
  struct point *p = malloc(5 * sizeof *p);
  if (!p) return;
  escape_hole = p;
  for (int i = 0; i < 2; i++) p[i].x = p[i].y = seed;
  for (int i = 0; i < 5; i++) printf("%d\n", p[i].y); /* EXPECT weir-uninit */
  free(p);
}

static void good_escaping_stack(int seed) {
  double d[16];
  escape_hole = d;
  for (int i = 15; i >= 0; i--) d[i] = seed;
  for (int i = 0; i < 16; i++) printf("%f\n", d[i]); /* EXPECT-NOT weir-uninit */
}

static void bad_offset_pointer(void) {
  int a[10];
  int *p = a + 3; /* the range is counted from the array's start */
  for (int i = 0; i < 3; i++) p[i] = i;
  printf("%d\n", a[4]);
  printf("%d\n", a[1]); /* EXPECT weir-uninit */
}

static void bad_nested_loops(int rounds) {
  int a[10];
  for (int k = 0; k < rounds; k++)
    for (int i = 0; i < 5; i++) a[i] = k;
  for (int i = 2; i < 10; i++) printf("%d\n", a[i]); /* EXPECT weir-uninit */
}

static void bad_shifted_index(void) {
  char name[16];
  for (int i = -4; i < 4; i++) name[i + 4] = 'a';
  printf("%c\n", name[6]);
  printf("%c\n", name[12]); /* EXPECT-O0 weir-uninit KNOWN-FN-O2 weir-uninit (clang folds the undefined char) */
}

/* A step of two: the elements are not a range; one written element counts
 * for all at -O0 (at -O2 the loops are unrolled into constant indices). */
static void fallback_step_two(void) {
  int a[10];
  for (int i = 0; i < 10; i += 2) a[i] = i;
  for (int i = 0; i < 10; i++) printf("%d\n", a[i]); /* KNOWN-FN-O0 weir-uninit EXPECT-O2 weir-uninit */
}

/* A bound that is not a constant: one written element counts for all. */
static void fallback_unknown_bound(int n) {
  int a[10];
  for (int i = 0; i < n; i++) a[i] = i;
  for (int i = 0; i < 10; i++) printf("%d\n", a[i]); /* EXPECT-NOT weir-uninit */
}

int main(int argc, char **argv) {
  (void)argv;
  bad_stack_int();
  bad_stack_double(argc);
  bad_stack_struct(argc);
  bad_malloc_int();
  bad_malloc_double(argc);
  bad_alloca_int(argc);
  bad_counting_down();
  bad_le_bound();
  bad_do_while();
  good_whole();
  good_ne_bound();
  good_two_halves(argc);
  good_prefix_read();
  good_struct_whole(argc);
  bad_escaping_stack(argc);
  bad_escaping_heap_struct(argc);
  good_escaping_stack(argc);
  bad_offset_pointer();
  bad_nested_loops(argc);
  bad_shifted_index();
  fallback_step_two();
  fallback_unknown_bound(argc);
  return 0;
}
