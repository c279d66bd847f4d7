/* Arrays of structs filled by a loop with whole-element assignments,
 * `v[i] = (struct place){...}` and `v[i] = other`, which clang emits as a
 * memcpy of the element at -O0, then read after the loop, directly and
 * through a struct that a callee reads them from (weir's own collective
 * code). On the path where the loop runs zero times nothing is read; the
 * loop's exit edge counts the elements as written, as for plain stores
 * (analyses/uninit/loopfill.c). A field that no assignment writes is still
 * reported. */
#include <stdint.h>
#include <stdio.h>

#define NOINLINE __attribute__((noinline))

struct place {
  void *chunk;
  uint64_t offset;
};
struct exchange {
  int kind;
  const struct place *send, *recv;
  uint64_t bytes;
};
struct pair {
  int a, b;
  int never; /* no assignment writes it */
};

static NOINLINE uint64_t check(const struct exchange *x, uint32_t n) {
  uint64_t s = 0;
  /* At -O2 the filling loop's exit is not one loopfill.c recognises (not analysed
   * further): the two lines below are known false positives there. */
  for (uint32_t i = 0; i < n; ++i) /* KNOWN-FP-O2 weir-uninit */
    s += (uint64_t)(uintptr_t)x->recv[i].chunk + x->send[i].offset; /* EXPECT-NOT weir-uninit KNOWN-FP-O2 weir-uninit */
  return s;
}

uint64_t gather(uint32_t local, void **meta) {
  struct place send[8], recv[8];
  int st = 0;
  for (uint32_t i = 0; i < local && i < 8 && st == 0; ++i) {
    if (!meta[i]) st = -1;
    send[i] = (struct place){meta[i], 0};
    recv[i] = send[i];
  }
  if (st) return 0;
  struct exchange x = {.kind = 1, .send = send, .recv = recv, .bytes = 8};
  return check(&x, local < 8 ? local : 8);
}

int pairs(int n, const int *v) {
  struct pair p[4];
  for (int i = 0; i < n && i < 4; ++i) p[i] = (struct pair){.a = v[i], .b = -v[i], .never = 0};
  struct pair q[4];
  for (int i = 0; i < n && i < 4; ++i) {
    q[i].a = p[i].a; /* EXPECT-NOT weir-uninit */
    q[i].b = p[i].b;
  }
  return q[0].a + q[0].never; /* EXPECT-O0 weir-uninit (q's never is written by no one; -O2 folds it) */
}

int main(int argc, char **argv) {
  int v[4] = {argc, 2, 3, 4};
  return (int)gather((uint32_t)argc, (void **)argv) + pairs(argc, v);
}
