/* The IFDS engine's per-item logic, written once. It compiles as C11 (the
 * host programs, programs/ifds/host.c) and as CUDA (programs/cuda/ifds.cu):
 * the only differences are the qualifiers and atomics below and the sink
 * that appends (ifds_sink.h: per-workgroup batches on the host, per warp on
 * CUDA). programs/glsl/ifds_*.comp follow the same
 * functions, names and order.
 *
 * Every function reads the full relations; inserts go through atomic
 * compare-and-swap, so two invocations that find the same path edge append
 * it once. */
#ifndef WEIR_PROGRAMS_IFDS_KERNELS_H
#define WEIR_PROGRAMS_IFDS_KERNELS_H

#include "programs/ifds/ifds_layout.h"

#ifdef __CUDACC__
#define IFDS_FN static __device__ __forceinline__
IFDS_FN uint64_t ifds_cas64(uint64_t *p, uint64_t expected, uint64_t desired) {
  return atomicCAS((unsigned long long *)p, (unsigned long long)expected,
                   (unsigned long long)desired);
}
IFDS_FN uint32_t ifds_cas32(uint32_t *p, uint32_t expected, uint32_t desired) {
  return atomicCAS((unsigned *)p, expected, desired);
}
IFDS_FN uint64_t ifds_load64(const uint64_t *p) { return *(const volatile uint64_t *)p; }
IFDS_FN uint32_t ifds_load32(const uint32_t *p) { return *(const volatile uint32_t *)p; }
IFDS_FN uint32_t ifds_add32(uint32_t *p, uint32_t v) { return atomicAdd((unsigned *)p, v); }
IFDS_FN uint32_t ifds_exch32(uint32_t *p, uint32_t v) { return atomicExch((unsigned *)p, v); }
IFDS_FN void ifds_or32(uint32_t *p, uint32_t v) { atomicOr((unsigned *)p, v); }
#else
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#define IFDS_FN static inline
#define IFDS_RELAXED memory_order_relaxed
IFDS_FN uint64_t ifds_cas64(uint64_t *p, uint64_t expected, uint64_t desired) {
  atomic_compare_exchange_strong_explicit((_Atomic uint64_t *)p, &expected, desired,
                                          IFDS_RELAXED, IFDS_RELAXED);
  return expected; /* the old value, as atomicCAS returns it */
}
IFDS_FN uint32_t ifds_cas32(uint32_t *p, uint32_t expected, uint32_t desired) {
  atomic_compare_exchange_strong_explicit((_Atomic uint32_t *)p, &expected, desired,
                                          IFDS_RELAXED, IFDS_RELAXED);
  return expected;
}
IFDS_FN uint64_t ifds_load64(const uint64_t *p) {
  return atomic_load_explicit((_Atomic uint64_t *)(uintptr_t)p, IFDS_RELAXED);
}
IFDS_FN uint32_t ifds_load32(const uint32_t *p) {
  return atomic_load_explicit((_Atomic uint32_t *)(uintptr_t)p, IFDS_RELAXED);
}
IFDS_FN uint32_t ifds_add32(uint32_t *p, uint32_t v) {
  return atomic_fetch_add_explicit((_Atomic uint32_t *)p, v, IFDS_RELAXED);
}
IFDS_FN uint32_t ifds_exch32(uint32_t *p, uint32_t v) {
  return atomic_exchange_explicit((_Atomic uint32_t *)p, v, IFDS_RELAXED);
}
IFDS_FN void ifds_or32(uint32_t *p, uint32_t v) {
  atomic_fetch_or_explicit((_Atomic uint32_t *)p, v, IFDS_RELAXED);
}
#endif

/* Everything a kernel invocation needs: the graph arrays (pointers into the
 * one graph buffer), the shards of the state relations and the push
 * constants. Relations are reached through ifds_at / ifds_at2 only. */
typedef struct ifds_ctx {
  const uint32_t *node_rec, *succ, *call_rec, *callee_rec; /* records: ifds_layout.h */
  const uint32_t *identity, *kill_offset, *kill_fact, *pair_offset, *pair_from, *pair_to;
  const uint32_t *seed_node, *seed_fact;
  const uint32_t *owner, *callers; /* across devices only: ifds_layout.h, G_OWNER */
  uint32_t seed_count, calls, procs;
  uint32_t *ctrl;
  uint64_t *ptab[WEIR_IFDS_SHARDS_PTAB], *plog[WEIR_IFDS_SHARDS_PLOG];
  uint64_t *ctab[WEIR_IFDS_SHARDS_CTAB], *inc[WEIR_IFDS_SHARDS_INC];
  uint32_t *chead[WEIR_IFDS_SHARDS_CTAB], *incm[WEIR_IFDS_SHARDS_INC], *es[WEIR_IFDS_SHARDS_ES];
  uint64_t *out, *in; /* across devices: the outboxes and the inbox (u32 keys when narrow) */
  uint32_t mask; /* entries per shard - 1 (from pc.shard_shift; all ones: one shard) */
  weir_ifds_push pc;
} ifds_ctx;

