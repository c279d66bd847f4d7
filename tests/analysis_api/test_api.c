/* The adapter in process (frontends/llvm/api), with declarations compiled
 * into the test: every callback kind runs (entry, phi, branch, calls of
 * defined and library functions, ret), custom facts and per-build state,
 * a finding through a phi, a callee and its return; the declaration checks;
 * misuse (a bad rule, a finding outside check) fails the build with a Fix. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontends/llvm/frontend.h"
#include "tests/check_run.h"
#include "weir/analysis.h"

static const char ir[] =
    "declare i32 @source()\n"
    "declare void @sink(i32)\n"
    "define i32 @id(i32 %x) {\n  ret i32 %x\n}\n"
    "define i32 @main(i32 %c) {\nentry:\n  %s = call i32 @source()\n  %b = icmp eq i32 %c, 0\n"
    "  br i1 %b, label %a, label %j\na:\n  br label %j\nj:\n  %p = phi i32 [ %s, %a ], [ 7, %entry ]\n"
    "  %r = call i32 @id(i32 %p)\n  call void @sink(i32 %r)\n  call void @sink(i32 7)\n  ret i32 0\n}\n";

enum { V = 0, R = 1, C = 2 };
static const weir_fact_kind kinds[] = {{"probe value", WEIR_FACT_PER_VALUE, WEIR_FACT_FOLLOW, R},
                                       {"probe return", WEIR_FACT_PER_RETURN, 0, WEIR_ANALYSIS_NO_KIND},
                                       {"probe flag", WEIR_FACT_CUSTOM, 0, WEIR_ANALYSIS_NO_KIND}};
static const weir_analysis_rule rules[] = {
    {"probe-value", "ProbeValue", "20", WEIR_SEVERITY_ERROR, NULL, "a source value reaches sink", NULL},
    {"probe-flag", "ProbeFlag", NULL, WEIR_SEVERITY_NOTE, NULL, "the flag holds at a return", NULL}};

typedef struct probe {
  weir_fact flag;
  unsigned branches[2], phis, entries, calls_in, calls_out, returns;
} probe;

static weir_status init(weir_analysis_ctx *cx, void **state) {
  (void)cx;
  *state = calloc(1, sizeof(probe));
  return *state ? WEIR_OK : weir_fail(WEIR_ERR_OUT_OF_MEMORY, "probe: no memory. Fix: free memory");
}
static void fini(void *state) { free(state); }
static probe *st(weir_analysis_ctx *cx) { return weir_analysis_state(cx); }

static void number(weir_analysis_ctx *cx) { ck_assert_int_eq(weir_analysis_new_fact(cx, C, "flag", &st(cx)->flag), WEIR_OK); }

static int callee_is(weir_analysis_ctx *cx, const weir_ir_value *call, const char *name) {
  size_t n = 0;
  const char *s = weir_ir_callee_name(cx, call, &n);
  return n == strlen(name) && memcmp(s, name, n) == 0;
}

static void entry(weir_analysis_ctx *cx, const weir_ir_function *fn, weir_flow *flow) {
  size_t n = 0;
  const char *name = weir_ir_function_name(cx, fn, &n);
  st(cx)->entries++;
  if (n == 4 && memcmp(name, "main", 4) == 0) weir_flow_gen(flow, st(cx)->flag); /* a latched misuse: its status */
}
static void call_library(weir_analysis_ctx *cx, const weir_ir_value *call, weir_flow *flow) {
  if (callee_is(cx, call, "source")) weir_flow_gen(flow, weir_analysis_value_fact(cx, V, call));
}
static void phi(weir_analysis_ctx *cx, const weir_ir_value *p, const weir_ir_value *in, weir_flow *flow) {
  (void)p, (void)in, (void)flow;
  st(cx)->phis++;
}
static void branch(weir_analysis_ctx *cx, const weir_ir_value *inst, uint32_t successor, weir_flow *flow) {
  (void)flow;
  ck_assert_int_eq(weir_ir_kind_of(cx, inst), WEIR_IR_BRANCH);
  if (successor < 2) st(cx)->branches[successor]++;
}
static void call_enter(weir_analysis_ctx *cx, const weir_ir_value *call, const weir_ir_function *callee, weir_flow *flow) {
  (void)call, (void)flow;
  ck_assert(weir_ir_function_is_defined(cx, callee));
  st(cx)->calls_in++;
}
static void call_exit(weir_analysis_ctx *cx, const weir_ir_value *call, const weir_ir_function *callee, weir_flow *flow) {
  (void)call, (void)callee, (void)flow;
  st(cx)->calls_out++;
}
static void ret(weir_analysis_ctx *cx, const weir_ir_value *inst, weir_flow *flow) {
  (void)inst, (void)flow;
  st(cx)->returns++;
}
static void check(weir_analysis_ctx *cx, const weir_ir_value *inst) {
  weir_ir_kind kind = weir_ir_kind_of(cx, inst);
  if (kind == WEIR_IR_CALL && callee_is(cx, inst, "source")) weir_analysis_source(cx, inst, "source");
  if (kind == WEIR_IR_CALL && callee_is(cx, inst, "sink")) {
    weir_fact f = weir_analysis_value_fact(cx, V, weir_ir_call_arg(cx, inst, 0));
    if (f) weir_analysis_report(cx, inst, 0, &f, 1, "source reaches sink");
  }
  const weir_ir_function *fn = weir_ir_function_of(cx, inst);
  if (kind == WEIR_IR_RET && weir_ir_param_count(cx, fn) == 1 && weir_ir_callee_count(cx, inst) == 0) {
    size_t n = 0;
    if (memcmp(weir_ir_function_name(cx, fn, &n), "main", 4) == 0) {
      /* main's last instruction: every callback kind has run for its flows */
      const probe *p = st(cx);
      ck_assert(p->entries && p->branches[0] && p->branches[1] && p->phis && p->calls_in && p->calls_out && p->returns);
      weir_analysis_report(cx, inst, 1, &st(cx)->flag, 1, "flag at return");
    }
  }
}

