/* The IDE builder: a problem built in memory is the problem the same text
 * loads to (same values when solved), and its own rules' messages. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "tests/ide/util.h"

/* examples/lcp.ide, built. */
static weir_ide_problem *build_lcp(void) {
  weir_ide_builder *b = NULL;
  ck_assert_int_eq(weir_ide_builder_create(WEIR_IDE_LINEAR, 0, 4, 2, 6, &b), WEIR_OK);
  weir_ifds_builder *g = weir_ide_builder_ifds(b);
  uint32_t gen1, bypass, id, p_in, p_out, z;
  ck_assert_int_eq(weir_ifds_builder_proc(g, 0, 0, 3, "main"), WEIR_OK);
  ck_assert_int_eq(weir_ifds_builder_proc(g, 1, 4, 5, "f"), WEIR_OK);
  uint32_t pairs01[] = {0, 1}, kill2[] = {2}, pairs13[] = {1, 3}, pairs32[] = {3, 2};
  ck_assert_int_eq(weir_ifds_builder_flow(g, 1, NULL, 0, pairs01, 1, &gen1), WEIR_OK);
  ck_assert_int_eq(weir_ifds_builder_flow(g, 1, kill2, 1, NULL, 0, &bypass), WEIR_OK);
  ck_assert_int_eq(weir_ifds_builder_flow(g, 1, NULL, 0, NULL, 0, &id), WEIR_OK);
  ck_assert_int_eq(weir_ifds_builder_flow(g, 0, NULL, 0, pairs13, 1, &p_in), WEIR_OK);
  ck_assert_int_eq(weir_ifds_builder_flow(g, 0, NULL, 0, pairs32, 1, &p_out), WEIR_OK);
  ck_assert_int_eq(weir_ifds_builder_flow(g, 1, NULL, 0, pairs13, 1, &z), WEIR_OK);
  ck_assert_int_eq(weir_ifds_builder_edge(g, 0, 1, gen1), WEIR_OK);
  ck_assert_int_eq(weir_ifds_builder_call(g, 1, 2, bypass), WEIR_OK);
  ck_assert_int_eq(weir_ifds_builder_callee(g, 1, 1, p_in, p_out), WEIR_OK);
  ck_assert_int_eq(weir_ifds_builder_edge(g, 2, 3, z), WEIR_OK);
  ck_assert_int_eq(weir_ifds_builder_edge(g, 4, 5, id), WEIR_OK);
  weir_ide_fn c5 = weir_ide_fn_const(5), twice = weir_ide_fn_linear(2, 0), inc = weir_ide_fn_linear(1, 1);
  ck_assert_int_eq(weir_ide_builder_pair_fn(b, WEIR_IDE_SITE_EDGE, 0, 1, 0, 1, &c5), WEIR_OK);
  ck_assert_int_eq(weir_ide_builder_pair_fn(b, WEIR_IDE_SITE_CALLEE_RETURN, 1, 1, 3, 2, &twice),
                   WEIR_OK);
  ck_assert_int_eq(weir_ide_builder_pair_fn(b, WEIR_IDE_SITE_EDGE, 2, 3, 1, 3, &inc), WEIR_OK);
  weir_ide_value bot = {.kind = WEIR_IDE_VALUE_BOT};
  ck_assert_int_eq(weir_ide_builder_seed(b, 0, 0, &bot), WEIR_OK);
  weir_ide_problem *p = NULL;
  ck_assert_msg(weir_ide_builder_build(b, &p) == WEIR_OK, "%s", weir_last_error());
  weir_ide_builder_free(b);
  return p;
}

static char *rows_of(weir_ide_problem *p) {
  weir_ide_result r;
  ck_assert_int_eq(weir_ide_solve_reference(p, &r, NULL), WEIR_OK);
  char *rows = ide_test_rows(p, &r);
  weir_ide_result_free(&r);
  return rows;
}

START_TEST(built_equals_loaded) {
  weir_ide_problem *built = build_lcp(), *loaded = NULL;
  ck_assert_int_eq(weir_ide_load_file(WEIR_IDE_EXAMPLES_DIR "/lcp.ide", &loaded), WEIR_OK);
  ck_assert_uint_eq(built->ann_count, loaded->ann_count);
  ck_assert_uint_eq(built->fn_count, loaded->fn_count);
  char *a = rows_of(built), *b = rows_of(loaded);
  ck_assert_str_eq(a, b);
  ck_assert_ptr_nonnull(strstr(a, "2 2 10\n"));
  free(a);
  free(b);
  weir_ide_problem_free(built);
  weir_ide_problem_free(loaded);
}
END_TEST