/* Sets the shard pointers of every relation from the binding list (binding
 * numbers: programs/ifds/ifds_host.h) and the shard mask. `b` is anything
 * indexable by binding number that yields a pointer (host: void *const *;
 * CUDA: the launch's device addresses, through the IFDS_BINDING macro). */
#define IFDS_CTX_SHARDS(cx, BINDING)                                                      \
  do {                                                                                 \
    for (int s_ = 0; s_ < WEIR_IFDS_SHARDS_PTAB; ++s_)                                 \
      (cx)->ptab[s_] = (uint64_t *)BINDING(WEIR_IFDS_B_PTAB + s_);                      \
    for (int s_ = 0; s_ < WEIR_IFDS_SHARDS_PLOG; ++s_)                                 \
      (cx)->plog[s_] = (uint64_t *)BINDING(WEIR_IFDS_B_PLOG + s_);                      \
    for (int s_ = 0; s_ < WEIR_IFDS_SHARDS_CTAB; ++s_) {                               \
      (cx)->ctab[s_] = (uint64_t *)BINDING(WEIR_IFDS_B_CTAB + s_);                      \
      (cx)->chead[s_] = (uint32_t *)BINDING(WEIR_IFDS_B_CHEAD + s_);                    \
    }                                                                                  \
    for (int s_ = 0; s_ < WEIR_IFDS_SHARDS_INC; ++s_) {                                \
      (cx)->inc[s_] = (uint64_t *)BINDING(WEIR_IFDS_B_INC + s_);                        \
      (cx)->incm[s_] = (uint32_t *)BINDING(WEIR_IFDS_B_INCM + s_);                      \
    }                                                                                  \
    for (int s_ = 0; s_ < WEIR_IFDS_SHARDS_ES; ++s_)                                   \
      (cx)->es[s_] = (uint32_t *)BINDING(WEIR_IFDS_B_ES + s_);                          \
    (cx)->out = (uint64_t *)BINDING(WEIR_IFDS_B_OUT);                                   \
    (cx)->in = (uint64_t *)BINDING(WEIR_IFDS_B_IN);                                     \
    (cx)->mask = (cx)->pc.shard_shift >= 32u ? 0xFFFFFFFFu                              \
                                             : (1u << (cx)->pc.shard_shift) - 1u;       \
  } while (0)

/* ---- sharded relations ---------------------------------------------------- */

/* Entry i of a relation of u64 entries. */
IFDS_FN uint64_t *ifds_at(const ifds_ctx *cx, uint64_t *const *shards, uint32_t i) {
  return shards[(uint64_t)i >> cx->pc.shard_shift] + (i & cx->mask);
}
/* The same with the shift, mask and first shard already in registers (hot
 * loops: a store through any uint32_t pointer would otherwise make the
 * compiler reload them from the context at every probe). One shard is the
 * common case and costs no shard lookup. */
IFDS_FN uint64_t *ifds_at_fast(uint64_t *const *shards, uint64_t *first, uint32_t shift,
                               uint32_t mask, uint32_t i) {
  return shift >= 32u ? first + i : shards[i >> shift] + (i & mask);
}
/* Word j (0 or 1) of entry i of a relation of u32 pairs. */
IFDS_FN uint32_t *ifds_at2(const ifds_ctx *cx, uint32_t *const *shards, uint32_t i, uint32_t j) {
  return shards[(uint64_t)i >> cx->pc.shard_shift] + 2u * (i & cx->mask) + j;
}

IFDS_FN void ifds_ctx_graph(ifds_ctx *cx, const uint32_t *g) {
  cx->node_rec = g + g[WEIR_IFDS_G_NODE_REC];
  cx->succ = g + g[WEIR_IFDS_G_SUCC];
  cx->call_rec = g + g[WEIR_IFDS_G_CALL_REC];
  cx->callee_rec = g + g[WEIR_IFDS_G_CALLEE_REC];
  cx->identity = g + g[WEIR_IFDS_G_IDENTITY];
  cx->kill_offset = g + g[WEIR_IFDS_G_KILL_OFFSET];
  cx->kill_fact = g + g[WEIR_IFDS_G_KILL_FACT];
  cx->pair_offset = g + g[WEIR_IFDS_G_PAIR_OFFSET];
  cx->pair_from = g + g[WEIR_IFDS_G_PAIR_FROM];
  cx->pair_to = g + g[WEIR_IFDS_G_PAIR_TO];
  cx->seed_node = g + g[WEIR_IFDS_G_SEED_NODE];
  cx->seed_fact = g + g[WEIR_IFDS_G_SEED_FACT];
  cx->owner = g + g[WEIR_IFDS_G_OWNER];
  cx->callers = g + g[WEIR_IFDS_G_CALLERS];
  cx->seed_count = g[WEIR_IFDS_G_SEEDS];
  cx->calls = g[WEIR_IFDS_G_CALLS];
  cx->procs = g[WEIR_IFDS_G_PROCS];
}

/* ---- keys ---------------------------------------------------------------- */

