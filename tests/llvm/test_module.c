/* Tests of reading, linking and preparing modules (frontends/llvm/module/):
 * small C files written and compiled with clang-14 at test time (-O0 and
 * -O2), read with weir_llvm_module_read, prepared, and inspected through
 * the LLVM-C API. Every prepared module must pass LLVM's verifier. */
#include <check.h>
#include <llvm-c/Analysis.h>
#include <llvm-c/Core.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include "frontends/llvm/frontend.h"
#include "frontends/llvm/module/module.h"
#include "tests/check_run.h"

/* ---- helpers ------------------------------------------------------------------ */

/* Writes WORK/NAME.c and compiles it at -O<opt> to WORK/NAME.O<opt>.bc (into bc). */
static void compile(const char *name, const char *source, int opt, char *bc, size_t capacity) {
  char c[1024], command[4096];
  mkdir(WEIR_TEST_WORK, 0755);
  snprintf(c, sizeof c, "%s/%s.c", WEIR_TEST_WORK, name);
  FILE *f = fopen(c, "w");
  ck_assert_ptr_nonnull(f);
  fputs(source, f);
  fclose(f);
  snprintf(bc, capacity, "%s/%s.O%d.bc", WEIR_TEST_WORK, name, opt);
  snprintf(command, sizeof command, "'%s' -g -O%d -emit-llvm -c '%s' -o '%s'", WEIR_TEST_CLANG, opt, c, bc);
  ck_assert_msg(system(command) == 0, "clang-14 failed: %s", command);
}

typedef struct prepared {
  LLVMContextRef context;
  LLVMModuleRef module;
  weir_llvm_prepare_stats stats;
} prepared;

static void verified(LLVMModuleRef module) {
  char *message = NULL;
  LLVMBool broken = LLVMVerifyModule(module, LLVMReturnStatusAction, &message);
  ck_assert_msg(!broken, "the module does not verify: %s", message);
  LLVMDisposeMessage(message);
}

/* Reads and links paths, then prepares the module (and checks it verifies). */
static void read_prepared(const char *const *paths, size_t count, prepared *out) {
  memset(out, 0, sizeof *out);
  out->context = LLVMContextCreate();
  ck_assert_msg(weir_llvm_module_read(out->context, paths, count, &out->module) == WEIR_OK, "%s",
                weir_last_error());
  out->stats.modules = (uint32_t)count;
  ck_assert_msg(weir_llvm_module_prepare(out->module, &out->stats) == WEIR_OK, "%s", weir_last_error());
  ck_assert_uint_eq(out->stats.modules, count);
  verified(out->module);
}

static void prepared_free(prepared *p) {
  LLVMDisposeModule(p->module);
  LLVMContextDispose(p->context);
}

/* IR text read and prepared (mem2reg, folding, threading), then verified. */
static LLVMModuleRef prepare_text(LLVMContextRef context, const char *name, const char *ir, size_t length,
                                  weir_llvm_prepare_stats *stats) {
  LLVMModuleRef m = NULL;
  ck_assert_int_eq(weir_llvm_module_read_memory(context, name, ir, length, &m), WEIR_OK);
  ck_assert_msg(weir_llvm_module_prepare(m, stats) == WEIR_OK, "%s", weir_last_error());
  verified(m);
  return m;
}

static LLVMValueRef function(LLVMModuleRef module, const char *name) {
  LLVMValueRef fn = LLVMGetNamedFunction(module, name);
  ck_assert_msg(fn != NULL, "no function %s", name);
  return fn;
}

/* Conditional branches and switches in fn. */
static int conditional_branches(LLVMValueRef fn) {
  int count = 0;
  for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(fn); b; b = LLVMGetNextBasicBlock(b)) {
    LLVMValueRef t = LLVMGetBasicBlockTerminator(b);
    if (LLVMGetInstructionOpcode(t) == LLVMSwitch || (LLVMGetInstructionOpcode(t) == LLVMBr && LLVMIsConditional(t)))
      count++;
  }
  return count;
}

/* Direct calls of `callee` in fn; with `arg` >= 0 only those whose first
 * argument is that integer constant. */
