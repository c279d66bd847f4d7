/* Tests of the memory model (frontends/llvm/memory): small C programs
 * compiled with clang-14 at test time, at -O0 (allocas), -O0 + mem2reg (what
 * the frontend prepares) and -O2, and real points-to facts asserted on them:
 * every `sink(ID, p)` call names a pointer whose targets are checked. */
#include <check.h>
#include <llvm-c/Core.h>
#include <llvm-c/IRReader.h>
#include <llvm-c/Transforms/Utils.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontends/llvm/internal.h"
#include "frontends/llvm/memory/memory.h"
#include "tests/check_run.h"

static const char program[] =
    "#include <stdlib.h>\n"
    "#include <string.h>\n"
    "void sink(int id, const void *p);\n"
    "void escape(void *p);\n"
    "void register_callback(void (*cb)(char *));\n"
    "struct S { char *a; char *b; };\n"
    "union U { char *a; char *b; };\n"
    "struct Big { char pad[2 << 20]; char *p; };\n"
    "char *g;\n"
    "int f1(int x) { return x + 1; }\n"
    "int f2(int x) { return x + 2; }\n"
    "int f3(int x) { return x + 3; }\n"
    "int (*table[2])(int) = {f1, f2};\n"
    "__attribute__((noinline)) void *make_block(size_t n) {\n"
    "  void *p = malloc(n);\n"
    "  if (!p) abort();\n"
    "  return p;\n"
    "}\n"
    "__attribute__((noinline)) struct S *new_s(char *v) {\n"
    "  struct S *p = malloc(sizeof *p);\n"
    "  p->a = v;\n"
    "  p->b = 0;\n"
    "  return p;\n"
    "}\n"
    "__attribute__((noinline)) void set_int(int *p) { *p = 1; }\n"
    "__attribute__((noinline)) int get_int(int *p) { return *p; }\n"
    "__attribute__((noinline)) void set_b(struct S *p, char *v) { p->b = v; }\n"
    "__attribute__((noinline)) void callback(char *p) { sink(20, p); }\n"
    "int main(int argc, char **argv) {\n"
    "  char buf[100];\n"
    "  char other[10];\n"
    "  char *data = buf;\n"
    "  sink(1, data);\n"
    "  char **pp = &data;\n"
    "  sink(2, *pp);\n"
    "  escape(&pp);\n"
    "  *pp = other;\n"
    "  sink(3, data);\n"
    "  struct S s;\n"
    "  s.a = buf;\n"
    "  s.b = other;\n"
    "  escape(&s);\n"
    "  sink(4, s.a);\n"
    "  sink(5, s.b);\n"
    "  struct S *p1 = &s, *p2 = &s;\n"
    "  set_b(p1, argv[0]);\n"
    "  sink(6, p2->b);\n"
    "  union U u;\n"
    "  u.a = buf;\n"
    "  escape(&u);\n"
    "  sink(7, u.b);\n"
    "  char *h1 = malloc(10), *h2 = malloc(20), *h3 = calloc(1, 8);\n"
    "  sink(8, h1);\n"
    "  sink(9, h2);\n"
    "  sink(10, h3);\n"
    "  char *w1 = make_block(1), *w2 = make_block(2);\n"
    "  sink(11, w1);\n"
    "  sink(12, w2);\n"
    "  struct S *n1 = new_s(buf);\n"
    "  sink(13, n1->a);\n"
    "  g = other;\n"
    "  sink(14, g);\n"
    "  int r = table[argc % 2](argc);\n"
    "  int v = r;\n"
    "  set_int(&v);\n"
    "  sink(15, &v);\n"
    "  struct S s2;\n"
    "  memcpy(&s2, &s, sizeof s);\n"
    "  escape(&s2);\n"
    "  sink(16, s2.a);\n"
    "  sink(17, argv[1]);\n"
    "  char *e = getenv(\"HOME\");\n"
    "  sink(18, e);\n"
    "  sink(19, strchr(buf, 'x'));\n"
    "  register_callback(callback);\n"
    "  struct Big *big = malloc(sizeof *big);\n"
    "  big->p = other;\n"
    "  sink(21, big->p);\n"
    "  free(h1);\n"
    "  return get_int(&v);\n"
    "}\n";

