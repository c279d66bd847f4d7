/* Device buffers, the pinned staging buffer, batched uploads and ranged
 * downloads. Every batch is: copy into pinned staging, enqueue async copies
 * on the instance's stream, ONE cuStreamSynchronize. Batches larger than
 * WEIR_CUDA_STAGING_MAX go through staging in chunks (one sync per chunk). */
#include <stdlib.h>
#include <string.h>

#include "backends/cuda/cuda_backend.h"

weir_status weir_cuda_staging_reserve(weir_cuda_instance *inst, uint64_t bytes) {
  if (bytes > WEIR_CUDA_STAGING_MAX) bytes = WEIR_CUDA_STAGING_MAX;
  if (bytes <= inst->staging_bytes) return WEIR_OK;
  size_t grown = inst->staging_bytes ? inst->staging_bytes : WEIR_CUDA_STAGING_MIN;
  while (grown < bytes) grown *= 2;
  if (grown > WEIR_CUDA_STAGING_MAX) grown = WEIR_CUDA_STAGING_MAX;
  void *p = NULL;
  CUresult r = inst->d->pcuMemAllocHost(&p, grown);
  /* Short of pinned memory, the smaller buffer still works: batches then
   * go through it in more chunks. */
  if (r != CUDA_SUCCESS && inst->staging) return WEIR_OK;
  if (r != CUDA_SUCCESS)
    return weir_cuda_fail(inst->d, r,
                          "cuMemAllocHost(%zu bytes) for the pinned staging buffer of device %u",
                          grown, inst->ordinal);
  /* Only called between batches, before their copies: nothing uses the old one. */
  if (inst->staging) inst->d->pcuMemFreeHost(inst->staging);
  inst->staging = p;
  inst->staging_bytes = grown;
  return WEIR_OK;
}

weir_status weir_cuda_allocate(void *self, uint64_t bytes, void **out_buffer) {
  weir_cuda_instance *inst = self;
  WEIR_TRY(weir_cuda_enter(inst));
  weir_cuda_buffer *b = calloc(1, sizeof *b);
  if (!b)
    return weir_fail(WEIR_ERR_OUT_OF_MEMORY,
                     "cuda: allocating the handle of a %llu-byte buffer failed. Fix: free host "
                     "memory",
                     (unsigned long long)bytes);
  CUresult r = inst->d->pcuMemAlloc(&b->ptr, (size_t)bytes);
  if (r != CUDA_SUCCESS) {
    free(b);
    size_t free_bytes = 0, total = 0;
    inst->d->pcuMemGetInfo(&free_bytes, &total);
    return weir_cuda_fail(inst->d, r,
                          "cuMemAlloc(%llu bytes) on device %u (%zu of %zu bytes free)",
                          (unsigned long long)bytes, inst->ordinal, free_bytes, total);
  }
  b->bytes = bytes;
  *out_buffer = b;
  return WEIR_OK;
}

void weir_cuda_release(void *self, void *buffer) {
  weir_cuda_instance *inst = self;
  weir_cuda_buffer *b = buffer;
  if (!b) return;
  /* cuMemFree waits for work using the memory; a failure here (a dead
   * context) leaves nothing the caller could do, so it is not reported. */
  if (!b->external && weir_cuda_enter(inst) == WEIR_OK) inst->d->pcuMemFree(b->ptr);
  free(b);
}

/* Uploads (offsets honoured) through staging; `item`/`done` walk the batch,
 * so an item larger than the staging buffer spans chunks. */
weir_status weir_cuda_upload_many(void *self, const weir_native_upload *items, size_t count) {
  weir_cuda_instance *inst = self;
  uint64_t total = 0;
  for (size_t i = 0; i < count; ++i) total += items[i].bytes;
  if (total == 0) return WEIR_OK;
  WEIR_TRY(weir_cuda_enter(inst));
  WEIR_TRY(weir_cuda_staging_reserve(inst, total));
  size_t item = 0;
  uint64_t done = 0; /* bytes of items[item] already enqueued */
  while (item < count) {
    size_t used = 0;
    while (item < count && used < inst->staging_bytes) {
      const weir_native_upload *u = &items[item];
      uint64_t piece = u->bytes - done;
      if (piece > inst->staging_bytes - used) piece = inst->staging_bytes - used;
      if (piece) {
        memcpy(inst->staging + used, (const unsigned char *)u->data + done, (size_t)piece);
        weir_cuda_buffer *b = u->buffer;
        WEIR_CUDA_TRY(inst->d,
                      inst->d->pcuMemcpyHtoDAsync(b->ptr + u->offset + done, inst->staging + used,
                                                  (size_t)piece, inst->stream),
                      "cuMemcpyHtoDAsync(%llu bytes at offset %llu of a %llu-byte buffer, upload "
                      "%zu of %zu)",
                      (unsigned long long)piece, (unsigned long long)(u->offset + done),
                      (unsigned long long)b->bytes, item, count);
      }
      used += (size_t)piece;
      done += piece;
      if (done == u->bytes) {
        item++;
        done = 0;
      }
    }
    WEIR_TRY(weir_cuda_sync(inst, "a batch of uploads"));
  }
  return WEIR_OK;
}

