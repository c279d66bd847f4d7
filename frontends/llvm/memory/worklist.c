/* The solver's worklist, visited in waves: nodes carry a topological rank
 * (from the last cycle elimination, sources first); a wave pops nodes in
 * rank order, and a node pushed behind the current rank (a back edge, an
 * edge the loads and stores added) waits for the next wave. So a node
 * gathers what all its predecessors send before it passes it on, instead
 * of passing on every small delta as it comes. */
#include <stdlib.h>
#include <string.h>

#include "frontends/llvm/memory/pta.h"

static int below(const weir_llvm_memory *m, uint32_t a, uint32_t b) { return m->nodes[a].rank < m->nodes[b].rank; }

static void heap_push(weir_llvm_memory *m, pta_set *h, uint32_t node) {
  pta_set_push(m, h, node);
  if (m->failed) return;
  uint32_t at = h->n - 1;
  while (at > 0) {
    uint32_t up = (at - 1) / 2;
    if (!below(m, node, h->v[up])) break;
    h->v[at] = h->v[up];
    at = up;
  }
  h->v[at] = node;
}

static uint32_t heap_pop(weir_llvm_memory *m, pta_set *h) {
  uint32_t top = h->v[0], last = h->v[--h->n], at = 0;
  for (;;) {
    uint32_t child = 2 * at + 1;
    if (child >= h->n) break;
    if (child + 1 < h->n && below(m, h->v[child + 1], h->v[child])) ++child;
    if (!below(m, h->v[child], last)) break;
    h->v[at] = h->v[child];
    at = child;
  }
  if (h->n) h->v[at] = last;
  return top;
}

void pta_push(weir_llvm_memory *m, uint32_t node) {
  node = pta_find(m, node);
  if (m->nodes[node].queued) return;
  m->nodes[node].queued = 1;
  heap_push(m, m->nodes[node].rank > m->wave_rank ? &m->wave_now : &m->wave_next, node);
}

uint32_t pta_pop(weir_llvm_memory *m) {
  if (m->wave_now.n == 0) {
    pta_set t = m->wave_now;
    m->wave_now = m->wave_next;
    m->wave_next = t;
    m->wave_rank = 0;
  }
  if (m->wave_now.n == 0) return PTA_NONE;
  uint32_t node = heap_pop(m, &m->wave_now);
  m->wave_rank = m->nodes[node].rank;
  m->nodes[node].queued = 0;
  return node;
}

/* Ranks changed (cycle elimination): queue again from the start. */
void pta_worklist_reorder(weir_llvm_memory *m) {
  pta_set pending = {0};
  for (uint32_t k = 0; k < m->wave_now.n; ++k) pta_set_push(m, &pending, m->wave_now.v[k]);
  for (uint32_t k = 0; k < m->wave_next.n; ++k) pta_set_push(m, &pending, m->wave_next.v[k]);
  m->wave_now.n = m->wave_next.n = 0;
  m->wave_rank = 0;
  for (uint32_t k = 0; k < pending.n; ++k) {
    m->nodes[pending.v[k]].queued = 0;
    pta_push(m, pending.v[k]);
  }
  pta_set_free(&pending);
}
