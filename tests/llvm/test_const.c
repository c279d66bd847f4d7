/* `weir analyze const` (frontends/llvm/analyses/const): the edge functions
 * it builds from instructions, the values it finds in the const_* programs
 * (EXPECT-VALUE markers, at -O0 and -O2), and --prune-with-const removing
 * a finding on a path that cannot run while keeping the real one. */
#include <check.h>
#include <llvm-c/Core.h>
#include <llvm-c/IRReader.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontends/llvm/analyses/const/const.h"
#include "tests/check_run.h"
#include "tests/llvm/test_llvm.h"

#define WT_PROGRAMS_MAX 256

/* ---- edge functions from instructions ---------------------------------- */

static const char *const arith_ir =
    "define i32 @f(i32 %x, i64 %y, i8 %c) {\n"
    "  %a = add nsw i32 %x, 5\n"
    "  %b = sub nsw i32 %x, 3\n"
    "  %c2 = sub nsw i32 10, %x\n"
    "  %d = mul nsw i32 %x, 4\n"
    "  %e = shl nsw i32 %x, 2\n"
    "  %w = add i32 %x, 1\n"
    "  %g = add i64 %y, 7\n"
    "  %h = udiv i32 %x, 2\n"
    "  %i = mul nsw i32 3, %x\n"
    "  %t = trunc i32 %x to i8\n"
    "  %z = zext i8 %t to i32\n"
    "  %s = sext i8 %t to i32\n"
    "  ret i32 %a\n"
    "}\n";

static LLVMModuleRef parse(LLVMContextRef context, const char *ir) {
  LLVMMemoryBufferRef buffer = LLVMCreateMemoryBufferWithMemoryRangeCopy(ir, strlen(ir), "test.ll");
  LLVMModuleRef module = NULL;
  char *message = NULL;
  ck_assert_msg(LLVMParseIRInContext(context, buffer, &module, &message) == 0, "%s", message ? message : "");
  return module;
}

static LLVMValueRef named(LLVMModuleRef module, const char *name) {
  LLVMValueRef f = LLVMGetNamedFunction(module, "f");
  for (LLVMValueRef i = LLVMGetFirstInstruction(LLVMGetEntryBasicBlock(f)); i; i = LLVMGetNextInstruction(i)) {
    size_t length = 0;
    const char *n = LLVMGetValueName2(i, &length);
    if (length == strlen(name) && memcmp(n, name, length) == 0) return i;
  }
  ck_abort_msg("no instruction %%%s", name);
  return NULL;
}

static void expect_affine(LLVMModuleRef m, const char *name, int64_t a, int64_t b) {
  LLVMValueRef operand = NULL;
  int64_t fa = 0, fb = 0;
  ck_assert_msg(weir_llvm_const_affine(named(m, name), &operand, &fa, &fb), "%%%s: not affine", name);
  ck_assert_msg(fa == a && fb == b, "%%%s: %lld*x+%lld, expected %lld*x+%lld", name, (long long)fa, (long long)fb,
                (long long)a, (long long)b);
  ck_assert_ptr_eq(operand, LLVMGetParam(LLVMGetNamedFunction(m, "f"), 0));
}

START_TEST(test_affine_edge_functions) {
  LLVMContextRef context = LLVMContextCreate();
  LLVMModuleRef m = parse(context, arith_ir);
  expect_affine(m, "a", 1, 5);
  expect_affine(m, "b", 1, -3);
  expect_affine(m, "c2", -1, 10);
  expect_affine(m, "d", 4, 0);
  expect_affine(m, "e", 4, 0);
  expect_affine(m, "i", 3, 0);
  LLVMValueRef operand = NULL;
  int64_t a = 0, b = 0;
  /* without nsw an i32 add may wrap at 32 bits: not the family's arithmetic */
  ck_assert(!weir_llvm_const_affine(named(m, "w"), &operand, &a, &b));
  ck_assert(!weir_llvm_const_affine(named(m, "h"), &operand, &a, &b));
  ck_assert(weir_llvm_const_affine(named(m, "g"), &operand, &a, &b)); /* 64 bits wrap like the family */
  ck_assert(a == 1 && b == 7);
  /* casts, evaluated exactly at a use: 300 through trunc to i8 is 44; -1 as i8 zero-extends to 255 */
  int64_t out = 0;
  LLVMValueRef x = LLVMGetParam(LLVMGetNamedFunction(m, "f"), 0);
  ck_assert(weir_llvm_const_through_casts(named(m, "t"), x, 300, &out) && out == 44);
  ck_assert(weir_llvm_const_through_casts(named(m, "z"), x, 255, &out) && out == 255);
  ck_assert(weir_llvm_const_through_casts(named(m, "s"), x, 255, &out) && out == -1);
  ck_assert_ptr_eq(weir_llvm_const_strip_casts(named(m, "s")), x);
  ck_assert(!weir_llvm_const_through_casts(named(m, "a"), x, 1, &out)); /* an add is no cast */
  LLVMDisposeModule(m);
  LLVMContextDispose(context);
}
END_TEST

