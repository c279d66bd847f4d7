/* The CUDA sink (see ifds_sink.h): one thread per item, appends at once,
 * one atomic per group of warp lanes that append at the same place. */
#ifndef WEIR_PROGRAMS_IFDS_SINK_CUDA_H
#define WEIR_PROGRAMS_IFDS_SINK_CUDA_H

#include <cooperative_groups.h>

struct ifds_sink {
  int unused;
};

/* The lanes of `g` (converged here, appending to the relation counted at
 * control word `word`) reserve one entry each with one atomic: lane rank r
 * gets first + r. */
IFDS_FN uint32_t ifds_reserve_group(const ifds_ctx *cx, const cooperative_groups::coalesced_group &g,
                                    uint32_t word) {
  uint32_t first = 0;
  if (g.thread_rank() == 0) first = ifds_reserve(cx, word, g.size());
  return g.shfl(first, 0) + g.thread_rank();
}
IFDS_FN uint32_t ifds_reserve_one(const ifds_ctx *cx, uint32_t word) {
  return ifds_reserve_group(cx, cooperative_groups::coalesced_threads(), word);
}

IFDS_FN void ifds_sink_push(const ifds_ctx *cx, ifds_sink *s, uint64_t key) {
  (void)s;
  uint32_t at = ifds_reserve_one(cx, WEIR_IFDS_C_PLOG);
  if (at < cx->pc.plog_cap) ifds_log_set(cx, at, key);
  else ifds_overflow(cx, WEIR_IFDS_O_PLOG);
}
IFDS_FN void ifds_candidate(const ifds_ctx *cx, ifds_sink *s, uint64_t key) {
  ifds_insert_new(cx, s, key);
}
IFDS_FN void ifds_add_incoming(const ifds_ctx *cx, ifds_sink *s, uint64_t key, uint32_t k,
                               uint32_t slot) {
  (void)s;
  ifds_put_incoming(cx, ifds_reserve_one(cx, WEIR_IFDS_C_INC), key, k, slot);
}
IFDS_FN void ifds_add_summary(const ifds_ctx *cx, ifds_sink *s, uint32_t d2, uint32_t slot) {
  (void)s;
  ifds_put_summary(cx, ifds_reserve_one(cx, WEIR_IFDS_C_ES), d2, slot);
}
/* Lanes sending to different devices reserve in different outboxes: the
 * converged lanes are split by destination first. */
IFDS_FN void ifds_send(const ifds_ctx *cx, ifds_sink *s, uint32_t to, uint64_t key) {
  (void)s;
  cooperative_groups::coalesced_group g =
      cooperative_groups::labeled_partition(cooperative_groups::coalesced_threads(), to);
  ifds_put_out(cx, to, ifds_reserve_group(cx, g, WEIR_IFDS_C_OUT + to), key);
}

#endif
