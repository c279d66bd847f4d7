/* A helper that validates options and copies them into the caller's local
 * (`*o = *options`), called by a public function with the user's options
 * and by a second one with the first one's local (weir's own generator:
 * check_options from weir_ifds_generate and weir_ifds_generate_problem).
 * The points-to sets of `options` and `o` both hold the first caller's
 * local; the copy is a strong update of one place per call stack, so a
 * source that is one of its targets is not carried into the others. A
 * copy from memory nothing wrote is still reported. */
#include <stdio.h>
#include <string.h>

#define NOINLINE __attribute__((noinline))

typedef struct {
  int preset;
  unsigned procs, facts;
} options_t;

static NOINLINE void defaults(options_t *o) {
  if (!o->procs) o->procs = 4; /* EXPECT-NOT weir-uninit */
  if (!o->facts) o->facts = 8; /* EXPECT-NOT weir-uninit */
}

static NOINLINE int check_options(const options_t *options, const char *call, options_t *o) {
  if (!options) {
    fprintf(stderr, "%s: NULL\n", call);
    return 1;
  }
  if ((unsigned)options->preset >= 3) return 1; /* EXPECT-NOT weir-uninit */
  *o = *options;
  defaults(o);
  return o->procs < 2;
}

static NOINLINE int generate_problem(const options_t *options, int *out) {
  options_t o;
  int s = check_options(options, "problem", &o);
  if (s) return s;
  *out = (int)(o.procs * o.facts);
  return 0;
}

int generate(const options_t *options, FILE *f) {
  options_t o;
  int s = check_options(options, "generate", &o);
  if (s) return s;
  int p = 0;
  s = generate_problem(&o, &p);
  if (s) return s;
  fprintf(f, "%d %u %d\n", o.preset, o.procs, p);
  return 0;
}

struct pair {
  int a, b;
};

static NOINLINE int sum_copy(const struct pair *in) {
  struct pair copy;
  memcpy(&copy, in, sizeof copy); /* EXPECT-O2 weir-uninit (main's q.b is never written) */
  return copy.a + copy.b;         /* KNOWN-FN-O0 weir-uninit: at -O0 q.b's state does not reach the copy (before this change too; not analysed further) */
}

int main(int argc, char **argv) {
  (void)argv;
  options_t user = {0, (unsigned)argc, 0};
  struct pair q;
  q.a = argc;
  return generate(&user, stdout) + sum_copy(&q);
}