/* A growable-array helper that hands its block out through `void **`:
 * each call is its own block, and the arrays' contents stay apart. */
static const char grow_program[] =
    "#include <stdlib.h>\n"
    "void sink(int id, const void *p);\n"
    "char first[8], second[8];\n"
    "struct Item { char *name; };\n"
    "struct Lists { struct Item *items; size_t items_cap; char **names; size_t names_cap; };\n"
    "__attribute__((noinline)) int grow(void **data, size_t *cap, size_t need, size_t size) {\n"
    "  if (need <= *cap) return 0;\n"
    "  size_t n = *cap ? *cap * 2 : 8;\n"
    "  while (n < need) n *= 2;\n"
    "  void *p = realloc(*data, n * size);\n"
    "  if (!p) return -1;\n"
    "  *data = p;\n"
    "  *cap = n;\n"
    "  return 0;\n"
    "}\n"
    "int main(int argc, char **argv) {\n"
    "  struct Lists l = {0};\n"
    "  if (grow((void **)&l.items, &l.items_cap, 1, sizeof *l.items)) return 1;\n"
    "  if (grow((void **)&l.names, &l.names_cap, (size_t)argc, sizeof *l.names)) return 1;\n"
    "  l.items[0].name = first;\n"
    "  l.names[0] = second;\n"
    "  sink(1, l.items);\n"
    "  sink(2, l.names);\n"
    "  sink(3, l.items[argc - 1].name);\n"
    "  sink(4, l.names[argc - 1]);\n"
    "  return argv[0] != 0;\n"
    "}\n";

enum { MODE_O0 = 0, MODE_MEM2REG = 1, MODE_O2 = 2, MODE_COUNT = 3 };
static const char *const mode_names[] = {"-O0", "-O0 + mem2reg", "-O2"};

typedef struct fixture {
  LLVMContextRef context;
  LLVMModuleRef module;
  weir_llvm_memory *memory;
} fixture;

static void run_mem2reg(LLVMModuleRef module) {
  LLVMPassManagerRef pm = LLVMCreatePassManager();
  LLVMAddPromoteMemoryToRegisterPass(pm);
  LLVMRunPassManager(pm, module);
  LLVMDisposePassManager(pm);
}

/* Compiles `source` in `mode`, parses it and builds the model. */
static void open_program(const char *name, const char *source, int mode, fixture *f) {
  char c_path[1024], bc_path[1024], command[4096];
  snprintf(c_path, sizeof c_path, "%s/%s.c", WEIR_TEST_WORK, name);
  snprintf(bc_path, sizeof bc_path, "%s/%s.%d.bc", WEIR_TEST_WORK, name, mode);
  FILE *out = fopen(c_path, "w");
  ck_assert_ptr_nonnull(out);
  fputs(source, out);
  fclose(out);
  snprintf(command, sizeof command,
           "'%s' -g -fno-discard-value-names %s -emit-llvm -c '%s' -o '%s'", WEIR_TEST_CLANG,
           mode == MODE_O2 ? "-O2" : mode == MODE_MEM2REG ? "-O0 -Xclang -disable-O0-optnone" : "-O0", c_path,
           bc_path);
  ck_assert_msg(system(command) == 0, "clang-14 failed: %s", command);
  f->context = LLVMContextCreate();
  LLVMMemoryBufferRef buffer = NULL;
  char *error = NULL;
  ck_assert_msg(!LLVMCreateMemoryBufferWithContentsOfFile(bc_path, &buffer, &error), "%s", error);
  ck_assert_msg(!LLVMParseIRInContext(f->context, buffer, &f->module, &error), "%s", error);
  if (mode == MODE_MEM2REG) run_mem2reg(f->module);
  ck_assert_msg(weir_llvm_memory_build(f->module, NULL, &f->memory) == WEIR_OK, "%s", weir_last_error());
}

static void close_program(fixture *f) {
  weir_llvm_memory_free(f->memory);
  LLVMDisposeModule(f->module);
  LLVMContextDispose(f->context);
}

