/* libiberty's demangler keeps a list of modifiers on the stack: each
 * recursive activation links its local `mod` into the list, sets its
 * fields, and recurses; inner activations read the outer ones' entries
 * through the list. The address is stored before the fields are set, but
 * nothing can read it back before the recursive call, when every field is
 * set. An entry whose `printed` field is set only on one path is real. */
#include <stdio.h>

#define NOINLINE __attribute__((noinline))

struct mod {
  struct mod *next;
  int kind;
  int printed;
};

struct printer {
  struct mod *mods;
  int depth;
};

static NOINLINE void print(struct printer *p, int n) {
  for (struct mod *m = p->mods; m; m = m->next)
    if (!m->printed) printf("%d ", m->kind); /* EXPECT-NOT weir-uninit */
  if (n <= 0) return;
  struct mod mod;
  mod.next = p->mods;
  p->mods = &mod;
  mod.kind = n;
  mod.printed = 0;
  print(p, n - 1);
  p->mods = mod.next;
}

struct late {
  struct late *next;
  int printed;
};

static struct late *lates;

static NOINLINE void show_late(void) {
  for (struct late *l = lates; l; l = l->next) printf("%d\n", l->printed); /* EXPECT weir-uninit */
}

static NOINLINE void print_late(int n) {
  struct late entry;
  entry.next = lates;
  lates = &entry;
  show_late();
  entry.printed = n;
  if (n > 0) print_late(n - 1);
  lates = entry.next;
}

int main(int argc, char **argv) {
  (void)argv;
  struct printer p = {NULL, 0};
  print(&p, argc + 2);
  print_late(argc);
  return 0;
}
