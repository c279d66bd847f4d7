/* Generated problems (gen.c) of both families, solved by the reference and
 * by the naive solver (naive.c): the same rows, values included, and the
 * same path edges; and the same (node, fact) pairs as the IFDS reference
 * gives the problem's graph (IDE adds values, never reachability). */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "tests/ide/gen.h"
#include "tests/ide/naive.h"
#include "tests/ide/util.h"

/* The reference against the naive solver and the IFDS reference on p (freed). */
static void check_problem(weir_ide_problem *p, weir_ide_family family, uint64_t seed) {
  weir_ide_result r;
  weir_ide_stats stats = WEIR_IDE_STATS_INIT;
  ck_assert_int_eq(weir_ide_solve_reference(p, &r, &stats), WEIR_OK);
  char *got = ide_test_rows(p, &r);
  uint64_t naive_edges = 0;
  char *want = ide_test_naive_rows(p, &naive_edges);
  ck_assert_msg(strcmp(got, want) == 0, "family %d seed %llu:\nreference:\n%s\nnaive:\n%s",
                (int)family, (unsigned long long)seed, got, want);
  ck_assert_uint_eq(r.path_edges, naive_edges);
  weir_ifds_result ifds;
  ck_assert_int_eq(weir_ifds_solve_reference(p->ifds, &ifds, NULL), WEIR_OK);
  ck_assert_uint_eq(ifds.hold_count, r.hold_count);
  ck_assert_uint_eq(ifds.path_edges, r.path_edges);
  for (uint64_t i = 0; i < r.hold_count; ++i)
    ck_assert(ifds.hold_node[i] == r.hold_node[i] && ifds.hold_fact[i] == r.hold_fact[i]);
  weir_ifds_result_free(&ifds);
  free(got);
  free(want);
  weir_ide_result_free(&r);
  weir_ide_problem_free(p);
}

static void check_one(weir_ide_family family, uint64_t seed) {
  check_problem(ide_test_generate(family, seed), family, seed);
}

/* The library's generator (weir gen --ide) on every IFDS preset, kept small
 * for the naive solver's dense tables. */
START_TEST(library_generator_presets) {
  for (int preset = 0; preset < WEIR_IFDS_PRESET_COUNT; ++preset)
    for (uint64_t seed = 1; seed <= 6; ++seed) {
      weir_ifds_gen_options o = {.preset = (weir_ifds_preset)preset, .procs = 6,
                                 .nodes_per_proc = 6, .facts = 5, .seeds = 2, .seed = seed};
      weir_ide_family family = seed % 2 ? WEIR_IDE_LINEAR : WEIR_IDE_TYPESTATE;
      weir_ide_problem *p = NULL;
      ck_assert_msg(weir_ide_generate_problem(&o, family, 3, &p) == WEIR_OK, "%s",
                    weir_last_error());
      check_problem(p, family, seed);
    }
}
END_TEST

START_TEST(generated_linear) {
  for (uint64_t seed = 1; seed <= 400; ++seed) check_one(WEIR_IDE_LINEAR, seed);
}
END_TEST

START_TEST(generated_typestate) {
  for (uint64_t seed = 1; seed <= 400; ++seed) check_one(WEIR_IDE_TYPESTATE, seed);
}
END_TEST

/* The generated problems are not trivial: some values are constants, some
 * ⊥, and jump functions are lowered more than once somewhere. */
START_TEST(generated_are_interesting) {
  uint64_t consts = 0, bots = 0, lowered_twice = 0;
  for (uint64_t seed = 1; seed <= 100; ++seed) {
    weir_ide_problem *p = ide_test_generate(WEIR_IDE_LINEAR, seed);
    weir_ide_result r;
    weir_ide_stats stats = WEIR_IDE_STATS_INIT;
    ck_assert_int_eq(weir_ide_solve_reference(p, &r, &stats), WEIR_OK);
    for (uint64_t i = 0; i < r.hold_count; ++i) {
      consts += r.value[i].kind == WEIR_IDE_VALUE_CONST;
      bots += r.value[i].kind == WEIR_IDE_VALUE_BOT;
    }
    lowered_twice += stats.jump_updates > stats.path_edges;
    weir_ide_result_free(&r);
    weir_ide_problem_free(p);
  }
  ck_assert_uint_gt(consts, 100);
  ck_assert_uint_gt(bots, 100);
  ck_assert_uint_gt(lowered_twice, 10);
}
END_TEST

Suite *ide_generated_suite(void) {
  Suite *s = suite_create("ide_generated");
  TCase *t = tcase_create("generated");
  tcase_set_timeout(t, 120);
  tcase_add_test(t, generated_linear);
  tcase_add_test(t, generated_typestate);
  tcase_add_test(t, generated_are_interesting);
  tcase_add_test(t, library_generator_presets);
  suite_add_tcase(s, t);
  return s;
}
