/* The test-local generator of random IDE problems (gen.h). */
#include <check.h>
#include <stdlib.h>

#include "tests/ide/gen.h"

typedef struct gen {
  uint64_t state;
  weir_ide_family family;
  uint32_t facts, states;
  weir_ide_builder *b;
  weir_ifds_builder *g;
} gen;

static uint32_t below(gen *x, uint32_t n) {
  x->state += 0x9e3779b97f4a7c15ull;
  uint64_t z = x->state;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return (uint32_t)((z ^ (z >> 31)) % n);
}

static weir_ide_fn random_fn(gen *x) {
  if (x->family == WEIR_IDE_TYPESTATE) {
    weir_ide_fn f = weir_ide_fn_identity(WEIR_IDE_TYPESTATE, x->states);
    for (uint32_t s = 0; s < x->states; ++s)
      if (below(x, 2)) f.u.typestate.to[s] = below(x, 1u << x->states);
    return f;
  }
  switch (below(x, 8)) {
    case 0: return weir_ide_fn_const((int64_t)below(x, 5) - 2);
    case 1: return weir_ide_fn_top(WEIR_IDE_LINEAR);
    case 2: {
      weir_ide_fn bot = weir_ide_fn_top(WEIR_IDE_LINEAR);
      bot.u.linear.kind = WEIR_IDE_LIN_BOT;
      return bot;
    }
    case 3: return weir_ide_fn_const((int64_t)below(x, 3));
    default: return weir_ide_fn_linear((int64_t)below(x, 4) - 1, (int64_t)below(x, 5) - 2);
  }
}

static weir_ide_value random_value(gen *x) {
  weir_ide_value v = {0};
  if (x->family == WEIR_IDE_TYPESTATE) {
    v.kind = WEIR_IDE_VALUE_STATES;
    v.states = 1u + below(x, (1u << x->states) - 1);
    return v;
  }
  uint32_t k = below(x, 4);
  v.kind = k == 0 ? WEIR_IDE_VALUE_TOP : k == 1 ? WEIR_IDE_VALUE_BOT : WEIR_IDE_VALUE_CONST;
  if (v.kind == WEIR_IDE_VALUE_CONST) v.constant = (int64_t)below(x, 7) - 3;
  return v;
}

/* A random flow function; its pairs, (0, 0) included, into pairs[2 * *n]. */
static uint32_t random_flow(gen *x, uint32_t *pairs, uint32_t *n) {
  int identity = below(x, 5) < 3;
  uint32_t kills[8], kc = 0, explicit[8], pc = 0, flow;
  *n = 0;
  pairs[(*n)++ * 2] = 0, pairs[*n * 2 - 1] = 0;
  for (uint32_t d = 1; d < x->facts; ++d) {
    if (!identity) break;
    if (below(x, 5) == 0) kills[kc++] = d;
    else pairs[*n * 2] = d, pairs[*n * 2 + 1] = d, ++*n;
  }
  for (uint32_t i = below(x, 3); i > 0; --i) {
    uint32_t a = below(x, x->facts), b = 1 + below(x, x->facts - 1), dup = 0;
    for (uint32_t j = 0; j < *n; ++j) dup |= pairs[2 * j] == a && pairs[2 * j + 1] == b;
    if (dup) continue;
    explicit[2 * pc] = a, explicit[2 * pc + 1] = b, ++pc;
    pairs[*n * 2] = a, pairs[*n * 2 + 1] = b, ++*n;
  }
  ck_assert_int_eq(weir_ifds_builder_flow(x->g, identity, kills, kc, explicit, pc, &flow), WEIR_OK);
  return flow;
}

