// The IFDS engine's per-item logic in GLSL: the same functions, names and
// order as programs/ifds/ifds_kernels.h (read them side by side), over the
// same bindings (programs/ifds/ifds_host.h), control words and push
// constants (programs/ifds/ifds_layout.h), which this file mirrors by hand.
// Differences: one invocation per item (no workgroup-wide sink: appends
// reserve their entries at once, one atomicAdd per entry, or, compiled with
// IFDS_SUBGROUP (the _sg programs, for devices with subgroup ballots), one
// per group of subgroup invocations appending together: see
// programs/ifds/ifds_sink.h), 64-bit keys through GL_EXT_shader_atomic_int64,
// and the loop budget below. Like the C kernels, the path-edge log and table
// hold 32-bit keys when pc.key_words is 1 (ifds_log_get, ifds_ptab_insert):
// each of their shards is declared twice at the same binding, as u64 and as
// u32 entries (SPIR-V allows aliased storage-buffer variables), and the
// width, uniform over a dispatch, picks the view.
//
// The loop budget: lavapipe (llvmpipe) runs a workgroup as SIMD vectors of
// lanes, gives all loops of one vector's shader run ONE shared budget of
// 65535 iterations (LP_MAX_TGSI_LOOP_ITERATIONS; a loop visited with every
// lane masked off still costs one) and, once it is spent, silently ends
// every loop after its current iteration. A long join (an exit edge of a
// procedure with thousands of callers walks thousands of incoming entries)
// then loses path edges. So relate and expand can split their long loops
// (callees of a call, the incoming walk of an exit) over `parts` dispatches
// (pass `part` takes every parts-th element; the union is the same work),
// and every kernel ends with ifds_check_loops: a cut budget raises O_LOOP,
// and the host rolls the iteration back and doubles `parts`.
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_shader_atomic_int64 : require
#ifdef IFDS_SUBGROUP
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require
#endif

layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

layout(push_constant) uniform Push {  // weir_ifds_push
  uint fact_bits, node_bits, mode, ptab_size, plog_cap, ctab_size, inc_cap, es_cap;
  uint begin, end, value, probe_limit, part, parts, shard_shift, key_words;  // key_words: 1 or 2
  uint device, devices, out_cap, in_count;  // across devices
} pc;

layout(std430, set = 0, binding = 0) readonly buffer Graph { uint g[]; };
layout(std430, set = 0, binding = 1) coherent buffer Ctrl { uint ctrl[]; };

// ---- sharded relations ------------------------------------------------------
// Each relation is split into shards, one binding each (numbers as
// WEIR_IFDS_B_* in programs/ifds/ifds_host.h, counts as WEIR_IFDS_SHARDS_*):
// entry i lives in shard i >> shard_shift at i & mask. GLSL cannot index
// separate blocks or pass a buffer to a function, so every access goes
// through a function below that picks the block with a switch.
#define U64_SHARD(NAME, B) \
  layout(std430, set = 0, binding = B) coherent buffer NAME##_block { uint64_t v[]; } NAME;
#define U32_SHARD(NAME, B) \
  layout(std430, set = 0, binding = B) coherent buffer NAME##_block { uint v[]; } NAME;
