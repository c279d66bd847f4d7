/* Arrays filled by a loop and read after it (ocamlrun's skip lists, random
 * seeds): the path that leaves the loop before its first iteration is not
 * taken for an unset array (analyses/uninit/loopfill.c). An array no loop writes
 * is still reported. */
#include <stdio.h>

#define NOINLINE __attribute__((noinline))

static NOINLINE int filled(int level) {
  int update[16];
  for (int i = level; i >= 0; i--) update[i] = i * 2;
  return update[0]; /* EXPECT-NOT weir-uninit */
}

static NOINLINE int counted(int n) {
  long seed[16];
  int k = 0;
  while (k < n && k < 16) {
    seed[k] = k;
    k++;
  }
  long sum = 0;
  for (int i = 0; i < k; i++) sum += seed[i]; /* EXPECT-NOT weir-uninit */
  return (int)sum;
}

static NOINLINE int never(int n) {
  int table[8];
  int sum = 0;
  for (int i = 0; i < n && i < 8; i++) sum += table[i]; /* EXPECT weir-uninit */
  return sum;
}

int main(int argc, char **argv) {
  (void)argv;
  return filled(argc) + counted(argc) + never(argc);
}
