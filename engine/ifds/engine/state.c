/* The engine's device buffers: their first sizes, growth on overflow and the
 * clear error when the device cannot hold them.
 *
 * The path-edge log is the only state that survives growth (copied into the
 * larger buffer); the table, contexts, incoming and end-summary lists are
 * derived from it and rebuilt by the next window's prefix, so they are freed
 * before anything larger is allocated. That keeps the peak during growth at
 * old log + new log + what remains. */
#include <stdio.h>

#include "engine/ifds/engine/engine.h"

#define MAX_U31 0x7FFFFFFFull

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
   * callee edge. Small next to the log, so start generous. */
  out->ctab = at_least(6ull * pb->proc_count + 64u, 64);
  out->inc = at_least(4ull * callees + 64u, 64);
  out->es = at_least(4ull * pb->proc_count + 64u, 64);
  if (o && o->initial_table_capacity) out->plog = at_least(o->initial_table_capacity * 3u / 4u, 1);
  if (o && o->initial_frontier_capacity) {
    out->ctab = at_least(o->initial_frontier_capacity, 4);
    out->inc = out->es = at_least(o->initial_frontier_capacity, 1);
  }
  out->ptab = table_for(out->plog);
}

uint64_t weir_ifds_engine_state_bytes(const ifds_caps *c) {
  return 8u * (c->plog + c->ptab + 2u * c->ctab + 2u * c->inc + c->es);
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
  uint64_t need = weir_ifds_engine_state_bytes(&e->caps) + 4u * e->graph_words + 64u;
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

static void release(ifds_engine *e, int which) {
  uint64_t bytes = 0;
  if (e->buf[which].owner && weir_buffer_size(e->backend, e->buf[which], &bytes) == WEIR_OK &&
      weir_free(e->backend, e->buf[which]) == WEIR_OK)
    e->resident_bytes -= bytes;
  e->buf[which] = WEIR_NULL_BUFFER;
}

static const int derived[] = {WEIR_IFDS_B_PTAB, WEIR_IFDS_B_CTAB, WEIR_IFDS_B_CHEAD,
                              WEIR_IFDS_B_INC, WEIR_IFDS_B_INCM, WEIR_IFDS_B_ES};

void weir_ifds_engine_free_all(ifds_engine *e) {
  for (int i = 0; i < WEIR_IFDS_BINDINGS; ++i) release(e, i);
}

static weir_status check_limits(const ifds_caps *c) {
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
  return WEIR_OK;
}

weir_status weir_ifds_engine_alloc_derived(ifds_engine *e) {
  WEIR_TRY(check_limits(&e->caps));
  const ifds_caps *c = &e->caps;
  WEIR_TRY(weir_ifds_engine_allocate(e, 8u * c->ptab, "path-edge table", &e->buf[WEIR_IFDS_B_PTAB]));
  WEIR_TRY(weir_ifds_engine_allocate(e, 8u * c->ctab, "context table", &e->buf[WEIR_IFDS_B_CTAB]));
  WEIR_TRY(weir_ifds_engine_allocate(e, 8u * c->ctab, "context heads", &e->buf[WEIR_IFDS_B_CHEAD]));
  WEIR_TRY(weir_ifds_engine_allocate(e, 8u * c->inc, "incoming relation", &e->buf[WEIR_IFDS_B_INC]));
  WEIR_TRY(weir_ifds_engine_allocate(e, 8u * c->inc, "incoming links", &e->buf[WEIR_IFDS_B_INCM]));
  WEIR_TRY(weir_ifds_engine_allocate(e, 8u * c->es, "end summaries", &e->buf[WEIR_IFDS_B_ES]));
  return WEIR_OK;
}

static uint64_t grown(uint64_t cap, uint64_t reserved, uint64_t num, uint64_t den) {
  uint64_t a = cap * num / den + 16u, b = reserved + reserved / 4u + 16u;
  return a > b ? a : b;
}

/* A buffer `bytes` long holding the first `keep` bytes of buffer `which`. */
static weir_status regrow(ifds_engine *e, int which, uint64_t bytes, uint64_t keep,
                          const char *what) {
  weir_buffer bigger;
  WEIR_TRY(weir_ifds_engine_allocate(e, bytes, what, &bigger));
  weir_status st = keep ? weir_copy(e->backend, bigger, 0, e->buf[which], 0, keep) : WEIR_OK;
  release(e, which);
  e->buf[which] = bigger;
  return st;
}

/* Full: everything derived is freed and reallocated empty, the log keeps its
 * complete prefix [0, B), and the next prefix rebuilds the relations. */
static weir_status grow_full(ifds_engine *e, const ifds_caps *next) {
  for (size_t i = 0; i < sizeof derived / sizeof derived[0]; ++i) release(e, derived[i]);
  uint64_t keep = 8u * e->ctrl[WEIR_IFDS_C_B];
  e->caps = *next;
  if (next->plog != e->plog_allocated)
    WEIR_TRY(regrow(e, WEIR_IFDS_B_PLOG, 8u * next->plog, keep, "path-edge log"));
  e->plog_allocated = next->plog;
  return weir_ifds_engine_alloc_derived(e);
}

/* Partial: the relations stay (the next prefix unlinks what the failed
 * iteration added); only what overflowed moves into larger buffers, keeping
 * the entries below the marks. The table is always rebuilt from the log. */
static weir_status grow_partial(ifds_engine *e, const ifds_caps *next) {
  const uint32_t *c = e->ctrl;
  if (next->ptab != e->caps.ptab) {
    release(e, WEIR_IFDS_B_PTAB);
    e->caps.ptab = next->ptab;
    WEIR_TRY(regrow(e, WEIR_IFDS_B_PLOG, 8u * next->plog, 8u * c[WEIR_IFDS_C_B], "path-edge log"));
    e->caps.plog = e->plog_allocated = next->plog;
    WEIR_TRY(weir_ifds_engine_allocate(e, 8u * next->ptab, "path-edge table",
                                       &e->buf[WEIR_IFDS_B_PTAB]));
  }
  /* Whole lists move: unlink still walks the entries past the marks. */
  if (next->inc != e->caps.inc) {
    uint64_t keep = 8u * e->caps.inc;
    e->caps.inc = next->inc;
    WEIR_TRY(regrow(e, WEIR_IFDS_B_INC, 8u * next->inc, keep, "incoming relation"));
    WEIR_TRY(regrow(e, WEIR_IFDS_B_INCM, 8u * next->inc, keep, "incoming links"));
  }
  if (next->es != e->caps.es) {
    uint64_t keep = 8u * e->caps.es;
    e->caps.es = next->es;
    WEIR_TRY(regrow(e, WEIR_IFDS_B_ES, 8u * next->es, keep, "end summaries"));
  }
  return WEIR_OK;
}

/* After a window that ran out of room: larger capacities for what overflowed
 * (ctrl holds the reservations, which count past the capacity). A context
 * table overflow, or one before the marks were set (during a rebuild),
 * needs the full rebuild; anything else rolls back one iteration. */
weir_status weir_ifds_engine_grow(ifds_engine *e) {
  uint32_t over = e->ctrl[WEIR_IFDS_C_OVERFLOW];
  ifds_caps next = e->caps;
  if (over & (WEIR_IFDS_O_PLOG | WEIR_IFDS_O_PTAB)) {
    next.plog = grown(e->caps.plog, e->ctrl[WEIR_IFDS_C_PLOG], 3, 2);
    next.ptab = table_for(next.plog);
  }
  if (over & WEIR_IFDS_O_CTAB) next.ctab = grown(e->caps.ctab, e->ctrl[WEIR_IFDS_C_CTAB] * 2u, 2, 1);
  if (over & WEIR_IFDS_O_INC) next.inc = grown(e->caps.inc, e->ctrl[WEIR_IFDS_C_INC], 2, 1);
  if (over & WEIR_IFDS_O_ES) next.es = grown(e->caps.es, e->ctrl[WEIR_IFDS_C_ES], 2, 1);
  WEIR_TRY(check_limits(&next));
  if (over & ~(uint32_t)WEIR_IFDS_O_LOOP) e->growths++; /* a loop split grows nothing */
  e->full_rebuild = !e->ctrl[WEIR_IFDS_C_MARKED] || (over & WEIR_IFDS_O_CTAB);
  /* Without a log or table overflow every edge the failed iteration put in
   * the table is also in the log: the table stays, only the lists roll back. */
  e->keep_table = !e->full_rebuild && !(over & (WEIR_IFDS_O_PLOG | WEIR_IFDS_O_PTAB));
  return e->full_rebuild ? grow_full(e, &next) : grow_partial(e, &next);
}
