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

#define WT_PROGRAMS_MAX 256

/* A single-file program at -O0 (with or without -g and its NAME.cfg). */
static weir_llvm_problem *build_program(const char *name, int debug, int with_config) {
  wt_program p;
  ck_assert_msg(wt_program_find(name, &p), "no program %s in %s", name, WEIR_TEST_PROGRAMS);
  char paths[2][WT_MAX_FILES][1024], cfg[1024];
  ck_assert_msg(wt_compile(&p, debug, paths) == 0, "clang-14 failed on %s", name);
  int has_cfg = with_config && wt_config_path(name, cfg, sizeof cfg);
  weir_llvm_problem *lp = NULL;
  weir_status s = wt_build(&p, paths[0], has_cfg ? cfg : NULL, &lp);
  ck_assert_msg(s == WEIR_OK, "%s: %s", name, weir_last_error());
  return lp;
}

/* The engine must give the reference's result exactly; returns the number
 * of differences (printed). */
static size_t same_findings(const char *what, const wt_run *a, const wt_run *b) {
  int same = a->result.path_edges == b->result.path_edges && a->result.hold_count == b->result.hold_count &&
             memcmp(a->result.hold_node, b->result.hold_node, a->result.hold_count * sizeof(uint32_t)) == 0 &&
             memcmp(a->result.hold_fact, b->result.hold_fact, a->result.hold_count * sizeof(uint32_t)) == 0 &&
             a->findings.count == b->findings.count;
  for (size_t k = 0; same && k < a->findings.count; ++k)
    same = a->findings.items[k].node == b->findings.items[k].node &&
           a->findings.items[k].fact == b->findings.items[k].fact &&
           a->findings.items[k].has_source == b->findings.items[k].has_source;
  if (same) return 0;
  printf("  %s: result differs from the reference (%llu vs %llu path edges, %zu vs %zu findings)\n", what,
         (unsigned long long)b->result.path_edges, (unsigned long long)a->result.path_edges, b->findings.count,
         a->findings.count);
  return 1;
}

/* Demand pruning must not change what a user sees: the same findings,
 * messages, places and code flows (step by step) as with every fact kept.
 * Fact and node numbers may differ (renumbered, bypassed). */
static size_t same_report(const char *what, const wt_run *pruned, const wt_run *all) {
  const weir_llvm_findings *a = &pruned->findings, *b = &all->findings;
  size_t k = 0, differ = a->count != b->count;
  for (; !differ && k < a->count; ++k) {
    const weir_llvm_finding *x = &a->items[k], *y = &b->items[k];
    differ = strcmp(x->message, y->message) != 0 || x->where.line != y->where.line ||
             x->where.column != y->where.column || x->step_count != y->step_count;
    for (size_t j = 0; !differ && j < x->step_count; ++j)
      differ = x->steps[j].kind != y->steps[j].kind || x->steps[j].where.line != y->steps[j].where.line ||
               strcmp(x->steps[j].message, y->steps[j].message) != 0;
  }
  if (!differ) return 0;
  printf("  %s: demand pruning changed the report (%zu vs %zu findings; finding %zu differs)\n", what, a->count,
         b->count, k ? k - 1 : 0);
  return 1;
}

/* The backends that open here; the others are reported once (program 0). */
static size_t open_backends(weir_backend **out, char ids[][32], size_t capacity, int report) {
  weir_backend_report reports[16];
  size_t count = 0, opened = 0;
  ck_assert_int_eq(weir_backend_reports(reports, 16, &count), WEIR_OK);
  for (size_t r = 0; r < count && r < 16 && opened < capacity; ++r) {
    if (!reports[r].available) {
      if (report) printf("  SKIP engine on %s: %s\n", reports[r].id, reports[r].reason);
      continue;
    }
    if (weir_backend_open(reports[r].id, &out[opened]) != WEIR_OK) {
      if (report) printf("  SKIP engine on %s: %s\n", reports[r].id, weir_last_error());
      continue;
    }
    snprintf(ids[opened++], 32, "%.31s", reports[r].id);
  }
  return opened;
}

