/* Generic collectives built on the transport's copy_async/wait, for groups
 * whose members all live in this process. Every copy of a call is started
 * first and waited for after, so a transport that overlaps transfers (the
 * stream transport's same-backend copies stay queued on the device) sees the
 * whole batch before the first wait. Validation has already ruled out
 * overlaps that would make the order matter. */
#include "engine/residency/collective.h"

typedef struct copy_batch {
  weir_transport *t;
  weir_group *g;
  const char *op;
  size_t started;
  weir_status first;
} copy_batch;

static void batch_copy(copy_batch *b, weir_place dst, uint64_t dst_rel, weir_place src,
                       uint64_t src_rel, uint64_t bytes) {
  if (b->first != WEIR_OK || bytes == 0) return;
  if (b->started >= b->g->transfer_capacity) {
    b->first = weir_fail(WEIR_ERR_INTERNAL, "%s: more than %zu copies in one call. Fix: "
                         "report this bug.", b->op, b->g->transfer_capacity);
    return;
  }
  weir_status status =
      weir_transport_copy_async(b->t, dst.chunk, dst.offset + dst_rel, src.chunk,
                                src.offset + src_rel, bytes, &b->g->transfers[b->started]);
  if (status == WEIR_OK) ++b->started;
  else b->first = weir_fail_context(status, "%s", b->op);
}

/* Waits for everything started, even after a failure, so that nothing is in
 * flight when the caller reacts to the error. */
static weir_status batch_finish(copy_batch *b) {
  for (size_t k = 0; k < b->started; ++k) {
    weir_status status = weir_transport_wait(&b->g->transfers[k]);
    if (b->first == WEIR_OK && status != WEIR_OK)
      b->first = weir_fail_context(status, "%s: waiting for copy %zu of %zu", b->op, k,
                                   b->started);
  }
  return b->first;
}

static copy_batch batch_start(weir_transport *t, weir_group *g, const weir_collective *c) {
  return (copy_batch){t, g, weir_coll_op_name(c->kind), 0, WEIR_OK};
}

weir_status weir_coll_generic_broadcast(weir_transport *self, weir_group *group,
                                        const weir_collective *call) {
  copy_batch b = batch_start(self, group, call);
  for (uint32_t r = 0; r < group->layout.size; ++r)
    if (r != call->root) batch_copy(&b, call->recv[r], 0, call->recv[call->root], 0, call->bytes);
  return batch_finish(&b);
}

weir_status weir_coll_generic_scatter(weir_transport *self, weir_group *group,
                                      const weir_collective *call) {
  copy_batch b = batch_start(self, group, call);
  for (uint32_t r = 0; r < group->layout.size; ++r)
    batch_copy(&b, call->recv[r], 0, call->send[call->root], r * call->bytes, call->bytes);
  return batch_finish(&b);
}

weir_status weir_coll_generic_gather(weir_transport *self, weir_group *group,
                                     const weir_collective *call) {
  copy_batch b = batch_start(self, group, call);
  for (uint32_t r = 0; r < group->layout.size; ++r)
    batch_copy(&b, call->recv[call->root], r * call->bytes, call->send[r], 0, call->bytes);
  return batch_finish(&b);
}

/* Member r's piece goes to slot r of every member's recv; in place, its
 * source is its own slot r, which nobody else writes. */
weir_status weir_coll_generic_allgather(weir_transport *self, weir_group *group,
                                        const weir_collective *call) {
  copy_batch b = batch_start(self, group, call);
  uint64_t n = call->bytes;
  for (uint32_t r = 0; r < group->layout.size; ++r) {
    int in_place = weir_coll_allgather_in_place(call, r, r);
    weir_place src = in_place ? call->recv[r] : call->send[r];
    uint64_t src_rel = in_place ? r * n : 0;
    for (uint32_t j = 0; j < group->layout.size; ++j)
      if (!(in_place && j == r)) batch_copy(&b, call->recv[j], r * n, src, src_rel, n);
  }
  return batch_finish(&b);
}

weir_status weir_coll_generic_alltoallv(weir_transport *self, weir_group *group,
                                        const weir_collective *call) {
  copy_batch b = batch_start(self, group, call);
  size_t n = group->layout.size;
  for (size_t i = 0; i < n; ++i)
    for (size_t j = 0; j < n; ++j)
      batch_copy(&b, call->recv[j], call->recv_displs[j * n + i], call->send[i],
                 call->send_displs[i * n + j], call->send_counts[i * n + j]);
  return batch_finish(&b);
}
