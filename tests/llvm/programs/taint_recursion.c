/* Recursion: the tainted argument travels down a recursive chain, and a
 * recursive function returns tainted data up the chain. */
#include <stdio.h>
#include <stdlib.h>

static void descend(const char *command, int depth) {
  if (depth == 0) {
    system(command); /* EXPECT weir-taint from=getenv */
    return;
  }
  descend(command, depth - 1);
}

static int count_down(int n, int acc) {
  if (n <= 0) return acc;
  return count_down(n - 1, acc + 1);
}

static int parse(int n) {
  char buf[32];
  if (n <= 0) {
    if (scanf("%31s", buf) != 1) return 0;
    return atoi(buf);
  }
  return parse(n - 1) + 1;
}

int main(void) {
  descend(getenv("CMD"), 3);
  char fmt[16];
  snprintf(fmt, sizeof fmt, "%d\n", count_down(5, 0));
  printf(fmt);
  int v = parse(2);
  char out[16];
  snprintf(out, sizeof out, "%d", v);
  return printf(out); /* EXPECT weir-taint from=__isoc99_scanf */
}
