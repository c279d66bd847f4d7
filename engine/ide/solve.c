/* weir_ide_solve_reference: sets up the solver (solver.h), runs its two
 * phases, and frees it; the result and its writer. */
#include <stdlib.h>
#include <string.h>

#include "engine/core/struct_size.h"
#include "engine/ide/parts.h"
#include "engine/ide/solver.h"

static void solver_free(ide_solver *s) {
  ifds_map *maps[] = {&s->nf_of, &s->pe_of, &s->entered, &s->incoming, &s->end_sum};
  for (size_t i = 0; i < sizeof maps / sizeof maps[0]; ++i) ifds_map_free(maps[i]);
  ifds_vec *vecs[] = {&s->nf_node, &s->nf_fact, &s->nf_first, &s->pe_nf,   &s->pe_d1,
                      &s->pe_next, &s->pe_queued, &s->work,   &s->in_k,    &s->in_d2,
                      &s->in_next, &s->es_pe,   &s->es_next,  &s->a,       &s->b};
  for (size_t i = 0; i < sizeof vecs / sizeof vecs[0]; ++i) ifds_vec_free(vecs[i]);
  free(s->jf);
  free(s->callee_call);
}

weir_status weir_ide_solve_reference(const weir_ide_problem *problem, weir_ide_result *out,
                                     weir_ide_stats *stats) {
  if (out) memset(out, 0, sizeof *out); /* zeroed on every path: result_free is always safe */
  if (!problem || !problem->ifds || !out)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "weir_ide_solve_reference: problem or out is NULL. Fix: pass a loaded or "
                     "built problem and a result to fill.");
  size_t stats_bytes = 0;
  if (stats)
    WEIR_TRY(weir_struct_out_size("weir_ide_solve_reference", "weir_ide_stats", stats,
                                  WEIR_IDE_STATS_SIZE_V1, sizeof *stats, &stats_bytes));
  ide_solver s;
  memset(&s, 0, sizeof s);
  s.p = problem;
  s.g = problem->ifds;
  uint32_t K = s.g->callee_offset[s.g->call_count];
  s.callee_call = malloc((K ? K : 1) * sizeof *s.callee_call);
  weir_status st = s.callee_call ? WEIR_OK
                                 : weir_fail(WEIR_ERR_OUT_OF_MEMORY, "allocating %u callee entries "
                                             "failed. Fix: free memory.", K);
  for (uint32_t c = 0; st == WEIR_OK && c < s.g->call_count; ++c)
    for (uint32_t k = s.g->callee_offset[c]; k < s.g->callee_offset[c + 1]; ++k) s.callee_call[k] = c;
  if (st == WEIR_OK) st = ide_phase1(&s);
  if (st == WEIR_OK) st = ide_phase2(&s, out);
  if (st != WEIR_OK) weir_ide_result_free(out);
  s.stats.struct_size = sizeof s.stats;
  if (stats) weir_struct_out_copy(stats, &s.stats, stats_bytes, sizeof *stats);
  solver_free(&s);
  return st;
}

void weir_ide_result_free(weir_ide_result *r) {
  if (!r) return;
  free(r->hold_node);
  free(r->hold_fact);
  free(r->value);
  memset(r, 0, sizeof *r);
}

weir_status weir_ide_write_result(const weir_ide_problem *p, const weir_ide_result *r, FILE *out) {
  if (!p || !r || !out)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT, "weir_ide_write_result: an argument is NULL. Fix: "
                     "pass the problem, its result and an open file.");
  ifds_out o;
  ifds_out_init(&o, out);
  ifds_out_str(&o, "weir-ide-result 1\npath-edges ");
  ifds_out_u64(&o, r->path_edges);
  ifds_out_str(&o, "\nholds ");
  ifds_out_u64(&o, r->hold_count);
  ifds_out_char(&o, '\n');
  char value[WEIR_IDE_VALUE_TEXT_MAX];
  for (uint64_t i = 0; i < r->hold_count; ++i) {
    ifds_out_u64(&o, r->hold_node[i]);
    ifds_out_char(&o, ' ');
    ifds_out_u64(&o, r->hold_fact[i]);
    ifds_out_char(&o, ' ');
    weir_ide_format_value(p, &r->value[i], value, sizeof value);
    ifds_out_str(&o, value);
    ifds_out_char(&o, '\n');
  }
  return ifds_out_finish(&o, "the IDE result");
}
