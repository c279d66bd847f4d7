/* The engine's device buffers: their first sizes, the shards each relation
 * is split into, growth on overflow and the clear error when the device
 * cannot hold them.
 *
 * Shards: a backend reports the most bytes one binding may span (Vulkan's
 * maxStorageBufferRange; 0 when it has no limit). Every relation entry is 8
 * bytes, so one shard holds 2^shard_shift entries, the largest power of two
 * that fits; shard s of a relation holds its entries [s << shift, (s + 1) <<
 * shift) and only the last shard may be shorter. Without a limit each
 * relation is one buffer (shift 32).
 *
 * The path-edge log is the only state that survives growth; the table,
 * contexts, incoming and end-summary lists are derived from it and rebuilt
 * by the next window's prefix, so they are freed before anything larger is
 * allocated. A relation grows shard by shard: full shards stay where they
 * are, only the last one is reallocated (and copied), so the peak during
 * growth is old log + one shard + what remains. */
#include <stdio.h>

#include "engine/ifds/engine/engine.h"

#define MAX_U31 0x7FFFFFFFull

typedef struct relation_desc {
  int base;         /* first binding */
  uint32_t max;     /* shards */
  const char *what; /* for messages */
} relation_desc;

static const relation_desc relations[IFDS_R_COUNT] = {
    [IFDS_R_PTAB] = {WEIR_IFDS_B_PTAB, WEIR_IFDS_SHARDS_PTAB, "path-edge table"},
    [IFDS_R_PLOG] = {WEIR_IFDS_B_PLOG, WEIR_IFDS_SHARDS_PLOG, "path-edge log"},
    [IFDS_R_CTAB] = {WEIR_IFDS_B_CTAB, WEIR_IFDS_SHARDS_CTAB, "context table"},
    [IFDS_R_CHEAD] = {WEIR_IFDS_B_CHEAD, WEIR_IFDS_SHARDS_CTAB, "context heads"},
    [IFDS_R_INC] = {WEIR_IFDS_B_INC, WEIR_IFDS_SHARDS_INC, "incoming relation"},
    [IFDS_R_INCM] = {WEIR_IFDS_B_INCM, WEIR_IFDS_SHARDS_INC, "incoming links"},
    [IFDS_R_ES] = {WEIR_IFDS_B_ES, WEIR_IFDS_SHARDS_ES, "end summaries"},
};

static uint64_t at_least(uint64_t v, uint64_t floor) { return v < floor ? floor : v; }
/* Table slots for a log of `plog` entries: at most 3/4 full. */
static uint64_t table_for(uint64_t plog) { return plog + plog / 3u + 2u; }

void weir_ifds_engine_initial_caps(const weir_ifds_problem *pb,
                                   const weir_ifds_engine_options *o, ifds_caps *out) {
  uint64_t callees = pb->callee_offset[pb->call_count];
  /* Realistic problems hold a few facts per node (about 4 path edges per
   * node in the generator's realistic preset); the log grows 1.5x when not. */
  out->plog = at_least(3ull * pb->node_count + pb->seed_count, 1024);
  /* Contexts and end summaries: a few per procedure; incoming: a few per
   * callee edge. Measured on the realistic preset (bench/ifds/README.md):
   * 1.9 contexts per procedure, 1.4 incoming entries per callee edge, 3.6
   * end summaries per procedure. The context table holds up to 3 per
   * procedure at its 3/4 limit (more costs one full rebuild; it was 12 per
   * procedure, a quarter of the lists' bytes empty); incoming lists grow
   * 2x with a cheap rollback (unlink, log and table kept). */
  out->ctab = at_least(4ull * pb->proc_count + 1024u, 64);
  out->inc = at_least(2ull * callees + 64u, 64);
  out->es = at_least(4ull * pb->proc_count + 64u, 64);
  if (o && o->initial_table_capacity) out->plog = at_least(o->initial_table_capacity * 3u / 4u, 1);
  if (o && o->initial_frontier_capacity) {
    out->ctab = at_least(o->initial_frontier_capacity, 4);
    out->inc = out->es = at_least(o->initial_frontier_capacity, 1);
  }
  out->ptab = table_for(out->plog);
}

/* Across `parts` devices each holds about its share of the path edges and
 * of the incoming entries (those of its own call edges). */
