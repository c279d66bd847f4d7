/* binutils' dwarf.c reads a file table per compilation unit: in a loop over
 * the units, an inner loop fills a fresh table, then its first entry is
 * printed. The path that skips the inner loop is IFDS's, not the
 * program's (the inner loop runs while the byte tested before it is not 0);
 * inside the outer loop both sides of the inner loop's branches came back
 * to it through the outer loop, so the fill was not seen. An `if` inside a
 * loop that sets a variable on one branch only is still a finding. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct entry {
  const char *name;
  unsigned long dir;
};

int main(int argc, char **argv) {
  const char *data = argv[0];
  for (int unit = 0; unit < argc; unit++) {
    struct entry *table = NULL;
    unsigned count = 0, i = 0;
    if (*data != 0) {
      const char *p = data;
      while (*data != 0) data += strlen(data) + 1, count++;
      table = malloc(count * sizeof *table);
      if (table == NULL) return 1;
      while (*p != 0) {
        table[i].name = p;
        table[i].dir = strlen(p);
        p += strlen(p) + 1;
        i++;
      }
    }
    if (table) printf("%s %lu\n", table[0].name, table[0].dir); /* EXPECT-NOT weir-uninit */
    free(table);
  }
  int last;
  for (int k = 1; k < argc; k++) {
    if (argv[k][0] == '-') last = k;
    printf("%d\n", last); /* EXPECT weir-uninit: set only on the branch taken for options */
  }
  return 0;
}
