/* ide_parts_finish: the pairs with functions placed on the elements of the
 * built IFDS problem (CSR per element kind), the seeds' values merged in the
 * IFDS problem's seed order, the names and functions moved over. */
#include <stdlib.h>
#include <string.h>

#include "engine/ide/fn.h"
#include "engine/ide/parts.h"

typedef struct placed {
  uint32_t site, elem, d1, d2, fn, record;
} placed;

static int placed_cmp(const void *x, const void *y) {
  const placed *a = x, *b = y;
  uint32_t ka[4] = {a->site, a->elem, a->d1, a->d2}, kb[4] = {b->site, b->elem, b->d1, b->d2};
  for (int i = 0; i < 4; ++i)
    if (ka[i] != kb[i]) return ka[i] < kb[i] ? -1 : 1;
  return 0;
}

static weir_status oom(const char *what) {
  return weir_fail(WEIR_ERR_OUT_OF_MEMORY, "allocating %s of an IDE problem failed. Fix: free memory.",
                   what);
}

/* Elements of each kind: edges, calls, callees (call and return flows). */
static uint32_t elements(const weir_ifds_problem *q, uint32_t site) {
  if (site == WEIR_IDE_SITE_EDGE) return q->succ_offset[q->node_count];
  if (site == WEIR_IDE_SITE_CALL) return q->call_count;
  return q->callee_offset[q->call_count];
}

/* The element record i is about, and its flow; WEIR_IFDS_NONE if none. */
static uint32_t find_element(const weir_ifds_problem *q, uint32_t site, uint32_t a, uint32_t b,
                             uint32_t *flow) {
  if (a >= q->node_count) return WEIR_IFDS_NONE;
  if (site == WEIR_IDE_SITE_EDGE) {
    for (uint32_t e = q->succ_offset[a]; e < q->succ_offset[a + 1]; ++e)
      if (q->succ_node[e] == b) return *flow = q->succ_flow[e], e;
    return WEIR_IFDS_NONE;
  }
  uint32_t c = q->node_call[a];
  if (c == WEIR_IFDS_NONE) return WEIR_IFDS_NONE;
  if (site == WEIR_IDE_SITE_CALL) return *flow = q->call_flow[c], c;
  for (uint32_t k = q->callee_offset[c]; k < q->callee_offset[c + 1]; ++k)
    if (q->callee_proc[k] == b) {
      *flow = site == WEIR_IDE_SITE_CALLEE_CALL ? q->callee_call_flow[k] : q->callee_return_flow[k];
      return k;
    }
  return WEIR_IFDS_NONE;
}

static const char *const site_words[] = {"an edge from node A to node B",
                                         "a call at node A", "a callee B of call node A",
                                         "a callee B of call node A"};

/* Each record onto its element, checked (the builder's pairs may name
 * anything; the loader's were checked on their lines). */
static weir_status place(const ide_parts *p, const weir_ifds_problem *q, ide_pair_report report,
                         placed *out) {
  ide_flow_view v = ide_flow_view_of_flows(&q->flows);
  for (size_t i = 0; i < p->ann_site.len; ++i) {
    uint32_t site = p->ann_site.data[i], a = p->ann_a.data[i], b = p->ann_b.data[i], flow = 0;
    uint32_t d1 = p->ann_d1.data[i], d2 = p->ann_d2.data[i];
    uint32_t e = find_element(q, site, a, b, &flow);
    char found[96];
    if (e == WEIR_IFDS_NONE) {
      snprintf(found, sizeof found, "no such element (A = %u, B = %u)", a, b);
      return report(p, i, "edge function on an element the problem does not have", found,
                    site_words[site],
                    "add the element with the weir_ifds_builder_* call first, or correct A and B");
    }
    if (d1 >= q->fact_count || d2 >= q->fact_count || !ide_flow_has_pair(&v, flow, d1, d2)) {
      snprintf(found, sizeof found, "pair %u>%u", d1, d2);
      return report(p, i, "edge function on a pair the flow function does not have", found,
                    "a pair d1>d2 with d2 in f(d1)",
                    "add the pair to the element's flow function, or drop its edge function");
    }
    out[i] = (placed){site, e, d1, d2, p->ann_fn.data[i], (uint32_t)i};
  }
  return WEIR_OK;
}

static weir_status duplicates(const ide_parts *p, const placed *v, size_t n,
                              ide_pair_report report) {
  for (size_t i = 1; i < n; ++i) {
    if (placed_cmp(&v[i - 1], &v[i]) != 0) continue;
    char found[96];
    snprintf(found, sizeof found, "pair %u>%u given twice (the other: record %u)", v[i].d1,
             v[i].d2, v[i - 1].record);
    return report(p, v[i].record, "repeated edge function for a pair", found,
                  "one function per pair of an element",
                  "give each pair one function (merge them yourself if both are meant)");
  }
  return WEIR_OK;
}

/* Offsets [count + 1] of one site kind into the sorted records. */
static weir_status offsets(const placed *v, size_t n, uint32_t site, uint32_t count,
                           uint32_t **out) {
  uint32_t *o = calloc((size_t)count + 1, sizeof *o);
  if (!o) return oom("the edge-function offsets");
  size_t i = 0;
  while (i < n && v[i].site < site) ++i;
  for (uint32_t e = 0; e <= count; ++e) {
    while (i < n && v[i].site == site && v[i].elem < e) ++i;
    o[e] = (uint32_t)i;
  }
  *out = o;
  return WEIR_OK;
}