static weir_analysis probe_decl(void) {
  weir_analysis d = {.abi_version = WEIR_ANALYSIS_ABI_VERSION, .id = "probe", .kinds = kinds, .kind_count = 3,
                     .rules = rules, .rule_count = 2, .init = init, .fini = fini, .number = number,
                     .entry = entry, .call_library = call_library, .phi = phi, .branch = branch,
                     .call_enter = call_enter, .call_exit = call_exit, .ret = ret, .check = check};
  return d;
}

/* Builds the IR with `decl`, solves it, returns the findings' rules "a,b"
 * and, when `sarif` is not NULL, writes their SARIF there. */
static weir_status run_sarif(const weir_analysis *decl, char *rules_out, size_t size, FILE *sarif) {
  weir_llvm_plugin *plugin = NULL;
  weir_status s = weir_llvm_plugin_from(decl, &plugin);
  if (s != WEIR_OK) return s;
  weir_llvm_problem *lp = NULL;
  s = weir_llvm_build_plugin_memory("probe.ll", ir, sizeof ir - 1, plugin, NULL, &lp);
  weir_llvm_plugin_close(plugin); /* the problem keeps what it needs */
  if (s != WEIR_OK) return s;
  weir_ifds_problem *p = NULL;
  weir_ifds_result result = {0};
  weir_llvm_findings findings = {0};
  ck_assert_int_eq(weir_llvm_problem_load(lp, &p), WEIR_OK);
  ck_assert_int_eq(weir_ifds_solve_reference(p, &result, NULL), WEIR_OK);
  ck_assert_int_eq(weir_llvm_findings_collect(lp, p, &result, &findings), WEIR_OK);
  rules_out[0] = 0;
  for (size_t k = 0; k < findings.count; ++k)
    snprintf(rules_out + strlen(rules_out), size - strlen(rules_out), "%s%s", k ? "," : "", findings.items[k].rule);
  ck_assert_str_eq(weir_llvm_problem_analysis(lp), "probe");
  if (sarif) ck_assert_int_eq(weir_llvm_write_sarif_stream(lp, &findings, sarif), WEIR_OK);
  weir_llvm_findings_free(&findings);
  weir_ifds_result_free(&result);
  weir_ifds_problem_free(p);
  weir_llvm_problem_free(lp);
  return WEIR_OK;
}

