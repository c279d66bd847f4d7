/* Group-aggregated appends (programs/ifds/ifds_sink.h): on every backend
 * the engine gives the reference's result with appends reserved per group
 * and, on SPIR-V, with the per-item fallback; the reserve_atomics stat says
 * how many atomics each took. */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "tests/check_run.h"
#include "tests/engine/engine_check.h"

static weir_ifds_problem *realistic(void) {
  weir_ifds_gen_options o = {.preset = WEIR_IFDS_PRESET_REALISTIC, .procs = 300,
                             .nodes_per_proc = 20, .facts = 16, .seeds = 4, .seed = 5};
  weir_ifds_problem *pb = NULL;
  ck_assert_msg(weir_ifds_generate_problem(&o, &pb) == WEIR_OK, "%s", weir_last_error());
  return pb;
}

static void solve_checked(weir_backend *b, const weir_ifds_problem *pb, int per_item,
                          weir_ifds_stats *st) {
  weir_ifds_engine_options o = {.struct_size = sizeof o, .per_item_appends = per_item};
  char why[512];
  ck_assert_msg(engine_matches_reference(b, pb, &o, st, why, sizeof why), "%s%s: %s",
                weir_backend_id(b), per_item ? " (per-item appends)" : "", why);
  ck_assert_uint_gt(st->path_edges, 1000);
  ck_assert_uint_gt(st->reserve_atomics, 0);
}

START_TEST(appends_are_reserved_per_group) {
  weir_backend *backends[ENGINE_MAX_BACKENDS];
  size_t nb = engine_open_backends(backends, ENGINE_MAX_BACKENDS);
  ck_assert_uint_ge(nb, 1);
  weir_ifds_problem *pb = realistic();
  for (size_t i = 0; i < nb; ++i) {
    weir_ifds_stats grouped = WEIR_IFDS_STATS_INIT, per_item = WEIR_IFDS_STATS_INIT;
    solve_checked(backends[i], pb, 0, &grouped);
    solve_checked(backends[i], pb, 1, &per_item);
    uint64_t appends = per_item.path_edges + per_item.incoming + per_item.end_summaries;
    weir_device_info info = WEIR_DEVICE_INFO_INIT;
    ck_assert(weir_backend_device_info(backends[i], &info) == WEIR_OK);
    fprintf(stderr, "%s: %llu appends, %llu atomics grouped, %llu per item (subgroup ops 0x%x)\n",
            weir_backend_id(backends[i]), (unsigned long long)appends,
            (unsigned long long)grouped.reserve_atomics,
            (unsigned long long)per_item.reserve_atomics, info.subgroup_ops);
    if (weir_backend_format(backends[i]) == WEIR_FORMAT_HOST) {
      /* Workgroup batches: far fewer atomics than appends, either way. */
      ck_assert_uint_eq(info.subgroup_ops, 0);
      ck_assert_uint_lt(4u * grouped.reserve_atomics, appends);
      ck_assert_uint_lt(4u * per_item.reserve_atomics, appends);
    } else if (weir_backend_format(backends[i]) == WEIR_FORMAT_SPIRV) {
      /* One atomic per append (a rolled-back iteration only adds), and
       * fewer per subgroup where the device has ballots. */
      ck_assert_uint_ge(per_item.reserve_atomics, appends);
      if (info.subgroup_ops & WEIR_SUBGROUP_BALLOT) {
        ck_assert_uint_gt(info.subgroup_size, 1);
        ck_assert_uint_lt(grouped.reserve_atomics, per_item.reserve_atomics);
      }
    }
  }
  weir_ifds_problem_free(pb);
  engine_close_backends(backends, nb);
}
END_TEST

int main(void) {
  if (engine_requested_backends_missing()) return 77; /* CTest: skipped */
  Suite *s = suite_create("engine-appends");
  TCase *tc = tcase_create("appends");
  tcase_set_timeout(tc, 300);
  tcase_add_test(tc, appends_are_reserved_per_group);
  suite_add_tcase(s, tc);
  SRunner *r = srunner_create(s);
  return weir_check_run(r);
}
