/* The built problem and what the frontend keeps next to it: the IFDS
 * problem itself, copies of it for the solvers, the fact legend, and the
 * text for --emit-ifds (the writer's text after a comment block). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontends/llvm/api/api.h"
#include "frontends/llvm/internal.h"
#include "weir/ide.h"

void weir_llvm_problem_free(weir_llvm_problem *problem) {
  if (!problem) return;
  for (size_t k = 0; k < problem->loc_count; ++k) {
    free(problem->locs[k].file);
    free(problem->locs[k].function);
    free(problem->locs[k].text);
  }
  for (size_t k = 0; k < problem->check_count; ++k) free(problem->checks[k].message);
  for (size_t k = 0; k < problem->source_count; ++k) free(problem->sources[k].name);
  free(problem->locs);
  free(problem->checks);
  free(problem->sources);
  weir_llvm_positions_free(problem->positions);
  weir_llvm_vec_free(&problem->check_facts);
  if (problem->ide) weir_ide_problem_free(problem->ide); /* with its ifds */
  else weir_ifds_problem_free(problem->ifds);
  free(problem->ts_fns);
  weir_llvm_text_free(&problem->legend);
  weir_llvm_vec_free(&problem->legend_offset);
  weir_llvm_api_free_rules(problem);
  free(problem);
}

const weir_llvm_build_stats *weir_llvm_problem_stats(const weir_llvm_problem *problem) {
  return &problem->stats;
}

const weir_ifds_problem *weir_llvm_problem_ifds(const weir_llvm_problem *problem) { return problem->ifds; }

const char *weir_llvm_problem_fact_name(const weir_llvm_problem *problem, uint32_t fact, size_t *length) {
  const weir_llvm_vec *at = &problem->legend_offset;
  if (at->n == 0 || fact >= at->n - 1) return NULL;
  if (length) *length = at->v[fact + 1] - at->v[fact];
  return problem->legend.p + at->v[fact];
}

/* ---- copies for the solvers ------------------------------------------------
 * Every array of a weir_ifds_problem is a malloc block of its own (that is
 * how weir_ifds_problem_free releases it), so a copy is one block per array.
 * An array of no elements may be NULL; its copy is a block of one. */
static uint32_t *copy_u32(const uint32_t *from, size_t count, int *failed) {
  uint32_t *to = malloc((count ? count : 1) * sizeof *to);
  if (!to) *failed = 1;
  else if (count) memcpy(to, from, count * sizeof *to);
  return to;
}

static void copy_flows(const weir_ifds_flows *from, weir_ifds_flows *to, int *failed) {
  uint32_t n = from->count;
  to->count = n;
  to->identity = copy_u32(from->identity, n, failed);
  to->kill_offset = copy_u32(from->kill_offset, (size_t)n + 1, failed);
  to->kill_fact = copy_u32(from->kill_fact, from->kill_offset[n], failed);
  to->pair_offset = copy_u32(from->pair_offset, (size_t)n + 1, failed);
  to->pair_from = copy_u32(from->pair_from, from->pair_offset[n], failed);
  to->pair_to = copy_u32(from->pair_to, from->pair_offset[n], failed);
}

