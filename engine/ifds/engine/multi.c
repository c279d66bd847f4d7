/* weir_ifds_solve_engine_multi / weir_ifds_solve_engine_group: the resident
 * fixed point across the members of a group (devices of this process, or
 * MPI ranks). See docs/distributed.md.
 *
 * Ownership. Procedures are split into contiguous blocks of about equal node
 * counts, one per member; a path edge belongs to the member that owns its
 * node's procedure, so normal flow, call-to-return flow and return flow stay
 * on one member, and only two kinds of path edges cross: start edges (a call
 * entering a procedure another member owns) and exit edges, which also go to
 * every member that owns a caller of the procedure (the graph carries that
 * set per procedure), where they become end summaries and meet the callers'
 * incoming entries. Every member thus keeps the incoming entries of its own
 * call edges and the end summaries of every procedure its calls enter, and
 * every join of the tabulation stays local.
 *
 * A round, on every member, is one window (one host synchronization):
 * resume (clear the converged bit and the outbox counts), ingest the inbox
 * (the path edges others sent last round, into the table and, when new, the
 * log), merge (they join the delta still to do), then K iterations of the
 * single-device engine (relate, expand, advance; window.c), in which
 * candidates other members own go to per-destination outboxes on the device
 * instead of the table. An overflow rolls the iteration back as on one
 * device; the outbox counts go back to their marks with the rest. Then the
 * control blocks come back (one read per member), the outbox counts are
 * gathered on every process (directly for a local group, an allgather across
 * processes), and the outboxes move with ONE weir_alltoallv into the inboxes.
 * Path edges that arrive late are simply a later delta: the tabulation is
 * monotone and every join is semi-naive per member, so the number of local
 * iterations per round changes the work, never the result. A member whose
 * delta runs out stops early in its window (every kernel is a no-op once it
 * converged). The solve ends when every member converged in the same round
 * and no outbox holds anything. K doubles from `initial_window` (4) while
 * rounds stay short, up to `max_window`, as on one device.
 *
 * The log of a member may also hold exit edges it received; the result
 * counts every path edge once, at its owner, and the result is built from
 * the owned keys of all members (on member 0's process). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/ifds/engine/plan.h"

/* Entries of each outbox and of the inbox to start with; both grow. */
#define FIRST_OUTBOX 4096u
#define FIRST_INBOX 4096u
/* Rounds in a row without a new path edge or iteration, not converged. */
#define NO_PROGRESS_ROUNDS 3u

typedef struct member {
  ifds_engine e;
  window_plan w;
  weir_chunk *out, *in; /* outboxes (size x out_cap keys), inbox */
  uint32_t in_count;    /* inbox keys the next round ingests */
  int rebuild;          /* the next prefix rebuilds after growth */
  int rehash;           /* the next prefix rebuilds the table from the log [0, rehash_to) */
  uint32_t rehash_to;
  weir_backend_stats before;
  /* The round's outcome when it ran on its own thread (the message lives in
   * that thread's weir_last_error, so it is carried back here). */
  weir_status st;
  char message[1024];
  struct multi *mt;
  int head;
  uint64_t k; /* iterations in this round's window */
} member;

/* Columns of a member's row in the gathered table: its outbox counts (one
 * per member), then these. */
enum { ROW_CONVERGED, ROW_LOG, ROW_ITER, ROW_EXTRA };

typedef struct multi {
  weir_group *group;
  const weir_ifds_problem *pb;
  const weir_ifds_engine_options *o;
  uint32_t size, first, local;
  member *m;
  uint8_t *proc_owner;
  uint32_t *to_old; /* device node -> problem node */
  weir_replica_set *graph;
  uint64_t width;   /* size + ROW_EXTRA */
  uint64_t *rows;   /* size x width, every member's row */
  uint64_t *send_counts, *send_displs, *recv_counts, *recv_displs; /* local x size */
  weir_chunk **meta_send, **meta_recv; /* allgather of rows across processes */
  uint64_t rounds, exchanged_keys, iterations;
  double seconds_exchange;
} multi;

static double now_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Contiguous blocks of procedures with about equal node counts. */
static void partition(const weir_ifds_problem *pb, uint32_t size, uint8_t *owner) {
  uint64_t total = 0, seen = 0;
  for (uint32_t q = 0; q < pb->proc_count; ++q) total += pb->proc_last[q] - pb->proc_first[q] + 1u;
  for (uint32_t q = 0; q < pb->proc_count; ++q) {
    uint64_t nodes = pb->proc_last[q] - pb->proc_first[q] + 1u;
    uint64_t d = (seen + nodes / 2u) * size / (total ? total : 1u);
    owner[q] = (uint8_t)(d < size ? d : size - 1u);
    seen += nodes;
  }
}

