/* A heap object that owns another heap block: freeing the owner and then
 * reading its field is a use after free of the owner; the good function
 * reads the field first and frees both in order. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct record {
  char *name;
  int id;
};

static struct record *record_new(const char *name, int id) {
  struct record *r = malloc(sizeof *r);
  if (r == NULL) exit(1);
  r->name = strdup(name);
  r->id = id;
  return r;
}

static void bad(const char *name) {
  struct record *r = record_new(name, 1);
  free(r);
  free(r->name); /* EXPECT weir-use-after-free */
}

static void good(const char *name) {
  struct record *r = record_new(name, 2);
  char *owned = r->name;
  printf("%d\n", r->id);
  free(r);
  puts(owned); /* EXPECT-NOT weir-use-after-free */
  free(owned);
}

int main(int argc, char **argv) {
  if (argc < 2) return 1;
  good(argv[1]);
  bad(argv[1]);
  return 0;
}
