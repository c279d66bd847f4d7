/* Tests of the LLVM frontend: findings of small C programs on every solver,
 * the emitted problems, configuration, locations and errors. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontends/llvm/frontend.h"
#include "tests/llvm/test_llvm.h"
#include "weir/ifds.h"
#include "tests/check_run.h"

static const char *const programs[] = {
    "taint_direct",  "taint_helper",    "taint_context", "taint_sanitized", "taint_indirect",
    "taint_recursion", "taint_local",   "uninit_branch", "uninit_pointer",
};
#define PROGRAM_COUNT ((int)(sizeof programs / sizeof programs[0]))

static weir_llvm_analysis analysis_of(const char *name) {
  return strncmp(name, "taint", 5) == 0 ? WEIR_LLVM_TAINT : WEIR_LLVM_UNINIT;
}

static weir_llvm_problem *build_program(const char *name, int debug, int with_config) {
  char bc[1024], cfg[1024];
  ck_assert_msg(wt_compile(name, debug, bc, sizeof bc) == 0, "clang-14 failed on %s.c", name);
  int has_cfg = with_config && wt_config_path(name, cfg, sizeof cfg);
  weir_llvm_problem *lp = NULL;
  weir_status s = wt_build(bc, analysis_of(name), has_cfg ? cfg : NULL, &lp);
  ck_assert_msg(s == WEIR_OK, "%s: %s", name, weir_last_error());
  return lp;
}

/* The findings match the source's EXPECT markers exactly. */
static void check_expectations(const char *name, const wt_run *run) {
  wt_expect expect[16];
  size_t count = wt_expectations(name, expect, 16);
  const weir_llvm_findings *f = &run->findings;
  for (size_t k = 0; k < f->count; ++k)
    printf("  %s: %s:%u: %s%s%s\n", name, f->items[k].where.function, f->items[k].where.line,
           f->items[k].message, f->items[k].has_source ? " <- " : "",
           f->items[k].has_source ? f->items[k].source_name : "");
  ck_assert_msg(f->count == count, "%s: %zu findings, %zu expected", name, f->count, count);
  for (size_t e = 0; e < count; ++e) {
    ck_assert_str_eq(expect[e].rule, weir_llvm_rule_id(analysis_of(name)));
    int found = 0;
    for (size_t k = 0; k < f->count && !found; ++k) {
      const weir_llvm_finding *x = &f->items[k];
      if (x->where.line != expect[e].line) continue;
      ck_assert_ptr_nonnull(strstr(x->where.file, name));
      if (expect[e].from[0]) {
        ck_assert_msg(x->has_source, "%s:%u: no source found", name, expect[e].line);
        ck_assert_str_eq(x->source_name, expect[e].from);
        ck_assert_uint_gt(x->source.line, 0);
      }
      found = 1;
    }
    ck_assert_msg(found, "%s: no finding at line %u", name, expect[e].line);
  }
}

static void same_findings(const wt_run *a, const wt_run *b) {
  ck_assert_uint_eq(a->result.path_edges, b->result.path_edges);
  ck_assert_uint_eq(a->result.hold_count, b->result.hold_count);
  ck_assert(memcmp(a->result.hold_node, b->result.hold_node, a->result.hold_count * sizeof(uint32_t)) == 0);
  ck_assert(memcmp(a->result.hold_fact, b->result.hold_fact, a->result.hold_count * sizeof(uint32_t)) == 0);
  ck_assert_uint_eq(a->findings.count, b->findings.count);
  for (size_t k = 0; k < a->findings.count; ++k) {
    ck_assert_uint_eq(a->findings.items[k].node, b->findings.items[k].node);
    ck_assert_uint_eq(a->findings.items[k].fact, b->findings.items[k].fact);
    ck_assert_int_eq(a->findings.items[k].has_source, b->findings.items[k].has_source);
  }
}