static uint32_t key_owner(const multi *mt, const ifds_engine *e, uint64_t key) {
  uint32_t node = (uint32_t)((key >> e->fact_bits) & ((1ull << e->node_bits) - 1u));
  return mt->proc_owner[mt->pb->node_proc[mt->to_old[node]]];
}

/* ---- buffers ---------------------------------------------------------------- */

static weir_status box(ifds_engine *e, uint64_t entries, const char *what, weir_chunk **chunk,
                       int binding) {
  uint64_t bytes = 8u * (entries ? entries : 1u);
  if (e->binding_limit && bytes > e->binding_limit)
    return weir_fail(WEIR_ERR_UNSUPPORTED,
                     "IFDS engine across devices: the %s of device %u needs %llu bytes, but "
                     "backend '%s' binds at most %llu bytes per buffer. Fix: use fewer devices "
                     "or devices with a larger per-binding limit (cpu and cuda have none).",
                     what, e->device, (unsigned long long)bytes, weir_backend_id(e->backend),
                     (unsigned long long)e->binding_limit);
  weir_chunk *fresh = NULL;
  weir_status st = weir_chunk_allocate(e->backend, bytes, &fresh);
  if (st != WEIR_OK)
    return weir_fail_context(st, "IFDS engine across devices: allocating the %s of device %u "
                             "(%llu bytes)", what, e->device, (unsigned long long)bytes);
  if (*chunk) weir_chunk_release(*chunk);
  *chunk = fresh;
  e->buf[binding] = weir_chunk_buffer(fresh);
  return WEIR_OK;
}

/* Larger outboxes; what the round sent before the iteration that ran out
 * (up to the marks) moves along, each destination's part to its new place. */
static weir_status grow_outboxes(member *m) {
  ifds_engine *e = &m->e;
  uint64_t need = 0;
  for (uint32_t j = 0; j < e->devices; ++j)
    if (e->ctrl[WEIR_IFDS_C_OUT + j] > need) need = e->ctrl[WEIR_IFDS_C_OUT + j];
  uint64_t cap = 2u * (uint64_t)e->out_cap, want = need + need / 4u + 16u;
  if (want > cap) cap = want;
  if (cap > UINT32_MAX / e->devices) cap = UINT32_MAX / e->devices;
  uint32_t old_cap = e->out_cap;
  weir_chunk *old = m->out;
  weir_chunk_retain(old);
  e->out_cap = (uint32_t)cap;
  e->growths++;
  weir_status st = box(e, (uint64_t)e->devices * e->out_cap, "outboxes", &m->out, WEIR_IFDS_B_OUT);
  for (uint32_t j = 0; st == WEIR_OK && j < e->devices; ++j) {
    uint64_t kept = e->ctrl[WEIR_IFDS_C_OUT_MARK + j];
    if (kept)
      st = weir_copy(e->backend, weir_chunk_buffer(m->out), 8u * (uint64_t)j * e->out_cap,
                     weir_chunk_buffer(old), 8u * (uint64_t)j * old_cap, 8u * kept);
  }
  weir_chunk_release(old);
  return st;
}

static weir_status setup_member(multi *mt, uint32_t i, weir_backend *backend, uint64_t graph_words) {
  member *m = &mt->m[i];
  ifds_engine *e = &m->e;
  WEIR_TRY(weir_ifds_engine_init(e, backend, mt->pb, mt->o));
  e->device = mt->first + i;
  e->devices = mt->size;
  e->graph_words = graph_words;
  weir_ifds_engine_share_caps(e, mt->size);
  WEIR_TRY(weir_ifds_engine_plan_shards(e));
  weir_chunk *graph = NULL;
  WEIR_TRY(weir_replica_set_chunk(mt->graph, i, &graph));
  e->buf[WEIR_IFDS_B_GRAPH] = weir_chunk_buffer(graph);
  e->graph_borrowed = 1;
  uint32_t ctrl[WEIR_IFDS_CTRL_WORDS] = {0};
  WEIR_TRY(weir_ifds_engine_allocate(e, sizeof ctrl, "control block", &e->buf[WEIR_IFDS_B_CTRL]));
  e->shard_bytes[WEIR_IFDS_B_CTRL] = sizeof ctrl;
  WEIR_TRY(weir_upload(backend, e->buf[WEIR_IFDS_B_CTRL], ctrl, sizeof ctrl));
  WEIR_TRY(weir_ifds_engine_alloc_derived(e));
  e->out_cap = FIRST_OUTBOX;
  e->in_cap = FIRST_INBOX;
  if (mt->o && mt->o->initial_frontier_capacity) /* tests: growth from tiny boxes */
    e->out_cap = (uint32_t)(e->in_cap = mt->o->initial_frontier_capacity < FIRST_OUTBOX
                                            ? mt->o->initial_frontier_capacity
                                            : FIRST_OUTBOX);
  WEIR_TRY(box(e, (uint64_t)e->devices * e->out_cap, "outboxes", &m->out, WEIR_IFDS_B_OUT));
  WEIR_TRY(box(e, e->in_cap, "inbox", &m->in, WEIR_IFDS_B_IN));
  /* The first round starts from a zeroed control block: seeds, advance. */
  e->full_rebuild = 1;
  e->parts = 1;
  e->grid_cap = e->max_grid;
  m->rebuild = 1;
  return WEIR_OK;
}

