/* Tests of frontends/llvm/report: checks with the zero fact, one finding per
 * (rule, location, source), code flows, paths relative to the source root,
 * fingerprints and the SARIF fields they feed. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontends/llvm/report/report.h"
#include "tests/check_run.h"
#include "tests/llvm/test_llvm.h"

/* taint_helper built with -g at -O0 (one command-injection finding). */
static weir_llvm_problem *build_helper(void) {
  wt_program p;
  ck_assert(wt_program_find("taint_helper", &p));
  char paths[2][WT_MAX_FILES][1024];
  ck_assert_msg(wt_compile(&p, 1, paths) == 0, "clang-14 failed on taint_helper");
  weir_llvm_problem *lp = NULL;
  ck_assert_msg(wt_build(&p, paths[0], NULL, &lp) == WEIR_OK, "%s", weir_last_error());
  ck_assert_uint_ge(lp->check_count, 1);
  return lp;
}

/* Appends a check that shares the location of check 0. */
static void add_check(weir_llvm_problem *lp, weir_llvm_finding_rule rule, uint32_t node, uint32_t fact,
                      const char *message) {
  weir_llvm_check *checks = realloc(lp->checks, (lp->check_count + 1) * sizeof *checks);
  ck_assert_ptr_nonnull(checks);
  lp->checks = checks;
  lp->check_cap = lp->check_count + 1;
  weir_llvm_check *c = &lp->checks[lp->check_count++];
  *c = (weir_llvm_check){rule, node, (uint32_t)lp->check_facts.n, 1, lp->checks[0].loc, strdup(message), 0, 0, 0, 0, 0, 0, 0, NULL, 0};
  ck_assert_ptr_nonnull(c->message);
  weir_llvm_vec_push(&lp->check_facts, fact);
}

/* A check listing fact 0 fires wherever its node is reachable; a repeated
 * check at the same place, rule and source is reported once. */
START_TEST(test_zero_fact_and_duplicates) {
  weir_llvm_problem *lp = build_helper();
  const weir_llvm_check first = lp->checks[0];
  uint32_t sink_fact = lp->check_facts.v[first.fact_first];
  add_check(lp, WEIR_LLVM_RULE_UNINIT, first.node, 0, "reached");
  add_check(lp, first.rule, first.node, sink_fact, "the same finding again");
  add_check(lp, WEIR_LLVM_RULE_DOUBLE_FREE, 0, sink_fact, "a fact that does not hold at the start of main");
  wt_run run;
  ck_assert_int_eq(wt_solve(lp, NULL, &run), WEIR_OK);
  const weir_llvm_findings *f = &run.findings;
  ck_assert_uint_eq(f->count, 2);
  int zero = 0, sink = 0;
  for (size_t k = 0; k < f->count; ++k) {
    if (strcmp(f->items[k].rule, "weir-uninit") == 0) {
      zero = 1;
      ck_assert_uint_eq(f->items[k].fact, 0);
      ck_assert_str_eq(f->items[k].message, "reached");
      ck_assert_int_eq(f->items[k].has_source, 0);
      ck_assert_uint_eq(f->items[k].step_count, 0);
    } else {
      sink = 1;
      ck_assert_str_eq(f->items[k].rule, "weir-taint-command-injection");
      ck_assert_int_eq(f->items[k].has_source, 1);
      ck_assert_str_eq(f->items[k].source_name, "fgets");
      /* The code flow runs from the source to the finding. */
      ck_assert_uint_ge(f->items[k].step_count, 2);
      ck_assert_int_eq(f->items[k].steps[0].kind, WEIR_LLVM_STEP_SOURCE);
      ck_assert_uint_eq(f->items[k].steps[0].where.line, f->items[k].source.line);
      ck_assert_int_eq(f->items[k].steps[f->items[k].step_count - 1].kind, WEIR_LLVM_STEP_SINK);
      ck_assert_uint_eq(f->items[k].steps[f->items[k].step_count - 1].node, f->items[k].node);
    }
  }
  ck_assert(zero && sink);
  /* The SARIF declares both rules and gives the zero-fact result no code flow. */
  char *text = NULL;
  size_t size = 0;
  FILE *out = open_memstream(&text, &size);
  ck_assert_int_eq(weir_llvm_write_sarif_stream(lp, f, out), WEIR_OK);
  fclose(out);
  ck_assert_ptr_nonnull(strstr(text, "\"id\": \"weir-uninit\""));
  ck_assert_ptr_nonnull(strstr(text, "\"ifdsFact\": 0"));
  ck_assert_ptr_nonnull(strstr(text, "\"codeFlows\""));
  free(text);
  wt_run_free(&run);
  weir_llvm_problem_free(lp);
}
END_TEST

