/* The naive IDE solver of the cross-check (naive.h). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>

#include "engine/ide/fn.h"
#include "tests/ide/naive.h"

typedef struct naive {
  const weir_ide_problem *p;
  const weir_ifds_problem *g;
  uint32_t F;
  unsigned char *reached; /* [N F F] by (n, d1, d2) */
  weir_ide_fn *jf;
  int changed;
} naive;

static size_t at(const naive *s, uint32_t d1, uint32_t n, uint32_t d2) {
  return ((size_t)n * s->F + d1) * s->F + d2;
}

/* d2 in flow f of d1, by the definition: 0 -> 0; the identity unless
 * killed; the pairs. */
static int flows(const weir_ifds_flows *fl, uint32_t f, uint32_t d1, uint32_t d2) {
  if (d1 == 0 && d2 == 0) return 1;
  int self = d1 == d2 && fl->identity[f];
  for (uint32_t k = fl->kill_offset[f]; self && k < fl->kill_offset[f + 1]; ++k)
    if (fl->kill_fact[k] == d1) self = 0;
  for (uint32_t k = fl->pair_offset[f]; !self && k < fl->pair_offset[f + 1]; ++k)
    if (fl->pair_from[k] == d1 && fl->pair_to[k] == d2) self = 1;
  return self;
}

static weir_ide_fn fn_of(const weir_ide_problem *p, const uint32_t *offsets, uint32_t e,
                         uint32_t d1, uint32_t d2) {
  for (uint32_t i = offsets[e]; i < offsets[e + 1]; ++i)
    if (p->ann_from[i] == d1 && p->ann_to[i] == d2) return p->fns[p->ann_fn[i]];
  return ide_fn_identity(p->family, p->state_count);
}

static void lower(naive *s, uint32_t d1, uint32_t n, uint32_t d2, weir_ide_fn f) {
  size_t i = at(s, d1, n, d2);
  if (!s->reached[i]) {
    s->reached[i] = 1;
    s->jf[i] = f;
    s->changed = 1;
    return;
  }
  weir_ide_fn j = ide_fn_join(&s->jf[i], &f);
  if (!ide_fn_equal(&j, &s->jf[i])) s->jf[i] = j, s->changed = 1;
}

/* Every rule of a call node, from (d1, n, d2) with jump function f. */
static void call_rules(naive *s, uint32_t d1, uint32_t n, uint32_t d2, weir_ide_fn f) {
  const weir_ide_problem *p = s->p;
  const weir_ifds_problem *g = s->g;
  uint32_t c = g->node_call[n], r = g->call_return[c];
  for (uint32_t d3 = 0; d3 < s->F; ++d3)
    if (flows(&g->flows, g->call_flow[c], d2, d3)) {
      weir_ide_fn e = fn_of(p, p->call_ann_offset, c, d2, d3);
      lower(s, d1, r, d3, ide_fn_compose(&e, &f));
    }
  for (uint32_t k = g->callee_offset[c]; k < g->callee_offset[c + 1]; ++k) {
    uint32_t q = g->callee_proc[k], sp = g->proc_first[q], ep = g->proc_last[q];
    for (uint32_t d3 = 0; d3 < s->F; ++d3) {
      if (!flows(&g->flows, g->callee_call_flow[k], d2, d3)) continue;
      lower(s, d3, sp, d3, ide_fn_identity(p->family, p->state_count));
      weir_ide_fn call = fn_of(p, p->callee_call_ann_offset, k, d2, d3), cf = ide_fn_compose(&call, &f);
      for (uint32_t d4 = 0; d4 < s->F; ++d4) {
        if (!s->reached[at(s, d3, ep, d4)]) continue;
        weir_ide_fn through = ide_fn_compose(&s->jf[at(s, d3, ep, d4)], &cf);
        for (uint32_t d5 = 0; d5 < s->F; ++d5) {
          if (!flows(&g->flows, g->callee_return_flow[k], d4, d5)) continue;
          weir_ide_fn ret = fn_of(p, p->callee_return_ann_offset, k, d4, d5);
          lower(s, d1, r, d5, ide_fn_compose(&ret, &through));
        }
      }
    }
  }
}