static int calls(LLVMValueRef fn, const char *callee, long long arg) {
  int count = 0;
  for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(fn); b; b = LLVMGetNextBasicBlock(b))
    for (LLVMValueRef i = LLVMGetFirstInstruction(b); i; i = LLVMGetNextInstruction(i)) {
      if (!LLVMIsACallInst(i)) continue;
      LLVMValueRef target = LLVMGetCalledValue(i);
      size_t length = 0;
      const char *name = LLVMIsAFunction(target) ? LLVMGetValueName2(target, &length) : "";
      if (strlen(callee) != length || strncmp(name, callee, length) != 0) continue;
      if (arg >= 0) {
        LLVMValueRef a = LLVMGetOperand(i, 0);
        if (!LLVMIsAConstantInt(a) || LLVMConstIntGetSExtValue(a) != arg) continue;
      }
      count++;
    }
  return count;
}

static int has_optnone(LLVMModuleRef module) {
  unsigned kind = LLVMGetEnumAttributeKindForName("optnone", 7);
  for (LLVMValueRef fn = LLVMGetFirstFunction(module); fn; fn = LLVMGetNextFunction(fn))
    if (LLVMGetEnumAttributeAtIndex(fn, LLVMAttributeFunctionIndex, kind)) return 1;
  return 0;
}

static const char sink_decl[] = "void sink(int);\n";

/* ---- linking -------------------------------------------------------------------- */

START_TEST(test_two_files_link) {
  char a[1024], b[1024];
  compile("link_a", "int helper(int);\nint main(void) { return helper(41); }\n", 0, a, sizeof a);
  compile("link_b", "int helper(int x) { return x + 1; }\n", 0, b, sizeof b);
  const char *paths[] = {a, b};
  prepared p;
  read_prepared(paths, 2, &p);
  /* The declaration in a.c resolved to b.c's definition. */
  LLVMValueRef helper = function(p.module, "helper");
  ck_assert_uint_gt(LLVMCountBasicBlocks(helper), 0);
  ck_assert_int_eq(calls(function(p.module, "main"), "helper", 41), 1);
  prepared_free(&p);
}
END_TEST

START_TEST(test_duplicate_definition) {
  char a[1024], b[1024], c[1024];
  compile("dup_a", "int helper(int);\nint main(void) { return helper(1); }\n", 0, a, sizeof a);
  compile("dup_b", "int helper(int x) { return x + 1; }\n", 0, b, sizeof b);
  compile("dup_c", "int helper(int x) { return x + 2; }\n", 0, c, sizeof c);
  const char *paths[] = {a, b, c};
  LLVMContextRef context = LLVMContextCreate();
  LLVMModuleRef m = NULL;
  ck_assert_int_eq(weir_llvm_module_read(context, paths, 3, &m), WEIR_ERR_PARSE);
  ck_assert_ptr_null(m);
  const char *e = weir_last_error();
  ck_assert_msg(strstr(e, "'helper'") && strstr(e, b) && strstr(e, c) && strstr(e, "Fix:"), "%s", e);
  LLVMContextDispose(context);
}
END_TEST

START_TEST(test_bad_files) {
  char a[1024], junk[1024];
  compile("bad_a", "int main(void) { return 0; }\n", 0, a, sizeof a);
  snprintf(junk, sizeof junk, "%s/junk.bc", WEIR_TEST_WORK);
  FILE *f = fopen(junk, "w");
  fputs("this is not LLVM IR\n", f);
  fclose(f);
  LLVMContextRef context = LLVMContextCreate();
  LLVMModuleRef m = NULL;
  const char *paths[] = {a, junk};
  ck_assert_int_eq(weir_llvm_module_read(context, paths, 2, &m), WEIR_ERR_PARSE);
  ck_assert_msg(strstr(weir_last_error(), junk) && strstr(weir_last_error(), "Fix:"), "%s", weir_last_error());
  const char *missing[] = {a, "/nonexistent/x.bc"};
  ck_assert_int_eq(weir_llvm_module_read(context, missing, 2, &m), WEIR_ERR_IO);
  ck_assert_ptr_nonnull(strstr(weir_last_error(), "/nonexistent/x.bc"));
  ck_assert_int_eq(weir_llvm_module_read(context, paths, 0, &m), WEIR_ERR_INVALID_ARGUMENT);
  ck_assert_int_eq(weir_llvm_module_read_memory(context, "junk.ll", "junk", 4, &m), WEIR_ERR_PARSE);
  ck_assert_ptr_nonnull(strstr(weir_last_error(), "junk.ll"));
  LLVMContextDispose(context);
}
END_TEST