/* Edge functions on about half of the pairs of one element's flow. */
static void annotate(gen *x, weir_ide_site site, uint32_t a, uint32_t b, const uint32_t *pairs,
                     uint32_t n) {
  for (uint32_t i = 0; i < n; ++i) {
    if (below(x, 2)) continue;
    weir_ide_fn f = random_fn(x);
    ck_assert_msg(weir_ide_builder_pair_fn(x->b, site, a, b, pairs[2 * i], pairs[2 * i + 1], &f) ==
                      WEIR_OK, "%s", weir_last_error());
  }
}

static void flow_element(gen *x, weir_ide_site site, uint32_t a, uint32_t b, uint32_t *flow) {
  uint32_t pairs[64], n;
  *flow = random_flow(x, pairs, &n);
  annotate(x, site, a, b, pairs, n);
}

/* Node i of a procedure ending at `last`: a call or one or two edges. */
static void node(gen *x, uint32_t i, uint32_t first, uint32_t last, uint32_t procs) {
  uint32_t f, cf, rf;
  if (below(x, 4) == 0) {
    flow_element(x, WEIR_IDE_SITE_CALL, i, 0, &f);
    ck_assert_int_eq(weir_ifds_builder_call(x->g, i, i + 1, f), WEIR_OK);
    uint32_t q0 = below(x, procs), q1 = below(x, procs);
    for (uint32_t q = 0; q < procs; ++q) {
      if (q != q0 && q != q1) continue;
      flow_element(x, WEIR_IDE_SITE_CALLEE_CALL, i, q, &cf);
      flow_element(x, WEIR_IDE_SITE_CALLEE_RETURN, i, q, &rf);
      ck_assert_int_eq(weir_ifds_builder_callee(x->g, i, q, cf, rf), WEIR_OK);
    }
    return;
  }
  flow_element(x, WEIR_IDE_SITE_EDGE, i, i + 1, &f);
  ck_assert_int_eq(weir_ifds_builder_edge(x->g, i, i + 1, f), WEIR_OK);
  uint32_t j = first + below(x, last - first + 1);
  if (below(x, 3) == 0 && j != i + 1) {
    flow_element(x, WEIR_IDE_SITE_EDGE, i, j, &f);
    ck_assert_int_eq(weir_ifds_builder_edge(x->g, i, j, f), WEIR_OK);
  }
}

weir_ide_problem *ide_test_generate(weir_ide_family family, uint64_t seed) {
  gen x = {.state = seed, .family = family};
  x.facts = 2 + below(&x, 4);
  x.states = family == WEIR_IDE_TYPESTATE ? 1 + below(&x, 4) : 0;
  uint32_t procs = 1 + below(&x, 4), size[4], nodes = 0;
  for (uint32_t q = 0; q < procs; ++q) nodes += size[q] = 2 + below(&x, 5);
  ck_assert_int_eq(weir_ide_builder_create(family, x.states, x.facts, procs, nodes, &x.b), WEIR_OK);
  x.g = weir_ide_builder_ifds(x.b);
  for (uint32_t q = 0, first = 0; q < procs; first += size[q++])
    ck_assert_int_eq(weir_ifds_builder_proc(x.g, q, first, first + size[q] - 1,
                                            (const char *[]){"p0", "p1", "p2", "p3"}[q]), WEIR_OK);
  for (uint32_t q = 0, first = 0; q < procs; first += size[q++])
    for (uint32_t i = first; i + 1 < first + size[q]; ++i) node(&x, i, first, first + size[q] - 1, procs);
  weir_ide_value v = random_value(&x);
  ck_assert_int_eq(weir_ide_builder_seed(x.b, 0, 0, &v), WEIR_OK);
  if (below(&x, 2)) {
    v = random_value(&x);
    ck_assert_int_eq(weir_ide_builder_seed(x.b, below(&x, nodes), below(&x, x.facts), &v), WEIR_OK);
  }
  weir_ide_problem *p = NULL;
  ck_assert_msg(weir_ide_builder_build(x.b, &p) == WEIR_OK, "seed %llu: %s",
                (unsigned long long)seed, weir_last_error());
  weir_ide_builder_free(x.b);
  return p;
}
