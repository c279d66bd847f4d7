/* The steps of the IFDS engine's windows and rounds (plan.h). */
#include <string.h>

#include "engine/ifds/engine/plan.h"


static void base_push(const ifds_engine *e, weir_ifds_push *p) {
  memset(p, 0, sizeof *p);
  p->fact_bits = e->fact_bits;
  p->node_bits = e->node_bits;
  p->ptab_size = (uint32_t)e->caps.ptab;
  p->plog_cap = (uint32_t)e->caps.plog;
  p->ctab_size = (uint32_t)e->caps.ctab;
  p->inc_cap = (uint32_t)e->caps.inc;
  p->es_cap = (uint32_t)e->caps.es;
  p->probe_limit = PROBE_LIMIT;
  p->parts = e->parts;
  p->shard_shift = e->shard_shift;
  p->key_words = e->key_words;
  p->device = e->device;
  p->devices = e->devices;
  p->out_cap = e->out_cap;
}

static void set_step(const ifds_engine *e, weir_step *s, int prog, const weir_buffer *bindings,
                     const weir_ifds_push *push, uint32_t grid) {
  s->program = e->prog[prog];
  s->bindings = bindings;
  s->binding_count = prog == IFDS_P_CLEAR ? 1u : WEIR_IFDS_BINDINGS;
  s->grid = (weir_grid){grid, 1, 1};
  s->push_constants = push;
  s->push_constant_bytes = sizeof *push;
}

static weir_ifds_push *add_prefix(const ifds_engine *e, window_plan *w, int prog,
                                  const weir_buffer *bindings, uint32_t grid, uint32_t mode,
                                  uint32_t begin, uint32_t end, uint32_t value) {
  weir_ifds_push *p = &w->prefix_push[w->prefix_count];
  base_push(e, p);
  p->mode = mode;
  p->begin = begin;
  p->end = end;
  p->value = value;
  set_step(e, &w->prefix[w->prefix_count], prog, bindings, p, grid);
  w->prefix_count++;
  return p;
}

/* Workgroups for `items` with at most `per` items per invocation: a
 * driver's loop budget (see split_loops) must not be spent on long
 * grid-stride loops over big tables. At least max_grid, at most 65,535
 * (the smallest maxComputeWorkGroupCount Vulkan allows). */
static uint32_t grid_for(const ifds_engine *e, uint64_t items, uint64_t per) {
  uint64_t g = (items + per * WEIR_IFDS_WORKGROUP - 1u) / (per * WEIR_IFDS_WORKGROUP);
  if (g < e->max_grid) g = e->max_grid;
  return g > 65535u ? 65535u : (uint32_t)g;
}

/* Clears every real shard of the relation whose first binding is `base`
 * (`count` shards) to all ones. */
static void add_clears(const ifds_engine *e, window_plan *w, int base, uint32_t count) {
  for (uint32_t s = 0; s < count; ++s) {
    uint64_t words = e->shard_bytes[base + (int)s] / 4u;
    /* end = all ones: the whole buffer (a shard may pass 2^32 words). */
    add_prefix(e, w, IFDS_P_CLEAR, &e->buf[base + (int)s], grid_for(e, words, 1024u), 0, 0,
               words < UINT32_MAX ? (uint32_t)words : UINT32_MAX, WEIR_IFDS_EMPTY32);
  }
}

/* The prefix after growth (or of the first window, from a zeroed control
 * block): see the comment at the top of this file. */
