/* The supergraph as one device buffer: a header of counts and word offsets
 * (programs/ifds/ifds_layout.h) followed by the problem's uint32 arrays. One
 * buffer, because a kernel binds at most WEIR_MAX_BINDINGS buffers and the
 * expand kernel reads twenty-one arrays. */
#include <stdlib.h>
#include <string.h>

#include "engine/ifds/engine/engine.h"

static uint32_t bits_for(uint64_t max_value) {
  uint32_t b = 1;
  while (b < 64 && (max_value >> b) != 0) ++b;
  return b;
}

weir_status weir_ifds_engine_key_bits(const weir_ifds_problem *pb, uint32_t *fact_bits,
                                      uint32_t *node_bits) {
  uint32_t fb = bits_for(pb->fact_count - 1u), nb = bits_for(pb->node_count - 1u);
  uint32_t total = 2u * fb + nb;
  /* All ones marks an empty table slot, so that key must not be a path edge. */
  int collides = total == 64 && (uint64_t)pb->fact_count == (1ull << fb) &&
                 (uint64_t)pb->node_count == (1ull << nb);
  if (total > 64 || collides)
    return weir_fail(WEIR_ERR_UNSUPPORTED,
                     "IFDS engine: a path edge (d1, node, d2) of this problem needs %u + %u + %u "
                     "= %u key bits (facts %u, nodes %u); the engine packs path edges into 64 "
                     "bits%s. Fix: split the fact domain (at most 65536 facts with up to 2^32 "
                     "nodes), or use --solver reference.",
                     fb, nb, fb, total, pb->fact_count, pb->node_count,
                     collides ? " with the all-ones key reserved" : "");
  *fact_bits = fb;
  *node_bits = nb;
  return WEIR_OK;
}

int weir_ifds_engine_keys_fit_32(const weir_ifds_problem *pb, uint32_t fact_bits,
                                  uint32_t node_bits) {
  if (2u * fact_bits + node_bits > 32u) return 0;
  /* The largest key (every field at its largest value) must not be all
   * ones, the empty slot of a 32-bit table. */
  uint64_t largest = ((uint64_t)(pb->fact_count - 1u) << (node_bits + fact_bits)) |
                     ((uint64_t)(pb->node_count - 1u) << fact_bits) | (pb->fact_count - 1u);
  return largest < 0xFFFFFFFFull;
}

typedef struct part {
  uint32_t header;
  const uint32_t *data; /* NULL: a record array filled by fill_records */
  uint64_t count;       /* words */
} part;

/* The device numbering (ifds_layout.h): calls, then exits, then the rest. */
static void renumber(const weir_ifds_problem *pb, uint32_t *to_new, uint32_t *to_old) {
  uint32_t next = pb->call_count + pb->proc_count;
  for (uint32_t n = 0; n < pb->node_count; ++n) {
    uint32_t q = pb->node_proc[n];
    if (pb->node_call[n] != WEIR_IFDS_NONE) to_new[n] = pb->node_call[n];
    else if (pb->proc_last[q] == n) to_new[n] = pb->call_count + q;
    else to_new[n] = next++;
    to_old[to_new[n]] = n;
  }
}

/* The records of ifds_layout.h, gathered from the problem's arrays so that
 * one item's lookups share a cache line, in the device numbering. */
static void fill_records(const weir_ifds_problem *pb, const uint32_t *to_new,
                         const uint32_t *to_old, uint32_t *g) {
  uint32_t *node = g + g[WEIR_IFDS_G_NODE_REC], *succ = g + g[WEIR_IFDS_G_SUCC];
  uint32_t *call = g + g[WEIR_IFDS_G_CALL_REC], *callee = g + g[WEIR_IFDS_G_CALLEE_REC];
  uint32_t *seed = g + g[WEIR_IFDS_G_SEED_NODE];
  uint32_t first = pb->call_count + pb->proc_count, at = 0;
  /* Successors in the device order of the ordinary nodes, which then need
   * one offset each (the edges of exits, if any, are never followed). */
  for (uint32_t v = first; v < pb->node_count; ++v) {
    node[v - first] = at;
    for (uint32_t i = pb->succ_offset[to_old[v]]; i < pb->succ_offset[to_old[v] + 1u]; ++i, ++at) {
      succ[2u * at] = to_new[pb->succ_node[i]];
      succ[2u * at + 1u] = pb->succ_flow[i];
    }
  }
  node[pb->node_count - first] = at;
  for (uint32_t c = 0; c < pb->call_count; ++c) {
    call[4u * c] = to_new[pb->call_return[c]];
    call[4u * c + 1u] = pb->call_flow[c];
    call[4u * c + 2u] = pb->callee_offset[c];
    call[4u * c + 3u] = pb->callee_offset[c + 1u];
  }
  for (uint64_t k = 0; k < pb->callee_offset[pb->call_count]; ++k) {
    uint32_t q = pb->callee_proc[k];
    callee[4u * k] = q;
    callee[4u * k + 1u] = pb->callee_call_flow[k];
    callee[4u * k + 2u] = pb->callee_return_flow[k];
    callee[4u * k + 3u] = to_new[pb->proc_first[q]];
  }
  for (uint32_t i = 0; i < pb->seed_count; ++i) seed[i] = to_new[pb->seed_node[i]];
}

/* Across devices: the owner byte of each device node and, per procedure,
 * the devices that own a call site calling it (every device for a call site
 * in a spread procedure: any of them may own the calling context). */
