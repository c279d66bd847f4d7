/* Host versions of the IFDS programs: each call runs one workgroup, which
 * walks its share of the items (grid-stride over chunks of the workgroup
 * size) with the shared per-item logic of ifds_kernels.h, and batches its
 * appends in one sink (ifds_sink_host.h: one atomic reservation per batch). */
#include <string.h>

#include "programs/ifds/ifds_host.h"
#include "programs/ifds/ifds_kernels.h"

static void ctx_from(const weir_host_invocation *inv, ifds_ctx *cx) {
  void *const *b = inv->bindings;
  ifds_ctx_graph(cx, (const uint32_t *)b[WEIR_IFDS_B_GRAPH]);
  cx->ctrl = (uint32_t *)b[WEIR_IFDS_B_CTRL];
  memcpy(&cx->pc, inv->push_constants, sizeof cx->pc);
#define HOST_BINDING(i) (b[(i)])
  IFDS_CTX_SHARDS(cx, HOST_BINDING);
#undef HOST_BINDING
}

/* This workgroup's items of [begin, end): chunks of the workgroup size,
 * strided by the whole grid. */
typedef struct stride {
  uint64_t first, step, size;
} stride;

static stride stride_of(const weir_host_invocation *inv) {
  uint64_t wg = inv->workgroup_size[0];
  stride s = {inv->workgroup_id[0] * wg, (uint64_t)inv->grid[0] * wg, wg};
  return s;
}

void weir_host_ifds_clear(const weir_host_invocation *inv) {
  weir_ifds_push pc;
  memcpy(&pc, inv->push_constants, sizeof pc);
  uint32_t *words = (uint32_t *)inv->bindings[0];
  uint64_t n = inv->binding_bytes[0] / 4u;
  if (pc.end != UINT32_MAX && pc.end < n) n = pc.end; /* all ones: the whole buffer */
  stride s = stride_of(inv);
  for (uint64_t base = s.first; base < n; base += s.step) {
    uint64_t stop = base + s.size < n ? base + s.size : n;
    for (uint64_t i = base; i < stop; ++i) words[i] = pc.value;
  }
}

void weir_host_ifds_restore(const weir_host_invocation *inv) {
  if (inv->workgroup_id[0] != 0u) return;
  ifds_ctx cx;
  ctx_from(inv, &cx);
  ifds_restore(&cx);
}

void weir_host_ifds_advance(const weir_host_invocation *inv) {
  if (inv->workgroup_id[0] != 0u) return;
  ifds_ctx cx;
  ctx_from(inv, &cx);
  ifds_advance(&cx);
}

void weir_host_ifds_seed(const weir_host_invocation *inv) {
  ifds_ctx cx;
  ctx_from(inv, &cx);
  if (ifds_stopped(&cx)) return;
  ifds_sink sink;
  ifds_sink_init(&sink);
  stride s = stride_of(inv);
  for (uint64_t base = s.first; base < cx.seed_count; base += s.step)
    for (uint64_t i = base; i < base + s.size && i < cx.seed_count; ++i)
      ifds_seed_item(&cx, (uint32_t)i, &sink);
  ifds_sink_flush(&cx, &sink);
}

void weir_host_ifds_unlink(const weir_host_invocation *inv) {
  ifds_ctx cx;
  ctx_from(inv, &cx);
  stride s = stride_of(inv);
  for (uint64_t base = s.first; base < cx.pc.ctab_size; base += s.step)
    for (uint64_t i = base; i < base + s.size && i < cx.pc.ctab_size; ++i)
      ifds_unlink_item(&cx, (uint32_t)i);
}

void weir_host_ifds_rehash(const weir_host_invocation *inv) {
  ifds_ctx cx;
  ctx_from(inv, &cx);
  stride s = stride_of(inv);
  for (uint64_t base = cx.pc.begin + s.first; base < cx.pc.end; base += s.step)
    for (uint64_t i = base; i < base + s.size && i < cx.pc.end; ++i) {
      if (i + WEIR_IFDS_PREFETCH < cx.pc.end)
        __builtin_prefetch(ifds_path_slot(
            &cx, ifds_slot(ifds_log_get(&cx, (uint32_t)(i + WEIR_IFDS_PREFETCH)), cx.pc.ptab_size)));
      ifds_rehash_item(&cx, ifds_log_get(&cx, (uint32_t)i));
    }
}