static LLVMValueRef find_call(LLVMModuleRef module, const char *fn_name, const char *callee, int id) {
  LLVMValueRef fn = LLVMGetNamedFunction(module, fn_name);
  ck_assert_ptr_nonnull(fn);
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef inst = LLVMGetFirstInstruction(bb); inst; inst = LLVMGetNextInstruction(inst)) {
      if (!LLVMIsACallInst(inst)) continue;
      size_t length = 0;
      const char *name = weir_llvm_callee_name(inst, &length);
      if (strlen(callee) != length || strncmp(name, callee, length) != 0) continue;
      if (id < 0) return inst;
      LLVMValueRef arg = LLVMGetOperand(inst, 0);
      if (LLVMIsAConstantInt(arg) && LLVMConstIntGetZExtValue(arg) == (unsigned long long)id) return inst;
    }
  return NULL;
}

/* The locations the pointer of `sink(id, p)` in `fn` may point to. */
static size_t sink_in(const fixture *f, const char *fn, int id, const uint32_t **locations) {
  LLVMValueRef call = find_call(f->module, fn, "sink", id);
  ck_assert_msg(call != NULL, "no sink(%d, ...) in %s", id, fn);
  return weir_llvm_memory_points_to(f->memory, LLVMGetOperand(call, 1), locations);
}

static size_t sink(const fixture *f, int id, const uint32_t **locations) { return sink_in(f, "main", id, locations); }

/* The object named `name`, main's own first (new_s has a slot "v" too). */
static uint32_t object_named(const fixture *f, const char *name) {
  uint32_t count = weir_llvm_memory_object_count(f->memory), found = UINT32_MAX;
  LLVMValueRef main_fn = LLVMGetNamedFunction(f->module, "main");
  for (uint32_t k = 0; k < count; ++k) {
    const weir_llvm_object *o = weir_llvm_memory_object(f->memory, k);
    if (strcmp(o->name, name) != 0) continue;
    if (o->function == main_fn) return k;
    if (found == UINT32_MAX) found = k;
  }
  ck_assert_msg(found != UINT32_MAX, "no object named '%s'", name);
  return found;
}

static int has_object(const fixture *f, const uint32_t *locations, size_t n, uint32_t object) {
  for (size_t k = 0; k < n; ++k)
    if (weir_llvm_memory_location(f->memory, locations[k]).object == object) return 1;
  return 0;
}

static int has_location(const uint32_t *locations, size_t n, uint32_t location) {
  for (size_t k = 0; k < n; ++k)
    if (locations[k] == location) return 1;
  return 0;
}

static uint32_t first_location(const fixture *f, uint32_t object) {
  return weir_llvm_memory_object(f->memory, object)->first_location;
}

/* Every sink's targets in one line, for the log. */
static void print_sinks(const fixture *f, int mode) {
  for (int id = 1; id <= 21; ++id) {
    const uint32_t *l = NULL;
    size_t n = id == 20 ? sink_in(f, "callback", id, &l) : sink(f, id, &l);
    weir_llvm_text text = {0};
    for (size_t k = 0; k < n; ++k) {
      if (k) weir_llvm_text_put(&text, ", ", 2);
      weir_llvm_memory_describe(f->memory, l[k], &text);
    }
    printf("  memory %s sink %d -> {%s}\n", mode_names[mode], id, text.p ? text.p : "");
    weir_llvm_text_free(&text);
  }
}

START_TEST(test_stack_and_pointer_to_pointer) {
  fixture f;
  open_program("memory_facts", program, _i, &f);
  print_sinks(&f, _i);
  uint32_t buf = object_named(&f, "buf"), other = object_named(&f, "other");
  ck_assert_int_eq(weir_llvm_memory_object(f.memory, buf)->kind, WEIR_LLVM_OBJECT_STACK);
  ck_assert_uint_eq(weir_llvm_memory_object(f.memory, buf)->size, 100);
  ck_assert(weir_llvm_memory_object(f.memory, buf)->is_array);
  const uint32_t *l = NULL;
  size_t n = sink(&f, 1, &l); /* data = buf (and, flow-insensitively at -O0, other) */
  ck_assert(has_location(l, n, first_location(&f, buf)));
  ck_assert_uint_eq(n, _i == MODE_O2 ? 1 : 2);
  n = sink(&f, 2, &l); /* *pp with pp = &data */
  ck_assert(has_object(&f, l, n, buf));
  n = sink(&f, 3, &l); /* data after *pp = other */
  ck_assert(has_object(&f, l, n, other));
  ck_assert(!has_object(&f, l, n, object_named(&f, "argv strings")));
  weir_llvm_text text = {0};
  weir_llvm_memory_describe(f.memory, first_location(&f, buf), &text);
  ck_assert_str_eq(text.p, "buf");
  weir_llvm_text_free(&text);
  close_program(&f);
}
END_TEST

