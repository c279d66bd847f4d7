/* A freed block whose only holder is cleared (`free(s->buf); s->buf = NULL;`,
 * a memset of the struct), and one held only by the locals of the function
 * that frees it, are not "used after free" when the same allocation site
 * makes the next block (btmon's conn_list and hwdb strings). A use of a
 * block after its free in the same function is still found. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NOINLINE __attribute__((noinline))

struct slot { char *buf; int len; };
static struct slot slots[4];

static NOINLINE void fill(int i) {
  slots[i].buf = malloc(16);
  if (!slots[i].buf) return;
  slots[i].buf[0] = 'a'; /* EXPECT-NOT weir-use-after-free */
  slots[i].len = 1;
}

static NOINLINE void clear(int i) {
  free(slots[i].buf);
  slots[i].buf = NULL;
}

static NOINLINE void reset(int i) {
  free(slots[i].buf);
  memset(&slots[i], 0, sizeof slots[i]);
}

static NOINLINE int use(int i) { return slots[i].buf ? slots[i].buf[0] : 0; } /* KNOWN-FP-O2 weir-use-after-free */

static NOINLINE void lookup(char **out, int found) {
  if (found) *out = strdup("name");
}

static NOINLINE void show(int found) {
  char *name = NULL;
  lookup(&name, found);
  if (name) puts(name); /* EXPECT-NOT weir-use-after-free */
  free(name);           /* EXPECT-NOT weir-double-free */
}

int main(int argc, char **argv) {
  (void)argv;
  fill(0);
  clear(0);
  fill(1);
  reset(1);
  int sum = use(0) + use(1);
  show(argc > 1);
  show(argc > 2);
  char *p = malloc(8);
  if (!p) return 1;
  free(p);
  p[0] = (char)argc; /* EXPECT-O0 weir-use-after-free KNOWN-FN-O2 weir-use-after-free */
  return sum;
}