/* A problem in the text format, canonical (weir_ifds_write_problem). */
static char *canonical_text(const weir_ifds_problem *p) {
  FILE *f = tmpfile();
  ck_assert_ptr_nonnull(f);
  ck_assert_msg(weir_ifds_write_problem(p, f) == WEIR_OK, "%s", weir_last_error());
  long size = ftell(f);
  ck_assert_int_gt(size, 0);
  char *text = malloc((size_t)size + 1);
  ck_assert_ptr_nonnull(text);
  rewind(f);
  ck_assert_uint_eq(fread(text, 1, (size_t)size, f), (size_t)size);
  text[size] = '\0';
  fclose(f);
  return text;
}

/* Every fact has a name in the legend (fact 0 is "zero"), and no more. */
static void check_legend(const weir_llvm_problem *lp, uint32_t facts) {
  size_t length = 0;
  const char *name = weir_llvm_problem_fact_name(lp, 0, &length);
  ck_assert_msg(name && length == 4 && memcmp(name, "zero", 4) == 0, "fact 0 is not named zero");
  for (uint32_t f = 1; f < facts; ++f) {
    ck_assert_msg(weir_llvm_problem_fact_name(lp, f, &length) != NULL, "fact %u has no name", f);
    ck_assert_uint_gt(length, 0);
  }
  ck_assert_ptr_null(weir_llvm_problem_fact_name(lp, facts, &length));
}

/* The emitted file (legend comments, then the writer's text with the `end`
 * trailer) loads strictly and gives the built problem; so does a copy. */
static void check_emitted(const wt_program *p, weir_llvm_problem *lp) {
  char path[1024];
  snprintf(path, sizeof path, "%s/%s.ifds", WEIR_TEST_WORK, p->name);
  ck_assert_int_eq(weir_llvm_problem_write(lp, path), WEIR_OK);
  weir_ifds_problem *from_file = NULL, *copy = NULL;
  weir_ifds_load_options strict = {.strict = 1};
  ck_assert_msg(weir_ifds_load_file_ex(path, &strict, &from_file) == WEIR_OK, "%s", weir_last_error());
  ck_assert_uint_eq(from_file->node_count, weir_llvm_problem_stats(lp)->nodes);
  ck_assert_uint_eq(from_file->fact_count, weir_llvm_problem_stats(lp)->facts);
  ck_assert_uint_eq(from_file->proc_count, weir_llvm_problem_stats(lp)->functions);
  ck_assert_int_eq(weir_llvm_problem_load(lp, &copy), WEIR_OK);
  char *built = canonical_text(weir_llvm_problem_ifds(lp));
  char *loaded = canonical_text(from_file), *copied = canonical_text(copy);
  ck_assert_msg(strcmp(built, loaded) == 0, "%s: the emitted file differs from the built problem", p->name);
  ck_assert_msg(strcmp(built, copied) == 0, "%s: the copy differs from the built problem", p->name);
  check_legend(lp, from_file->fact_count);
  free(built), free(loaded), free(copied);
  weir_ifds_problem_free(copy);
  weir_ifds_problem_free(from_file);
}

/* The program built with every fact kept, on the reference solver: the
 * report must be `reference`'s. */
static size_t check_all_facts(const wt_program *p, char paths[WT_MAX_FILES][1024], const char *cfg,
                              const char *what, const wt_run *reference) {
  weir_llvm_problem *lp = NULL;
  wt_run all;
  memset(&all, 0, sizeof all);
  if (wt_build_all_facts(p, paths, cfg, 1, &lp) != WEIR_OK || wt_solve(lp, NULL, &all) != WEIR_OK) {
    printf("  %s with every fact: %s\n", what, weir_last_error());
    wt_run_free(&all);
    weir_llvm_problem_free(lp);
    return 1;
  }
  size_t wrong = same_report(what, reference, &all);
  wt_run_free(&all);
  weir_llvm_problem_free(lp);
  return wrong;
}

/* One level of one program on every solver: the number of mismatches. A
 * program that cannot be built or solved counts as one and is printed, so
 * that the shard goes on with the other programs. */