START_TEST(test_struct_fields_and_unions) {
  fixture f;
  open_program("memory_facts", program, _i, &f);
  uint32_t buf = object_named(&f, "buf"), other = object_named(&f, "other");
  uint32_t strings = object_named(&f, "argv strings");
  const uint32_t *l = NULL;
  size_t n = sink(&f, 4, &l); /* s.a */
  ck_assert_uint_eq(n, 1);
  ck_assert(has_object(&f, l, n, buf));
  n = sink(&f, 5, &l); /* s.b: other, and argv[0] stored through p1 */
  ck_assert(has_object(&f, l, n, other));
  ck_assert(!has_object(&f, l, n, buf));
  n = sink(&f, 6, &l); /* p2->b sees the store through p1->b */
  ck_assert(has_object(&f, l, n, strings));
  ck_assert(has_object(&f, l, n, other));
  ck_assert(!has_object(&f, l, n, buf));
  uint32_t s = object_named(&f, "s");
  ck_assert_uint_ge(weir_llvm_memory_object(f.memory, s)->location_count, 2);
  uint32_t field_b = weir_llvm_memory_location_at(f.memory, s, 8);
  ck_assert_uint_ne(field_b, UINT32_MAX);
  weir_llvm_text text = {0};
  weir_llvm_memory_describe(f.memory, field_b, &text);
  ck_assert_str_eq(text.p, "s.b"); /* from debug info */
  weir_llvm_text_free(&text);
  n = weir_llvm_memory_contents(f.memory, field_b, &l);
  ck_assert(has_object(&f, l, n, other) && !has_object(&f, l, n, buf));
  n = sink(&f, 7, &l); /* u.b reads what u.a stored */
  ck_assert(has_object(&f, l, n, buf));
  n = sink(&f, 16, &l); /* memcpy(&s2, &s): field a of s2 holds s.a, not s.b */
  ck_assert(has_object(&f, l, n, buf));
  ck_assert(!has_object(&f, l, n, other));
  /* struct Big: a field 2 MiB into a heap block of unknown size collapses it */
  n = sink(&f, 21, &l);
  ck_assert_uint_eq(n, 1);
  ck_assert(weir_llvm_memory_object(f.memory, weir_llvm_memory_location(f.memory, l[0]).object)->collapsed ||
            has_object(&f, l, n, other));
  close_program(&f);
}
END_TEST

static const weir_llvm_object *single_object(const fixture *f, int id, uint32_t *object) {
  const uint32_t *l = NULL;
  size_t n = sink(f, id, &l);
  ck_assert_msg(n == 1, "sink %d: %zu locations", id, n);
  *object = weir_llvm_memory_location(f->memory, l[0]).object;
  return weir_llvm_memory_object(f->memory, *object);
}

