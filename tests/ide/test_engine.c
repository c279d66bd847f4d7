/* The resident IDE engine (weir_ide_solve_engine) against the reference:
 * generated problems of both families (the library's generator, every
 * preset, and the test generator's random ones), byte for byte, on cpu and
 * vulkan (WEIR_TEST_BACKENDS); the micro problems go through it in
 * util.c. Plus its refusals: NULL arguments, a relation past the binding
 * limit. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/ide/engine_check.h"
#include "tests/ide/gen.h"

static void check_generated(weir_backend *const *b, size_t n, weir_ifds_preset preset, uint32_t procs, weir_ide_family family,
                            uint32_t states, uint64_t seed) {
  weir_ifds_gen_options o = {.preset = preset, .procs = procs, .seed = seed};
  weir_ide_problem *p = NULL;
  ck_assert_msg(weir_ide_generate_problem(&o, family, states, &p) == WEIR_OK, "%s",
                weir_last_error());
  char what[96];
  snprintf(what, sizeof what, "preset %d, %u procs, family %d, seed %llu", (int)preset, procs,
           (int)family, (unsigned long long)seed);
  ide_engine_check(b, n, p, what);
  weir_ide_problem_free(p);
}

/* Each test opens its backends once (a lavapipe backend compiles its
 * pipelines per instance). */
#define WITH_BACKENDS(BODY)                                          \
  do {                                                               \
    weir_backend *b[IDE_ENGINE_MAX_BACKENDS];                        \
    size_t n = ide_engine_backends(NULL, b, IDE_ENGINE_MAX_BACKENDS); \
    BODY;                                                            \
    for (size_t i = 0; i < n; ++i) weir_backend_close(b[i]);         \
  } while (0)

START_TEST(generated_presets_linear) {
  WITH_BACKENDS(for (int preset = 0; preset < WEIR_IFDS_PRESET_COUNT; ++preset)
                  for (uint64_t seed = 1; seed <= 2; ++seed)
                    check_generated(b, n, (weir_ifds_preset)preset, 24, WEIR_IDE_LINEAR, 0, seed));
}
END_TEST

START_TEST(generated_presets_typestate) {
  WITH_BACKENDS(for (int preset = 0; preset < WEIR_IFDS_PRESET_COUNT; ++preset)
                  for (uint64_t seed = 1; seed <= 2; ++seed)
                    check_generated(b, n, (weir_ifds_preset)preset, 24, WEIR_IDE_TYPESTATE,
                                    seed == 1 ? 4 : 32, seed));
}
END_TEST

/* The test generator's random problems (recursion, loops, dense functions). */
START_TEST(generated_random) {
  WITH_BACKENDS(for (uint64_t seed = 1; seed <= 30; ++seed) {
    weir_ide_family family = seed % 2 ? WEIR_IDE_LINEAR : WEIR_IDE_TYPESTATE;
    weir_ide_problem *p = ide_test_generate(family, seed);
    char what[64];
    snprintf(what, sizeof what, "random problem, seed %llu", (unsigned long long)seed);
    ide_engine_check(b, n, p, what);
    weir_ide_problem_free(p);
  });
}
END_TEST

static weir_ide_problem *example(const char *name) {
  char path[512];
  snprintf(path, sizeof path, "%s/%s", WEIR_IDE_EXAMPLES_DIR, name);
  weir_ide_problem *p = NULL;
  ck_assert_msg(weir_ide_load_file(path, &p) == WEIR_OK, "%s", weir_last_error());
  return p;
}

START_TEST(examples) {
  const char *names[] = {"lcp.ide", "files.ide"};
  for (size_t i = 0; i < 2; ++i) {
    weir_ide_problem *p = example(names[i]);
    ide_engine_check_here(p, NULL, names[i]);
    weir_ide_problem_free(p);
  }
}
END_TEST

START_TEST(null_arguments) {
  weir_backend *b = NULL;
  ck_assert_int_eq(weir_backend_open("cpu", &b), WEIR_OK);
  weir_ide_problem *p = example("lcp.ide");
  weir_ide_result r;
  ck_assert_int_eq(weir_ide_solve_engine(NULL, p, NULL, &r, NULL), WEIR_ERR_INVALID_ARGUMENT);
  ck_assert_ptr_nonnull(strstr(weir_last_error(), "Fix:"));
  ck_assert_ptr_null(r.hold_node); /* zeroed: result_free is safe */
  ck_assert_int_eq(weir_ide_solve_engine(b, NULL, NULL, &r, NULL), WEIR_ERR_INVALID_ARGUMENT);
  ck_assert_int_eq(weir_ide_solve_engine(b, p, NULL, NULL, NULL), WEIR_ERR_INVALID_ARGUMENT);
  weir_ide_stats small = {.struct_size = 8};
  ck_assert_int_eq(weir_ide_solve_engine(b, p, NULL, &r, &small), WEIR_ERR_INVALID_ARGUMENT);
  weir_ide_result_free(&r);
  weir_ide_problem_free(p);
  weir_backend_close(b);
}
END_TEST

/* The engine does not shard: a buffer past the binding limit is refused by
 * name, with a Fix, and nothing leaks (ASan). The limit lets phase 0 (which
 * shards) through, but not 32-state jump functions of ~1,000 path edges. */
START_TEST(binding_limit_refused) {
  weir_open_options o = WEIR_OPEN_OPTIONS_INIT;
  o.max_binding_bytes = 16384;
  weir_backend *b = NULL;
  ck_assert_int_eq(weir_backend_open_ex("cpu", &o, &b), WEIR_OK);
  weir_ifds_gen_options g = {.preset = WEIR_IFDS_PRESET_REALISTIC, .procs = 24, .seed = 1};
  weir_ide_problem *p = NULL;
  ck_assert_int_eq(weir_ide_generate_problem(&g, WEIR_IDE_TYPESTATE, 32, &p), WEIR_OK);
  weir_ide_result r;
  weir_status s = weir_ide_solve_engine(b, p, NULL, &r, NULL);
  ck_assert_msg(s == WEIR_ERR_UNSUPPORTED, "%d: %s", (int)s, weir_last_error());
  ck_assert_ptr_nonnull(strstr(weir_last_error(), "does not split its relations"));
  ck_assert_ptr_nonnull(strstr(weir_last_error(), "Fix: "));
  ck_assert_ptr_null(r.hold_node);
  weir_ide_problem_free(p);
  weir_backend_close(b);
}
END_TEST

Suite *ide_engine_suite(void) {
  Suite *s = suite_create("ide_engine");
  TCase *t = tcase_create("engine");
  tcase_set_timeout(t, 600);
  tcase_add_test(t, generated_presets_linear);
  tcase_add_test(t, generated_presets_typestate);
  tcase_add_test(t, generated_random);
  tcase_add_test(t, examples);
  tcase_add_test(t, null_arguments);
  tcase_add_test(t, binding_limit_refused);
  suite_add_tcase(s, t);
  return s;
}
