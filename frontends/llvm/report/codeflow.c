/* Code flows: a witness path of (node, fact) pairs turned into the steps a
 * reader follows from the source to the sink. Kept: the source, every change
 * of fact (one step per source line), every entry into a callee and return
 * from it, the sink. Facts are named by the problem's legend ("taint value
 * v5 in main"), which every analysis records (weir_llvm_problem_fact_name). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontends/llvm/report/report.h"

struct weir_llvm_codeflow {
  const weir_llvm_problem *problem;
  const weir_ifds_problem *p;
};

void weir_llvm_codeflow_free(weir_llvm_codeflow *flow) { free(flow); }

weir_status weir_llvm_codeflow_new(const weir_llvm_problem *problem, const weir_ifds_problem *loaded,
                                   weir_llvm_codeflow **out) {
  weir_llvm_codeflow *flow = calloc(1, sizeof *flow);
  *out = flow;
  if (!flow) return weir_fail(WEIR_ERR_OUT_OF_MEMORY, "analyze: no memory for code flows. Fix: free memory");
  flow->problem = problem;
  flow->p = loaded;
  return WEIR_OK;
}

static void describe(const weir_llvm_codeflow *flow, uint32_t fact, char *out, size_t size) {
  size_t length = 0;
  const char *name = fact < flow->p->fact_count ? weir_llvm_problem_fact_name(flow->problem, fact, &length) : NULL;
  if (name) snprintf(out, size, "%.*s", (int)length, name);
  else snprintf(out, size, "fact %u", fact);
}

static const char *source_message(weir_llvm_analysis analysis) {
  if (analysis == WEIR_LLVM_UNINIT) return "uninitialized here: '%s'";
  if (analysis == WEIR_LLVM_UAF) return "freed here by '%s'";
  return "tainted by '%s'";
}

static int same_line(const weir_llvm_step *a, const weir_llvm_step *b) {
  if (a->where.line == 0 || b->where.line == 0) return a->node == b->node;
  return a->where.line == b->where.line && strcmp(a->where.file, b->where.file) == 0;
}

typedef struct builder {
  const weir_llvm_codeflow *flow;
  weir_llvm_step *steps;
  size_t count;
  int depth, min_depth;
} builder;

static weir_llvm_step *add(builder *b, weir_llvm_step_kind kind, uint32_t node, uint32_t fact) {
  weir_llvm_step *s = &b->steps[b->count++];
  memset(s, 0, sizeof *s);
  s->kind = kind;
  s->node = node;
  s->fact = fact;
  s->depth = (uint32_t)b->depth; /* shifted to >= 0 at the end */
  weir_llvm_node_position(b->flow->problem, node, &s->where);
  return s;
}