void weir_ifds_engine_share_caps(ifds_engine *e, uint32_t parts) {
  if (parts <= 1u) return;
  e->caps.plog = at_least(e->caps.plog / parts, 1024);
  e->caps.ptab = table_for(e->caps.plog);
  e->caps.inc = at_least(e->caps.inc / parts, 64);
}

/* Relations of keys (log, table, contexts, incoming callers) take 4 bytes an
 * entry with 32-bit keys; heads and links are u32 pairs either way. */
uint64_t weir_ifds_engine_entry_bytes(const ifds_engine *e, int r) {
  int keys = r == IFDS_R_PLOG || r == IFDS_R_PTAB || r == IFDS_R_CTAB || r == IFDS_R_INC;
  return keys && e->key_words == 1u ? 4u : 8u;
}

uint64_t weir_ifds_engine_state_bytes(const ifds_engine *e, const ifds_caps *c) {
  uint64_t key = weir_ifds_engine_entry_bytes(e, IFDS_R_PLOG);
  return key * (c->plog + c->ptab + c->ctab + c->inc) + 8u * (c->ctab + c->inc + c->es);
}

static uint64_t shard_entries(const ifds_engine *e) { return 1ull << e->shard_shift; }

uint64_t weir_ifds_engine_max_entries(const ifds_engine *e, int r) {
  return (uint64_t)relations[r].max << e->shard_shift;
}

static uint64_t cap_of(const ifds_caps *c, int r) {
  switch (r) {
  case IFDS_R_PTAB: return c->ptab;
  case IFDS_R_PLOG: return c->plog;
  case IFDS_R_CTAB:
  case IFDS_R_CHEAD: return c->ctab;
  case IFDS_R_INC:
  case IFDS_R_INCM: return c->inc;
  default: return c->es;
  }
}

weir_status weir_ifds_engine_plan_shards(ifds_engine *e) {
  weir_device_info info = WEIR_DEVICE_INFO_INIT;
  WEIR_TRY(weir_backend_device_info(e->backend, &info));
  uint64_t limit = e->binding_limit = info.max_binding_bytes;
  uint64_t graph = 4u * e->graph_words, ctrl = 4u * WEIR_IFDS_CTRL_WORDS;
  if (limit && (graph > limit || ctrl > limit))
    return weir_fail(WEIR_ERR_UNSUPPORTED,
                     "IFDS engine: backend '%s' binds at most %llu bytes per buffer, but the "
                     "supergraph of problem '%s' takes %llu bytes (%u nodes) and the control "
                     "block %llu; the graph is one binding. Fix: use a backend or device with a "
                     "larger per-binding limit (cpu and cuda have none; a limit forced with "
                     "WEIR_MAX_BINDING_BYTES or max_binding_bytes counts too), or --solver "
                     "reference.",
                     weir_backend_id(e->backend), (unsigned long long)limit,
                     e->problem->source_name, (unsigned long long)graph, e->problem->node_count,
                     (unsigned long long)ctrl);
  uint32_t shift = 32;
  if (limit && limit / 8u < (1ull << 32)) {
    shift = 0;
    while ((16ull << shift) <= limit) ++shift; /* 2^shift entries of 8 bytes fit */
  }
  e->shard_shift = shift;
  /* First sizes never start past what the shards hold (growth stops there
   * too, with the error of check_limits). */
  ifds_caps *c = &e->caps;
  uint64_t max_table = weir_ifds_engine_max_entries(e, IFDS_R_PTAB);
  if (c->ptab > max_table) c->ptab = max_table;
  uint64_t table_room = c->ptab / 4u * 3u > 0u ? c->ptab / 4u * 3u : 1u;
  if (c->plog > table_room) c->plog = table_room;
  if (c->plog > weir_ifds_engine_max_entries(e, IFDS_R_PLOG))
    c->plog = weir_ifds_engine_max_entries(e, IFDS_R_PLOG);
  if (c->ctab > weir_ifds_engine_max_entries(e, IFDS_R_CTAB))
    c->ctab = weir_ifds_engine_max_entries(e, IFDS_R_CTAB);
  if (c->inc > weir_ifds_engine_max_entries(e, IFDS_R_INC))
    c->inc = weir_ifds_engine_max_entries(e, IFDS_R_INC);
  if (c->es > weir_ifds_engine_max_entries(e, IFDS_R_ES))
    c->es = weir_ifds_engine_max_entries(e, IFDS_R_ES);
  return WEIR_OK;
}

