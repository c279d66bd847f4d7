/* Solving a typestate problem: the IDE reference solver, then each check
 * keeps only the facts whose value (set of states) at its node has a state
 * in which the call is the error; the holds become an IFDS result so that
 * findings, code flows and SARIF are the other analyses'. */
#include <stdlib.h>
#include <string.h>

#include "frontends/llvm/analyses/typestate/spec.h"
#include "frontends/llvm/internal.h"
#include "weir/ide.h"

/* Facts past which typestate refuses (see weir_llvm_typestate_solve). */
#define WEIR_TS_FACT_BUDGET 4096u

/* The states of (node, fact) in the result (sorted by node, fact); 0: none. */
static uint32_t states_at(const weir_ide_result *r, uint32_t node, uint32_t fact) {
  uint64_t lo = 0, hi = r->hold_count;
  while (lo < hi) {
    uint64_t mid = lo + (hi - lo) / 2;
    if (r->hold_node[mid] < node || (r->hold_node[mid] == node && r->hold_fact[mid] < fact)) lo = mid + 1;
    else hi = mid;
  }
  if (lo < r->hold_count && r->hold_node[lo] == node && r->hold_fact[lo] == fact) return r->value[lo].states;
  return 0;
}

static void arm_checks(weir_llvm_problem *problem, const weir_ide_result *r) {
  size_t kept = 0;
  for (size_t c = 0; c < problem->check_count; ++c) {
    weir_llvm_check check = problem->checks[c];
    uint32_t live = 0;
    for (uint32_t k = 0; k < check.fact_count; ++k) {
      uint32_t f = problem->check_facts.v[check.fact_first + k];
      if (!check.states || (states_at(r, check.node, f) & check.states))
        problem->check_facts.v[check.fact_first + live++] = f;
    }
    check.fact_count = live;
    if (live) problem->checks[kept++] = check;
    else free(check.message);
  }
  problem->check_count = kept;
}

weir_status weir_llvm_typestate_solve(weir_llvm_problem *problem, weir_backend *backend, weir_ifds_result *out) {
  memset(out, 0, sizeof *out);
  if (!problem || !problem->ide)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT, "typestate: no IDE problem was built. Fix: build with the "
                     "typestate analysis and a --spec");
  /* Facts exist only where a created resource can be (origin.c), callees
   * that never act on one are passed by, and the places behind vague
   * pointers share one fact: the real programs of bench/analyze make a few
   * hundred facts. What is left past the budget would take the serial
   * IDE solver minutes and gigabytes (ovsdb-server made 11,622 facts
   * before the demand filter, > 5 min and 8.6 GB): refuse, don't hang. */
  const weir_ifds_problem *g = problem->ide->ifds;
  if (g->fact_count > WEIR_TS_FACT_BUDGET)
    return weir_fail(WEIR_ERR_UNSUPPORTED,
                     "typestate: the resources the spec creates can be in %u places (facts; %u nodes), more than "
                     "the %u the serial IDE solver of this version takes in reasonable time and memory. Fix: "
                     "analyse fewer modules at once, or keep only the create lines of the calls you want checked",
                     g->fact_count, g->node_count, WEIR_TS_FACT_BUDGET);
  weir_ide_result r;
  WEIR_TRY(backend ? weir_ide_solve_engine(backend, problem->ide, NULL, &r, NULL)
                   : weir_ide_solve_reference(problem->ide, &r, NULL));
  arm_checks(problem, &r);
  out->path_edges = r.path_edges;
  out->hold_count = r.hold_count;
  out->hold_node = r.hold_node, out->hold_fact = r.hold_fact; /* handed over */
  r.hold_node = r.hold_fact = NULL;
  weir_ide_result_free(&r);
  return WEIR_OK;
}
