/* The generator's shape parameters: each preset (gen_presets.c) is a set of
 * them, and one writer (gen.c) turns them into a problem. */
#ifndef WEIR_ENGINE_IFDS_GEN_H
#define WEIR_ENGINE_IFDS_GEN_H

#include "weir/ifds_gen.h"

typedef enum ifds_callee_mode {
  IFDS_CALLEES_CHAIN,     /* i calls i+1 */
  IFDS_CALLEES_FANOUT,    /* main calls everyone (one indirect call), all call the last */
  IFDS_CALLEES_RECURSIVE, /* i calls i+1 mod P; extra calls to itself or i-1 */
  IFDS_CALLEES_FORWARD    /* a call tree over the reachable procedures, plus random calls */
} ifds_callee_mode;

typedef struct ifds_gen_params {
  ifds_callee_mode mode;
  uint32_t size_jitter;       /* 1: sizes vary around nodes_per_proc */
  uint32_t big_permille;      /* procedures 10x the average size */
  uint32_t call_permille;     /* non-exit nodes that are call nodes (besides required ones) */
  uint32_t indirect_permille; /* calls with 2..max_indirect callees */
  uint32_t max_indirect;
  uint32_t branch_permille;      /* extra forward edges */
  uint32_t loop_permille;        /* back edges (loops) */
  uint32_t unreachable_permille; /* procedures never called */
  /* edge flows (the rest are `id`) */
  uint32_t none_permille, gen_permille, kill_permille, move_permille, block_permille;
  uint32_t block_pairs;          /* pairs of a block flow (wide-facts) */
  uint32_t id_callflow_permille; /* call flows passing every fact */
  uint32_t fact_window;          /* facts a flow names are drawn from 1..window (0: all) */
} ifds_gen_params;

/* The parameters of a preset (options already completed with defaults). */
void ifds_gen_params_of(const weir_ifds_gen_options *options, ifds_gen_params *params);

#endif