static weir_status pairs(const ide_parts *p, weir_ide_problem *r, ide_pair_report report) {
  const weir_ifds_problem *q = r->ifds;
  size_t n = p->ann_site.len;
  placed *v = malloc((n ? n : 1) * sizeof *v);
  r->ann_from = malloc((n ? n : 1) * sizeof *r->ann_from);
  r->ann_to = malloc((n ? n : 1) * sizeof *r->ann_to);
  r->ann_fn = malloc((n ? n : 1) * sizeof *r->ann_fn);
  weir_status s = v && r->ann_from && r->ann_to && r->ann_fn ? WEIR_OK : oom("the pairs");
  if (s == WEIR_OK) s = place(p, q, report, v);
  if (s == WEIR_OK) qsort(v, n, sizeof *v, placed_cmp);
  if (s == WEIR_OK) s = duplicates(p, v, n, report);
  size_t m = 0; /* a pair given the identity is a pair given nothing: dropped */
  for (size_t i = 0; s == WEIR_OK && i < n; ++i)
    if (v[i].fn != 0) v[m++] = v[i];
  n = m;
  for (size_t i = 0; s == WEIR_OK && i < n; ++i)
    r->ann_from[i] = v[i].d1, r->ann_to[i] = v[i].d2, r->ann_fn[i] = v[i].fn;
  r->ann_count = (uint32_t)n;
  uint32_t **outs[] = {&r->edge_ann_offset, &r->call_ann_offset, &r->callee_call_ann_offset,
                       &r->callee_return_ann_offset};
  for (uint32_t k = 0; s == WEIR_OK && k < 4; ++k) s = offsets(v, n, k, elements(q, k), outs[k]);
  free(v);
  return s;
}

/* Seeds sorted by (node, fact) with repeats merged: the IFDS problem's order. */
static weir_status seeds(const ide_parts *p, weir_ide_problem *r) {
  const weir_ifds_problem *q = r->ifds;
  r->seed_value = malloc((q->seed_count ? q->seed_count : 1) * sizeof *r->seed_value);
  if (!r->seed_value) return oom("the seed values");
  for (uint32_t i = 0; i < q->seed_count; ++i) r->seed_value[i] = ide_value_top(p->family);
  for (size_t j = 0; j < p->seed_node.len; ++j) {
    uint32_t lo = 0, hi = q->seed_count, node = p->seed_node.data[j], fact = p->seed_fact.data[j];
    while (lo < hi) { /* first seed >= (node, fact) */
      uint32_t mid = lo + (hi - lo) / 2;
      int less = q->seed_node[mid] < node || (q->seed_node[mid] == node && q->seed_fact[mid] < fact);
      if (less) lo = mid + 1; else hi = mid;
    }
    if (lo == q->seed_count || q->seed_node[lo] != node || q->seed_fact[lo] != fact)
      return weir_fail(WEIR_ERR_INTERNAL,
                       "IDE seed (node %u, fact %u) is not among the IFDS seeds. Fix: report "
                       "this bug in weir.", node, fact);
    r->seed_value[lo] = ide_value_join(p->family, r->seed_value[lo], p->seed_value[j]);
  }
  return WEIR_OK;
}

static weir_status names(const ide_parts *p, weir_ide_problem *r) {
  char fallback[WEIR_IDE_MAX_STATES][16];
  size_t total = 0;
  for (uint32_t s = 0; s < p->states; ++s) {
    snprintf(fallback[s], sizeof fallback[s], "s%u", s);
    total += strlen(p->state_name[s] ? p->state_name[s] : fallback[s]);
  }
  r->state_name_offset = calloc(p->states + 1u, sizeof *r->state_name_offset);
  r->state_names = malloc(total + 1);
  if (!r->state_name_offset || !r->state_names) return oom("the state names");
  size_t at = 0;
  for (uint32_t s = 0; s < p->states; ++s) {
    const char *name = p->state_name[s] ? p->state_name[s] : fallback[s];
    memcpy(r->state_names + at, name, strlen(name));
    at += strlen(name);
    r->state_name_offset[s + 1] = (uint32_t)at;
  }
  r->state_names[at] = 0;
  return WEIR_OK;
}

weir_status ide_parts_finish(ide_parts *p, weir_ifds_problem *ifds, ide_pair_report report,
                             weir_ide_problem **out) {
  *out = NULL;
  weir_ide_problem *r = calloc(1, sizeof *r);
  if (!r) {
    weir_ifds_problem_free(ifds);
    return oom("the problem");
  }
  r->ifds = ifds;
  r->family = p->family;
  r->state_count = p->states;
  r->fn_count = (uint32_t)p->fn_count;
  r->fns = malloc(p->fn_count * sizeof *r->fns);
  weir_status s = r->fns ? WEIR_OK : oom("the functions");
  if (s == WEIR_OK) memcpy(r->fns, p->fns, p->fn_count * sizeof *r->fns);
  if (s == WEIR_OK) s = pairs(p, r, report);
  if (s == WEIR_OK) s = seeds(p, r);
  if (s == WEIR_OK) s = names(p, r);
  if (s != WEIR_OK) {
    weir_ide_problem_free(r);
    return s;
  }
  *out = r;
  return WEIR_OK;
}

void weir_ide_problem_free(weir_ide_problem *r) {
  if (!r) return;
  weir_ifds_problem_free(r->ifds);
  void *arrays[] = {r->state_name_offset,      r->state_names,  r->fns,
                    r->edge_ann_offset,        r->call_ann_offset, r->callee_call_ann_offset,
                    r->callee_return_ann_offset, r->ann_from,   r->ann_to,
                    r->ann_fn,                 r->seed_value};
  for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; ++i) free(arrays[i]);
  free(r);
}
