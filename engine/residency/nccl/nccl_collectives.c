/* The NCCL transport's collectives, for a local group over the transport's
 * members (member i = backends[i] = NCCL rank i). weir has validated the
 * call. Each op resolves every device pointer first (so nothing is issued
 * when one is wrong), issues every member's NCCL call inside one
 * ncclGroupStart/ncclGroupEnd on the members' streams, queues the pieces a
 * member sends itself as device copies on its stream, then synchronizes each
 * member's stream once: on return the call is complete. */
#include "engine/residency/nccl/nccl_internal.h"

typedef struct nccl_call {
  weir_nccl_transport *t;
  const weir_collective *c;
  const char *op;    /* "weir_allreduce" */
  weir_status first; /* first failure */
} nccl_call;

static unsigned char *at(void *base, uint64_t offset) { return (unsigned char *)base + offset; }

/* The group must be the transport's members in its order. */
static weir_status group_ok(const weir_nccl_transport *t, const weir_group *g, const char *op) {
  if (g->layout.size != t->count || g->layout.local_count != t->count)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "%s: the group has %u members (%u in this process) but the NCCL transport "
                     "has %u. Fix: create the group with weir_group_create_local(transport, "
                     "the transport's %u backends in the same order, %u, &group).",
                     op, g->layout.size, g->layout.local_count, t->count, t->count, t->count);
  for (uint32_t i = 0; i < t->count; ++i)
    if (g->backends[i] && g->backends[i] != t->backends[i])
      return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                       "%s: member %u of the group is backend %s but the NCCL transport's "
                       "member %u is %s. Fix: create the group over the transport's backends "
                       "in the same order.",
                       op, i, weir_nccl_backend_spec(g->backends[i]), i,
                       weir_nccl_backend_spec(t->backends[i]));
  return WEIR_OK;
}

/* The device address of member r's place (+ rel), which must live on it. */
static weir_status pointer(const nccl_call *k, uint32_t r, weir_place place, const char *which,
                           void **out) {
  weir_backend *owner = place.chunk ? weir_chunk_backend(place.chunk) : NULL;
  if (!place.chunk || owner != k->t->backends[r])
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "%s: member %u's %s chunk %s %s, not on the member's %s. Fix: allocate "
                     "member r's chunks on the transport's backend r.",
                     k->op, r, which, place.chunk ? "lives on" : "is NULL",
                     place.chunk ? weir_nccl_backend_spec(owner) : "", 
                     weir_nccl_backend_spec(k->t->backends[r]));
  return weir_nccl_cuda_pointer(owner, weir_chunk_buffer(place.chunk), place.offset, k->op, out);
}

static weir_status begin(nccl_call *k) {
  const weir_nccl_api *api = &k->t->api;
  WEIR_TRY(weir_nccl_cuda_enter(k->t->backends[0]));
  weir_nccl_result r = api->ncclGroupStart();
  if (r != WEIR_NCCL_SUCCESS) return weir_nccl_fail(api, NULL, r, "%s: ncclGroupStart", k->op);
  return WEIR_OK;
}

/* Records the first failing NCCL call; later calls are skipped. */
static int issued(nccl_call *k, weir_nccl_result r, uint32_t member, const char *fn) {
  if (r == WEIR_NCCL_SUCCESS) return 1;
  if (k->first == WEIR_OK)
    k->first = weir_nccl_fail(&k->t->api, k->t->comms[member], r, "%s: %s of member %u (%s)",
                              k->op, fn, member, weir_nccl_backend_spec(k->t->backends[member]));
  return 0;
}

/* A member's own piece: a device copy queued on its stream. */
static void self_copy(nccl_call *k, uint32_t member, weir_place dst, uint64_t dst_rel,
                      weir_place src, uint64_t src_rel, uint64_t bytes) {
  if (k->first != WEIR_OK || bytes == 0) return;
  weir_status s = weir_copy(k->t->backends[member], weir_chunk_buffer(dst.chunk),
                            dst.offset + dst_rel, weir_chunk_buffer(src.chunk),
                            src.offset + src_rel, bytes);
  if (s != WEIR_OK)
    k->first = weir_fail_context(s, "%s: member %u's own piece (device copy)", k->op, member);
}

/* Closes the group (always, even after a failed call), then waits for
 * every member's stream so that nothing is in flight on return. */
