/* Generated problems of every preset: deterministic bytes, valid (they
 * load), solvable, with identical results across two solves, and a round
 * trip through the writer. Small sizes keep the suite fast. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/ifds/util.h"
#include "weir/ifds_gen.h"

void ifds_test_round_trip(const weir_ifds_problem *p);

static char *generate_text(const weir_ifds_gen_options *o, size_t *length) {
  char *text = NULL;
  FILE *f = open_memstream(&text, length);
  ck_assert_ptr_nonnull(f);
  ck_assert_msg(weir_ifds_generate(o, f) == WEIR_OK, "%s", weir_last_error());
  fclose(f);
  return text;
}

static weir_ifds_gen_options small(weir_ifds_preset preset, uint64_t seed) {
  weir_ifds_gen_options o = {.preset = preset, .procs = 40, .nodes_per_proc = 8, .seed = seed};
  if (preset == WEIR_IFDS_PRESET_WIDE_FACTS) o.procs = 4, o.facts = 300;
  return o;
}

START_TEST(preset_loads_and_solves) {
  weir_ifds_gen_options o = small((weir_ifds_preset)_i, 7);
  size_t n1, n2;
  char *t1 = generate_text(&o, &n1), *t2 = generate_text(&o, &n2);
  ck_assert_uint_eq(n1, n2);
  ck_assert_int_eq(memcmp(t1, t2, n1), 0); /* deterministic */
  weir_ifds_problem *p = NULL;
  ck_assert_msg(weir_ifds_load_memory("gen.ifds", t1, n1, &p) == WEIR_OK, "%s: %s",
                weir_ifds_preset_name(o.preset), weir_last_error());
  ck_assert_uint_ge(p->proc_count, 4);
  ck_assert_uint_ge(p->call_count, 1);
  weir_ifds_stats st = WEIR_IFDS_STATS_INIT;
  char *r1 = ifds_test_solve_text(p, &st), *r2 = ifds_test_solve_text(p, NULL);
  ck_assert_str_eq(r1, r2);
  ck_assert_uint_gt(st.path_edges, p->seed_count);
  ck_assert_ptr_nonnull(strstr(r1, "\nholds ")); /* and main's start holds the zero fact */
  ck_assert_ptr_nonnull(strstr(strstr(r1, "\nholds ") + 1, "\n0 0\n"));
  ifds_test_round_trip(p);
  /* the in-memory API gives the same problem */
  weir_ifds_problem *q = NULL;
  ck_assert_int_eq(weir_ifds_generate_problem(&o, &q), WEIR_OK);
  char *r3 = ifds_test_solve_text(q, NULL);
  ck_assert_str_eq(r1, r3);
  free(r1), free(r2), free(r3), free(t1), free(t2);
  weir_ifds_problem_free(p);
  weir_ifds_problem_free(q);
}
END_TEST

START_TEST(seeds_change_the_problem) {
  weir_ifds_gen_options a = small(WEIR_IFDS_PRESET_REALISTIC, 1),
                        b = small(WEIR_IFDS_PRESET_REALISTIC, 2);
  size_t na, nb;
  char *ta = generate_text(&a, &na), *tb = generate_text(&b, &nb);
  ck_assert(na != nb || memcmp(ta, tb, na) != 0);
  free(ta), free(tb);
}
END_TEST

/* realistic: ~10% call nodes, some indirect calls, `none` flows, and
 * procedures that nothing reaches. */
START_TEST(realistic_shape) {
  weir_ifds_gen_options o = {.preset = WEIR_IFDS_PRESET_REALISTIC, .procs = 400, .seed = 3};
  weir_ifds_problem *p = NULL;
  ck_assert_int_eq(weir_ifds_generate_problem(&o, &p), WEIR_OK);
  double call_share = (double)p->call_count / p->node_count;
  ck_assert_msg(call_share > 0.05 && call_share < 0.2, "call share %.3f", call_share);
  uint32_t indirect = 0;
  for (uint32_t c = 0; c < p->call_count; ++c)
    indirect += p->callee_offset[c + 1] - p->callee_offset[c] > 1;
  ck_assert_uint_gt(indirect, 10);
  uint32_t none = 0;
  for (uint32_t f = 0; f < p->flows.count; ++f)
    none += !p->flows.identity[f] && p->flows.pair_offset[f] == p->flows.pair_offset[f + 1];
  ck_assert_uint_eq(none, 1); /* interned: one `none` */
  weir_ifds_result r;
  ck_assert_int_eq(weir_ifds_solve_reference(p, &r, NULL), WEIR_OK);
  uint32_t *reached = calloc(p->proc_count, sizeof *reached), unreached = 0;
  for (uint64_t i = 0; i < r.hold_count; ++i) reached[p->node_proc[r.hold_node[i]]] = 1;
  for (uint32_t q = 0; q < p->proc_count; ++q) unreached += !reached[q];
  ck_assert_uint_gt(unreached, 0);
  ck_assert_uint_lt(unreached, p->proc_count / 5);
  free(reached);
  weir_ifds_result_free(&r);
  weir_ifds_problem_free(p);
}
END_TEST

START_TEST(preset_names_and_bad_sizes) {
  weir_ifds_preset preset;
  for (int i = 0; i < WEIR_IFDS_PRESET_COUNT; ++i) {
    ck_assert_int_eq(weir_ifds_preset_parse(weir_ifds_preset_name((weir_ifds_preset)i), &preset),
                     WEIR_OK);
    ck_assert_int_eq(preset, i);
  }
  ck_assert_int_eq(weir_ifds_preset_parse("huge", &preset), WEIR_ERR_INVALID_ARGUMENT);
  ck_assert_ptr_nonnull(strstr(weir_last_error(), "realistic"));
  weir_ifds_gen_options o = {
      .preset = WEIR_IFDS_PRESET_CHAIN, .procs = 4000000, .nodes_per_proc = 2000};
  FILE *f = fopen("/dev/null", "w");
  ck_assert_int_eq(weir_ifds_generate(&o, f), WEIR_ERR_INVALID_ARGUMENT);
  ck_assert_ptr_nonnull(strstr(weir_last_error(), "Fix:"));
  fclose(f);
}
END_TEST

Suite *ifds_generated_suite(void);
Suite *ifds_generated_suite(void) {
  Suite *s = suite_create("ifds-generated");
  TCase *t = tcase_create("presets");
  tcase_set_timeout(t, 60);
  tcase_add_loop_test(t, preset_loads_and_solves, 0, WEIR_IFDS_PRESET_COUNT);
  tcase_add_test(t, seeds_change_the_problem);
  tcase_add_test(t, realistic_shape);
  tcase_add_test(t, preset_names_and_bad_sizes);
  suite_add_tcase(s, t);
  return s;
}
