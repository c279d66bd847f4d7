/* The stream transport: weir_copy within one backend (stays on the device),
 * a bounded host staging buffer between backends. Staging moves at most
 * staging_bytes per piece, so a copy of any size needs a fixed amount of host
 * memory and no per-copy allocation. */
#include <stdlib.h>

#include "engine/residency/collective.h"

typedef struct stream_transport {
  weir_transport base; /* first: the weir_transport * is this struct */
  unsigned char *staging;
  uint64_t staging_bytes;
} stream_transport;

static weir_status staged_copy(stream_transport *self, weir_chunk *dst, uint64_t dst_offset,
                               weir_chunk *src, uint64_t src_offset, uint64_t bytes) {
  weir_backend *from = weir_chunk_backend(src), *to = weir_chunk_backend(dst);
  for (uint64_t done = 0; done < bytes;) {
    uint64_t piece = bytes - done < self->staging_bytes ? bytes - done : self->staging_bytes;
    weir_status status = weir_download_range_into(from, weir_chunk_buffer(src),
                                                  src_offset + done, piece, self->staging);
    if (status == WEIR_OK) {
      /* upload_at_many consumes `data` before it returns, so the staging
       * buffer is free for the next piece. */
      weir_upload_item item = {.buffer = weir_chunk_buffer(dst), .offset = dst_offset + done,
                          .data = self->staging, .bytes = piece};
      status = weir_upload_at_many(to, &item, 1);
    }
    if (status != WEIR_OK)
      return weir_fail_context(status,
                               "stream transport: staging %s -> %s, piece at +%llu of %llu "
                               "bytes",
                               weir_backend_id(from), weir_backend_id(to),
                               (unsigned long long)done, (unsigned long long)bytes);
    done += piece;
  }
  return WEIR_OK;
}

static weir_status device_copy(weir_chunk *dst, uint64_t dst_offset, weir_chunk *src,
                               uint64_t src_offset, uint64_t bytes) {
  weir_status status = weir_copy(weir_chunk_backend(dst), weir_chunk_buffer(dst), dst_offset,
                                 weir_chunk_buffer(src), src_offset, bytes);
  if (status != WEIR_OK) return weir_fail_context(status, "stream transport: device copy");
  return WEIR_OK;
}

static weir_status stream_copy(weir_transport *base, weir_chunk *dst, uint64_t dst_offset,
                               weir_chunk *src, uint64_t src_offset, uint64_t bytes) {
  stream_transport *self = (stream_transport *)base;
  weir_backend *backend = weir_chunk_backend(dst);
  if (backend != weir_chunk_backend(src))
    return staged_copy(self, dst, dst_offset, src, src_offset, bytes);
  WEIR_TRY(device_copy(dst, dst_offset, src, src_offset, bytes));
  return weir_finish(backend);
}

static weir_status stream_copy_async(weir_transport *base, weir_chunk *dst, uint64_t dst_offset,
                                     weir_chunk *src, uint64_t src_offset, uint64_t bytes,
                                     weir_transfer *out) {
  stream_transport *self = (stream_transport *)base;
  weir_backend *backend = weir_chunk_backend(dst);
  *out = (weir_transfer){.transport = base, .backend = NULL, .token = 0};
  if (backend != weir_chunk_backend(src))
    return staged_copy(self, dst, dst_offset, src, src_offset, bytes); /* done on return */
  WEIR_TRY(device_copy(dst, dst_offset, src, src_offset, bytes));
  out->backend = backend; /* the copy is enqueued: wait finishes that backend */
  return WEIR_OK;
}

static weir_status stream_wait(weir_transport *base, const weir_transfer *transfer) {
  (void)base;
  return transfer->backend ? weir_finish(transfer->backend) : WEIR_OK;
}

static void stream_destroy(weir_transport *base) {
  stream_transport *self = (stream_transport *)base;
  free(self->staging);
  free(self);
}

/* Allreduce reduces on the host in the staging buffer (no allocation per
 * call); the other collectives are weir's generic ones over copy_async. */
static weir_status stream_allreduce(weir_transport *base, weir_group *group,
                                    const weir_collective *call) {
  stream_transport *self = (stream_transport *)base;
  return weir_coll_host_allreduce(group, call, self->staging, self->staging_bytes);
}

static const weir_collective_ops stream_collectives = {
    .allreduce = stream_allreduce,
};

static const weir_transport_ops stream_ops = {
    .name = "stream",
    .copy = stream_copy,
    .copy_async = stream_copy_async,
    .wait = stream_wait,
    .destroy = stream_destroy,
    .collectives = &stream_collectives,
};

weir_status weir_stream_transport_create(const weir_stream_transport_options *options,
                                         weir_transport **out) {
  if (!out)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "weir_stream_transport_create: out is NULL. Fix: pass a weir_transport **.");
  *out = NULL;
  uint64_t staging = options && options->staging_bytes ? options->staging_bytes
                                                       : WEIR_STREAM_TRANSPORT_DEFAULT_STAGING_BYTES;
  stream_transport *self = calloc(1, sizeof *self);
  if (self && staging <= SIZE_MAX) self->staging = malloc((size_t)staging);
  if (!self || !self->staging) {
    free(self);
    return weir_fail(WEIR_ERR_OUT_OF_MEMORY,
                     "weir_stream_transport_create: could not allocate a %llu-byte host "
                     "staging buffer. Fix: pass a smaller staging_bytes (default %u).",
                     (unsigned long long)staging, WEIR_STREAM_TRANSPORT_DEFAULT_STAGING_BYTES);
  }
  self->base.ops = &stream_ops;
  self->base.state = self;
  self->staging_bytes = staging;
  *out = &self->base;
  return WEIR_OK;
}