static weir_status end(nccl_call *k, void (*after)(nccl_call *)) {
  weir_nccl_transport *t = k->t;
  weir_nccl_result r = t->api.ncclGroupEnd();
  if (k->first == WEIR_OK && r != WEIR_NCCL_SUCCESS)
    k->first = weir_nccl_fail(&t->api, t->comms[0], r, "%s: ncclGroupEnd over %u members",
                              k->op, t->count);
  if (after) after(k);
  for (uint32_t i = 0; i < t->count; ++i) {
    weir_status s = weir_finish(t->backends[i]);
    if (k->first == WEIR_OK && s != WEIR_OK)
      k->first = weir_fail_context(s, "%s: waiting for member %u (%s)", k->op, i,
                                   weir_nccl_backend_spec(t->backends[i]));
  }
  return k->first;
}

static weir_status start(weir_transport *self, weir_group *group, const weir_collective *call,
                         nccl_call *k) {
  *k = (nccl_call){(weir_nccl_transport *)self, call, weir_coll_op_name(call->kind), WEIR_OK};
  return group_ok(k->t, group, k->op);
}

static weir_status nccl_broadcast(weir_transport *self, weir_group *group,
                                  const weir_collective *call) {
  nccl_call k;
  WEIR_TRY(start(self, group, call, &k));
  weir_nccl_transport *t = k.t;
  if (call->bytes == 0) return WEIR_OK;
  for (uint32_t r = 0; r < t->count; ++r) WEIR_TRY(pointer(&k, r, call->recv[r], "recv", &t->recv[r]));
  WEIR_TRY(begin(&k));
  for (uint32_t r = 0; r < t->count; ++r) /* the root's recv is its source (in place) */
    if (!issued(&k, t->api.ncclBroadcast(t->recv[r], t->recv[r], (size_t)call->bytes,
                                         WEIR_NCCL_UINT8, (int)call->root, t->comms[r],
                                         t->streams[r]),
                r, "ncclBroadcast"))
      break;
  return end(&k, NULL);
}

static weir_status nccl_allgather(weir_transport *self, weir_group *group,
                                  const weir_collective *call) {
  nccl_call k;
  WEIR_TRY(start(self, group, call, &k));
  weir_nccl_transport *t = k.t;
  if (call->bytes == 0) return WEIR_OK;
  /* In place, member r's send is recv + r*bytes: NCCL's in-place form too. */
  for (uint32_t r = 0; r < t->count; ++r) {
    WEIR_TRY(pointer(&k, r, call->send[r], "send", &t->send[r]));
    WEIR_TRY(pointer(&k, r, call->recv[r], "recv", &t->recv[r]));
  }
  WEIR_TRY(begin(&k));
  for (uint32_t r = 0; r < t->count; ++r)
    if (!issued(&k, t->api.ncclAllGather(t->send[r], t->recv[r], (size_t)call->bytes,
                                         WEIR_NCCL_UINT8, t->comms[r], t->streams[r]),
                r, "ncclAllGather"))
      break;
  return end(&k, NULL);
}

static weir_status nccl_allreduce(weir_transport *self, weir_group *group,
                                  const weir_collective *call) {
  static const weir_nccl_datatype types[] = {WEIR_NCCL_UINT32, WEIR_NCCL_UINT64,
                                             WEIR_NCCL_FLOAT32, WEIR_NCCL_FLOAT64};
  static const weir_nccl_redop ops[] = {WEIR_NCCL_SUM, WEIR_NCCL_MIN, WEIR_NCCL_MAX};
  nccl_call k;
  WEIR_TRY(start(self, group, call, &k));
  weir_nccl_transport *t = k.t;
  if ((unsigned)call->dtype >= 4u || (unsigned)call->op >= 3u)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "%s: dtype %d or op %d is unknown. Fix: use WEIR_DTYPE_* and "
                     "WEIR_REDUCE_*.", k.op, (int)call->dtype, (int)call->op);
  if (call->count == 0) return WEIR_OK;
  for (uint32_t r = 0; r < t->count; ++r) {
    WEIR_TRY(pointer(&k, r, call->send[r], "send", &t->send[r]));
    WEIR_TRY(pointer(&k, r, call->recv[r], "recv", &t->recv[r]));
  }
  WEIR_TRY(begin(&k));
  for (uint32_t r = 0; r < t->count; ++r)
    if (!issued(&k, t->api.ncclAllReduce(t->send[r], t->recv[r], (size_t)call->count,
                                         types[call->dtype], ops[call->op], t->comms[r],
                                         t->streams[r]),
                r, "ncclAllReduce"))
      break;
  return end(&k, NULL);
}

static void scatter_self(nccl_call *k) {
  const weir_collective *c = k->c;
  self_copy(k, c->root, c->recv[c->root], 0, c->send[c->root], (uint64_t)c->root * c->bytes,
            c->bytes);
}

static void gather_self(nccl_call *k) {
  const weir_collective *c = k->c;
  self_copy(k, c->root, c->recv[c->root], (uint64_t)c->root * c->bytes, c->send[c->root], 0,
            c->bytes);
}