static void fill_owners(const weir_ifds_problem *pb, const uint8_t *proc_owner, uint32_t devices,
                        const uint32_t *to_new, uint32_t *g) {
  uint32_t *owner = g + g[WEIR_IFDS_G_OWNER], *callers = g + g[WEIR_IFDS_G_CALLERS];
  for (uint32_t n = 0; n < pb->node_count; ++n) {
    uint32_t v = to_new[n];
    owner[v >> 2] |= (uint32_t)proc_owner[pb->node_proc[n]] << (8u * (v & 3u));
  }
  for (uint32_t c = 0; c < pb->call_count; ++c) {
    uint32_t from = proc_owner[pb->node_proc[pb->call_node[c]]];
    for (uint32_t k = pb->callee_offset[c]; k < pb->callee_offset[c + 1u]; ++k)
      for (uint32_t j = 0; j < devices; ++j)
        if (j == from || (from & WEIR_IFDS_SPREAD))
          callers[2u * pb->callee_proc[k] + (j >> 5)] |= 1u << (j & 31u);
  }
}

weir_status weir_ifds_engine_pack_graph(const weir_ifds_problem *pb, const uint8_t *proc_owner,
                                        uint32_t devices, uint32_t **out, uint64_t *words, uint32_t **to_old_out) {
  const weir_ifds_flows *fl = &pb->flows;
  uint64_t n = pb->node_count, c = pb->call_count, k = pb->callee_offset[c];
  uint64_t e = pb->succ_offset[n], f = fl->count;
  const part parts[] = {
      {WEIR_IFDS_G_NODE_REC, NULL, n - c - pb->proc_count + 1u},
      {WEIR_IFDS_G_SUCC, NULL, 2u * e},
      {WEIR_IFDS_G_CALL_REC, NULL, 4u * c},
      {WEIR_IFDS_G_CALLEE_REC, NULL, 4u * k},
      {WEIR_IFDS_G_IDENTITY, fl->identity, f},
      {WEIR_IFDS_G_KILL_OFFSET, fl->kill_offset, f + 1},
      {WEIR_IFDS_G_KILL_FACT, fl->kill_fact, fl->kill_offset[f]},
      {WEIR_IFDS_G_PAIR_OFFSET, fl->pair_offset, f + 1},
      {WEIR_IFDS_G_PAIR_FROM, fl->pair_from, fl->pair_offset[f]},
      {WEIR_IFDS_G_PAIR_TO, fl->pair_to, fl->pair_offset[f]},
      {WEIR_IFDS_G_SEED_NODE, NULL, pb->seed_count},
      {WEIR_IFDS_G_SEED_FACT, pb->seed_fact, pb->seed_count},
      {WEIR_IFDS_G_OWNER, NULL, proc_owner ? (n + 3u) / 4u : 0u},
      {WEIR_IFDS_G_CALLERS, NULL, proc_owner ? 2u * (uint64_t)pb->proc_count : 0u},
  };
  size_t part_count = sizeof parts / sizeof parts[0];
  uint64_t total = WEIR_IFDS_GRAPH_HEADER;
  for (size_t i = 0; i < part_count; ++i) total += parts[i].count + 4; /* records stay 16-byte aligned */
  if (total > UINT32_MAX)
    return weir_fail(WEIR_ERR_UNSUPPORTED,
                     "IFDS engine: the supergraph needs %llu words; the engine addresses at "
                     "most %u. Fix: split the problem, or use --solver reference.",
                     (unsigned long long)total, UINT32_MAX);
  uint32_t *g = malloc(total * sizeof *g);
  uint32_t *to_new = malloc(n * sizeof *to_new), *to_old = malloc(n * sizeof *to_old);
  if (!g || !to_new || !to_old) {
    free(g);
    free(to_new);
    free(to_old);
    return weir_fail(WEIR_ERR_OUT_OF_MEMORY,
                     "IFDS engine: no host memory for the %llu-byte graph staging buffer. "
                     "Fix: free memory.", (unsigned long long)(total * 4));
  }
  memset(g, 0, WEIR_IFDS_GRAPH_HEADER * sizeof *g);
  g[WEIR_IFDS_G_NODES] = pb->node_count;
  g[WEIR_IFDS_G_PROCS] = pb->proc_count;
  g[WEIR_IFDS_G_CALLS] = pb->call_count;
  g[WEIR_IFDS_G_CALLEES] = (uint32_t)k;
  g[WEIR_IFDS_G_FLOWS] = fl->count;
  g[WEIR_IFDS_G_SEEDS] = pb->seed_count;
  uint64_t at = WEIR_IFDS_GRAPH_HEADER;
  for (size_t i = 0; i < part_count; ++i) {
    g[parts[i].header] = (uint32_t)at;
    if (parts[i].data && parts[i].count) memcpy(g + at, parts[i].data, parts[i].count * sizeof *g);
    else memset(g + at, 0, parts[i].count * sizeof *g);
    uint64_t end = at + parts[i].count, padded = (end + 4u) & ~(uint64_t)3u;
    memset(g + end, 0, (padded - end) * sizeof *g);
    at = padded;
  }
  renumber(pb, to_new, to_old);
  fill_records(pb, to_new, to_old, g);
  if (proc_owner) fill_owners(pb, proc_owner, devices, to_new, g);
  free(to_new);
  *to_old_out = to_old;
  *out = g;
  *words = at;
  return WEIR_OK;
}
