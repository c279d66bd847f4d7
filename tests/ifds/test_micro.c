/* Micro problems with hand-derived results, one per semantic rule of the
 * spec: tests/ifds/micro/NAME.ifds with NAME.expected (the exact result
 * file). Every other solver can run the same files. Also: the examples
 * load and solve. */
#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/ifds/util.h"
#include "weir/ifds.h"

void ifds_test_round_trip(const weir_ifds_problem *p);

/* Calls fn(path, name) for every *.ifds in dir; returns how many. */
static int each_problem(const char *dir, void (*fn)(const char *, const char *)) {
  DIR *d = opendir(dir);
  ck_assert_msg(d != NULL, "cannot open %s", dir);
  int count = 0;
  struct dirent *e;
  while ((e = readdir(d))) {
    size_t n = strlen(e->d_name);
    if (n < 6 || strcmp(e->d_name + n - 5, ".ifds") != 0) continue;
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    fn(path, e->d_name);
    ++count;
  }
  closedir(d);
  return count;
}

static void check_micro(const char *path, const char *name) {
  weir_ifds_problem *p = NULL;
  ck_assert_msg(weir_ifds_load_file(path, &p) == WEIR_OK, "%s: %s", name, weir_last_error());
  char expected_path[1024];
  snprintf(expected_path, sizeof expected_path, "%.*s.expected", (int)(strlen(path) - 5), path);
  char *expected = ifds_test_read_file(expected_path, NULL);
  ck_assert_msg(expected != NULL, "%s has no .expected file", name);
  char *got = ifds_test_solve_text(p, NULL);
  ck_assert_msg(strcmp(got, expected) == 0, "%s:\n--- got\n%s--- expected\n%s", name, got,
                expected);
  ifds_test_round_trip(p);
  free(got);
  free(expected);
  weir_ifds_problem_free(p);
}

START_TEST(micro_problems) {
  int count = each_problem(WEIR_IFDS_MICRO_DIR, check_micro);
  ck_assert_int_ge(count, 11);
}
END_TEST

/* Each context of a callee is analysed once however many call sites use it:
 * in summary_reuse, two call sites pass facts 0 and 1, and g has exactly two
 * contexts (0 and 1), hence two end-summary sets, not four. */
START_TEST(summary_computed_once) {
  weir_ifds_problem *p = NULL;
  ck_assert_int_eq(weir_ifds_load_file(WEIR_IFDS_MICRO_DIR "/summary_reuse.ifds", &p), WEIR_OK);
  weir_ifds_stats st = WEIR_IFDS_STATS_INIT;
  char *text = ifds_test_solve_text(p, &st);
  ck_assert_uint_eq(st.path_edges, 20);
  /* (g,0): {0, 2}; (g,1): {1}; and main's exit (main,0): {0, 1, 2} */
  ck_assert_uint_eq(st.end_summaries, 6);
  ck_assert_uint_eq(st.incoming, 4);    /* 2 sites x 2 facts passed */
  ck_assert_uint_eq(st.iterations, 20); /* each path edge processed once */
  free(text);
  weir_ifds_problem_free(p);
}
END_TEST

static void check_example(const char *path, const char *name) {
  weir_ifds_problem *p = NULL;
  ck_assert_msg(weir_ifds_load_file(path, &p) == WEIR_OK, "%s: %s", name, weir_last_error());
  weir_ifds_result r;
  ck_assert_int_eq(weir_ifds_solve_reference(p, &r, NULL), WEIR_OK);
  ck_assert_uint_gt(r.hold_count, 2);
  weir_ifds_result_free(&r);
  weir_ifds_problem_free(p);
}

START_TEST(examples) { ck_assert_int_ge(each_problem(WEIR_IFDS_EXAMPLES_DIR, check_example), 2); }
END_TEST

/* The example's point: the taint reaches the first sink, not the second. */
START_TEST(taint_example_findings) {
  weir_ifds_problem *p = NULL;
  ck_assert_int_eq(weir_ifds_load_file(WEIR_IFDS_EXAMPLES_DIR "/taint.ifds", &p), WEIR_OK);
  weir_ifds_result r;
  ck_assert_int_eq(weir_ifds_solve_reference(p, &r, NULL), WEIR_OK);
  int b_at_2 = 0, d_at_4 = 0;
  for (uint64_t i = 0; i < r.hold_count; ++i) {
    b_at_2 |= r.hold_node[i] == 2 && r.hold_fact[i] == 2;
    d_at_4 |= r.hold_node[i] == 4 && r.hold_fact[i] == 4;
  }
  ck_assert(b_at_2);
  ck_assert(!d_at_4);
  weir_ifds_result_free(&r);
  weir_ifds_problem_free(p);
}
END_TEST

/* Facts past 2^16: the solver's path-edge table then stores three words per
 * edge instead of one; the results are the same kind. */
START_TEST(large_fact_numbers) {
  static const char text[] =
      "weir-ifds 1\nfacts 70000\nprocs 1\nnodes 3\nproc 0 main 0 2\n"
      "edge 0 1 id,0>69999\nedge 1 2 id,-69999,69999>65536\nseed 0 0\n";
  weir_ifds_problem *p = NULL;
  ck_assert_int_eq(weir_ifds_load_memory("wide.ifds", text, strlen(text), &p), WEIR_OK);
  char *got = ifds_test_solve_text(p, NULL);
  ck_assert_str_eq(got, "weir-ifds-result 1\npath-edges 5\nholds 5\n0 0\n1 0\n1 69999\n2 0\n2 65536\n");
  free(got);
  weir_ifds_problem_free(p);
}
END_TEST

Suite *ifds_micro_suite(void);
Suite *ifds_micro_suite(void) {
  Suite *s = suite_create("ifds-micro");
  TCase *t = tcase_create("reference");
  tcase_add_test(t, micro_problems);
  tcase_add_test(t, summary_computed_once);
  tcase_add_test(t, examples);
  tcase_add_test(t, taint_example_findings);
  tcase_add_test(t, large_fact_numbers);
  suite_add_tcase(s, t);
  return s;
}
