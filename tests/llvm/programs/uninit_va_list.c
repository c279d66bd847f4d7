/* va_start initialises the va_list (it is not a use of an uninitialised
 * object); va_copy initialises its destination. A variadic function that
 * prints its first variadic argument reads an uninitialised local when
 * there is none. */
#include <stdarg.h>
#include <stdio.h>

static int sum_good(int count, ...) {
  va_list args;
  va_start(args, count);
  int total = 0;
  for (int i = 0; i < count; i++) total += va_arg(args, int); /* EXPECT-NOT weir-uninit */
  va_end(args);
  return total;
}

static void print_twice(const char *format, ...) {
  va_list args, again;
  va_start(args, format);
  va_copy(again, args);
  vprintf(format, args); /* EXPECT-NOT weir-uninit */
  vprintf(format, again); /* EXPECT-NOT weir-uninit */
  va_end(again);
  va_end(args);
}

static void first_bad(int count, ...) {
  va_list args;
  va_start(args, count);
  int first;
  if (count > 0) first = va_arg(args, int);
  va_end(args);
  printf("%d\n", first); /* EXPECT-O0 weir-uninit */
  /* -O2: reading `first` when count <= 0 is undefined behaviour, so clang
   * assumes count > 0. */
}

int main(int argc, char **argv) {
  (void)argv;
  /* -O2 passes undef for these constant arguments once it has propagated
   * them into the callees: not a use. */
  printf("%d\n", sum_good(3, argc, 2, 3)); /* EXPECT-NOT weir-uninit */
  print_twice("%d\n", argc); /* EXPECT-NOT weir-uninit */
  first_bad(argc - 1, 1, 2, 3);
  return 0;
}
