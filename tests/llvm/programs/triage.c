/* weir analyze's triage: one finding per (rule, sink) with its sources
 * merged, `weir: ignore` comments, --baseline and --min-confidence
 * (cli_test.sh). Line numbers are part of the test. */
#include <stdio.h>

void suppressed_same_line(int c) {
  int x;
  if (c) x = 1;
  printf("%d\n", x); /* weir: ignore[uninit] */
}

void suppressed_line_above(int c) {
  int y;
  if (c) y = 2;
  // weir: ignore
  printf("%d\n", y);
}

void other_rule_ignored(int c) {
  int z;
  if (c) z = 3;
  printf("%d\n", z); // weir: ignore[taint]
}

/* Two locals may reach one read: one finding with two sources. */
int two_sources(int c) {
  int a, b;
  int *p = c ? &a : &b;
  return *p;
}

int main(int argc, char **argv) {
  (void)argv;
  suppressed_same_line(argc);
  suppressed_line_above(argc);
  other_rule_ignored(argc);
  return two_sources(argc);
}
