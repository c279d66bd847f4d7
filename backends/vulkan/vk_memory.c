/* Buffers: one VkBuffer + one dedicated allocation each. In direct mode the
 * memory is device-local and host-visible, mapped once for its lifetime. */
#include <stdlib.h>
#include <string.h>

#include "backends/vulkan/vk_internal.h"

weir_status weir_vk_buffer_create(weir_vk *vk, uint64_t bytes, uint32_t type, int map,
                                  weir_vk_buffer *out) {
  memset(out, 0, sizeof *out);
  VkBufferCreateInfo info = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
                             .size = bytes,
                             .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
                                      VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                                      VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                             .sharingMode = VK_SHARING_MODE_EXCLUSIVE};
  VkResult r = vk->vk.vkCreateBuffer(vk->device, &info, NULL, &out->buffer);
  if (r != VK_SUCCESS) return weir_vk_fail(r, "vkCreateBuffer", "allocating a buffer");
  VkMemoryRequirements req;
  vk->vk.vkGetBufferMemoryRequirements(vk->device, out->buffer, &req);
  if (!(req.memoryTypeBits & (1u << type))) {
    weir_vk_buffer_destroy(vk, out);
    return weir_fail(WEIR_ERR_DEVICE,
                     "vulkan: buffers of %llu bytes cannot live in memory type %u (allowed types "
                     "0x%x). Fix: report this device (`weir info`) to the weir developers.",
                     (unsigned long long)bytes, type, req.memoryTypeBits);
  }
  VkMemoryAllocateInfo alloc = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
                                .allocationSize = req.size,
                                .memoryTypeIndex = type};
  r = vk->vk.vkAllocateMemory(vk->device, &alloc, NULL, &out->memory);
  if (r == VK_SUCCESS) r = vk->vk.vkBindBufferMemory(vk->device, out->buffer, out->memory, 0);
  if (r == VK_SUCCESS && map)
    r = vk->vk.vkMapMemory(vk->device, out->memory, 0, VK_WHOLE_SIZE, 0, (void **)&out->mapped);
  if (r != VK_SUCCESS) {
    weir_vk_buffer_destroy(vk, out);
    return weir_vk_fail(r, "vkAllocateMemory/vkBindBufferMemory/vkMapMemory", "allocating a buffer");
  }
  out->bytes = bytes;
  return WEIR_OK;
}

void weir_vk_buffer_destroy(weir_vk *vk, weir_vk_buffer *buf) {
  if (buf->buffer) vk->vk.vkDestroyBuffer(vk->device, buf->buffer, NULL);
  if (buf->memory) vk->vk.vkFreeMemory(vk->device, buf->memory, NULL); /* unmaps too */
  memset(buf, 0, sizeof *buf);
}

/* The staging buffer only grows (to the largest transfer seen), so steady
 * state transfers allocate nothing. Callers have synchronized before. */
weir_status weir_vk_staging_reserve(weir_vk *vk, uint64_t bytes) {
  if (vk->staging.bytes >= bytes) return WEIR_OK;
  uint64_t want = vk->staging.bytes ? vk->staging.bytes : 65536;
  while (want < bytes) want *= 2;
  weir_vk_buffer_destroy(vk, &vk->staging);
  return weir_vk_buffer_create(vk, want, vk->staging_type, 1, &vk->staging);
}

weir_status weir_vk_allocate(void *self, uint64_t bytes, void **out_buffer) {
  weir_vk *vk = self;
  weir_vk_buffer *buf = calloc(1, sizeof *buf);
  if (!buf) return weir_fail(WEIR_ERR_OUT_OF_MEMORY, "vulkan: no host memory for a buffer record. Fix: free host memory.");
  weir_status s = weir_vk_buffer_create(vk, bytes, vk->buffer_type, vk->direct, buf);
  if (s != WEIR_OK) {
    free(buf);
    return s;
  }
  *out_buffer = buf;
  return WEIR_OK;
}

void weir_vk_release(void *self, void *buffer) {
  weir_vk *vk = self;
  /* Recorded copies may still name this buffer: run them first. */
  if (vk->recording) (void)weir_vk_flush(vk);
  weir_vk_buffer_destroy(vk, buffer);
  free(buffer);
}
