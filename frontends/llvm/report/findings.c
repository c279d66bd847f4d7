/* Findings: the checks whose facts hold in a solver's result (a check that
 * lists the zero fact fires wherever its node is reachable), their sources
 * and code flows, one finding per (rule, location) with every source merged
 * in, the confidence rank, and the compiler-style printing. */
#include <stdlib.h>
#include <string.h>

#include "frontends/llvm/report/report.h"

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

static int cmp_u32(uint32_t a, uint32_t b) { return a < b ? -1 : a > b; }

/* Where a finding is: file, line, column; without debug info the node. */
static int cmp_where(const weir_llvm_finding *x, const weir_llvm_finding *y) {
  int c = strcmp(x->where.file, y->where.file);
  if (c) return c;
  if ((c = cmp_u32(x->where.line, y->where.line))) return c;
  if ((c = cmp_u32(x->where.column, y->where.column))) return c;
  return x->where.line ? 0 : cmp_u32(x->node, y->node);
}

static int cmp_source(const weir_llvm_finding *x, const weir_llvm_finding *y) {
  if (x->has_source != y->has_source) return x->has_source ? -1 : 1; /* with a source first */
  if (!x->has_source) return 0;
  int c = strcmp(x->source_name, y->source_name);
  if (c) return c;
  if ((c = strcmp(x->source.file, y->source.file))) return c;
  if ((c = cmp_u32(x->source.line, y->source.line))) return c;
  return cmp_u32(x->source.column, y->source.column);
}

/* The identity of a finding: (location, rule). */
static int cmp_key(const weir_llvm_finding *x, const weir_llvm_finding *y) {
  int c = cmp_where(x, y);
  return c ? c : strcmp(x->rule, y->rule);
}

/* Source order, like a compiler; within one key the checks with a source
 * first, the most confident first, then by source, node and message (the
 * first of each source is kept). */
static int cmp_finding(const void *a, const void *b) {
  const weir_llvm_finding *x = a, *y = b;
  int c = cmp_key(x, y);
  if (c) return c;
  if (x->has_source != y->has_source) return x->has_source ? -1 : 1;
  if ((c = cmp_u32(y->confidence, x->confidence))) return c;
  if ((c = cmp_source(x, y))) return c;
  if ((c = cmp_u32(x->node, y->node))) return c;
  return strcmp(x->message, y->message);
}

/* ---- confidence ------------------------------------------------------------- */

/* The rank of one check's evidence, 0..100 (README "Confidence"): 100 for a
 * must-alias read of a scalar with a short path from its source, less for
 * each thing the analysis had to assume. */
static uint32_t rank(const weir_llvm_finding *f, weir_llvm_analysis analysis) {
  int score = 100;
  if (f->targets > 1) score -= (int)(f->targets - 1 > 3 ? 3 : f->targets - 1) * 15; /* may-alias */
  /* uaf tracks heap blocks only, where every object is a summary: a weak
   * update is the rule there, not a doubt. Asked of the analysis, not of a
   * rule id (a plugin's "free-list" rule is no use after free). */
  if (f->weak && analysis != WEIR_LLVM_UAF) score -= 15;   /* no strong update of a summary */
  if (f->fact != 0 && !f->has_source) score -= 10; /* no recorded source found for it */
  size_t calls = 0;
  for (size_t k = 0; k < f->step_count; ++k)
    calls += f->steps[k].kind == WEIR_LLVM_STEP_CALL || f->steps[k].kind == WEIR_LLVM_STEP_RETURN;
  score -= (int)(calls > 4 ? 4 : calls) * 5;  /* across calls: contexts are not checked on the path */
  if (f->step_count > 6) score -= (int)(f->step_count - 6 > 15 ? 15 : f->step_count - 6); /* long path */
  return score < 0 ? 0 : (uint32_t)score;
}

const char *weir_llvm_confidence_level(uint32_t confidence) {
  return confidence >= WEIR_LLVM_CONFIDENCE_HIGH ? "high" : confidence >= WEIR_LLVM_CONFIDENCE_MEDIUM ? "medium" : "low";
}

/* ---- merging: one finding per (rule, location) ------------------------------- */

static void free_member(weir_llvm_finding *f) {
  free(f->steps);
  f->steps = NULL;
}

/* Merges the sorted checks of one key, [first, end), into `out`: every
 * distinct source with its code flow; the first one is the finding's. */