static weir_status run(const weir_analysis *decl, char *rules_out, size_t size) {
  return run_sarif(decl, rules_out, size, NULL);
}

/* The SARIF of a run of `decl`, NUL-terminated (the caller frees it). */
static char *sarif_of(const weir_analysis *decl) {
  char *text = NULL, found[256];
  size_t length = 0;
  FILE *out = open_memstream(&text, &length);
  ck_assert_ptr_nonnull(out);
  ck_assert_msg(run_sarif(decl, found, sizeof found, out) == WEIR_OK, "%s", weir_last_error());
  fclose(out);
  return text;
}

/* Whether `s` is well-formed UTF-8 (RFC 3629), checked independently of the
 * writer: by the code point ranges of each lead byte. */
static int valid_utf8(const unsigned char *s) {
  while (*s) {
    unsigned char c = *s;
    size_t n = c < 0x80 ? 0 : c >= 0xc2 && c <= 0xdf ? 1 : c >= 0xe0 && c <= 0xef ? 2 : c >= 0xf0 && c <= 0xf4 ? 3 : 9;
    if (n == 9) return 0;
    unsigned char lo = c == 0xe0 ? 0xa0 : c == 0xf0 ? 0x90 : 0x80, hi = c == 0xed ? 0x9f : c == 0xf4 ? 0x8f : 0xbf;
    for (size_t k = 1; k <= n; ++k, lo = 0x80, hi = 0xbf)
      if (s[k] < lo || s[k] > hi) return 0;
    s += n + 1;
  }
  return 1;
}

static void check_bad_utf8(weir_analysis_ctx *cx, const weir_ir_value *inst) {
  weir_ir_kind kind = weir_ir_kind_of(cx, inst);
  if (kind == WEIR_IR_CALL && callee_is(cx, inst, "source")) weir_analysis_source(cx, inst, "src\xe9");
  if (kind == WEIR_IR_CALL && callee_is(cx, inst, "sink")) {
    weir_fact f = weir_analysis_value_fact(cx, V, weir_ir_call_arg(cx, inst, 0));
    if (f) weir_analysis_report(cx, inst, 0, &f, 1, "bad \xff\xfe, cut \xe2\x82, overlong \xc0\xaf, ok \xc3\xa9");
  }
}

START_TEST(test_sarif_is_utf8_whatever_the_plugin_writes) {
  weir_analysis d = probe_decl();
  d.check = check_bad_utf8;
  char *sarif = sarif_of(&d);
  ck_assert_msg(valid_utf8((const unsigned char *)sarif), "the SARIF is not UTF-8");
  ck_assert_ptr_nonnull(strstr(sarif, "bad \\ufffd\\ufffd, cut \\ufffd\\ufffd, overlong \\ufffd\\ufffd, ok \xc3\xa9"));
  ck_assert_ptr_nonnull(strstr(sarif, "src\\ufffd"));
  free(sarif);
}
END_TEST

START_TEST(test_every_callback_and_a_finding_through_phi_and_callee) {
  weir_analysis d = probe_decl();
  char found[256];
  ck_assert_msg(run(&d, found, sizeof found) == WEIR_OK, "%s", weir_last_error());
  /* sink(%r) from source through the phi and id's return; sink(7) is clean;
   * the custom flag generated at main's entry holds at its return. */
  ck_assert_str_eq(found, "probe-value,probe-flag");
}
END_TEST

static void bad_rule_check(weir_analysis_ctx *cx, const weir_ir_value *inst) {
  if (weir_ir_kind_of(cx, inst) == WEIR_IR_RET) weir_analysis_report(cx, inst, 5, NULL, 0, "no such rule");
}
static void source_outside_check(weir_analysis_ctx *cx, const weir_ir_value *inst, weir_flow *flow) {
  (void)flow;
  weir_analysis_source(cx, inst, "here");
}