/* The supergraph with the owners, packed once and broadcast to every local
 * member with a replica set (one upload, then device-to-device or staged
 * copies through the group's transport). */
static weir_status broadcast_graph(multi *mt, weir_backend *const *backends, uint64_t *words) {
  uint32_t *g = NULL;
  WEIR_TRY(weir_ifds_engine_pack_graph(mt->pb, mt->proc_owner, &g, words, &mt->to_old));
  weir_status st = weir_replica_set_create(backends, mt->local, 4u * *words, &mt->graph);
  weir_chunk *first = NULL;
  if (st == WEIR_OK) st = weir_replica_set_chunk(mt->graph, 0, &first);
  if (st == WEIR_OK) st = weir_upload(backends[0], weir_chunk_buffer(first), g, 4u * *words);
  if (st == WEIR_OK && mt->local > 1)
    st = weir_replica_set_broadcast(mt->graph, weir_group_transport(mt->group), first);
  free(g);
  return st == WEIR_OK ? WEIR_OK
                       : weir_fail_context(st, "IFDS engine across devices: the supergraph "
                                               "(%llu bytes) to %u devices",
                                           (unsigned long long)(4u * *words), mt->local);
}

/* ---- one round on one member --------------------------------------------- */

static weir_status run_member(multi *mt, member *m, int head) {
  ifds_engine *e = &m->e;
  window_plan *w = &m->w;
  for (;;) {
    w->prefix_count = 0;
    /* plan_rebuild reads e->ctrl, which the read-back overwrites: plan first. */
    if (m->rebuild) weir_ifds_plan_rebuild(e, w);
    else if (m->rehash) weir_ifds_plan_rehash(e, w, m->rehash_to);
    if (head) weir_ifds_plan_round_head(e, w, m->in_count);
    weir_ifds_plan_iteration(e, w);
    weir_range read = {e->buf[WEIR_IFDS_B_CTRL], 0, sizeof e->ctrl};
    void *into = e->ctrl;
    e->windows++;
    weir_status st = weir_dispatch_repeated_sequence_read_ranges_into(
        e->backend, w->prefix, w->prefix_count, w->repeated, w->repeated_count, m->k, &read, 1,
        &into, 1);
    if (st != WEIR_OK)
      return weir_fail_context(st, "IFDS engine across devices: device %u (%s), round %llu",
                               e->device, weir_backend_id(e->backend),
                               (unsigned long long)mt->rounds);
    m->rebuild = m->rehash = 0;
    uint32_t state = e->ctrl[WEIR_IFDS_C_STATE];
    if (head && (state & WEIR_IFDS_S_OVERFLOW) && !e->ctrl[WEIR_IFDS_C_MERGED])
      /* The log had room for the whole inbox and the table stays under 3/4
       * load, so only a probe run past the limit gets here. */
      return weir_fail(WEIR_ERR_INTERNAL,
                       "IFDS engine across devices: device %u (%s) ran out of room while "
                       "taking in %u path edges from other devices (overflow bits 0x%x, table "
                       "%llu slots, log %llu of %llu). Fix: report this bug; --solver reference "
                       "or a single --backend solves the problem meanwhile.",
                       e->device, weir_backend_id(e->backend), m->in_count,
                       e->ctrl[WEIR_IFDS_C_OVERFLOW], (unsigned long long)e->caps.ptab,
                       (unsigned long long)e->ctrl[WEIR_IFDS_C_PLOG],
                       (unsigned long long)e->caps.plog);
    if (head) m->in_count = 0; /* merged: the log holds them (below B) */
    if (!(state & WEIR_IFDS_S_OVERFLOW)) return WEIR_OK;
    /* Roll this round's iteration back and redo it (window.c). */
    uint32_t over = e->ctrl[WEIR_IFDS_C_OVERFLOW];
    if (over & WEIR_IFDS_O_LOOP) WEIR_TRY(weir_ifds_engine_split_loops(e));
    if (over & WEIR_IFDS_O_OUT) WEIR_TRY(grow_outboxes(m));
    WEIR_TRY(weir_ifds_engine_grow(e));
    m->rebuild = 1;
    head = 0;
  }
}

/* ---- the exchange ------------------------------------------------------------ */

/* Every member's row on every process: copied for a local group, an
 * allgather through the group's transport across processes. */