START_TEST(test_heap_sites_and_wrappers) {
  fixture f;
  open_program("memory_facts", program, _i, &f);
  uint32_t h1, h2, h3, w1, w2;
  const weir_llvm_object *o1 = single_object(&f, 8, &h1), *o2 = single_object(&f, 9, &h2);
  const weir_llvm_object *o3 = single_object(&f, 10, &h3);
  ck_assert_uint_ne(h1, h2);
  ck_assert_int_eq(o1->kind, WEIR_LLVM_OBJECT_HEAP);
  ck_assert_int_eq(o2->kind, WEIR_LLVM_OBJECT_HEAP);
  ck_assert_int_eq(o1->alloc_kind, WEIR_LLVM_ALLOC_UNINIT);
  ck_assert_int_eq(o3->alloc_kind, WEIR_LLVM_ALLOC_ZERO);
  ck_assert(o1->is_array);
  ck_assert_str_eq(o1->name, "heap block from malloc");
  ck_assert_uint_eq(weir_llvm_memory_object_of_site(f.memory, o1->site), h1);
  /* make_block: one object per call, not one for the malloc inside */
  const weir_llvm_object *ow1 = single_object(&f, 11, &w1), *ow2 = single_object(&f, 12, &w2);
  ck_assert_uint_ne(w1, w2);
  ck_assert_int_eq(ow1->kind, WEIR_LLVM_OBJECT_HEAP);
  ck_assert_int_eq(ow2->alloc_kind, WEIR_LLVM_ALLOC_UNINIT);
  ck_assert_str_eq(ow1->name, "heap block from make_block");
  ck_assert_ptr_eq(ow1->function, LLVMGetNamedFunction(f.module, "main"));
  /* new_s fills the block it returns: the caller's block has its field a */
  const uint32_t *l = NULL;
  size_t n = sink(&f, 13, &l);
  ck_assert(has_object(&f, l, n, object_named(&f, "buf")));
  /* allocs of main: its own sites and those of its callees */
  n = weir_llvm_memory_allocs(f.memory, LLVMGetNamedFunction(f.module, "main"), &l);
  ck_assert(has_location(l, n, h1) && has_location(l, n, h3) && has_location(l, n, w2));
  n = weir_llvm_memory_allocs(f.memory, LLVMGetNamedFunction(f.module, "set_int"), &l);
  ck_assert_uint_eq(n, 0);
  /* free(h1) modifies h1's block */
  n = weir_llvm_memory_mod(f.memory, LLVMGetNamedFunction(f.module, "main"), &l);
  ck_assert(has_location(l, n, first_location(&f, h1)));
  close_program(&f);
}
END_TEST

START_TEST(test_globals_calls_and_modref) {
  fixture f;
  open_program("memory_facts", program, _i, &f);
  uint32_t other = object_named(&f, "other"), g = object_named(&f, "g");
  ck_assert_int_eq(weir_llvm_memory_object(f.memory, g)->kind, WEIR_LLVM_OBJECT_GLOBAL);
  const uint32_t *l = NULL;
  size_t n = sink(&f, 14, &l);
  ck_assert(has_object(&f, l, n, other));
  n = weir_llvm_memory_contents(f.memory, first_location(&f, g), &l);
  ck_assert(has_object(&f, l, n, other));
  /* table[argc % 2](argc): exactly f1 and f2 */
  LLVMValueRef main_fn = LLVMGetNamedFunction(f.module, "main"), call = NULL;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(main_fn); bb && !call; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef inst = LLVMGetFirstInstruction(bb); inst && !call; inst = LLVMGetNextInstruction(inst))
      if (LLVMIsACallInst(inst) && !weir_llvm_direct_callee(inst)) call = inst;
  ck_assert_ptr_nonnull(call);
  const LLVMValueRef *callees = NULL;
  ck_assert_uint_eq(weir_llvm_memory_callees(f.memory, call, &callees), 2);
  ck_assert_ptr_eq(callees[0], LLVMGetNamedFunction(f.module, "f1"));
  ck_assert_ptr_eq(callees[1], LLVMGetNamedFunction(f.module, "f2"));
  ck_assert_uint_eq(weir_llvm_memory_get_stats(f.memory)->indirect_resolved, 1);
  /* set_int writes v through its parameter; main inherits it; get_int reads it */
  uint32_t v = first_location(&f, object_named(&f, "v"));
  n = weir_llvm_memory_mod(f.memory, LLVMGetNamedFunction(f.module, "set_int"), &l);
  ck_assert(has_location(l, n, v));
  n = weir_llvm_memory_mod(f.memory, main_fn, &l);
  ck_assert(has_location(l, n, v));
  n = weir_llvm_memory_ref(f.memory, LLVMGetNamedFunction(f.module, "get_int"), &l);
  ck_assert(has_location(l, n, v));
  n = weir_llvm_memory_mod(f.memory, LLVMGetNamedFunction(f.module, "get_int"), &l);
  ck_assert(!has_location(l, n, v));
  for (size_t k = 1; k < n; ++k) ck_assert_uint_lt(l[k - 1], l[k]);
  close_program(&f);
}
END_TEST

