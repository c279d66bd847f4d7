/* The NCCL transport: one NCCL communicator per CUDA backend of this process
 * (ncclCommInitAll), NCCL loaded at run time. Point-to-point copies between
 * two members are a grouped ncclSend/ncclRecv on the members' streams;
 * within one member a device copy; anything else goes through a stream
 * transport (host staging). Collectives: nccl_collectives.c. */
#include <stdlib.h>
#include <string.h>

#include "engine/residency/nccl/nccl_internal.h"

uint32_t weir_nccl_member_of(const weir_nccl_transport *t, const weir_backend *backend) {
  for (uint32_t i = 0; i < t->count; ++i)
    if (t->backends[i] == backend) return i;
  return t->count;
}

/* dst member's recv from src member's send, one NCCL group, on both streams. */
static weir_status p2p(weir_nccl_transport *t, uint32_t dst, weir_chunk *dst_chunk,
                       uint64_t dst_offset, uint32_t src, weir_chunk *src_chunk,
                       uint64_t src_offset, uint64_t bytes) {
  const char *what = "nccl transport copy";
  void *to = NULL, *from = NULL;
  WEIR_TRY(weir_nccl_cuda_pointer(t->backends[dst], weir_chunk_buffer(dst_chunk), dst_offset,
                                  what, &to));
  WEIR_TRY(weir_nccl_cuda_pointer(t->backends[src], weir_chunk_buffer(src_chunk), src_offset,
                                  what, &from));
  const weir_nccl_api *api = &t->api;
  weir_nccl_result r = api->ncclGroupStart();
  if (r != WEIR_NCCL_SUCCESS) return weir_nccl_fail(api, NULL, r, "ncclGroupStart for a copy");
  weir_status status = WEIR_OK;
  r = api->ncclSend(from, (size_t)bytes, WEIR_NCCL_UINT8, (int)dst, t->comms[src], t->streams[src]);
  if (r != WEIR_NCCL_SUCCESS)
    status = weir_nccl_fail(api, t->comms[src], r, "ncclSend(%llu bytes, member %u -> %u)",
                            (unsigned long long)bytes, src, dst);
  if (status == WEIR_OK) {
    r = api->ncclRecv(to, (size_t)bytes, WEIR_NCCL_UINT8, (int)src, t->comms[dst],
                      t->streams[dst]);
    if (r != WEIR_NCCL_SUCCESS)
      status = weir_nccl_fail(api, t->comms[dst], r, "ncclRecv(%llu bytes, member %u <- %u)",
                              (unsigned long long)bytes, dst, src);
  }
  r = api->ncclGroupEnd(); /* always: closes the group even after a failed call */
  if (status == WEIR_OK && r != WEIR_NCCL_SUCCESS)
    status = weir_nccl_fail(api, t->comms[dst], r,
                            "ncclGroupEnd for a copy of %llu bytes, member %u -> %u",
                            (unsigned long long)bytes, src, dst);
  return status;
}

static weir_status nccl_copy_async(weir_transport *base, weir_chunk *dst, uint64_t dst_offset,
                                   weir_chunk *src, uint64_t src_offset, uint64_t bytes,
                                   weir_transfer *out) {
  weir_nccl_transport *t = (weir_nccl_transport *)base;
  uint32_t d = weir_nccl_member_of(t, weir_chunk_backend(dst));
  uint32_t s = weir_nccl_member_of(t, weir_chunk_backend(src));
  if (d == t->count || s == t->count) /* a chunk outside the members: staged */
    return weir_transport_copy_async(t->staged, dst, dst_offset, src, src_offset, bytes, out);
  *out = (weir_transfer){.transport = base, .backend = t->backends[d], .token = 0};
  if (d == s) {
    weir_status status = weir_copy(t->backends[d], weir_chunk_buffer(dst), dst_offset,
                                   weir_chunk_buffer(src), src_offset, bytes);
    if (status != WEIR_OK) {
      out->backend = NULL;
      return weir_fail_context(status, "nccl transport: device copy on %s",
                               weir_nccl_backend_spec(t->backends[d]));
    }
    return WEIR_OK;
  }
  weir_status status = p2p(t, d, dst, dst_offset, s, src, src_offset, bytes);
  if (status != WEIR_OK) {
    /* Whatever was queued still completes before the caller reacts. */
    weir_finish(t->backends[s]);
    weir_finish(t->backends[d]);
    out->backend = NULL;
    return status;
  }
  out->token = (uint64_t)s + 1u; /* wait also finishes the sender's stream */
  return WEIR_OK;
}