/* ---- prepare ----------------------------------------------------------------------- */

START_TEST(test_optnone_stripped) {
  char a[1024];
  compile("optnone", "int f(int x) { return x * 3; }\nint main(void) { return f(2); }\n", 0, a, sizeof a);
  LLVMContextRef context = LLVMContextCreate();
  LLVMModuleRef m = NULL;
  const char *paths[] = {a};
  ck_assert_int_eq(weir_llvm_module_read(context, paths, 1, &m), WEIR_OK);
  ck_assert(has_optnone(m)); /* clang -O0 puts it there */
  weir_llvm_prepare_stats stats = {0};
  ck_assert_int_eq(weir_llvm_module_prepare(m, &stats), WEIR_OK);
  ck_assert(!has_optnone(m));
  ck_assert_uint_eq(stats.optnone_stripped, 2);
  ck_assert_uint_gt(stats.promoted, 0);
  verified(m);
  LLVMDisposeModule(m);
  LLVMContextDispose(context);
}
END_TEST

/* `static int flag = 0; if (flag)` folds at -O0 and -O2 (_i). */
START_TEST(test_static_flag_folds) {
  int opt = _i ? 2 : 0;
  char a[1024], src[512];
  snprintf(src, sizeof src,
           "%sstatic int flag = 0;\nstatic int staticTrue = 1;\n"
           "int main(void) {\n  if (flag) { sink(1); }\n  if (staticTrue) sink(2); else sink(3);\n  return 0;\n}\n",
           sink_decl);
  compile("static_flag", src, opt, a, sizeof a);
  const char *paths[] = {a};
  prepared p;
  read_prepared(paths, 1, &p);
  LLVMValueRef main_fn = function(p.module, "main");
  ck_assert_int_eq(conditional_branches(main_fn), 0);
  ck_assert_int_eq(calls(main_fn, "sink", 1), 0);
  ck_assert_int_eq(calls(main_fn, "sink", 2), 1);
  ck_assert_int_eq(calls(main_fn, "sink", 3), 0);
  if (opt == 0) { /* at -O2 clang folded it already */
    ck_assert_uint_ge(p.stats.folded_branches, 2);
    ck_assert_uint_ge(p.stats.constant_globals, 2);
    ck_assert_uint_ge(p.stats.removed_blocks, 2);
  }
  prepared_free(&p);
}
END_TEST

/* Juliet's `extern const int GLOBAL_CONST_TRUE;`, defined in the second file. */
START_TEST(test_extern_const_folds) {
  int opt = _i ? 2 : 0;
  char a[1024], b[1024], src[512];
  snprintf(src, sizeof src,
           "%sextern const int GLOBAL_CONST_TRUE;\nextern int globalFive;\n"
           "int main(void) {\n  if (GLOBAL_CONST_TRUE) sink(1); else sink(2);\n"
           "  if (globalFive == 5) sink(5); else sink(6);\n  return 0;\n}\n",
           sink_decl);
  compile("extern_const_a", src, opt, a, sizeof a);
  compile("extern_const_b", "const int GLOBAL_CONST_TRUE = 1;\nint globalFive = 5;\n", opt, b, sizeof b);
  const char *paths[] = {a, b};
  prepared p;
  read_prepared(paths, 2, &p);
  LLVMValueRef main_fn = function(p.module, "main");
  ck_assert_int_eq(conditional_branches(main_fn), 0);
  ck_assert_int_eq(calls(main_fn, "sink", 1), 1);
  ck_assert_int_eq(calls(main_fn, "sink", 2), 0);
  ck_assert_int_eq(calls(main_fn, "sink", 5), 1);
  ck_assert_int_eq(calls(main_fn, "sink", 6), 0);
  /* -O2 may have made them selects: then no branch folds, the selects do. */
  if (opt == 0) ck_assert_uint_ge(p.stats.folded_branches, 2);
  ck_assert_uint_ge(p.stats.constant_globals, 2);
  prepared_free(&p);
}
END_TEST

