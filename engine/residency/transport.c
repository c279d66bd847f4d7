/* The transport seam: argument checks shared by every implementation, then a
 * call through its ops table. Implementations (stream here; MPI, NCCL later)
 * only move bytes. */
#include "engine/residency/checked.h"
#include "weir/residency.h"

static int same_buffer(const weir_chunk *a, const weir_chunk *b) {
  weir_buffer x = weir_chunk_buffer(a), y = weir_chunk_buffer(b);
  return weir_chunk_backend(a) == weir_chunk_backend(b) && x.slot == y.slot &&
         x.generation == y.generation;
}

static weir_status range_ok(const char *op, const char *which, const weir_chunk *chunk,
                            uint64_t offset, uint64_t bytes) {
  uint64_t end = 0, size = weir_chunk_bytes(chunk);
  if (weir_checked_add(offset, bytes, &end) || end > size)
    return weir_fail(WEIR_ERR_OUT_OF_RANGE,
                     "%s: %s range [%llu, %llu + %llu) is past the end of its %llu-byte chunk. "
                     "Fix: copy within the chunk.",
                     op, which, (unsigned long long)offset, (unsigned long long)offset,
                     (unsigned long long)bytes, (unsigned long long)size);
  return WEIR_OK;
}

static weir_status copy_args_ok(const char *op, weir_transport *transport, weir_chunk *dst,
                                uint64_t dst_offset, weir_chunk *src, uint64_t src_offset,
                                uint64_t bytes) {
  if (!transport || !transport->ops || !transport->ops->copy || !transport->ops->copy_async ||
      !transport->ops->wait)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "%s: transport is NULL or lacks copy/copy_async/wait. Fix: create one "
                     "with weir_stream_transport_create or fill every op.",
                     op);
  if (!dst || !src)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT, "%s: %s chunk is NULL. Fix: pass both chunks.",
                     op, dst ? "source" : "destination");
  WEIR_TRY(range_ok(op, "destination", dst, dst_offset, bytes));
  WEIR_TRY(range_ok(op, "source", src, src_offset, bytes));
  if (bytes != 0 && same_buffer(dst, src) && dst_offset < src_offset + bytes &&
      src_offset < dst_offset + bytes)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "%s: source [%llu, +%llu) and destination [%llu, +%llu) overlap in one "
                     "buffer. Fix: copy through a temporary chunk.",
                     op, (unsigned long long)src_offset, (unsigned long long)bytes,
                     (unsigned long long)dst_offset, (unsigned long long)bytes);
  return WEIR_OK;
}

weir_status weir_transport_copy(weir_transport *transport, weir_chunk *dst, uint64_t dst_offset,
                                weir_chunk *src, uint64_t src_offset, uint64_t bytes) {
  WEIR_TRY(copy_args_ok("weir_transport_copy", transport, dst, dst_offset, src, src_offset,
                        bytes));
  if (bytes == 0) return WEIR_OK;
  return transport->ops->copy(transport, dst, dst_offset, src, src_offset, bytes);
}

weir_status weir_transport_copy_async(weir_transport *transport, weir_chunk *dst,
                                      uint64_t dst_offset, weir_chunk *src, uint64_t src_offset,
                                      uint64_t bytes, weir_transfer *out) {
  if (!out)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "weir_transport_copy_async: out is NULL. Fix: pass a weir_transfer *.");
  *out = (weir_transfer){.transport = transport, .backend = NULL, .token = 0};
  WEIR_TRY(copy_args_ok("weir_transport_copy_async", transport, dst, dst_offset, src,
                        src_offset, bytes));
  if (bytes == 0) return WEIR_OK;
  return transport->ops->copy_async(transport, dst, dst_offset, src, src_offset, bytes, out);
}

weir_status weir_transport_wait(const weir_transfer *transfer) {
  if (!transfer)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "weir_transport_wait: transfer is NULL. Fix: pass the weir_transfer "
                     "filled by weir_transport_copy_async.");
  if (!transfer->transport || !transfer->transport->ops) {
    if (!transfer->backend) return WEIR_OK; /* nothing was started */
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "weir_transport_wait: the transfer names no transport. Fix: wait on the "
                     "weir_transfer filled by weir_transport_copy_async.");
  }
  return transfer->transport->ops->wait(transfer->transport, transfer);
}

void weir_transport_destroy(weir_transport *transport) {
  if (transport && transport->ops && transport->ops->destroy) transport->ops->destroy(transport);
}

const char *weir_transport_name(const weir_transport *transport) {
  return transport && transport->ops && transport->ops->name ? transport->ops->name : "";
}