IFDS_FN uint64_t ifds_key(const ifds_ctx *cx, uint32_t d1, uint32_t node, uint32_t d2) {
  return ((uint64_t)d1 << (cx->pc.node_bits + cx->pc.fact_bits)) |
         ((uint64_t)node << cx->pc.fact_bits) | d2;
}
IFDS_FN uint32_t ifds_key_d1(const ifds_ctx *cx, uint64_t k) {
  return (uint32_t)(k >> (cx->pc.node_bits + cx->pc.fact_bits));
}
IFDS_FN uint32_t ifds_key_node(const ifds_ctx *cx, uint64_t k) {
  return (uint32_t)((k >> cx->pc.fact_bits) & ((1ull << cx->pc.node_bits) - 1u));
}
IFDS_FN uint32_t ifds_key_d2(const ifds_ctx *cx, uint64_t k) {
  return (uint32_t)(k & ((1ull << cx->pc.fact_bits) - 1u));
}
/* A context: procedure q entered with fact d. */
IFDS_FN uint64_t ifds_ctx_key(const ifds_ctx *cx, uint32_t q, uint32_t d) {
  return ((uint64_t)q << cx->pc.fact_bits) | d;
}

/* The murmur3 finaliser: spreads the packed fields over the table. */
IFDS_FN uint64_t ifds_hash(uint64_t k) {
  k ^= k >> 33;
  k *= 0xff51afd7ed558ccdull;
  k ^= k >> 33;
  k *= 0xc4ceb9fe1a85ec53ull;
  k ^= k >> 33;
  return k;
}

/* Reserves n entries of the relation whose count is control word `word`:
 * returns the first. Counted (C_RESERVES) for the atomics-per-path-edge
 * figure. */
IFDS_FN uint32_t ifds_reserve(const ifds_ctx *cx, uint32_t word, uint32_t n) {
  ifds_add32(&cx->ctrl[WEIR_IFDS_C_RESERVES], 1u);
  return ifds_add32(&cx->ctrl[word], n);
}

IFDS_FN void ifds_overflow(const ifds_ctx *cx, uint32_t which) {
  ifds_or32(&cx->ctrl[WEIR_IFDS_C_OVERFLOW], which);
  ifds_or32(&cx->ctrl[WEIR_IFDS_C_STATE], WEIR_IFDS_S_OVERFLOW);
}
/* Kernels stop early once another invocation ran out of room: the window is
 * rolled back and repeated after growth anyway. */
IFDS_FN int ifds_stopped(const ifds_ctx *cx) {
  return ifds_load32(&cx->ctrl[WEIR_IFDS_C_STATE]) != 0u;
}
/* Relate and expand may run in `parts` passes (push constants part, parts):
 * pass `part` takes the elements part, part + parts, ... of the long loops
 * (callees of a call, the incoming entries of a context) and pass 0 the
 * rest. Only the GLSL programs are ever run with more than one pass (see
 * programs/glsl/ifds_common.glsl: lavapipe's loop budget); the logic is
 * the same everywhere. */
IFDS_FN uint32_t ifds_parts(const ifds_ctx *cx) { return cx->pc.parts > 1u ? cx->pc.parts : 1u; }

/* Linear probing. Returns 1 if `key` was new, 0 if present, -1 if no slot
 * was found within the probe limit (the table is too full: overflow). */
IFDS_FN uint32_t ifds_slot(uint64_t key, uint32_t size) {
  return (uint32_t)(((ifds_hash(key) >> 32) * (uint64_t)size) >> 32);
}

IFDS_FN int ifds_set_insert(const ifds_ctx *cx, uint64_t *const *table, uint32_t size,
                            uint64_t key, uint32_t *slot_out) {
  uint32_t slot = ifds_slot(key, size), limit = cx->pc.probe_limit;
  uint32_t shift = cx->pc.shard_shift, mask = cx->mask;
  uint64_t *first = table[0];
  for (uint32_t probe = 0; probe <= limit && probe < size; ++probe) {
    uint64_t *at = ifds_at_fast(table, first, shift, mask, slot);
    uint64_t seen = ifds_load64(at);
    if (seen == WEIR_IFDS_EMPTY64) {
      seen = ifds_cas64(at, WEIR_IFDS_EMPTY64, key);
      if (seen == WEIR_IFDS_EMPTY64) {
        *slot_out = slot;
        return 1;
      }
    }
    if (seen == key) {
      *slot_out = slot;
      return 0;
    }
    slot = slot + 1u == size ? 0u : slot + 1u;
  }
  return -1;
}

IFDS_FN uint32_t ifds_set_find(const ifds_ctx *cx, uint64_t *const *table, uint32_t size,
                               uint64_t key) {
  uint32_t slot = ifds_slot(key, size), limit = cx->pc.probe_limit;
  uint32_t shift = cx->pc.shard_shift, mask = cx->mask;
  uint64_t *first = table[0];
  for (uint32_t probe = 0; probe <= limit && probe < size; ++probe) {
    uint64_t seen = ifds_load64(ifds_at_fast(table, first, shift, mask, slot));
    if (seen == key) return slot;
    if (seen == WEIR_IFDS_EMPTY64) return WEIR_IFDS_EMPTY32;
    slot = slot + 1u == size ? 0u : slot + 1u;
  }
  return WEIR_IFDS_EMPTY32;
}