/* `int returnsTrue(void) { return 1; }` in another file. */
START_TEST(test_constant_function_folds) {
  int opt = _i ? 2 : 0;
  char a[1024], b[1024], src[512];
  snprintf(src, sizeof src,
           "%sint returnsTrue(void);\nint returnsFalse(void);\n"
           "int main(void) {\n  if (returnsTrue()) sink(1); else sink(2);\n"
           "  if (returnsFalse()) sink(3);\n  return 0;\n}\n",
           sink_decl);
  compile("const_fn_a", src, opt, a, sizeof a);
  compile("const_fn_b",
          "static int staticFive = 5;\nint returnsTrue(void) { return 1; }\n"
          "int returnsFalse(void) { if (staticFive == 5) return 0; return 1; }\n",
          opt, b, sizeof b);
  const char *paths[] = {a, b};
  prepared p;
  read_prepared(paths, 2, &p);
  LLVMValueRef main_fn = function(p.module, "main");
  ck_assert_int_eq(conditional_branches(main_fn), 0);
  ck_assert_int_eq(calls(main_fn, "sink", 1), 1);
  ck_assert_int_eq(calls(main_fn, "sink", 2), 0);
  ck_assert_int_eq(calls(main_fn, "sink", 3), 0);
  /* The calls stay: they may have side effects. */
  ck_assert_int_eq(calls(main_fn, "returnsTrue", -1), 1);
  ck_assert_int_eq(calls(main_fn, "returnsFalse", -1), 1);
  ck_assert_uint_ge(p.stats.constant_functions, 2);
  prepared_free(&p);
}
END_TEST

/* A global written anywhere (here in another file) does not fold. */
START_TEST(test_written_global_stays) {
  int opt = _i ? 2 : 0;
  char a[1024], b[1024], src[512];
  snprintf(src, sizeof src,
           "%sint flag = 0;\nstatic int local = 0;\nvoid set(void);\n"
           "void touch(int *p) { *p = 1; }\n"
           "int main(void) {\n  set();\n  touch(&local);\n  if (flag) sink(1);\n  if (local) sink(2);\n"
           "  return 0;\n}\n",
           sink_decl);
  compile("written_a", src, opt, a, sizeof a);
  compile("written_b", "extern int flag;\nvoid set(void) { flag = 1; }\n", opt, b, sizeof b);
  const char *paths[] = {a, b};
  prepared p;
  read_prepared(paths, 2, &p);
  LLVMValueRef main_fn = function(p.module, "main");
  ck_assert_int_eq(calls(main_fn, "sink", 1), 1);
  if (opt == 0) ck_assert_int_eq(calls(main_fn, "sink", 2), 1); /* -O2 inlines touch() */
  ck_assert_int_ge(conditional_branches(main_fn), 1);
  prepared_free(&p);
}
END_TEST

/* mem2reg keeps the undef of an uninitialised path: `phi [undef, ...]`. */
START_TEST(test_mem2reg_keeps_undef_phi) {
  char a[1024], src[512];
  snprintf(src, sizeof src,
           "int use(int);\nint main(int argc, char **argv) {\n  (void)argv;\n  int x;\n"
           "  if (argc > 1) x = 1;\n  return use(x);\n}\n");
  compile("undef_phi", src, 0, a, sizeof a);
  const char *paths[] = {a};
  prepared p;
  read_prepared(paths, 1, &p);
  LLVMValueRef main_fn = function(p.module, "main");
  int undef_incoming = 0, allocas = 0;
  for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(main_fn); b; b = LLVMGetNextBasicBlock(b))
    for (LLVMValueRef i = LLVMGetFirstInstruction(b); i; i = LLVMGetNextInstruction(i)) {
      allocas += LLVMIsAAllocaInst(i) != NULL;
      if (!LLVMIsAPHINode(i)) continue;
      for (unsigned k = 0; k < LLVMCountIncoming(i); ++k)
        undef_incoming += LLVMIsAUndefValue(LLVMGetIncomingValue(i, k)) != NULL;
    }
  ck_assert_int_ge(undef_incoming, 1);
  ck_assert_int_eq(allocas, 0);
  ck_assert_int_eq(conditional_branches(main_fn), 1); /* argc is not a constant */
  ck_assert_uint_ge(p.stats.promoted, 3);
  prepared_free(&p);
}
END_TEST

/* A switch on a constant global with two cases to one block (duplicate phi
 * entries from one predecessor), a default, and phis in the join. */
