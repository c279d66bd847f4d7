/* The edge-function algebra (engine/ide/fn.h): hand-computed cases of each
 * family, and its laws checked exhaustively or on many random functions:
 * composition is exact (apply(g ∘ f, x) = g(f(x))), merging is sound
 * (below both functions at every value; exact for typestate), and both are
 * what the solvers rely on (identity and ⊤ are neutral). */
#include <check.h>
#include <string.h>
#include <stdint.h>

#include "engine/ide/fn.h"

static weir_ide_value cst(int64_t c) { return ide_value(WEIR_IDE_VALUE_CONST, 0, c); }
static weir_ide_value top(void) { return ide_value(WEIR_IDE_VALUE_TOP, 0, 0); }
static weir_ide_value bot(void) { return ide_value(WEIR_IDE_VALUE_BOT, 0, 0); }

static void assert_value(weir_ide_value got, weir_ide_value want) {
  ck_assert_msg(ide_value_equal(got, want), "value kind %u const %lld, want kind %u const %lld",
                got.kind, (long long)got.constant, want.kind, (long long)want.constant);
}

START_TEST(linear_by_hand) {
  weir_ide_fn f = weir_ide_fn_linear(2, 1), g = weir_ide_fn_linear(-1, 5), c7 = weir_ide_fn_const(7);
  weir_ide_fn id = weir_ide_fn_identity(WEIR_IDE_LINEAR, 0), t = weir_ide_fn_top(WEIR_IDE_LINEAR);
  weir_ide_fn gf = ide_fn_compose(&g, &f); /* -(2x+1)+5 = -2x+4 */
  ck_assert_int_eq(gf.u.linear.kind, WEIR_IDE_LIN_AFFINE);
  ck_assert_int_eq(gf.u.linear.a, -2);
  ck_assert_int_eq(gf.u.linear.b, 4);
  assert_value(ide_fn_apply(&gf, cst(3)), cst(-2));
  assert_value(ide_fn_apply(&f, top()), top()); /* strict */
  assert_value(ide_fn_apply(&f, bot()), bot());
  assert_value(ide_fn_apply(&c7, bot()), cst(7)); /* constants are not */
  weir_ide_fn fc = ide_fn_compose(&f, &c7); /* 2*7+1 */
  ck_assert_int_eq(fc.u.linear.kind, WEIR_IDE_LIN_CONST);
  ck_assert_int_eq(fc.u.linear.b, 15);
  weir_ide_fn cf = ide_fn_compose(&c7, &f);
  ck_assert(ide_fn_equal(&cf, &c7));
  weir_ide_fn ft = ide_fn_compose(&f, &t); /* f(⊤) = ⊤ */
  ck_assert(ide_fn_equal(&ft, &t));
  weir_ide_fn j = ide_fn_join(&f, &g);
  ck_assert_int_eq(j.u.linear.kind, WEIR_IDE_LIN_BOT);
  j = ide_fn_join(&f, &t);
  ck_assert(ide_fn_equal(&j, &f));
  j = ide_fn_join(&f, &f);
  ck_assert(ide_fn_equal(&j, &f));
  weir_ide_fn fid = ide_fn_compose(&f, &id), idf = ide_fn_compose(&id, &f);
  ck_assert(ide_fn_equal(&fid, &f) && ide_fn_equal(&idf, &f));
  /* strict a = 0 is not the constant: it keeps ⊤ */
  weir_ide_fn zero = weir_ide_fn_linear(0, 3);
  assert_value(ide_fn_apply(&zero, top()), top());
  assert_value(ide_fn_apply(&zero, cst(9)), cst(3));
  ck_assert(!ide_fn_equal(&zero, &(weir_ide_fn){0}));
}
END_TEST

/* int64 arithmetic wraps: no undefined behaviour (UBSan runs this). */
START_TEST(linear_wraps) {
  weir_ide_fn f = weir_ide_fn_linear(INT64_MAX, INT64_MAX);
  assert_value(ide_fn_apply(&f, cst(2)), cst(INT64_MAX - 2)); /* 3 (2^63 - 1) mod 2^64 */
  weir_ide_fn big = weir_ide_fn_linear((int64_t)1 << 32, 0);
  weir_ide_fn sq = ide_fn_compose(&big, &big); /* a = 2^64 = 0, still strict */
  ck_assert_int_eq(sq.u.linear.kind, WEIR_IDE_LIN_AFFINE);
  ck_assert_int_eq(sq.u.linear.a, 0);
  assert_value(ide_fn_apply(&sq, top()), top());
  weir_ide_fn m = weir_ide_fn_linear(-1, INT64_MIN);
  assert_value(ide_fn_apply(&m, cst(INT64_MIN)), cst(0));
}
END_TEST