static void rules(naive *s, uint32_t d1, uint32_t n, uint32_t d2) {
  const weir_ifds_problem *g = s->g;
  weir_ide_fn f = s->jf[at(s, d1, n, d2)];
  if (g->node_call[n] != WEIR_IFDS_NONE) return call_rules(s, d1, n, d2, f);
  for (uint32_t e = g->succ_offset[n]; e < g->succ_offset[n + 1]; ++e)
    for (uint32_t d3 = 0; d3 < s->F; ++d3)
      if (flows(&g->flows, g->succ_flow[e], d2, d3)) {
        weir_ide_fn ef = fn_of(s->p, s->p->edge_ann_offset, e, d2, d3);
        lower(s, d1, g->succ_node[e], d3, ide_fn_compose(&ef, &f));
      }
}

/* Phase 2: entry values per (procedure, fact), rounds until stable. */
static weir_ide_value *entries(naive *s) {
  const weir_ide_problem *p = s->p;
  const weir_ifds_problem *g = s->g;
  weir_ide_value *entry = malloc((size_t)g->proc_count * s->F * sizeof *entry);
  for (size_t i = 0; i < (size_t)g->proc_count * s->F; ++i) entry[i] = ide_value_top(p->family);
  for (int changed = 1; changed;) {
    changed = 0;
    for (uint32_t n = 0; n < g->node_count; ++n) {
      uint32_t c = g->node_call[n];
      if (c == WEIR_IFDS_NONE) continue;
      for (uint32_t d0 = 0; d0 < s->F; ++d0)
        for (uint32_t d4 = 0; d4 < s->F; ++d4) {
          if (!s->reached[at(s, d0, n, d4)]) continue;
          weir_ide_value v = ide_fn_apply(&s->jf[at(s, d0, n, d4)], entry[g->node_proc[n] * s->F + d0]);
          for (uint32_t k = g->callee_offset[c]; k < g->callee_offset[c + 1]; ++k)
            for (uint32_t d3 = 0; d3 < s->F; ++d3) {
              if (!flows(&g->flows, g->callee_call_flow[k], d4, d3)) continue;
              weir_ide_fn call = fn_of(p, p->callee_call_ann_offset, k, d4, d3);
              weir_ide_value *e = &entry[g->callee_proc[k] * s->F + d3];
              weir_ide_value m = ide_value_join(p->family, *e, ide_fn_apply(&call, v));
              if (!ide_value_equal(m, *e)) *e = m, changed = 1;
            }
        }
    }
  }
  return entry;
}

static char *rows(naive *s, const weir_ide_value *entry) {
  char *text = NULL, value[WEIR_IDE_VALUE_TEXT_MAX];
  size_t size = 0;
  FILE *out = open_memstream(&text, &size);
  for (uint32_t n = 0; n < s->g->node_count; ++n)
    for (uint32_t d2 = 0; d2 < s->F; ++d2) {
      int holds = 0;
      weir_ide_value v = ide_value_top(s->p->family);
      for (uint32_t d1 = 0; d1 < s->F; ++d1) {
        if (!s->reached[at(s, d1, n, d2)]) continue;
        holds = 1;
        weir_ide_value in = entry[s->g->node_proc[n] * s->F + d1];
        v = ide_value_join(s->p->family, v, ide_fn_apply(&s->jf[at(s, d1, n, d2)], in));
      }
      if (!holds) continue;
      weir_ide_format_value(s->p, &v, value, sizeof value);
      fprintf(out, "%u %u %s\n", n, d2, value);
    }
  fclose(out);
  return text;
}

char *ide_test_naive_rows(const weir_ide_problem *p, uint64_t *path_edges) {
  naive s = {.p = p, .g = p->ifds, .F = p->ifds->fact_count};
  size_t cells = (size_t)s.g->node_count * s.F * s.F;
  s.reached = calloc(cells, 1);
  s.jf = calloc(cells, sizeof *s.jf);
  ck_assert(s.reached && s.jf);
  for (uint32_t i = 0; i < s.g->seed_count; ++i)
    lower(&s, 0, s.g->seed_node[i], s.g->seed_fact[i], ide_fn_const_of(p->family, p->seed_value[i]));
  while (s.changed) {
    s.changed = 0;
    for (uint32_t n = 0; n < s.g->node_count; ++n)
      for (uint32_t d1 = 0; d1 < s.F; ++d1)
        for (uint32_t d2 = 0; d2 < s.F; ++d2)
          if (s.reached[at(&s, d1, n, d2)]) rules(&s, d1, n, d2);
  }
  *path_edges = 0;
  for (size_t i = 0; i < cells; ++i) *path_edges += s.reached[i];
  weir_ide_value *entry = entries(&s);
  char *text = rows(&s, entry);
  free(entry);
  free(s.reached);
  free(s.jf);
  return text;
}