static weir_status nccl_wait(weir_transport *base, const weir_transfer *transfer) {
  weir_nccl_transport *t = (weir_nccl_transport *)base;
  weir_status status = transfer->backend ? weir_finish(transfer->backend) : WEIR_OK;
  if (transfer->token && transfer->token <= t->count) {
    weir_status sender = weir_finish(t->backends[transfer->token - 1u]);
    if (status == WEIR_OK) status = sender;
  }
  return status;
}

static weir_status nccl_copy(weir_transport *base, weir_chunk *dst, uint64_t dst_offset,
                             weir_chunk *src, uint64_t src_offset, uint64_t bytes) {
  weir_transfer transfer;
  WEIR_TRY(nccl_copy_async(base, dst, dst_offset, src, src_offset, bytes, &transfer));
  return weir_transport_wait(&transfer);
}

static void nccl_destroy(weir_transport *base) {
  weir_nccl_transport *t = (weir_nccl_transport *)base;
  for (uint32_t i = 0; t->comms && i < t->count; ++i)
    if (t->comms[i]) t->api.ncclCommDestroy(t->comms[i]);
  for (uint32_t i = 0; t->backends && i < t->count; ++i)
    weir_backend_close(t->backends[i]); /* drops the transport's reference (NULL allowed) */
  weir_transport_destroy(t->staged);
  free(t->backends);
  free(t->ordinals);
  free(t->streams);
  free(t->comms);
  free(t->send);
  free(t->recv);
  free(t);
}

static const weir_transport_ops nccl_ops = {
    .name = "nccl",
    .copy = nccl_copy,
    .copy_async = nccl_copy_async,
    .wait = nccl_wait,
    .destroy = nccl_destroy,
    .collectives = &weir_nccl_collective_ops,
};

static weir_status arguments_ok(weir_backend *const *backends, uint32_t count) {
  const char *what = "weir_nccl_transport_create";
  if (!backends || count == 0 || count > WEIR_GROUP_MAX_LOCAL)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "%s: %s (count %u). Fix: pass 1 to %u open CUDA backends, one per device "
                     "(e.g. \"cuda:0\" .. \"cuda:3\").",
                     what, backends ? "count is out of range" : "backends is NULL", count,
                     (unsigned)WEIR_GROUP_MAX_LOCAL);
  for (uint32_t i = 0; i < count; ++i)
    if (!backends[i])
      return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                       "%s: backends[%u] of %u is NULL. Fix: open every member's backend "
                       "(\"cuda:N\") first.",
                       what, i, count);
  return WEIR_OK;
}

static weir_status allocate(weir_nccl_transport *t, uint32_t count) {
  t->backends = calloc(count, sizeof *t->backends);
  t->ordinals = calloc(count, sizeof *t->ordinals);
  t->streams = calloc(count, sizeof *t->streams);
  t->comms = calloc(count, sizeof *t->comms);
  t->send = calloc(count, sizeof *t->send);
  t->recv = calloc(count, sizeof *t->recv);
  if (t->backends && t->ordinals && t->streams && t->comms && t->send && t->recv) return WEIR_OK;
  return weir_fail(WEIR_ERR_OUT_OF_MEMORY,
                   "weir_nccl_transport_create: no host memory for the arrays of %u members. "
                   "Fix: free host memory.",
                   count);
}

