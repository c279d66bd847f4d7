/* A helper reading through one parameter and writing through another
 * (btmon's l2cap_frame_clone): a caller's unset local handed in as the
 * destination must not be read through the source parameter, whose
 * points-to set (the union over all callers) holds it: the call's context
 * decides what the callee reads of the caller's locals. The source a
 * caller hands in half set is still reported at the read of its unset field. */
#include <stdio.h>

#define NOINLINE __attribute__((noinline))

struct frame { int a; int b; };

static NOINLINE void copy_frame(struct frame *dst, const struct frame *src) {
  if (dst == src) return;
  dst->a = src->a; /* EXPECT-NOT weir-uninit (local of forward, handed in as dst) */
  dst->b = src->b; /* EXPECT weir-uninit */
}

static NOINLINE void pull(struct frame *dst, const struct frame *src) { copy_frame(dst, src); }

static NOINLINE int forward(const struct frame *f) {
  struct frame local; /* unset until pull writes it */
  pull(&local, f);
  struct frame again;
  pull(&again, &local); /* local is set by now: nothing to report */
  return again.a + again.b;
}

int main(int argc, char **argv) {
  (void)argv;
  struct frame whole = {argc, 2};
  struct frame half, out;
  half.a = argc;
  copy_frame(&out, &half);
  return forward(&whole) + out.a;
}
