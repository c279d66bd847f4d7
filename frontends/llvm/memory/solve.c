/* The worklist solver with difference propagation: a popped node pushes
 * only what it gained since it was last popped (its delta) along its copy
 * edges and into its complex constraints, which add copy edges (loads,
 * stores, memcpy, calls) as locations show up. New locations are matched
 * against the memcpy watchers of their object. A memcpy goes through one
 * node per relative offset (sources + destinations edges, not their
 * product). Past a work budget the solve degrades soundly (see below). */
#include <stdlib.h>
#include <string.h>

#include "frontends/llvm/memory/pta.h"

/* The node of memcpy constraint `con` for relative offset `r`, made on
 * first use; a new one feeds the cell r bytes past every destination the
 * constraint has seen so far (later ones meet it in memcpy_dest). */
static uint32_t rel_node(weir_llvm_memory *m, uint32_t con, int64_t r) {
  uint64_t key = (uint64_t)con << 32 | (uint32_t)r;
  uint32_t found = pta_map_get(&m->rel_key, key);
  if (found != PTA_NONE) return m->rels[found].node;
  if (m->rel_count == m->rel_cap) {
    uint32_t cap = m->rel_cap ? m->rel_cap * 2 : 256;
    pta_rel *grown = realloc(m->rels, (size_t)cap * sizeof *grown);
    if (!grown) {
      m->failed = 1;
      return PTA_NONE;
    }
    m->rels = grown;
    m->rel_cap = cap;
  }
  uint32_t node = pta_node_new(m);
  if (node == PTA_NONE) return PTA_NONE;
  uint32_t id = m->rel_count++;
  m->rels[id] = (pta_rel){(uint32_t)r, node, m->cons[con].rels};
  m->cons[con].rels = id;
  pta_map_put(m, &m->rel_key, key, id);
  /* a copy: pta_field may grow the node array, pta_copy the set */
  pta_set dst = {0};
  pta_bits_to_sorted(m, &m->nodes[pta_find(m, m->cons[con].a)].set, &dst);
  for (uint32_t k = 0; k < dst.n && !m->failed; ++k) {
    uint32_t to = pta_field(m, dst.v[k], r, 0);
    if (to != PTA_NONE) pta_copy(m, node, m->loc_node[to]);
  }
  pta_set_free(&dst);
  return node;
}

/* Source cell `field` lies r bytes past a source location of `con`; a
 * copy of known length takes only the fields that start inside it (a
 * 16-byte uuid copied out of a table entry does not take the entry's
 * function pointers). */
static void source_cell(weir_llvm_memory *m, uint32_t con, uint32_t field, int64_t r) {
  if (r < 0 || r > (int64_t)UINT32_MAX || r >= m->cons[con].offset) return;
  uint32_t node = rel_node(m, con, r);
  if (node != PTA_NONE) pta_copy(m, m->loc_node[field], node);
}

/* `src` reached the source pointer of `con`: every field of its object from
 * its offset on feeds the relative-offset nodes; remembered (a watcher) so
 * that fields of the object made later follow too. */
static void memcpy_source(weir_llvm_memory *m, uint32_t con, uint32_t src) {
  uint64_t key = (uint64_t)src << 32 | con;
  if (pta_map_get(&m->watch_key, key) != PTA_NONE) return;
  pta_map_put(m, &m->watch_key, key, 1);
  uint32_t object = m->loc_object[src];
  int64_t base = m->loc_offset[src];
  uint32_t watcher = m->watch.n / 2;
  pta_set_push(m, &m->watch, (uint32_t)base);
  pta_set_push(m, &m->watch, con);
  pta_set_push(m, &m->objects[object].watchers, watcher);
  for (uint32_t k = 0; k < m->objects[object].locs.n && !m->failed; ++k) {
    uint32_t field = m->objects[object].locs.v[k];
    source_cell(m, con, field, m->loc_offset[field] - base);
  }
}

/* `dst` reached the destination pointer of `con`: it receives every
 * relative-offset node made so far. */
static void memcpy_dest(weir_llvm_memory *m, uint32_t con, uint32_t dst) {
  for (uint32_t id = m->cons[con].rels; id != PTA_NONE && !m->failed; id = m->rels[id].next) {
    uint32_t to = pta_field(m, dst, m->rels[id].offset, 0);
    if (to != PTA_NONE) pta_copy(m, m->rels[id].node, m->loc_node[to]);
  }
}

static void new_locations(weir_llvm_memory *m) {
  for (uint32_t k = 0; k < m->new_locs.n && !m->failed; ++k) {
    uint32_t location = m->new_locs.v[k], object = m->loc_object[location];
    for (uint32_t w = 0; w < m->objects[object].watchers.n; ++w) {
      uint32_t watcher = m->objects[object].watchers.v[w];
      int64_t off = m->loc_offset[location] - (int64_t)m->watch.v[2 * watcher];
      source_cell(m, m->watch.v[2 * watcher + 1], location, off);
    }
  }
  m->new_locs.n = 0;
}

