/* The serial reference IDE solver, phase 1 (Sagiv, Reps and Horwitz 1996,
 * as Heros and PhASAR run it): the IFDS tabulation of
 * engine/ifds/reference.c where every path edge (d1, n, d2) also carries a
 * jump function, the merge of the compositions of edge functions along the
 * realizable paths from (start, d1) to (n, d2). A path edge is processed
 * when it is created and again whenever its jump function is lowered, so
 * every rule is re-evaluated when one of its inputs changes; the families'
 * lattices have finite height, so that ends. Written for clarity, not speed:
 * phase 2 and the result are in values.c.
 *
 * The rules (docs/ide-format.md, "What a solver computes"), with jf the
 * jump function of the path edge being processed and ∘ composition:
 *  edge n -> m:  (d1, m, d3) ⊒ e(d2, d3) ∘ jf for d3 in f(d2)
 *  call c -> r:  (d1, r, d3) ⊒ c2r(d2, d3) ∘ jf; each callee q is entered
 *                with (d3, start q, d3) ⊒ id; and each exit path edge
 *                (d3, exit q, d4) gives (d1, r, d5) ⊒ ret(d4, d5) ∘ jx ∘
 *                call(d2, d3) ∘ jf
 *  exit of q:    the same composition, for every call that entered q with
 *                d1 and every path edge at that call.
 * Compositions are exact, so their grouping does not matter; merging is
 * done only into jump functions (no separate summary functions). */
#include <stdlib.h>
#include <string.h>

#include "engine/ide/solver.h"

/* A flow function's kills are sorted and its pairs sorted by (from, to), and
 * an element's edge-function pairs sorted by (d1, d2) (include/weir/ifds.h,
 * ide.h): every lookup below is a binary search, so that a token of many
 * pairs costs O(log n) per step of the solver, not O(n). */
