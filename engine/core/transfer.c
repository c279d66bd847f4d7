/* Uploads, ranged downloads and device copies: validation and the engine
 * defaults for backends that lack upload_at_many or copy. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/core/internal.h"

/* Resolves uploads into native ones (scratch), checking every item first so
 * that a bad item leaves every buffer untouched. */
static weir_status resolve_uploads(weir_backend *b, const weir_upload_item *items, size_t count,
                                   int allow_offsets, const char *what) {
  if (!b || (count && !items))
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT, "%s: backend or items is NULL. Fix: pass both.",
                     what);
  WEIR_TRY(weir_grow((void **)&b->scratch.uploads, &b->scratch.uploads_cap, count,
                     sizeof *b->scratch.uploads));
  for (size_t i = 0; i < count; ++i) {
    weir_slot *s;
    WEIR_TRY(weir_resolve_item(b, items[i].buffer, what, "item", i, &s));
    if (!allow_offsets && items[i].offset != 0)
      return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                       "%s item %zu: offset %llu given, but this call writes from offset 0. Fix: "
                       "use weir_upload_at_many for uploads at byte offsets.",
                       what, i, (unsigned long long)items[i].offset);
    if (items[i].bytes && !items[i].data)
      return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                       "%s item %zu: data is NULL for %llu bytes. Fix: pass the source bytes.",
                       what, i, (unsigned long long)items[i].bytes);
    WEIR_TRY(weir_check_item_range(s, items[i].offset, items[i].bytes, what, "item", i));
    b->scratch.uploads[i] = (weir_native_upload){s->native, items[i].offset, items[i].data,
                                                 items[i].bytes};
  }
  return WEIR_OK;
}

static void count_upload(weir_backend *b, const weir_upload_item *items, size_t count) {
  b->stats.uploads++;
  b->stats.host_syncs++;
  for (size_t i = 0; i < count; ++i) b->stats.bytes_uploaded += items[i].bytes;
}

weir_status weir_upload_many(weir_backend *b, const weir_upload_item *items, size_t count) {
  WEIR_TRY(resolve_uploads(b, items, count, 0, "weir_upload_many"));
  if (count == 0) return WEIR_OK;
  WEIR_TRY(b->ops->upload_many(b->self, b->scratch.uploads, count));
  count_upload(b, items, count);
  return WEIR_OK;
}

weir_status weir_upload(weir_backend *b, weir_buffer buffer, const void *data, uint64_t bytes) {
  weir_upload_item item = {buffer, 0, data, bytes};
  WEIR_TRY(resolve_uploads(b, &item, 1, 0, "weir_upload"));
  WEIR_TRY(b->ops->upload_many(b->self, b->scratch.uploads, 1));
  count_upload(b, &item, 1);
  return WEIR_OK;
}

weir_status weir_upload_at_many(weir_backend *b, const weir_upload_item *items, size_t count) {
  WEIR_TRY(resolve_uploads(b, items, count, 1, "weir_upload_at_many"));
  if (count == 0) return WEIR_OK;
  if (b->ops->upload_at_many) {
    WEIR_TRY(b->ops->upload_at_many(b->self, b->scratch.uploads, count));
  } else {
    /* Engine default: the backend can only write from offset 0. */
    for (size_t i = 0; i < count; ++i)
      if (items[i].offset != 0)
        return weir_fail(WEIR_ERR_UNSUPPORTED,
                         "weir_upload_at_many item %zu: offset %llu, but backend '%s' implements "
                         "no ranged upload (upload_at_many is NULL in its table), so only offset "
                         "0 is possible. Fix: implement upload_at_many in the backend, or upload "
                         "whole buffers from offset 0.",
                         i, (unsigned long long)items[i].offset, b->provider->id);
    WEIR_TRY(b->ops->upload_many(b->self, b->scratch.uploads, count));
  }
  count_upload(b, items, count);
  return WEIR_OK;
}

/* ---- downloads ------------------------------------------------------------ */

