/* The rounds of the IFDS engine across devices (multi.h): one window per
 * member (each on its own thread), the outbox counts gathered, one alltoallv
 * of the outboxes into the inboxes, until every member converged and no
 * outbox holds anything. See multi.c for the protocol. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "engine/ifds/engine/multi.h"

/* Rounds in a row without a new path edge or iteration, not converged. */
#define NO_PROGRESS_ROUNDS 3u

/* ---- one round on one member --------------------------------------------- */

/* Larger outboxes; what the round sent before the iteration that ran out
 * (up to the marks) moves along, each destination's part to its new place.
 * *full: they are as large as one binding allows already. */
static weir_status grow_outboxes(member *m, int *full) {
  ifds_engine *e = &m->e;
  uint64_t need = 0, max = weir_ifds_multi_max_outbox(e);
  for (uint32_t j = 0; j < e->devices; ++j)
    if (e->ctrl[WEIR_IFDS_C_OUT + j] > need) need = e->ctrl[WEIR_IFDS_C_OUT + j];
  uint64_t cap = 2u * (uint64_t)e->out_cap, want = need + need / 4u + 16u;
  if (want > cap) cap = want;
  if (cap > max) cap = max;
  *full = cap <= e->out_cap;
  if (*full) return WEIR_OK;
  uint32_t old_cap = e->out_cap;
  uint64_t entry = 4u * e->key_words;
  weir_chunk *old = m->out;
  weir_chunk_retain(old);
  e->out_cap = (uint32_t)cap;
  e->growths++;
  weir_status st = weir_ifds_multi_box(e, (uint64_t)e->devices * e->out_cap, "outboxes", &m->out, WEIR_IFDS_B_OUT);
  for (uint32_t j = 0; st == WEIR_OK && j < e->devices; ++j) {
    uint64_t kept = e->ctrl[WEIR_IFDS_C_OUT_MARK + j];
    if (kept)
      st = weir_copy(e->backend, weir_chunk_buffer(m->out), entry * j * e->out_cap,
                     weir_chunk_buffer(old), entry * j * old_cap, entry * kept);
  }
  weir_chunk_release(old);
  return st;
}

/* The outboxes cannot grow (one binding's worth): the round ends before the
 * iteration that ran out (a window of its rollback alone, no iteration),
 * and the exchange sends what the earlier iterations put in the outboxes
 * (up to the marks, which the rollback restores). Only an iteration that
 * alone fills them is an error. */
static weir_status check_flush(const multi *mt, const member *m) {
  const ifds_engine *e = &m->e;
  uint64_t kept = 0;
  for (uint32_t j = 0; j < e->devices; ++j) kept += e->ctrl[WEIR_IFDS_C_OUT_MARK + j];
  if (kept == 0)
    return weir_fail(WEIR_ERR_UNSUPPORTED,
                     "IFDS engine across devices: in round %llu, one iteration of device %u "
                     "(%s) sends more path edges to one device than its outboxes hold: %u "
                     "entries per destination, what a binding of %llu bytes allows for %u "
                     "devices. Fix: use fewer devices, a backend with a larger per-binding "
                     "limit, or raise WEIR_MAX_BINDING_BYTES / max_binding_bytes if you "
                     "forced it.",
                     (unsigned long long)mt->rounds, e->device, weir_backend_id(e->backend),
                     e->out_cap, (unsigned long long)e->binding_limit, e->devices);
  return WEIR_OK;
}

static weir_status run_member(multi *mt, member *m, int head) {
  ifds_engine *e = &m->e;
  window_plan *w = &m->w;
  uint64_t edges_before = e->ctrl[WEIR_IFDS_C_PLOG], iterations_before = e->ctrl[WEIR_IFDS_C_ITER];
  uint64_t k = m->k;
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
        e->backend, w->prefix, w->prefix_count, w->repeated, w->repeated_count, k, &read, 1,
        &into, 1);
    if (st != WEIR_OK)
      return weir_fail_context(st, "IFDS engine across devices: device %u (%s), round %llu",
                               e->device, weir_backend_id(e->backend),
                               (unsigned long long)mt->rounds);
    weir_ifds_engine_count_reserves(e);
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
    if (!(state & WEIR_IFDS_S_OVERFLOW)) {
      if (k) weir_ifds_engine_adapt_grid(e, edges_before, iterations_before);
      return WEIR_OK;
    }
    /* Roll this round's iteration back and redo it (window.c). */
    uint32_t over = e->ctrl[WEIR_IFDS_C_OVERFLOW];
    int full = 0;
    if (over & WEIR_IFDS_O_LOOP) WEIR_TRY(weir_ifds_engine_split_loops(e));
    if (over & WEIR_IFDS_O_OUT) WEIR_TRY(grow_outboxes(m, &full));
    st = weir_ifds_engine_grow(e);
    if (st != WEIR_OK)
      return weir_fail_context(st, "across devices, on device %u (%s)", e->device,
                               weir_backend_id(e->backend));
    m->rebuild = 1;
    head = 0;
    if (full) {
      WEIR_TRY(check_flush(mt, m));
      k = 0;
    }
  }
}