START_TEST(test_misuse_fails_the_build_with_a_fix) {
  weir_analysis d = probe_decl();
  d.check = bad_rule_check;
  char found[64];
  ck_assert_int_eq(run(&d, found, sizeof found), WEIR_ERR_INVALID_ARGUMENT);
  ck_assert_ptr_nonnull(strstr(weir_last_error(), "analysis 'probe': weir_analysis_report: rule 5, but 2 rules"));
  ck_assert_ptr_nonnull(strstr(weir_last_error(), "Fix:"));
  d = probe_decl();
  d.other = source_outside_check;
  ck_assert_int_eq(run(&d, found, sizeof found), WEIR_ERR_INVALID_ARGUMENT);
  ck_assert_ptr_nonnull(strstr(weir_last_error(), "weir_analysis_source outside the check callback. Fix:"));
}
END_TEST

/* Argument errors whose status a plugin may ignore still fail the build. */
static int is_sink(weir_analysis_ctx *cx, const weir_ir_value *inst) {
  return weir_ir_kind_of(cx, inst) == WEIR_IR_CALL && callee_is(cx, inst, "sink");
}
static void report_null_message(weir_analysis_ctx *cx, const weir_ir_value *inst) {
  if (is_sink(cx, inst)) weir_analysis_report(cx, inst, 0, NULL, 0, NULL);
}
static void report_null_facts(weir_analysis_ctx *cx, const weir_ir_value *inst) {
  if (is_sink(cx, inst)) weir_analysis_report(cx, inst, 0, NULL, 3, "three facts");
}
static void source_null_name(weir_analysis_ctx *cx, const weir_ir_value *inst) {
  if (is_sink(cx, inst)) weir_analysis_source(cx, inst, NULL);
}
static void new_fact_null(weir_analysis_ctx *cx) { weir_analysis_new_fact(cx, C, NULL, NULL); }
static void flow_null(weir_analysis_ctx *cx, const weir_ir_value *call, weir_flow *flow) {
  (void)flow;
  if (callee_is(cx, call, "source")) weir_flow_gen(NULL, weir_analysis_value_fact(cx, V, call));
}

static void expect_failure(const weir_analysis *d, const char *text) {
  char found[64];
  ck_assert_int_eq(run(d, found, sizeof found), WEIR_ERR_INVALID_ARGUMENT);
  ck_assert_msg(strstr(weir_last_error(), text) && strstr(weir_last_error(), "Fix:"), "%s", weir_last_error());
}

START_TEST(test_argument_errors_fail_the_build) {
  weir_analysis d = probe_decl();
  d.check = report_null_message;
  expect_failure(&d, "analysis 'probe': weir_analysis_report: message is NULL");
  d.check = report_null_facts;
  expect_failure(&d, "weir_analysis_report: facts is NULL with a count");
  d.check = source_null_name;
  expect_failure(&d, "weir_analysis_source: name is NULL");
  d = probe_decl();
  d.number = new_fact_null;
  expect_failure(&d, "weir_analysis_new_fact: name is NULL");
  d = probe_decl();
  d.call_library = flow_null;
  expect_failure(&d, "in the store, load, call_library, ret or other callback: weir_flow_*: flow is NULL");
}
END_TEST

/* A failed init: fini gets NULL, the message names the plugin and status. */
static weir_status init_io(weir_analysis_ctx *cx, void **state) {
  (void)cx;
  *state = &state; /* not NULL: fini must not see it */
  return WEIR_ERR_IO;
}
static weir_status init_reason(weir_analysis_ctx *cx, void **state) {
  (void)cx, (void)state;
  return weir_fail(WEIR_ERR_IO, "probe: cannot read probe.db. Fix: create it");
}
static void fini_null(void *state) { ck_assert_ptr_null(state); }