static weir_status gather_rows(multi *mt) {
  if (mt->local == mt->size) return WEIR_OK; /* the rows were written in place */
  uint64_t row_bytes = 8u * mt->width;
  weir_place send[WEIR_GROUP_MAX_LOCAL], recv[WEIR_GROUP_MAX_LOCAL];
  weir_status st = WEIR_OK;
  for (uint32_t i = 0; i < mt->local && st == WEIR_OK; ++i) {
    weir_backend *b = mt->m[i].e.backend;
    if (!mt->meta_send[i]) st = weir_chunk_allocate(b, row_bytes, &mt->meta_send[i]);
    if (st == WEIR_OK && !mt->meta_recv[i])
      st = weir_chunk_allocate(b, row_bytes * mt->size, &mt->meta_recv[i]);
    if (st == WEIR_OK)
      st = weir_upload(b, weir_chunk_buffer(mt->meta_send[i]),
                       mt->rows + (uint64_t)(mt->first + i) * mt->width, row_bytes);
    send[i] = (weir_place){mt->meta_send[i], 0};
    recv[i] = (weir_place){mt->meta_recv[i], 0};
  }
  /* Every process takes part in the allgather, or none does. */
  WEIR_TRY(weir_group_agree(mt->group, st));
  WEIR_TRY(weir_allgather(mt->group, send, recv, row_bytes));
  return weir_download_into(mt->m[0].e.backend, weir_chunk_buffer(mt->meta_recv[0]), mt->rows,
                            row_bytes * mt->size);
}

static uint64_t *row(const multi *mt, uint32_t rank) { return mt->rows + (uint64_t)rank * mt->width; }

/* The outboxes into the inboxes with one alltoallv; inboxes grow first, and
 * each member's log makes room for what it takes in. */
static weir_status prepare_inboxes(multi *mt, weir_place *send, weir_place *recv) {
  for (uint32_t i = 0; i < mt->local; ++i) {
    member *m = &mt->m[i];
    uint32_t me = mt->first + i;
    uint64_t total = 0;
    for (uint32_t j = 0; j < mt->size; ++j) {
      uint64_t sent = row(mt, me)[j], got = row(mt, j)[me];
      mt->send_counts[i * mt->size + j] = 8u * sent;
      mt->send_displs[i * mt->size + j] = 8u * (uint64_t)j * m->e.out_cap;
      mt->recv_counts[i * mt->size + j] = 8u * got;
      mt->recv_displs[i * mt->size + j] = 8u * total;
      total += got;
    }
    if (total > UINT32_MAX - 1u)
      return weir_fail(WEIR_ERR_UNSUPPORTED,
                       "IFDS engine across devices: device %u receives %llu path edges in one "
                       "round (at most %u). Fix: use more devices.",
                       me, (unsigned long long)total, UINT32_MAX - 1u);
    if (total > m->e.in_cap) {
      m->e.in_cap = total + total / 4u + 16u;
      WEIR_TRY(box(&m->e, m->e.in_cap, "inbox", &m->in, WEIR_IFDS_B_IN));
    }
    m->in_count = (uint32_t)total;
    send[i] = (weir_place){m->out, 0};
    recv[i] = (weir_place){m->in, 0};
  }
  return WEIR_OK;
}

static weir_status exchange(multi *mt) {
  weir_place send[WEIR_GROUP_MAX_LOCAL], recv[WEIR_GROUP_MAX_LOCAL];
  /* Every process takes part in the alltoallv, or none does. */
  WEIR_TRY(weir_group_agree(mt->group, prepare_inboxes(mt, send, recv)));
  for (uint32_t r = 0; r < mt->size; ++r)
    for (uint32_t j = 0; j < mt->size; ++j) mt->exchanged_keys += row(mt, r)[j];
  WEIR_TRY(weir_alltoallv(mt->group, send, mt->send_counts, mt->send_displs, recv,
                          mt->recv_counts, mt->recv_displs));
  weir_status st = WEIR_OK;
  for (uint32_t i = 0; i < mt->local && st == WEIR_OK; ++i) {
    member *m = &mt->m[i];
    m->rehash_to = m->e.ctrl[WEIR_IFDS_C_PLOG];
    st = weir_ifds_engine_reserve(&m->e, m->in_count, &m->rehash);
  }
  return st;
}

/* ---- the rounds --------------------------------------------------------------- */

static weir_status check_progress(multi *mt, uint64_t *last_edges, uint64_t *last_iter,
                                  uint32_t *stalled) {
  uint64_t edges = 0, iter = 0;
  for (uint32_t r = 0; r < mt->size; ++r) {
    edges += row(mt, r)[mt->size + ROW_LOG];
    iter += row(mt, r)[mt->size + ROW_ITER];
  }
  *stalled = edges == *last_edges && iter == *last_iter ? *stalled + 1u : 0u;
  *last_edges = edges;
  *last_iter = iter;
  if (mt->o && mt->o->progress) mt->o->progress(mt->o->progress_user, mt->rounds, edges);
  if (*stalled < NO_PROGRESS_ROUNDS) return WEIR_OK;
  return weir_fail(WEIR_ERR_DEVICE,
                   "IFDS engine across devices: %u rounds in a row ended without a new path "
                   "edge or iteration on any of the %u devices, and without convergence "
                   "(round %llu, %llu path edges). Fix: a backend does not run the IFDS "
                   "programs; check each with `weir conformance --backend SPEC`, or use "
                   "--solver reference.",
                   *stalled, mt->size, (unsigned long long)mt->rounds,
                   (unsigned long long)edges);
}

