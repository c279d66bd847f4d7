/* Initialisers called through a table of function pointers: every entry of
 * the `setters` table writes its argument; the `peekers` table reads it,
 * and one peeker reads the caller's unset value. */
#include <stdio.h>

typedef void (*setter_fn)(int *);
typedef void (*peeker_fn)(const int *);

static void set_zero(int *v) { *v = 0; }
static void set_input(int *v) { *v = getchar(); }

static void peek_value(const int *v) {
  printf("%d\n", *v); /* EXPECT weir-uninit */
}

static const setter_fn setters[] = {set_zero, set_input};
static const peeker_fn peekers[] = {peek_value};

int main(int argc, char **argv) {
  (void)argv;
  int a, b;
  setters[argc % 2](&a);
  printf("%d\n", a); /* EXPECT-NOT weir-uninit */
  peekers[0](&b);
  return 0;
}