void weir_ifds_plan_rebuild(const ifds_engine *e, window_plan *w) {
  const uint32_t *c = e->ctrl;
  uint32_t a = c[WEIR_IFDS_C_A], b = c[WEIR_IFDS_C_B];
  uint32_t g_unlink = grid_for(e, e->caps.ctab, 64u), g_log = grid_for(e, b, 64u);
  w->prefix_count = 0;
  if (e->keep_table) {
    add_prefix(e, w, IFDS_P_RESTORE, e->buf, 1, WEIR_IFDS_MODE_KEEP, a, b, c[WEIR_IFDS_C_ITER]);
    add_prefix(e, w, IFDS_P_UNLINK, e->buf, g_unlink, 0, 0, 0, 0);
    return;
  }
  add_clears(e, w, WEIR_IFDS_B_PTAB, e->shards[IFDS_R_PTAB]);
  if (!e->full_rebuild) {
    add_prefix(e, w, IFDS_P_RESTORE, e->buf, 1, WEIR_IFDS_MODE_PARTIAL, a, b, c[WEIR_IFDS_C_ITER]);
    add_prefix(e, w, IFDS_P_UNLINK, e->buf, g_unlink, 0, 0, 0, 0);
    add_prefix(e, w, IFDS_P_REHASH, e->buf, g_log, 0, 0, b, 0);
    return;
  }
  add_clears(e, w, WEIR_IFDS_B_CTAB, e->shards[IFDS_R_CTAB]);
  add_clears(e, w, WEIR_IFDS_B_CHEAD, e->shards[IFDS_R_CHEAD]);
  add_prefix(e, w, IFDS_P_RESTORE, e->buf, 1, WEIR_IFDS_MODE_FULL, a, b, c[WEIR_IFDS_C_ITER]);
  if (b == 0) { /* nothing logged yet: start from the seeds */
    add_prefix(e, w, IFDS_P_SEED, e->buf, grid_for(e, e->problem->seed_count, 64u), 0, 0, 0, 0);
    add_prefix(e, w, IFDS_P_ADVANCE, e->buf, 1, WEIR_IFDS_MODE_NEXT, 0, 0, 0);
    return;
  }
  add_prefix(e, w, IFDS_P_REHASH, e->buf, g_log, 0, 0, b, 0);
  for (uint32_t part = 0; part < e->parts; ++part)
    add_prefix(e, w, IFDS_P_RELATE, e->buf, grid_for(e, a, 64u), WEIR_IFDS_MODE_RANGE, 0, a, 0)
        ->part = part;
  add_prefix(e, w, IFDS_P_ADVANCE, e->buf, 1, WEIR_IFDS_MODE_MARK, 0, 0, 0);
}

/* An iteration: relate in `parts` passes, expand in `parts` passes, advance. */
void weir_ifds_plan_iteration(const ifds_engine *e, window_plan *w) {
  size_t n = 0;
  for (int prog = IFDS_P_RELATE; prog <= IFDS_P_EXPAND; ++prog)
    for (uint32_t part = 0; part < e->parts; ++part, ++n) {
      base_push(e, &w->push[n]);
      w->push[n].part = part;
      set_step(e, &w->repeated[n], prog, e->buf, &w->push[n], e->grid);
    }
  base_push(e, &w->push[n]);
  set_step(e, &w->repeated[n], IFDS_P_ADVANCE, e->buf, &w->push[n], 1);
  w->repeated_count = n + 1;
}

/* Some kernel's loops were cut short (WEIR_IFDS_O_LOOP: lavapipe ends every
 * loop of a shader invocation once all of them together ran 65,535
 * iterations, see programs/glsl/ifds_common.glsl). The iteration is rolled
 * back like an overflow and redone with the long loops split over twice the
 * passes; past MAX_PARTS the work of one item is too long for the driver. */
weir_status weir_ifds_engine_split_loops(ifds_engine *e) {
  if (e->parts >= MAX_PARTS)
    return weir_fail(WEIR_ERR_UNSUPPORTED,
                     "IFDS engine: backend '%s' cut a kernel's loops short (its driver limits "
                     "the loop iterations of one shader invocation: lavapipe/llvmpipe stops "
                     "every loop after 65535 in all) even with the long loops split over %u "
                     "passes, in iteration %u (delta [%u, %u) of the path-edge log). Fix: "
                     "use --backend cpu or a GPU driver without such a limit.",
                     weir_backend_id(e->backend), e->parts, e->ctrl[WEIR_IFDS_C_ITER],
                     e->ctrl[WEIR_IFDS_C_A], e->ctrl[WEIR_IFDS_C_B]);
  e->parts *= 2u;
  /* Fewer items per invocation too: the grid-stride loop over a big delta
   * spends the same budget. */
  e->grid_cap = e->grid_cap > 32767u ? 65535u : 2u * e->grid_cap;
  e->grid = e->grid > 32767u ? 65535u : 2u * e->grid;
  return WEIR_OK;
}


void weir_ifds_plan_round_head(const ifds_engine *e, window_plan *w, uint32_t in_count) {
  add_prefix(e, w, IFDS_P_ADVANCE, e->buf, 1, WEIR_IFDS_MODE_RESUME, 0, 0, 0);
  if (in_count)
    add_prefix(e, w, IFDS_P_INGEST, e->buf, grid_for(e, in_count, 64u), 0, 0, 0, 0)->in_count =
        in_count;
  add_prefix(e, w, IFDS_P_ADVANCE, e->buf, 1, WEIR_IFDS_MODE_MERGE, 0, 0, 0);
}

void weir_ifds_plan_rehash(const ifds_engine *e, window_plan *w, uint32_t count) {
  add_clears(e, w, WEIR_IFDS_B_PTAB, e->shards[IFDS_R_PTAB]);
  add_prefix(e, w, IFDS_P_REHASH, e->buf, grid_for(e, count, 64u), 0, 0, count, 0);
}