static int merge(weir_llvm_finding *items, size_t first, size_t end, weir_llvm_finding *out) {
  weir_llvm_finding head = items[first];
  size_t distinct = 0;
  for (size_t k = first; k < end; ++k)
    if (items[k].has_source) ++distinct;
  head.sources = distinct ? calloc(distinct, sizeof *head.sources) : NULL;
  if (distinct && !head.sources) return 0;
  head.source_count = 0;
  for (size_t k = first; k < end; ++k) {
    weir_llvm_finding *m = &items[k];
    int known = !m->has_source;
    for (size_t j = first; j < k && !known; ++j) known = items[j].has_source && cmp_source(&items[j], m) == 0;
    if (known) {
      if (k != first) free_member(m);
      continue;
    }
    weir_llvm_finding_source *s = &head.sources[head.source_count++];
    *s = (weir_llvm_finding_source){m->source_name, m->source, m->message, m->node, m->fact, m->confidence,
                                    m->steps, m->step_count};
  }
  /* The finding's own code flow is its first source's (owned by sources[0]). */
  out[0] = head;
  return 1;
}

/* Sorts the fired checks and keeps one finding per (rule, location): clang
 * gives several IR instructions of one expression the same file:line:col,
 * a read through a pointer is one check per object it may point to, and
 * each check may be reached from another source. */
static int deduplicate(weir_llvm_findings *out) {
  if (out->count > 1) qsort(out->items, out->count, sizeof *out->items, cmp_finding);
  size_t kept = 0, ok = 1;
  for (size_t k = 0; k < out->count;) {
    size_t end = k + 1;
    while (end < out->count && cmp_key(&out->items[k], &out->items[end]) == 0) ++end;
    if (ok && merge(out->items, k, end, &out->items[kept])) {
      ++kept;
    } else {
      ok = 0;
      for (size_t j = k; j < end; ++j) free_member(&out->items[j]);
    }
    k = end;
  }
  out->count = kept;
  return (int)ok;
}

/* Whether two findings come from the one source (same place, same name). */
static int same_source(const weir_llvm_finding *x, const weir_llvm_finding *y) {
  return x->source_count == 1 && y->source_count == 1 && x->what == y->what && strcmp(x->rule, y->rule) == 0 &&
         cmp_source(x, y) == 0;
}

/* A value left undefined in one place is one bug however many uses it
 * reaches, through returns into every caller (libiberty's demangler: one
 * `ret` unset on a loop's first iteration, 50 uses in 12 functions). Keeps,
 * of the findings with one source that say so, the use nearest its source
 * (the shortest code flow; the first in source order among equals) and
 * lists the others there, in source order. */
static int one_per_source(weir_llvm_findings *out) {
  size_t kept = 0;
  for (size_t k = 0; k < out->count; ++k) {
    weir_llvm_finding *f = &out->items[k];
    if (!f->per_source || f->source_count != 1) {
      out->items[kept++] = *f;
      continue;
    }
    size_t best = k, uses = 1;
    for (size_t j = k + 1; j < out->count; ++j)
      if (out->items[j].per_source && same_source(f, &out->items[j])) {
        ++uses;
        if (out->items[j].step_count < out->items[best].step_count) best = j;
      }
    if (uses == 1) {
      out->items[kept++] = *f;
      continue;
    }
    weir_llvm_finding head = out->items[best];
    head.other_uses = calloc(uses - 1, sizeof *head.other_uses);
    if (!head.other_uses) return 0;
    for (size_t j = k; j < out->count; ++j) {
      weir_llvm_finding *m = &out->items[j];
      if (!m->per_source || !same_source(f, m)) continue;
      if (j != best) { /* one source: its steps are the finding's */
        head.other_uses[head.other_use_count++] = m->where;
        free(m->sources[0].steps);
        free(m->sources);
      }
      m->per_source = 2; /* taken: skipped below */
    }
    out->items[kept++] = head;
    for (size_t j = k + 1; j < out->count; ++j) /* drop the merged ones from the rest */
      if (out->items[j].per_source == 2) {
        memmove(&out->items[j], &out->items[j + 1], (out->count - j - 1) * sizeof *out->items);
        --out->count;
        --j;
      }
  }
  out->count = kept;
  return 1;
}

/* The first fact of the check that holds at its node; 0 when none does
 * (fact 0 itself holds wherever the node is reachable). */
static int fired(const weir_llvm_problem *problem, const weir_llvm_check *check,
                 const weir_ifds_result *result, uint32_t *fact) {
  for (uint32_t k = 0; k < check->fact_count; ++k) {
    uint32_t f = problem->check_facts.v[check->fact_first + k];
    if (holds(result, check->node, f)) {
      *fact = f;
      return 1;
    }
  }
  return 0;
}

typedef struct tracer {
  weir_llvm_witness *witness;
  weir_llvm_codeflow *flow;
  weir_llvm_vec path;
} tracer;

/* The source and code flow of a finding (made on first use: most problems
 * without findings never pay for the search structures). */