/* Scatter (to_root 0): the root's piece r goes to member r. Gather
 * (to_root 1): member r's send goes to piece r of the root's recv. Either
 * way one ncclSend/ncclRecv pair per other member; the root's own piece is a
 * device copy. */
static weir_status root_pieces(weir_transport *self, weir_group *group,
                               const weir_collective *call, int to_root) {
  nccl_call k;
  WEIR_TRY(start(self, group, call, &k));
  weir_nccl_transport *t = k.t;
  uint32_t root = call->root;
  size_t n = (size_t)call->bytes;
  if (n == 0) return WEIR_OK;
  /* The root's one buffer of all pieces, and every member's own piece. */
  void **whole = to_root ? t->recv : t->send, **own = to_root ? t->send : t->recv;
  const weir_place *owns = to_root ? call->send : call->recv;
  WEIR_TRY(pointer(&k, root, to_root ? call->recv[root] : call->send[root],
                   to_root ? "recv" : "send", &whole[root]));
  for (uint32_t r = 0; r < t->count; ++r)
    WEIR_TRY(pointer(&k, r, owns[r], to_root ? "send" : "recv", &own[r]));
  WEIR_TRY(begin(&k));
  for (uint32_t r = 0; r < t->count && k.first == WEIR_OK; ++r) {
    if (r == root) continue;
    void *piece = at(whole[root], (uint64_t)r * n);
    uint32_t from = to_root ? r : root, to = to_root ? root : r;
    if (issued(&k, t->api.ncclSend(to_root ? own[r] : piece, n, WEIR_NCCL_UINT8, (int)to,
                                   t->comms[from], t->streams[from]),
               from, "ncclSend"))
      issued(&k, t->api.ncclRecv(to_root ? piece : own[r], n, WEIR_NCCL_UINT8, (int)from,
                                 t->comms[to], t->streams[to]),
             to, "ncclRecv");
  }
  return end(&k, to_root ? gather_self : scatter_self);
}

static weir_status nccl_scatter(weir_transport *self, weir_group *group,
                                const weir_collective *call) {
  return root_pieces(self, group, call, 0);
}

static weir_status nccl_gather(weir_transport *self, weir_group *group,
                               const weir_collective *call) {
  return root_pieces(self, group, call, 1);
}

static void alltoallv_self(nccl_call *k) {
  const weir_collective *c = k->c;
  size_t n = k->t->count;
  for (uint32_t i = 0; i < n; ++i)
    self_copy(k, i, c->recv[i], c->recv_displs[i * n + i], c->send[i], c->send_displs[i * n + i],
              c->send_counts[i * n + i]);
}

/* Member i's piece j goes to member j with ncclSend/ncclRecv (zero counts
 * are skipped); piece i for itself is a device copy. */
static weir_status nccl_alltoallv(weir_transport *self, weir_group *group,
                                  const weir_collective *call) {
  nccl_call k;
  WEIR_TRY(start(self, group, call, &k));
  weir_nccl_transport *t = k.t;
  size_t n = t->count;
  for (uint32_t i = 0; i < n; ++i) {
    WEIR_TRY(pointer(&k, i, call->send[i], "send", &t->send[i]));
    WEIR_TRY(pointer(&k, i, call->recv[i], "recv", &t->recv[i]));
  }
  WEIR_TRY(begin(&k));
  for (uint32_t i = 0; i < n && k.first == WEIR_OK; ++i)
    for (uint32_t j = 0; j < n && k.first == WEIR_OK; ++j) {
      if (i == j) continue;
      uint64_t out = call->send_counts[i * n + j], in = call->recv_counts[i * n + j];
      if (out && !issued(&k, t->api.ncclSend(at(t->send[i], call->send_displs[i * n + j]),
                                              (size_t)out, WEIR_NCCL_UINT8, (int)j,
                                              t->comms[i], t->streams[i]),
                         i, "ncclSend"))
        break;
      if (in)
        issued(&k, t->api.ncclRecv(at(t->recv[i], call->recv_displs[i * n + j]), (size_t)in,
                                   WEIR_NCCL_UINT8, (int)j, t->comms[i], t->streams[i]),
               i, "ncclRecv");
    }
  return end(&k, alltoallv_self);
}

/* No agree: a group over this transport is local (ncclCommInitAll), so
 * weir_group_create refuses layouts that span processes. */
const weir_collective_ops weir_nccl_collective_ops = {
    .broadcast = nccl_broadcast,
    .scatter = nccl_scatter,
    .gather = nccl_gather,
    .allgather = nccl_allgather,
    .alltoallv = nccl_alltoallv,
    .allreduce = nccl_allreduce,
};
