/* VkFFT compiled alone (see vk_fft_vkfft.h for why): the device-table
 * redirection VkFFT's calls need, and the three entry points vk_fft.c uses.
 * Built only with VkFFT (WEIR_HAVE_VKFFT). */
#include "backends/vulkan/vk_internal.h"

/* VkFFT calls Vulkan's global entry points; weir loads device functions per
 * device (volkLoadDeviceTable), so VkFFT's device calls go to the table of
 * the instance being served (set by each wrapper below). Instance-level
 * functions are volk's globals, loaded at instance creation. */
static _Thread_local const struct VolkDeviceTable *vkfft_table;
#define vkAllocateCommandBuffers vkfft_table->vkAllocateCommandBuffers
#define vkAllocateDescriptorSets vkfft_table->vkAllocateDescriptorSets
#define vkAllocateMemory vkfft_table->vkAllocateMemory
#define vkBeginCommandBuffer vkfft_table->vkBeginCommandBuffer
#define vkBindBufferMemory vkfft_table->vkBindBufferMemory
#define vkCmdBindDescriptorSets vkfft_table->vkCmdBindDescriptorSets
#define vkCmdBindPipeline vkfft_table->vkCmdBindPipeline
#define vkCmdCopyBuffer vkfft_table->vkCmdCopyBuffer
#define vkCmdDispatch vkfft_table->vkCmdDispatch
#define vkCmdPipelineBarrier vkfft_table->vkCmdPipelineBarrier
#define vkCmdPushConstants vkfft_table->vkCmdPushConstants
#define vkCreateBuffer vkfft_table->vkCreateBuffer
#define vkCreateComputePipelines vkfft_table->vkCreateComputePipelines
#define vkCreateDescriptorPool vkfft_table->vkCreateDescriptorPool
#define vkCreateDescriptorSetLayout vkfft_table->vkCreateDescriptorSetLayout
#define vkCreatePipelineLayout vkfft_table->vkCreatePipelineLayout
#define vkCreateShaderModule vkfft_table->vkCreateShaderModule
#define vkDestroyBuffer vkfft_table->vkDestroyBuffer
#define vkDestroyDescriptorPool vkfft_table->vkDestroyDescriptorPool
#define vkDestroyDescriptorSetLayout vkfft_table->vkDestroyDescriptorSetLayout
#define vkDestroyPipeline vkfft_table->vkDestroyPipeline
#define vkDestroyPipelineLayout vkfft_table->vkDestroyPipelineLayout
#define vkDestroyShaderModule vkfft_table->vkDestroyShaderModule
#define vkEndCommandBuffer vkfft_table->vkEndCommandBuffer
#define vkFreeCommandBuffers vkfft_table->vkFreeCommandBuffers
#define vkFreeMemory vkfft_table->vkFreeMemory
#define vkGetBufferMemoryRequirements vkfft_table->vkGetBufferMemoryRequirements
#define vkMapMemory vkfft_table->vkMapMemory
#define vkQueueSubmit vkfft_table->vkQueueSubmit
#define vkResetFences vkfft_table->vkResetFences
#define vkUnmapMemory vkfft_table->vkUnmapMemory
#define vkUpdateDescriptorSets vkfft_table->vkUpdateDescriptorSets
#define vkWaitForFences vkfft_table->vkWaitForFences

#include <weir_vkfft.h> /* vkFFT.h, the build's C copy (backends/vulkan/CMakeLists.txt) */

#include "backends/vulkan/vk_fft_vkfft.h"

VkFFTResult weir_vkfft_initialize(const struct VolkDeviceTable *table, VkFFTApplication *app,
                                  VkFFTConfiguration config) {
  vkfft_table = table;
  return initializeVkFFT(app, config);
}

VkFFTResult weir_vkfft_append(const struct VolkDeviceTable *table, VkFFTApplication *app,
                              int inverse, VkFFTLaunchParams *launch) {
  vkfft_table = table;
  return VkFFTAppend(app, inverse, launch);
}

void weir_vkfft_delete(const struct VolkDeviceTable *table, VkFFTApplication *app) {
  vkfft_table = table;
  deleteVkFFT(app);
}

int weir_vkfft_compiler_hold(void) { return glslang_initialize_process() ? 1 : 0; }
void weir_vkfft_compiler_release(void) { glslang_finalize_process(); }