START_TEST(test_failed_init) {
  weir_analysis d = probe_decl();
  d.init = init_io;
  d.fini = fini_null;
  expect_failure(&d, "analysis 'probe': its init callback failed with WEIR_ERR_IO (7) and gave no reason. Fix:");
  d.init = init_reason;
  expect_failure(&d, "its init callback failed with WEIR_ERR_IO (7): probe: cannot read probe.db. Fix: create it");
}
END_TEST

/* ---- ABI 1.1 ----------------------------------------------------------------
 * The queries and calls the built-in taint needed (analyses/taint/taint.c),
 * on the probe IR: @id(i32 %x) and @main(i32 %c) with 9 instructions. */
static const char library11[] = "source source ret\nsink sink arg0 command\nsink sink arg0+ deep\n";

static void number11(weir_analysis_ctx *cx) {
  /* misuse: a location fact shared with a fact that does not exist */
  ck_assert_int_eq(weir_analysis_share_location_fact(cx, V, 0, 1), WEIR_ERR_INVALID_ARGUMENT);
}

static void check11(weir_analysis_ctx *cx, const weir_ir_value *inst) {
  const weir_ir_function *fn = weir_ir_function_of(cx, inst);
  ck_assert_uint_eq(weir_ir_function_count(cx), 2);
  ck_assert_uint_eq(weir_ir_value_count(cx), 2 + 1 + 9); /* two arguments, @id's ret, main's 9 */
  for (uint32_t k = 0; k < weir_ir_function_count(cx); ++k)
    ck_assert_uint_eq(weir_ir_function_index(cx, weir_ir_function_at(cx, k)), k);
  ck_assert_uint_eq(weir_ir_function_index(cx, NULL), UINT32_MAX);
  ck_assert(!weir_ir_function_is_variadic(cx, fn));
  if (inst == weir_ir_first_instruction(cx, fn)) {
    ck_assert_int_eq(weir_analysis_entry_source(cx, fn, "start"), WEIR_OK);
  }
  check(cx, inst);
  if (weir_ir_kind_of(cx, inst) != WEIR_IR_CALL) return;
  int library = callee_is(cx, inst, "source") || callee_is(cx, inst, "sink");
  ck_assert_int_eq(weir_ir_call_is_library(cx, inst), library);
  weir_library_rule rules11[4];
  size_t n = weir_analysis_library_rules(cx, inst, WEIR_LIBRARY_SINK, rules11, 4);
  ck_assert_uint_eq(n, callee_is(cx, inst, "sink") ? 2 : 0);
  if (n == 2) {
    ck_assert_uint_eq(rules11[0].category, WEIR_LIBRARY_COMMAND);
    ck_assert(rules11[0].arg == 0 && !rules11[0].arg_and_after && !rules11[0].deep);
    ck_assert_uint_eq(rules11[1].category, WEIR_LIBRARY_PLAIN);
    ck_assert(rules11[1].arg == 0 && rules11[1].arg_and_after && rules11[1].deep);
  }
  ck_assert_uint_eq(weir_analysis_library_rules(cx, inst, WEIR_LIBRARY_SOURCE, rules11, 1),
                    callee_is(cx, inst, "source"));
  if (callee_is(cx, inst, "source")) ck_assert_uint_eq(rules11[0].arg, WEIR_LIBRARY_RET);
  weir_mem_call_info info;
  weir_mem_library_call(cx, inst, &info);
  ck_assert_uint_eq(info.alloc, WEIR_MEM_ALLOC_NONE);
  ck_assert_uint_eq(info.frees, UINT32_MAX);
  const weir_mem_location *mod = NULL;
  ck_assert_uint_eq(weir_mem_call_mod(cx, inst, &mod), 0); /* @id writes nothing */
}