/* ---- the exchange ------------------------------------------------------------ */

/* Every member's row on every process: copied for a local group, an
 * allgather through the group's transport across processes. */
weir_status weir_ifds_multi_gather_rows(multi *mt) {
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

/* The outboxes into the inboxes with one alltoallv; inboxes grow first, and
 * each member's log makes room for what it takes in. */
static weir_status prepare_inboxes(multi *mt, weir_place *send, weir_place *recv) {
  for (uint32_t i = 0; i < mt->local; ++i) {
    member *m = &mt->m[i];
    uint32_t me = mt->first + i;
    uint64_t total = 0, entry = 4u * m->e.key_words;
    for (uint32_t j = 0; j < mt->size; ++j) {
      uint64_t sent = weir_ifds_multi_row(mt, me)[j], got = weir_ifds_multi_row(mt, j)[me];
      mt->send_counts[i * mt->size + j] = entry * sent;
      mt->send_displs[i * mt->size + j] = entry * j * m->e.out_cap;
      mt->recv_counts[i * mt->size + j] = entry * got;
      mt->recv_displs[i * mt->size + j] = entry * total;
      total += got;
    }
    if (total > UINT32_MAX - 1u)
      return weir_fail(WEIR_ERR_UNSUPPORTED,
                       "IFDS engine across devices: device %u receives %llu path edges in one "
                       "round (at most %u). Fix: use more devices.",
                       me, (unsigned long long)total, UINT32_MAX - 1u);
    if (total > m->e.in_cap) {
      m->e.in_cap = total + total / 4u + 16u;
      WEIR_TRY(weir_ifds_multi_box(&m->e, m->e.in_cap, "inbox", &m->in, WEIR_IFDS_B_IN));
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
    for (uint32_t j = 0; j < mt->size; ++j) mt->exchanged_keys += weir_ifds_multi_row(mt, r)[j];
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

/* Member r's device spec ("cpu:1", a plugin's id) where this process holds
 * it; a member of another process is named by its rank alone. */
static void member_spec(const multi *mt, uint32_t r, char *out, size_t cap) {
  snprintf(out, cap, "on another process");
  if (r < mt->first || r >= mt->first + mt->local) return;
  weir_device_info info = WEIR_DEVICE_INFO_INIT;
  weir_backend *b = mt->m[r - mt->first].e.backend;
  if (weir_backend_device_info(b, &info) == WEIR_OK) snprintf(out, cap, "%s", info.spec);
  else snprintf(out, cap, "%s", weir_backend_id(b));
}

/* Stalled members: those not converged; when every one converged, those
 * whose outboxes keep path edges that no other member takes in. */
static int member_stalled(const multi *mt, uint32_t r, int any_unconverged) {
  const uint64_t *row = weir_ifds_multi_row(mt, r);
  if (any_unconverged) return row[mt->size + ROW_CONVERGED] == 0u;
  for (uint32_t j = 0; j < mt->size; ++j)
    if (row[j]) return 1;
  return 0;
}

/* "member 1 (stall): not converged, 0 iterations, 0 path edges, 0 in its
 * outboxes, 12 sent to it" for the no-progress message. */
static void describe_member(const multi *mt, uint32_t r, char *out, size_t cap,
                            const char *prefix) {
  const uint64_t *row = weir_ifds_multi_row(mt, r);
  uint64_t sent = 0, to_it = 0;
  for (uint32_t j = 0; j < mt->size; ++j) {
    sent += row[j];
    to_it += weir_ifds_multi_row(mt, j)[r];
  }
  char spec[64];
  member_spec(mt, r, spec, sizeof spec);
  snprintf(out, cap,
           "%smember %u (%s): %s, %llu iterations, %llu path edges, %llu in its outboxes, "
           "%llu sent to it",
           prefix, r, spec, row[mt->size + ROW_CONVERGED] ? "converged" : "not converged",
           (unsigned long long)row[mt->size + ROW_ITER], (unsigned long long)row[mt->size + ROW_LOG],
           (unsigned long long)sent, (unsigned long long)to_it);
}

/* The error once no member progressed for NO_PROGRESS_ROUNDS rounds: names
 * the stalled members (index, device, counts; the first three) so that the
 * user can check that device or leave it out. */
static weir_status fail_no_progress(const multi *mt, uint32_t stalled, uint64_t edges) {
  int any_unconverged = 0;
  for (uint32_t r = 0; r < mt->size; ++r)
    any_unconverged |= weir_ifds_multi_row(mt, r)[mt->size + ROW_CONVERGED] == 0u;
  /* One description is at most ~270 bytes (a 48-byte spec, five counts). */
  char list[3 * 320] = "", spec[64] = "SPEC";
  uint32_t count = 0, first = 0;
  for (uint32_t r = 0; r < mt->size; ++r) {
    if (!member_stalled(mt, r, any_unconverged)) continue;
    if (count == 0) first = r;
    size_t used = strlen(list);
    if (count++ < 3)
      describe_member(mt, r, list + used, sizeof list - used, count > 1 ? "; " : "");
  }
  if (count && first >= mt->first && first < mt->first + mt->local)
    member_spec(mt, first, spec, sizeof spec);
  char more[48] = "";
  if (count > 3) snprintf(more, sizeof more, "; and %u more", count - 3u);
  return weir_fail(WEIR_ERR_DEVICE,
                   "IFDS engine across devices: %u rounds in a row ended without a new path "
                   "edge or iteration on any of the %u devices, and without convergence "
                   "(round %llu, %llu path edges in all). Stalled%s: %s%s. Fix: member %u's "
                   "backend does not run the IFDS programs; check it with `weir conformance "
                   "--backend %s`, leave it out of the --backend list, or use --solver reference.",
                   stalled, mt->size, (unsigned long long)mt->rounds, (unsigned long long)edges,
                   any_unconverged ? "" : " (every member converged, but what their outboxes "
                   "hold is not taken in)", list, more, first, spec);
}

static weir_status check_progress(multi *mt, uint64_t *last_edges, uint64_t *last_iter,
                                  uint32_t *stalled) {
  uint64_t edges = 0, iter = 0, busiest = 0;
  for (uint32_t r = 0; r < mt->size; ++r) {
    uint64_t member_iter = weir_ifds_multi_row(mt, r)[mt->size + ROW_ITER];
    edges += weir_ifds_multi_row(mt, r)[mt->size + ROW_LOG];
    iter += member_iter;
    if (member_iter > busiest) busiest = member_iter;
  }
  *stalled = edges == *last_edges && iter == *last_iter ? *stalled + 1u : 0u;
  *last_edges = edges;
  *last_iter = iter;
  /* Iterations of the busiest member; path edges in all the members' logs
   * (which also hold the exit edges a member received, so a little more
   * than the result will count). */
  if (mt->o && mt->o->progress) mt->o->progress(mt->o->progress_user, busiest, edges);
  if (*stalled < NO_PROGRESS_ROUNDS) return WEIR_OK;
  return fail_no_progress(mt, *stalled, edges);
}

static void *member_thread(void *arg) {
  member *m = arg;
  double t0 = weir_ifds_multi_now();
  m->st = run_member(m->mt, m, m->head);
  m->busy += weir_ifds_multi_now() - t0;
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

weir_status weir_ifds_multi_run_rounds(multi *mt) {
  uint64_t last_edges = UINT64_MAX, last_iter = UINT64_MAX;
  uint32_t stalled = 0;
  const weir_ifds_engine_options *o = mt->o;
  uint64_t k = o && o->initial_window ? o->initial_window : 4u;
  uint64_t max_k = o && o->max_window ? o->max_window : 4096u;
  if (k > max_k) k = max_k;
  uint64_t before[WEIR_IFDS_MAX_DEVICES] = {0}; /* each member's iterations so far */
  for (int head = 0;; head = 1) {
    for (uint32_t i = 0; i < mt->local; ++i) mt->m[i].k = k;
    double started = weir_ifds_multi_now();
    WEIR_TRY(weir_group_agree(mt->group, run_local_rounds(mt, head)));
    double t0 = weir_ifds_multi_now();
    for (uint32_t i = 0; i < mt->local; ++i) {
      const ifds_engine *e = &mt->m[i].e;
      uint64_t *r = weir_ifds_multi_row(mt, mt->first + i);
      for (uint32_t j = 0; j < mt->size; ++j) r[j] = e->ctrl[WEIR_IFDS_C_OUT + j];
      r[mt->size + ROW_CONVERGED] = (e->ctrl[WEIR_IFDS_C_STATE] & WEIR_IFDS_S_CONVERGED) != 0u;
      r[mt->size + ROW_LOG] = e->ctrl[WEIR_IFDS_C_PLOG];
      r[mt->size + ROW_ITER] = e->ctrl[WEIR_IFDS_C_ITER];
    }
    WEIR_TRY(weir_ifds_multi_gather_rows(mt));
    int done = 1, converged = 1;
    uint64_t used = 0;
    for (uint32_t r = 0; r < mt->size; ++r) {
      converged &= weir_ifds_multi_row(mt, r)[mt->size + ROW_CONVERGED] != 0u;
      for (uint32_t j = 0; j < mt->size; ++j) done &= weir_ifds_multi_row(mt, r)[j] == 0u;
      uint64_t iter = weir_ifds_multi_row(mt, r)[mt->size + ROW_ITER];
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
      mt->seconds_exchange += weir_ifds_multi_now() - t0;
      return WEIR_OK;
    }
    mt->rounds++;
    WEIR_TRY(check_progress(mt, &last_edges, &last_iter, &stalled));
    weir_status st = exchange(mt);
    mt->seconds_exchange += weir_ifds_multi_now() - t0;
    WEIR_TRY(weir_group_agree(mt->group, st));
  }
}
