/* Method tables (OVS's stream classes): `o->cls->run(o)` loads its target
 * from field `run` of a `struct cls`. When the class pointer is polluted
 * (here it comes out of an untyped table that also holds a struct whose
 * second field is a closing function), the points-to set of the loaded
 * pointer holds every function stored at that offset anywhere, and `run`
 * would reach a `close` that frees the object. Only functions ever put
 * into `struct cls`'s `run` field can come out of it (memory/fieldfns.c):
 * a_run, or nothing (B leaves it NULL). A real use after the real close
 * is still found. */
#include <stdlib.h>

struct obj;
struct cls {
  void (*close)(struct obj *);
  void (*run)(struct obj *);
};
struct obj {
  const struct cls *cls;
  int x;
};
struct hook {
  void *owner;
  void (*fire)(struct obj *);
};

static void a_close(struct obj *o) { free(o); }
static void a_run(struct obj *o) { o->x++; }
static void b_close(struct obj *o) { free(o); }

static const struct cls A = {a_close, a_run};
static const struct cls B = {b_close, NULL};
static struct hook on_exit_hook = {NULL, b_close};
static const void *registry[3] = {&A, &B, &on_exit_hook};

void run(struct obj *o) {
  if (o->cls->run) o->cls->run(o);
}

void close_obj(struct obj *o) { o->cls->close(o); }

int main(int argc, char **argv) {
  (void)argv;
  struct obj *o = malloc(sizeof *o);
  if (!o) return 1;
  o->cls = registry[argc % 3];
  o->x = 0;
  run(o);
  o->x = 1; /* EXPECT-NOT weir-use-after-free */
  close_obj(o);
  return o->x; /* EXPECT weir-use-after-free */
}