/* ---- the path-edge log and table: 32- or 64-bit keys ---------------------- */

/* Keys are built and taken apart as 64-bit values everywhere; only the log
 * and the table store them in 32 bits when pc.key_words is 1 (the host
 * picks that when node bits + 2 fact bits fit: engine/ifds/engine/graph.c).
 * The width is uniform over a dispatch, so the branch costs no divergence. */
IFDS_FN int ifds_narrow(const ifds_ctx *cx) { return cx->pc.key_words == 1u; }
IFDS_FN uint32_t *ifds_at32(const ifds_ctx *cx, uint64_t *const *shards, uint32_t i) {
  return (uint32_t *)shards[(uint64_t)i >> cx->pc.shard_shift] + (i & cx->mask);
}
IFDS_FN uint64_t ifds_log_get(const ifds_ctx *cx, uint32_t i) {
  return ifds_narrow(cx) ? *ifds_at32(cx, cx->plog, i) : *ifds_at(cx, cx->plog, i);
}
IFDS_FN void ifds_log_set(const ifds_ctx *cx, uint32_t i, uint64_t key) {
  if (ifds_narrow(cx)) *ifds_at32(cx, cx->plog, i) = (uint32_t)key;
  else *ifds_at(cx, cx->plog, i) = key;
}
/* Where the table slot lives (for prefetching). */
IFDS_FN const void *ifds_path_slot(const ifds_ctx *cx, uint32_t slot) {
  if (ifds_narrow(cx)) return ifds_at32(cx, cx->ptab, slot);
  return ifds_at(cx, cx->ptab, slot);
}

/* ifds_set_insert for 32-bit keys (all ones = empty, never a key: graph.c). */
IFDS_FN int ifds_set_insert32(const ifds_ctx *cx, uint64_t *const *table, uint32_t size,
                              uint32_t key, uint32_t *slot_out) {
  uint32_t slot = ifds_slot(key, size), limit = cx->pc.probe_limit;
  uint32_t shift = cx->pc.shard_shift, mask = cx->mask;
  uint32_t *first = (uint32_t *)table[0];
  for (uint32_t probe = 0; probe <= limit && probe < size; ++probe) {
    uint32_t *at = shift >= 32u ? first + slot : (uint32_t *)table[slot >> shift] + (slot & mask);
    uint32_t seen = ifds_load32(at);
    if (seen == WEIR_IFDS_EMPTY32) {
      seen = ifds_cas32(at, WEIR_IFDS_EMPTY32, key);
      if (seen == WEIR_IFDS_EMPTY32) {
        *slot_out = slot;
        return 1;
      }
    }
    if (seen == key) {
      *slot_out = slot;
      return 0;
    }
    slot = slot + 1u == size ? 0u : slot + 1u;
  }
  return -1;
}
/* ifds_set_find for 32-bit keys. */
IFDS_FN uint32_t ifds_set_find32(const ifds_ctx *cx, uint64_t *const *table, uint32_t size,
                                 uint32_t key) {
  uint32_t slot = ifds_slot(key, size), limit = cx->pc.probe_limit;
  for (uint32_t probe = 0; probe <= limit && probe < size; ++probe) {
    uint32_t seen = ifds_load32(ifds_at32(cx, table, slot));
    if (seen == key) return slot;
    if (seen == WEIR_IFDS_EMPTY32) return WEIR_IFDS_EMPTY32;
    slot = slot + 1u == size ? 0u : slot + 1u;
  }
  return WEIR_IFDS_EMPTY32;
}
/* A path edge into the table: 1 new, 0 present, -1 overflow. */
IFDS_FN int ifds_path_insert(const ifds_ctx *cx, uint64_t key, uint32_t *slot) {
  if (ifds_narrow(cx)) return ifds_set_insert32(cx, cx->ptab, cx->pc.ptab_size, (uint32_t)key, slot);
  return ifds_set_insert(cx, cx->ptab, cx->pc.ptab_size, key, slot);
}

/* Contexts and incoming entries at the same width: a context key (q, d)
 * is at most the path key (0, exit of q, d), and an incoming entry holds a
 * path key, so both fit wherever the log's keys do. */
IFDS_FN int ifds_ctx_insert(const ifds_ctx *cx, uint64_t key, uint32_t *slot) {
  if (ifds_narrow(cx)) return ifds_set_insert32(cx, cx->ctab, cx->pc.ctab_size, (uint32_t)key, slot);
  return ifds_set_insert(cx, cx->ctab, cx->pc.ctab_size, key, slot);
}
IFDS_FN uint32_t ifds_ctx_find(const ifds_ctx *cx, uint64_t key) {
  if (ifds_narrow(cx)) return ifds_set_find32(cx, cx->ctab, cx->pc.ctab_size, (uint32_t)key);
  return ifds_set_find(cx, cx->ctab, cx->pc.ctab_size, key);
}
IFDS_FN uint64_t ifds_inc_get(const ifds_ctx *cx, uint32_t e) {
  return ifds_narrow(cx) ? *ifds_at32(cx, cx->inc, e) : *ifds_at(cx, cx->inc, e);
}
IFDS_FN void ifds_inc_set(const ifds_ctx *cx, uint32_t e, uint64_t key) {
  if (ifds_narrow(cx)) *ifds_at32(cx, cx->inc, e) = (uint32_t)key;
  else *ifds_at(cx, cx->inc, e) = key;
}

