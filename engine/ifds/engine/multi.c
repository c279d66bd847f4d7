/* weir_ifds_solve_engine_multi / weir_ifds_solve_engine_group: the resident
 * fixed point across the members of a group (devices of this process, or
 * MPI ranks). See docs/distributed.md.
 *
 * Ownership (partition.c). Procedures are split into contiguous blocks of
 * about equal estimated work, one per member, and hot ones are spread; a
 * path edge belongs to the member that owns its node's procedure (for a
 * spread one, the member its facts hash to), so normal flow, call-to-return
 * flow and return flow mostly stay on one member, and only two kinds of path
 * edges cross (and, in spread procedures, flow that changes a fact): start edges (a call
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
 * the owned keys of all members (on member 0's process).
 *
 * This file sets up and runs a solve; multi_round.c holds the rounds and the
 * exchange, multi_result.c the result. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/core/struct_size.h"
#include "engine/ifds/engine/multi.h"
#include "weir/nccl.h"

/* Entries of each outbox and of the inbox to start with; both grow. */
#define FIRST_OUTBOX 4096u
#define FIRST_INBOX 4096u

double weir_ifds_multi_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

uint64_t weir_ifds_multi_max_outbox(const ifds_engine *e) {
  uint64_t max = UINT32_MAX / e->devices, entry = 4u * e->key_words;
  if (e->binding_limit && e->binding_limit / entry / e->devices < max)
    max = e->binding_limit / entry / e->devices;
  return max;
}

