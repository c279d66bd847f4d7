/* Programs from files (include/weir/program_file.h): SPIR-V reflection on
 * modules glslc compiled at build time, good and deliberately wrong (a
 * hard-coded local size under another declaration, a missing binding, a
 * push-constant size mismatch, a vertex shader, garbage bytes, a uniform
 * buffer, set 1, a swapped specialization constant); validation at
 * registration; every built-in program passing the same checks; host code
 * from a shared library and a .weirprog manifest run on the cpu backend. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/check_run.h"
#include "weir/weir.h"

#define OK(expr) ck_assert_msg((expr) == WEIR_OK, "%s failed: %s", #expr, weir_last_error())
#define FAILS(expr, status)                                                              \
  do {                                                                                   \
    weir_status s_ = (expr);                                                             \
    ck_assert_msg(s_ == (status), "%s gave %s, expected %s (%s)", #expr, weir_status_name(s_), \
                  weir_status_name(status), weir_last_error());                          \
  } while (0)
#define HAS(text) \
  ck_assert_msg(strstr(weir_last_error(), text), "message lacks '%s': %s", text, weir_last_error())

static void *slurp(const char *name, size_t *size) {
  char path[1024];
  snprintf(path, sizeof path, "%s/%s", SPV_DIR, name);
  FILE *f = fopen(path, "rb");
  ck_assert_msg(f != NULL, "cannot open %s", path);
  fseek(f, 0, SEEK_END);
  *size = (size_t)ftell(f);
  fseek(f, 0, SEEK_SET);
  void *buf = malloc(*size);
  ck_assert_uint_eq(fread(buf, 1, *size, f), *size);
  fclose(f);
  return buf;
}

static weir_status from_file(const char *name, const weir_program_decl *d, weir_program **out) {
  size_t size;
  void *bytes = slurp(name, &size);
  weir_status st = weir_program_from_spirv(bytes, size, NULL, d, out);
  free(bytes);
  return st;
}

START_TEST(reflect_good_module) {
  size_t size;
  void *bytes = slurp("scale_u32.spv", &size);
  weir_spirv_info info;
  OK(weir_spirv_reflect(bytes, size, NULL, &info));
  ck_assert_str_eq(info.entry, "main");
  ck_assert_uint_eq(info.execution_model, 5);
  ck_assert_uint_eq(info.binding_count, 1);
  ck_assert_uint_eq(info.binding_mask, 1);
  ck_assert_uint_eq(info.push_constant_bytes, 8);
  for (uint32_t d = 0; d < 3; ++d) ck_assert_uint_eq(info.workgroup_spec_id[d], d);
  FAILS(weir_spirv_reflect(bytes, size, "nope", &info), WEIR_ERR_INVALID_ARGUMENT);
  HAS("main (GLCompute)");
  free(bytes);
  bytes = slurp("push_layout.spv", &size);
  OK(weir_spirv_reflect(bytes, size, "main", &info));
  ck_assert_uint_eq(info.binding_count, 2);
  ck_assert_uint_eq(info.push_constant_bytes, 36);
  free(bytes);
}
END_TEST

START_TEST(program_from_good_module) {
  weir_program *p = NULL;
  weir_program_decl d = {.name = "scale", .declared = WEIR_DECL_WORKGROUP, .workgroup_size = {128, 1, 1}};
  OK(from_file("scale_u32.spv", &d, &p));
  ck_assert_str_eq(p->name, "scale");
  ck_assert_uint_eq(p->binding_count, 1);
  ck_assert_uint_eq(p->push_constant_bytes, 8);
  ck_assert_uint_eq(p->workgroup_size[0], 128);
  ck_assert_uint_eq(p->default_grid_binding, 0);
  ck_assert(weir_program_has_format(p, WEIR_FORMAT_SPIRV));
  OK(weir_program_check_spirv(p));
  weir_backend *b;
  OK(weir_backend_open("cpu", &b));
  OK(weir_backend_register_program(b, p)); /* SPIR-V only: still registrable anywhere */
  ck_assert_ptr_eq(weir_backend_find_program(b, "scale"), p);
  weir_backend_close(b);
  weir_program_free(p);
  /* No declaration: everything from the module (spec defaults 1 x 1 x 1). */
  OK(from_file("scale_u32.spv", NULL, &p));
  ck_assert_str_eq(p->name, "main");
  ck_assert_uint_eq(p->workgroup_size[0], 1);
  weir_program_free(p);
}
END_TEST

