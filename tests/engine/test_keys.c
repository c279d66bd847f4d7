/* 32-bit keys in the path-edge log and table where node bits + 2 fact bits
 * fit (one device, every program format: host, CUDA, SPIR-V): the same result
 * as with 64-bit keys, in half the log and table bytes and smaller lists
 * (contexts and incoming entries hold keys too); 64-bit keys where
 * they do not fit and when asked for. */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "tests/check_run.h"
#include "tests/engine/engine_check.h"

static weir_ifds_problem *generated(uint32_t procs, uint32_t facts) {
  weir_ifds_gen_options o = {.preset = WEIR_IFDS_PRESET_REALISTIC, .procs = procs,
                             .nodes_per_proc = 20, .facts = facts, .seeds = 4, .seed = 7};
  weir_ifds_problem *pb = NULL;
  ck_assert_msg(weir_ifds_generate_problem(&o, &pb) == WEIR_OK, "%s", weir_last_error());
  return pb;
}

static void solve(weir_backend *b, const weir_ifds_problem *pb, int wide, weir_ifds_stats *st) {
  weir_ifds_engine_options o = {.struct_size = sizeof o, .wide_keys = wide};
  char why[512];
  ck_assert_msg(engine_matches_reference(b, pb, &o, st, why, sizeof why), "%s%s: %s",
                weir_backend_id(b), wide ? " (64-bit keys)" : "", why);
  ck_assert_uint_gt(st->path_edges, 1000);
}

/* 300 procs x 20 nodes (13 bits), 16 facts (4 bits): 21 bits, 32-bit keys;
 * 2^15 facts: 43 bits, 64-bit keys whatever the option says. */
START_TEST(keys_take_32_bits_where_they_fit) {
  weir_backend *backends[ENGINE_MAX_BACKENDS];
  size_t nb = engine_open_backends(backends, ENGINE_MAX_BACKENDS);
  ck_assert_uint_ge(nb, 1);
  weir_ifds_problem *small = generated(300, 16), *wide_facts = generated(40, 1u << 15);
  for (size_t i = 0; i < nb; ++i) {
    weir_ifds_stats k32 = WEIR_IFDS_STATS_INIT, k64 = WEIR_IFDS_STATS_INIT;
    solve(backends[i], small, 0, &k32);
    solve(backends[i], small, 1, &k64);
    /* The same capacities and growth: exactly half the bytes, or the same. */
    ck_assert_uint_eq(k32.path_edges, k64.path_edges);
    ck_assert_uint_eq(2u * k32.log_bytes, k64.log_bytes);
    ck_assert_uint_eq(2u * k32.table_bytes, k64.table_bytes);
    /* Contexts and incoming callers take 4 bytes instead of 8 too (their
     * heads, links and the end summaries do not shrink). */
    ck_assert_uint_lt(k32.list_bytes, k64.list_bytes);
    ck_assert_uint_gt(2u * k32.list_bytes, k64.list_bytes);
    weir_ifds_stats a = WEIR_IFDS_STATS_INIT, b = WEIR_IFDS_STATS_INIT;
    solve(backends[i], wide_facts, 0, &a);
    solve(backends[i], wide_facts, 1, &b);
    ck_assert_uint_eq(a.log_bytes, b.log_bytes);
    ck_assert_uint_eq(a.table_bytes, b.table_bytes);
  }
  weir_ifds_problem_free(small);
  weir_ifds_problem_free(wide_facts);
  engine_close_backends(backends, nb);
}
END_TEST

int main(void) {
  if (engine_requested_backends_missing()) return 77; /* CTest: skipped */
  Suite *s = suite_create("engine-keys");
  TCase *tc = tcase_create("keys");
  tcase_set_timeout(tc, 300);
  tcase_add_test(tc, keys_take_32_bits_where_they_fit);
  suite_add_tcase(s, tc);
  SRunner *r = srunner_create(s);
  return weir_check_run(r);
}
