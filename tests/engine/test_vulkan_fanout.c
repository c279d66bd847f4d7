/* Regression: the engine on Vulkan (lavapipe in CI) on a fanout problem
 * whose one callee has ~7,400 call sites. lavapipe ends every loop of a
 * shader invocation once all its loops together ran 65,535 iterations, so
 * the exit edge that walks ~7,400 incoming entries used to lose ~1% of the
 * path edges, silently and differently from run to run. The GLSL kernels
 * now detect the cut and the engine redoes the iteration with the long loops
 * split over more passes (programs/glsl/ifds_common.glsl, window.c). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>

#include "tests/engine/engine_check.h"
#include "tests/check_run.h"

static weir_ifds_problem *fanout(uint32_t procs) {
  weir_ifds_gen_options o;
  weir_ifds_gen_defaults(&o);
  o.preset = WEIR_IFDS_PRESET_FANOUT;
  o.procs = procs;
  o.nodes_per_proc = 8;
  o.facts = 16;
  o.seeds = 1;
  o.seed = 1;
  weir_ifds_problem *pb = NULL;
  ck_assert_msg(weir_ifds_generate_problem(&o, &pb) == WEIR_OK, "%s", weir_last_error());
  return pb;
}

START_TEST(fanout_5000_matches_reference) {
  weir_backend *vk = NULL;
  ck_assert_msg(weir_backend_open("vulkan", &vk) == WEIR_OK, "%s", weir_last_error());
  weir_ifds_problem *pb = fanout(5000);
  char why[512];
  weir_ifds_stats st = WEIR_IFDS_STATS_INIT;
  ck_assert_msg(engine_matches_reference(vk, pb, NULL, &st, why, sizeof why), "%s", why);
  ck_assert_uint_eq(st.path_edges, 72176); /* what `weir solve --solver reference` finds */
  weir_ifds_problem_free(pb);
  weir_backend_close(vk);
}
END_TEST

int main(void) {
  setenv("WEIR_TEST_BACKENDS", "vulkan", 0);
  if (engine_requested_backends_missing()) return 77; /* CTest: skipped */
  Suite *s = suite_create("engine-vulkan-fanout");
  TCase *tc = tcase_create("fanout");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, fanout_5000_matches_reference);
  suite_add_tcase(s, tc);
  SRunner *r = srunner_create(s);
  return weir_check_run(r);
}
