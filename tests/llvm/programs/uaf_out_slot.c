/* binutils' DWARF frame reader keeps `cie` in one local: first the static
 * chunk of the current entry (`cie = fc`, fc = &fde_fc), later whatever
 * read_cie(.., &cie, ..) makes. Its address goes to a call, so the local
 * stays in memory, and the flow-insensitive model gave every load of it
 * both values: freeing the chunks read back freed the static chunk's
 * columns too (58 false uses after free). read_cie writes *p_cie before
 * anything else, so the value after the call is the callee's alone: the
 * local is rewritten to a slot per call and becomes SSA. A real use after
 * free of the static chunk's columns stays a finding. */
#include <stdio.h>
#include <stdlib.h>

#define NOINLINE __attribute__((noinline))

struct chunk {
  struct chunk *next;
  char *cols;
};

static struct chunk entry_chunk;

static NOINLINE const char *read_chunk(const char *s, struct chunk **out) {
  *out = NULL;
  struct chunk *c = malloc(sizeof *c);
  if (c == NULL) return s;
  c->next = NULL;
  c->cols = malloc(8);
  *out = c;
  return s + 1;
}

static NOINLINE void lookup(const char *key, struct chunk **found) {
  if (found) *found = NULL; /* the `if (out)` form of an out-parameter */
  if (key[0] == 'e') *found = &entry_chunk;
}

int main(int argc, char **argv) {
  struct chunk *chunks = NULL, *cie, *hit;
  entry_chunk.cols = malloc(8);
  if (entry_chunk.cols == NULL) return 1;
  cie = &entry_chunk;
  cie->cols[0] = 'e';
  for (int i = 1; i < argc; i++) {
    read_chunk(argv[i], &cie);
    if (cie == NULL) break;
    cie->next = chunks;
    chunks = cie;
  }
  lookup(argv[0], &hit);
  while (chunks != NULL) {
    struct chunk *c = chunks;
    chunks = c->next;
    free(c->cols);
    free(c);
  }
  putchar(entry_chunk.cols[0]); /* EXPECT-NOT weir-use-after-free: only the chunks read were freed */
  if (hit) putchar(hit->cols[0]); /* EXPECT-NOT weir-use-after-free */
  free(entry_chunk.cols);
  putchar(entry_chunk.cols[0]); /* EXPECT weir-use-after-free: freed on the line above */
  return 0;
}