static void *member_thread(void *arg) {
  member *m = arg;
  m->st = run_member(m->mt, m, m->head);
  if (m->st != WEIR_OK) snprintf(m->message, sizeof m->message, "%s", weir_last_error());
  return NULL;
}

/* Every local member's round, each on its own thread when there are several
 * (a backend is used by one thread at a time; different backends may run
 * at once), so that the devices of one process work side by side. */
static weir_status run_local_rounds(multi *mt, int head) {
  pthread_t threads[WEIR_GROUP_MAX_LOCAL];
  int started[WEIR_GROUP_MAX_LOCAL] = {0};
  for (uint32_t i = 0; i < mt->local; ++i) {
    member *m = &mt->m[i];
    m->mt = mt;
    m->head = head;
    m->st = WEIR_OK;
    if (mt->local > 1 && pthread_create(&threads[i], NULL, member_thread, m) == 0) started[i] = 1;
    else member_thread(m);
  }
  weir_status st = WEIR_OK;
  const char *message = NULL;
  for (uint32_t i = 0; i < mt->local; ++i) {
    if (started[i]) pthread_join(threads[i], NULL);
    if (mt->m[i].st != WEIR_OK && st == WEIR_OK) {
      st = mt->m[i].st;
      message = mt->m[i].message;
    }
  }
  return st == WEIR_OK ? WEIR_OK : weir_fail(st, "%s", message);
}

static weir_status run_rounds(multi *mt) {
  uint64_t last_edges = UINT64_MAX, last_iter = UINT64_MAX;
  uint32_t stalled = 0;
  const weir_ifds_engine_options *o = mt->o;
  uint64_t k = o && o->initial_window ? o->initial_window : 4u;
  uint64_t max_k = o && o->max_window ? o->max_window : 4096u;
  if (k > max_k) k = max_k;
  uint64_t before[WEIR_IFDS_MAX_DEVICES] = {0}; /* each member's iterations so far */
  for (int head = 0;; head = 1) {
    for (uint32_t i = 0; i < mt->local; ++i) mt->m[i].k = k;
    double started = now_seconds();
    WEIR_TRY(weir_group_agree(mt->group, run_local_rounds(mt, head)));
    double t0 = now_seconds();
    for (uint32_t i = 0; i < mt->local; ++i) {
      const ifds_engine *e = &mt->m[i].e;
      uint64_t *r = row(mt, mt->first + i);
      for (uint32_t j = 0; j < mt->size; ++j) r[j] = e->ctrl[WEIR_IFDS_C_OUT + j];
      r[mt->size + ROW_CONVERGED] = (e->ctrl[WEIR_IFDS_C_STATE] & WEIR_IFDS_S_CONVERGED) != 0u;
      r[mt->size + ROW_LOG] = e->ctrl[WEIR_IFDS_C_PLOG];
      r[mt->size + ROW_ITER] = e->ctrl[WEIR_IFDS_C_ITER];
    }
    WEIR_TRY(gather_rows(mt));
    int done = 1, converged = 1;
    uint64_t used = 0;
    for (uint32_t r = 0; r < mt->size; ++r) {
      converged &= row(mt, r)[mt->size + ROW_CONVERGED] != 0u;
      for (uint32_t j = 0; j < mt->size; ++j) done &= row(mt, r)[j] == 0u;
      uint64_t iter = row(mt, r)[mt->size + ROW_ITER];
      if (iter - before[r] > used) used = iter - before[r];
      before[r] = iter;
      if (iter > mt->iterations) mt->iterations = iter;
    }
    done &= converged;
    /* The next round's K: doubled while every window ran full and rounds
     * are short (window.c); when every member ran out of work early, twice
     * what the busiest one needed (the rest of a window would be no-op
     * dispatches). K changes the work per round, never the result. */
    k = weir_ifds_engine_next_window(k, max_k, t0 - started);
    if (converged && 2u * used < k) k = 2u * used < 4u ? 4u : 2u * used;
    if (done) {
      mt->seconds_exchange += now_seconds() - t0;
      return WEIR_OK;
    }
    mt->rounds++;
    WEIR_TRY(check_progress(mt, &last_edges, &last_iter, &stalled));
    weir_status st = exchange(mt);
    mt->seconds_exchange += now_seconds() - t0;
    WEIR_TRY(weir_group_agree(mt->group, st));
  }
}