/* One step per element of the path that the reader needs (see the top). */
static void walk(builder *b, const weir_llvm_vec *path, const weir_llvm_finding *finding) {
  const weir_ifds_problem *p = b->flow->p;
  size_t length = path->n / 2;
  char fact_text[128];
  for (size_t i = 0; i < length; ++i) {
    uint32_t node = path->v[2 * i], fact = path->v[2 * i + 1];
    if (i == 0) {
      weir_llvm_step *s = add(b, WEIR_LLVM_STEP_SOURCE, node, fact);
      if (b->flow->problem->analysis == WEIR_LLVM_PLUGIN) /* the plugin's words, never its format */
        snprintf(s->message, sizeof s->message, "%s '%s'", b->flow->problem->source_label,
                 finding->source_name ? finding->source_name : "?");
      else
        snprintf(s->message, sizeof s->message, source_message(b->flow->problem->analysis),
                 finding->source_name ? finding->source_name : "?");
      continue;
    }
    uint32_t prev = path->v[2 * i - 2], prev_fact = path->v[2 * i - 1];
    uint32_t proc = p->node_proc[node], prev_proc = p->node_proc[prev];
    describe(b->flow, fact, fact_text, sizeof fact_text);
    int last = i + 1 == length; /* the sink, below; the change into it is a step */
    if (!last && p->proc_first[proc] == node) { /* only a call node leads to a start node */
      ++b->depth;
      weir_llvm_step *s = add(b, WEIR_LLVM_STEP_CALL, node, fact);
      snprintf(s->message, sizeof s->message, "passed to '%s' as %s", s->where.function, fact_text);
    } else if (!last && p->proc_last[prev_proc] == prev) { /* an exit leads only to return sites */
      if (--b->depth < b->min_depth) b->min_depth = b->depth;
      weir_llvm_step *s = add(b, WEIR_LLVM_STEP_RETURN, node, fact);
      weir_llvm_location from;
      weir_llvm_node_position(b->flow->problem, prev, &from);
      snprintf(s->message, sizeof s->message, "returned from '%s' as %s", from.function, fact_text);
    } else if (fact != prev_fact && !(last && p->proc_last[prev_proc] == prev)) {
      /* The flow of an instruction sits on the edges leaving its node, so
       * the instruction that made `fact` is at `prev`. (Not at `node`: the
       * next node may be a later one, or the exit, when the nodes between
       * hand every fact on and were bypassed, module/bypass.c.) */
      weir_llvm_step *s = add(b, WEIR_LLVM_STEP_FLOW, prev, fact);
      snprintf(s->message, sizeof s->message, "flows to %s", fact_text);
    }
  }
  uint32_t node = path->v[path->n - 2], fact = path->v[path->n - 1];
  weir_llvm_step *s = add(b, WEIR_LLVM_STEP_SINK, node, fact);
  s->where = finding->where;
  snprintf(s->message, sizeof s->message, "%s", finding->message);
}

/* Drops FLOW steps on the line of the step before or after them, and those
 * without a line (phi nodes) in code that has lines. */
static void collapse(builder *b) {
  int lines = 0;
  for (size_t k = 0; k < b->count && !lines; ++k) lines = b->steps[k].where.line > 0;
  size_t kept = 0;
  for (size_t k = 0; k < b->count; ++k) {
    weir_llvm_step *s = &b->steps[k];
    int flow = s->kind == WEIR_LLVM_STEP_FLOW;
    if (flow && lines && s->where.line == 0) continue;
    if (flow && kept && same_line(&b->steps[kept - 1], s)) continue;
    if (flow && k + 1 < b->count && same_line(&b->steps[k + 1], s)) continue;
    b->steps[kept++] = *s;
  }
  b->count = kept;
}

/* At most WEIR_LLVM_STEP_MAX steps: the first and the last halves. */
static void cap(builder *b) {
  if (b->count <= WEIR_LLVM_STEP_MAX) return;
  size_t half = WEIR_LLVM_STEP_MAX / 2, dropped = b->count - WEIR_LLVM_STEP_MAX;
  weir_llvm_step *last_kept = &b->steps[half - 1];
  size_t used = strlen(last_kept->message);
  snprintf(last_kept->message + used, sizeof last_kept->message - used, " [%zu more steps]", dropped);
  memmove(&b->steps[half], &b->steps[b->count - half], half * sizeof *b->steps);
  b->count = WEIR_LLVM_STEP_MAX;
}

weir_status weir_llvm_codeflow_steps(weir_llvm_codeflow *flow, const weir_llvm_vec *path,
                                     weir_llvm_finding *finding) {
  finding->steps = NULL;
  finding->step_count = 0;
  if (path->n < 4) return WEIR_OK; /* a source and the sink at least */
  builder b = {.flow = flow};
  b.steps = malloc((path->n / 2 + 1) * sizeof *b.steps); /* the source, a step per edge, the sink */
  if (!b.steps)
    return weir_fail(WEIR_ERR_OUT_OF_MEMORY, "analyze: no memory for a code flow of %zu steps. Fix: free memory",
                     path->n / 2);
  walk(&b, path, finding);
  collapse(&b);
  cap(&b);
  for (size_t k = 0; k < b.count; ++k) b.steps[k].depth = (uint32_t)((int)b.steps[k].depth - b.min_depth);
  finding->steps = b.steps;
  finding->step_count = b.count;
  return WEIR_OK;
}