/* ---- flow functions ------------------------------------------------------ */

/* Iterates f(d) without duplicates: the implied 0 -> 0, the identity (unless
 * killed), then the pairs (d, b) in order, skipping b == d when the identity
 * already produced it. */
typedef struct ifds_flow_iter {
  uint32_t self; /* pending identity output, or EMPTY */
  uint32_t made_self;
  uint32_t d;
  uint32_t p, end;
} ifds_flow_iter;

IFDS_FN uint32_t ifds_lower_bound(const uint32_t *a, uint32_t lo, uint32_t hi, uint32_t v) {
  while (lo < hi) {
    uint32_t mid = lo + ((hi - lo) >> 1);
    if (a[mid] < v) lo = mid + 1u;
    else hi = mid;
  }
  return lo;
}

IFDS_FN void ifds_flow_begin(const ifds_ctx *cx, uint32_t f, uint32_t d, ifds_flow_iter *it) {
  uint32_t keep = d == 0u;
  if (!keep && cx->identity[f]) {
    uint32_t k0 = cx->kill_offset[f], k1 = cx->kill_offset[f + 1u];
    uint32_t at = ifds_lower_bound(cx->kill_fact, k0, k1, d);
    keep = at == k1 || cx->kill_fact[at] != d;
  }
  it->self = keep ? d : WEIR_IFDS_EMPTY32;
  it->made_self = keep;
  it->d = d;
  it->end = cx->pair_offset[f + 1u];
  it->p = ifds_lower_bound(cx->pair_from, cx->pair_offset[f], it->end, d);
}

IFDS_FN uint32_t ifds_flow_next(const ifds_ctx *cx, ifds_flow_iter *it) {
  if (it->self != WEIR_IFDS_EMPTY32) {
    uint32_t r = it->self;
    it->self = WEIR_IFDS_EMPTY32;
    return r;
  }
  while (it->p < it->end && cx->pair_from[it->p] == it->d) {
    uint32_t b = cx->pair_to[it->p++];
    if (b == it->d && it->made_self) continue;
    return b;
  }
  return WEIR_IFDS_EMPTY32;
}

/* ---- the sink: where new path edges, list and outbox entries go ---------- */

#include "programs/ifds/ifds_sink.h"

/* ---- across devices ------------------------------------------------------ */

/* The device that owns the path edge (d1, node, d2): that of the node's
 * procedure, or for a spread procedure (engine/ifds/engine/partition.c: a
 * hot one) a hash of the context's entry fact d1 from its home device (that
 * of d1 = 0). Any owner function of the whole key keeps the joins local,
 * because every candidate goes to its owner (ifds_emit) and an exit edge
 * goes to every device that may own a path edge at a call site calling its
 * procedure (the callers set: every device for a call site in a spread
 * procedure); d1 alone keeps the flow inside a procedure (which never
 * changes d1) on one device, so only calls and returns cross. (A hash of d1
 * and d2 was measured too: the same balance, 2-7x the rounds.)
 * engine/ifds/engine/multi.h (weir_ifds_multi_key_owner) mirrors this. */
IFDS_FN uint32_t ifds_spread(uint32_t d1, uint32_t home, uint32_t devices) {
  return (home + ((d1 * 0x9E3779B1u) >> 8)) % devices;
}
IFDS_FN uint32_t ifds_owner(const ifds_ctx *cx, uint32_t node, uint32_t d1) {
  uint32_t b = (cx->owner[node >> 2] >> (8u * (node & 3u))) & 0xFFu;
  if (b & WEIR_IFDS_SPREAD) return ifds_spread(d1, b & WEIR_IFDS_SPREAD_HOME, cx->pc.devices);
  return b;
}
/* Whether another device owns the path edges (d1, node, _) (never on one
 * device). */
IFDS_FN int ifds_foreign(const ifds_ctx *cx, uint32_t node, uint32_t d1) {
  return cx->pc.devices > 1u && ifds_owner(cx, node, d1) != cx->pc.device;
}
/* ifds_send (the sink) appends `key` to the outbox for device `to`, moved
 * by the host between iterations; see engine/ifds/engine/multi.c. */

/* Relate replayed over the log after a full rebuild (MODE_RANGE) finds only
 * what was found and sent before: it sends nothing. */
IFDS_FN int ifds_replaying(const ifds_ctx *cx) { return cx->pc.mode == WEIR_IFDS_MODE_RANGE; }

/* A candidate path edge (d1, node, d2): into this device's table and log,
 * or into the outbox of the device that owns it. */
IFDS_FN void ifds_emit(const ifds_ctx *cx, ifds_sink *s, uint32_t d1, uint32_t node, uint32_t d2) {
  uint64_t key = ifds_key(cx, d1, node, d2);
  if (!ifds_foreign(cx, node, d1)) ifds_candidate(cx, s, key);
  else if (!ifds_replaying(cx)) ifds_send(cx, s, ifds_owner(cx, node, d1), key);
}

