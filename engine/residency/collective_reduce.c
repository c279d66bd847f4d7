/* Allreduce on the host, for groups whose members all live in this process:
 * no backend has a reduction program for every dtype, so the bytes come to
 * the host. Per piece that fits the scratch buffer: one read-back per member
 * (weir_download_range_into, a host synchronization each), the combine on the
 * host in rank order, one upload per member. Host memory stays bounded by the
 * scratch buffer whatever the count. */
#include <stdlib.h>

#include "engine/residency/collective.h"

#define COMBINE_LOOP(T, EXPR)                                                      \
  do {                                                                             \
    T *a = acc;                                                                    \
    const T *b = in;                                                               \
    for (uint64_t i = 0; i < n; ++i) a[i] = (EXPR);                                \
  } while (0)

#define COMBINE_TYPE(T)                                                                 \
  do {                                                                                  \
    if (op == WEIR_REDUCE_SUM) COMBINE_LOOP(T, (T)(a[i] + b[i]));                       \
    else if (op == WEIR_REDUCE_MIN) COMBINE_LOOP(T, b[i] < a[i] ? b[i] : a[i]);         \
    else COMBINE_LOOP(T, b[i] > a[i] ? b[i] : a[i]);                                    \
  } while (0)

void weir_coll_combine(void *acc, const void *in, uint64_t n, weir_dtype dtype,
                       weir_reduce_op op) {
  switch (dtype) {
  case WEIR_DTYPE_U32: COMBINE_TYPE(uint32_t); break;
  case WEIR_DTYPE_U64: COMBINE_TYPE(uint64_t); break;
  case WEIR_DTYPE_F32: COMBINE_TYPE(float); break;
  case WEIR_DTYPE_F64: COMBINE_TYPE(double); break;
  }
}

static weir_status read_piece(const weir_collective *c, uint32_t r, uint64_t at, uint64_t bytes,
                              void *into) {
  weir_chunk *chunk = c->send[r].chunk;
  weir_status status = weir_download_range_into(weir_chunk_backend(chunk), weir_chunk_buffer(chunk),
                                                c->send[r].offset + at, bytes, into);
  if (status != WEIR_OK)
    return weir_fail_context(status, "weir_allreduce: reading member %u's send piece at +%llu",
                             r, (unsigned long long)at);
  return WEIR_OK;
}

static weir_status write_piece(const weir_collective *c, uint32_t r, uint64_t at, uint64_t bytes,
                               const void *from) {
  weir_chunk *chunk = c->recv[r].chunk;
  weir_upload_item item = {.buffer = weir_chunk_buffer(chunk), .offset = c->recv[r].offset + at,
                           .data = from, .bytes = bytes};
  weir_status status = weir_upload_at_many(weir_chunk_backend(chunk), &item, 1);
  if (status != WEIR_OK)
    return weir_fail_context(status, "weir_allreduce: writing member %u's recv piece at +%llu",
                             r, (unsigned long long)at);
  return WEIR_OK;
}

weir_status weir_coll_host_allreduce(weir_group *group, const weir_collective *call,
                                     unsigned char *scratch, uint64_t scratch_bytes) {
  uint32_t esize = weir_dtype_bytes(call->dtype), size = group->layout.size;
  /* Two halves (accumulator, incoming), each a multiple of 8 bytes so that
   * both start aligned for any dtype. */
  uint64_t half = scratch_bytes / 2u / 8u * 8u, per_piece = half / esize;
  if (per_piece == 0)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "weir_allreduce: a %llu-byte scratch buffer holds no two %u-byte "
                     "elements. Fix: give the transport at least 16 bytes of staging.",
                     (unsigned long long)scratch_bytes, esize);
  unsigned char *acc = scratch, *in = scratch + half;
  for (uint64_t first = 0; first < call->count; first += per_piece) {
    uint64_t n = call->count - first < per_piece ? call->count - first : per_piece;
    uint64_t at = first * esize, bytes = n * esize;
    WEIR_TRY(read_piece(call, 0, at, bytes, acc));
    for (uint32_t r = 1; r < size; ++r) {
      WEIR_TRY(read_piece(call, r, at, bytes, in));
      weir_coll_combine(acc, in, n, call->dtype, call->op);
    }
    for (uint32_t r = 0; r < size; ++r) WEIR_TRY(write_piece(call, r, at, bytes, acc));
  }
  return WEIR_OK;
}

#define GENERIC_SCRATCH_BYTES (1u << 20)

weir_status weir_coll_generic_allreduce(weir_transport *self, weir_group *group,
                                        const weir_collective *call) {
  (void)self;
  uint64_t data = call->count * weir_dtype_bytes(call->dtype); /* validated: no overflow */
  uint64_t bytes = data < GENERIC_SCRATCH_BYTES / 2u ? data * 2u : GENERIC_SCRATCH_BYTES;
  if (bytes < 16) bytes = 16;
  unsigned char *scratch = malloc((size_t)bytes);
  if (!scratch)
    return weir_fail(WEIR_ERR_OUT_OF_MEMORY,
                     "weir_allreduce: no host memory for a %llu-byte reduction buffer. Fix: "
                     "free host memory.",
                     (unsigned long long)bytes);
  weir_status status = weir_coll_host_allreduce(group, call, scratch, bytes);
  free(scratch);
  return status;
}
