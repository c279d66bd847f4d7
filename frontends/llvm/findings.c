/* Findings: the candidate checks whose facts hold in a solver's result, and
 * their compiler-style printing. */
#include <stdlib.h>
#include <string.h>

#include "frontends/llvm/internal.h"

static int holds(const weir_ifds_result *r, uint32_t node, uint32_t fact) {
  uint64_t lo = 0, hi = r->hold_count;
  while (lo < hi) {
    uint64_t mid = lo + (hi - lo) / 2;
    if (r->hold_node[mid] < node || (r->hold_node[mid] == node && r->hold_fact[mid] < fact)) lo = mid + 1;
    else hi = mid;
  }
  return lo < r->hold_count && r->hold_node[lo] == node && r->hold_fact[lo] == fact;
}

static weir_llvm_location location(const weir_llvm_loc *loc) {
  weir_llvm_location l = {loc->file, loc->line, loc->column, loc->function, loc->instruction, loc->text};
  return l;
}

/* Source order, like a compiler: file, line, column, then the node. */
static int cmp_finding(const void *a, const void *b) {
  const weir_llvm_finding *x = a, *y = b;
  int c = strcmp(x->where.file, y->where.file);
  if (c) return c;
  if (x->where.line != y->where.line) return x->where.line < y->where.line ? -1 : 1;
  if (x->where.column != y->where.column) return x->where.column < y->where.column ? -1 : 1;
  if (x->node != y->node) return x->node < y->node ? -1 : 1;
  return strcmp(x->message, y->message); /* several arguments of one sink call */
}

weir_status weir_llvm_findings_collect(const weir_llvm_problem *problem, const weir_ifds_problem *loaded,
                                       const weir_ifds_result *result, weir_llvm_findings *out) {
  memset(out, 0, sizeof *out);
  if (loaded->node_count != problem->stats.nodes || loaded->fact_count != problem->stats.facts)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "analyze %s: the solved problem has %u nodes and %u facts, the frontend built %u "
                     "and %u. Fix: solve the problem loaded from this frontend's text",
                     problem->name, loaded->node_count, loaded->fact_count, problem->stats.nodes,
                     problem->stats.facts);
  out->items = calloc(problem->check_count ? problem->check_count : 1, sizeof *out->items);
  if (!out->items) return weir_fail(WEIR_ERR_OUT_OF_MEMORY, "analyze: no memory for findings. Fix: free memory");
  weir_llvm_witness *witness = NULL;
  for (size_t c = 0; c < problem->check_count; ++c) {
    const weir_llvm_check *check = &problem->checks[c];
    uint32_t fact = 0;
    for (uint32_t k = 0; k < check->fact_count && !fact; ++k) {
      uint32_t f = problem->check_facts.v[check->fact_first + k];
      if (holds(result, check->node, f)) fact = f;
    }
    if (!fact) continue;
    weir_llvm_finding *finding = &out->items[out->count++];
    finding->message = check->message;
    finding->where = location(&problem->locs[check->loc]);
    finding->node = check->node;
    finding->fact = fact;
    if (problem->analysis != WEIR_LLVM_TAINT || problem->source_count == 0) continue;
    if (!witness) {
      weir_status s = weir_llvm_witness_new(problem, loaded, result, &witness);
      if (s != WEIR_OK) {
        weir_llvm_findings_free(out);
        return s;
      }
    }
    uint32_t source = weir_llvm_witness_source(witness, check->node, fact);
    if (source == WEIR_LLVM_NONE) continue;
    finding->has_source = 1;
    finding->source = location(&problem->locs[problem->sources[source].loc]);
    finding->source_name = problem->sources[source].name;
  }
  weir_llvm_witness_free(witness);
  if (out->count > 1) qsort(out->items, out->count, sizeof *out->items, cmp_finding);
  return WEIR_OK;
}

void weir_llvm_findings_free(weir_llvm_findings *findings) {
  if (!findings) return;
  free(findings->items);
  memset(findings, 0, sizeof *findings);
}

static void print_location(FILE *out, const weir_llvm_location *l) {
  if (l->line) fprintf(out, "%s:%u:%u", l->file, l->line, l->column);
  else fprintf(out, "%s: function '%s', instruction %u (%s)", l->file, l->function, l->instruction,
               l->text ? l->text : "?");
}

void weir_llvm_findings_print(const weir_llvm_problem *problem, const weir_llvm_findings *findings,
                              FILE *out) {
  for (size_t k = 0; k < findings->count; ++k) {
    const weir_llvm_finding *f = &findings->items[k];
    print_location(out, &f->where);
    fprintf(out, ": warning: %s", f->message);
    if (f->has_source) {
      fprintf(out, " (source: '%s' at ", f->source_name);
      print_location(out, &f->source);
      fputc(')', out);
    }
    fprintf(out, " [%s]\n", weir_llvm_rule_id(problem->analysis));
  }
}