static size_t check_level(const wt_program *p, int level, char paths[WT_MAX_FILES][1024], weir_backend **backends,
                          char ids[][32], size_t backend_count, size_t *finding_count) {
  char cfg[1024], what[160];
  int has_cfg = wt_config_path(p->name, cfg, sizeof cfg);
  weir_llvm_problem *lp = NULL;
  weir_status s = wt_build(p, paths, has_cfg ? cfg : NULL, &lp);
  if (s != WEIR_OK) {
    printf("  %s -O%d: building the problem failed: %s\n", p->name, level, weir_last_error());
    return 1;
  }
  if (level == 0) check_emitted(p, lp);
  wt_expect expect[64];
  size_t count = wt_expectations(p, level, expect, 64);
  wt_run reference;
  int failed = count >= 64; /* the marker array is full: some may be missing */
  if (failed) printf("  %s -O%d: 64 or more markers (raise the limit in check_level)\n", p->name, level);
  else if ((failed = wt_solve(lp, NULL, &reference) != WEIR_OK)) {
    printf("  %s -O%d: %s\n", p->name, level, weir_last_error());
    wt_run_free(&reference);
  }
  if (failed) {
    weir_llvm_problem_free(lp);
    return 1;
  }
  snprintf(what, sizeof what, "%s -O%d reference", p->name, level);
  size_t wrong = wt_compare(p, expect, count, &reference.findings, what, stdout);
  wrong += check_all_facts(p, paths, has_cfg ? cfg : NULL, what, &reference);
  *finding_count = reference.findings.count;
  for (size_t b = 0; b < backend_count; ++b) {
    wt_run run;
    snprintf(what, sizeof what, "%s -O%d engine on %s", p->name, level, ids[b]);
    s = wt_solve(lp, backends[b], &run);
    if (s == WEIR_ERR_UNAVAILABLE) {
      printf("  SKIP %s: %s\n", what, weir_last_error());
    } else if (s != WEIR_OK) {
      printf("  %s: %s\n", what, weir_last_error());
      ++wrong;
    } else {
      wrong += wt_compare(p, expect, count, &run.findings, what, stdout);
      wrong += same_findings(what, &reference, &run);
    }
    wt_run_free(&run);
  }
  wt_run_free(&reference);
  weir_llvm_problem_free(lp);
  return wrong;
}

/* One program at -O0 and -O2 on the reference solver and the engine of each
 * open backend: the number of mismatches with its EXPECT markers (listed). */
static size_t check_program(const wt_program *p, weir_backend **backends, char ids[][32], size_t backend_count) {
  char paths[2][WT_MAX_FILES][1024];
  if (wt_compile(p, 1, paths) != 0) {
    printf("  %s: clang-14 failed on it (its messages above)\n", p->name);
    fflush(stdout);
    return 1;
  }
  size_t wrong = 0, found[2] = {0, 0};
  for (int l = 0; l < 2; ++l)
    wrong += check_level(p, l ? 2 : 0, paths[l], backends, ids, backend_count, &found[l]);
  printf("  %s: %zu findings at -O0, %zu at -O2, reference and %zu engine(s)%s\n", p->name, found[0], found[1],
         backend_count, wrong ? "" : ": as marked");
  fflush(stdout); /* a failing check ends the forked test without flushing */
  return wrong;
}

/* Shard _i of `program_shards` of the programs, in one process with the
 * backends opened once: a backend's first solve creates its pipelines
 * (lavapipe compiles each shader with LLVM, about 0.3 s, 1 s under
 * sanitizers), so opening them per program cost more than the solving. A
 * program that differs from its markers does not stop the others; the test
 * fails at the end naming every one. */
static int program_shards = 1;
START_TEST(test_program_findings) {
  wt_program *all = calloc(WT_PROGRAMS_MAX, sizeof *all);
  ck_assert_ptr_nonnull(all);
  size_t n = wt_programs(all, WT_PROGRAMS_MAX);
  ck_assert_uint_le(n, WT_PROGRAMS_MAX);
  size_t first = n * (size_t)_i / (size_t)program_shards, last = n * (size_t)(_i + 1) / (size_t)program_shards;
  weir_backend *backends[8];
  char ids[8][32], failed[2048] = "";
  size_t backend_count = open_backends(backends, ids, 8, _i == 0), failures = 0;
  for (size_t k = first; k < last; ++k) {
    if (all[k].analysis == WEIR_LLVM_CONST) continue; /* values, not findings: test_const.c */
    if (check_program(&all[k], backends, ids, backend_count) == 0) continue;
    size_t used = strlen(failed);
    snprintf(failed + used, sizeof failed - used, "%s%s", failures++ ? ", " : "", all[k].name);
  }
  for (size_t b = 0; b < backend_count; ++b) weir_backend_close(backends[b]);
  free(all);
  ck_assert_msg(failures == 0, "%zu program(s) differ from their EXPECT markers or failed (listed above): %s", failures,
                failed);
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
  ck_assert_ptr_nonnull(strstr(text, "[weir-taint-command-injection]"));
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
  const char *needles[] = {"\"version\": \"2.1.0\"", "\"name\": \"weir\"",
                           "\"id\": \"weir-taint-command-injection\"",
                           "\"ruleId\": \"weir-taint-command-injection\"", "\"startLine\": 16", "\"relatedLocations\"",
                           "\"startLine\": 14", "source: fgets"};
  for (size_t k = 0; k < sizeof needles / sizeof needles[0]; ++k)
    ck_assert_msg(strstr(text, needles[k]), "SARIF lacks %s:\n%s", needles[k], text);
  free(text);
  wt_run_free(&run);
  weir_llvm_problem_free(lp);
}
END_TEST