START_TEST(test_external_memory) {
  fixture f;
  open_program("memory_facts", program, _i, &f);
  uint32_t array = UINT32_MAX, strings = UINT32_MAX;
  weir_llvm_memory_argv(f.memory, &array, &strings);
  ck_assert_uint_ne(array, UINT32_MAX);
  ck_assert_uint_ne(strings, UINT32_MAX);
  LLVMValueRef argv = LLVMGetParam(LLVMGetNamedFunction(f.module, "main"), 1);
  const uint32_t *l = NULL;
  size_t n = weir_llvm_memory_points_to(f.memory, argv, &l);
  ck_assert_uint_eq(n, 1);
  ck_assert_uint_eq(l[0], array);
  n = weir_llvm_memory_contents(f.memory, array, &l);
  ck_assert_uint_eq(n, 1);
  ck_assert_uint_eq(l[0], strings);
  n = sink(&f, 17, &l); /* argv[1] */
  ck_assert_uint_eq(n, 1);
  ck_assert_uint_eq(l[0], strings);
  weir_llvm_text text = {0};
  weir_llvm_memory_describe(f.memory, strings, &text);
  ck_assert_str_eq(text.p, "argv strings");
  weir_llvm_text_free(&text);
  uint32_t e;
  const weir_llvm_object *oe = single_object(&f, 18, &e); /* getenv */
  ck_assert_int_eq(oe->kind, WEIR_LLVM_OBJECT_EXTERNAL);
  ck_assert_str_eq(oe->name, "memory from getenv");
  n = sink(&f, 19, &l); /* strchr(buf, ...) points into buf */
  ck_assert(has_object(&f, l, n, object_named(&f, "buf")));
  n = sink_in(&f, "callback", 20, &l); /* a callback's parameter: external memory */
  ck_assert_uint_eq(n, 1);
  ck_assert_int_eq(weir_llvm_memory_object(f.memory, weir_llvm_memory_location(f.memory, l[0]).object)->kind,
                   WEIR_LLVM_OBJECT_EXTERNAL);
  close_program(&f);
}
END_TEST

START_TEST(test_out_parameter_helper) {
  fixture f;
  open_program("memory_grow", grow_program, _i, &f);
  uint32_t items, names;
  const weir_llvm_object *oi = single_object(&f, 1, &items), *on = single_object(&f, 2, &names);
  ck_assert_uint_ne(items, names);
  ck_assert_int_eq(oi->kind, WEIR_LLVM_OBJECT_HEAP);
  ck_assert_int_eq(on->alloc_kind, WEIR_LLVM_ALLOC_REALLOC);
  ck_assert_str_eq(oi->name, "heap block from grow");
  ck_assert_ptr_eq(oi->function, LLVMGetNamedFunction(f.module, "main"));
  ck_assert_uint_eq(weir_llvm_memory_object_of_site(f.memory, oi->site), items);
  /* what each array holds stays in that array */
  uint32_t first = object_named(&f, "first"), second = object_named(&f, "second");
  const uint32_t *l = NULL;
  size_t n = sink(&f, 3, &l);
  ck_assert(has_object(&f, l, n, first) && !has_object(&f, l, n, second));
  n = sink(&f, 4, &l);
  ck_assert(has_object(&f, l, n, second) && !has_object(&f, l, n, first));
  /* the helper still writes the caller's cell, and main allocates both */
  n = weir_llvm_memory_allocs(f.memory, LLVMGetNamedFunction(f.module, "main"), &l);
  ck_assert(has_location(l, n, items) && has_location(l, n, names));
  ck_assert_uint_eq(weir_llvm_memory_get_stats(f.memory)->degraded, 0);
  close_program(&f);
}
END_TEST

/* Type filters: a struct pointer never points to a function, however the
 * callbacks that share a `void *user_data` mix them; a memcpy of known
 * length copies only the fields inside it. */
