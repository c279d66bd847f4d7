/* The serial reference IDE solver, phase 2 and the result. With the jump
 * functions of phase 1:
 *  entry(q, d) — the value of fact d when q is entered — starts at ⊤ and is
 *    lowered by every call that enters q: call(d2, d) applied to the value
 *    at the call, jf(d0, c, d2) applied to entry(caller, d0); a worklist of
 *    (procedure, context) pairs runs until no entry value changes (finite
 *    height again);
 *  value(n, d2) = ⊔ over the path edges (d1, n, d2) of jf applied to
 *    entry(proc of n, d1).
 * Seeds need no entry value: their jump functions are constants (λx.v). */
#include <stdlib.h>
#include <string.h>

#include "engine/ide/solver.h"

typedef struct values {
  ifds_map entry_of; /* (proc, d1) -> index into entry */
  weir_ide_value *entry;
  size_t entry_count, entry_cap;
  ifds_map calls_of; /* (proc, d1) -> head of the list of path edges at call nodes */
  ifds_vec call_pe, call_next;
  ifds_vec work; /* (proc, d1) keys to process, as two words */
} values;

static weir_status entry_index(values *v, uint32_t family, uint32_t q, uint32_t d1, uint32_t *out) {
  uint32_t *slot;
  int added;
  WEIR_TRY(ifds_map_upsert(&v->entry_of, ifds_key(q, d1), (uint32_t)v->entry_count, &slot, &added));
  *out = *slot;
  if (!added) return WEIR_OK;
  if (v->entry_count == v->entry_cap) {
    size_t cap = v->entry_cap ? v->entry_cap * 2 : 64;
    weir_ide_value *e = realloc(v->entry, cap * sizeof *e);
    if (!e)
      return weir_fail(WEIR_ERR_OUT_OF_MEMORY, "the IDE reference solver: %zu entry values do not "
                       "fit in memory. Fix: solve a smaller problem.", cap);
    v->entry = e, v->entry_cap = cap;
  }
  v->entry[v->entry_count++] = ide_value_top(family);
  return WEIR_OK;
}

static weir_ide_value entry_value(const values *v, uint32_t family, uint32_t q, uint32_t d1) {
  const uint32_t *i = ifds_map_find(&v->entry_of, ifds_key(q, d1));
  return i ? v->entry[*i] : ide_value_top(family);
}

/* The path edges at call nodes, by (procedure, context); each such key is
 * queued once to start with. */
static weir_status index_calls(ide_solver *s, values *v) {
  for (uint32_t pe = 0; pe < s->pe_nf.len; ++pe) {
    uint32_t n = s->nf_node.data[s->pe_nf.data[pe]];
    if (s->g->node_call[n] == WEIR_IFDS_NONE) continue;
    uint32_t q = s->g->node_proc[n], d1 = s->pe_d1.data[pe], *slot, head;
    int added;
    WEIR_TRY(ifds_map_upsert(&v->calls_of, ifds_key(q, d1), IDE_NIL, &slot, &added));
    head = *slot;
    uint32_t i = (uint32_t)v->call_pe.len;
    WEIR_TRY(ifds_vec_push(&v->call_pe, pe));
    WEIR_TRY(ifds_vec_push(&v->call_next, head));
    *ifds_map_find(&v->calls_of, ifds_key(q, d1)) = i;
    if (!added) continue;
    WEIR_TRY(ifds_vec_push(&v->work, q));
    WEIR_TRY(ifds_vec_push(&v->work, d1));
  }
  return WEIR_OK;
}

/* entry(q, d3) ⊒ x; queued when it changed. */
static weir_status lower_entry(ide_solver *s, values *v, uint32_t q, uint32_t d3, weir_ide_value x) {
  uint32_t i;
  WEIR_TRY(entry_index(v, s->p->family, q, d3, &i));
  weir_ide_value merged = ide_value_join(s->p->family, v->entry[i], x);
  if (ide_value_equal(merged, v->entry[i])) return WEIR_OK;
  v->entry[i] = merged;
  WEIR_TRY(ifds_vec_push(&v->work, q));
  return ifds_vec_push(&v->work, d3);
}