/* The rules checked when the problem is built, and those of each call. */
START_TEST(builder_messages) {
  weir_ide_builder *b = NULL;
  ck_assert_int_eq(weir_ide_builder_create(WEIR_IDE_TYPESTATE, 40, 2, 1, 2, &b),
                   WEIR_ERR_INVALID_ARGUMENT);
  ck_assert_str_eq(weir_last_error(), "builder: create: state count out of range (found family 2, "
                   "40 states, expected 1..32 states). Fix: a typestate problem has 1 to 32 states "
                   "(one bit each).");
  ck_assert_int_eq(weir_ide_builder_create(WEIR_IDE_TYPESTATE, 2, 2, 1, 3, &b), WEIR_OK);
  ck_assert_int_eq(weir_ide_builder_state(b, 0, "open"), WEIR_OK);
  ck_assert_int_eq(weir_ide_builder_state(b, 1, "open"), WEIR_ERR_INVALID_ARGUMENT);
  ck_assert_str_eq(weir_last_error(), "builder: state 1: repeated state name (found state 1 "
                   "'open', expected a name no other state has). Fix: give every state its own "
                   "name.");
  weir_ide_fn lin = weir_ide_fn_const(3);
  ck_assert_int_eq(weir_ide_builder_pair_fn(b, WEIR_IDE_SITE_EDGE, 0, 1, 1, 1, &lin),
                   WEIR_ERR_INVALID_ARGUMENT);
  ck_assert_str_eq(weir_last_error(), "builder: edge function: function of the wrong family "
                   "(found a function of family 1, expected WEIR_IDE_TYPESTATE). Fix: build "
                   "functions with weir_ide_fn_* for the builder's family.");
  weir_ifds_builder *g = weir_ide_builder_ifds(b);
  uint32_t id;
  ck_assert_int_eq(weir_ifds_builder_proc(g, 0, 0, 2, "main"), WEIR_OK);
  ck_assert_int_eq(weir_ifds_builder_flow(g, 1, NULL, 0, NULL, 0, &id), WEIR_OK);
  ck_assert_int_eq(weir_ifds_builder_edge(g, 0, 1, id), WEIR_OK);
  ck_assert_int_eq(weir_ifds_builder_edge(g, 1, 2, id), WEIR_OK);
  weir_ide_fn close = weir_ide_fn_identity(WEIR_IDE_TYPESTATE, 2);
  close.u.typestate.to[0] = 2;
  ck_assert_int_eq(weir_ide_builder_pair_fn(b, WEIR_IDE_SITE_EDGE, 0, 2, 1, 1, &close), WEIR_OK);
  weir_ide_value open = {.kind = WEIR_IDE_VALUE_STATES, .states = 1};
  ck_assert_int_eq(weir_ide_builder_seed(b, 0, 1, &open), WEIR_OK);
  weir_ide_problem *p = (weir_ide_problem *)&p;
  ck_assert_int_eq(weir_ide_builder_build(b, &p), WEIR_ERR_INVALID_ARGUMENT);
  ck_assert_ptr_null(p);
  ck_assert_str_eq(weir_last_error(), "builder: edge function 0 (edge 0 2, pair 1>1): edge "
                   "function on an element the problem does not have (found no such element (A = "
                   "0, B = 2), expected an edge from node A to node B). Fix: add the element with "
                   "the weir_ifds_builder_* call first, or correct A and B.");
  weir_ide_builder_free(b);
}
END_TEST