START_TEST(test_normalize) {
  ck_assert_int_eq(weir_llvm_const_normalize(300, 8), 44);
  ck_assert_int_eq(weir_llvm_const_normalize(255, 8), -1);
  ck_assert_int_eq(weir_llvm_const_normalize(-1, 1), 1);
  ck_assert_int_eq(weir_llvm_const_normalize(2, 1), 0);
  ck_assert_int_eq(weir_llvm_const_normalize((int64_t)0x80000000ll, 32), INT32_MIN);
  ck_assert_int_eq(weir_llvm_const_normalize(INT64_MIN, 64), INT64_MIN);
}
END_TEST

/* ---- the const_* programs ---------------------------------------------- */

/* EXPECT-VALUE[-O0|-O2] NAME=VALUE: a use of the integer NAME (as debug
 * info names it; empty for an expression) on this line is that constant.
 * EXPECT-VARIES[-O0|-O2] NAME: no use of NAME on this line is reported
 * constant. Every constant use of the program must have its marker. */
typedef struct value_marker {
  char file[WT_NAME];
  unsigned line;
  char name[64];
  long long value;
  int varies, seen;
} value_marker;

static size_t read_markers(const wt_program *p, int level, value_marker *out, size_t capacity) {
  size_t count = 0;
  char path[1200];
  snprintf(path, sizeof path, "%s/%s", WEIR_TEST_PROGRAMS, p->files[0]);
  FILE *f = fopen(path, "r");
  ck_assert_msg(f != NULL, "cannot read %s", path);
  char line[1024];
  for (unsigned number = 1; fgets(line, sizeof line, f); ++number)
    for (const char *m = strstr(line, "EXPECT-V"); m && count < capacity; m = strstr(m + 8, "EXPECT-V")) {
      int varies = strncmp(m, "EXPECT-VARIES", 13) == 0;
      if (!varies && strncmp(m, "EXPECT-VALUE", 12) != 0) continue;
      const char *rest = m + (varies ? 13 : 12);
      if ((strncmp(rest, "-O0", 3) == 0 && level != 0) || (strncmp(rest, "-O2", 3) == 0 && level != 2)) continue;
      if (*rest == '-') rest += 3;
      value_marker *v = &out[count];
      memset(v, 0, sizeof *v);
      snprintf(v->file, sizeof v->file, "%s", p->files[0]);
      v->line = number;
      v->varies = varies;
      int ok = varies ? sscanf(rest, " %63[^ =*]", v->name) == 1
                      : (sscanf(rest, " %63[^ =]=%lld", v->name, &v->value) == 2 || sscanf(rest, " =%lld", &v->value) == 1);
      ck_assert_msg(ok, "%s:%u: a bad marker (EXPECT-VALUE NAME=N or EXPECT-VARIES NAME)", path, number);
      count++;
    }
  fclose(f);
  return count;
}

static const char *base(const char *path) {
  const char *slash = strrchr(path, '/');
  return slash ? slash + 1 : path;
}

static size_t compare_values(const char *what, const weir_llvm_const_values *values, value_marker *m, size_t n) {
  size_t wrong = 0;
  for (size_t k = 0; k < values->count; ++k) {
    const weir_llvm_const_use *u = &values->uses[k];
    if (u->kind != WEIR_LLVM_CONST_VALUE) continue;
    int matched = 0;
    for (size_t j = 0; j < n; ++j) {
      if (m[j].line != u->line || strcmp(m[j].file, base(u->file)) != 0 || strcmp(m[j].name, u->name) != 0) continue;
      if (m[j].varies) continue; /* counted below */
      matched |= m[j].value == u->value;
      m[j].seen |= m[j].value == u->value;
    }
    for (size_t j = 0; j < n; ++j)
      if (m[j].varies && m[j].line == u->line && strcmp(m[j].name, u->name) == 0) matched = 0;
    if (!matched) {
      printf("  %s: unexpected constant %s:%u '%s' = %lld (%s)\n", what, base(u->file), u->line, u->name,
             (long long)u->value, u->use);
      ++wrong;
    }
  }
  for (size_t j = 0; j < n; ++j)
    if (!m[j].varies && !m[j].seen) {
      printf("  %s: missing %s:%u '%s' = %lld\n", what, m[j].file, m[j].line, m[j].name, m[j].value);
      ++wrong;
    }
  return wrong;
}