START_TEST(test_switch_phis_from_memory) {
  static const char ir[] =
      "@mode = internal global i32 2\n"
      "declare void @use(i32)\n"
      "define void @f() {\n"
      "entry:\n"
      "  %m = load i32, i32* @mode\n"
      "  switch i32 %m, label %d [ i32 1, label %a\n"
      "                             i32 3, label %a\n"
      "                             i32 2, label %b ]\n"
      "a:\n"
      "  %pa = phi i32 [ 7, %entry ], [ 7, %entry ]\n"
      "  call void @use(i32 %pa)\n"
      "  br label %b\n"
      "b:\n"
      "  %pb = phi i32 [ 1, %entry ], [ %pa, %a ], [ 3, %d ]\n"
      "  %loop = phi i32 [ 0, %entry ], [ 0, %a ], [ 0, %d ]\n"
      "  call void @use(i32 %pb)\n"
      "  ret void\n"
      "d:\n"
      "  br label %b\n"
      "}\n"
      /* The kept successor has three edges from the switch: two go. */
      "@one = internal constant i32 1\n"
      "define i32 @g(i32 %arg) {\n"
      "entry:\n"
      "  %m = load i32, i32* @one\n"
      "  switch i32 %m, label %x [ i32 1, label %x\n"
      "                             i32 2, label %x ]\n"
      "x:\n"
      "  %p = phi i32 [ %arg, %entry ], [ %arg, %entry ], [ %arg, %entry ]\n"
      "  ret i32 %p\n"
      "}\n"
      /* A function pointer never stored: its calls become direct. */
      "@handler = internal global void (i32)* @use\n"
      "define void @h() {\n"
      "  %fp = load void (i32)*, void (i32)** @handler\n"
      "  call void %fp(i32 9)\n"
      "  ret void\n"
      "}\n";
  LLVMContextRef context = LLVMContextCreate();
  weir_llvm_prepare_stats stats = {0};
  LLVMModuleRef m = prepare_text(context, "switch.ll", ir, sizeof ir - 1, &stats);
  LLVMValueRef f = function(m, "f");
  ck_assert_int_eq(conditional_branches(f), 0);
  ck_assert_uint_eq(LLVMCountBasicBlocks(f), 2); /* entry, b: a and d deleted */
  ck_assert_int_eq(calls(f, "use", 1), 1);       /* %pb became 1 */
  ck_assert_int_eq(calls(f, "use", 7), 0);
  ck_assert_int_eq(conditional_branches(function(m, "g")), 0);
  LLVMValueRef phi = LLVMGetFirstInstruction(LLVMGetLastBasicBlock(function(m, "g")));
  ck_assert(LLVMIsAPHINode(phi) && LLVMCountIncoming(phi) == 1);
  ck_assert_int_eq(calls(function(m, "h"), "use", 9), 1);
  ck_assert_uint_eq(stats.folded_branches, 2);
  ck_assert_uint_eq(stats.removed_blocks, 2);
  ck_assert_uint_eq(stats.constant_globals, 3);
  LLVMDisposeModule(m);
  LLVMContextDispose(context);
}
END_TEST

/* The successor of `b` by name, or NULL. */
static const char *successor_name(LLVMValueRef fn, const char *block, unsigned k) {
  for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(fn); b; b = LLVMGetNextBasicBlock(b)) {
    if (strcmp(LLVMGetBasicBlockName(b), block) != 0) continue;
    LLVMValueRef term = LLVMGetBasicBlockTerminator(b);
    return k < LLVMGetNumSuccessors(term) ? LLVMGetBasicBlockName(LLVMGetSuccessor(term, k)) : NULL;
  }
  return NULL;
}

/* Jump threading (module/thread.c): a loop condition written as
 * `i < n ? (x = v[i], 1) : 0`, and an error that a constructor which never
 * returns NULL made on the path that skips the out-parameter. Each edge
 * goes straight where its phi values send it; a pointer that may be NULL
 * (parse's result) decides nothing. */