/* Across processes every rank loaded its own copy of the problem: the
 * ownership and the result assume they are the same, so the ranks compare a
 * few counts (a rank given another file stops every rank, naming both). */
static weir_status check_same_problem(multi *mt) {
  if (mt->local == mt->size) return WEIR_OK;
  const weir_ifds_problem *pb = mt->pb;
  uint64_t mine[5] = {pb->node_count, pb->fact_count, pb->proc_count, pb->call_count,
                      pb->succ_offset[pb->node_count] + ((uint64_t)pb->seed_count << 40)};
  for (uint64_t c = 0; c < mt->width; ++c) row(mt, mt->first)[c] = c < 5 ? mine[c] : 0u;
  WEIR_TRY(gather_rows(mt));
  for (uint32_t r = 1; r < mt->size; ++r)
    if (memcmp(row(mt, r), row(mt, 0), sizeof mine) != 0)
      return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                       "IFDS engine across ranks: rank %u loaded another problem than rank 0 "
                       "(nodes %llu vs %llu, facts %llu vs %llu, procedures %llu vs %llu, "
                       "calls %llu vs %llu). Fix: give every rank the same problem file.",
                       r, (unsigned long long)row(mt, r)[0], (unsigned long long)row(mt, 0)[0],
                       (unsigned long long)row(mt, r)[1], (unsigned long long)row(mt, 0)[1],
                       (unsigned long long)row(mt, r)[2], (unsigned long long)row(mt, 0)[2],
                       (unsigned long long)row(mt, r)[3], (unsigned long long)row(mt, 0)[3]);
  return WEIR_OK;
}

/* ---- the result ------------------------------------------------------------- */

/* Appends member i's owned keys to *keys (grown with realloc). */
static weir_status owned_keys(multi *mt, uint32_t i, uint64_t **keys, uint64_t *count) {
  ifds_engine *e = &mt->m[i].e;
  const uint64_t *log;
  uint64_t *copy;
  WEIR_TRY(weir_ifds_engine_log_keys(e, &log, &copy));
  uint64_t n = e->ctrl[WEIR_IFDS_C_PLOG];
  uint64_t *grown = realloc(*keys, (*count + n + 1u) * sizeof **keys);
  if (!grown) {
    free(copy);
    return weir_fail(WEIR_ERR_OUT_OF_MEMORY,
                     "IFDS engine across devices: no host memory for %llu path edges. Fix: "
                     "free memory.", (unsigned long long)(*count + n));
  }
  *keys = grown;
  for (uint64_t k = 0; k < n; ++k)
    if (key_owner(mt, e, log[k]) == e->device) grown[(*count)++] = log[k];
  free(copy);
  return WEIR_OK;
}

/* Across processes: every member's owned keys to member 0 with one
 * alltoallv (everyone sends to rank 0 only). */
static weir_status keys_to_rank0(multi *mt, uint64_t **keys, uint64_t *count) {
  uint32_t me = mt->first; /* one member per process across processes */
  for (uint64_t c = 0; c < mt->width; ++c) row(mt, me)[c] = 0;
  row(mt, me)[0] = *count;
  WEIR_TRY(gather_rows(mt));
  uint64_t total = 0;
  for (uint32_t r = 0; r < mt->size; ++r) total += row(mt, r)[0];
  weir_backend *b = mt->m[0].e.backend;
  weir_chunk *send = NULL, *recv = NULL;
  weir_status st = weir_chunk_allocate(b, 8u * (*count ? *count : 1u), &send);
  if (st == WEIR_OK)
    st = weir_chunk_allocate(b, me == 0 ? 8u * (total ? total : 1u) : 8u, &recv);
  if (st == WEIR_OK && *count)
    st = weir_upload(b, weir_chunk_buffer(send), *keys, 8u * *count);
  st = weir_group_agree(mt->group, st);
  for (uint32_t j = 0; j < mt->size; ++j) {
    mt->send_counts[j] = j == 0 ? 8u * *count : 0u;
    mt->send_displs[j] = 0;
  }
  uint64_t at = 0;
  for (uint32_t j = 0; j < mt->size; ++j) {
    mt->recv_counts[j] = me == 0 ? 8u * row(mt, j)[0] : 0u;
    mt->recv_displs[j] = 8u * at;
    at += me == 0 ? row(mt, j)[0] : 0u;
  }
  weir_place sp = {send, 0}, rp = {recv, 0};
  if (st == WEIR_OK)
    st = weir_alltoallv(mt->group, &sp, mt->send_counts, mt->send_displs, &rp, mt->recv_counts,
                        mt->recv_displs);
  if (st == WEIR_OK && me == 0) {
    uint64_t *all = realloc(*keys, (total ? total : 1u) * sizeof *all);
    if (!all)
      st = weir_fail(WEIR_ERR_OUT_OF_MEMORY, "IFDS engine across ranks: no host memory for "
                     "the %llu path edges of the result. Fix: free memory.",
                     (unsigned long long)total);
    else {
      *keys = all;
      *count = total;
      if (total) st = weir_download_into(b, weir_chunk_buffer(recv), all, 8u * total);
    }
  }
  weir_chunk_release(send);
  weir_chunk_release(recv);
  return st;
}

