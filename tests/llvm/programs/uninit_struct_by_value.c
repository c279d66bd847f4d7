/* Small structs passed and returned by value. At -O0 clang stores such a
 * parameter or result into its local as one integer or vector over every
 * field (`DLDataType dtype` arrives as one i32; a `{float r, i}` comes
 * back as <2 x float>): the store writes every field it covers, not only
 * the first. A field that nothing writes is still reported when read
 * directly; one that travels inside such a coerced argument is not (its
 * state does not follow the integer across the call: a known gap). */
#include <stdint.h>
#include <stdio.h>

#define NOINLINE __attribute__((noinline))

typedef struct {
  uint8_t code;
  uint8_t bits;
  uint16_t lanes;
} dtype;

typedef struct {
  float r, i;
} cpx;

struct pixel {
  uint8_t r, g, b, a;
};

static NOINLINE int check_dtype(dtype t, unsigned element_bytes) {
  if (t.bits / 8u != element_bytes) return -1; /* EXPECT-NOT weir-uninit */
  return t.lanes == 1 ? 0 : -2;                 /* EXPECT-NOT weir-uninit */
}

static NOINLINE cpx cmul(cpx a, cpx b) {
  cpx c = {a.r * b.r - a.i * b.i, a.r * b.i + a.i * b.r};
  return c;
}

static NOINLINE float butterfly(const cpx *v, int n) {
  float sum = 0;
  for (int k = 0; k + 1 < n; ++k) {
    cpx s = cmul(v[k], v[k + 1]);
    sum += s.r + s.i; /* EXPECT-NOT weir-uninit (the result's store wrote both fields) */
  }
  return sum;
}

static NOINLINE int opaque(struct pixel p) { return p.r + p.g + p.b + p.a; }

int main(int argc, char **argv) {
  (void)argv;
  dtype t = {2, 32, 1};
  cpx v[3] = {{1, 2}, {3, 4}, {(float)argc, 0}};
  struct pixel p;
  p.r = 1;
  p.g = 2;
  p.b = 3;
  int x = opaque(p); /* KNOWN-FN-O0 weir-uninit: p.a travels unwritten inside the coerced i32 argument */
  struct pixel q;
  q.r = (uint8_t)argc;
  x += q.r + q.a; /* EXPECT-O0 weir-uninit (q.a is never written; -O2 folds it) */
  return check_dtype(t, 4) + (int)butterfly(v, 3) + x;
}