static size_t check_const_program(const wt_program *p) {
  char paths[2][WT_MAX_FILES][1024];
  ck_assert_msg(wt_compile(p, 1, paths) == 0, "%s: clang-14 failed", p->name);
  size_t wrong = 0;
  for (int l = 0; l < 2; ++l) {
    weir_llvm_problem *lp = NULL;
    ck_assert_msg(wt_build(p, paths[l], NULL, &lp) == WEIR_OK, "%s: %s", p->name, weir_last_error());
    weir_llvm_const_values values;
    weir_ifds_result result;
    ck_assert_msg(weir_llvm_const_solve(lp, NULL, &values, &result) == WEIR_OK, "%s: %s", p->name, weir_last_error());
    ck_assert_uint_eq(result.hold_count, 0); /* const has no findings */
    value_marker markers[64];
    size_t n = read_markers(p, l ? 2 : 0, markers, 64);
    char what[160];
    snprintf(what, sizeof what, "%s -O%d", p->name, l ? 2 : 0);
    size_t w = compare_values(what, &values, markers, n);
    printf("  %s: %zu uses, %zu constant%s\n", what, values.count, values.constant, w ? "" : ": as marked");
    wrong += w;
    weir_llvm_const_values_free(&values);
    weir_ifds_result_free(&result);
    weir_llvm_problem_free(lp);
  }
  return wrong;
}

START_TEST(test_const_programs) {
  wt_program *all = calloc(WT_PROGRAMS_MAX, sizeof *all);
  ck_assert_ptr_nonnull(all);
  size_t n = wt_programs(all, WT_PROGRAMS_MAX), programs = 0, wrong = 0;
  for (size_t k = 0; k < n; ++k) {
    if (all[k].analysis != WEIR_LLVM_CONST) continue;
    ++programs;
    wrong += check_const_program(&all[k]);
  }
  free(all);
  fflush(stdout);
  ck_assert_uint_ge(programs, 3);
  ck_assert_msg(wrong == 0, "%zu value(s) differ from the EXPECT-VALUE markers (listed above)", wrong);
}
END_TEST

/* ---- --prune-with-const -------------------------------------------------- */

/* The findings of program `name` at `level`, with or without pruning; the
 * number on lines marked KNOWN-FP (the dead path) and on EXPECT lines. */
static void findings_of(const char *name, int level, int prune, size_t *dead, size_t *real, uint32_t *pruned) {
  wt_program p;
  ck_assert(wt_program_find(name, &p));
  char paths[2][WT_MAX_FILES][1024];
  ck_assert(wt_compile(&p, 1, paths) == 0);
  weir_llvm_config *config = NULL;
  ck_assert_int_eq(weir_llvm_config_new(&config), WEIR_OK);
  weir_llvm_config_prune_with_const(config, prune);
  weir_llvm_problem *lp = NULL;
  ck_assert_msg(weir_llvm_build(paths[level ? 1 : 0][0], p.analysis, config, &lp) == WEIR_OK, "%s", weir_last_error());
  weir_llvm_config_free(config);
  wt_run run;
  ck_assert_int_eq(wt_solve(lp, NULL, &run), WEIR_OK);
  wt_expect expect[16];
  size_t count = wt_expectations(&p, level, expect, 16);
  *dead = *real = 0;
  for (size_t k = 0; k < run.findings.count; ++k)
    for (size_t e = 0; e < count; ++e)
      if (expect[e].line == run.findings.items[k].where.line) {
        *dead += expect[e].known == 1;
        *real += expect[e].known == 0;
      }
  *pruned = weir_llvm_problem_stats(lp)->const_pruned_branches;
  wt_run_free(&run);
  weir_llvm_problem_free(lp);
}

START_TEST(test_prune_removes_dead_path_findings) {
  static const char *const programs[] = {"uninit_const_dead_branch", "uaf_const_dead_branch"};
  for (size_t k = 0; k < 2; ++k)
    for (int level = 0; level <= 2; level += 2) {
      size_t dead = 0, real = 0, dead_pruned = 0, real_pruned = 0;
      uint32_t none = 0, pruned = 0;
      findings_of(programs[k], level, 0, &dead, &real, &none);
      findings_of(programs[k], level, 1, &dead_pruned, &real_pruned, &pruned);
      ck_assert_msg(dead > 0, "%s -O%d: no finding on the dead path without pruning", programs[k], level);
      ck_assert_msg(dead_pruned == 0, "%s -O%d: %zu finding(s) left on the dead path", programs[k], level, dead_pruned);
      ck_assert_msg(real > 0 && real_pruned == real, "%s -O%d: the real finding is lost (%zu -> %zu)", programs[k],
                    level, real, real_pruned);
      ck_assert_uint_eq(none, 0);
      ck_assert_uint_ge(pruned, 1);
    }
}
END_TEST

static Suite *const_suite(void) {
  Suite *s = suite_create("llvm const");
  TCase *tc = tcase_create("const");
  tcase_set_timeout(tc, 300);
  tcase_add_test(tc, test_affine_edge_functions);
  tcase_add_test(tc, test_normalize);
  tcase_add_test(tc, test_const_programs);
  tcase_add_test(tc, test_prune_removes_dead_path_findings);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  SRunner *runner = srunner_create(const_suite());
  return weir_check_run(runner);
}