START_TEST(test_abi_1_1_queries_and_entry_sources) {
  weir_fact_kind k[3] = {kinds[0], kinds[1], kinds[2]};
  k[V].flags = WEIR_FACT_LIVENESS; /* the flows below are FOLLOW's: none, so no finding of probe-value */
  weir_analysis d = probe_decl();
  d.kinds = k;
  d.check = check11;
  d.number = number11;
  d.library_rules = library11;
  char found[256];
  ck_assert_msg(run(&d, found, sizeof found) == WEIR_ERR_INVALID_ARGUMENT, "%s", weir_last_error());
  ck_assert_msg(strstr(weir_last_error(), "weir_analysis_share_location_fact(kind 0)"), "%s", weir_last_error());
  d.number = number; /* without the misuse: it runs, and the start of main is a source */
  ck_assert_msg(run(&d, found, sizeof found) == WEIR_OK, "%s", weir_last_error());
  ck_assert_str_eq(found, "probe-flag");
  k[R].flags = WEIR_FACT_LIVENESS;
  expect_failure(&d, "0x4 is not for a kind of WEIR_FACT_PER_RETURN");
}
END_TEST

/* weir_analysis_location_facts: the table weir_analysis_location_fact reads. */
static void check_location_table(weir_analysis_ctx *cx, const weir_ir_value *inst) {
  uint32_t n = 0;
  const weir_fact *table = weir_analysis_location_facts(cx, 3, &n);
  ck_assert_uint_eq(n, weir_mem_location_count(cx));
  for (uint32_t l = 0; l < n; ++l) ck_assert_uint_eq(table[l], weir_analysis_location_fact(cx, 3, l));
  check(cx, inst);
}
static void check_location_table_misuse(weir_analysis_ctx *cx, const weir_ir_value *inst) {
  (void)inst;
  uint32_t n = 7;
  ck_assert_ptr_null(weir_analysis_location_facts(cx, V, &n));
  ck_assert_uint_eq(n, 0);
}

START_TEST(test_abi_1_1_location_facts_table) {
  weir_fact_kind k[4] = {kinds[0], kinds[1], kinds[2],
                         {"probe memory", WEIR_FACT_PER_LOCATION, 0, WEIR_ANALYSIS_NO_KIND}};
  weir_analysis d = probe_decl();
  d.kinds = k;
  d.kind_count = 4;
  d.check = check_location_table;
  char found[256];
  ck_assert_msg(run(&d, found, sizeof found) == WEIR_OK, "%s", weir_last_error());
  ck_assert_str_eq(found, "probe-value,probe-flag");
  d.check = check_location_table_misuse;
  expect_failure(&d, "weir_analysis_location_facts(kind 0)");
}
END_TEST

static void entry_source_outside_check(weir_analysis_ctx *cx, const weir_ir_function *fn, weir_flow *flow) {
  (void)flow;
  weir_analysis_entry_source(cx, fn, "start");
}

START_TEST(test_abi_1_1_misuse_fails_the_build) {
  weir_analysis d = probe_decl();
  d.entry = entry_source_outside_check;
  d.check = check_bad_utf8; /* one that does not count the entry callbacks */
  expect_failure(&d, "weir_analysis_entry_source('start') outside the check callback. Fix:");
}
END_TEST

static void expect_refused(const weir_analysis *d, const char *text) {
  weir_llvm_plugin *p = NULL;
  ck_assert_int_eq(weir_llvm_plugin_from(d, &p), WEIR_ERR_INVALID_ARGUMENT);
  ck_assert_ptr_null(p);
  ck_assert_msg(strstr(weir_last_error(), text) && strstr(weir_last_error(), "Fix:"), "%s", weir_last_error());
}

