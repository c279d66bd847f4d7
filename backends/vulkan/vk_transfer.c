/* Uploads, ranged downloads, device copies and finish. Direct mode reads and
 * writes the mapped device memory in place; staged mode goes through the one
 * persistent staging buffer with one submission per call. */
#include <string.h>

#include "backends/vulkan/vk_internal.h"

static void copy_region(weir_vk *vk, VkBuffer src, uint64_t src_offset, VkBuffer dst,
                        uint64_t dst_offset, uint64_t bytes) {
  VkBufferCopy region = {.srcOffset = src_offset, .dstOffset = dst_offset, .size = bytes};
  vk->vk.vkCmdCopyBuffer(vk->cmd, src, dst, 1, &region);
}

weir_status weir_vk_upload_at_many(void *self, const weir_native_upload *items, size_t count) {
  weir_vk *vk = self;
  if (vk->direct) {
    /* Copies recorded earlier may read or write these buffers: run them first. */
    WEIR_TRY(weir_vk_flush(vk));
    for (size_t i = 0; i < count; ++i) {
      weir_vk_buffer *buf = items[i].buffer;
      if (items[i].bytes) memcpy(buf->mapped + items[i].offset, items[i].data, items[i].bytes);
    }
    return WEIR_OK;
  }
  uint64_t total = 0;
  for (size_t i = 0; i < count; ++i) total += items[i].bytes;
  if (total == 0) return WEIR_OK;
  WEIR_TRY(weir_vk_staging_reserve(vk, total));
  WEIR_TRY(weir_vk_begin(vk));
  weir_vk_barrier_to(vk, vk->cmd, WEIR_VK_LAST_TRANSFER);
  uint64_t at = 0;
  for (size_t i = 0; i < count; ++i) {
    if (!items[i].bytes) continue;
    weir_vk_buffer *buf = items[i].buffer;
    memcpy(vk->staging.mapped + at, items[i].data, items[i].bytes);
    copy_region(vk, vk->staging.buffer, at, buf->buffer, items[i].offset, items[i].bytes);
    at += items[i].bytes;
  }
  return weir_vk_submit_wait(vk);
}

static uint64_t ranges_bytes(const weir_native_range *ranges, size_t count) {
  uint64_t total = 0;
  for (size_t i = 0; i < count; ++i) total += ranges[i].bytes;
  return total;
}

weir_status weir_vk_ranges_prepare(weir_vk *vk, const weir_native_range *ranges, size_t count) {
  return vk->direct ? WEIR_OK : weir_vk_staging_reserve(vk, ranges_bytes(ranges, count));
}

void weir_vk_ranges_record(weir_vk *vk, const weir_native_range *ranges, size_t count) {
  if (vk->direct || ranges_bytes(ranges, count) == 0) return;
  weir_vk_barrier_to(vk, vk->cmd, WEIR_VK_LAST_TRANSFER);
  uint64_t at = 0;
  for (size_t i = 0; i < count; ++i) {
    if (!ranges[i].bytes) continue;
    const weir_vk_buffer *buf = ranges[i].buffer;
    copy_region(vk, buf->buffer, ranges[i].offset, vk->staging.buffer, at, ranges[i].bytes);
    at += ranges[i].bytes;
  }
}

void weir_vk_ranges_finish(weir_vk *vk, const weir_native_range *ranges, size_t count) {
  uint64_t at = 0;
  for (size_t i = 0; i < count; ++i) {
    if (!ranges[i].bytes) continue;
    const weir_vk_buffer *buf = ranges[i].buffer;
    const uint8_t *src = vk->direct ? buf->mapped + ranges[i].offset : vk->staging.mapped + at;
    memcpy(ranges[i].output, src, ranges[i].bytes);
    at += ranges[i].bytes;
  }
}

weir_status weir_vk_download_ranges_into(void *self, const weir_native_range *ranges, size_t count) {
  weir_vk *vk = self;
  WEIR_TRY(weir_vk_ranges_prepare(vk, ranges, count));
  if (!vk->direct) {
    WEIR_TRY(weir_vk_begin(vk));
    weir_vk_ranges_record(vk, ranges, count);
  }
  WEIR_TRY(weir_vk_submit_wait(vk)); /* direct: runs pending copies, if any */
  weir_vk_ranges_finish(vk, ranges, count);
  return WEIR_OK;
}

/* Device copies are recorded, not submitted: they run with the next call
 * that synchronizes (or weir_finish), in order with everything else. The
 * engine refuses overlapping ranges, which Vulkan forbids too. */
weir_status weir_vk_copy(void *self, void *dst, uint64_t dst_offset, void *src, uint64_t src_offset,
                         uint64_t bytes) {
  weir_vk *vk = self;
  weir_vk_buffer *d = dst, *s = src;
  if (bytes == 0) return WEIR_OK;
  WEIR_TRY(weir_vk_begin(vk));
  weir_vk_barrier_to(vk, vk->cmd, WEIR_VK_LAST_TRANSFER);
  copy_region(vk, s->buffer, src_offset, d->buffer, dst_offset, bytes);
  return WEIR_OK;
}

weir_status weir_vk_finish(void *self) { return weir_vk_flush(self); }
