/* Cycle elimination: nodes on a cycle of copy edges end with equal
 * points-to sets, so each strongly connected component is merged into one
 * representative (union-find). Found by Tarjan's algorithm over the copy
 * edges, run before solving and again whenever the edges grew by a
 * quarter (loads and stores add edges as pointers grow); the components
 * are merged after the walk, each side sent only what it lacks, and the
 * walk's completion order ranks the nodes for the worklist. Without it,
 * code whose containers all share a few heap blocks makes every load and
 * store hundreds of edges that each carry the same set. */
#include <stdlib.h>
#include <string.h>

#include "frontends/llvm/memory/pta.h"

uint32_t pta_find(weir_llvm_memory *m, uint32_t node) {
  while (m->rep[node] != node) {
    m->rep[node] = m->rep[m->rep[node]];
    node = m->rep[node];
  }
  return node;
}

/* Cleans a representative's edge list after merges: representatives
 * only, once each, no self edge. */
static void tidy(weir_llvm_memory *m, uint32_t rep) {
  pta_set *copy = &m->nodes[rep].copy;
  for (uint32_t k = 0; k < copy->n; ++k) copy->v[k] = pta_find(m, copy->v[k]);
  pta_set_sort_unique(copy);
  uint32_t w = 0;
  for (uint32_t k = 0; k < copy->n; ++k)
    if (copy->v[k] != rep) copy->v[w++] = copy->v[k];
  copy->n = w;
  pta_set_sort_unique(&m->nodes[rep].complex);
}

/* Merges `x` into `rep`, sending each side only what it lacks: x's edges
 * and constraints get rep's elements x does not have, now; rep's get x's
 * elements rep does not have, as rep's delta (which also takes both
 * pending deltas). Not while Tarjan walks the edges: applying constraints
 * adds edges and nodes. */
static void merge(weir_llvm_memory *m, uint32_t rep, uint32_t x) {
  pta_bits lacking = {0};
  pta_bits_diff(m, &lacking, &m->nodes[rep].set, &m->nodes[x].set);
  if (lacking.count) {
    for (uint32_t k = 0; k < m->nodes[x].copy.n; ++k) {
      uint32_t to = pta_find(m, m->nodes[x].copy.v[k]);
      if (to != rep && to != x) pta_propagate_bits(m, to, &lacking);
    }
    pta_set elements = {0};
    pta_bits_to_sorted(m, &lacking, &elements);
    for (uint32_t k = 0; k < m->nodes[x].complex.n; ++k)
      pta_apply(m, m->nodes[x].complex.v[k], x, elements.v, elements.n);
    pta_set_free(&elements);
  }
  /* rep's side: x's elements it lacks, and whatever is still pending */
  pta_bits_diff(m, &lacking, &m->nodes[x].set, &m->nodes[rep].set);
  pta_node *r = &m->nodes[rep], *n = &m->nodes[x];
  r->no_functions = r->no_functions && n->no_functions;
  pta_bits_union(m, &r->delta, &lacking, NULL);
  pta_bits_union(m, &r->delta, &n->delta, NULL);
  pta_bits_union(m, &r->set, &n->set, NULL);
  for (uint32_t k = 0; k < n->copy.n; ++k) pta_set_push(m, &r->copy, n->copy.v[k]);
  for (uint32_t k = 0; k < n->complex.n; ++k) pta_set_push(m, &r->complex, n->complex.v[k]);
  pta_bits_free(&n->set);
  pta_bits_free(&n->delta);
  pta_set_free(&n->copy);
  pta_set_free(&n->complex);
  pta_bits_free(&lacking);
  m->rep[x] = rep;
}

void pta_unify(weir_llvm_memory *m, const uint32_t *nodes, uint32_t n) {
  if (n == 0) return;
  uint32_t rep = pta_find(m, nodes[0]), merged = 0;
  for (uint32_t k = 1; k < n && !m->failed; ++k) {
    uint32_t x = pta_find(m, nodes[k]);
    if (x == rep) continue;
    merge(m, rep, x);
    ++merged;
  }
  if (!merged) return;
  m->stats.merged += merged;
  tidy(m, rep);
  if (m->nodes[rep].delta.count) pta_push(m, rep);
}

