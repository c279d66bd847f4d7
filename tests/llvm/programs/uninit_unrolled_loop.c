/* -O2 unrolls a loop by two and leaves `phi [undef, %prologue], [%p,
 * %body]` for the pointer after it, read only on paths where the body ran:
 * an undef the optimiser made, no source variable (no llvm.dbg.value
 * describes the phi), is no source. A variable of the program left unset
 * on a path stays one. */
#include <stdio.h>

__attribute__((noinline)) static long *push_all(long *sp, const long *args, int n) {
  for (int i = 0; i < n; i++) *--sp = args[i];
  return sp;
}

static void bad_unset_variable(int argc) {
  int x;
  if (argc > 1) x = argc;
  printf("%d\n", x); /* EXPECT-O0 weir-uninit KNOWN-FN-O2 weir-uninit (clang folds the unset path to argc) */
}

int main(int argc, char **argv) {
  (void)argv;
  long stack[64], args[8];
  for (int i = 0; i < 8; i++) args[i] = argc + i;
  int n = argc > 8 ? 8 : argc < 1 ? 1 : argc;
  long *top = push_all(stack + 64, args, n);
  printf("%ld\n", *top); /* EXPECT-NOT weir-uninit */
  bad_unset_variable(argc);
  return 0;
}