static uint32_t lower_bound(const uint32_t *from, const uint32_t *to, uint32_t lo, uint32_t hi,
                            uint32_t d1, uint32_t d2) {
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (from[mid] < d1 || (from[mid] == d1 && to && to[mid] < d2)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

weir_status ide_flow_targets(const weir_ifds_flows *fl, uint32_t f, uint32_t d, ifds_vec *out) {
  out->len = 0;
  int self = d == 0;
  if (!self && fl->identity[f]) {
    uint32_t hi = fl->kill_offset[f + 1];
    uint32_t k = lower_bound(fl->kill_fact, NULL, fl->kill_offset[f], hi, d, 0);
    self = k == hi || fl->kill_fact[k] != d;
  }
  if (self) WEIR_TRY(ifds_vec_push(out, d));
  uint32_t hi = fl->pair_offset[f + 1];
  for (uint32_t k = lower_bound(fl->pair_from, NULL, fl->pair_offset[f], hi, d, 0);
       k < hi && fl->pair_from[k] == d; ++k)
    WEIR_TRY(ifds_vec_push(out, fl->pair_to[k]));
  return WEIR_OK;
}

const weir_ide_fn *ide_pair_fn(const weir_ide_problem *p, const uint32_t *offsets, uint32_t e,
                               uint32_t d1, uint32_t d2) {
  uint32_t hi = offsets[e + 1], i = lower_bound(p->ann_from, p->ann_to, offsets[e], hi, d1, d2);
  if (i < hi && p->ann_from[i] == d1 && p->ann_to[i] == d2) return &p->fns[p->ann_fn[i]];
  return &p->fns[0]; /* the identity */
}

/* Prepends `value` to a list whose head is *head. */
static weir_status list_push(ifds_vec *values, ifds_vec *next, uint32_t *head, uint32_t value) {
  uint32_t i = (uint32_t)values->len;
  WEIR_TRY(ifds_vec_push(values, value));
  WEIR_TRY(ifds_vec_push(next, *head));
  *head = i;
  return WEIR_OK;
}

/* The head of the list under `key` in map m (IDE_NIL when none). */
static uint32_t head_of(const ifds_map *m, uint64_t key) {
  const uint32_t *h = ifds_map_find(m, key);
  return h ? *h : IDE_NIL;
}

static weir_status push_head(ifds_map *m, uint64_t key, ifds_vec *values, ifds_vec *next,
                             uint32_t value) {
  uint32_t *slot, head;
  int added;
  WEIR_TRY(ifds_map_upsert(m, key, IDE_NIL, &slot, &added));
  head = *slot;
  WEIR_TRY(list_push(values, next, &head, value));
  *ifds_map_find(m, key) = head;
  return WEIR_OK;
}

static weir_status queue(ide_solver *s, uint32_t pe) {
  if (s->pe_queued.data[pe]) return WEIR_OK;
  s->pe_queued.data[pe] = 1;
  return ifds_vec_push(&s->work, pe);
}

/* The path edge (d1, n, d2), created with jump function ⊤ (and queued:
 * it holds, whatever its function) if new. */
static weir_status path_edge(ide_solver *s, uint32_t d1, uint32_t n, uint32_t d2, uint32_t *out) {
  uint32_t *slot;
  int added;
  WEIR_TRY(ifds_map_upsert(&s->nf_of, ifds_key(n, d2), (uint32_t)s->nf_node.len, &slot, &added));
  uint32_t nf = *slot;
  if (added) {
    WEIR_TRY(ifds_vec_push(&s->nf_node, n));
    WEIR_TRY(ifds_vec_push(&s->nf_fact, d2));
    WEIR_TRY(ifds_vec_push(&s->nf_first, IDE_NIL));
  }
  WEIR_TRY(ifds_map_upsert(&s->pe_of, ifds_key(nf, d1), (uint32_t)s->pe_nf.len, &slot, &added));
  *out = *slot;
  if (!added) return WEIR_OK;
  if (s->pe_nf.len == s->jf_cap) {
    size_t cap = s->jf_cap ? s->jf_cap * 2 : 256;
    weir_ide_fn *jf = realloc(s->jf, cap * sizeof *jf);
    if (!jf)
      return weir_fail(WEIR_ERR_OUT_OF_MEMORY, "the IDE reference solver: %zu jump functions do "
                       "not fit in memory. Fix: solve a smaller problem.", cap);
    s->jf = jf, s->jf_cap = cap;
  }
  s->jf[*out] = ide_fn_top(s->p->family);
  WEIR_TRY(list_push(&s->pe_d1, &s->pe_next, &s->nf_first.data[nf], d1));
  WEIR_TRY(ifds_vec_push(&s->pe_nf, nf));
  WEIR_TRY(ifds_vec_push(&s->pe_queued, 0));
  uint32_t q = s->g->node_proc[n];
  if (n == s->g->proc_last[q]) WEIR_TRY(push_head(&s->end_sum, ifds_key(q, d1), &s->es_pe, &s->es_next, *out));
  return queue(s, *out);
}

/* (d1, n, d2) ⊒ f: merged into the jump function; queued when it changed. */
static weir_status propagate(ide_solver *s, uint32_t d1, uint32_t n, uint32_t d2,
                             const weir_ide_fn *f) {
  uint32_t pe;
  WEIR_TRY(path_edge(s, d1, n, d2, &pe));
  weir_ide_fn merged = ide_fn_join(&s->jf[pe], f);
  if (ide_fn_equal(&merged, &s->jf[pe])) return WEIR_OK;
  s->jf[pe] = merged;
  s->stats.jump_updates++;
  return queue(s, pe);
}

/* ret ∘ jx ∘ call ∘ jf: through a callee, from the caller's context. */
static weir_ide_fn through(const weir_ide_fn *ret, const weir_ide_fn *jx, const weir_ide_fn *call,
                           const weir_ide_fn *jf) {
  weir_ide_fn a = ide_fn_compose(call, jf), b = ide_fn_compose(jx, &a);
  return ide_fn_compose(ret, &b);
}

/* Callee k entered from a call with d2: (d3, start, d3) ⊒ id and the
 * incoming entry, once per (k, d2). */
static weir_status enter(ide_solver *s, uint32_t k, uint32_t d2) {
  uint32_t *unused;
  int added;
  WEIR_TRY(ifds_map_upsert(&s->entered, ifds_key(k, d2), 0, &unused, &added));
  if (!added) return WEIR_OK;
  const weir_ifds_problem *g = s->g;
  uint32_t q = g->callee_proc[k];
  WEIR_TRY(ide_flow_targets(&g->flows, g->callee_call_flow[k], d2, &s->b));
  ifds_vec targets = s->b;
  s->b = (ifds_vec){0};
  weir_status st = WEIR_OK;
  for (size_t i = 0; st == WEIR_OK && i < targets.len; ++i) {
    uint32_t d3 = targets.data[i];
    st = propagate(s, d3, g->proc_first[q], d3, &s->p->fns[0]);
    if (st == WEIR_OK) st = push_head(&s->incoming, ifds_key(q, d3), &s->in_k, &s->in_next, k);
    if (st == WEIR_OK) st = ifds_vec_push(&s->in_d2, d2);
  }
  ifds_vec_free(&targets);
  return st;
}

/* The exit path edges of callee k for entry fact d3, returned to (d1, r). */
static weir_status returns(ide_solver *s, uint32_t k, uint32_t d1, uint32_t d2, uint32_t d3,
                           const weir_ide_fn *jf) {
  const weir_ide_problem *p = s->p;
  const weir_ifds_problem *g = s->g;
  uint32_t c = s->callee_call[k], r = g->call_return[c];
  const weir_ide_fn *call = ide_pair_fn(p, p->callee_call_ann_offset, k, d2, d3);
  for (uint32_t l = head_of(&s->end_sum, ifds_key(g->callee_proc[k], d3)); l != IDE_NIL;
       l = s->es_next.data[l]) {
    uint32_t x = s->es_pe.data[l], d4 = s->nf_fact.data[s->pe_nf.data[x]];
    WEIR_TRY(ide_flow_targets(&g->flows, g->callee_return_flow[k], d4, &s->a));
    ifds_vec d5s = s->a;
    s->a = (ifds_vec){0};
    weir_status st = WEIR_OK;
    for (size_t i = 0; st == WEIR_OK && i < d5s.len; ++i) {
      const weir_ide_fn *ret = ide_pair_fn(p, p->callee_return_ann_offset, k, d4, d5s.data[i]);
      weir_ide_fn f = through(ret, &s->jf[x], call, jf);
      st = propagate(s, d1, r, d5s.data[i], &f);
    }
    ifds_vec_free(&d5s);
    WEIR_TRY(st);
  }
  return WEIR_OK;
}

static weir_status at_call(ide_solver *s, uint32_t d1, uint32_t c, uint32_t d2, weir_ide_fn jf) {
  const weir_ide_problem *p = s->p;
  const weir_ifds_problem *g = s->g;
  WEIR_TRY(ide_flow_targets(&g->flows, g->call_flow[c], d2, &s->a));
  for (size_t i = 0; i < s->a.len; ++i) {
    weir_ide_fn f = ide_fn_compose(ide_pair_fn(p, p->call_ann_offset, c, d2, s->a.data[i]), &jf);
    WEIR_TRY(propagate(s, d1, g->call_return[c], s->a.data[i], &f));
  }
  for (uint32_t k = g->callee_offset[c]; k < g->callee_offset[c + 1]; ++k) {
    WEIR_TRY(enter(s, k, d2));
    WEIR_TRY(ide_flow_targets(&g->flows, g->callee_call_flow[k], d2, &s->b));
    ifds_vec d3s = s->b;
    s->b = (ifds_vec){0};
    weir_status st = WEIR_OK;
    for (size_t i = 0; st == WEIR_OK && i < d3s.len; ++i) st = returns(s, k, d1, d2, d3s.data[i], &jf);
    ifds_vec_free(&d3s);
    WEIR_TRY(st);
  }
  return WEIR_OK;
}

/* (d1, exit q, d2) with jump function jx: back to every call that entered
 * q with d1, for every context at that call. */
static weir_status at_exit(ide_solver *s, uint32_t d1, uint32_t q, uint32_t d2, weir_ide_fn jx) {
  const weir_ide_problem *p = s->p;
  const weir_ifds_problem *g = s->g;
  for (uint32_t l = head_of(&s->incoming, ifds_key(q, d1)); l != IDE_NIL; l = s->in_next.data[l]) {
    uint32_t k = s->in_k.data[l], dc = s->in_d2.data[l], c = s->callee_call[k];
    uint32_t *nf = ifds_map_find(&s->nf_of, ifds_key(g->call_node[c], dc));
    if (!nf) continue;
    const weir_ide_fn *call = ide_pair_fn(p, p->callee_call_ann_offset, k, dc, d1);
    WEIR_TRY(ide_flow_targets(&g->flows, g->callee_return_flow[k], d2, &s->a));
    ifds_vec d5s = s->a;
    s->a = (ifds_vec){0};
    weir_status st = WEIR_OK;
    for (uint32_t y = s->nf_first.data[*nf]; st == WEIR_OK && y != IDE_NIL; y = s->pe_next.data[y]) {
      uint32_t d0 = s->pe_d1.data[y], ype = y; /* list entries are path-edge indices */
      for (size_t i = 0; st == WEIR_OK && i < d5s.len; ++i) {
        const weir_ide_fn *ret = ide_pair_fn(p, p->callee_return_ann_offset, k, d2, d5s.data[i]);
        weir_ide_fn f = through(ret, &jx, call, &s->jf[ype]);
        st = propagate(s, d0, g->call_return[c], d5s.data[i], &f);
      }
    }
    ifds_vec_free(&d5s);
    WEIR_TRY(st);
  }
  return WEIR_OK;
}

static weir_status step(ide_solver *s, uint32_t pe) {
  const weir_ide_problem *p = s->p;
  const weir_ifds_problem *g = s->g;
  uint32_t nf = s->pe_nf.data[pe], n = s->nf_node.data[nf], d2 = s->nf_fact.data[nf];
  uint32_t d1 = s->pe_d1.data[pe], c = g->node_call[n], q = g->node_proc[n];
  weir_ide_fn jf = s->jf[pe]; /* a copy: propagate may move the array */
  if (c != WEIR_IFDS_NONE) return at_call(s, d1, c, d2, jf);
  if (n == g->proc_last[q]) return at_exit(s, d1, q, d2, jf);
  for (uint32_t e = g->succ_offset[n]; e < g->succ_offset[n + 1]; ++e) {
    WEIR_TRY(ide_flow_targets(&g->flows, g->succ_flow[e], d2, &s->a));
    ifds_vec d3s = s->a;
    s->a = (ifds_vec){0};
    weir_status st = WEIR_OK;
    for (size_t i = 0; st == WEIR_OK && i < d3s.len; ++i) {
      weir_ide_fn f = ide_fn_compose(ide_pair_fn(p, p->edge_ann_offset, e, d2, d3s.data[i]), &jf);
      st = propagate(s, d1, g->succ_node[e], d3s.data[i], &f);
    }
    ifds_vec_free(&d3s);
    WEIR_TRY(st);
  }
  return WEIR_OK;
}

weir_status ide_phase1(ide_solver *s) {
  const weir_ifds_problem *g = s->g;
  for (uint32_t i = 0; i < g->seed_count; ++i) {
    weir_ide_fn f = ide_fn_const_of(s->p->family, s->p->seed_value[i]);
    WEIR_TRY(propagate(s, 0, g->seed_node[i], g->seed_fact[i], &f));
  }
  while (s->work.len) { /* LIFO: the order does not change the fixed point */
    uint32_t pe = s->work.data[--s->work.len];
    s->pe_queued.data[pe] = 0;
    s->stats.iterations++;
    WEIR_TRY(step(s, pe));
  }
  s->stats.path_edges = s->pe_nf.len;
  return WEIR_OK;
}