weir_status weir_ifds_engine_allocate(ifds_engine *e, uint64_t bytes, const char *what,
                                      weir_buffer *out) {
  weir_status st = weir_allocate(e->backend, bytes, out);
  if (st == WEIR_OK) {
    e->resident_bytes += bytes;
    if (e->resident_bytes > e->peak_bytes) e->peak_bytes = e->resident_bytes;
    return WEIR_OK;
  }
  weir_backend_stats s;
  weir_backend_get_stats(e->backend, &s);
  if (st != WEIR_ERR_OUT_OF_MEMORY)
    return weir_fail_context(st, "IFDS engine: allocating the %s (%llu bytes)", what,
                             (unsigned long long)bytes);
  uint64_t need = weir_ifds_engine_state_bytes(e, &e->caps) + 4u * e->graph_words + 64u;
  return weir_fail_context(
      st,
      "IFDS engine: the device cannot hold the solver state: it needs %llu bytes (graph %llu, "
      "path-edge log %llu entries, table %llu slots, %llu contexts, %llu incoming, %llu end "
      "summaries) and allocating the %s (%llu bytes) failed with %llu bytes resident. Fix: use "
      "a device with more memory, raise the memory limit, or use --solver reference",
      (unsigned long long)need, (unsigned long long)(4u * e->graph_words),
      (unsigned long long)e->caps.plog, (unsigned long long)e->caps.ptab,
      (unsigned long long)e->caps.ctab, (unsigned long long)e->caps.inc,
      (unsigned long long)e->caps.es, what, (unsigned long long)bytes,
      (unsigned long long)s.resident_bytes);
}

static void release_binding(ifds_engine *e, int b) {
  if (e->buf[b].owner && weir_free(e->backend, e->buf[b]) == WEIR_OK)
    e->resident_bytes -= e->shard_bytes[b];
  e->buf[b] = WEIR_NULL_BUFFER;
  e->shard_bytes[b] = 0;
}

/* Binds the shards relation r does not use to its shard 0. */
static void alias_unused(ifds_engine *e, int r) {
  const relation_desc *d = &relations[r];
  for (uint32_t s = e->shards[r]; s < d->max; ++s) {
    e->buf[d->base + (int)s] = e->buf[d->base];
    if (s > 0) e->shard_bytes[d->base + (int)s] = 0;
  }
}

static void release_relation(ifds_engine *e, int r) {
  const relation_desc *d = &relations[r];
  for (uint32_t s = 0; s < e->shards[r]; ++s) release_binding(e, d->base + (int)s);
  for (uint32_t s = e->shards[r]; s < d->max; ++s) e->buf[d->base + (int)s] = WEIR_NULL_BUFFER;
  e->shards[r] = 0;
}

/* Relation r sized for `entries`, keeping its first `keep` entries: each
 * shard that changes size is reallocated (its kept part copied), new
 * shards are added, shards past the end are freed. */
static weir_status resize_relation(ifds_engine *e, int r, uint64_t entries, uint64_t keep) {
  const relation_desc *d = &relations[r];
  uint64_t per = shard_entries(e);
  uint64_t want = entries ? (entries + per - 1u) / per : 1u;
  if (want > d->max)
    return weir_fail(WEIR_ERR_INTERNAL, "IFDS engine: the %s needs %llu shards (at most %u). "
                     "Fix: report this bug.", d->what, (unsigned long long)want, d->max);
  for (uint32_t s = (uint32_t)want; s < e->shards[r]; ++s) release_binding(e, d->base + (int)s);
  uint32_t had = e->shards[r] < want ? e->shards[r] : (uint32_t)want;
  for (uint32_t s = 0; s < want; ++s) {
    int b = d->base + (int)s;
    uint64_t first = (uint64_t)s * per, count = entries - first < per ? entries - first : per;
    uint64_t entry = weir_ifds_engine_entry_bytes(e, r), bytes = entry * (count ? count : 1u);
    if (s < had && e->shard_bytes[b] == bytes) continue;
    weir_buffer fresh;
    WEIR_TRY(weir_ifds_engine_allocate(e, bytes, d->what, &fresh));
    uint64_t kept = keep > first ? entry * (keep - first < count ? keep - first : count) : 0u;
    if (s < had && kept > e->shard_bytes[b]) kept = e->shard_bytes[b];
    weir_status st = s < had && kept ? weir_copy(e->backend, fresh, 0, e->buf[b], 0, kept) : WEIR_OK;
    if (s < had) release_binding(e, b);
    e->buf[b] = fresh;
    e->shard_bytes[b] = bytes;
    WEIR_TRY(st);
  }
  e->shards[r] = (uint32_t)want;
  alias_unused(e, r);
  return WEIR_OK;
}