U64_SHARD(ptab0, 2) U64_SHARD(ptab1, 3) U64_SHARD(ptab2, 4)
U64_SHARD(ptab3, 5) U64_SHARD(ptab4, 6) U64_SHARD(ptab5, 7)
U64_SHARD(plog0, 8) U64_SHARD(plog1, 9) U64_SHARD(plog2, 10)
U64_SHARD(plog3, 11) U64_SHARD(plog4, 12) U64_SHARD(plog5, 13)
U64_SHARD(ctab0, 14) U64_SHARD(ctab1, 15)
U32_SHARD(chead0, 16) U32_SHARD(chead1, 17)
U64_SHARD(inc0, 18) U64_SHARD(inc1, 19) U64_SHARD(inc2, 20) U64_SHARD(inc3, 21)
U32_SHARD(incm0, 22) U32_SHARD(incm1, 23) U32_SHARD(incm2, 24) U32_SHARD(incm3, 25)
U32_SHARD(es0, 26) U32_SHARD(es1, 27) U32_SHARD(es2, 28) U32_SHARD(es3, 29)
// The same log, table, context and incoming shards as 32-bit keys
// (key_words 1): aliases, not more bindings (the binding count stays 32).
U32_SHARD(ctab32_0, 14) U32_SHARD(ctab32_1, 15)
U32_SHARD(inc32_0, 18) U32_SHARD(inc32_1, 19) U32_SHARD(inc32_2, 20) U32_SHARD(inc32_3, 21)
U32_SHARD(ptab32_0, 2) U32_SHARD(ptab32_1, 3) U32_SHARD(ptab32_2, 4)
U32_SHARD(ptab32_3, 5) U32_SHARD(ptab32_4, 6) U32_SHARD(ptab32_5, 7)
U32_SHARD(plog32_0, 8) U32_SHARD(plog32_1, 9) U32_SHARD(plog32_2, 10)
U32_SHARD(plog32_3, 11) U32_SHARD(plog32_4, 12) U32_SHARD(plog32_5, 13)
// Across devices: the outboxes (the one for device j at [j * out_cap, ...)) and the inbox.
layout(std430, set = 0, binding = 30) coherent buffer Out { uint64_t outbox[]; };
layout(std430, set = 0, binding = 31) readonly buffer In { uint64_t inbox[]; };
// The same two as u32 keys (pc.key_words 1), aliased like the log's views.
layout(std430, set = 0, binding = 30) coherent buffer Out32 { uint outbox32[]; };
layout(std430, set = 0, binding = 31) readonly buffer In32 { uint inbox32[]; };