/* The engine on every backend that opens; the others are reported, not passed. */
static void check_engines(const char *name, weir_llvm_problem *lp, const wt_run *reference) {
  weir_backend_report reports[16];
  size_t count = 0;
  ck_assert_int_eq(weir_backend_reports(reports, 16, &count), WEIR_OK);
  for (size_t r = 0; r < count && r < 16; ++r) {
    if (!reports[r].available) {
      printf("  SKIP %s engine on %s: %s\n", name, reports[r].id, reports[r].reason);
      continue;
    }
    weir_backend *backend = NULL;
    if (weir_backend_open(reports[r].id, &backend) != WEIR_OK) {
      printf("  SKIP %s engine on %s: %s\n", name, reports[r].id, weir_last_error());
      continue;
    }
    wt_run run;
    weir_status s = wt_solve(lp, backend, &run);
    if (s == WEIR_ERR_UNAVAILABLE) {
      printf("  SKIP %s engine on %s: %s\n", name, reports[r].id, weir_last_error());
    } else {
      ck_assert_msg(s == WEIR_OK, "%s engine on %s: %s", name, reports[r].id, weir_last_error());
      same_findings(reference, &run);
      printf("  %s engine on %s: %zu findings, identical to the reference\n", name, reports[r].id,
             run.findings.count);
    }
    wt_run_free(&run);
    weir_backend_close(backend);
  }
}

START_TEST(test_program_findings) {
  const char *name = programs[_i];
  weir_llvm_problem *lp = build_program(name, 1, 1);
  /* The emitted file passes the loader like any problem on disk. */
  char path[1024];
  snprintf(path, sizeof path, "%s/%s.ifds", WEIR_TEST_WORK, name);
  ck_assert_int_eq(weir_llvm_problem_write(lp, path), WEIR_OK);
  weir_ifds_problem *from_file = NULL;
  ck_assert_msg(weir_ifds_load_file(path, &from_file) == WEIR_OK, "%s", weir_last_error());
  ck_assert_uint_eq(from_file->node_count, weir_llvm_problem_stats(lp)->nodes);
  ck_assert_uint_eq(from_file->fact_count, weir_llvm_problem_stats(lp)->facts);
  ck_assert_uint_eq(from_file->proc_count, weir_llvm_problem_stats(lp)->functions);
  weir_ifds_problem_free(from_file);

  wt_run reference;
  ck_assert_msg(wt_solve(lp, NULL, &reference) == WEIR_OK, "%s: %s", name, weir_last_error());
  check_expectations(name, &reference);
  check_engines(name, lp, &reference);
  wt_run_free(&reference);
  weir_llvm_problem_free(lp);
}
END_TEST

/* Without its sanitizer the sanitized program has one more finding. */
START_TEST(test_sanitizer_config_matters) {
  weir_llvm_problem *with = build_program("taint_sanitized", 1, 1);
  weir_llvm_problem *without = build_program("taint_sanitized", 1, 0);
  wt_run a, b;
  ck_assert_int_eq(wt_solve(with, NULL, &a), WEIR_OK);
  ck_assert_int_eq(wt_solve(without, NULL, &b), WEIR_OK);
  ck_assert_uint_eq(b.findings.count, a.findings.count + 1);
  wt_run_free(&a);
  wt_run_free(&b);
  weir_llvm_problem_free(with);
  weir_llvm_problem_free(without);
}
END_TEST

/* Several callee lines for the indirect call, and a call node per defined call. */
START_TEST(test_indirect_call_resolution) {
  weir_llvm_problem *lp = build_program("taint_indirect", 1, 1);
  weir_ifds_problem *p = NULL;
  ck_assert_int_eq(weir_llvm_problem_load(lp, &p), WEIR_OK);
  ck_assert_uint_eq(weir_llvm_problem_stats(lp)->indirect_sites, 1);
  uint32_t widest = 0;
  for (uint32_t c = 0; c < p->call_count; ++c) {
    uint32_t n = p->callee_offset[c + 1] - p->callee_offset[c];
    if (n > widest) widest = n;
    ck_assert_uint_ne(p->call_return[c], p->call_node[c]);
  }
  ck_assert_uint_eq(widest, 2); /* run_it and log_it have the handler's type */
  for (uint32_t q = 0; q < p->proc_count; ++q) ck_assert_uint_lt(p->proc_first[q], p->proc_last[q]);
  weir_ifds_problem_free(p);
  weir_llvm_problem_free(lp);
}
END_TEST