static const char filter_program[] =
    "#include <string.h>\n"
    "void sink(int id, const void *p);\n"
    "struct entry { char uuid[16]; void (*read)(void); };\n"
    "struct frame { int len; const char *data; };\n"
    "static void on_read(void) {}\n"
    "struct entry table[2] = {{\"a\", on_read}, {\"b\", on_read}};\n"
    "typedef void (*callback)(void *user_data);\n"
    "__attribute__((noinline)) void call_with(callback cb, void *user_data) { cb(user_data); }\n"
    "__attribute__((noinline)) void takes_frame(void *user_data) {\n"
    "  struct frame *f = user_data;\n"
    "  sink(1, f);\n"
    "}\n"
    "__attribute__((noinline)) void takes_function(void *user_data) { sink(2, user_data); }\n"
    "int main(int argc, char **argv) {\n"
    "  struct frame fr = {argc, argv[0]};\n"
    "  call_with(takes_frame, &fr);\n"
    "  call_with(takes_function, (void *)on_read);\n"
    "  void *uuid[2];\n"
    "  memcpy(uuid, &table[argc & 1], sizeof uuid);\n"
    "  sink(3, uuid[argc & 1]);\n"
    "  struct entry e;\n"
    "  memcpy(&e, &table[argc & 1], sizeof e);\n"
    "  sink(4, (const void *)e.read);\n"
    "  return 0;\n"
    "}\n";

START_TEST(test_type_filters) {
  fixture f;
  open_program("memory_filters", filter_program, _i, &f);
  uint32_t frame = object_named(&f, "fr"), on_read = object_named(&f, "on_read");
  ck_assert_int_eq(weir_llvm_memory_object(f.memory, on_read)->kind, WEIR_LLVM_OBJECT_FUNCTION);
  const uint32_t *l = NULL;
  size_t n = sink_in(&f, "takes_function", 2, &l); /* the void * takes both */
  ck_assert(has_object(&f, l, n, on_read) && has_object(&f, l, n, frame));
  if (_i != MODE_O2) { /* -O2 passes user_data to sink without the cast */
    n = sink_in(&f, "takes_frame", 1, &l);
    ck_assert(has_object(&f, l, n, frame));
    ck_assert_msg(!has_object(&f, l, n, on_read), "a struct frame * points to a function");
  }
  n = sink(&f, 3, &l); /* 16 bytes of uuid: not the function pointer after them */
  ck_assert(!has_object(&f, l, n, on_read));
  n = sink(&f, 4, &l); /* the whole entry: its function pointer */
  ck_assert(has_object(&f, l, n, on_read));
  close_program(&f);
}
END_TEST

START_TEST(test_bad_arguments) {
  weir_llvm_memory *m = (weir_llvm_memory *)1;
  ck_assert_int_eq(weir_llvm_memory_build(NULL, NULL, &m), WEIR_ERR_INVALID_ARGUMENT);
  ck_assert_ptr_null(m);
  ck_assert_ptr_nonnull(strstr(weir_last_error(), "Fix:"));
  weir_llvm_memory_free(NULL);
}
END_TEST

static Suite *memory_suite(void) {
  Suite *s = suite_create("llvm memory model");
  TCase *tc = tcase_create("points-to");
  tcase_set_timeout(tc, 120);
  tcase_add_loop_test(tc, test_stack_and_pointer_to_pointer, 0, MODE_COUNT);
  tcase_add_loop_test(tc, test_struct_fields_and_unions, 0, MODE_COUNT);
  tcase_add_loop_test(tc, test_heap_sites_and_wrappers, 0, MODE_COUNT);
  tcase_add_loop_test(tc, test_globals_calls_and_modref, 0, MODE_COUNT);
  tcase_add_loop_test(tc, test_external_memory, 0, MODE_COUNT);
  tcase_add_loop_test(tc, test_out_parameter_helper, 0, MODE_COUNT);
  tcase_add_loop_test(tc, test_type_filters, 0, MODE_COUNT);
  tcase_add_test(tc, test_bad_arguments);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  SRunner *runner = srunner_create(memory_suite());
  return weir_check_run(runner);
}
