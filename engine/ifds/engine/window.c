/* The window loop: K iterations per weir_dispatch_repeated_sequence_read_ranges_into,
 * one read of the control block after each. Nothing else crosses to the host
 * while solving.
 *
 * A window's prefix (re)builds what the next iterations need. The first
 * window clears the tables and inserts the seeds. After an overflow the
 * control block still describes the iteration that overflowed (A, B and the
 * iteration count: advance never ran for it), and the log's prefix [0, B) is
 * complete, so the window is repeated from that iteration:
 * - rollback (the usual case): the iteration's additions to the incoming and
 *   end-summary lists are unlinked (they sit in front of the marks taken
 *   when it began); when the log or table overflowed, the path-edge table
 *   is rebuilt from the log [0, B); otherwise table and log stay as they are
 *   (every edge in the table was logged) and the iteration simply reruns;
 * - full rebuild (the context table overflowed, or the overflow came before
 *   the marks were set): every table is cleared, the log [0, B) re-inserted
 *   and step 1 (relate) replayed over [0, A).
 * Overflow therefore costs one iteration of work plus a rehash, and no path
 * edge is ever dropped. */
#include <string.h>
#include <time.h>

#include "engine/ifds/engine/plan.h"

void weir_ifds_engine_count_reserves(ifds_engine *e) {
  uint32_t now = e->ctrl[WEIR_IFDS_C_RESERVES];
  e->reserves += (uint32_t)(now - e->reserves_seen); /* modulo 2^32: a window makes < 2^32 */
  e->reserves_seen = now;
}

static weir_status run_window(ifds_engine *e, window_plan *w, int rebuild, uint64_t k) {
  weir_range read = {e->buf[WEIR_IFDS_B_CTRL], 0, sizeof e->ctrl};
  void *out = e->ctrl;
  e->windows++;
  weir_status st = weir_dispatch_repeated_sequence_read_ranges_into(
      e->backend, w->prefix, rebuild ? w->prefix_count : 0, w->repeated, w->repeated_count, k,
      &read, 1, &out, 1);
  if (st == WEIR_OK) weir_ifds_engine_count_reserves(e);
  return st;
}

/* Workgroups in proportion to the work: the larger of the last window's
 * mean delta and the next delta (B - A), over the workgroup size, as a
 * power of two up to max_grid. Long thin tails (deep
 * call chains: thousands of iterations of a few edges) then run as one
 * cheap workgroup instead of waking every worker for nothing. */
void weir_ifds_engine_adapt_grid(ifds_engine *e, uint64_t edges_before, uint64_t iterations_before) {
  uint64_t iterations = e->ctrl[WEIR_IFDS_C_ITER] - iterations_before;
  uint64_t mean = iterations ? (e->ctrl[WEIR_IFDS_C_PLOG] - edges_before) / iterations : 0;
  uint64_t next = e->ctrl[WEIR_IFDS_C_B] - e->ctrl[WEIR_IFDS_C_A];
  uint64_t want = (mean > next ? mean : next) / WEIR_IFDS_WORKGROUP, grid = 1;
  while (grid < want && grid < e->grid_cap) grid *= 2u;
  e->grid = (uint32_t)(grid < e->grid_cap ? grid : e->grid_cap);
}

/* Windows in a row that may end with neither a new iteration nor a new path
 * edge, and without convergence, before the backend is declared stuck. A
 * correct backend has none (an iteration that adds no edge converges); a
 * rolled-back window redoes an iteration, so a little slack. */
#define NO_PROGRESS_WINDOWS 3u

/* The most path edges a problem can have: one per node, fact at the start of
 * its procedure and fact at the node (saturating). Every iteration but the
 * last adds one at least, so iterations are bounded by it too. */
static uint64_t max_path_edges(const weir_ifds_problem *p) {
  uint64_t f = p->fact_count, n = p->node_count;
  if (f && f > UINT64_MAX / f) return UINT64_MAX;
  return f * f > UINT64_MAX / (n ? n : 1) ? UINT64_MAX : f * f * n;
}

/* Refuses a window that made no progress (a backend whose dispatch does not
 * run the programs would otherwise keep `weir solve` spinning forever), and
 * counts the device cannot have reached on this problem. */