typedef struct scc {
  uint32_t *index, *low, *stack, *frame, *edge;
  uint8_t *on;
  uint32_t next, depth, emitted;
  pta_set groups; /* components to merge: root, members, PTA_NONE */
} scc;

static void component(weir_llvm_memory *m, scc *t, uint32_t root) {
  uint32_t bottom = t->depth;
  while (t->stack[bottom - 1] != root) --bottom;
  --bottom;
  for (uint32_t k = bottom; k < t->depth; ++k) t->on[t->stack[k]] = 0;
  if (t->depth - bottom > 1) { /* merged after the walk: root first, then the members, then a mark */
    pta_set_push(m, &t->groups, root);
    for (uint32_t k = bottom + 1; k < t->depth; ++k) pta_set_push(m, &t->groups, t->stack[k]);
    pta_set_push(m, &t->groups, PTA_NONE);
  }
  /* Tarjan completes components sinks first: sources get the low ranks */
  m->nodes[root].rank = m->node_count - ++t->emitted;
  t->depth = bottom;
}

static void visit(weir_llvm_memory *m, scc *t, uint32_t start) {
  uint32_t frames = 0;
  t->frame[frames] = start;
  t->edge[frames++] = 0;
  t->index[start] = t->low[start] = t->next++;
  t->stack[t->depth++] = start;
  t->on[start] = 1;
  while (frames) {
    uint32_t node = t->frame[frames - 1];
    if (t->edge[frames - 1] < m->nodes[node].copy.n) {
      uint32_t to = pta_find(m, m->nodes[node].copy.v[t->edge[frames - 1]++]);
      /* an edge that filters (graph.c) joins no cycle: the sets differ */
      if (to == node || (m->nodes[to].no_functions && !m->nodes[node].no_functions)) continue;
      if (t->index[to] == PTA_NONE) {
        t->index[to] = t->low[to] = t->next++;
        t->stack[t->depth++] = to;
        t->on[to] = 1;
        t->frame[frames] = to;
        t->edge[frames++] = 0;
      } else if (t->on[to] && t->index[to] < t->low[node]) {
        t->low[node] = t->index[to];
      }
      continue;
    }
    --frames;
    if (frames) {
      uint32_t parent = t->frame[frames - 1];
      if (t->low[node] < t->low[parent]) t->low[parent] = t->low[node];
    }
    if (t->low[node] == t->index[node]) component(m, t, node);
  }
}

void pta_collapse_cycles(weir_llvm_memory *m) {
  uint32_t n = m->node_count;
  m->stats.cycle_passes++;
  scc t = {0};
  t.index = malloc((size_t)n * sizeof(uint32_t));
  t.low = malloc((size_t)n * sizeof(uint32_t));
  t.stack = malloc((size_t)n * sizeof(uint32_t));
  t.frame = malloc((size_t)n * sizeof(uint32_t));
  t.edge = malloc((size_t)n * sizeof(uint32_t));
  t.on = calloc(n ? n : 1, 1);
  if (n && t.index && t.low && t.stack && t.frame && t.edge && t.on) {
    memset(t.index, 0xff, (size_t)n * sizeof(uint32_t));
    for (uint32_t k = 0; k < n; ++k)
      if (m->rep[k] == k && t.index[k] == PTA_NONE) visit(m, &t, k);
  } else if (n) {
    m->failed = 1;
  }
  for (uint32_t k = 0; k < t.groups.n && !m->failed;) {
    uint32_t end = k;
    while (t.groups.v[end] != PTA_NONE) ++end;
    pta_unify(m, t.groups.v + k, end - k);
    k = end + 1;
  }
  pta_set_free(&t.groups);
  free(t.index);
  free(t.low);
  free(t.stack);
  free(t.frame);
  free(t.edge);
  free(t.on);
}