static void call_targets(weir_llvm_memory *m, uint32_t record, const uint32_t *locations, uint32_t n) {
  for (uint32_t k = 0; k < n; ++k) {
    const pta_object *o = &m->objects[m->loc_object[locations[k]]];
    if (o->pub.kind == WEIR_LLVM_OBJECT_FUNCTION && o->pub.site) pta_bind(m, record, o->pub.site);
  }
}

static void offsets(weir_llvm_memory *m, const pta_constraint *c, const uint32_t *locations, uint32_t n) {
  pta_bits *moved = &m->incoming; /* scratch: propagating does not use it */
  pta_bits_clear(moved);
  for (uint32_t k = 0; k < n; ++k) {
    uint32_t to = pta_field(m, locations[k], c->offset, c->delta);
    if (to != PTA_NONE) pta_bits_add(m, moved, to);
  }
  pta_propagate_bits(m, c->a, moved);
}

void pta_apply(weir_llvm_memory *m, uint32_t con, uint32_t node, const uint32_t *locations, uint32_t n) {
  pta_constraint c = m->cons[con];
  /* cycle elimination may have merged the nodes it names */
  if (c.kind != PTA_CALL) c.a = pta_find(m, c.a);
  if (c.kind == PTA_MEMCPY) c.b = pta_find(m, c.b);
  switch (c.kind) {
  case PTA_LOAD:
    for (uint32_t k = 0; k < n; ++k) pta_copy(m, m->loc_node[locations[k]], c.a);
    break;
  case PTA_STORE:
    for (uint32_t k = 0; k < n; ++k) pta_copy(m, c.a, m->loc_node[locations[k]]);
    break;
  case PTA_OFFSET: offsets(m, &c, locations, n); break;
  case PTA_CALL: call_targets(m, c.a, locations, n); break;
  case PTA_MEMCPY:
    /* node is the destination pointer, the source pointer, or both */
    for (uint32_t k = 0; k < n; ++k) {
      if (node == c.a) memcpy_dest(m, con, locations[k]);
      if (node == c.b) memcpy_source(m, con, locations[k]);
    }
    break;
  }
}

/* The safety bound: elements sent along edges, a multiple of the size of
 * the constraint graph. Real programs stay far below it (weir's own 60
 * files send 2 per constraint and node, OCaml's bytecode runtime and btmon
 * under 10, the pathological `weir_grow` case of memory/README.md about
 * 150); it exists only so that a generated worst case cannot run for
 * hours. Past it the solve is degraded: objects stop growing fields (a new
 * offset collapses the object, objects.c), which bounds the locations a
 * points-to set can hold. */
#define PTA_WORK_PER_CONSTRAINT 4096u
#define PTA_WORK_FLOOR (1u << 28)
static void check_budget(weir_llvm_memory *m) {
  uint64_t budget = (uint64_t)PTA_WORK_PER_CONSTRAINT * (m->constraint_stat + m->node_count) + PTA_WORK_FLOOR;
  if (m->work_done > budget) m->stats.degraded = 1;
}

/* Runs until the worklist is empty. */
void pta_solve(weir_llvm_memory *m) {
  pta_bits work = {0};
  while (!m->failed) {
    if (m->new_locs.n) {
      new_locations(m);
      continue;
    }
    if (m->edge_key.count >= m->next_cycle_check) {
      pta_collapse_cycles(m);
      pta_worklist_reorder(m);
      m->next_cycle_check = m->edge_key.count + m->edge_key.count / 4 + 4096;
    }
    uint32_t node = pta_pop(m);
    if (node == PTA_NONE) break;
    if (m->rep[node] != node) continue; /* merged: its representative has it all */
    m->stats.iterations++;
    /* take the delta: what arrives while it is processed is a new delta
     * (in the last one's buffer, when that one is small) */
    pta_bits spent = work;
    work = m->nodes[node].delta;
    pta_bits_clear(&spent);
    if (spent.cap > 64) pta_bits_free(&spent);
    m->nodes[node].delta = spent;
    if (work.count == 0) continue;
    if (!m->stats.degraded) check_budget(m);
    for (uint32_t k = 0; k < m->nodes[node].copy.n; ++k) pta_propagate_bits(m, m->nodes[node].copy.v[k], &work);
    if (m->nodes[node].complex.n == 0) continue;
    pta_bits_to_sorted(m, &work, &m->work);
    for (uint32_t k = 0; k < m->nodes[node].complex.n; ++k)
      pta_apply(m, m->nodes[node].complex.v[k], node, m->work.v, m->work.n);
  }
  pta_bits_free(&work);
}