START_TEST(test_rule_metadata_and_flags_are_checked) {
  static const char *const bad_cwe[] = {"CWE-532", "not-a-cwe", "", "0532", "12345678", "53 2"};
  static const char *const bad_score[] = {"99.5", "10.1", "abc", "-1", "5.", ".5", "1.2.3", "5.5\"", ""};
  static const char *const good_score[] = {"0", "5.5", "10.0", "10"};
  weir_analysis_rule r[2] = {rules[0], rules[1]};
  weir_analysis d = probe_decl();
  d.rules = r;
  for (size_t k = 0; k < sizeof bad_cwe / sizeof *bad_cwe; ++k) {
    r[0].cwe = bad_cwe[k];
    expect_refused(&d, "rule 'probe-value' has cwe");
  }
  r[0].cwe = "532";
  for (size_t k = 0; k < sizeof bad_score / sizeof *bad_score; ++k) {
    r[0].security_severity = bad_score[k];
    expect_refused(&d, "not a number from 0.0 to 10.0");
  }
  for (size_t k = 0; k < sizeof good_score / sizeof *good_score; ++k) {
    weir_llvm_plugin *p = NULL;
    r[0].security_severity = good_score[k];
    ck_assert_msg(weir_llvm_plugin_from(&d, &p) == WEIR_OK, "%s", weir_last_error());
    weir_llvm_plugin_close(p);
  }
  weir_fact_kind k[3] = {kinds[0], kinds[1], kinds[2]};
  d = probe_decl();
  d.kinds = k;
  k[V].flags = WEIR_FACT_FOLLOW | 1u << 7;
  expect_refused(&d, "fact kind 0 ('probe value') has flags 0x81: 0x80 is no WEIR_FACT_* flag");
  k[V].flags = WEIR_FACT_FOLLOW | WEIR_FACT_WRITABLE_ONLY;
  expect_refused(&d, "0x2 is not for a kind of WEIR_FACT_PER_VALUE");
  k[V].flags = WEIR_FACT_FOLLOW;
  k[R].flags = WEIR_FACT_FOLLOW;
  expect_refused(&d, "fact kind 1 ('probe return') has flags 0x1: 0x1 is not for a kind of WEIR_FACT_PER_RETURN");
}
END_TEST

START_TEST(test_declarations_are_checked) {
  weir_llvm_plugin *p = NULL;
  weir_analysis d = probe_decl();
  d.check = NULL;
  ck_assert_int_eq(weir_llvm_plugin_from(&d, &p), WEIR_ERR_INVALID_ARGUMENT);
  ck_assert_ptr_nonnull(strstr(weir_last_error(), "the check callback is missing. Fix:"));
  ck_assert_ptr_null(p);
  weir_fact_kind bad_link[3] = {kinds[0], kinds[1], kinds[2]};
  bad_link[V].link = C;
  d = probe_decl();
  d.kinds = bad_link;
  ck_assert_int_eq(weir_llvm_plugin_from(&d, &p), WEIR_ERR_INVALID_ARGUMENT);
  ck_assert_ptr_nonnull(strstr(weir_last_error(), "links kind 2, which is not a WEIR_FACT_PER_RETURN kind"));
  d = probe_decl();
  d.library_rules = "sink puts argX\n";
  ck_assert_int_eq(weir_llvm_plugin_from(&d, &p), WEIR_ERR_PARSE);
  ck_assert_ptr_nonnull(strstr(weir_last_error(), "<library_rules of analysis 'probe'>:1"));
  d = probe_decl();
  d.id = "my analysis";
  ck_assert_int_eq(weir_llvm_plugin_from(&d, &p), WEIR_ERR_INVALID_ARGUMENT);
  ck_assert_ptr_nonnull(strstr(weir_last_error(), "has character 0x20 at 2"));
  ck_assert_int_eq(weir_llvm_plugin_from(NULL, &p), WEIR_ERR_INVALID_ARGUMENT);
}
END_TEST

int main(void) {
  Suite *suite = suite_create("analysis_api");
  TCase *tc = tcase_create("adapter");
  tcase_add_test(tc, test_every_callback_and_a_finding_through_phi_and_callee);
  tcase_add_test(tc, test_misuse_fails_the_build_with_a_fix);
  tcase_add_test(tc, test_declarations_are_checked);
  tcase_add_test(tc, test_sarif_is_utf8_whatever_the_plugin_writes);
  tcase_add_test(tc, test_argument_errors_fail_the_build);
  tcase_add_test(tc, test_failed_init);
  tcase_add_test(tc, test_rule_metadata_and_flags_are_checked);
  tcase_add_test(tc, test_abi_1_1_queries_and_entry_sources);
  tcase_add_test(tc, test_abi_1_1_misuse_fails_the_build);
  tcase_add_test(tc, test_abi_1_1_location_facts_table);
  suite_add_tcase(suite, tc);
  return weir_check_run(srunner_create(suite));
}
