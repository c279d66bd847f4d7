/* weir_ide_solve_engine: phase 0 (the IFDS engine's path edges), the rule
 * join (engine_rules.c), phase 1 on the device (engine_device.c), phase 2
 * (values.c), and the figures. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/core/struct_size.h"
#include "engine/ide/engine_device.h"

static double now_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void solver_free(ide_solver *s) {
  ifds_map *maps[] = {&s->nf_of, &s->pe_of, &s->end_sum};
  for (size_t i = 0; i < sizeof maps / sizeof maps[0]; ++i) ifds_map_free(maps[i]);
  ifds_vec *vecs[] = {&s->nf_node, &s->nf_fact, &s->nf_first, &s->pe_nf, &s->pe_d1,
                      &s->pe_next, &s->es_pe,   &s->es_next,  &s->a,     &s->b};
  for (size_t i = 0; i < sizeof vecs / sizeof vecs[0]; ++i) ifds_vec_free(vecs[i]);
  free(s->jf);
}

static weir_status check_args(weir_backend *backend, const weir_ide_problem *p,
                              const weir_ide_result *out) {
  if (!backend || !p || !p->ifds || !out)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT, "weir_ide_solve_engine: backend, problem or out "
                     "is NULL. Fix: open a backend, load or build a problem, pass a result to fill.");
  return WEIR_OK;
}

/* The phases after phase 0, with their times and figures in *st. */
static weir_status phases(weir_backend *b, const weir_ide_problem *p, const ifds_path_edges *edges,
                          weir_ide_result *out, weir_ide_stats *st) {
  ide_solver s;
  memset(&s, 0, sizeof s);
  s.p = p;
  s.g = p->ifds;
  ide_rules rules;
  memset(&rules, 0, sizeof rules);
  ide_device d;
  memset(&d, 0, sizeof d);
  d.backend = b;
  double t0 = now_seconds();
  weir_status rc = ide_engine_index(&s, edges);
  if (rc == WEIR_OK) rc = ide_engine_rules(&s, &rules);
  double t1 = now_seconds();
  if (rc == WEIR_OK) rc = ide_device_solve(&d, &rules, &s);
  double t2 = now_seconds();
  if (rc == WEIR_OK) rc = ide_phase2(&s, out);
  st->seconds_rules = t1 - t0, st->seconds_phase1 = t2 - t1, st->seconds_values = now_seconds() - t2;
  st->rules = rules.count;
  st->windows = d.windows;
  st->iterations = d.ctrl[WEIR_IDE_C_ROUND];
  st->jump_updates = d.ctrl[WEIR_IDE_C_UPDATES];
  st->target_visits = d.ctrl[WEIR_IDE_C_VISITS];
  st->value_iterations = s.stats.value_iterations;
  if (d.bytes > st->peak_resident_bytes) st->peak_resident_bytes = d.bytes;
  ide_rules_free(&rules);
  solver_free(&s);
  return rc;
}

weir_status weir_ide_solve_engine(weir_backend *backend, const weir_ide_problem *problem,
                                  const weir_ifds_engine_options *given, weir_ide_result *out,
                                  weir_ide_stats *stats) {
  if (out) memset(out, 0, sizeof *out); /* zeroed on every path: result_free is always safe */
  WEIR_TRY(check_args(backend, problem, out));
  weir_ifds_engine_options known;
  const weir_ifds_engine_options *options = NULL;
  size_t ifds_stats_bytes = 0, stats_bytes = 0;
  WEIR_TRY(weir_ifds_engine_args_in("weir_ide_solve_engine", given, &known, &options, NULL,
                                    &ifds_stats_bytes));
  if (stats)
    WEIR_TRY(weir_struct_out_size("weir_ide_solve_engine", "weir_ide_stats", stats,
                                  WEIR_IDE_STATS_SIZE_V1, sizeof *stats, &stats_bytes));
  weir_backend_stats before, after;
  weir_backend_get_stats(backend, &before);
  weir_ide_stats all = WEIR_IDE_STATS_INIT;
  weir_ifds_stats ifds = WEIR_IFDS_STATS_INIT;
  ifds_path_edges edges;
  double t0 = now_seconds();
  weir_status st = weir_ifds_engine_path_edges(backend, problem->ifds, options, &edges, &ifds);
  all.seconds_phase0 = now_seconds() - t0;
  all.path_edges = edges.count;
  all.ifds_iterations = ifds.iterations;
  all.ifds_windows = ifds.windows;
  all.peak_resident_bytes = ifds.peak_resident_bytes;
  if (st == WEIR_OK) st = phases(backend, problem, &edges, out, &all);
  weir_ifds_path_edges_free(&edges);
  weir_backend_get_stats(backend, &after);
  all.host_syncs = after.host_syncs - before.host_syncs;
  if (st != WEIR_OK) {
    weir_ide_result_free(out);
    return st;
  }
  if (stats) weir_struct_out_copy(stats, &all, stats_bytes, sizeof all);
  return WEIR_OK;
}