/* An exit edge of a procedure this device owns also goes to every other
 * device that owns a caller of it: there it becomes an end summary and meets
 * that device's incoming entries (the callers' path edges stay with their
 * owner). Exit edges a device received are never sent on. */
IFDS_FN void ifds_send_exit(const ifds_ctx *cx, ifds_sink *s, uint32_t q, uint32_t node,
                            uint64_t key) {
  if (cx->pc.devices <= 1u || ifds_replaying(cx) || ifds_foreign(cx, node, ifds_key_d1(cx, key)))
    return;
  for (uint32_t j = 0; j < cx->pc.devices; ++j) {
    uint32_t word = cx->callers[2u * q + (j >> 5)];
    if (j != cx->pc.device && ((word >> (j & 31u)) & 1u)) ifds_send(cx, s, j, key);
  }
}

/* Ingest: a path edge another device found for this one (or an exit edge
 * for its callers) into the table and, when new, the log. */
IFDS_FN void ifds_ingest_item(const ifds_ctx *cx, uint32_t i, ifds_sink *s) {
  ifds_candidate(cx, s, ifds_narrow(cx) ? ((const uint32_t *)cx->in)[i] : cx->in[i]);
}

/* Finds or adds the context (q, d); EMPTY on overflow. */
IFDS_FN uint32_t ifds_context(const ifds_ctx *cx, uint32_t q, uint32_t d) {
  uint32_t slot;
  int r = ifds_ctx_insert(cx, ifds_ctx_key(cx, q, d), &slot);
  if (r < 0) {
    ifds_overflow(cx, WEIR_IFDS_O_CTAB);
    return WEIR_IFDS_EMPTY32;
  }
  if (r > 0) {
    uint32_t count = ifds_add32(&cx->ctrl[WEIR_IFDS_C_CTAB], 1u) + 1u;
    /* Keep contexts under 3/4 load so lookups stay short. */
    if (count > cx->pc.ctab_size / 4u * 3u) ifds_overflow(cx, WEIR_IFDS_O_CTAB);
  }
  return slot;
}

/* ---- the kernels' per-item steps --------------------------------------- */

/* seed i: the path edge (0, node, fact); across devices every device
 * seeds the ones it owns. */
IFDS_FN void ifds_seed_item(const ifds_ctx *cx, uint32_t i, ifds_sink *s) {
  if (ifds_foreign(cx, cx->seed_node[i], 0u)) return;
  ifds_emit(cx, s, 0u, cx->seed_node[i], cx->seed_fact[i]);
}

/* Rebuild: put a logged path edge back into a fresh table. */
IFDS_FN void ifds_rehash_item(const ifds_ctx *cx, uint64_t key) {
  uint32_t slot;
  if (ifds_path_insert(cx, key, &slot) < 0)
    ifds_overflow(cx, WEIR_IFDS_O_PTAB);
}

/* Step 1 of an iteration: record what the delta adds to the relations that
 * other path edges join with. A call edge (d1, c, d2) becomes an incoming
 * entry of every context (q, d3) it enters, and enters it (the path edge
 * (d3, start q, d3)); an exit edge (d1, exit q, d2) becomes an end summary of
 * context (q, d1). */
IFDS_FN void ifds_relate_item(const ifds_ctx *cx, uint64_t key, ifds_sink *s) {
  uint32_t d1 = ifds_key_d1(cx, key), n = ifds_key_node(cx, key), d2 = ifds_key_d2(cx, key);
  if (n < cx->calls) {
    uint32_t ci = n, parts = ifds_parts(cx);
    const uint32_t *call = cx->call_rec + 4u * ci;
    for (uint32_t k = call[2] + cx->pc.part; k < call[3]; k += parts) {
      const uint32_t *callee = cx->callee_rec + 4u * k;
      ifds_flow_iter it;
      ifds_flow_begin(cx, callee[1], d2, &it);
      for (uint32_t d3 = ifds_flow_next(cx, &it); d3 != WEIR_IFDS_EMPTY32;
           d3 = ifds_flow_next(cx, &it)) {
        ifds_emit(cx, s, d3, callee[3], d3);
        uint32_t slot = ifds_context(cx, callee[0], d3);
        if (slot == WEIR_IFDS_EMPTY32) return;
        ifds_add_incoming(cx, s, key, k, slot);
      }
    }
    return;
  }
  if (n - cx->calls >= cx->procs || cx->pc.part != 0u) return; /* ordinary, or not pass 0 */
  ifds_send_exit(cx, s, n - cx->calls, n, key);
  uint32_t slot = ifds_context(cx, n - cx->calls, d1);
  if (slot != WEIR_IFDS_EMPTY32) ifds_add_summary(cx, s, d2, slot);
}

/* Applies flow f to d and emits (d1, node, d') for each result d'. */
IFDS_FN void ifds_emit_flow(const ifds_ctx *cx, ifds_sink *s, uint32_t f, uint32_t d,
                            uint32_t d1, uint32_t node) {
  ifds_flow_iter it;
  ifds_flow_begin(cx, f, d, &it);
  for (uint32_t o = ifds_flow_next(cx, &it); o != WEIR_IFDS_EMPTY32; o = ifds_flow_next(cx, &it))
    ifds_emit(cx, s, d1, node, o);
}