static uint64_t next(uint64_t *s) {
  *s += 0x9e3779b97f4a7c15ull;
  uint64_t z = *s;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

static weir_ide_fn random_linear(uint64_t *s) {
  static const int64_t small[] = {-2, -1, 0, 1, 2, 3, INT64_MAX, INT64_MIN};
  int64_t a = small[next(s) % 8], b = small[next(s) % 8];
  switch (next(s) % 5) {
    case 0: return weir_ide_fn_top(WEIR_IDE_LINEAR);
    case 1: return ide_lin(WEIR_IDE_LIN_BOT, 0, 0);
    case 2: return weir_ide_fn_const(b);
    default: return weir_ide_fn_linear(a, b);
  }
}

/* x ⊑ y in the flat value lattice (⊥ below constants below ⊤). */
static int below(weir_ide_value x, weir_ide_value y) {
  return x.kind == WEIR_IDE_VALUE_BOT || y.kind == WEIR_IDE_VALUE_TOP || ide_value_equal(x, y);
}

START_TEST(linear_laws) {
  uint64_t seed = 24;
  weir_ide_value xs[] = {top(), bot(), cst(0), cst(1), cst(-7), cst(INT64_MAX)};
  for (int i = 0; i < 20000; ++i) {
    weir_ide_fn f = random_linear(&seed), g = random_linear(&seed), h = random_linear(&seed);
    weir_ide_fn gf = ide_fn_compose(&g, &f), j = ide_fn_join(&f, &g);
    weir_ide_fn hg = ide_fn_compose(&h, &g), l = ide_fn_compose(&hg, &f), r = ide_fn_compose(&h, &gf);
    ck_assert(ide_fn_equal(&l, &r)); /* associative */
    weir_ide_fn jj = ide_fn_join(&g, &f);
    ck_assert(ide_fn_equal(&j, &jj)); /* commutative */
    for (size_t k = 0; k < sizeof xs / sizeof xs[0]; ++k) {
      assert_value(ide_fn_apply(&gf, xs[k]), ide_fn_apply(&g, ide_fn_apply(&f, xs[k])));
      weir_ide_value m = ide_fn_apply(&j, xs[k]);
      ck_assert(below(m, ide_fn_apply(&f, xs[k])) && below(m, ide_fn_apply(&g, xs[k])));
    }
  }
}
END_TEST

static weir_ide_fn random_typestate(uint64_t *s, uint32_t states) {
  weir_ide_fn f = ide_ts_empty();
  uint32_t mask = (1u << states) - 1;
  for (uint32_t k = 0; k < states; ++k) f.u.typestate.to[k] = (uint32_t)next(s) & mask;
  if (next(s) % 4 == 0) f.u.typestate.gen = (uint32_t)next(s) & mask;
  ide_ts_canonical(&f.u.typestate);
  return f;
}

START_TEST(typestate_by_hand) {
  /* states: 0 init, 1 opened, 2 closed, 3 error; close: opened>closed;closed>error */
  weir_ide_fn close = ide_ts_identity(4);
  close.u.typestate.to[1] = 1u << 2;
  close.u.typestate.to[2] = 1u << 3;
  weir_ide_fn twice = ide_fn_compose(&close, &close);
  weir_ide_value opened = ide_value(WEIR_IDE_VALUE_STATES, 1u << 1, 0);
  ck_assert_uint_eq(ide_fn_apply(&twice, opened).states, 1u << 3);
  weir_ide_fn id = ide_ts_identity(4), j = ide_fn_join(&id, &close);
  ck_assert_uint_eq(ide_fn_apply(&j, opened).states, (1u << 1) | (1u << 2));
  weir_ide_fn seed = ide_fn_const_of(WEIR_IDE_TYPESTATE, opened), after = ide_fn_compose(&close, &seed);
  ck_assert_uint_eq(after.u.typestate.gen, 1u << 2);
  ck_assert_uint_eq(ide_fn_apply(&after, ide_value_top(WEIR_IDE_TYPESTATE)).states, 1u << 2);
  weir_ide_fn t = ide_fn_top(WEIR_IDE_TYPESTATE), tj = ide_fn_join(&t, &close);
  ck_assert(ide_fn_equal(&tj, &close));
}
END_TEST

START_TEST(typestate_laws) {
  uint64_t seed = 7;
  for (int i = 0; i < 3000; ++i) {
    uint32_t states = 1 + (uint32_t)(next(&seed) % 5);
    weir_ide_fn f = random_typestate(&seed, states), g = random_typestate(&seed, states);
    weir_ide_fn gf = ide_fn_compose(&g, &f), j = ide_fn_join(&f, &g);
    for (uint32_t set = 0; set < (1u << states); ++set) {
      weir_ide_value x = ide_value(WEIR_IDE_VALUE_STATES, set, 0);
      ck_assert_uint_eq(ide_fn_apply(&gf, x).states, ide_fn_apply(&g, ide_fn_apply(&f, x)).states);
      ck_assert_uint_eq(ide_fn_apply(&j, x).states,
                        ide_fn_apply(&f, x).states | ide_fn_apply(&g, x).states);
    }
  }
}
END_TEST

/* The exported algebra checks families (ide.h): mixing them, or a family
 * that is none, gives the all-zero function (family 0) or value instead of
 * one read through the other member of the union; equal says 0. */
START_TEST(mixed_families_refused) {
  weir_ide_fn lin = weir_ide_fn_linear(2, 3), ts = weir_ide_fn_identity(WEIR_IDE_TYPESTATE, 2);
  weir_ide_fn zero;
  memset(&zero, 0, sizeof zero);
  weir_ide_fn j = weir_ide_fn_join(&lin, &ts), c = weir_ide_fn_compose(&lin, &ts);
  ck_assert_mem_eq(&j, &zero, sizeof zero);
  ck_assert_mem_eq(&c, &zero, sizeof zero);
  c = weir_ide_fn_compose(&ts, &lin);
  ck_assert_mem_eq(&c, &zero, sizeof zero);
  weir_ide_fn bad = weir_ide_fn_identity((weir_ide_family)7, 3);
  ck_assert_mem_eq(&bad, &zero, sizeof zero);
  bad = weir_ide_fn_identity(WEIR_IDE_TYPESTATE, 33); /* past the 32 rows */
  ck_assert_mem_eq(&bad, &zero, sizeof zero);
  bad = weir_ide_fn_top((weir_ide_family)0);
  ck_assert_mem_eq(&bad, &zero, sizeof zero);
  ck_assert_int_eq(weir_ide_fn_equal(&zero, &zero), 0);
  ck_assert_int_eq(weir_ide_fn_equal(&lin, &ts), 0);
  ck_assert_int_eq(weir_ide_fn_equal(&lin, &lin), 1);
  weir_ide_value states = {WEIR_IDE_VALUE_STATES, 1, 0}, five = {WEIR_IDE_VALUE_CONST, 0, 5};
  weir_ide_value v = weir_ide_fn_apply(&lin, &states);
  ck_assert_int_eq(v.kind, WEIR_IDE_VALUE_TOP);
  ck_assert_int_eq(v.constant, 0);
  v = weir_ide_fn_apply(&ts, &five);
  ck_assert_int_eq(v.kind, WEIR_IDE_VALUE_TOP);
  ck_assert_int_eq(v.states, 0);
  v = weir_ide_fn_apply(&lin, &five); /* the same family still works */
  ck_assert_int_eq(v.kind, WEIR_IDE_VALUE_CONST);
  ck_assert_int_eq(v.constant, 13);
  v = weir_ide_fn_apply(&ts, &states);
  ck_assert_int_eq(v.kind, WEIR_IDE_VALUE_STATES);
  ck_assert_int_eq(v.states, 1);
}
END_TEST

Suite *ide_algebra_suite(void) {
  Suite *s = suite_create("ide_algebra");
  TCase *t = tcase_create("algebra");
  tcase_add_test(t, linear_by_hand);
  tcase_add_test(t, linear_wraps);
  tcase_add_test(t, linear_laws);
  tcase_add_test(t, typestate_by_hand);
  tcase_add_test(t, typestate_laws);
  tcase_add_test(t, mixed_families_refused);
  suite_add_tcase(s, t);
  return s;
}
