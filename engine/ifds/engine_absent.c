/* Stands in for the resident engine (engine/ifds/engine/, IFDS II) while
 * that folder is not in the tree, so that libweir and `weir solve` link;
 * `weir solve --solver reference` works either way. */
#include "weir/ifds.h"

weir_status weir_ifds_solve_engine(weir_backend *backend, const weir_ifds_problem *problem,
                                   const weir_ifds_engine_options *options, weir_ifds_result *out,
                                   weir_ifds_stats *stats) {
  (void)backend;
  (void)problem;
  (void)options;
  (void)out;
  (void)stats;
  return weir_fail(WEIR_ERR_UNAVAILABLE,
                   "the resident IFDS engine is not built into this weir "
                   "(engine/ifds/engine is missing). Fix: use --solver reference.");
}
