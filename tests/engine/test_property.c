/* Property test: generated problems of every preset and small sizes, solved
 * by the engine on every available backend, give the reference solver's
 * result byte for byte. Every other problem also starts from tiny
 * capacities and one-iteration windows, so growth, rebuild and window
 * adaptation are exercised across all presets; half of each kind run with
 * per-item appends (SPIR-V: the programs without subgroup operations), a
 * third with 64-bit keys where 32-bit ones fit. */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "tests/engine/engine_check.h"
#include "tests/check_run.h"

#define SEEDS_PER_PRESET 36

static uint32_t mix(uint64_t *s) {
  *s = *s * 6364136223846793005ull + 1442695040888963407ull;
  return (uint32_t)(*s >> 33);
}

static void sizes_for(weir_ifds_preset preset, uint64_t seed, weir_ifds_gen_options *o) {
  uint64_t s = seed * 7919u + (uint64_t)preset;
  memset(o, 0, sizeof *o);
  o->preset = preset;
  o->seed = seed;
  o->procs = 1u + mix(&s) % 12u;
  o->nodes_per_proc = 2u + mix(&s) % 9u;
  o->facts = 1u + mix(&s) % (preset == WEIR_IFDS_PRESET_WIDE_FACTS ? 48u : 10u);
  o->seeds = 1u + mix(&s) % 3u;
}

START_TEST(property_engine_matches_reference) {
  weir_backend *backends[ENGINE_MAX_BACKENDS];
  size_t nb = engine_open_backends(backends, ENGINE_MAX_BACKENDS);
  ck_assert_uint_ge(nb, 1);
  int failures = 0, solved = 0;
  uint64_t growths = 0;
  for (int p = 0; p < WEIR_IFDS_PRESET_COUNT; ++p) {
    for (uint64_t seed = 1; seed <= SEEDS_PER_PRESET; ++seed) {
      weir_ifds_gen_options o;
      sizes_for((weir_ifds_preset)p, seed, &o);
      char cmd[256];
      engine_gen_command(&o, cmd, sizeof cmd);
      weir_ifds_problem *problem = NULL;
      if (weir_ifds_generate_problem(&o, &problem) != WEIR_OK) {
        fprintf(stderr, "FAIL generate: %s\n  reproduce: %s\n", weir_last_error(), cmd);
        failures++;
        continue;
      }
      /* Half the problems (odd seeds) start tiny; half run the SPIR-V
       * programs with one atomic per append (the fallback for devices
       * without subgroup ballots); a third keep 64-bit keys where 32 bits
       * would do. */
      weir_ifds_engine_options eo = {.struct_size = sizeof eo, .per_item_appends = seed % 4u >= 2u,
                                    .wide_keys = seed % 3u == 0u};
      if (seed % 2u) {
        eo.initial_table_capacity = 8;
        eo.initial_frontier_capacity = 4;
        eo.initial_window = 1;
      }
      for (size_t b = 0; b < nb; ++b) {
        char why[512];
        weir_ifds_stats stats = WEIR_IFDS_STATS_INIT;
        const weir_ifds_engine_options *opt = seed % 12u == 4u ? NULL : &eo; /* NULL: defaults */
        if (!engine_matches_reference(backends[b], problem, opt, &stats, why, sizeof why)) {
          fprintf(stderr, "FAIL on %s%s%s%s: %s\n  reproduce: %s > p.ifds && weir solve p.ifds "
                  "--solver engine --backend %s\n", weir_backend_id(backends[b]),
                  seed % 2u ? " (tiny capacities)" : "", eo.per_item_appends ? " (per-item appends)" : "",
                  eo.wide_keys ? " (64-bit keys)" : "", why, cmd, weir_backend_id(backends[b]));
          failures++;
        } else {
          solved++;
          growths += stats.growths;
          ck_assert_uint_le(stats.host_syncs, stats.windows + 5u);
        }
      }
      weir_ifds_problem_free(problem);
    }
  }
  engine_close_backends(backends, nb);
  ck_assert_int_eq(failures, 0);
  ck_assert_uint_gt(growths, 0); /* the tiny-capacity half did grow */
  ck_assert_int_eq(solved, (int)(nb * WEIR_IFDS_PRESET_COUNT * SEEDS_PER_PRESET));
}
END_TEST

int main(void) {
  if (engine_requested_backends_missing()) return 77; /* CTest: skipped */
  Suite *s = suite_create("engine-property");
  TCase *tc = tcase_create("property");
  tcase_set_timeout(tc, 600);
  tcase_add_test(tc, property_engine_matches_reference);
  suite_add_tcase(s, tc);
  SRunner *r = srunner_create(s);
  return weir_check_run(r);
}