static weir_status collect(multi *mt, weir_ifds_result *out, uint64_t *path_edges) {
  uint64_t *keys = NULL, count = 0;
  weir_status st = WEIR_OK;
  for (uint32_t i = 0; i < mt->local && st == WEIR_OK; ++i) st = owned_keys(mt, i, &keys, &count);
  st = weir_group_agree(mt->group, st);
  if (st == WEIR_OK && mt->local < mt->size) st = keys_to_rank0(mt, &keys, &count);
  st = weir_group_agree(mt->group, st);
  if (st == WEIR_OK && mt->first == 0) {
    /* Path edges are owned once: the result's count is the keys' count. */
    ifds_engine e0 = mt->m[0].e;
    e0.to_old = mt->to_old;
    st = weir_ifds_engine_holds(&e0, keys, count, out);
    *path_edges = count;
  }
  free(keys);
  if (mt->local < mt->size) {
    /* Every process reports the group's path edges. */
    for (uint64_t c = 0; c < mt->width; ++c) row(mt, mt->first)[c] = 0;
    row(mt, mt->first)[0] = mt->first == 0 ? *path_edges : 0u;
    weir_status g = weir_group_agree(mt->group, st);
    if (g == WEIR_OK) g = gather_rows(mt);
    if (g == WEIR_OK) *path_edges = row(mt, 0)[0];
    st = g;
  }
  return st;
}

/* ---- entry points --------------------------------------------------------------- */

static void release(multi *mt) {
  if (mt->m)
    for (uint32_t i = 0; i < mt->local; ++i) {
      member *m = &mt->m[i];
      weir_ifds_engine_free_all(&m->e);
      weir_chunk_release(m->out);
      weir_chunk_release(m->in);
      if (mt->meta_send) weir_chunk_release(mt->meta_send[i]);
      if (mt->meta_recv) weir_chunk_release(mt->meta_recv[i]);
    }
  weir_replica_set_destroy(mt->graph);
  free(mt->m);
  free(mt->proc_owner);
  free(mt->to_old);
  free(mt->rows);
  free(mt->send_counts);
  free(mt->send_displs);
  free(mt->recv_counts);
  free(mt->recv_displs);
  free(mt->meta_send);
  free(mt->meta_recv);
}

static weir_status check_group(weir_group *group, weir_backend *const *backends,
                               const weir_ifds_problem *pb, weir_ifds_result *out) {
  if (!group || !backends || !pb || !out)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "weir_ifds_solve_engine_group: group, backends, problem or result is "
                     "NULL. Fix: pass all four.");
  uint32_t size = weir_group_size(group), local = weir_group_local_count(group);
  if (size == 0 || size > WEIR_IFDS_MAX_DEVICES || local == 0)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "weir_ifds_solve_engine_group: a group of %u members (%u here); the "
                     "engine runs on 1 to %u. Fix: use at most %u devices or ranks.",
                     size, local, WEIR_IFDS_MAX_DEVICES, WEIR_IFDS_MAX_DEVICES);
  for (uint32_t i = 0; i < local; ++i)
    if (!backends[i])
      return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                       "weir_ifds_solve_engine_group: local member %u has no backend. Fix: "
                       "pass one open backend per local member.", i);
  return weir_ifds_engine_check_problem(pb);
}

static weir_status alloc_tables(multi *mt) {
  uint64_t cells = (uint64_t)mt->local * mt->size;
  mt->width = mt->size + ROW_EXTRA;
  mt->m = calloc(mt->local, sizeof *mt->m);
  mt->proc_owner = malloc(mt->pb->proc_count);
  mt->rows = calloc(mt->size * mt->width, sizeof *mt->rows);
  mt->send_counts = calloc(cells, sizeof(uint64_t));
  mt->send_displs = calloc(cells, sizeof(uint64_t));
  mt->recv_counts = calloc(cells, sizeof(uint64_t));
  mt->recv_displs = calloc(cells, sizeof(uint64_t));
  mt->meta_send = calloc(mt->local, sizeof *mt->meta_send);
  mt->meta_recv = calloc(mt->local, sizeof *mt->meta_recv);
  if (mt->m && mt->proc_owner && mt->rows && mt->send_counts && mt->send_displs &&
      mt->recv_counts && mt->recv_displs && mt->meta_send && mt->meta_recv)
    return WEIR_OK;
  return weir_fail(WEIR_ERR_OUT_OF_MEMORY,
                   "IFDS engine across devices: no host memory for the state of %u devices. "
                   "Fix: free memory.", mt->local);
}