/* Every member a CUDA backend, each device once. */
static weir_status members_ok(weir_nccl_transport *t, weir_backend *const *backends) {
  const char *what = "weir_nccl_transport_create";
  for (uint32_t i = 0; i < t->count; ++i) {
    WEIR_TRY(weir_nccl_cuda_member(backends[i], what, i, &t->ordinals[i], &t->streams[i]));
    for (uint32_t j = 0; j < i; ++j)
      if (t->ordinals[j] == t->ordinals[i])
        return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                         "%s: members %u (%s) and %u (%s) are both CUDA device %d; NCCL "
                         "needs one member per device. Fix: open each device once "
                         "(\"cuda:0\", \"cuda:1\", ...).",
                         what, j, weir_nccl_backend_spec(backends[j]), i,
                         weir_nccl_backend_spec(backends[i]), t->ordinals[i]);
  }
  for (uint32_t i = 0; i < t->count; ++i) {
    weir_backend_retain(backends[i]);
    t->backends[i] = backends[i];
  }
  return WEIR_OK;
}

/* One communicator per member, rank i on ordinals[i]; checked back. */
static weir_status communicators(weir_nccl_transport *t) {
  const weir_nccl_api *api = &t->api;
  WEIR_TRY(weir_nccl_cuda_enter(t->backends[0]));
  weir_nccl_result r = api->ncclCommInitAll(t->comms, (int)t->count, t->ordinals);
  if (r != WEIR_NCCL_SUCCESS) {
    memset(t->comms, 0, t->count * sizeof *t->comms);
    return weir_nccl_fail(api, NULL, r, "ncclCommInitAll(%u devices, first CUDA device %d)",
                          t->count, t->ordinals[0]);
  }
  for (uint32_t i = 0; i < t->count; ++i) {
    int size = -1, rank = -1;
    r = api->ncclCommCount(t->comms[i], &size);
    if (r == WEIR_NCCL_SUCCESS) r = api->ncclCommUserRank(t->comms[i], &rank);
    if (r != WEIR_NCCL_SUCCESS)
      return weir_nccl_fail(api, t->comms[i], r, "ncclCommCount/UserRank of member %u", i);
    if (size != (int)t->count || rank != (int)i)
      return weir_fail(WEIR_ERR_INTERNAL,
                       "communicator %u says rank %d of %d, "
                       "expected rank %u of %u. Fix: report this (NCCL %d, %s).",
                       i, rank, size, i, t->count, api->version, api->library);
  }
  return WEIR_OK;
}

weir_status weir_nccl_transport_create(weir_backend *const *backends, uint32_t count,
                                       const weir_nccl_options *options, weir_transport **out) {
  if (!out)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "weir_nccl_transport_create: out is NULL. Fix: pass a weir_transport **.");
  *out = NULL;
  WEIR_TRY(arguments_ok(backends, count));
  weir_nccl_transport *t = calloc(1, sizeof *t);
  if (!t)
    return weir_fail(WEIR_ERR_OUT_OF_MEMORY,
                     "weir_nccl_transport_create: no host memory for the transport record. "
                     "Fix: free host memory.");
  t->base.ops = &nccl_ops;
  t->base.state = t;
  t->count = count;
  const char *what = "weir_nccl_transport_create";
  weir_status status = allocate(t, count);
  /* Messages of NCCL and of the stream transport get the call's name. */
  if (status == WEIR_OK &&
      (status = weir_nccl_api_load(weir_nccl_library_name(options ? options->library : NULL),
                                   &t->api)) != WEIR_OK)
    weir_fail_context(status, "%s", what);
  if (status == WEIR_OK) status = members_ok(t, backends);
  if (status == WEIR_OK && (status = weir_stream_transport_create(NULL, &t->staged)) != WEIR_OK)
    weir_fail_context(status, "%s", what);
  if (status == WEIR_OK && (status = communicators(t)) != WEIR_OK)
    weir_fail_context(status, "%s", what);
  if (status != WEIR_OK) {
    nccl_destroy(&t->base);
    return status;
  }
  *out = &t->base;
  return WEIR_OK;
}

int weir_nccl_transport_version(const weir_transport *transport) {
  if (!transport || transport->ops != &nccl_ops) return 0;
  return ((const weir_nccl_transport *)transport)->api.version;
}