/* The calls of q in context d1 pass their values into their callees. */
static weir_status from_calls(ide_solver *s, values *v, uint32_t q, uint32_t d1) {
  const weir_ide_problem *p = s->p;
  const weir_ifds_problem *g = s->g;
  weir_ide_value in = entry_value(v, p->family, q, d1);
  const uint32_t *head = ifds_map_find(&v->calls_of, ifds_key(q, d1));
  for (uint32_t l = head ? *head : IDE_NIL; l != IDE_NIL; l = v->call_next.data[l]) {
    uint32_t pe = v->call_pe.data[l], nf = s->pe_nf.data[pe];
    uint32_t c = g->node_call[s->nf_node.data[nf]], d2 = s->nf_fact.data[nf];
    weir_ide_value at_call = ide_fn_apply(&s->jf[pe], in);
    for (uint32_t k = g->callee_offset[c]; k < g->callee_offset[c + 1]; ++k) {
      WEIR_TRY(ide_flow_targets(&g->flows, g->callee_call_flow[k], d2, &s->a));
      for (size_t i = 0; i < s->a.len; ++i) {
        const weir_ide_fn *call = ide_pair_fn(p, p->callee_call_ann_offset, k, d2, s->a.data[i]);
        WEIR_TRY(lower_entry(s, v, g->callee_proc[k], s->a.data[i], ide_fn_apply(call, at_call)));
      }
    }
  }
  return WEIR_OK;
}

static weir_status entries(ide_solver *s, values *v) {
  WEIR_TRY(index_calls(s, v));
  while (v->work.len) {
    v->work.len -= 2;
    s->stats.value_iterations++;
    WEIR_TRY(from_calls(s, v, v->work.data[v->work.len], v->work.data[v->work.len + 1]));
  }
  return WEIR_OK;
}

static int key_cmp(const void *x, const void *y) {
  uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
  return a < b ? -1 : a > b;
}

/* One result row per (n, d2), sorted by node then fact. */
static weir_status result(ide_solver *s, const values *v, weir_ide_result *out) {
  size_t count = s->nf_node.len;
  uint64_t *keys = malloc((count ? count : 1) * sizeof *keys);
  out->hold_node = malloc((count ? count : 1) * sizeof *out->hold_node);
  out->hold_fact = malloc((count ? count : 1) * sizeof *out->hold_fact);
  out->value = malloc((count ? count : 1) * sizeof *out->value);
  if (!keys || !out->hold_node || !out->hold_fact || !out->value) {
    free(keys);
    return weir_fail(WEIR_ERR_OUT_OF_MEMORY, "allocating the IDE result (%zu rows) failed. Fix: "
                     "free memory.", count);
  }
  for (size_t i = 0; i < count; ++i) keys[i] = (uint64_t)s->nf_node.data[i] << 32 | s->nf_fact.data[i];
  qsort(keys, count, sizeof *keys, key_cmp);
  for (size_t i = 0; i < count; ++i) {
    uint32_t n = (uint32_t)(keys[i] >> 32), d = (uint32_t)keys[i];
    uint32_t nf = *ifds_map_find(&s->nf_of, ifds_key(n, d)), q = s->g->node_proc[n];
    weir_ide_value x = ide_value_top(s->p->family);
    for (uint32_t pe = s->nf_first.data[nf]; pe != IDE_NIL; pe = s->pe_next.data[pe]) {
      weir_ide_value in = entry_value(v, s->p->family, q, s->pe_d1.data[pe]);
      x = ide_value_join(s->p->family, x, ide_fn_apply(&s->jf[pe], in));
    }
    out->hold_node[i] = n, out->hold_fact[i] = d, out->value[i] = x;
  }
  free(keys);
  out->hold_count = count;
  out->path_edges = s->pe_nf.len;
  return WEIR_OK;
}

weir_status ide_phase2(ide_solver *s, weir_ide_result *out) {
  values v;
  memset(&v, 0, sizeof v);
  weir_status st = entries(s, &v);
  if (st == WEIR_OK) st = result(s, &v, out);
  ifds_map_free(&v.entry_of);
  ifds_map_free(&v.calls_of);
  free(v.entry);
  ifds_vec_free(&v.call_pe);
  ifds_vec_free(&v.call_next);
  ifds_vec_free(&v.work);
  return st;
}
