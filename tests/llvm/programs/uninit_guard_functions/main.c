/* Guards that call a function of another module returning a constant
 * global: the branch folds once the modules are linked, so the variable set
 * under an always-true guard is initialised and the one set under an
 * always-false guard is not. The value set is not a constant, so -O2 keeps
 * the branch (clang folds `phi [undef, 5]` to 5 by itself), and the variable is
 * written out by address, so -O2 keeps it in memory: a read of an
 * uninitialised scalar is undefined, and -O2 deletes the path that does it. */
#include <stdio.h>

#include "flags.h"

#define NOINLINE __attribute__((noinline))


static NOINLINE void good_true(int n) {
  int x;
  if (globalTrue()) x = n * 5;
  fwrite(&x, sizeof x, 1, stdout); /* EXPECT-NOT weir-uninit */
}

static NOINLINE void bad_false(int n) {
  int x;
  if (globalFalse()) x = n * 5;
  fwrite(&x, sizeof x, 1, stdout); /* EXPECT weir-uninit */
}

static NOINLINE void good_compare(int n) {
  double d;
  if (globalReturnsFive() == 5) d = n * 1.5;
  fwrite(&d, sizeof d, 1, stdout); /* EXPECT-NOT weir-uninit */
}

static NOINLINE void good_else(int n) {
  int x;
  if (globalFalse()) {
    puts("never");
  } else {
    x = n + 7;
  }
  fwrite(&x, sizeof x, 1, stdout); /* EXPECT-NOT weir-uninit */
}

static NOINLINE void good_saved(int n) {
  int x;
  int on = globalTrue();
  if (on) x = n - 1;
  fwrite(&x, sizeof x, 1, stdout); /* EXPECT-NOT weir-uninit */
}

static NOINLINE void good_switch(int n) {
  int x;
  switch (globalReturnsFive()) {
  case 5:
    x = n * 5;
    break;
  default: break;
  }
  fwrite(&x, sizeof x, 1, stdout); /* EXPECT-NOT weir-uninit */
}

static NOINLINE void bad_const_compare(int n) {
  int x;
  if (GLOBAL_FIVE != 5) x = n * 5;
  fwrite(&x, sizeof x, 1, stdout); /* EXPECT weir-uninit */
}

int main(int argc, char **argv) {
  (void)argv;
  good_true(argc);
  bad_false(argc);
  good_compare(argc);
  good_else(argc);
  good_saved(argc);
  good_switch(argc);
  bad_const_compare(argc);
  return 0;
}