/* A code-flow step is at the instruction that changes the fact: in
 * taint_local.c the strcpy on line 17 taints `copy`, which popen reads on
 * line 18 (the step was once placed at the next node the witness visits,
 * which bypassing can move to a later line). */
START_TEST(test_code_flow_step_at_its_instruction) {
  weir_llvm_problem *lp = build_program("taint_local", 1, 1);
  wt_run run;
  ck_assert_int_eq(wt_solve(lp, NULL, &run), WEIR_OK);
  const weir_llvm_finding *popen_finding = NULL;
  for (size_t k = 0; k < run.findings.count; ++k)
    if (strstr(run.findings.items[k].message, "popen")) popen_finding = &run.findings.items[k];
  ck_assert_ptr_nonnull(popen_finding);
  int at_strcpy = 0;
  for (size_t k = 0; k < popen_finding->step_count; ++k) {
    const weir_llvm_step *s = &popen_finding->steps[k];
    if (s->kind != WEIR_LLVM_STEP_FLOW) continue;
    ck_assert_msg(s->where.line != 18, "a step '%s' on the sink's line 18", s->message);
    at_strcpy |= s->where.line == 17 && strstr(s->message, "copy") != NULL;
  }
  ck_assert_msg(at_strcpy, "no step 'flows to taint memory copy' at the strcpy on line 17");
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

/* Facts that can hold but lead to no check are pruned (module/emit.c's
 * demand): getenv("A") flows into a global and a helper, never to a sink;
 * getenv("B") reaches system. The finding stays, the first flow's facts go. */
/* Builds the problem of IR text `ir` for `analysis`; the test fails when it does not build. */
static weir_llvm_problem *build_ir(const char *name, const char *ir, size_t length, weir_llvm_analysis analysis) {
  weir_llvm_problem *lp = NULL;
  ck_assert_msg(weir_llvm_build_memory(name, ir, length, analysis, NULL, &lp) == WEIR_OK, "%s", weir_last_error());
  return lp;
}

START_TEST(test_demand_pruning) {
  const char ir[] =
      "@g = global i8* null\n"
      "@a = constant [2 x i8] c\"A\\00\"\n"
      "@b = constant [2 x i8] c\"B\\00\"\n"
      "declare i8* @getenv(i8*)\n"
      "declare i32 @system(i8*)\n"
      "define void @keep(i8* %p) {\n  store i8* %p, i8** @g\n  ret void\n}\n"
      "define i32 @main() {\n"
      "  %e = call i8* @getenv(i8* getelementptr ([2 x i8], [2 x i8]* @a, i64 0, i64 0))\n"
      "  call void @keep(i8* %e)\n"
      "  %l = load i8*, i8** @g\n"
      "  %f = call i8* @getenv(i8* getelementptr ([2 x i8], [2 x i8]* @b, i64 0, i64 0))\n"
      "  %r = call i32 @system(i8* %f)\n"
      "  ret i32 %r\n}\n";
  weir_llvm_problem *lp = build_ir("demand.ll", ir, sizeof ir - 1, WEIR_LLVM_TAINT);
  const weir_llvm_build_stats *st = weir_llvm_problem_stats(lp);
  ck_assert_uint_gt(st->facts_generable, st->facts); /* V(%e), V(%p), M(@g), V(%l) can hold */
  ck_assert_uint_ge(st->facts_before_pruning, st->facts_generable);
  ck_assert_uint_eq(st->facts, 2); /* zero and V(%f) */
  size_t length = 0;
  const char *name = weir_llvm_problem_fact_name(lp, 1, &length);
  ck_assert_ptr_nonnull(name);
  char text[256];
  snprintf(text, sizeof text, "%.*s", (int)(length < 255 ? length : 255), name);
  ck_assert_msg(strstr(text, "%f") != NULL, "fact 1 is '%s', not V(%%f)", text);
  wt_run run;
  ck_assert_int_eq(wt_solve(lp, NULL, &run), WEIR_OK);
  ck_assert_uint_eq(run.findings.count, 1);
  ck_assert_ptr_nonnull(strstr(run.findings.items[0].message, "system"));
  wt_run_free(&run);
  weir_llvm_problem_free(lp);
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
      "  call void @\"odd name\"()\n  call void %fp(i8* null)\n"
      "  %v = call i32 @sw(i32 2)\n  call void @0()\n  ret i32 %v\n}\n"; /* @0 never returns: last */
  for (int a = 0; a < 3; ++a) { /* taint, uninit, uaf */
    weir_llvm_problem *lp = build_ir("corners.ll", ir, sizeof ir - 1, (weir_llvm_analysis)a);
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

/* -O2 leaves some instructions without a debug location (a merged or
 * hoisted load) and gives others line 0 (a merged call): a finding there is
 * reported at the nearest line of its block, never as "instruction N", and
 * an allocation site is named by that line, never "t.c:0"; a neighbour
 * inlined from another function (helper.h) never stands in. */
START_TEST(test_lineless_instructions) {
  const char ir[] =
      "@flag = global i32 0\n"
      "declare i8* @malloc(i64)\ndeclare void @free(i8*)\n"
      "define i32 @main() !dbg !6 {\n"
      "  store i32 1, i32* @flag, !dbg !20\n" /* inlined from helper.h: never the stand-in */
      "  %p = call i8* @malloc(i64 4), !dbg !10\n"
      "  %q = bitcast i8* %p to i32*, !dbg !11\n"
      "  call void @free(i8* %p), !dbg !12\n"
      "  store i32 2, i32* @flag, !dbg !20\n"
      "  %v = load i32, i32* %q\n"
      "  %r = add i32 %v, 1, !dbg !13\n"
      "  ret i32 %r, !dbg !13\n}\n"
      "!llvm.dbg.cu = !{!0}\n!llvm.module.flags = !{!3, !4}\n"
      "!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, producer: \"clang\", isOptimized: true, "
      "runtimeVersion: 0, emissionKind: FullDebug)\n"
      "!1 = !DIFile(filename: \"t.c\", directory: \"/src\")\n"
      "!3 = !{i32 7, !\"Dwarf Version\", i32 5}\n!4 = !{i32 2, !\"Debug Info Version\", i32 3}\n"
      "!6 = distinct !DISubprogram(name: \"main\", scope: !1, file: !1, line: 2, type: !7, scopeLine: 2, "
      "spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)\n"
      "!7 = !DISubroutineType(types: !8)\n!8 = !{null}\n"
      "!10 = !DILocation(line: 0, scope: !6)\n!11 = !DILocation(line: 3, column: 7, scope: !6)\n"
      "!12 = !DILocation(line: 4, column: 3, scope: !6)\n!13 = !DILocation(line: 5, column: 10, scope: !6)\n"
      "!20 = !DILocation(line: 41, column: 3, scope: !21, inlinedAt: !22)\n"
      "!21 = distinct !DISubprogram(name: \"set_flag\", scope: !23, file: !23, line: 40, type: !7, scopeLine: 40, "
      "spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)\n"
      "!22 = !DILocation(line: 2, column: 20, scope: !6)\n!23 = !DIFile(filename: \"helper.h\", directory: \"/src\")\n";
  weir_llvm_problem *lp = build_ir("t.ll", ir, sizeof ir - 1, WEIR_LLVM_UAF);
  wt_run run;
  ck_assert_msg(wt_solve(lp, NULL, &run) == WEIR_OK, "%s", weir_last_error());
  ck_assert_uint_eq(run.findings.count, 1);
  const weir_llvm_finding *f = &run.findings.items[0];
  ck_assert_str_eq(f->rule, "weir-use-after-free");
  ck_assert_uint_eq(f->where.line, 4); /* the load has no location: the free's line before it */
  ck_assert_msg(strstr(f->where.file, "t.c") && !strstr(f->where.file, "helper.h"), "%s", f->where.file);
  ck_assert_msg(strstr(f->message, "the block from malloc in main at t.c:3"), "%s", f->message);
  ck_assert_msg(!strstr(f->message, "t.c:0"), "%s", f->message);
  wt_run_free(&run);
  weir_llvm_problem_free(lp);
}
END_TEST

/* -O2 takes part of a vector with `shufflevector %v, <4 x i32> undef,
 * <2 x i32> <0, 1>`: the undef operand is read only where the mask takes one
 * of its lanes (libxcrypt's bcrypt: every value after such a shuffle was
 * "undefined", and stored back, made the context block uninitialised). */
START_TEST(test_shuffle_undef_lanes) {
  static const char *const masks[] = {"<i32 0, i32 1>", "<i32 0, i32 undef>", "<i32 0, i32 5>"};
  for (int k = 0; k < 3; ++k) {
    char ir[1024];
    snprintf(ir, sizeof ir,
             "define i32 @main() {\n"
             "  %%a = alloca <4 x i32>\n"
             "  store <4 x i32> <i32 1, i32 2, i32 3, i32 4>, <4 x i32>* %%a\n"
             "  %%v = load <4 x i32>, <4 x i32>* %%a\n"
             "  %%s = shufflevector <4 x i32> %%v, <4 x i32> undef, <2 x i32> %s\n"
             "  %%e = extractelement <2 x i32> %%s, i32 1\n"
             "  %%c = icmp eq i32 %%e, 0\n"
             "  br i1 %%c, label %%t, label %%f\n"
             "t:\n  ret i32 1\nf:\n  ret i32 0\n}\n",
             masks[k]);
    weir_llvm_problem *lp = build_ir("shuffle.ll", ir, strlen(ir), WEIR_LLVM_UNINIT);
    wt_run run;
    ck_assert_msg(wt_solve(lp, NULL, &run) == WEIR_OK, "%s", weir_last_error());
    ck_assert_msg(run.findings.count == (k == 2 ? 1u : 0u), "mask %s: %zu findings", masks[k], run.findings.count);
    if (k == 2) ck_assert_msg(strstr(run.findings.items[0].message, "branch"), "%s", run.findings.items[0].message);
    wt_run_free(&run);
    weir_llvm_problem_free(lp);
  }
}
END_TEST

/* Shard `shard` of `shards` (CTest runs the programs as two entries, so
 * that `ctest -j2` puts them on both cores): that slice of the programs;
 * the other tests with shard 0. */
static Suite *llvm_suite(int shard, int shards) {
  Suite *s = suite_create("llvm frontend");
  TCase *tc = tcase_create("programs");
  tcase_set_timeout(tc, 600); /* the shard's programs: both levels, every solver (CTest's TIMEOUT too) */
  program_shards = shards;
  tcase_add_loop_test(tc, test_program_findings, shard, shard + 1);
  suite_add_tcase(s, tc);
  if (shard != 0) return s;
  tcase_add_test(tc, test_sanitizer_config_matters);
  tcase_add_test(tc, test_indirect_call_resolution);
  tcase_add_test(tc, test_without_debug_info);
  tcase_add_test(tc, test_sarif_fields);
  tcase_add_test(tc, test_bad_inputs);
  tcase_add_test(tc, test_config_reset_and_custom_rules);
  tcase_add_test(tc, test_ir_corners_load);
  tcase_add_test(tc, test_demand_pruning);
  tcase_add_test(tc, test_code_flow_step_at_its_instruction);
  tcase_add_test(tc, test_lineless_instructions);
  tcase_add_test(tc, test_shuffle_undef_lanes);
  return s;
}

/* usage: weir_llvm_tests [--shard K/N] (default: everything, 0/1) */
int main(int argc, char **argv) {
  int shard = 0, shards = 1;
  if (argc == 3 && strcmp(argv[1], "--shard") == 0 &&
      (sscanf(argv[2], "%d/%d", &shard, &shards) != 2 || shards < 1 || shard < 0 || shard >= shards)) {
    fprintf(stderr, "weir_llvm_tests: bad --shard '%s'. Fix: give K/N with 0 <= K < N, e.g. --shard 1/2\n",
            argv[2]);
    return 2;
  } else if (argc != 1 && argc != 3) {
    fprintf(stderr, "usage: weir_llvm_tests [--shard K/N]\n");
    return 2;
  }
  SRunner *runner = srunner_create(llvm_suite(shard, shards));
  return weir_check_run(runner);
}
