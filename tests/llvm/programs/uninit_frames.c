/* Two idioms of interpreters and runtimes (OCaml's runtime has both):
 * - the small-buffer idiom: a local array when the count is small, a heap
 *   block otherwise (`p = n <= SMALL ? small : malloc(..)`), filled by one
 *   loop and read by a helper; the store through p goes to one place per
 *   call, whichever it is;
 * - a table initialised by a helper through a pointer that also takes
 *   globals' addresses (`table_init(&global)`, `table_init(&local)`), then
 *   handed on to another helper: the local's address is never stored in
 *   memory, so a call reaches it only through its own arguments, and the
 *   calls made before (`table_init(&path)`) wrote it.
 * The reads of fields nothing writes are still reported. */
#include <stdlib.h>
#include <string.h>

#define NOINLINE __attribute__((noinline))
#define SMALL 16

static NOINLINE long sum(long n, const long *v) {
  long s = 0;
  for (long i = 0; i < n; ++i) s += v[i]; /* EXPECT-NOT weir-uninit (the loop below filled each) */
  return s;
}

long gather(long n, const long *from) {
  long small[SMALL], *v;
  if (n <= SMALL) v = small;
  else v = malloc((size_t)n * sizeof *v);
  if (!v) return -1;
  for (long i = 0; i < n; ++i) v[i] = from[i] * 2;
  long s = sum(n, v);
  if (v != small) free(v);
  return s;
}

struct table {
  int size, capacity;
  char **contents;
  int spare; /* nothing writes it */
};

static struct table libraries, primitives;

static NOINLINE int table_add(struct table *t, char *item);

/* Out of memory: logged into a global table (a callback reaching every
 * table helper, as a runtime's exception handler does). */
static NOINLINE void out_of_memory(void) { table_add(&libraries, "out of memory"); }

static NOINLINE void *xalloc(size_t n) {
  void *p = malloc(n);
  if (!p) out_of_memory();
  return p;
}

static NOINLINE void table_init(struct table *t, int capacity) {
  t->size = 0;
  t->capacity = capacity;
  t->contents = xalloc(sizeof(char *) * (size_t)capacity);
}

static NOINLINE int table_add(struct table *t, char *item) {
  if (t->size >= t->capacity) {
    t->capacity *= 2;
    t->contents = realloc(t->contents, sizeof(char *) * (size_t)t->capacity); /* EXPECT-NOT weir-uninit */
  }
  t->contents[t->size] = item; /* EXPECT-NOT weir-uninit (table_init wrote it in every caller) */
  return t->size++;
}

static NOINLINE char *split_path(struct table *t, const char *path) {
  char *copy = strdup(path ? path : "");
  for (char *p = copy, *q; p && *p; p = q) {
    q = strchr(p, ':');
    if (q) *q++ = 0;
    table_add(t, p);
  }
  return copy;
}

static NOINLINE int spare_of(const struct table *t) { return t->spare; /* EXPECT weir-uninit */ }

int search_path(const char *name) {
  struct table path;
  table_init(&path, 8);
  char *copy = split_path(&path, getenv("PATH"));
  int found = 0;
  for (int i = 0; i < path.size; ++i) found += strcmp(path.contents[i], name) == 0;
  found += spare_of(&path);
  free(copy);
  free(path.contents);
  return found;
}

int main(int argc, char **argv) {
  long from[40];
  for (int i = 0; i < 40; ++i) from[i] = argc + i;
  table_init(&libraries, 4);
  table_init(&primitives, 64);
  table_add(&libraries, argv[0]);
  table_add(&primitives, argv[0]);
  return (int)gather(argc, from) + (int)gather(argc + 30, from) + search_path(argv[0]);
}
