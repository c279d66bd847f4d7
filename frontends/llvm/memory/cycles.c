/* Cycle elimination: nodes on a cycle of copy edges end with equal
 * points-to sets, so each strongly connected component is merged into one
 * representative (union-find). Found by Tarjan's algorithm over the copy
 * edges, run before solving and again whenever the number of edges has
 * doubled (loads and stores add edges as pointers grow). Without it, code
 * whose containers all share a few heap blocks makes every load and store
 * hundreds of edges that each carry the same set. */
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

static void merge_into(weir_llvm_memory *m, uint32_t rep, uint32_t member) {
  pta_node *r = &m->nodes[rep], *x = &m->nodes[member];
  pta_bits_union(m, &r->set, &x->set, NULL);
  for (uint32_t k = 0; k < x->copy.n; ++k) pta_set_push(m, &r->copy, x->copy.v[k]);
  for (uint32_t k = 0; k < x->complex.n; ++k) pta_set_push(m, &r->complex, x->complex.v[k]);
  pta_bits_free(&x->set);
  pta_bits_free(&x->delta);
  pta_set_free(&x->copy);
  pta_set_free(&x->complex);
  m->rep[member] = rep;
}

/* After a merge the representative propagates its whole set again: its
 * edges and constraints come from several nodes that each saw less. */
static void settle(weir_llvm_memory *m, uint32_t rep) {
  pta_node *r = &m->nodes[rep];
  for (uint32_t k = 0; k < r->copy.n; ++k) r->copy.v[k] = pta_find(m, r->copy.v[k]);
  pta_set_sort_unique(&r->copy);
  uint32_t w = 0;
  for (uint32_t k = 0; k < r->copy.n; ++k)
    if (r->copy.v[k] != rep) r->copy.v[w++] = r->copy.v[k];
  r->copy.n = w;
  pta_set_sort_unique(&r->complex);
  pta_bits_clear(&r->delta);
  pta_bits_union(m, &r->delta, &r->set, NULL);
  pta_push(m, rep);
}

typedef struct scc {
  uint32_t *index, *low, *stack, *frame, *edge;
  uint8_t *on;
  uint32_t next, depth, emitted;
} scc;

static void component(weir_llvm_memory *m, scc *t, uint32_t root) {
  uint32_t bottom = t->depth;
  while (t->stack[bottom - 1] != root) --bottom;
  --bottom;
  for (uint32_t k = bottom; k < t->depth; ++k) t->on[t->stack[k]] = 0;
  if (t->depth - bottom > 1) {
    for (uint32_t k = bottom; k < t->depth; ++k)
      if (t->stack[k] != root) { merge_into(m, root, t->stack[k]); m->tr_merged++; }
    settle(m, root);
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
      if (to == node) continue;
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
  m->tr_cycles++;
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
  free(t.index);
  free(t.low);
  free(t.stack);
  free(t.frame);
  free(t.edge);
  free(t.on);
}