weir_status weir_scratch_ranges(weir_backend *b, const weir_range *ranges, size_t count,
                                void *const *outputs, const char *what,
                                weir_native_range **out) {
  WEIR_TRY(weir_grow((void **)&b->scratch.ranges, &b->scratch.ranges_cap, count,
                     sizeof *b->scratch.ranges));
  for (size_t i = 0; i < count; ++i) {
    weir_slot *s;
    WEIR_TRY(weir_resolve_item(b, ranges[i].buffer, what, "range", i, &s));
    WEIR_TRY(weir_check_item_range(s, ranges[i].offset, ranges[i].bytes, what, "range", i));
    if (!outputs[i] && ranges[i].bytes)
      return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                       "%s range %zu: its output is NULL for %llu bytes. Fix: pass caller-owned "
                       "memory of at least the range's length.",
                       what, i, (unsigned long long)ranges[i].bytes);
    b->scratch.ranges[i] =
        (weir_native_range){s->native, ranges[i].offset, ranges[i].bytes, outputs[i]};
  }
  *out = b->scratch.ranges;
  return WEIR_OK;
}

weir_status weir_backend_download_native(weir_backend *b, const weir_native_range *ranges,
                                         size_t count) {
  WEIR_TRY(b->ops->download_ranges_into(b->self, ranges, count));
  for (size_t i = 0; i < count; ++i) b->stats.bytes_downloaded += ranges[i].bytes;
  return WEIR_OK;
}

weir_status weir_download_ranges_into(weir_backend *b, const weir_range *ranges,
                                      size_t range_count, void *const *outputs,
                                      size_t output_count) {
  if (!b || (range_count && (!ranges || !outputs)))
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "weir_download_ranges_into: backend, ranges or outputs is NULL. Fix: pass "
                     "all three.");
  if (range_count != output_count)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "weir_download_ranges_into: %zu ranges but %zu outputs (expected one output "
                     "per range). Fix: pass exactly one output pointer per range.",
                     range_count, output_count);
  weir_native_range *native;
  WEIR_TRY(weir_scratch_ranges(b, ranges, range_count, outputs, "weir_download_ranges_into",
                               &native));
  if (range_count == 0) return WEIR_OK;
  WEIR_TRY(weir_backend_download_native(b, native, range_count));
  b->stats.host_syncs++;
  return WEIR_OK;
}

weir_status weir_download_range_into(weir_backend *b, weir_buffer buffer, uint64_t offset,
                                     uint64_t bytes, void *dst) {
  weir_range r = {buffer, offset, bytes};
  void *outputs[1] = {dst};
  return weir_download_ranges_into(b, &r, 1, outputs, 1);
}

weir_status weir_download_into(weir_backend *b, weir_buffer buffer, void *dst,
                               uint64_t capacity) {
  uint64_t size;
  WEIR_TRY(weir_buffer_size(b, buffer, &size));
  if (capacity < size)
    return weir_fail(WEIR_ERR_OUT_OF_RANGE,
                     "weir_download_into: the buffer holds %llu bytes but the destination has "
                     "room for %llu. Fix: pass a destination of at least weir_buffer_size "
                     "bytes, or use weir_download_range_into for a part.",
                     (unsigned long long)size, (unsigned long long)capacity);
  return weir_download_range_into(b, buffer, 0, size, dst);
}

weir_status weir_download_range(weir_backend *b, weir_buffer buffer, uint64_t offset,
                                uint64_t bytes, void **out_data) {
  if (!out_data)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "weir_download_range: out_data is NULL. Fix: pass a void* to receive the "
                     "malloc()ed bytes.");
  *out_data = NULL;
  weir_slot *s;
  WEIR_TRY(weir_resolve(b, buffer, "weir_download_range", &s));
  WEIR_TRY(weir_check_range(s, offset, bytes, "weir_download_range"));
  void *data = malloc(bytes ? bytes : 1);
  if (!data)
    return weir_fail(WEIR_ERR_OUT_OF_MEMORY,
                     "weir_download_range: no host memory for %llu bytes. Fix: download in "
                     "smaller ranges with weir_download_range_into.",
                     (unsigned long long)bytes);
  weir_status st = weir_download_range_into(b, buffer, offset, bytes, data);
  if (st != WEIR_OK) {
    free(data);
    return st;
  }
  *out_data = data;
  return WEIR_OK;
}

