/* A heap struct built by a constructor that sets one field: reading the
 * other field elsewhere is a read of uninitialised heap memory. */
#include <stdio.h>
#include <stdlib.h>

struct account {
  int id;
  long balance;
};

static struct account *account_new(int id) {
  struct account *a = malloc(sizeof *a);
  if (a == NULL) exit(1);
  a->id = id;
  return a;
}

static void report(const struct account *a) {
  printf("id %d\n", a->id); /* EXPECT-NOT weir-uninit */
  printf("balance %ld\n", a->balance); /* EXPECT weir-uninit */
}

int main(int argc, char **argv) {
  (void)argv;
  struct account *a = account_new(argc);
  report(a);
  free(a);
  return 0;
}
