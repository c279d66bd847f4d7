/* Bypassing identity nodes: the sparse supergraph.
 *
 * After pruning, almost every instruction's flow is the identity for the
 * facts that are left (on OCaml's runtime 97.5% of the edges of the uninit
 * problem): its node only hands every fact on. Each such node costs the
 * solver one path edge per fact that reaches it, in every context, for
 * nothing. A node whose out-edges all carry the identity, and that is none
 * of the nodes the solver or the reports need (start, exit, call, return
 * site, a check, a source), is bypassed: each in-edge (p, f, n) and
 * out-edge (n, id, s) become (p, f, s). IFDS results at every remaining
 * node are unchanged, since composing with the identity changes nothing;
 * the bypassed node keeps its number and has no edges.
 *
 * Only nodes with one in-edge or one out-edge are bypassed (chains, a
 * block's branch, a join before a plain instruction), so the edge count
 * never grows; a node whose bypass would make a second edge between two
 * nodes with another flow (the format allows one edge per pair) stays. */
#include <stdlib.h>
#include <string.h>

#include "frontends/llvm/module/bypass.h"

typedef struct edge {
  uint32_t from, to, flow;
  uint8_t id, alive;
} edge;

typedef struct graph {
  edge *edges;
  size_t count, cap;
  uint32_t first, n;  /* nodes [first, first + n) */
  weir_llvm_vec *out; /* [n] edge indices leaving the node (some dead) */
  weir_llvm_vec *in;  /* [n] edge indices entering it */
} graph;

static int add(graph *g, uint32_t from, uint32_t to, uint32_t flow, uint8_t id) {
  if (g->count == g->cap) {
    size_t cap = g->cap ? 2 * g->cap : 64;
    edge *e = realloc(g->edges, cap * sizeof *e);
    if (!e) return 0;
    g->edges = e, g->cap = cap;
  }
  uint32_t k = (uint32_t)g->count++;
  g->edges[k] = (edge){from, to, flow, id, 1};
  weir_llvm_vec_push(&g->out[from - g->first], k);
  weir_llvm_vec_push(&g->in[to - g->first], k);
  return 1;
}

/* The live edge from -> to, or NULL. */
static edge *find(const graph *g, uint32_t from, uint32_t to) {
  const weir_llvm_vec *out = &g->out[from - g->first];
  for (size_t k = 0; k < out->n; ++k) {
    edge *e = &g->edges[out->v[k]];
    if (e->alive && e->to == to) return e;
  }
  return NULL;
}

/* Live in- or out-edges of a node, without identity self-loops (which hand
 * nothing on), into `out`; 0 when a self-loop with another flow is found. */
static int live(const graph *g, const weir_llvm_vec *list, weir_llvm_vec *out) {
  out->n = 0;
  for (size_t k = 0; k < list->n; ++k) {
    const edge *e = &g->edges[list->v[k]];
    if (!e->alive) continue;
    if (e->from == e->to) {
      if (!e->id) return 0;
      continue;
    }
    weir_llvm_vec_push(out, list->v[k]);
  }
  return 1;
}

/* Whether node n can be bypassed, with its live in- and out-edges. */
static int bypassable(const graph *g, uint32_t n, weir_llvm_vec *in, weir_llvm_vec *out) {
  uint32_t i = n - g->first;
  if (!live(g, &g->out[i], out) || !live(g, &g->in[i], in)) return 0;
  if (in->n == 0 || out->n == 0) return 0; /* unreachable or a dead end: nothing to gain */
  if (in->n > 1 && out->n > 1) return 0;   /* in x out edges would replace in + out */
  for (size_t k = 0; k < out->n; ++k)
    if (!g->edges[out->v[k]].id) return 0;
  /* every new edge p -> s must not meet an existing one with another flow
   * (nor one made twice with two flows: two in-edges with one out-edge s
   * come from distinct p, two out-edges from one p go to distinct s) */
  for (size_t a = 0; a < in->n; ++a)
    for (size_t b = 0; b < out->n; ++b) {
      const edge *p = &g->edges[in->v[a]], *s = &g->edges[out->v[b]];
      if (p->from == s->to) {
        if (!p->id) return 0; /* would be a self-loop with a flow */
        continue;
      }
      const edge *there = find(g, p->from, s->to);
      if (there && there->flow != p->flow) return 0;
    }
  return 1;
}

static int bypass(graph *g, const weir_llvm_vec *in, const weir_llvm_vec *out) {
  for (size_t a = 0; a < in->n; ++a)
    for (size_t b = 0; b < out->n; ++b) {
      edge p = g->edges[in->v[a]];
      uint32_t to = g->edges[out->v[b]].to;
      if (p.from == to || find(g, p.from, to)) continue; /* identity self-loop, or the same edge */
      if (!add(g, p.from, to, p.flow, p.id)) return 0;
    }
  for (size_t a = 0; a < in->n; ++a) g->edges[in->v[a]].alive = 0;
  for (size_t b = 0; b < out->n; ++b) g->edges[out->v[b]].alive = 0;
  return 1;
}

static void graph_free(graph *g) {
  for (uint32_t k = 0; g->out && k < g->n; ++k) weir_llvm_vec_free(&g->out[k]);
  for (uint32_t k = 0; g->in && k < g->n; ++k) weir_llvm_vec_free(&g->in[k]);
  free(g->out);
  free(g->in);
  free(g->edges);
}

static int vec_failed(const graph *g) {
  for (uint32_t k = 0; k < g->n; ++k)
    if (g->out[k].failed || g->in[k].failed) return 1;
  return 0;
}

int weir_llvm_bypass(const weir_llvm_bypass_input *input, weir_llvm_vec *edges_out, uint32_t *bypassed) {
  graph g = {.first = input->first, .n = input->node_count};
  g.out = calloc(g.n ? g.n : 1, sizeof *g.out);
  g.in = calloc(g.n ? g.n : 1, sizeof *g.in);
  int ok = g.out && g.in;
  for (size_t k = 0; ok && k < input->edge_count; ++k)
    ok = add(&g, input->edges[4 * k], input->edges[4 * k + 1], input->edges[4 * k + 2],
             (uint8_t)input->edges[4 * k + 3]);
  weir_llvm_vec in = {0}, out = {0};
  *bypassed = 0;
  for (uint32_t i = 0; ok && i < g.n; ++i) {
    if (input->keep[i] || !bypassable(&g, g.first + i, &in, &out)) continue;
    ok = bypass(&g, &in, &out);
    ++*bypassed;
  }
  ok = ok && !in.failed && !out.failed && !vec_failed(&g);
  edges_out->n = 0;
  for (size_t k = 0; ok && k < g.count; ++k) {
    const edge *e = &g.edges[k];
    if (!e->alive) continue;
    weir_llvm_vec_push(edges_out, e->from);
    weir_llvm_vec_push(edges_out, e->to);
    weir_llvm_vec_push(edges_out, e->flow);
  }
  weir_llvm_vec_free(&in);
  weir_llvm_vec_free(&out);
  graph_free(&g);
  return ok && !edges_out->failed;
}
