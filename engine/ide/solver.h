/* The state of the serial reference IDE solver, shared by its two phases:
 * reference.c (phase 1: a jump function per path edge) and values.c
 * (phase 2: values at nodes, the result). */
#ifndef WEIR_ENGINE_IDE_SOLVER_H
#define WEIR_ENGINE_IDE_SOLVER_H

#include "engine/ide/fn.h"
#include "engine/ifds/internal.h"
#include "engine/ifds/tables.h"

#define IDE_NIL UINT32_MAX

typedef struct ide_solver {
  const weir_ide_problem *p;
  const weir_ifds_problem *g; /* p->ifds */
  uint32_t *callee_call;      /* [K] the call index of each callee entry */

  /* (node, fact) pairs that hold: "nf"s, each with the list of its path edges. */
  ifds_map nf_of;  /* (n, d2) -> nf */
  ifds_vec nf_node, nf_fact, nf_first;
  /* Path edges (d1, n, d2): their nf, context, list link and jump function. */
  ifds_map pe_of; /* (nf, d1) -> path edge */
  ifds_vec pe_nf, pe_d1, pe_next, pe_queued;
  weir_ide_fn *jf;
  size_t jf_cap;

  ifds_vec work;      /* path edges to (re)process */
  ifds_map entered;   /* (callee k, d2 at the call) -> unused: the callee was entered */
  ifds_map incoming;  /* (proc q, d3) -> head of a list of (callee k, d2 at the call) */
  ifds_vec in_k, in_d2, in_next;
  ifds_map end_sum;   /* (proc q, d1) -> head of a list of path edges at q's exit */
  ifds_vec es_pe, es_next;
  ifds_vec a, b;      /* flow targets */
  weir_ide_stats stats;
} ide_solver;

/* Targets of flow f from fact d (the implied 0 -> 0 included). */
weir_status ide_flow_targets(const weir_ifds_flows *fl, uint32_t f, uint32_t d, ifds_vec *out);
/* The function on pair d1 -> d2 of element e of a site kind (identity when
 * none is given). */
const weir_ide_fn *ide_pair_fn(const weir_ide_problem *p, const uint32_t *offsets, uint32_t e,
                               uint32_t d1, uint32_t d2);

/* Phase 1 (reference.c) and phase 2 with the result (values.c). */
weir_status ide_phase1(ide_solver *s);
weir_status ide_phase2(ide_solver *s, weir_ide_result *out);

#endif
