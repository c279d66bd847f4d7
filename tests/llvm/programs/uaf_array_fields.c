/* Destroying an array of structs: each element's field is freed once, in
 * a loop. At -O2 clang casts the element's field before the load
 * (`(char **)&t[i].rows`); the cell of the field stands for every
 * element, so "the slot it was read from dangles" must not make the next
 * element's field dangle. */
#include <stdlib.h>
struct row { int x; };
struct tu { int n; struct row *rows; };
struct du { struct tu *t; size_t n; };
void destroy(struct du *du) {
  if (!du) return;
  for (size_t i = 0; i < du->n; i++) {
    struct tu *tu = &du->t[i];
    free(tu->rows); /* EXPECT-NOT weir-double-free */
  }
  free(du->t);
  free(du);
}
struct du *make(size_t n) {
  struct du *d = malloc(sizeof *d);
  if (!d) return NULL;
  d->t = calloc(n, sizeof *d->t);
  d->n = d->t ? n : 0;
  for (size_t i = 0; i < d->n; i++) d->t[i].rows = malloc(sizeof(struct row));
  return d;
}
int main(int argc, char **argv) { (void)argv; destroy(make((size_t)argc)); return 0; }
