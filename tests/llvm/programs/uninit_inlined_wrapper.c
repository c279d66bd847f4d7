/* An allocation wrapper inlined into its callers (always_inline here; -O2
 * does it by itself): each caller has a copy of the malloc call, and every
 * copy carries the wrapper's source line in its debug location. Like the
 * wrapper's one block at -O0 (more than four callers), the copies are one
 * abstract block for many users and are not tracked: a store through a
 * pointer that may be any user's block updates none of them, and the read
 * after it would be a false finding. */
#include <stdio.h>
#include <stdlib.h>

struct rec {
  int id;
  int len;
};

static struct rec *pool[8];

static inline __attribute__((always_inline)) void *xmalloc(size_t n) {
  void *p = malloc(n);
  if (!p) exit(1);
  return p;
}

/* The block goes into the pool and is set up through the pool's slot,
 * which may hold any caller's block. */
#define MAKE(NAME, SLOT)                                                   \
  static void NAME(int id) {                                               \
    struct rec *r = xmalloc(sizeof *r);                                    \
    pool[SLOT] = r;                                                        \
    struct rec *q = pool[SLOT];                                            \
    q->id = id;                                                            \
    q->len = 0;                                                            \
    printf("%d %d\n", r->id, r->len);                                      \
  }

MAKE(make0, 0) /* EXPECT-NOT weir-uninit */
MAKE(make1, 1) /* EXPECT-NOT weir-uninit */
MAKE(make2, 2) /* EXPECT-NOT weir-uninit */
MAKE(make3, 3) /* EXPECT-NOT weir-uninit */
MAKE(make4, 4) /* EXPECT-NOT weir-uninit */
MAKE(make5, 5) /* EXPECT-NOT weir-uninit */

int main(int argc, char **argv) {
  (void)argv;
  make0(argc);
  make1(argc);
  make2(argc);
  make3(argc);
  make4(argc);
  make5(argc);
  for (int i = 0; i < 6; i++) free(pool[i]);
  return 0;
}