/* Without -g a finding names the function and the instruction. */
START_TEST(test_without_debug_info) {
  weir_llvm_problem *lp = build_program("taint_direct", 0, 0);
  wt_run run;
  ck_assert_int_eq(wt_solve(lp, NULL, &run), WEIR_OK);
  ck_assert_uint_eq(run.findings.count, 1);
  const weir_llvm_finding *f = &run.findings.items[0];
  ck_assert_uint_eq(f->where.line, 0);
  ck_assert_str_eq(f->where.function, "main");
  ck_assert_uint_gt(f->where.instruction, 0);
  ck_assert_ptr_nonnull(strstr(f->where.text, "@system"));
  char *text = NULL;
  size_t size = 0;
  FILE *out = open_memstream(&text, &size);
  weir_llvm_findings_print(lp, &run.findings, out);
  fclose(out);
  ck_assert_ptr_nonnull(strstr(text, "function 'main', instruction"));
  ck_assert_ptr_nonnull(strstr(text, "[weir-taint]"));
  free(text);
  wt_run_free(&run);
  weir_llvm_problem_free(lp);
}
END_TEST

START_TEST(test_sarif_fields) {
  weir_llvm_problem *lp = build_program("taint_helper", 1, 1);
  wt_run run;
  ck_assert_int_eq(wt_solve(lp, NULL, &run), WEIR_OK);
  char *text = NULL;
  size_t size = 0;
  FILE *out = open_memstream(&text, &size);
  ck_assert_int_eq(weir_llvm_write_sarif_stream(lp, &run.findings, out), WEIR_OK);
  fclose(out);
  const char *needles[] = {"\"version\": \"2.1.0\"", "\"name\": \"weir\"", "\"id\": \"weir-taint\"",
                           "\"ruleId\": \"weir-taint\"", "\"startLine\": 16", "\"relatedLocations\"",
                           "\"startLine\": 14", "source: fgets"};
  for (size_t k = 0; k < sizeof needles / sizeof needles[0]; ++k)
    ck_assert_msg(strstr(text, needles[k]), "SARIF lacks %s:\n%s", needles[k], text);
  free(text);
  wt_run_free(&run);
  weir_llvm_problem_free(lp);
}
END_TEST

START_TEST(test_bad_inputs) {
  weir_llvm_problem *lp = NULL;
  const char junk[] = "this is not LLVM IR\n";
  ck_assert_int_eq(weir_llvm_build_memory("junk.ll", junk, sizeof junk - 1, WEIR_LLVM_TAINT, NULL, &lp),
                   WEIR_ERR_PARSE);
  ck_assert_ptr_null(lp);
  ck_assert_ptr_nonnull(strstr(weir_last_error(), "junk.ll"));
  ck_assert_ptr_nonnull(strstr(weir_last_error(), "Fix:"));
  ck_assert_int_eq(weir_llvm_build("/nonexistent/x.bc", WEIR_LLVM_UNINIT, NULL, &lp), WEIR_ERR_IO);
  const char decls[] = "declare i32 @puts(i8*)\n";
  ck_assert_int_eq(weir_llvm_build_memory("decls.ll", decls, sizeof decls - 1, WEIR_LLVM_UNINIT, NULL, &lp),
                   WEIR_ERR_INVALID_ARGUMENT);
  weir_llvm_analysis a;
  ck_assert_int_eq(weir_llvm_analysis_parse("nullness", &a), WEIR_ERR_INVALID_ARGUMENT);
  weir_llvm_config *config = NULL;
  ck_assert_int_eq(weir_llvm_config_new(&config), WEIR_OK);
  const char bad[] = "source getenv ret\nsink system argX\n";
  ck_assert_int_eq(weir_llvm_config_parse(config, "my.cfg", bad, sizeof bad - 1), WEIR_ERR_PARSE);
  ck_assert_ptr_nonnull(strstr(weir_last_error(), "my.cfg:2:"));
  const char unknown[] = "frobnicate x\n";
  ck_assert_int_eq(weir_llvm_config_parse(config, "my.cfg", unknown, sizeof unknown - 1), WEIR_ERR_PARSE);
  weir_llvm_config_free(config);
}
END_TEST

/* A sink of our own in a config: every call of `run_command` is a finding
 * once `reset` dropped the defaults and only the new rules apply. */