weir_status weir_ifds_multi_box(ifds_engine *e, uint64_t entries, const char *what, weir_chunk **chunk,
                       int binding) {
  uint64_t bytes = 4u * e->key_words * (entries ? entries : 1u);
  if (e->binding_limit && bytes > e->binding_limit)
    return weir_fail(WEIR_ERR_UNSUPPORTED,
                     "IFDS engine across devices: the %s of device %u needs %llu bytes, but "
                     "backend '%s' binds at most %llu bytes per buffer (its limit, or one "
                     "forced with WEIR_MAX_BINDING_BYTES / max_binding_bytes). Fix: use fewer "
                     "devices, a backend with a larger per-binding limit, or raise the forced "
                     "limit.",
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

static weir_status setup_member(multi *mt, uint32_t i, weir_backend *backend, uint64_t graph_words) {
  member *m = &mt->m[i];
  ifds_engine *e = &m->e;
  WEIR_TRY(weir_ifds_engine_init(e, backend, mt->pb, mt->o));
  e->key_words = weir_ifds_engine_key_words(e, mt->o); /* the same on every member */
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
  uint64_t out = FIRST_OUTBOX, in = FIRST_INBOX;
  if (mt->o && mt->o->initial_frontier_capacity) /* tests: growth from tiny boxes */
    out = in = mt->o->initial_frontier_capacity < FIRST_OUTBOX ? mt->o->initial_frontier_capacity
                                                               : FIRST_OUTBOX;
  /* Within one binding (the outboxes grow up to it; the inbox as needed). */
  uint64_t max_out = weir_ifds_multi_max_outbox(e);
  e->out_cap = (uint32_t)(out < max_out ? out : max_out);
  uint64_t entry = 4u * e->key_words;
  e->in_cap = e->binding_limit && in > e->binding_limit / entry ? e->binding_limit / entry : in;
  if (e->out_cap == 0)
    return weir_fail(WEIR_ERR_UNSUPPORTED,
                     "IFDS engine across devices: backend '%s' binds at most %llu bytes per "
                     "buffer, less than one key per destination for %u devices. Fix: "
                     "use fewer devices or raise the forced per-binding limit "
                     "(WEIR_MAX_BINDING_BYTES / max_binding_bytes).",
                     weir_backend_id(backend), (unsigned long long)e->binding_limit,
                     e->devices);
  WEIR_TRY(weir_ifds_multi_box(e, (uint64_t)e->devices * e->out_cap, "outboxes", &m->out, WEIR_IFDS_B_OUT));
  WEIR_TRY(weir_ifds_multi_box(e, e->in_cap, "inbox", &m->in, WEIR_IFDS_B_IN));
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
  WEIR_TRY(weir_ifds_engine_pack_graph(mt->pb, mt->proc_owner, mt->size, &g, words, &mt->to_old));
  /* FNV-1a over every word: flows, edges, calls and seeds, as packed. */
  uint64_t h = 0xcbf29ce484222325ull;
  for (uint64_t i = 0; i < *words; ++i) h = (h ^ g[i]) * 0x100000001b3ull;
  mt->graph_hash = h;
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

/* Across processes every rank loaded its own copy of the problem: the
 * ownership and the result assume they are the same, so the ranks compare
 * counts, a hash of the whole packed supergraph (owner bytes included) and
 * the key width (a rank given another or an edited file, or another
 * WEIR_IFDS_OWNERSHIP or WEIR_IFDS_WIDE_KEYS, stops every rank, naming it). */
static weir_status check_same_problem(multi *mt) {
  if (mt->local == mt->size) return WEIR_OK;
  const weir_ifds_problem *pb = mt->pb;
  uint64_t mine[6] = {pb->node_count, pb->fact_count, pb->proc_count, pb->call_count,
                      mt->graph_hash, mt->m[0].e.key_words};
  uint64_t *own = weir_ifds_multi_row(mt, mt->first);
  for (uint64_t c = 0; c < mt->width; ++c) own[c] = c < 6 ? mine[c] : 0u;
  WEIR_TRY(weir_ifds_multi_gather_rows(mt));
  const uint64_t *first = weir_ifds_multi_row(mt, 0);
  for (uint32_t r = 1; r < mt->size; ++r) {
    const uint64_t *other = weir_ifds_multi_row(mt, r);
    if (memcmp(other, first, sizeof mine) != 0)
      return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                       "IFDS engine across ranks: rank %u loaded another problem than rank 0, or "
                       "took keys of another width or another ownership (nodes %llu vs %llu, "
                       "facts %llu vs %llu, procedures %llu vs %llu, calls %llu vs %llu, "
                       "supergraph hash %016llx vs %016llx, key words %llu vs %llu; the hash "
                       "also differs when the same "
                       "problem is written with its lines in another order, or the owners "
                       "differ). Fix: give every rank a copy of the same problem file and the "
                       "same WEIR_IFDS_WIDE_KEYS and WEIR_IFDS_OWNERSHIP.",
                       r, (unsigned long long)other[0], (unsigned long long)first[0],
                       (unsigned long long)other[1], (unsigned long long)first[1],
                       (unsigned long long)other[2], (unsigned long long)first[2],
                       (unsigned long long)other[3], (unsigned long long)first[3],
                       (unsigned long long)other[4], (unsigned long long)first[4],
                       (unsigned long long)other[5], (unsigned long long)first[5]);
  }
  return WEIR_OK;
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
  /* Rows also carry the summed stats at the end (group_totals: 13). */
  mt->width = mt->size + ROW_EXTRA < 13u ? 13u : mt->size + ROW_EXTRA;
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
  s->exchanged_bytes = 4u * mt->m[0].e.key_words * mt->exchanged_keys; /* one width for all */
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
    s->reserve_atomics += e->reserves;
    s->host_syncs += after.host_syncs - mt->m[i].before.host_syncs;
    s->bytes_uploaded += after.bytes_uploaded - mt->m[i].before.bytes_uploaded;
    s->bytes_downloaded += after.bytes_downloaded - mt->m[i].before.bytes_downloaded;
    s->peak_resident_bytes += e->peak_bytes;
    s->graph_bytes += graph;
    s->log_bytes += log;
    s->table_bytes += table;
    s->list_bytes += lists;
    if (e->shard_shift < 32u) s->shard_entries = 1ull << e->shard_shift;
    if (mt->first + i < WEIR_IFDS_MEMBER_STATS) {
      s->member_path_edges[mt->first + i] = mt->m[i].owned;
      s->member_busy_seconds[mt->first + i] = mt->m[i].busy;
    }
  }
}

/* Across processes: every member's owned path edges and busy time (in
 * nanoseconds in the rows) on every process. */
static weir_status member_totals(multi *mt, weir_ifds_stats *s) {
  if (mt->local == mt->size) return WEIR_OK;
  for (uint32_t i = 0; i < mt->local; ++i) {
    uint64_t *own = weir_ifds_multi_row(mt, mt->first + i);
    for (uint64_t c = 0; c < mt->width; ++c) own[c] = 0;
    own[0] = mt->m[i].owned;
    own[1] = (uint64_t)(mt->m[i].busy * 1e9);
  }
  WEIR_TRY(weir_ifds_multi_gather_rows(mt));
  for (uint32_t r = 0; r < mt->size && r < WEIR_IFDS_MEMBER_STATS; ++r) {
    s->member_path_edges[r] = weir_ifds_multi_row(mt, r)[0];
    s->member_busy_seconds[r] = 1e-9 * (double)weir_ifds_multi_row(mt, r)[1];
  }
  return WEIR_OK;
}

/* Across processes: the figures each process summed over its own devices,
 * summed over the group (every process gets the group's totals). */
static weir_status group_totals(multi *mt, weir_ifds_stats *s) {
  if (mt->local == mt->size) return WEIR_OK;
  uint64_t *f[13] = {&s->end_summaries, &s->incoming,      &s->windows,
                     &s->growths,       &s->host_syncs,    &s->bytes_uploaded,
                     &s->bytes_downloaded, &s->peak_resident_bytes, &s->graph_bytes,
                     &s->log_bytes,     &s->table_bytes,   &s->list_bytes,
                     &s->reserve_atomics};
  uint64_t *own = weir_ifds_multi_row(mt, mt->first);
  for (uint64_t c = 0; c < mt->width; ++c) own[c] = c < 13 ? *f[c] : 0u;
  WEIR_TRY(weir_ifds_multi_gather_rows(mt));
  for (int c = 0; c < 13; ++c) {
    *f[c] = 0;
    for (uint32_t r = 0; r < mt->size; ++r) *f[c] += weir_ifds_multi_row(mt, r)[c];
  }
  return WEIR_OK;
}

weir_status weir_ifds_solve_engine_group(weir_group *group, weir_backend *const *backends,
                                         const weir_ifds_problem *pb,
                                         const weir_ifds_engine_options *given,
                                         weir_ifds_result *out, weir_ifds_stats *stats) {
  WEIR_TRY(check_group(group, backends, pb, out));
  weir_ifds_engine_options known;
  const weir_ifds_engine_options *o = NULL;
  size_t stats_bytes = 0;
  WEIR_TRY(weir_ifds_engine_args_in("weir_ifds_solve_engine_group", given, &known, &o, stats, &stats_bytes));
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
  double t0 = weir_ifds_multi_now();
  if (st == WEIR_OK) {
    for (uint32_t i = 0; i < mt.local; ++i) weir_backend_get_stats(backends[i], &mt.m[i].before);
    int32_t mode = WEIR_IFDS_OWNERSHIP_WORK;
    st = weir_ifds_multi_ownership(o, &mode);
    if (st == WEIR_OK) st = weir_ifds_multi_partition(pb, mt.size, mode, mt.proc_owner);
    if (st == WEIR_OK) st = broadcast_graph(&mt, backends, &words);
  }
  for (uint32_t i = 0; st == WEIR_OK && i < mt.local; ++i) {
    st = setup_member(&mt, i, backends[i], words);
    if (st != WEIR_OK)
      st = weir_fail_context(st, "across devices, on device %u (%s)", mt.first + i,
                             weir_backend_id(backends[i]));
  }
  st = weir_group_agree(group, st);
  if (st == WEIR_OK) st = check_same_problem(&mt);
  double t1 = weir_ifds_multi_now();
  if (st == WEIR_OK && o && o->phase) o->phase(o->progress_user, "upload", t1 - t0);
  if (st == WEIR_OK) st = weir_ifds_multi_run_rounds(&mt);
  double t2 = weir_ifds_multi_now();
  if (st == WEIR_OK && o && o->phase) o->phase(o->progress_user, "solve", t2 - t1);
  if (st == WEIR_OK) st = weir_ifds_multi_collect(&mt, out, &path_edges);
  double t3 = weir_ifds_multi_now();
  if (st == WEIR_OK && o && o->phase) o->phase(o->progress_user, "read-back", t3 - t2);
  weir_ifds_stats totals = WEIR_IFDS_STATS_INIT;
  if (st == WEIR_OK) { /* every process takes part in group_totals */
    fill_stats(&mt, path_edges, &totals);
    st = group_totals(&mt, &totals);
    if (st == WEIR_OK) st = member_totals(&mt, &totals);
    totals.seconds_upload = t1 - t0;
    totals.seconds_solve = t2 - t1;
    totals.seconds_readback = t3 - t2;
  }
  if (st == WEIR_OK && stats) weir_struct_out_copy(stats, &totals, stats_bytes, sizeof totals);
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
  /* CUDA devices only: NCCL moves the outboxes device to device when
   * libnccl.so.2 loads; otherwise (and for any other mix) the stream
   * transport stages them through the host. */
  int cuda = count > 1;
  for (size_t i = 0; i < count && cuda; ++i)
    cuda = backends[i] && strcmp(weir_backend_id(backends[i]), "cuda") == 0;
  if (cuda && weir_nccl_transport_create(backends, (uint32_t)count, NULL, &transport) != WEIR_OK) {
    transport = NULL;
    weir_clear_error();
  }
  if (!transport) WEIR_TRY(weir_stream_transport_create(NULL, &transport));
  weir_status st = weir_group_create_local(transport, backends, (uint32_t)count, &group);
  if (st == WEIR_OK) st = weir_ifds_solve_engine_group(group, backends, pb, o, out, stats);
  weir_group_destroy(group);
  weir_transport_destroy(transport);
  return st;
}