void weir_ifds_engine_release_derived(ifds_engine *e) {
  for (int r = 0; r < IFDS_R_COUNT; ++r)
    if (r != IFDS_R_PLOG) release_relation(e, r);
}

void weir_ifds_engine_free_all(ifds_engine *e) {
  for (int r = 0; r < IFDS_R_COUNT; ++r) release_relation(e, r);
  if (e->graph_borrowed) e->buf[WEIR_IFDS_B_GRAPH] = WEIR_NULL_BUFFER; /* the replica set's */
  else release_binding(e, WEIR_IFDS_B_GRAPH);
  release_binding(e, WEIR_IFDS_B_CTRL);
}

void weir_ifds_engine_bytes(const ifds_engine *e, uint64_t *graph, uint64_t *log, uint64_t *table,
                            uint64_t *lists) {
  uint64_t by[IFDS_R_COUNT] = {0};
  for (int r = 0; r < IFDS_R_COUNT; ++r)
    for (uint32_t s = 0; s < e->shards[r]; ++s) by[r] += e->shard_bytes[relations[r].base + (int)s];
  *graph = 4u * e->graph_words;
  *log = by[IFDS_R_PLOG];
  *table = by[IFDS_R_PTAB];
  *lists = by[IFDS_R_CTAB] + by[IFDS_R_CHEAD] + by[IFDS_R_INC] + by[IFDS_R_INCM] + by[IFDS_R_ES];
}

/* The 32-bit indices of the kernels, and the shards of each relation. */
static weir_status check_limits(const ifds_engine *e, const ifds_caps *c) {
  if (c->plog >= UINT32_MAX || c->ptab > UINT32_MAX || c->ctab > MAX_U31 || c->inc > MAX_U31 ||
      c->es > MAX_U31)
    return weir_fail(WEIR_ERR_UNSUPPORTED,
                     "IFDS engine: the state outgrows the engine's 32-bit indices (path-edge log "
                     "%llu of at most %u entries, table %llu slots, contexts %llu, incoming %llu, "
                     "end summaries %llu of at most %llu). Fix: split the problem or use "
                     "--solver reference.",
                     (unsigned long long)c->plog, UINT32_MAX - 1u, (unsigned long long)c->ptab,
                     (unsigned long long)c->ctab, (unsigned long long)c->inc,
                     (unsigned long long)c->es, MAX_U31);
  for (int r = 0; r < IFDS_R_COUNT; ++r) {
    uint64_t need = cap_of(c, r), max = weir_ifds_engine_max_entries(e, r);
    if (need > max)
      return weir_fail(WEIR_ERR_UNSUPPORTED,
                       "IFDS engine: the %s needs %llu entries (%llu bytes), but backend '%s' "
                       "binds at most %llu bytes per buffer and the engine splits it over at "
                       "most %u buffers of %llu entries. Fix: use a backend or device with a "
                       "larger per-binding limit (cpu and cuda have none; a limit forced with "
                       "WEIR_MAX_BINDING_BYTES or max_binding_bytes counts too), or --solver "
                       "reference.",
                       relations[r].what, (unsigned long long)need,
                       (unsigned long long)(weir_ifds_engine_entry_bytes(e, r) * need),
                       weir_backend_id(e->backend), (unsigned long long)e->binding_limit,
                       relations[r].max, (unsigned long long)shard_entries(e));
  }
  return WEIR_OK;
}