/* A pair the flow function does not have, and a pair given twice. */
START_TEST(builder_pair_rules) {
  for (int twice = 0; twice < 2; ++twice) {
    weir_ide_builder *b = NULL;
    ck_assert_int_eq(weir_ide_builder_create(WEIR_IDE_LINEAR, 0, 3, 1, 2, &b), WEIR_OK);
    weir_ifds_builder *g = weir_ide_builder_ifds(b);
    uint32_t id;
    ck_assert_int_eq(weir_ifds_builder_proc(g, 0, 0, 1, "main"), WEIR_OK);
    ck_assert_int_eq(weir_ifds_builder_flow(g, 1, NULL, 0, NULL, 0, &id), WEIR_OK);
    ck_assert_int_eq(weir_ifds_builder_edge(g, 0, 1, id), WEIR_OK);
    weir_ide_fn c = weir_ide_fn_const(1);
    ck_assert_int_eq(weir_ide_builder_pair_fn(b, WEIR_IDE_SITE_EDGE, 0, 1, 1, twice ? 1 : 2, &c),
                     WEIR_OK);
    if (twice)
      ck_assert_int_eq(weir_ide_builder_pair_fn(b, WEIR_IDE_SITE_EDGE, 0, 1, 1, 1, &c), WEIR_OK);
    weir_ide_problem *p = NULL;
    ck_assert_int_eq(weir_ide_builder_build(b, &p), WEIR_ERR_INVALID_ARGUMENT);
    ck_assert_str_eq(weir_last_error(),
                     twice ? "builder: edge function 1 (edge 0 1, pair 1>1): repeated edge "
                             "function for a pair (found pair 1>1 given twice (the other: record "
                             "0), expected one function per pair of an element). Fix: give each "
                             "pair one function (merge them yourself if both are meant)."
                           : "builder: edge function 0 (edge 0 1, pair 1>2): edge function on a "
                             "pair the flow function does not have (found pair 1>2, expected a "
                             "pair d1>d2 with d2 in f(d1)). Fix: add the pair to the element's "
                             "flow function, or drop its edge function.");
    weir_ide_builder_free(b);
  }
}
END_TEST

/* weir_ide_stats: a newer caller's larger struct gets its unknown bytes
 * zeroed, a struct_size below the first version is refused untouched. */
START_TEST(stats_struct_size) {
  weir_ide_problem *p = build_lcp();
  weir_ide_result r;
  enum { EXTRA = 24 };
  unsigned char *big = malloc(sizeof(weir_ide_stats) + EXTRA);
  memset(big, 0xab, sizeof(weir_ide_stats) + EXTRA);
  size_t n = sizeof(weir_ide_stats) + EXTRA;
  memcpy(big, &n, sizeof n);
  ck_assert_int_eq(weir_ide_solve_reference(p, &r, (weir_ide_stats *)big), WEIR_OK);
  weir_ide_stats got;
  memcpy(&got, big, sizeof got);
  ck_assert_uint_eq(got.struct_size, n);
  ck_assert_uint_eq(got.path_edges, r.path_edges);
  for (size_t i = 0; i < EXTRA; ++i) ck_assert_uint_eq(big[sizeof(weir_ide_stats) + i], 0);
  weir_ide_result_free(&r);
  free(big);
  weir_ide_stats small;
  memset(&small, 0x5a, sizeof small);
  small.struct_size = 3;
  memset(&r, 0x77, sizeof r); /* a refused solve leaves the result zeroed: free is safe */
  ck_assert_int_eq(weir_ide_solve_reference(p, &r, &small), WEIR_ERR_INVALID_ARGUMENT);
  ck_assert_ptr_nonnull(strstr(weir_last_error(), "weir_ide_stats"));
  ck_assert_uint_eq(small.path_edges, 0x5a5a5a5a5a5a5a5aull);
  ck_assert_uint_eq(r.hold_count, 0);
  ck_assert_ptr_null(r.value);
  weir_ide_result_free(&r);
  memset(&r, 0x77, sizeof r);
  ck_assert_int_eq(weir_ide_solve_reference(NULL, &r, NULL), WEIR_ERR_INVALID_ARGUMENT);
  ck_assert_ptr_null(r.hold_node);
  weir_ide_result_free(&r);
  weir_ide_problem_free(p);
}
END_TEST

Suite *ide_builder_suite(void) {
  Suite *s = suite_create("ide_builder");
  TCase *t = tcase_create("builder");
  tcase_add_test(t, built_equals_loaded);
  tcase_add_test(t, builder_messages);
  tcase_add_test(t, builder_pair_rules);
  tcase_add_test(t, stats_struct_size);
  suite_add_tcase(s, t);
  return s;
}
