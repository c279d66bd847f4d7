/* printf reads through an argument only where the format says so: %s reads
 * the string, %p prints the pointer, %n writes through it. A constant
 * format decides (analyses/uninit/format.c); any other keeps the table's rule
 * (every pointer argument is read). */
#include <stdio.h>
#include <string.h>

static void bad_string(void) {
  char name[16];
  printf("%s\n", name); /* EXPECT weir-uninit */
}

static void bad_after_others(int n) {
  char name[16];
  printf("%d %p %*s\n", n, (void *)&n, n, name); /* EXPECT weir-uninit */
}

static void bad_fprintf(void) {
  char word[8];
  fprintf(stderr, "word: %.4s\n", word); /* EXPECT weir-uninit */
}

static void good_pointer(void) {
  char buffer[64];
  printf("buffer at %p\n", (void *)buffer); /* EXPECT-NOT weir-uninit */
  strcpy(buffer, "x");
  puts(buffer);
}

static void good_count(void) {
  int written;
  char line[32];
  printf("%s%n\n", "hello", &written); /* EXPECT-NOT weir-uninit */
  snprintf(line, sizeof line, "%d", written);
  puts(line);
}

static void fallback_variable_format(const char *format) {
  char buffer[64];
  printf(format, (void *)buffer); /* EXPECT weir-uninit (the format is not a constant: every pointer is read) */
}

int main(int argc, char **argv) {
  bad_string();
  bad_after_others(argc);
  bad_fprintf();
  good_pointer();
  good_count();
  fallback_variable_format(argc > 1 ? argv[1] : "%p\n");
  return 0;
}