static weir_status alloc_derived(ifds_engine *e) {
  WEIR_TRY(check_limits(e, &e->caps));
  const ifds_caps *c = &e->caps;
  WEIR_TRY(resize_relation(e, IFDS_R_PTAB, c->ptab, 0));
  WEIR_TRY(resize_relation(e, IFDS_R_CTAB, c->ctab, 0));
  WEIR_TRY(resize_relation(e, IFDS_R_CHEAD, c->ctab, 0));
  WEIR_TRY(resize_relation(e, IFDS_R_INC, c->inc, 0));
  WEIR_TRY(resize_relation(e, IFDS_R_INCM, c->inc, 0));
  return resize_relation(e, IFDS_R_ES, c->es, 0);
}

weir_status weir_ifds_engine_alloc_derived(ifds_engine *e) {
  WEIR_TRY(check_limits(e, &e->caps));
  WEIR_TRY(resize_relation(e, IFDS_R_PLOG, e->caps.plog, 0));
  e->plog_allocated = e->caps.plog;
  return alloc_derived(e);
}

/* A larger capacity: by num/den, or a quarter past what was reserved, but
 * never past what the relation's shards hold when that still covers the
 * reservation (close to the limit the last growth takes what is left). */
static uint64_t grown(uint64_t cap, uint64_t reserved, uint64_t num, uint64_t den, uint64_t max) {
  uint64_t a = cap * num / den + 16u, b = reserved + reserved / 4u + 16u;
  uint64_t next = a > b ? a : b;
  return next > max && reserved < max && cap < max ? max : next;
}

/* Full: everything derived is freed and reallocated empty, the log keeps its
 * complete prefix [0, B), and the next prefix rebuilds the relations. */
static weir_status grow_full(ifds_engine *e, const ifds_caps *next) {
  static const int derived[] = {IFDS_R_PTAB, IFDS_R_CTAB, IFDS_R_CHEAD,
                                IFDS_R_INC,  IFDS_R_INCM, IFDS_R_ES};
  for (size_t i = 0; i < sizeof derived / sizeof derived[0]; ++i) release_relation(e, derived[i]);
  e->caps = *next;
  if (next->plog != e->plog_allocated)
    WEIR_TRY(resize_relation(e, IFDS_R_PLOG, next->plog, e->ctrl[WEIR_IFDS_C_B]));
  e->plog_allocated = next->plog;
  return alloc_derived(e);
}

/* Partial: the relations stay (the next prefix unlinks what the failed
 * iteration added); only what overflowed moves into larger buffers, keeping
 * the entries below the marks. The table is always rebuilt from the log. */
static weir_status grow_partial(ifds_engine *e, const ifds_caps *next) {
  const uint32_t *c = e->ctrl;
  if (next->ptab != e->caps.ptab) {
    release_relation(e, IFDS_R_PTAB);
    e->caps.ptab = next->ptab;
    WEIR_TRY(resize_relation(e, IFDS_R_PLOG, next->plog, c[WEIR_IFDS_C_B]));
    e->caps.plog = e->plog_allocated = next->plog;
    WEIR_TRY(resize_relation(e, IFDS_R_PTAB, next->ptab, 0));
  }
  /* Whole lists move: unlink still walks the entries past the marks. */
  if (next->inc != e->caps.inc) {
    uint64_t keep = e->caps.inc;
    e->caps.inc = next->inc;
    WEIR_TRY(resize_relation(e, IFDS_R_INC, next->inc, keep));
    WEIR_TRY(resize_relation(e, IFDS_R_INCM, next->inc, keep));
  }
  if (next->es != e->caps.es) {
    uint64_t keep = e->caps.es;
    e->caps.es = next->es;
    WEIR_TRY(resize_relation(e, IFDS_R_ES, next->es, keep));
  }
  return WEIR_OK;
}

/* Every growth of the log rebuilds the table from it (a rehash of every
 * path edge so far), so a small log (under 1 M entries, 8 MB) grows 4x:
 * few rebuilds while memory is cheap; past that 1.5x keeps the peak close
 * to the need. */
static uint64_t log_growth_num(uint64_t cap) { return cap < (1ull << 20) ? 8u : 3u; }

/* After a window that ran out of room: larger capacities for what overflowed
 * (ctrl holds the reservations, which count past the capacity). A context
 * table overflow, or one before the marks were set (during a rebuild),
 * needs the full rebuild; anything else rolls back one iteration. */