/* The delta is in discovery order, so every item's node or call record and
 * successors are a cache miss: fetch them a few items ahead (the record
 * first, the successors once the record is in). */
static inline const uint32_t *item_rec(const ifds_ctx *cx, uint64_t key) {
  uint32_t n = ifds_key_node(cx, key), first = cx->calls + cx->procs;
  if (n < cx->calls) return cx->call_rec + 4u * n;
  return n >= first ? cx->node_rec + (n - first) : NULL;
}

static inline void prefetch_item(const ifds_ctx *cx, uint64_t i, uint64_t stop, int succ) {
  if (i + 2u * WEIR_IFDS_PREFETCH < stop) {
    const uint32_t *rec = item_rec(cx, ifds_log_get(cx, (uint32_t)(i + 2u * WEIR_IFDS_PREFETCH)));
    if (rec) __builtin_prefetch(rec);
  }
  if (succ && i + WEIR_IFDS_PREFETCH < stop) {
    uint64_t key = ifds_log_get(cx, (uint32_t)(i + WEIR_IFDS_PREFETCH));
    const uint32_t *rec = item_rec(cx, key);
    if (rec && ifds_key_node(cx, key) >= cx->calls) __builtin_prefetch(cx->succ + 2u * rec[0]);
  }
}

typedef void (*item_fn)(const ifds_ctx *cx, uint64_t key, ifds_sink *s);

/* Walks the delta [A, B) of the control block (or the push range in
 * MODE_RANGE); stops early when a capacity ran out. */
static void walk_delta(const weir_host_invocation *inv, item_fn fn, int expand) {
  ifds_ctx cx;
  ctx_from(inv, &cx);
  if (ifds_stopped(&cx)) return;
  uint64_t begin = cx.ctrl[WEIR_IFDS_C_A], end = cx.ctrl[WEIR_IFDS_C_B];
  if (cx.pc.mode == WEIR_IFDS_MODE_RANGE) {
    begin = cx.pc.begin;
    end = cx.pc.end;
  }
  /* One contiguous share of the delta per workgroup (not the strided chunks
   * of the GPU versions), so that prefetching runs ahead without gaps. */
  uint64_t per = (end - begin + inv->grid[0] - 1u) / inv->grid[0];
  uint64_t lo = begin + per * inv->workgroup_id[0], hi = lo + per < end ? lo + per : end;
  ifds_sink sink;
  ifds_sink_init(&sink);
  for (uint64_t i = lo; i < hi; ++i) {
    prefetch_item(&cx, i, hi, expand);
    fn(&cx, ifds_log_get(&cx, (uint32_t)i), &sink);
    if ((i & 63u) == 0u && ifds_stopped(&cx)) break;
  }
  ifds_sink_flush(&cx, &sink);
}

void weir_host_ifds_relate(const weir_host_invocation *inv) { walk_delta(inv, ifds_relate_item, 0); }
void weir_host_ifds_expand(const weir_host_invocation *inv) { walk_delta(inv, ifds_expand_item, 1); }

/* Across devices: the inbox's pc.in_count path edges into the table and log. */
void weir_host_ifds_ingest(const weir_host_invocation *inv) {
  ifds_ctx cx;
  ctx_from(inv, &cx);
  if (ifds_stopped(&cx)) return;
  ifds_sink sink;
  ifds_sink_init(&sink);
  stride s = stride_of(inv);
  for (uint64_t base = s.first; base < cx.pc.in_count; base += s.step)
    for (uint64_t i = base; i < base + s.size && i < cx.pc.in_count; ++i)
      ifds_ingest_item(&cx, (uint32_t)i, &sink);
  ifds_sink_flush(&cx, &sink);
}