START_TEST(test_thread_decided_branches) {
  static const char ir[] =
      "declare i8* @malloc(i64)\n"
      "declare void @abort()\n"
      "declare i8* @parse(i8**)\n"
      "declare void @use(i8*)\n"
      "define i8* @mk() {\n"
      "entry:\n"
      "  %p = call i8* @malloc(i64 8)\n"
      "  %null = icmp eq i8* %p, null\n"
      "  br i1 %null, label %fail, label %ok\n"
      "fail:\n"
      "  call void @abort()\n"
      "  unreachable\n"
      "ok:\n"
      "  ret i8* %p\n"
      "}\n"
      "define i8* @load(i1 %bad, i8** %out) {\n"
      "entry:\n"
      "  br i1 %bad, label %reject, label %try\n"
      "reject:\n"
      "  %e1 = call i8* @mk()\n"
      "  br label %join\n"
      "try:\n"
      "  %e2 = call i8* @parse(i8** %out)\n"
      "  br label %join\n"
      "join:\n"
      "  %e = phi i8* [ %e1, %reject ], [ %e2, %try ]\n"
      "  %failed = icmp ne i8* %e, null\n"
      "  br i1 %failed, label %error, label %done\n"
      "error:\n"
      "  ret i8* %e\n"
      "done:\n"
      "  %v = load i8*, i8** %out\n"
      "  call void @use(i8* %v)\n"
      "  ret i8* null\n"
      "}\n"
      "define void @each(i1 %more, i8* %next) {\n"
      "entry:\n"
      "  br i1 %more, label %take, label %none\n"
      "take:\n"
      "  br label %cond\n"
      "none:\n"
      "  br label %cond\n"
      "cond:\n"
      "  %x = phi i8* [ %next, %take ], [ undef, %none ]\n"
      "  %go = phi i32 [ 1, %take ], [ 0, %none ]\n"
      "  %t = icmp ne i32 %go, 0\n"
      "  br i1 %t, label %body, label %exit\n"
      "body:\n"
      "  call void @use(i8* %x)\n"
      "  br label %exit\n"
      "exit:\n"
      "  ret void\n"
      "}\n";
  LLVMContextRef context = LLVMContextCreate();
  weir_llvm_prepare_stats stats = {0};
  LLVMModuleRef m = prepare_text(context, "thread.ll", ir, sizeof ir - 1, &stats);
  LLVMValueRef load = function(m, "load"), each = function(m, "each");
  ck_assert_str_eq(successor_name(load, "reject", 0), "error"); /* mk() never returns NULL */
  ck_assert_str_eq(successor_name(load, "try", 0), "join");     /* parse() may: undecided */
  /* `take` only jumped on: entry's edge is handed past it, then threaded */
  ck_assert_str_eq(successor_name(each, "entry", 0), "body");
  ck_assert_str_eq(successor_name(each, "none", 0), "exit");
  /* the use in body takes %next, never the undef */
  for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(each); b; b = LLVMGetNextBasicBlock(b))
    for (LLVMValueRef i = LLVMGetFirstInstruction(b); i; i = LLVMGetNextInstruction(i))
      if (LLVMIsAPHINode(i))
        for (unsigned k = 0; k < LLVMCountIncoming(i); ++k) ck_assert(!LLVMIsUndef(LLVMGetIncomingValue(i, k)));
  ck_assert_uint_ge(stats.threaded_edges, 3);
  LLVMDisposeModule(m);
  LLVMContextDispose(context);
}
END_TEST

/* Copies made so that a constant error code decides the return (OVS's
 * stream-replay receive, module/thread.c and module/tail.c):
 *   - at -O0 the join calls unlock() before `br` on the error: each path
 *     with a constant error gets its own copy of the call and goes straight
 *     to the side the error picks;
 *   - at -O2 the join returns through a `select` whose load of `len` is
 *     speculated: the constant path's copy has no load and no select.
 * Either way every path still calls unlock() exactly once. */