static weir_status check_progress(const ifds_engine *e, uint64_t edges_before,
                                  uint64_t iterations_before, uint32_t *stalled) {
  uint64_t edges = e->ctrl[WEIR_IFDS_C_PLOG], iterations = e->ctrl[WEIR_IFDS_C_ITER];
  uint64_t bound = max_path_edges(e->problem);
  if (edges > bound || iterations > bound)
    return weir_fail(WEIR_ERR_DEVICE,
                     "IFDS engine: backend '%s' reports %llu path edges after %llu iterations, "
                     "but problem '%s' (%u nodes, %u facts) has at most %llu. Fix: the backend "
                     "runs the IFDS programs wrongly; check it with `weir conformance --backend "
                     "%s`, or use --backend cpu or --solver reference.",
                     weir_backend_id(e->backend), (unsigned long long)edges,
                     (unsigned long long)iterations, e->problem->source_name,
                     e->problem->node_count, e->problem->fact_count, (unsigned long long)bound,
                     weir_backend_id(e->backend));
  *stalled = edges == edges_before && iterations == iterations_before ? *stalled + 1u : 0u;
  if (*stalled < NO_PROGRESS_WINDOWS) return WEIR_OK;
  return weir_fail(WEIR_ERR_DEVICE,
                   "IFDS engine: backend '%s' made no progress: %u windows in a row ended "
                   "without a new iteration, a new path edge or convergence (iteration %llu, "
                   "%llu path edges, window %llu). Fix: its dispatch does not run the IFDS "
                   "programs; check it with `weir conformance --backend %s`, or use --backend "
                   "cpu or --solver reference.",
                   weir_backend_id(e->backend), *stalled, (unsigned long long)iterations,
                   (unsigned long long)edges, (unsigned long long)e->windows,
                   weir_backend_id(e->backend));
}

static double now_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The next window's iterations: doubled while windows are quick, and
 * sized for about a second once they are not (k / seconds, never more than
 * doubled), so that progress reaches the caller at least every ~2 s unless
 * single iterations get slower than that. */
uint64_t weir_ifds_engine_next_window(uint64_t k, uint64_t max_k, double seconds) {
  uint64_t next = k * 2u;
  if (seconds > 0.25) {
    double fit = (double)k / seconds;
    if (fit < (double)next) next = fit < 1.0 ? 1u : (uint64_t)fit;
  }
  return next > max_k ? max_k : next;
}

weir_status weir_ifds_engine_run(ifds_engine *e, const weir_ifds_engine_options *o) {
  uint64_t k = o && o->initial_window ? o->initial_window : 4u;
  uint64_t max_k = o && o->max_window ? o->max_window : 4096u;
  if (k > max_k) k = max_k;
  window_plan w;
  int rebuild = 1;
  uint32_t stalled = 0;
  memset(e->ctrl, 0, sizeof e->ctrl);
  e->full_rebuild = 1;
  e->keep_table = 0;
  e->parts = 1;
  e->grid_cap = e->max_grid;
  for (;;) {
    /* plan_rebuild reads e->ctrl, which run_window overwrites: plan first. */
    if (rebuild) weir_ifds_plan_rebuild(e, &w);
    weir_ifds_plan_iteration(e, &w);
    uint64_t edges_before = e->ctrl[WEIR_IFDS_C_PLOG], iterations_before = e->ctrl[WEIR_IFDS_C_ITER];
    double started = now_seconds();
    weir_status st = run_window(e, &w, rebuild, k);
    double took = now_seconds() - started;
    if (st != WEIR_OK)
      return weir_fail_context(st, "IFDS engine: window %llu of %llu iterations",
                               (unsigned long long)e->windows, (unsigned long long)k);
    uint32_t state = e->ctrl[WEIR_IFDS_C_STATE];
    if (state & WEIR_IFDS_S_OVERFLOW) {
      if (e->ctrl[WEIR_IFDS_C_OVERFLOW] & WEIR_IFDS_O_LOOP) WEIR_TRY(weir_ifds_engine_split_loops(e));
      WEIR_TRY(weir_ifds_engine_grow(e));
      rebuild = 1;
      continue;
    }
    rebuild = 0;
    if (state & WEIR_IFDS_S_CONVERGED) return WEIR_OK;
    WEIR_TRY(check_progress(e, edges_before, iterations_before, &stalled));
    if (o && o->progress) o->progress(o->progress_user, e->ctrl[WEIR_IFDS_C_ITER], e->ctrl[WEIR_IFDS_C_PLOG]);
    weir_ifds_engine_adapt_grid(e, edges_before, iterations_before);
    k = weir_ifds_engine_next_window(k, max_k, took);
  }
}