/* Call edge (d1, c, d2): call-to-return flow, and every end summary of every
 * context it enters, mapped back through the callee's return flow. */
IFDS_FN void ifds_expand_call(const ifds_ctx *cx, ifds_sink *s, uint32_t ci, uint32_t d1,
                              uint32_t d2) {
  const uint32_t *call = cx->call_rec + 4u * ci;
  uint32_t r = call[0], parts = ifds_parts(cx);
  if (cx->pc.part == 0u) ifds_emit_flow(cx, s, call[1], d2, d1, r);
  for (uint32_t k = call[2] + cx->pc.part; k < call[3]; k += parts) {
    const uint32_t *callee = cx->callee_rec + 4u * k;
    uint32_t q = callee[0], rf = callee[2];
    ifds_flow_iter it;
    ifds_flow_begin(cx, callee[1], d2, &it);
    for (uint32_t d3 = ifds_flow_next(cx, &it); d3 != WEIR_IFDS_EMPTY32;
         d3 = ifds_flow_next(cx, &it)) {
      uint32_t slot = ifds_ctx_find(cx, ifds_ctx_key(cx, q, d3));
      if (slot == WEIR_IFDS_EMPTY32) continue;
      for (uint32_t e = *ifds_at2(cx, cx->chead, slot, 1u); e != WEIR_IFDS_EMPTY32;
           e = *ifds_at2(cx, cx->es, e, 1u))
        ifds_emit_flow(cx, s, rf, *ifds_at2(cx, cx->es, e, 0u), d1, r);
    }
  }
}

/* Exit edge (d1, exit q, d2): returns to every incoming caller edge of the
 * context (q, d1). */
IFDS_FN void ifds_expand_exit(const ifds_ctx *cx, ifds_sink *s, uint32_t q, uint32_t d1,
                              uint32_t d2) {
  uint32_t slot = ifds_ctx_find(cx, ifds_ctx_key(cx, q, d1));
  if (slot == WEIR_IFDS_EMPTY32) return;
  /* Entries part, part + parts, ...: skip `part`, then `parts` at a time. */
  uint32_t parts = ifds_parts(cx), e = *ifds_at2(cx, cx->chead, slot, 0u);
  for (uint32_t j = 0; j < cx->pc.part && e != WEIR_IFDS_EMPTY32; ++j)
    e = *ifds_at2(cx, cx->incm, e, 1u);
  while (e != WEIR_IFDS_EMPTY32) {
    uint64_t caller = ifds_inc_get(cx, e);
    uint32_t r = cx->call_rec[4u * ifds_key_node(cx, caller)]; /* call node = call index */
    uint32_t rf = cx->callee_rec[4u * *ifds_at2(cx, cx->incm, e, 0u) + 2u];
    ifds_emit_flow(cx, s, rf, d2, ifds_key_d1(cx, caller), r);
    for (uint32_t j = 0; j < parts && e != WEIR_IFDS_EMPTY32; ++j)
      e = *ifds_at2(cx, cx->incm, e, 1u);
  }
}

/* Step 2 of an iteration: every consequence of one delta edge, joined with
 * the full relations (which already hold this iteration's step 1). */
IFDS_FN void ifds_expand_item(const ifds_ctx *cx, uint64_t key, ifds_sink *s) {
  uint32_t d1 = ifds_key_d1(cx, key), n = ifds_key_node(cx, key), d2 = ifds_key_d2(cx, key);
  if (n < cx->calls) {
    ifds_expand_call(cx, s, n, d1, d2);
    return;
  }
  if (n - cx->calls < cx->procs) {
    ifds_expand_exit(cx, s, n - cx->calls, d1, d2);
    return;
  }
  if (cx->pc.part != 0u) return; /* ordinary nodes: pass 0 */
  const uint32_t *node = cx->node_rec + (n - cx->calls - cx->procs); /* [node[0], node[1]) */
  for (uint32_t i = node[0]; i < node[1]; ++i)
    ifds_emit_flow(cx, s, cx->succ[2u * i + 1u], d2, d1, cx->succ[2u * i]);
}

/* Across devices: the outbox counts from zero (a round begins), or as they
 * were when the current iteration began (`to_marks`: a rollback); and the
 * marks taken when an iteration begins. */
IFDS_FN void ifds_reset_outboxes(const ifds_ctx *cx, int to_marks) {
  for (uint32_t j = 0; j < cx->pc.devices && j < WEIR_IFDS_MAX_DEVICES; ++j) {
    uint32_t *c = cx->ctrl;
    c[WEIR_IFDS_C_OUT + j] = to_marks ? c[WEIR_IFDS_C_OUT_MARK + j] : 0u;
    if (!to_marks) c[WEIR_IFDS_C_OUT_MARK + j] = 0u;
  }
}
IFDS_FN void ifds_mark_outboxes(const ifds_ctx *cx) {
  for (uint32_t j = 0; j < cx->pc.devices && j < WEIR_IFDS_MAX_DEVICES; ++j)
    cx->ctrl[WEIR_IFDS_C_OUT_MARK + j] = cx->ctrl[WEIR_IFDS_C_OUT + j];
}

