/* Phase 0's path edges into the reference solver's own structures (the
 * (node, fact) pairs with their lists of path edges, the path-edge map and
 * the end summaries), so that the rules can look path edges up and phase 2
 * (values.c) runs unchanged on the device's jump functions. */
#include <stdlib.h>

#include "engine/ide/engine.h"

static weir_status push_end_summary(ide_solver *s, uint32_t q, uint32_t d1, uint32_t pe) {
  uint32_t *slot;
  int added;
  WEIR_TRY(ifds_map_upsert(&s->end_sum, ifds_key(q, d1), IDE_NIL, &slot, &added));
  uint32_t head = *slot, at = (uint32_t)s->es_pe.len;
  *slot = at; /* no insertion since the upsert: the slot is still valid */
  WEIR_TRY(ifds_vec_push(&s->es_pe, pe));
  return ifds_vec_push(&s->es_next, head);
}

static weir_status add(ide_solver *s, uint32_t d1, uint32_t n, uint32_t d2) {
  uint32_t *slot;
  int added;
  WEIR_TRY(ifds_map_upsert(&s->nf_of, ifds_key(n, d2), (uint32_t)s->nf_node.len, &slot, &added));
  uint32_t nf = *slot, pe = (uint32_t)s->pe_nf.len;
  if (added) {
    WEIR_TRY(ifds_vec_push(&s->nf_node, n));
    WEIR_TRY(ifds_vec_push(&s->nf_fact, d2));
    WEIR_TRY(ifds_vec_push(&s->nf_first, IDE_NIL));
  }
  WEIR_TRY(ifds_map_upsert(&s->pe_of, ifds_key(nf, d1), pe, &slot, &added));
  if (!added)
    return weir_fail(WEIR_ERR_INTERNAL, "IDE engine: the IFDS engine's log holds path edge (%u, "
                     "%u, %u) twice. Fix: report this bug; use the reference solver (weir ide "
                     "without --backend).", d1, n, d2);
  WEIR_TRY(ifds_vec_push(&s->pe_d1, d1));
  WEIR_TRY(ifds_vec_push(&s->pe_next, s->nf_first.data[nf]));
  s->nf_first.data[nf] = pe;
  WEIR_TRY(ifds_vec_push(&s->pe_nf, nf));
  uint32_t q = s->g->node_proc[n];
  if (n == s->g->proc_last[q]) WEIR_TRY(push_end_summary(s, q, d1, pe));
  return WEIR_OK;
}

weir_status ide_engine_index(ide_solver *s, const ifds_path_edges *edges) {
  for (uint64_t i = 0; i < edges->count; ++i)
    WEIR_TRY(add(s, edges->d1[i], edges->node[i], edges->d2[i]));
  return WEIR_OK;
}