START_TEST(hard_coded_local_size_refused) {
  weir_program *p = NULL;
  weir_program_decl d = {.declared = WEIR_DECL_WORKGROUP, .workgroup_size = {64, 1, 1}};
  FAILS(from_file("hard32.spv", &d, &p), WEIR_ERR_INVALID_ARGUMENT);
  HAS("hard-codes local_size_x = 32");
  HAS("64 x 1 x 1");
  HAS("Fix:");
  ck_assert_ptr_null(p);
  d.workgroup_size[0] = 32; /* agreeing with the module is fine */
  OK(from_file("hard32.spv", &d, &p));
  ck_assert_uint_eq(p->workgroup_size[0], 32);
  /* The case: a hand-filled program registered with 64. */
  weir_program lie = *p;
  lie.name = "hard32_as_64";
  lie.workgroup_size[0] = 64;
  weir_backend *b;
  OK(weir_backend_open("cpu", &b));
  FAILS(weir_backend_register_program(b, &lie), WEIR_ERR_INVALID_ARGUMENT);
  HAS("hard32_as_64");
  HAS("local_size_x = 32");
  weir_backend_close(b);
  weir_program_free(p);
}
END_TEST

START_TEST(layout_mismatches_refused) {
  weir_program *p = NULL;
  weir_program_decl d = {.declared = WEIR_DECL_BINDINGS, .binding_count = 1};
  FAILS(from_file("push_layout.spv", &d, &p), WEIR_ERR_INVALID_ARGUMENT);
  HAS("uses set-0 binding 1 (2 binding(s)), the declaration binds only 1 buffer(s)");
  d.binding_count = 3; /* an extra, unused buffer is harmless */
  OK(from_file("push_layout.spv", &d, &p));
  ck_assert_uint_eq(p->binding_count, 3);
  weir_program_free(p);
  p = NULL;
  d = (weir_program_decl){.declared = WEIR_DECL_PUSH, .push_constant_bytes = 4};
  FAILS(from_file("scale_u32.spv", &d, &p), WEIR_ERR_INVALID_ARGUMENT);
  HAS("the module has 8 push-constant byte(s), the declaration says 4");
  FAILS(from_file("not_compute.spv", NULL, &p), WEIR_ERR_INVALID_ARGUMENT);
  HAS("Vertex");
  FAILS(from_file("uniform_buffer.spv", NULL, &p), WEIR_ERR_INVALID_ARGUMENT);
  HAS("uniform buffer");
  FAILS(from_file("set1.spv", NULL, &p), WEIR_ERR_INVALID_ARGUMENT);
  HAS("set 1, binding 0");
  FAILS(from_file("swapped_spec.spv", NULL, &p), WEIR_ERR_INVALID_ARGUMENT);
  HAS("specialization constant 1");
  ck_assert_ptr_null(p);
}
END_TEST

START_TEST(garbage_refused_at_registration) {
  static const uint32_t junk[8] = {0xdeadbeefu, 1, 2, 3, 4, 5, 6, 7};
  weir_program *p = NULL;
  FAILS(weir_program_from_spirv(junk, sizeof junk, NULL, NULL, &p), WEIR_ERR_INVALID_ARGUMENT);
  HAS("0xdeadbeef");
  FAILS(weir_program_from_spirv(junk, 7, NULL, NULL, &p), WEIR_ERR_INVALID_ARGUMENT);
  /* Right magic, then an instruction running past the end. */
  static const uint32_t cut[8] = {0x07230203u, 0x00010300u, 0, 8, 0, (100u << 16) | 17u, 1, 0};
  FAILS(weir_program_from_spirv(cut, sizeof cut, NULL, NULL, &p), WEIR_ERR_INVALID_ARGUMENT);
  HAS("malformed instruction at word 5");
  weir_program hand = {.name = "garbage", .workgroup_size = {1, 1, 1},
                       .default_grid_binding = WEIR_NO_BINDING, .spirv = junk,
                       .spirv_bytes = sizeof junk};
  weir_backend *b;
  OK(weir_backend_open("cpu", &b));
  FAILS(weir_backend_register_program(b, &hand), WEIR_ERR_INVALID_ARGUMENT);
  HAS("program 'garbage'");
  weir_backend_close(b);
}
END_TEST

/* The built-in programs follow the ABI they document. */
START_TEST(builtins_pass_the_checks) {
  for (size_t i = 0; i < weir_builtin_program_count(); ++i) {
    const weir_program *p = weir_builtin_program_at(i);
    weir_status st = weir_program_check_spirv(p);
    ck_assert_msg(st == WEIR_OK, "%s: %s", p->name, weir_last_error());
  }
}
END_TEST