/* Marks the relation sizes at the start of an iteration, so that an
 * overflow inside it can be rolled back by unlinking what it added. */
IFDS_FN void ifds_mark(const ifds_ctx *cx) {
  uint32_t *c = cx->ctrl;
  c[WEIR_IFDS_C_INC_MARK] = c[WEIR_IFDS_C_INC];
  c[WEIR_IFDS_C_ES_MARK] = c[WEIR_IFDS_C_ES];
  c[WEIR_IFDS_C_MARKED] = 1u;
  ifds_mark_outboxes(cx);
}

/* One invocation between iterations: the new delta is what the last
 * iteration appended; an empty one means the fixed point is reached. */
IFDS_FN void ifds_advance(const ifds_ctx *cx) {
  uint32_t *c = cx->ctrl;
  if (cx->pc.mode == WEIR_IFDS_MODE_RESUME) {
    if (c[WEIR_IFDS_C_STATE] & WEIR_IFDS_S_OVERFLOW) return;
    c[WEIR_IFDS_C_STATE] = 0u;
    c[WEIR_IFDS_C_MERGED] = 0u;
    ifds_reset_outboxes(cx, 0);
    return;
  }
  if (cx->pc.mode == WEIR_IFDS_MODE_MERGE) {
    /* The last advance left [A, B) to do (B = the log count then); the
     * inbox went in after it, so the delta grows to the log's end. */
    if (c[WEIR_IFDS_C_STATE] != 0u) return;
    uint32_t a = c[WEIR_IFDS_C_A], b = c[WEIR_IFDS_C_B], end = c[WEIR_IFDS_C_PLOG];
    if (end != b && a == b) c[WEIR_IFDS_C_ITER] += 1u;
    c[WEIR_IFDS_C_B] = end;
    if (a == end) c[WEIR_IFDS_C_STATE] = WEIR_IFDS_S_CONVERGED;
    c[WEIR_IFDS_C_MERGED] = 1u;
    return;
  }
  if (c[WEIR_IFDS_C_STATE] != 0u) return;
  ifds_mark(cx);
  if (cx->pc.mode == WEIR_IFDS_MODE_MARK) return;
  uint32_t a = c[WEIR_IFDS_C_B], b = c[WEIR_IFDS_C_PLOG];
  c[WEIR_IFDS_C_A] = a;
  c[WEIR_IFDS_C_B] = b;
  if (a == b) c[WEIR_IFDS_C_STATE] = WEIR_IFDS_S_CONVERGED;
  else c[WEIR_IFDS_C_ITER] += 1u;
}

/* Rollback: the control block as it was when the iteration [A, B) began (A,
 * B and the iteration count from the push constants). FULL starts the
 * relations from nothing (they are rebuilt); PARTIAL keeps them and goes
 * back to the marks (ifds_unlink_item drops the newer list entries). */
IFDS_FN void ifds_restore(const ifds_ctx *cx) {
  uint32_t *c = cx->ctrl;
  if (cx->pc.mode != WEIR_IFDS_MODE_FULL) {
    c[WEIR_IFDS_C_INC] = c[WEIR_IFDS_C_INC_MARK];
    c[WEIR_IFDS_C_ES] = c[WEIR_IFDS_C_ES_MARK];
  } else {
    for (uint32_t i = 0; i < WEIR_IFDS_C_OUT; ++i)
      if (i != WEIR_IFDS_C_RESERVES) c[i] = 0u;
  }
  /* What this round sent before the iteration stays; the redo sends again. */
  ifds_reset_outboxes(cx, 1);
  c[WEIR_IFDS_C_STATE] = 0u;
  c[WEIR_IFDS_C_OVERFLOW] = 0u;
  c[WEIR_IFDS_C_A] = cx->pc.begin;
  c[WEIR_IFDS_C_B] = cx->pc.end;
  if (cx->pc.mode != WEIR_IFDS_MODE_KEEP) c[WEIR_IFDS_C_PLOG] = cx->pc.end;
  c[WEIR_IFDS_C_ITER] = cx->pc.value;
}

/* Partial rollback of context slot i: entries an iteration prepends sit in
 * front of every older entry of the same list, so dropping the entries at
 * or past the marks is advancing the heads past them. */
IFDS_FN void ifds_unlink_item(const ifds_ctx *cx, uint32_t i) {
  uint32_t inc_mark = cx->ctrl[WEIR_IFDS_C_INC_MARK], es_mark = cx->ctrl[WEIR_IFDS_C_ES_MARK];
  uint32_t *head = ifds_at2(cx, cx->chead, i, 0u), h = *head;
  while (h != WEIR_IFDS_EMPTY32 && h >= inc_mark) h = *ifds_at2(cx, cx->incm, h, 1u);
  *head = h;
  head = ifds_at2(cx, cx->chead, i, 1u);
  h = *head;
  while (h != WEIR_IFDS_EMPTY32 && h >= es_mark) h = *ifds_at2(cx, cx->es, h, 1u);
  *head = h;
}

#endif