/* Reads ranges through staging: enqueue a staging-full of DtoH copies behind
 * whatever the stream already holds (a sequence's kernels), sync, copy out. */
weir_status weir_cuda_read_ranges(weir_cuda_instance *inst, const weir_native_range *ranges,
                                  size_t count, const char *what) {
  uint64_t total = 0;
  for (size_t i = 0; i < count; ++i) total += ranges[i].bytes;
  if (total == 0) return weir_cuda_sync(inst, what);
  WEIR_TRY(weir_cuda_staging_reserve(inst, total));
  size_t item = 0, first = 0;
  uint64_t done = 0, first_done = 0;
  while (item < count) {
    size_t used = 0;
    first = item;
    first_done = done;
    while (item < count && used < inst->staging_bytes) {
      const weir_native_range *r = &ranges[item];
      uint64_t piece = r->bytes - done;
      if (piece > inst->staging_bytes - used) piece = inst->staging_bytes - used;
      if (piece) {
        const weir_cuda_buffer *b = r->buffer;
        WEIR_CUDA_TRY(inst->d,
                      inst->d->pcuMemcpyDtoHAsync(inst->staging + used, b->ptr + r->offset + done,
                                                  (size_t)piece, inst->stream),
                      "cuMemcpyDtoHAsync(%llu bytes at offset %llu of a %llu-byte buffer, range "
                      "%zu of %zu, %s)",
                      (unsigned long long)piece, (unsigned long long)(r->offset + done),
                      (unsigned long long)b->bytes, item, count, what);
      }
      used += (size_t)piece;
      done += piece;
      if (done == r->bytes) {
        item++;
        done = 0;
      }
    }
    WEIR_TRY(weir_cuda_sync(inst, what));
    /* Copy this chunk out: walk the same items again. */
    size_t at = 0;
    for (size_t i = first; i < count && at < used; ++i) {
      uint64_t skip = i == first ? first_done : 0;
      uint64_t piece = ranges[i].bytes - skip;
      if (piece > used - at) piece = used - at;
      memcpy((unsigned char *)ranges[i].output + skip, inst->staging + at, (size_t)piece);
      at += (size_t)piece;
    }
  }
  return WEIR_OK;
}

weir_status weir_cuda_download_ranges_into(void *self, const weir_native_range *ranges,
                                           size_t count) {
  weir_cuda_instance *inst = self;
  WEIR_TRY(weir_cuda_enter(inst));
  return weir_cuda_read_ranges(inst, ranges, count, "a batch of ranged downloads");
}

weir_status weir_cuda_copy(void *self, void *dst, uint64_t dst_offset, void *src,
                           uint64_t src_offset, uint64_t bytes) {
  weir_cuda_instance *inst = self;
  const weir_cuda_buffer *d = dst, *s = src;
  if (bytes == 0) return WEIR_OK;
  WEIR_TRY(weir_cuda_enter(inst));
  WEIR_CUDA_TRY(inst->d,
                inst->d->pcuMemcpyDtoDAsync(d->ptr + dst_offset, s->ptr + src_offset, (size_t)bytes,
                                            inst->stream),
                "cuMemcpyDtoDAsync(%llu bytes, from offset %llu of a %llu-byte buffer to offset "
                "%llu of a %llu-byte buffer)",
                (unsigned long long)bytes, (unsigned long long)src_offset,
                (unsigned long long)s->bytes, (unsigned long long)dst_offset,
                (unsigned long long)d->bytes);
  return WEIR_OK;
}

weir_status weir_cuda_export_pointer(void *self, void *buffer, void **out_pointer) {
  /* Copies and dispatches are queued on our non-blocking stream: a consumer
   * (DLPack) reading the pointer on another stream would race with them, so
   * the stream's pending work is finished before the pointer is handed out. */
  WEIR_TRY(weir_cuda_finish(self));
  const weir_cuda_buffer *b = buffer;
  *out_pointer = (void *)(uintptr_t)b->ptr;
  return WEIR_OK;
}

weir_status weir_cuda_import_external(void *self, void *pointer, uint64_t bytes,
                                      void **out_buffer) {
  (void)self;
  if (!pointer)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "cuda: import_external of a NULL device pointer (%llu bytes). Fix: pass a "
                     "CUdeviceptr of this device's context",
                     (unsigned long long)bytes);
  weir_cuda_buffer *b = calloc(1, sizeof *b);
  if (!b)
    return weir_fail(WEIR_ERR_OUT_OF_MEMORY,
                     "cuda: allocating the handle of an imported buffer failed. Fix: free host "
                     "memory");
  b->ptr = (CUdeviceptr)(uintptr_t)pointer;
  b->bytes = bytes;
  b->external = 1;
  *out_buffer = b;
  return WEIR_OK;
}