START_TEST(test_paths) {
  char *p = weir_llvm_path_join("/a/b", "../c/./d.c");
  ck_assert_str_eq(p, "/a/c/d.c");
  free(p);
  p = weir_llvm_path_join("/ignored", "/x//y/../z.c");
  ck_assert_str_eq(p, "/x/z.c");
  free(p);
  p = weir_llvm_path_join("/", "../../etc/f");
  ck_assert_str_eq(p, "/etc/f");
  free(p);
  weir_llvm_text t = {0};
  ck_assert_int_eq(weir_llvm_path_relative("/a/b", "/a/b/c/d.c", &t), 1);
  ck_assert_str_eq(t.p, "c/d.c");
  t.n = 0;
  ck_assert_int_eq(weir_llvm_path_relative("/a/b", "/a/bc/d.c", &t), 0); /* a prefix, not a parent */
  ck_assert_str_eq(t.p, "/a/bc/d.c");
  t.n = 0;
  ck_assert_int_eq(weir_llvm_path_relative("/", "/x/y.c", &t), 1);
  ck_assert_str_eq(t.p, "x/y.c");
  weir_llvm_text_free(&t);
  weir_llvm_findings f = {0};
  ck_assert_int_eq(weir_llvm_findings_set_root(&f, "/no/such/dir"), WEIR_ERR_INVALID_ARGUMENT);
  ck_assert_ptr_nonnull(strstr(weir_last_error(), "Fix:"));
  ck_assert_int_eq(weir_llvm_findings_set_root(&f, "/tmp/../tmp"), WEIR_OK);
  ck_assert_str_eq(f.source_root, "/tmp");
  weir_llvm_findings_free(&f);
}
END_TEST

/* The fingerprint ignores lines, columns and sources, not what identifies the finding. */
START_TEST(test_fingerprint) {
  weir_llvm_finding a = {.rule = "weir-taint-command-injection", .message = "tainted data reaches argument 1 of 'system'",
                         .where = {.file = "/src/a.c", .line = 10, .column = 3, .function = "main"},
                         .has_source = 1, .source_name = "fgets"};
  weir_llvm_finding b = a;
  b.where.line = 11;
  b.where.column = 7;
  char x[17], y[17];
  weir_llvm_fingerprint(&a, "a.c", x);
  weir_llvm_fingerprint(&b, "a.c", y);
  ck_assert_str_eq(x, y);
  ck_assert_uint_eq(strlen(x), 16);
  b.rule = "weir-taint";
  weir_llvm_fingerprint(&b, "a.c", y);
  ck_assert_str_ne(x, y);
  b = a; /* v2: one finding per (rule, sink); another source is the same finding */
  b.source_name = "getenv";
  weir_llvm_fingerprint(&b, "a.c", y);
  ck_assert_str_eq(x, y);
  b.message = "tainted data reaches argument 1 of 'popen'";
  weir_llvm_fingerprint(&b, "a.c", y);
  ck_assert_str_ne(x, y);
  weir_llvm_fingerprint(&a, "b.c", y);
  ck_assert_str_ne(x, y);
}
END_TEST

/* Every rule has its texts, a CWE and a severity; each analysis lists its own. */
START_TEST(test_rules) {
  for (int r = 0; r < WEIR_LLVM_RULE_COUNT; ++r) {
    const weir_llvm_rule_info *info = weir_llvm_rule_info_of((weir_llvm_finding_rule)r);
    ck_assert(info->id && info->name && info->cwe && info->short_description && info->full_description &&
              info->help_text && info->help_markdown && info->cwe_name && info->cwe_title);
    /* SARIF2012 (multitool): names are Pascal identifiers, each capital followed by lower case. */
    for (const char *c = info->cwe_name; *c; ++c) ck_assert(c[0] < 'A' || c[0] > 'Z' || (c[1] >= 'a' && c[1] <= 'z'));
    double severity = atof(info->security_severity);
    ck_assert(severity > 0.0 && severity <= 10.0);
  }
  ck_assert_str_eq(weir_llvm_rule_info_of(WEIR_LLVM_RULE_COMMAND_INJECTION)->id, "weir-taint-command-injection");
  ck_assert_str_eq(weir_llvm_rule_info_of(WEIR_LLVM_RULE_COMMAND_INJECTION)->cwe, "78");
  ck_assert_str_eq(weir_llvm_rule_info_of(WEIR_LLVM_RULE_DOUBLE_FREE)->cwe, "415");
  weir_llvm_finding_rule list[WEIR_LLVM_RULE_COUNT];
  ck_assert_uint_eq(weir_llvm_rules_of(WEIR_LLVM_TAINT, list), 3);
  ck_assert_uint_eq(weir_llvm_rules_of(WEIR_LLVM_UNINIT, list), 1);
  ck_assert_uint_eq(weir_llvm_rules_of(WEIR_LLVM_UAF, list), 2);
  ck_assert_int_eq(list[1], WEIR_LLVM_RULE_DOUBLE_FREE);
}
END_TEST

int main(void) {
  Suite *suite = suite_create("llvm_report");
  TCase *tc = tcase_create("report");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, test_zero_fact_and_duplicates);
  tcase_add_test(tc, test_paths);
  tcase_add_test(tc, test_fingerprint);
  tcase_add_test(tc, test_rules);
  suite_add_tcase(suite, tc);
  return weir_check_run(srunner_create(suite));
}