START_TEST(test_config_reset_and_custom_rules) {
  const char ir[] =
      "declare i8* @fetch()\n"
      "declare void @run_command(i8*)\n"
      "declare i32 @system(i8*)\n"
      "define void @main() {\n"
      "  %t = call i8* @fetch()\n"
      "  call void @run_command(i8* %t)\n"
      "  %r = call i32 @system(i8* %t)\n"
      "  ret void\n"
      "}\n";
  weir_llvm_config *config = NULL;
  ck_assert_int_eq(weir_llvm_config_new(&config), WEIR_OK);
  const char rules[] = "reset\nsource fetch ret\nsink run_command arg0  # ours\n";
  ck_assert_int_eq(weir_llvm_config_parse(config, "custom.cfg", rules, sizeof rules - 1), WEIR_OK);
  weir_llvm_problem *lp = NULL;
  ck_assert_int_eq(weir_llvm_build_memory("custom.ll", ir, sizeof ir - 1, WEIR_LLVM_TAINT, config, &lp), WEIR_OK);
  wt_run run;
  ck_assert_int_eq(wt_solve(lp, NULL, &run), WEIR_OK);
  ck_assert_uint_eq(run.findings.count, 1); /* system is no sink after reset */
  ck_assert_ptr_nonnull(strstr(run.findings.items[0].message, "run_command"));
  ck_assert_str_eq(run.findings.items[0].source_name, "fetch");
  ck_assert_uint_eq(run.findings.items[0].where.line, 0);
  wt_run_free(&run);
  weir_llvm_problem_free(lp);
  weir_llvm_config_free(config);
}
END_TEST

/* IR corners the loader must still accept: odd and empty function names,
 * a switch whose cases share a block (one edge), unreachable, an indirect
 * call with no defined target of its type (external), self recursion. */
START_TEST(test_ir_corners_load) {
  const char ir[] =
      "declare void @ext(i8*)\n"
      "define void @\"odd name\"() {\n  ret void\n}\n"
      "define void @0() {\n  unreachable\n}\n"
      "define i32 @sw(i32 %x) {\n"
      "entry:\n  switch i32 %x, label %a [ i32 1, label %a\n i32 2, label %b ]\n"
      "a:\n  ret i32 1\nb:\n  %r = call i32 @sw(i32 1)\n  ret i32 %r\n}\n"
      "define i32 @main(void (i8*)* %fp) {\n"
      "  call void @\"odd name\"()\n  call void @0()\n  call void %fp(i8* null)\n"
      "  %v = call i32 @sw(i32 2)\n  ret i32 %v\n}\n";
  for (int a = 0; a < 2; ++a) {
    weir_llvm_problem *lp = NULL;
    ck_assert_msg(weir_llvm_build_memory("corners.ll", ir, sizeof ir - 1, (weir_llvm_analysis)a, NULL, &lp) == WEIR_OK,
                  "%s", weir_last_error());
    weir_ifds_problem *p = NULL;
    ck_assert_msg(weir_llvm_problem_load(lp, &p) == WEIR_OK, "%s", weir_last_error());
    ck_assert_uint_eq(p->proc_count, 4);
    ck_assert_uint_eq(weir_llvm_problem_stats(lp)->indirect_sites, 1);
    ck_assert_uint_eq(p->call_count, 4); /* odd name, @0, sw twice; %fp has no target */
    weir_ifds_result r;
    ck_assert_int_eq(weir_ifds_solve_reference(p, &r, NULL), WEIR_OK);
    ck_assert_uint_gt(r.path_edges, 0);
    weir_ifds_result_free(&r);
    weir_ifds_problem_free(p);
    weir_llvm_problem_free(lp);
  }
}
END_TEST

static Suite *llvm_suite(void) {
  Suite *s = suite_create("llvm frontend");
  TCase *tc = tcase_create("programs");
  tcase_set_timeout(tc, 300);
  tcase_add_loop_test(tc, test_program_findings, 0, PROGRAM_COUNT);
  tcase_add_test(tc, test_sanitizer_config_matters);
  tcase_add_test(tc, test_indirect_call_resolution);
  tcase_add_test(tc, test_without_debug_info);
  tcase_add_test(tc, test_sarif_fields);
  tcase_add_test(tc, test_bad_inputs);
  tcase_add_test(tc, test_config_reset_and_custom_rules);
  tcase_add_test(tc, test_ir_corners_load);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  SRunner *runner = srunner_create(llvm_suite());
  return weir_check_run(runner);
}
