/* The sink of the IFDS kernels: where a kernel's appends go (new path edges
 * to the log, incoming and end-summary entries to the lists, path edges for
 * other devices to the outboxes). Part of programs/ifds/ifds_kernels.h,
 * which includes it once the context, the atomics, ifds_reserve and the
 * table insert are defined; not a header of its own.
 *
 * Every append reserves its entry with an atomic add on a control word
 * (ifds_reserve, counted in C_RESERVES). One per entry would put every new
 * path edge of the whole grid on one address, so appends are aggregated per
 * group and one atomic reserves the entries of the whole group:
 * - CUDA: the warp lanes that append at the same place together (a
 *   coalesced group; outboxes: those lanes split by destination) take one
 *   atomic and a shuffle, each lane its own entry in rank order;
 * - host: a workgroup buffers its appends and flushes each buffer with one
 *   atomic (log: per WEIR_IFDS_SINK_BATCH edges; lists and outboxes: per
 *   WEIR_IFDS_LIST_BATCH entries, and once at the end of the workgroup);
 * - GLSL (programs/glsl/ifds_common.glsl): the same with subgroup ballots,
 *   in the _sg variants of the programs; one atomic per entry without them.
 * Entries past a capacity raise the overflow bit, as before: which entries
 * a rolled-back iteration wrote does not matter. */
#ifndef WEIR_PROGRAMS_IFDS_SINK_H
#define WEIR_PROGRAMS_IFDS_SINK_H

/* Incoming entry e: the caller's path edge `key` entering through callee
 * index k, prepended to the list of context slot `slot`. */
IFDS_FN void ifds_put_incoming(const ifds_ctx *cx, uint32_t e, uint64_t key, uint32_t k,
                               uint32_t slot) {
  if (e >= cx->pc.inc_cap) {
    ifds_overflow(cx, WEIR_IFDS_O_INC);
    return;
  }
  ifds_inc_set(cx, e, key);
  *ifds_at2(cx, cx->incm, e, 0u) = k;
  *ifds_at2(cx, cx->incm, e, 1u) = ifds_exch32(ifds_at2(cx, cx->chead, slot, 0u), e);
}
/* End summary e: exit fact d2 of context slot `slot`. */
IFDS_FN void ifds_put_summary(const ifds_ctx *cx, uint32_t e, uint32_t d2, uint32_t slot) {
  if (e >= cx->pc.es_cap) {
    ifds_overflow(cx, WEIR_IFDS_O_ES);
    return;
  }
  *ifds_at2(cx, cx->es, e, 0u) = d2;
  *ifds_at2(cx, cx->es, e, 1u) = ifds_exch32(ifds_at2(cx, cx->chead, slot, 1u), e);
}
/* Entry `at` of the outbox for device `to`, at the log's key width. */
IFDS_FN void ifds_put_out(const ifds_ctx *cx, uint32_t to, uint32_t at, uint64_t key) {
  uint64_t i = (uint64_t)to * cx->pc.out_cap + at;
  if (at >= cx->pc.out_cap) ifds_overflow(cx, WEIR_IFDS_O_OUT);
  else if (ifds_narrow(cx)) ((uint32_t *)cx->out)[i] = (uint32_t)key;
  else cx->out[i] = key;
}

/* Inserts a path edge into the table; appends it to the log when it is new. */
typedef struct ifds_sink ifds_sink;
IFDS_FN void ifds_sink_push(const ifds_ctx *cx, ifds_sink *s, uint64_t key);
IFDS_FN void ifds_insert_new(const ifds_ctx *cx, ifds_sink *s, uint64_t key) {
  uint32_t slot;
  int r = ifds_path_insert(cx, key, &slot);
  if (r > 0) ifds_sink_push(cx, s, key);
  else if (r < 0) ifds_overflow(cx, WEIR_IFDS_O_PTAB);
}

#ifdef __CUDACC__
#include "programs/ifds/ifds_sink_cuda.h"
#else
#include "programs/ifds/ifds_sink_host.h"
#endif

#endif