static void fill_stats(const multi *mt, uint64_t path_edges, weir_ifds_stats *s) {
  memset(s, 0, sizeof *s);
  s->path_edges = path_edges;
  s->devices = mt->size;
  s->rounds = mt->rounds;
  s->iterations = mt->iterations; /* the busiest member's */
  s->exchanged_keys = mt->exchanged_keys;
  s->exchanged_bytes = 8u * mt->exchanged_keys;
  s->seconds_exchange = mt->seconds_exchange;
  for (uint32_t i = 0; i < mt->local; ++i) {
    const ifds_engine *e = &mt->m[i].e;
    weir_backend_stats after;
    weir_backend_get_stats(e->backend, &after);
    uint64_t graph, log, table, lists;
    weir_ifds_engine_bytes(e, &graph, &log, &table, &lists);
    s->end_summaries += e->ctrl[WEIR_IFDS_C_ES];
    s->incoming += e->ctrl[WEIR_IFDS_C_INC];
    s->windows += e->windows;
    s->growths += e->growths;
    s->host_syncs += after.host_syncs - mt->m[i].before.host_syncs;
    s->bytes_uploaded += after.bytes_uploaded - mt->m[i].before.bytes_uploaded;
    s->bytes_downloaded += after.bytes_downloaded - mt->m[i].before.bytes_downloaded;
    s->peak_resident_bytes += e->peak_bytes;
    s->graph_bytes += graph;
    s->log_bytes += log;
    s->table_bytes += table;
    s->list_bytes += lists;
    if (e->shard_shift < 32u) s->shard_entries = 1ull << e->shard_shift;
  }
}

weir_status weir_ifds_solve_engine_group(weir_group *group, weir_backend *const *backends,
                                         const weir_ifds_problem *pb,
                                         const weir_ifds_engine_options *o,
                                         weir_ifds_result *out, weir_ifds_stats *stats) {
  WEIR_TRY(check_group(group, backends, pb, out));
  memset(out, 0, sizeof *out);
  multi mt;
  memset(&mt, 0, sizeof mt);
  mt.group = group;
  mt.pb = pb;
  mt.o = o;
  mt.size = weir_group_size(group);
  mt.first = weir_group_first_local(group);
  mt.local = weir_group_local_count(group);
  weir_status st = alloc_tables(&mt);
  uint64_t words = 0, path_edges = 0;
  double t0 = now_seconds();
  if (st == WEIR_OK) {
    for (uint32_t i = 0; i < mt.local; ++i) weir_backend_get_stats(backends[i], &mt.m[i].before);
    partition(pb, mt.size, mt.proc_owner);
    st = broadcast_graph(&mt, backends, &words);
  }
  for (uint32_t i = 0; st == WEIR_OK && i < mt.local; ++i) st = setup_member(&mt, i, backends[i], words);
  st = weir_group_agree(group, st);
  if (st == WEIR_OK) st = check_same_problem(&mt);
  double t1 = now_seconds();
  if (st == WEIR_OK && o && o->phase) o->phase(o->progress_user, "upload", t1 - t0);
  if (st == WEIR_OK) st = run_rounds(&mt);
  double t2 = now_seconds();
  if (st == WEIR_OK) st = collect(&mt, out, &path_edges);
  double t3 = now_seconds();
  if (st == WEIR_OK && o && o->phase) o->phase(o->progress_user, "read-back", t3 - t2);
  if (st == WEIR_OK && stats) {
    fill_stats(&mt, path_edges, stats);
    stats->seconds_upload = t1 - t0;
    stats->seconds_solve = t2 - t1;
    stats->seconds_readback = t3 - t2;
  }
  release(&mt);
  if (st != WEIR_OK) {
    weir_ifds_result_free(out);
    memset(out, 0, sizeof *out);
  } else
    out->path_edges = path_edges;
  return st;
}

weir_status weir_ifds_solve_engine_multi(weir_backend *const *backends, size_t count,
                                         const weir_ifds_problem *pb,
                                         const weir_ifds_engine_options *o,
                                         weir_ifds_result *out, weir_ifds_stats *stats) {
  if (!backends || count == 0 || count > WEIR_IFDS_MAX_DEVICES)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "weir_ifds_solve_engine_multi: %zu devices%s; the engine runs on 1 to %u. "
                     "Fix: pass 1 to %u open backends.",
                     count, backends ? "" : " (backends is NULL)", WEIR_IFDS_MAX_DEVICES,
                     WEIR_IFDS_MAX_DEVICES);
  weir_transport *transport = NULL;
  weir_group *group = NULL;
  WEIR_TRY(weir_stream_transport_create(NULL, &transport));
  weir_status st = weir_group_create_local(transport, backends, (uint32_t)count, &group);
  if (st == WEIR_OK) st = weir_ifds_solve_engine_group(group, backends, pb, o, out, stats);
  weir_group_destroy(group);
  weir_transport_destroy(transport);
  return st;
}