weir_status weir_download(weir_backend *b, weir_buffer buffer, void **out_data,
                          uint64_t *out_bytes) {
  uint64_t size;
  if (out_data) *out_data = NULL;
  WEIR_TRY(weir_buffer_size(b, buffer, &size));
  WEIR_TRY(weir_download_range(b, buffer, 0, size, out_data));
  if (out_bytes) *out_bytes = size;
  return WEIR_OK;
}

/* ---- device copies --------------------------------------------------------- */

#define WEIR_COPY_STAGING_BYTES (4u << 20)

/* Engine default for backends without copy: staged through host memory in
 * bounded pieces (a download and an upload each: two synchronizations). */
static weir_status copy_through_host(weir_backend *b, void *dst, uint64_t dst_offset, void *src,
                                     uint64_t src_offset, uint64_t bytes) {
  if (!b->ops->upload_at_many && (dst_offset != 0 || bytes > WEIR_COPY_STAGING_BYTES))
    return weir_fail(WEIR_ERR_UNSUPPORTED,
                     "weir_copy: backend '%s' has no device copy and no ranged upload, so only a "
                     "copy of at most %u bytes to offset 0 can be staged (asked: %llu bytes to "
                     "offset %llu). Fix: implement copy or upload_at_many in the backend.",
                     b->provider->id, WEIR_COPY_STAGING_BYTES, (unsigned long long)bytes,
                     (unsigned long long)dst_offset);
  size_t piece = bytes < WEIR_COPY_STAGING_BYTES ? (size_t)bytes : WEIR_COPY_STAGING_BYTES;
  void *staging = malloc(piece);
  if (!staging)
    return weir_fail(WEIR_ERR_OUT_OF_MEMORY,
                     "weir_copy: no host memory for a %zu-byte staging piece (backend '%s' has no "
                     "device copy). Fix: free host memory.",
                     piece, b->provider->id);
  weir_status st = WEIR_OK;
  for (uint64_t done = 0; st == WEIR_OK && done < bytes; done += piece) {
    uint64_t n = bytes - done < piece ? bytes - done : piece;
    weir_native_range r = {src, src_offset + done, n, staging};
    weir_native_upload u = {dst, dst_offset + done, staging, n};
    st = b->ops->download_ranges_into(b->self, &r, 1);
    if (st == WEIR_OK)
      st = b->ops->upload_at_many ? b->ops->upload_at_many(b->self, &u, 1)
                                  : b->ops->upload_many(b->self, &u, 1);
    b->stats.host_syncs += 2;
  }
  free(staging);
  return st;
}

weir_status weir_copy(weir_backend *b, weir_buffer dst, uint64_t dst_offset, weir_buffer src,
                      uint64_t src_offset, uint64_t bytes) {
  weir_slot *d, *s;
  WEIR_TRY(weir_resolve(b, dst, "weir_copy destination", &d));
  WEIR_TRY(weir_resolve(b, src, "weir_copy source", &s));
  WEIR_TRY(weir_check_range(d, dst_offset, bytes, "weir_copy destination"));
  WEIR_TRY(weir_check_range(s, src_offset, bytes, "weir_copy source"));
  if (bytes == 0) return WEIR_OK;
  if (d == s && dst_offset < src_offset + bytes && src_offset < dst_offset + bytes)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "weir_copy: source [%llu, +%llu) and destination [%llu, +%llu) overlap in "
                     "the same buffer. Fix: copy through a second buffer.",
                     (unsigned long long)src_offset, (unsigned long long)bytes,
                     (unsigned long long)dst_offset, (unsigned long long)bytes);
  if (b->ops->copy) return b->ops->copy(b->self, d->native, dst_offset, s->native, src_offset, bytes);
  return copy_through_host(b, d->native, dst_offset, s->native, src_offset, bytes);
}

weir_status weir_finish(weir_backend *b) {
  if (!b)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT, "weir_finish: backend is NULL. Fix: pass one.");
  if (!b->ops->finish) return WEIR_OK;
  b->stats.host_syncs++;
  return b->ops->finish(b->self);
}