START_TEST(test_copies_for_error_codes) {
  static const char ir[] =
      "declare void @unlock()\n"
      "declare i32 @read(i32*)\n"
      "define i32 @o0(i1 %ready) {\n"
      "entry:\n"
      "  %len = alloca i32\n"
      "  br i1 %ready, label %try, label %busy\n"
      "busy:\n"
      "  br label %out\n"
      "try:\n"
      "  %r = call i32 @read(i32* %len)\n"
      "  br label %out\n"
      "out:\n"
      "  %e = phi i32 [ 11, %busy ], [ %r, %try ]\n"
      "  call void @unlock()\n"
      "  %bad = icmp ne i32 %e, 0\n"
      "  br i1 %bad, label %neg, label %good\n"
      "neg:\n"
      "  %m = sub i32 0, %e\n"
      "  ret i32 %m\n"
      "good:\n"
      "  %l = load i32, i32* %len\n"
      "  ret i32 %l\n"
      "}\n"
      "define i32 @o2(i1 %ready) {\n"
      "entry:\n"
      "  %len = alloca i32\n"
      "  br i1 %ready, label %try, label %out\n"
      "try:\n"
      "  %r = call i32 @read(i32* %len)\n"
      "  br label %out\n"
      "out:\n"
      "  %e = phi i32 [ 11, %entry ], [ %r, %try ]\n"
      "  call void @unlock()\n"
      "  %ok = icmp eq i32 %e, 0\n"
      "  %m = sub i32 0, %e\n"
      "  %l = load i32, i32* %len\n"
      "  %v = select i1 %ok, i32 %l, i32 %m\n"
      "  ret i32 %v\n"
      "}\n";
  LLVMContextRef context = LLVMContextCreate();
  weir_llvm_prepare_stats stats = {0};
  LLVMModuleRef m = prepare_text(context, "copies.ll", ir, sizeof ir - 1, &stats);
  for (int f = 0; f < 2; ++f) {
    LLVMValueRef fn = function(m, f ? "o2" : "o0");
    unsigned calls = 0, loads = 0, rets = 0;
    for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(fn); b; b = LLVMGetNextBasicBlock(b)) {
      unsigned here_calls = 0, here_loads = 0;
      for (LLVMValueRef i = LLVMGetFirstInstruction(b); i; i = LLVMGetNextInstruction(i)) {
        LLVMValueRef callee = LLVMIsACallInst(i) ? LLVMGetCalledValue(i) : NULL;
        size_t length = 0;
        if (callee && strcmp(LLVMGetValueName2(callee, &length), "unlock") == 0) ++here_calls;
        if (LLVMIsALoadInst(i)) ++here_loads;
        if (LLVMIsAReturnInst(i)) ++rets;
      }
      calls += here_calls;
      loads += here_loads;
    }
    ck_assert_uint_eq(calls, 2); /* one copy per path: busy, and the rest */
    ck_assert_uint_eq(loads, 1); /* the copy for the constant path has none */
    ck_assert_uint_ge(rets, 2);
  }
  ck_assert_uint_ge(stats.threaded_edges, 2);
  LLVMDisposeModule(m);
  LLVMContextDispose(context);
}
END_TEST

/* A volatile or address-taken global, a weak one, and undef never fold. */
START_TEST(test_no_fold_on_undef_or_volatile) {
  static const char ir[] =
      "@v = internal global i32 1\n"
      "@w = weak global i32 1\n"
      "declare void @use(i32)\n"
      "define void @f(i1 %c) {\n"
      "entry:\n"
      "  %a = load volatile i32, i32* @v\n"
      "  %b = load i32, i32* @w\n"
      "  %s = add i32 %a, %b\n"
      "  br i1 undef, label %x, label %y\n"
      "x:\n  call void @use(i32 %s)\n  br label %y\n"
      "y:\n  %p = phi i32 [ undef, %entry ], [ 5, %x ]\n  call void @use(i32 %p)\n  ret void\n"
      "}\n";
  LLVMContextRef context = LLVMContextCreate();
  weir_llvm_prepare_stats stats = {0};
  LLVMModuleRef m = prepare_text(context, "nofold.ll", ir, sizeof ir - 1, &stats);
  LLVMValueRef f = function(m, "f");
  ck_assert_int_eq(conditional_branches(f), 1);
  ck_assert_uint_eq(stats.constant_globals, 0);
  ck_assert_uint_eq(stats.folded_branches, 0);
  ck_assert_uint_eq(LLVMCountBasicBlocks(f), 3);
  LLVMDisposeModule(m);
  LLVMContextDispose(context);
}
END_TEST

/* A broken input is the user's error, reported before anything changes. */
START_TEST(test_unverifiable_input) {
  static const char ir[] = "define i32 @f() {\n  %x = add i32 %y, 1\n  %y = add i32 %x, 1\n  ret i32 %x\n}\n";
  LLVMContextRef context = LLVMContextCreate();
  LLVMModuleRef m = NULL;
  ck_assert_int_eq(weir_llvm_module_read_memory(context, "broken.ll", ir, sizeof ir - 1, &m), WEIR_OK);
  weir_llvm_prepare_stats stats = {0};
  ck_assert_int_eq(weir_llvm_module_prepare(m, &stats), WEIR_ERR_PARSE);
  ck_assert_ptr_nonnull(strstr(weir_last_error(), "Fix:"));
  LLVMDisposeModule(m);
  LLVMContextDispose(context);
}
END_TEST

