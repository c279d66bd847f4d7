/* Rows as OVSDB keeps them: a header and a flexible array member
 * (`struct datum fields[]`) allocated to the number of columns and filled
 * by a helper in a loop; a generic list whose `void *data` holds every kind
 * of object the program keeps (rows, symbols, counters).
 * - The elements lie past the record's size: they are the array's one
 *   element, not the header again (offsets must not wrap onto `next`).
 * - A struct copy through the list's data pointer (`s->uuid = u`, with
 *   `u` unset on one path) may not make the fields of every row unset:
 *   a pointer that may point to almost anything writes no state. */
#include <stdlib.h>
struct uuid { unsigned parts[4]; };
struct datum { unsigned n; int *keys; };
struct row { struct row *next; int table; size_t n_refs; struct datum fields[]; };
struct symbol { struct uuid uuid; int created; };
struct node { void *data; struct node *next; };

static struct node *nodes;
static int c1, c2, c3, c4, c5, c6, c7, c8;

static void put(void *data) {
  struct node *n = malloc(sizeof *n);
  if (!n) exit(1);
  n->data = data;
  n->next = nodes;
  nodes = n;
}
static void *first(void) { return nodes ? nodes->data : NULL; }

static void datum_init(struct datum *d) {
  d->n = 0;
  d->keys = NULL;
}
static struct row *row_create(int columns) {
  struct row *r = malloc(sizeof *r + (size_t)columns * sizeof(struct datum));
  if (!r) exit(1);
  r->next = NULL;
  r->table = columns;
  r->n_refs = 0;
  for (int i = 0; i < columns; i++) datum_init(&r->fields[i]);
  return r;
}

int main(int argc, char **argv) {
  (void)argv;
  put(&c1); put(&c2); put(&c3); put(&c4); put(&c5); put(&c6); put(&c7); put(&c8);
  struct symbol *sym = malloc(sizeof *sym);
  if (!sym) return 1;
  sym->created = 0;
  put(sym);
  struct row *r = row_create(argc + 2);
  put(r);
  struct uuid u;
  if (argc > 2) u.parts[0] = u.parts[1] = u.parts[2] = u.parts[3] = 7;
  struct symbol *s = first();
  if (s && argc > 2) s->uuid = u;
  int sum = r->table;               /* EXPECT-NOT weir-uninit */
  sum += (int)r->fields[1].n;       /* EXPECT-NOT weir-uninit */
  sum += r->fields[0].keys != NULL; /* EXPECT-NOT weir-uninit */
  struct row *bare = malloc(sizeof *bare + 2 * sizeof(struct datum));
  if (!bare) return 1;
  bare->next = NULL;
  bare->table = 0;
  bare->n_refs = 0;
  /* -O2 folds this read of a fresh block to undef and drops the block */
  sum += (int)bare->fields[1].n;    /* EXPECT-O0 weir-uninit */
  return sum;
}