static weir_status trace(tracer *t, const weir_llvm_problem *problem, const weir_ifds_problem *loaded,
                         const weir_ifds_result *result, weir_llvm_finding *finding) {
  if (problem->source_count == 0 || finding->fact == 0) return WEIR_OK;
  if (!t->witness) WEIR_TRY(weir_llvm_witness_new(problem, loaded, result, &t->witness));
  if (!t->flow) WEIR_TRY(weir_llvm_codeflow_new(problem, loaded, &t->flow));
  uint32_t source = weir_llvm_witness_path(t->witness, finding->node, finding->fact, &t->path);
  if (t->path.failed)
    return weir_fail(WEIR_ERR_OUT_OF_MEMORY, "analyze: no memory for a witness path. Fix: free memory");
  if (source == WEIR_LLVM_NONE) return WEIR_OK;
  finding->has_source = 1;
  finding->source = location(&problem->locs[problem->sources[source].loc]);
  finding->source_name = problem->sources[source].name;
  if (problem->sources[source].per_source) { /* a value left unset: every use of it, in memory too, is one */
    finding->per_source = 1;
    finding->what = 0;
  }
  return weir_llvm_codeflow_steps(t->flow, &t->path, finding);
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
  out->analysis = weir_llvm_problem_analysis(problem);
  out->items = calloc(problem->check_count ? problem->check_count : 1, sizeof *out->items);
  if (!out->items) return weir_fail(WEIR_ERR_OUT_OF_MEMORY, "analyze: no memory for findings. Fix: free memory");
  tracer t = {0};
  weir_status s = WEIR_OK;
  for (size_t c = 0; c < problem->check_count && s == WEIR_OK; ++c) {
    const weir_llvm_check *check = &problem->checks[c];
    uint32_t fact = 0;
    if (!fired(problem, check, result, &fact)) continue;
    weir_llvm_finding *finding = &out->items[out->count++];
    finding->rule = weir_llvm_problem_rule(problem, check->rule)->id;
    finding->message = check->message;
    finding->where = location(&problem->locs[check->loc]);
    finding->node = check->node;
    finding->fact = fact;
    finding->targets = check->targets;
    finding->weak = check->weak;
    finding->per_source = check->per_source;
    finding->what = check->what;
    s = trace(&t, problem, loaded, result, finding);
    finding->confidence = rank(finding, problem->analysis);
  }
  weir_llvm_witness_free(t.witness);
  weir_llvm_codeflow_free(t.flow);
  weir_llvm_vec_free(&t.path);
  if (s != WEIR_OK) {
    weir_llvm_findings_free(out);
    return s;
  }
  if (!deduplicate(out) || !one_per_source(out)) {
    weir_llvm_findings_free(out);
    return weir_fail(WEIR_ERR_OUT_OF_MEMORY, "analyze: no memory to merge findings. Fix: free memory");
  }
  for (size_t k = 0; k < out->count; ++k) {
    weir_llvm_finding *f = &out->items[k];
    f->confidence = f->source_count ? f->sources[0].confidence : f->confidence;
  }
  return weir_llvm_findings_fingerprints(out);
}

void weir_llvm_findings_free(weir_llvm_findings *findings) {
  if (!findings) return;
  for (size_t k = 0; k < findings->count; ++k) {
    weir_llvm_finding *f = &findings->items[k];
    for (size_t j = 0; j < f->source_count; ++j) free(f->sources[j].steps);
    if (!f->source_count) free(f->steps);
    free(f->sources);
    free(f->other_uses);
  }
  free(findings->items);
  free(findings->source_root);
  memset(findings, 0, sizeof *findings);
}

static void print_location(FILE *out, const char *root, const weir_llvm_location *l) {
  weir_llvm_text path = {0};
  weir_llvm_path_relative(root, l->file, &path);
  const char *file = path.p && !path.failed ? path.p : l->file;
  if (l->line) fprintf(out, "%s:%u:%u", file, l->line, l->column);
  else fprintf(out, "%s: function '%s', instruction %u (%s)", file, l->function, l->instruction,
               l->text ? l->text : "?");
  weir_llvm_text_free(&path);
}

void weir_llvm_findings_print(const weir_llvm_problem *problem, const weir_llvm_findings *findings,
                              FILE *out) {
  (void)problem;
  char *root = weir_llvm_report_root(findings);
  for (size_t k = 0; k < findings->count; ++k) {
    const weir_llvm_finding *f = &findings->items[k];
    if (f->suppressed || f->baseline == WEIR_LLVM_BASELINE_UNCHANGED) continue;
    print_location(out, root, &f->where);
    fprintf(out, ": warning: %s", f->message);
    if (f->has_source) {
      fprintf(out, " (source: '%s' at ", f->source_name);
      print_location(out, root, &f->source);
      if (f->source_count > 1)
        fprintf(out, ", and %zu more source%s", f->source_count - 1, f->source_count > 2 ? "s" : "");
      fputc(')', out);
    }
    if (f->other_use_count) {
      fprintf(out, " (and %zu more use%s of it, the next at ", f->other_use_count, f->other_use_count > 1 ? "s" : "");
      print_location(out, root, &f->other_uses[0]);
      fputc(')', out);
    }
    fprintf(out, " [%s]\n", f->rule);
  }
  free(root);
}