/* Host code from a shared library and the manifest naming SPIR-V and host
 * code: one program, both formats, layout checked, run on cpu. */
START_TEST(manifest_and_host_library) {
  weir_program *p = NULL;
  FAILS(weir_program_from_host_library(HOST_LIB, "scale_u32_host", NULL, &p),
        WEIR_ERR_INVALID_ARGUMENT);
  HAS("carries no layout");
  FAILS(weir_program_from_host_library(HOST_LIB, "missing_symbol", NULL, &p), WEIR_ERR_INVALID_ARGUMENT);
  HAS("missing_symbol");
  OK(weir_program_load(MANIFEST, NULL, NULL, &p));
  ck_assert_str_eq(p->name, "scale_u32");
  ck_assert(weir_program_has_format(p, WEIR_FORMAT_HOST));
  ck_assert(weir_program_has_format(p, WEIR_FORMAT_SPIRV));
  ck_assert_uint_eq(p->workgroup_size[0], 64);
  weir_backend *b;
  OK(weir_backend_open("cpu", &b));
  uint32_t data[1000], push[2] = {3, 1000};
  for (uint32_t i = 0; i < 1000; ++i) data[i] = i;
  weir_buffer buf;
  OK(weir_allocate(b, sizeof data, &buf));
  OK(weir_upload(b, buf, data, sizeof data));
  OK(weir_dispatch(b, p, &buf, 1, (weir_grid){0, 0, 0}, push, sizeof push));
  OK(weir_download_into(b, buf, data, sizeof data));
  for (uint32_t i = 0; i < 1000; ++i) ck_assert_uint_eq(data[i], 3 * i);
  weir_backend_close(b);
  weir_program_free(p);
  /* The caller's declaration is checked against the manifest's. */
  weir_program_decl d = {.declared = WEIR_DECL_PUSH, .push_constant_bytes = 12};
  FAILS(weir_program_load(MANIFEST, NULL, &d, &p), WEIR_ERR_PARSE);
  HAS("'push 8' contradicts");
  /* A .spv by path is reflected; an unknown extension is refused. */
  OK(weir_program_load(SPV_DIR "/scale_u32.spv", NULL, NULL, &p));
  ck_assert_str_eq(p->name, "scale_u32");
  weir_program_free(p);
  FAILS(weir_program_load(SPV_DIR "/scale_u32.txt", NULL, NULL, &p), WEIR_ERR_INVALID_ARGUMENT);
}
END_TEST

/* PTX and cubin are checked for their shape; the layout must be declared. */
START_TEST(cuda_images) {
  static const char ptx[] = ".version 7.0\n.target sm_50\n.visible .entry scale_u32(.param .u64 a)\n{ ret; }\n";
  weir_program *p = NULL;
  weir_program_decl d = {.declared = WEIR_DECL_BINDINGS | WEIR_DECL_PUSH, .binding_count = 1,
                         .push_constant_bytes = 8};
  OK(weir_program_from_ptx(ptx, sizeof ptx - 1, "scale_u32", &d, &p));
  ck_assert(weir_program_has_format(p, WEIR_FORMAT_CUDA));
  ck_assert_str_eq(p->cuda_entry, "scale_u32");
  ck_assert_uint_eq(p->cuda_image_bytes, sizeof ptx); /* with its NUL */
  weir_program_free(p);
  FAILS(weir_program_from_ptx(ptx, sizeof ptx - 1, "other", &d, &p), WEIR_ERR_INVALID_ARGUMENT);
  HAS(".entry other");
  FAILS(weir_program_from_ptx(ptx, sizeof ptx - 1, "scale_u32", NULL, &p), WEIR_ERR_INVALID_ARGUMENT);
  HAS("carries no layout");
  static const unsigned char not_elf[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  FAILS(weir_program_from_cubin(not_elf, sizeof not_elf, "k", &d, &p), WEIR_ERR_INVALID_ARGUMENT);
  HAS("neither a cubin");
}
END_TEST

int main(void) {
  Suite *s = suite_create("programs");
  TCase *tc = tcase_create("files");
  tcase_add_test(tc, reflect_good_module);
  tcase_add_test(tc, program_from_good_module);
  tcase_add_test(tc, hard_coded_local_size_refused);
  tcase_add_test(tc, layout_mismatches_refused);
  tcase_add_test(tc, garbage_refused_at_registration);
  tcase_add_test(tc, builtins_pass_the_checks);
  tcase_add_test(tc, manifest_and_host_library);
  tcase_add_test(tc, cuda_images);
  suite_add_tcase(s, tc);
  return weir_check_run(srunner_create(s));
}