weir_status weir_ifds_engine_grow(ifds_engine *e) {
  uint32_t over = e->ctrl[WEIR_IFDS_C_OVERFLOW];
  ifds_caps next = e->caps;
  if (over & (WEIR_IFDS_O_PLOG | WEIR_IFDS_O_PTAB)) {
    uint64_t max_table = weir_ifds_engine_max_entries(e, IFDS_R_PTAB);
    uint64_t max_log = weir_ifds_engine_max_entries(e, IFDS_R_PLOG);
    /* The log never outgrows what a 3/4-full table can hold. */
    if (max_table / 4u * 3u < max_log) max_log = max_table / 4u * 3u;
    next.plog = grown(e->caps.plog, e->ctrl[WEIR_IFDS_C_PLOG], log_growth_num(e->caps.plog), 2,
                      max_log);
    next.ptab = table_for(next.plog);
    if (next.ptab > max_table && next.plog <= max_log) next.ptab = max_table;
  }
  /* A context table overflow costs a full rebuild (every path edge
   * re-inserted, step 1 replayed): grow it 4x. */
  if (over & WEIR_IFDS_O_CTAB)
    next.ctab = grown(e->caps.ctab, e->ctrl[WEIR_IFDS_C_CTAB] * 2u, 4, 1,
                      weir_ifds_engine_max_entries(e, IFDS_R_CTAB));
  if (over & WEIR_IFDS_O_INC)
    next.inc = grown(e->caps.inc, e->ctrl[WEIR_IFDS_C_INC], 2, 1,
                     weir_ifds_engine_max_entries(e, IFDS_R_INC));
  if (over & WEIR_IFDS_O_ES)
    next.es = grown(e->caps.es, e->ctrl[WEIR_IFDS_C_ES], 2, 1,
                    weir_ifds_engine_max_entries(e, IFDS_R_ES));
  WEIR_TRY(check_limits(e, &next));
  if (over & ~(uint32_t)WEIR_IFDS_O_LOOP) e->growths++; /* a loop split grows nothing */
  e->full_rebuild = !e->ctrl[WEIR_IFDS_C_MARKED] || (over & WEIR_IFDS_O_CTAB);
  /* Without a log or table overflow every edge the failed iteration put in
   * the table is also in the log: the table stays, only the lists roll back. */
  e->keep_table = !e->full_rebuild && !(over & (WEIR_IFDS_O_PLOG | WEIR_IFDS_O_PTAB));
  return e->full_rebuild ? grow_full(e, &next) : grow_partial(e, &next);
}

/* Across devices, before an inbox of `extra` path edges is ingested: a log
 * with room for all of them (the inbox goes in before the round's advance,
 * where a rollback could not undo it without losing the last iteration), so
 * ingest never overflows the log, nor the table past its 3/4 load. Keeps the
 * log's [0, C_PLOG) and leaves the table empty: *rehash says the next
 * prefix must rebuild it from the log [0, C_PLOG). */
weir_status weir_ifds_engine_reserve(ifds_engine *e, uint64_t extra, int *rehash) {
  uint64_t used = e->ctrl[WEIR_IFDS_C_PLOG], need = used + extra;
  *rehash = 0;
  if (need <= e->caps.plog) return WEIR_OK;
  uint64_t max_table = weir_ifds_engine_max_entries(e, IFDS_R_PTAB);
  uint64_t max_log = weir_ifds_engine_max_entries(e, IFDS_R_PLOG);
  if (max_table / 4u * 3u < max_log) max_log = max_table / 4u * 3u;
  ifds_caps next = e->caps;
  next.plog = grown(e->caps.plog, need, log_growth_num(e->caps.plog), 2, max_log);
  next.ptab = table_for(next.plog);
  if (next.ptab > max_table && next.plog <= max_log) next.ptab = max_table;
  WEIR_TRY(check_limits(e, &next));
  e->growths++;
  release_relation(e, IFDS_R_PTAB);
  e->caps.ptab = next.ptab;
  WEIR_TRY(resize_relation(e, IFDS_R_PLOG, next.plog, used));
  e->caps.plog = e->plog_allocated = next.plog;
  WEIR_TRY(resize_relation(e, IFDS_R_PTAB, next.ptab, 0));
  *rehash = 1;
  return WEIR_OK;
}