#define SHARDS2(R, X) switch (s) { case 0u: X(R##0) default: X(R##1) }
#define SHARDS4(R, X) \
  switch (s) { case 0u: X(R##0) case 1u: X(R##1) case 2u: X(R##2) default: X(R##3) }
#define SHARDS6(R, X)                                                                 \
  switch (s) {                                                                        \
    case 0u: X(R##0) case 1u: X(R##1) case 2u: X(R##2) case 3u: X(R##3) case 4u: X(R##4) \
    default: X(R##5)                                                                  \
  }
#define GET(B) return B.v[o];
#define SET(B) B.v[o] = v; return;
#define CAS(B) return atomicCompSwap(B.v[o], c, v);
#define XCHG(B) return atomicExchange(B.v[o], v);

uint ifds_shard(uint i) { return uint(uint64_t(i) >> pc.shard_shift); }
uint ifds_offset(uint i) { return pc.shard_shift >= 32u ? i : i & ((1u << pc.shard_shift) - 1u); }
// Entry i of a u64 relation; word j of entry i of a u32-pair relation.
#define AT(i) uint s = ifds_shard(i), o = ifds_offset(i)
#define AT2(i, j) uint s = ifds_shard(i), o = 2u * ifds_offset(i) + j

uint64_t ptab_cas(uint i, uint64_t c, uint64_t v) { AT(i); SHARDS6(ptab, CAS) }
uint ptab32_cas(uint i, uint c, uint v) { AT(i); SHARDS6(ptab32_, CAS) }
uint64_t plog_get(uint i) { AT(i); SHARDS6(plog, GET) }
void plog_set(uint i, uint64_t v) { AT(i); SHARDS6(plog, SET) }
uint plog32_get(uint i) { AT(i); SHARDS6(plog32_, GET) }
void plog32_set(uint i, uint v) { AT(i); SHARDS6(plog32_, SET) }
uint64_t ctab_get(uint i) { AT(i); SHARDS2(ctab, GET) }
uint64_t ctab_cas(uint i, uint64_t c, uint64_t v) { AT(i); SHARDS2(ctab, CAS) }
uint chead_get(uint i, uint j) { AT2(i, j); SHARDS2(chead, GET) }
void chead_set(uint i, uint j, uint v) { AT2(i, j); SHARDS2(chead, SET) }
uint chead_xchg(uint i, uint j, uint v) { AT2(i, j); SHARDS2(chead, XCHG) }
uint ctab32_get(uint i) { AT(i); SHARDS2(ctab32_, GET) }
uint ctab32_cas(uint i, uint c, uint v) { AT(i); SHARDS2(ctab32_, CAS) }
uint64_t inc_get(uint i) { AT(i); SHARDS4(inc, GET) }
void inc_set(uint i, uint64_t v) { AT(i); SHARDS4(inc, SET) }
uint inc32_get(uint i) { AT(i); SHARDS4(inc32_, GET) }
void inc32_set(uint i, uint v) { AT(i); SHARDS4(inc32_, SET) }
uint incm_get(uint i, uint j) { AT2(i, j); SHARDS4(incm, GET) }
void incm_set(uint i, uint j, uint v) { AT2(i, j); SHARDS4(incm, SET) }
uint es_get(uint i, uint j) { AT2(i, j); SHARDS4(es, GET) }
void es_set(uint i, uint j, uint v) { AT2(i, j); SHARDS4(es, SET) }

const uint EMPTY32 = 0xFFFFFFFFu;
const uint64_t EMPTY64 = 0xFFFFFFFFFFFFFFFFul;

// Graph header words (WEIR_IFDS_G_*). Device node numbers: call c is node
// c, the exit of proc q is node CALLS + q, ordinary nodes follow and have a
// one-word record (CSR: its successors end where the next one's begin);
// successors two words, calls and callees four (see
// ifds_layout.h).
const uint G_PROCS = 1u, G_CALLS = 2u, G_SEEDS = 5u, G_NODE_REC = 6u, G_SUCC = 7u, G_CALL_REC = 8u, G_CALLEE_REC = 9u,
           G_IDENTITY = 10u, G_KILL_OFFSET = 11u, G_KILL_FACT = 12u, G_PAIR_OFFSET = 13u,
           G_PAIR_FROM = 14u, G_PAIR_TO = 15u, G_SEED_NODE = 16u, G_SEED_FACT = 17u,
           G_OWNER = 18u, G_CALLERS = 19u;
// Owner byte of a spread procedure's nodes (WEIR_IFDS_SPREAD, _HOME).
const uint SPREAD = 0x80u, SPREAD_HOME = 0x3Fu;
// Control words (WEIR_IFDS_C_*), state and overflow bits.
const uint C_A = 0u, C_B = 1u, C_PLOG = 2u, C_INC = 3u, C_ES = 4u, C_CTAB = 5u, C_STATE = 6u,
           C_OVERFLOW = 7u, C_ITER = 8u, C_INC_MARK = 9u, C_ES_MARK = 10u, C_MARKED = 11u,
           C_MERGED = 12u, C_RESERVES = 13u, C_OUT = 16u, MAX_DEVICES = 64u, C_OUT_MARK = 80u, CTRL_WORDS = 144u;
const uint S_CONVERGED = 1u, S_OVERFLOW = 2u;
const uint O_PLOG = 1u, O_PTAB = 2u, O_CTAB = 4u, O_INC = 8u, O_ES = 16u, O_LOOP = 32u,
           O_OUT = 64u;
const uint MODE_RANGE = 1u, MODE_FULL = 0u, MODE_KEEP = 2u, MODE_MARK = 1u, MODE_RESUME = 2u,
           MODE_MERGE = 3u;

// Element i of the graph array whose offset is in header word `part`.
uint G(uint part, uint i) { return g[g[part] + i]; }

// ---- keys ------------------------------------------------------------------

uint64_t ifds_key(uint d1, uint node, uint d2) {
  return (uint64_t(d1) << (pc.node_bits + pc.fact_bits)) | (uint64_t(node) << pc.fact_bits) |
         uint64_t(d2);
}
uint ifds_key_d1(uint64_t k) { return uint(k >> (pc.node_bits + pc.fact_bits)); }
uint ifds_key_node(uint64_t k) {
  return uint((k >> pc.fact_bits) & ((uint64_t(1) << pc.node_bits) - 1ul));
}
uint ifds_key_d2(uint64_t k) { return uint(k & ((uint64_t(1) << pc.fact_bits) - 1ul)); }
uint64_t ifds_ctx_key(uint q, uint d) { return (uint64_t(q) << pc.fact_bits) | uint64_t(d); }

uint64_t ifds_hash(uint64_t k) {
  k ^= k >> 33;
  k *= 0xff51afd7ed558ccdul;
  k ^= k >> 33;
  k *= 0xc4ceb9fe1a85ec53ul;
  k ^= k >> 33;
  return k;
}

// Reserves n entries of the relation counted in control word `word`
// (ifds_reserve in ifds_kernels.h: counted in C_RESERVES).
uint ifds_reserve(uint word, uint n) {
  atomicAdd(ctrl[C_RESERVES], 1u);
  return atomicAdd(ctrl[word], n);
}

// One entry for this invocation of the relation counted at control word
// `word`. With subgroups, the invocations that reach this call together
// take one atomic: the first active one reserves for all, each gets its own
// entry in invocation order.
uint ifds_reserve_one(uint word) {
#ifdef IFDS_SUBGROUP
  uvec4 lanes = subgroupBallot(true);
  uint first = 0u;
  if (subgroupElect()) first = ifds_reserve(word, subgroupBallotBitCount(lanes));
  return subgroupBroadcastFirst(first) + subgroupBallotExclusiveBitCount(lanes);
#else
  return ifds_reserve(word, 1u);
#endif
}

// An outbox entry for device `to`: with subgroups, the invocations that
// send together are served one destination at a time (those sending to
// the first active one's, then the rest), each destination one atomic.
uint ifds_reserve_out(uint to) {
#ifdef IFDS_SUBGROUP
  for (uint j = 0u; j < MAX_DEVICES; ++j) {
    if (subgroupBroadcastFirst(to) == to) return ifds_reserve_one(C_OUT + to);
  }
#endif
  return ifds_reserve(C_OUT + to, 1u);
}

void ifds_overflow(uint which) {
  atomicOr(ctrl[C_OVERFLOW], which);
  atomicOr(ctrl[C_STATE], S_OVERFLOW);
}
bool ifds_stopped() { return ctrl[C_STATE] != 0u; }

// Every pass of relate and expand: this one takes the elements part,
// part + parts, ... of each long loop; pass 0 also does the short work.
uint ifds_parts() { return max(pc.parts, 1u); }

// Last statement of every kernel with loops (see "The loop budget" above):
// a loop that must run two iterations runs one once the budget is spent.
// The bound comes from a push constant so that no compiler unrolls it.
void ifds_check_loops() {
  uint want = min(pc.probe_limit, 2u), got = 0u;
  for (uint j = 0u; j < want; ++j) got++;
  if (got != want) ifds_overflow(O_LOOP);
}

uint ifds_slot(uint64_t key, uint size) {
  uint hi, lo;
  umulExtended(uint(ifds_hash(key) >> 32), size, hi, lo);
  return hi;
}

// 1: new, 0: present, -1: no slot within the probe limit. One function per
// table because GLSL cannot pass a buffer as an argument.
bool ifds_narrow() { return pc.key_words == 1u; }

int ifds_ptab_insert(uint64_t key, out uint slot_out) {
  uint size = pc.ptab_size, slot = ifds_slot(key, size);
  slot_out = EMPTY32;
  // 32-bit keys (ifds_set_insert32 in ifds_kernels.h): the same slot, since
  // the hash takes the key zero-extended, and all ones is never a key.
  bool narrow = ifds_narrow();
  uint key32 = uint(key);
  for (uint probe = 0u; probe <= pc.probe_limit && probe < size; ++probe) {
    if (narrow) {
      uint seen32 = ptab32_cas(slot, EMPTY32, key32);
      if (seen32 == EMPTY32) { slot_out = slot; return 1; }
      if (seen32 == key32) { slot_out = slot; return 0; }
    } else {
      // The compare-and-swap is also the read: a plain 64-bit load may be
      // split in two 32-bit halves (llvmpipe) and tear against a concurrent swap.
      uint64_t seen = ptab_cas(slot, EMPTY64, key);
      if (seen == EMPTY64) { slot_out = slot; return 1; }
      if (seen == key) { slot_out = slot; return 0; }
    }
    slot = slot + 1u == size ? 0u : slot + 1u;
  }
  return -1;
}

// The path-edge log at either width (ifds_log_get / ifds_log_set).
uint64_t ifds_log_get(uint i) { return ifds_narrow() ? uint64_t(plog32_get(i)) : plog_get(i); }
void ifds_log_set(uint i, uint64_t key) {
  if (ifds_narrow()) plog32_set(i, uint(key));
  else plog_set(i, key);
}

// Contexts at the log's width (ifds_ctx_insert / ifds_ctx_find in
// ifds_kernels.h: a context key fits wherever a path key does).
int ifds_ctab_insert(uint64_t key, out uint slot_out) {
  uint size = pc.ctab_size, slot = ifds_slot(key, size);
  slot_out = EMPTY32;
  bool narrow = ifds_narrow();
  uint key32 = uint(key);
  for (uint probe = 0u; probe <= pc.probe_limit && probe < size; ++probe) {
    if (narrow) {
      uint seen32 = ctab32_cas(slot, EMPTY32, key32);
      if (seen32 == EMPTY32) { slot_out = slot; return 1; }
      if (seen32 == key32) { slot_out = slot; return 0; }
    } else {
      // The compare-and-swap is also the read: a plain 64-bit load may be
      // split in two 32-bit halves (llvmpipe) and tear against a concurrent swap.
      uint64_t seen = ctab_cas(slot, EMPTY64, key);
      if (seen == EMPTY64) { slot_out = slot; return 1; }
      if (seen == key) { slot_out = slot; return 0; }
    }
    slot = slot + 1u == size ? 0u : slot + 1u;
  }
  return -1;
}

uint ifds_ctab_find(uint64_t key) {
  uint size = pc.ctab_size, slot = ifds_slot(key, size);
  bool narrow = ifds_narrow();
  for (uint probe = 0u; probe <= pc.probe_limit && probe < size; ++probe) {
    uint64_t seen = narrow ? uint64_t(ctab32_get(slot)) : ctab_get(slot);
    if (seen == key) return slot;
    if (seen == (narrow ? uint64_t(EMPTY32) : EMPTY64)) return EMPTY32;
    slot = slot + 1u == size ? 0u : slot + 1u;
  }
  return EMPTY32;
}

// Incoming callers at the log's width (ifds_inc_get / ifds_inc_set).
uint64_t ifds_inc_get(uint e) { return ifds_narrow() ? uint64_t(inc32_get(e)) : inc_get(e); }
void ifds_inc_set(uint e, uint64_t key) {
  if (ifds_narrow()) inc32_set(e, uint(key));
  else inc_set(e, key);
}

// ---- flow functions ----------------------------------------------------------

struct ifds_flow_iter { uint self_; uint made_self; uint d; uint p; uint end_; };

uint ifds_lower_bound(uint part, uint lo, uint hi, uint v) {
  while (lo < hi) {
    uint mid = lo + ((hi - lo) >> 1);
    if (G(part, mid) < v) lo = mid + 1u; else hi = mid;
  }
  return lo;
}

ifds_flow_iter ifds_flow_begin(uint f, uint d) {
  bool keep = d == 0u;
  if (!keep && G(G_IDENTITY, f) != 0u) {
    uint k0 = G(G_KILL_OFFSET, f), k1 = G(G_KILL_OFFSET, f + 1u);
    uint at = ifds_lower_bound(G_KILL_FACT, k0, k1, d);
    keep = at == k1 || G(G_KILL_FACT, at) != d;
  }
  ifds_flow_iter it;
  it.self_ = keep ? d : EMPTY32;
  it.made_self = keep ? 1u : 0u;
  it.d = d;
  it.end_ = G(G_PAIR_OFFSET, f + 1u);
  it.p = ifds_lower_bound(G_PAIR_FROM, G(G_PAIR_OFFSET, f), it.end_, d);
  return it;
}

uint ifds_flow_next(inout ifds_flow_iter it) {
  if (it.self_ != EMPTY32) {
    uint r = it.self_;
    it.self_ = EMPTY32;
    return r;
  }
  while (it.p < it.end_ && G(G_PAIR_FROM, it.p) == it.d) {
    uint b = G(G_PAIR_TO, it.p);
    it.p++;
    if (b == it.d && it.made_self != 0u) continue;
    return b;
  }
  return EMPTY32;
}

// ---- the sink: one atomic per new edge, or per subgroup ------------------------------------------

void ifds_sink_push(uint64_t key) {
  uint at = ifds_reserve_one(C_PLOG);
  if (at < pc.plog_cap) ifds_log_set(at, key);
  else ifds_overflow(O_PLOG);
}

void ifds_candidate(uint64_t key) {
  uint slot;
  int r = ifds_ptab_insert(key, slot);
  if (r > 0) ifds_sink_push(key);
  else if (r < 0) ifds_overflow(O_PTAB);
}

// ---- across devices -------------------------------------------------------------

// As ifds_owner in ifds_kernels.h: a spread procedure's path edges go by a
// hash of d1 from its home device.
uint ifds_owner(uint node, uint d1) {
  uint b = (G(G_OWNER, node >> 2) >> (8u * (node & 3u))) & 0xFFu;
  if ((b & SPREAD) != 0u) return ((b & SPREAD_HOME) + ((d1 * 0x9E3779B1u) >> 8)) % pc.devices;
  return b;
}
bool ifds_foreign(uint node, uint d1) { return pc.devices > 1u && ifds_owner(node, d1) != pc.device; }
void ifds_send(uint to, uint64_t key) {
  uint at = ifds_reserve_out(to);
  if (at >= pc.out_cap) ifds_overflow(O_OUT);
  else if (ifds_narrow()) outbox32[to * pc.out_cap + at] = uint(key);
  else outbox[to * pc.out_cap + at] = key;
}
bool ifds_replaying() { return pc.mode == MODE_RANGE; }

void ifds_emit(uint d1, uint node, uint d2) {
  uint64_t key = ifds_key(d1, node, d2);
  if (!ifds_foreign(node, d1)) ifds_candidate(key);
  else if (!ifds_replaying()) ifds_send(ifds_owner(node, d1), key);
}

void ifds_send_exit(uint q, uint node, uint64_t key) {
  if (pc.devices <= 1u || ifds_replaying() || ifds_foreign(node, ifds_key_d1(key))) return;
  for (uint j = 0u; j < pc.devices; ++j) {
    uint word = G(G_CALLERS, 2u * q + (j >> 5));
    if (j != pc.device && ((word >> (j & 31u)) & 1u) != 0u) ifds_send(j, key);
  }
}

void ifds_ingest_item(uint i) { ifds_candidate(ifds_narrow() ? uint64_t(inbox32[i]) : inbox[i]); }

uint ifds_context(uint q, uint d) {
  uint slot;
  int r = ifds_ctab_insert(ifds_ctx_key(q, d), slot);
  if (r < 0) { ifds_overflow(O_CTAB); return EMPTY32; }
  if (r > 0) {
    uint count = atomicAdd(ctrl[C_CTAB], 1u) + 1u;
    if (count > pc.ctab_size / 4u * 3u) ifds_overflow(O_CTAB);
  }
  return slot;
}

// Makes entry e the head of list j (0 incoming, 1 end summaries) of context
// slot `slot`; returns the old head (its next).
uint ifds_prepend(uint slot, uint j, uint e) { return chead_xchg(slot, j, e); }

// ---- the kernels' per-item steps ---------------------------------------------------

void ifds_seed_item(uint i) {
  if (ifds_foreign(G(G_SEED_NODE, i), 0u)) return;
  ifds_emit(0u, G(G_SEED_NODE, i), G(G_SEED_FACT, i));
}

void ifds_rehash_item(uint64_t key) {
  uint slot;
  if (ifds_ptab_insert(key, slot) < 0) ifds_overflow(O_PTAB);
}

void ifds_relate_item(uint64_t key) {
  uint d1 = ifds_key_d1(key), n = ifds_key_node(key), d2 = ifds_key_d2(key);
  uint calls = g[G_CALLS];
  if (n < calls) {
    uint ci = n, parts = ifds_parts(), k_end = G(G_CALL_REC, 4u * ci + 3u);
    for (uint k = G(G_CALL_REC, 4u * ci + 2u) + pc.part; k < k_end; k += parts) {
      uint callee_proc = G(G_CALLEE_REC, 4u * k);
      ifds_flow_iter it = ifds_flow_begin(G(G_CALLEE_REC, 4u * k + 1u), d2);
      for (uint d3 = ifds_flow_next(it); d3 != EMPTY32; d3 = ifds_flow_next(it)) {
        ifds_emit(d3, G(G_CALLEE_REC, 4u * k + 3u), d3);
        uint slot = ifds_context(callee_proc, d3);
        if (slot == EMPTY32) return;
        uint e = ifds_reserve_one(C_INC);
        if (e >= pc.inc_cap) { ifds_overflow(O_INC); return; }
        ifds_inc_set(e, key);
        incm_set(e, 0u, k);
        incm_set(e, 1u, ifds_prepend(slot, 0u, e));
      }
    }
    return;
  }
  if (n - calls >= g[G_PROCS] || pc.part != 0u) return;  // an ordinary node, or not pass 0
  ifds_send_exit(n - calls, n, key);
  uint slot = ifds_context(n - calls, d1);
  if (slot == EMPTY32) return;
  uint e = ifds_reserve_one(C_ES);
  if (e >= pc.es_cap) { ifds_overflow(O_ES); return; }
  es_set(e, 0u, d2);
  es_set(e, 1u, ifds_prepend(slot, 1u, e));
}

void ifds_emit_flow(uint f, uint d, uint d1, uint node) {
  ifds_flow_iter it = ifds_flow_begin(f, d);
  for (uint o = ifds_flow_next(it); o != EMPTY32; o = ifds_flow_next(it)) ifds_emit(d1, node, o);
}

void ifds_expand_call(uint ci, uint d1, uint d2) {
  uint r = G(G_CALL_REC, 4u * ci), parts = ifds_parts(), k_end = G(G_CALL_REC, 4u * ci + 3u);
  if (pc.part == 0u) ifds_emit_flow(G(G_CALL_REC, 4u * ci + 1u), d2, d1, r);
  for (uint k = G(G_CALL_REC, 4u * ci + 2u) + pc.part; k < k_end; k += parts) {
    uint q = G(G_CALLEE_REC, 4u * k), rf = G(G_CALLEE_REC, 4u * k + 2u);
    ifds_flow_iter it = ifds_flow_begin(G(G_CALLEE_REC, 4u * k + 1u), d2);
    for (uint d3 = ifds_flow_next(it); d3 != EMPTY32; d3 = ifds_flow_next(it)) {
      uint slot = ifds_ctab_find(ifds_ctx_key(q, d3));
      if (slot == EMPTY32) continue;
      for (uint e = chead_get(slot, 1u); e != EMPTY32; e = es_get(e, 1u))
        ifds_emit_flow(rf, es_get(e, 0u), d1, r);
    }
  }
}

void ifds_expand_exit(uint q, uint d1, uint d2) {
  uint slot = ifds_ctab_find(ifds_ctx_key(q, d1));
  if (slot == EMPTY32) return;
  // Entries part, part + parts, ...: skip `part`, then `parts` at a time.
  uint parts = ifds_parts(), e = chead_get(slot, 0u);
  for (uint j = 0u; j < pc.part && e != EMPTY32; ++j) e = incm_get(e, 1u);
  while (e != EMPTY32) {
    uint64_t caller = ifds_inc_get(e);
    uint r = G(G_CALL_REC, 4u * ifds_key_node(caller));  // call node = call index
    uint rf = G(G_CALLEE_REC, 4u * incm_get(e, 0u) + 2u);
    ifds_emit_flow(rf, d2, ifds_key_d1(caller), r);
    e = incm_get(e, 1u);
    for (uint j = 1u; j < parts && e != EMPTY32; ++j) e = incm_get(e, 1u);
  }
}

void ifds_expand_item(uint64_t key) {
  uint d1 = ifds_key_d1(key), n = ifds_key_node(key), d2 = ifds_key_d2(key);
  uint calls = g[G_CALLS], procs = g[G_PROCS];
  if (n < calls) { ifds_expand_call(n, d1, d2); return; }
  if (n - calls < procs) { ifds_expand_exit(n - calls, d1, d2); return; }
  if (pc.part != 0u) return;  // ordinary nodes: pass 0
  uint rec = n - calls - procs;  // successors [node[rec], node[rec + 1])
  for (uint i = G(G_NODE_REC, rec); i < G(G_NODE_REC, rec + 1u); ++i)
    ifds_emit_flow(G(G_SUCC, 2u * i + 1u), d2, d1, G(G_SUCC, 2u * i));
}

void ifds_reset_outboxes(bool to_marks) {
  for (uint j = 0u; j < pc.devices && j < MAX_DEVICES; ++j) {
    ctrl[C_OUT + j] = to_marks ? ctrl[C_OUT_MARK + j] : 0u;
    if (!to_marks) ctrl[C_OUT_MARK + j] = 0u;
  }
}

void ifds_mark() {
  ctrl[C_INC_MARK] = ctrl[C_INC];
  ctrl[C_ES_MARK] = ctrl[C_ES];
  ctrl[C_MARKED] = 1u;
  for (uint j = 0u; j < pc.devices && j < MAX_DEVICES; ++j) ctrl[C_OUT_MARK + j] = ctrl[C_OUT + j];
}

void ifds_advance() {
  if (pc.mode == MODE_RESUME) {
    if ((ctrl[C_STATE] & S_OVERFLOW) != 0u) return;
    ctrl[C_STATE] = 0u;
    ctrl[C_MERGED] = 0u;
    ifds_reset_outboxes(false);
    return;
  }
  if (pc.mode == MODE_MERGE) {
    if (ctrl[C_STATE] != 0u) return;
    uint a = ctrl[C_A], b = ctrl[C_B], end_ = ctrl[C_PLOG];
    if (end_ != b && a == b) ctrl[C_ITER] += 1u;
    ctrl[C_B] = end_;
    if (a == end_) ctrl[C_STATE] = S_CONVERGED;
    ctrl[C_MERGED] = 1u;
    return;
  }
  if (ctrl[C_STATE] != 0u) return;
  ifds_mark();
  if (pc.mode == MODE_MARK) return;
  uint a = ctrl[C_B], b = ctrl[C_PLOG];
  ctrl[C_A] = a;
  ctrl[C_B] = b;
  if (a == b) ctrl[C_STATE] = S_CONVERGED;
  else ctrl[C_ITER] += 1u;
}

void ifds_restore() {
  if (pc.mode != MODE_FULL) {
    ctrl[C_INC] = ctrl[C_INC_MARK];
    ctrl[C_ES] = ctrl[C_ES_MARK];
  } else {
    for (uint i = 0u; i < C_OUT; ++i)
      if (i != C_RESERVES) ctrl[i] = 0u;
  }
  ifds_reset_outboxes(true);
  ctrl[C_STATE] = 0u;
  ctrl[C_OVERFLOW] = 0u;
  ctrl[C_A] = pc.begin;
  ctrl[C_B] = pc.end;
  if (pc.mode != MODE_KEEP) ctrl[C_PLOG] = pc.end;
  ctrl[C_ITER] = pc.value;
}

void ifds_unlink_item(uint i) {
  uint inc_mark = ctrl[C_INC_MARK], es_mark = ctrl[C_ES_MARK];
  uint h = chead_get(i, 0u);
  while (h != EMPTY32 && h >= inc_mark) h = incm_get(h, 1u);
  chead_set(i, 0u, h);
  h = chead_get(i, 1u);
  while (h != EMPTY32 && h >= es_mark) h = es_get(h, 1u);
  chead_set(i, 1u, h);
}

// ---- walking items -----------------------------------------------------------------

// First item of this invocation and the grid-wide stride (workgroups are 1-D).
uint ifds_first() { return gl_WorkGroupID.x * gl_WorkGroupSize.x + gl_LocalInvocationID.x; }
uint ifds_stride() { return gl_NumWorkGroups.x * gl_WorkGroupSize.x; }
bool ifds_leader() { return gl_WorkGroupID.x == 0u && gl_LocalInvocationID.x == 0u; }