static weir_ifds_problem *copy_problem(const weir_ifds_problem *p) {
  weir_ifds_problem *c = calloc(1, sizeof *c);
  if (!c) return NULL;
  *c = *p; /* the counts, source name, warnings; every array is replaced below */
  int failed = 0;
  uint32_t P = p->proc_count, N = p->node_count, C = p->call_count;
  uint32_t E = p->succ_offset[N], K = p->callee_offset[C], names = p->proc_name_offset[P];
  c->proc_first = copy_u32(p->proc_first, P, &failed);
  c->proc_last = copy_u32(p->proc_last, P, &failed);
  c->proc_name_offset = copy_u32(p->proc_name_offset, (size_t)P + 1, &failed);
  c->names = malloc(names ? names : 1);
  if (!c->names) failed = 1;
  else if (names) memcpy(c->names, p->names, names);
  c->node_proc = copy_u32(p->node_proc, N, &failed);
  c->succ_offset = copy_u32(p->succ_offset, (size_t)N + 1, &failed);
  c->succ_node = copy_u32(p->succ_node, E, &failed);
  c->succ_flow = copy_u32(p->succ_flow, E, &failed);
  c->call_node = copy_u32(p->call_node, C, &failed);
  c->call_return = copy_u32(p->call_return, C, &failed);
  c->call_flow = copy_u32(p->call_flow, C, &failed);
  c->node_call = copy_u32(p->node_call, N, &failed);
  c->callee_offset = copy_u32(p->callee_offset, (size_t)C + 1, &failed);
  c->callee_proc = copy_u32(p->callee_proc, K, &failed);
  c->callee_call_flow = copy_u32(p->callee_call_flow, K, &failed);
  c->callee_return_flow = copy_u32(p->callee_return_flow, K, &failed);
  c->seed_node = copy_u32(p->seed_node, p->seed_count, &failed);
  c->seed_fact = copy_u32(p->seed_fact, p->seed_count, &failed);
  copy_flows(&p->flows, &c->flows, &failed);
  if (failed) {
    weir_ifds_problem_free(c);
    return NULL;
  }
  return c;
}

weir_status weir_llvm_problem_load(const weir_llvm_problem *problem, weir_ifds_problem **out) {
  *out = NULL;
  if (!problem->ifds)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT, "analyze %s: no problem was built. Fix: build it first "
                     "(weir_llvm_build)", problem->name);
  *out = copy_problem(problem->ifds);
  if (!*out)
    return weir_fail(WEIR_ERR_OUT_OF_MEMORY, "analyze %s: no memory for a copy of the problem (%u nodes). "
                     "Fix: free memory", problem->name, problem->ifds->node_count);
  return WEIR_OK;
}

/* ---- the text ---------------------------------------------------------------- */

/* One "# fact N WHAT" line; a byte a comment cannot hold becomes '?'. */
static void write_legend_line(FILE *out, uint32_t fact, const char *name, size_t length) {
  fprintf(out, "# fact %u ", fact);
  for (size_t k = 0; k < length; ++k) {
    unsigned char c = (unsigned char)name[k];
    fputc(c < ' ' || c == 0x7f ? '?' : c, out);
  }
  fputc('\n', out);
}

/* The comment block for people; the loader skips it. */
static void write_comments(const weir_llvm_problem *problem, FILE *out) {
  const weir_llvm_build_stats *st = &problem->stats;
  fprintf(out, "# %s analysis of %s (weir analyze, LLVM frontend)\n",
          weir_llvm_problem_analysis(problem), problem->name);
  fprintf(out, "# %u of %u facts can hold somewhere and lead to a check (%u can hold; the rest were pruned)\n",
          st->facts, st->facts_before_pruning, st->facts_generable);
  for (uint32_t f = 0; f < problem->ifds->fact_count; ++f) {
    size_t length = 0;
    const char *name = weir_llvm_problem_fact_name(problem, f, &length);
    if (name) write_legend_line(out, f, name, length);
  }
}

weir_status weir_llvm_problem_write_stream(const weir_llvm_problem *problem, FILE *out) {
  if (!problem->ifds)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT, "analyze %s: no problem was built. Fix: build it first "
                     "(weir_llvm_build)", problem->name);
  write_comments(problem, out);
  WEIR_TRY(weir_ifds_write_problem(problem->ifds, out));
  if (ferror(out))
    return weir_fail(WEIR_ERR_IO, "analyze: writing the IFDS problem failed. Fix: check the disk space");
  return WEIR_OK;
}

weir_status weir_llvm_problem_write(const weir_llvm_problem *problem, const char *path) {
  FILE *f = fopen(path, "wb");
  if (!f) return weir_fail(WEIR_ERR_IO, "analyze: cannot create '%s'. Fix: check the --emit-ifds path", path);
  weir_status s = weir_llvm_problem_write_stream(problem, f);
  int closed = fclose(f) == 0;
  if (s == WEIR_OK && !closed)
    return weir_fail(WEIR_ERR_IO, "analyze: writing '%s' failed. Fix: check the disk space", path);
  return s;
}