/* Under a tight address-space limit reading is refused with the figures
 * instead of LLVM aborting on std::bad_alloc. The limit is lowered just
 * around the call (this test runs in its own forked process). */
START_TEST(test_memory_limit_refused) {
  char a[1024];
  compile("limit", "int main(void) { return 0; }\n", 0, a, sizeof a);
  struct rlimit old;
  ck_assert_int_eq(getrlimit(RLIMIT_AS, &old), 0);
  FILE *f = fopen("/proc/self/statm", "r");
  unsigned long long pages = 0;
  ck_assert_int_eq(fscanf(f, "%llu", &pages), 1);
  fclose(f);
  struct rlimit tight = old;
  tight.rlim_cur = (rlim_t)(pages * 4096ull + 64ull * 1024 * 1024); /* 64 MB above what is used */
  if (old.rlim_cur != RLIM_INFINITY && old.rlim_cur < tight.rlim_cur) tight.rlim_cur = old.rlim_cur;
  LLVMContextRef context = LLVMContextCreate();
  LLVMModuleRef m = NULL;
  const char *paths[] = {a};
  ck_assert_int_eq(setrlimit(RLIMIT_AS, &tight), 0);
  weir_status s = weir_llvm_module_read(context, paths, 1, &m);
  ck_assert_int_eq(setrlimit(RLIMIT_AS, &old), 0);
  ck_assert_int_eq(s, WEIR_ERR_OUT_OF_MEMORY);
  const char *e = weir_last_error();
  ck_assert_msg(strstr(e, "ulimit -v") && strstr(e, "MB") && strstr(e, a), "%s", e);
  LLVMContextDispose(context);
}
END_TEST

/* Through the frontend: several files, the problem's name and the counters. */
START_TEST(test_build_files) {
  char a[1024], b[1024], src[512];
  snprintf(src, sizeof src,
           "#include <stdlib.h>\nint returnsTrue(void);\nint main(void) {\n"
           "  if (returnsTrue()) return system(getenv(\"X\"));\n  return 0;\n}\n");
  compile("build_a", src, 0, a, sizeof a);
  compile("build_b", "int returnsTrue(void) { return 1; }\n", 0, b, sizeof b);
  const char *paths[] = {a, b};
  weir_llvm_problem *lp = NULL;
  ck_assert_msg(weir_llvm_build_files(paths, 2, WEIR_LLVM_TAINT, NULL, &lp) == WEIR_OK, "%s", weir_last_error());
  const weir_llvm_build_stats *st = weir_llvm_problem_stats(lp);
  ck_assert_uint_eq(st->modules, 2);
  ck_assert_uint_eq(st->functions, 2);
  ck_assert_uint_ge(st->folded_branches, 1);
  ck_assert_uint_ge(st->constant_functions, 1);
  ck_assert_uint_eq(st->optnone_stripped, 2);
  ck_assert(st->seconds_prepare > 0.0);
  weir_llvm_problem_free(lp);
  ck_assert_int_eq(weir_llvm_build_files(paths, 0, WEIR_LLVM_TAINT, NULL, &lp), WEIR_ERR_INVALID_ARGUMENT);
}
END_TEST

static Suite *module_suite(void) {
  Suite *s = suite_create("llvm module");
  TCase *tc = tcase_create("read and prepare");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, test_two_files_link);
  tcase_add_test(tc, test_duplicate_definition);
  tcase_add_test(tc, test_bad_files);
  tcase_add_test(tc, test_optnone_stripped);
  tcase_add_loop_test(tc, test_static_flag_folds, 0, 2);
  tcase_add_loop_test(tc, test_extern_const_folds, 0, 2);
  tcase_add_loop_test(tc, test_constant_function_folds, 0, 2);
  tcase_add_loop_test(tc, test_written_global_stays, 0, 2);
  tcase_add_test(tc, test_mem2reg_keeps_undef_phi);
  tcase_add_test(tc, test_switch_phis_from_memory);
  tcase_add_test(tc, test_no_fold_on_undef_or_volatile);
  tcase_add_test(tc, test_thread_decided_branches);
  tcase_add_test(tc, test_copies_for_error_codes);
  tcase_add_test(tc, test_unverifiable_input);
  tcase_add_test(tc, test_memory_limit_refused);
  tcase_add_test(tc, test_build_files);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  SRunner *runner = srunner_create(module_suite());
  return weir_check_run(runner);
}
