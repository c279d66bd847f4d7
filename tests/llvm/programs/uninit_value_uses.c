/* One variable left unset on one path is one bug, however many uses of
 * its value follow, in this function and, through its return value, in
 * every caller: reported once, at the use nearest to where it was left
 * unset, with the others listed (SARIF relatedLocations). */
#include <stdio.h>
#include <stdlib.h>

#define NOINLINE __attribute__((noinline))

static NOINLINE int lookup(const char *key) {
  int value;
  if (key[0] == 'a') value = atoi(key + 1);
  else if (key[0] == 'b') value = 2;
  return value;
}

static NOINLINE int twice(const char *key) {
  int v = lookup(key);
  if (v > 10) puts("big"); /* EXPECT-O0 weir-uninit: (-O2 folds the undef away) the first use of lookup's unset value */
  return v * 2;
}

int main(int argc, char **argv) {
  if (argc < 2) return 1;
  int w = twice(argv[1]);
  if (w > 4) puts("w"); /* EXPECT-NOT weir-uninit: the same value, listed with the first use */
  printf("%d\n", w); /* EXPECT-NOT weir-uninit: the same value again */
  return 0;
}
