/* A local whose address escapes only after it is written (btmon's control.c:
 * `if (SCM_TIMESTAMP) { memcpy(&ctv, ...); tv = &ctv; }`, then tv read when
 * not NULL): reads through the escaped pointer see the written fields, so
 * nothing is reported for them; a field not written before the escape
 * still is, and so is a read of the local itself before any write.
 * memcpy into a struct replaces its state field by field. */
#include <stdio.h>
#include <string.h>

struct stamp { long sec; long usec; };
struct opcode { int code; int (*func)(int); int size; };

static int twice(int x) { return 2 * x; }

static long show(const struct stamp *tv) { return tv ? tv->sec + tv->usec : 0; }

static int run(const struct opcode *op, int x) { return op ? op->func(x) + op->size : x; }

static int partial(const struct opcode *op) { return op ? op->size : 0; } /* EXPECT-O0 weir-uninit KNOWN-FN-O2 weir-uninit */

int main(int argc, char **argv) {
  (void)argv;
  const struct stamp *tv = NULL;
  struct stamp ctv, src = {1, 2};
  if (argc > 1) {
    memcpy(&ctv, &src, sizeof ctv);
    tv = &ctv;
  }
  const struct opcode *op = NULL;
  struct opcode vendor;
  if (argc > 2) {
    vendor.func = twice;
    vendor.size = 4;
    op = &vendor;
  }
  const struct opcode *half = NULL;
  struct opcode other;
  if (argc > 3) {
    other.code = 1; /* size is never written */
    half = &other;
  }
  struct stamp copy;
  memcpy(&copy, &src, sizeof copy);
  struct stamp early;
  printf("%ld\n", early.sec); /* EXPECT-O0 weir-uninit KNOWN-FN-O2 weir-uninit */
  early.sec = 0;
  return (int)(show(tv) + run(op, argc) + copy.usec + partial(half) + early.sec);
}
