/* Recording into the one reused primary command buffer, the narrow barriers
 * between commands, and the one submit + one fence wait per call. */
#include "backends/vulkan/vk_internal.h"

static VkPipelineStageFlags stage_of(int last) {
  return last == WEIR_VK_LAST_TRANSFER ? VK_PIPELINE_STAGE_TRANSFER_BIT
                                       : VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT;
}

static VkAccessFlags write_of(int last) {
  return last == WEIR_VK_LAST_TRANSFER ? VK_ACCESS_TRANSFER_WRITE_BIT : VK_ACCESS_SHADER_WRITE_BIT;
}

static VkAccessFlags access_of(int next) {
  return next == WEIR_VK_LAST_TRANSFER ? VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT
                                       : VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
}

static void memory_barrier(weir_vk *vk, VkCommandBuffer cmd, VkPipelineStageFlags src,
                           VkAccessFlags src_access, VkPipelineStageFlags dst,
                           VkAccessFlags dst_access) {
  VkMemoryBarrier barrier = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                             .srcAccessMask = src_access,
                             .dstAccessMask = dst_access};
  vk->vk.vkCmdPipelineBarrier(cmd, src, dst, 0, 1, &barrier, 0, NULL, 0, NULL);
}

weir_status weir_vk_begin(weir_vk *vk) {
  if (vk->recording) return WEIR_OK;
  VkCommandBufferBeginInfo begin = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                    .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT};
  VkResult r = vk->vk.vkBeginCommandBuffer(vk->cmd, &begin);
  if (r != VK_SUCCESS) return weir_vk_fail(r, "vkBeginCommandBuffer", "recording commands");
  /* Earlier submissions finished behind a fence; this makes their writes
   * visible to this one (fences make writes available, not visible). */
  const VkPipelineStageFlags both = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT;
  memory_barrier(vk, vk->cmd, both, VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT, both,
                 access_of(WEIR_VK_LAST_COMPUTE) | access_of(WEIR_VK_LAST_TRANSFER));
  vk->recording = 1;
  vk->last = WEIR_VK_LAST_NONE;
  vk->bound[0] = VK_NULL_HANDLE;
  return WEIR_OK;
}

void weir_vk_barrier_to(weir_vk *vk, VkCommandBuffer cmd, int next) {
  if (vk->last != WEIR_VK_LAST_NONE)
    memory_barrier(vk, cmd, stage_of(vk->last), write_of(vk->last), stage_of(next), access_of(next));
  vk->last = next;
}

weir_status weir_vk_record_step(weir_vk *vk, VkCommandBuffer cmd, const weir_native_step *step) {
  if (step->fft) return weir_vk_fft_record(vk, cmd, step);
  const weir_vk_program *prog = step->program_state;
  int primary = cmd == vk->cmd;
  /* A step without bindings touches no memory (weir enables no buffer
   * device addresses), so it needs no barrier and makes none necessary. */
  if (step->binding_count > 0) {
    if (primary)
      weir_vk_barrier_to(vk, cmd, WEIR_VK_LAST_COMPUTE);
    else /* a secondary buffer may follow itself: always a barrier */
      memory_barrier(vk, cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                     VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, access_of(WEIR_VK_LAST_COMPUTE));
  }
  if (vk->bound[!primary] != prog->pipeline)
    vk->vk.vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, prog->pipeline);
  vk->bound[!primary] = prog->pipeline;
  if (step->binding_count > 0) {
    VkDescriptorBufferInfo infos[WEIR_MAX_BINDINGS];
    VkWriteDescriptorSet writes[WEIR_MAX_BINDINGS];
    for (uint32_t i = 0; i < step->binding_count; ++i) {
      const weir_vk_buffer *buf = step->bindings[i];
      infos[i] = (VkDescriptorBufferInfo){.buffer = buf->buffer, .offset = 0, .range = buf->bytes};
      writes[i] = (VkWriteDescriptorSet){.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                                         .dstBinding = i,
                                         .descriptorCount = 1,
                                         .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                         .pBufferInfo = &infos[i]};
    }
    vk->vk.vkCmdPushDescriptorSetKHR(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, prog->layout, 0,
                                     step->binding_count, writes);
  }
  if (step->push_constant_bytes > 0)
    vk->vk.vkCmdPushConstants(cmd, prog->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0,
                              step->push_constant_bytes, step->push_constants);
  vk->vk.vkCmdDispatch(cmd, step->grid.x, step->grid.y, step->grid.z);
  return WEIR_OK;
}

weir_status weir_vk_submit_wait(weir_vk *vk) {
  if (!vk->recording) return WEIR_OK;
  vk->recording = 0;
  /* Device writes -> host reads of mapped memory after the fence. */
  const VkPipelineStageFlags both = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT;
  memory_barrier(vk, vk->cmd, both, VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT,
                 VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
  VkResult r = vk->vk.vkEndCommandBuffer(vk->cmd);
  if (r != VK_SUCCESS) return weir_vk_fail(r, "vkEndCommandBuffer", "recording commands");
  VkSubmitInfo submit = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
                         .commandBufferCount = 1,
                         .pCommandBuffers = &vk->cmd};
  r = vk->vk.vkQueueSubmit(vk->queue, 1, &submit, vk->fence);
  if (r != VK_SUCCESS) return weir_vk_fail(r, "vkQueueSubmit", "submitting commands");
  r = vk->vk.vkWaitForFences(vk->device, 1, &vk->fence, VK_TRUE, UINT64_MAX);
  VkResult reset = vk->vk.vkResetFences(vk->device, 1, &vk->fence);
  if (r != VK_SUCCESS) return weir_vk_fail(r, "vkWaitForFences", "waiting for the device");
  if (reset != VK_SUCCESS) return weir_vk_fail(reset, "vkResetFences", "reusing the fence");
  return WEIR_OK;
}

weir_status weir_vk_flush(weir_vk *vk) { return weir_vk_submit_wait(vk); }
