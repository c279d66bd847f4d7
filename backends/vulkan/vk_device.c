/* Opening a Vulkan device: instance, logical device with one compute queue,
 * the per-device function table, memory types, and the command buffers and
 * fence that every call reuses. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/vulkan/vk_internal.h"

static weir_status pick_device(weir_vk *vk, uint32_t index) {
  if (index == WEIR_DEVICE_DEFAULT) index = weir_vk_best_device(&vk->inst);
  if (index >= vk->inst.device_count)
    return weir_fail(WEIR_ERR_OUT_OF_RANGE,
                     "vulkan: device %u requested, but the Vulkan loader lists %u device(s). Fix: "
                     "use vulkan:0 .. vulkan:%u (see `weir info`).",
                     index, vk->inst.device_count, vk->inst.device_count - 1);
  vk->index = index;
  vk->physical = vk->inst.devices[index];
  vkGetPhysicalDeviceProperties(vk->physical, &vk->props);
  VkPhysicalDevicePushDescriptorPropertiesKHR push = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PUSH_DESCRIPTOR_PROPERTIES_KHR};
  VkPhysicalDeviceProperties2 props2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
                                        .pNext = &push};
  vkGetPhysicalDeviceProperties2(vk->physical, &props2);
  vk->max_push_descriptors = push.maxPushDescriptors;
  if (vk->props.apiVersion < VK_API_VERSION_1_1)
    return weir_fail(WEIR_ERR_UNAVAILABLE,
                     "vulkan: device %u (%s) supports Vulkan %u.%u (expected >= 1.1). Fix: update "
                     "its driver or pick another device with vulkan:N.",
                     index, vk->props.deviceName, VK_API_VERSION_MAJOR(vk->props.apiVersion),
                     VK_API_VERSION_MINOR(vk->props.apiVersion));
  if (!weir_vk_compute_family(vk->physical, &vk->family))
    return weir_fail(WEIR_ERR_UNAVAILABLE,
                     "vulkan: device %u (%s) has no compute queue. Fix: pick another device with "
                     "vulkan:N.", index, vk->props.deviceName);
  if (!weir_vk_has_extension(vk->physical, VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME))
    return weir_fail(WEIR_ERR_UNAVAILABLE,
                     "vulkan: device %u (%s) lacks VK_KHR_push_descriptor, which weir binds "
                     "buffers with. Fix: update its driver or pick another device with vulkan:N.",
                     index, vk->props.deviceName);
  return WEIR_OK;
}

static weir_status create_device(weir_vk *vk) {
  const char *exts[2] = {VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME};
  uint32_t ext_count = 1;
  VkPhysicalDeviceShaderAtomicInt64FeaturesKHR a64 = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_INT64_FEATURES_KHR};
  VkPhysicalDeviceFeatures2 supported = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
  if (weir_vk_has_extension(vk->physical, VK_KHR_SHADER_ATOMIC_INT64_EXTENSION_NAME)) {
    exts[ext_count++] = VK_KHR_SHADER_ATOMIC_INT64_EXTENSION_NAME;
    supported.pNext = &a64;
  }
  vkGetPhysicalDeviceFeatures2(vk->physical, &supported);
  /* Enable only what programs may use: 64-bit integers and their atomics. */
  VkPhysicalDeviceFeatures2 enabled = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
                                       .pNext = supported.pNext};
  enabled.features.shaderInt64 = supported.features.shaderInt64;
  enabled.features.shaderFloat64 = supported.features.shaderFloat64; /* VkFFT's double precision */
  a64.shaderSharedInt64Atomics = VK_FALSE;
  float priority = 1.0f;
  VkDeviceQueueCreateInfo queue = {.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
                                   .queueFamilyIndex = vk->family,
                                   .queueCount = 1,
                                   .pQueuePriorities = &priority};
  VkDeviceCreateInfo info = {.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
                             .pNext = &enabled,
                             .queueCreateInfoCount = 1,
                             .pQueueCreateInfos = &queue,
                             .enabledExtensionCount = ext_count,
                             .ppEnabledExtensionNames = exts};
  VkResult r = vkCreateDevice(vk->physical, &info, NULL, &vk->device);
  if (r != VK_SUCCESS) return weir_vk_fail(r, "vkCreateDevice", vk->props.deviceName);
  vk->has_int64 = enabled.features.shaderInt64 == VK_TRUE;
  vk->has_float64 = enabled.features.shaderFloat64 == VK_TRUE;
  vk->has_int64_atomics = supported.pNext && a64.shaderBufferInt64Atomics == VK_TRUE;
  volkLoadDeviceTable(&vk->vk, vk->device);
  vk->vk.vkGetDeviceQueue(vk->device, vk->family, 0, &vk->queue);
  VkQueueFamilyProperties fams[32];
  uint32_t n = 32;
  vkGetPhysicalDeviceQueueFamilyProperties(vk->physical, &n, fams);
  vk->timestamp_bits = fams[vk->family].timestampValidBits;
  vk->has_timestamps = vk->timestamp_bits > 0 && vk->props.limits.timestampPeriod > 0;
  return WEIR_OK;
}

static int find_type(const VkPhysicalDeviceMemoryProperties *mem, VkMemoryPropertyFlags want,
                     uint32_t *out) {
  for (uint32_t t = 0; t < mem->memoryTypeCount; ++t)
    if ((mem->memoryTypes[t].propertyFlags & want) == want) {
      *out = t;
      return 1;
    }
  return 0;
}

static weir_status choose_memory(weir_vk *vk) {
  VkPhysicalDeviceMemoryProperties mem;
  vkGetPhysicalDeviceMemoryProperties(vk->physical, &mem);
  const VkMemoryPropertyFlags local = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
  const VkMemoryPropertyFlags host = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  /* WEIR_VULKAN_FORCE_STAGING=1 exercises the staged path on unified memory. */
  const char *force = getenv("WEIR_VULKAN_FORCE_STAGING");
  int staged_only = force && force[0] && strcmp(force, "0") != 0;
  /* Direct only when the mappable device-local heap is the big one (unified
   * memory, resizable BAR), not a 256 MiB BAR window. */
  VkDeviceSize largest = 0;
  for (uint32_t h = 0; h < mem.memoryHeapCount; ++h)
    if ((mem.memoryHeaps[h].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT) && mem.memoryHeaps[h].size > largest)
      largest = mem.memoryHeaps[h].size;
  vk->direct = !staged_only && find_type(&mem, local | host, &vk->buffer_type) &&
               mem.memoryHeaps[mem.memoryTypes[vk->buffer_type].heapIndex].size >= largest;
  if (vk->direct) return WEIR_OK;
  int found = 0;
  for (uint32_t t = 0; t < mem.memoryTypeCount && !found; ++t)
    if ((mem.memoryTypes[t].propertyFlags & local) && mem.memoryHeaps[mem.memoryTypes[t].heapIndex].size >= largest)
      vk->buffer_type = t, found = 1;
  if (!found || !find_type(&mem, host, &vk->staging_type))
    return weir_fail(WEIR_ERR_UNAVAILABLE,
                     "vulkan: device %u (%s) has no device-local or no host-visible coherent "
                     "memory type. Fix: update its driver or pick another device with vulkan:N.",
                     vk->index, vk->props.deviceName);
  return WEIR_OK;
}

static weir_status create_submission(weir_vk *vk) {
  VkCommandPoolCreateInfo pool = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                  .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
                                  .queueFamilyIndex = vk->family};
  VkResult r = vk->vk.vkCreateCommandPool(vk->device, &pool, NULL, &vk->pool);
  if (r != VK_SUCCESS) return weir_vk_fail(r, "vkCreateCommandPool", "opening the device");
  VkCommandBufferAllocateInfo alloc = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                       .commandPool = vk->pool,
                                       .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                       .commandBufferCount = 1};
  r = vk->vk.vkAllocateCommandBuffers(vk->device, &alloc, &vk->cmd);
  if (r != VK_SUCCESS) return weir_vk_fail(r, "vkAllocateCommandBuffers", "opening the device");
  alloc.level = VK_COMMAND_BUFFER_LEVEL_SECONDARY;
  r = vk->vk.vkAllocateCommandBuffers(vk->device, &alloc, &vk->secondary);
  if (r != VK_SUCCESS) return weir_vk_fail(r, "vkAllocateCommandBuffers", "opening the device");
  VkFenceCreateInfo fence = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  r = vk->vk.vkCreateFence(vk->device, &fence, NULL, &vk->fence);
  if (r != VK_SUCCESS) return weir_vk_fail(r, "vkCreateFence", "opening the device");
  return WEIR_OK;
}

weir_status weir_vk_open(uint32_t index, const weir_open_options *options, void **out_self) {
  (void)options; /* memory caps are enforced by the engine */
  weir_vk *vk = calloc(1, sizeof *vk);
  if (!vk) return weir_fail(WEIR_ERR_OUT_OF_MEMORY, "vulkan: no host memory for the instance. Fix: free host memory.");
  weir_status s = weir_vk_instance_create(&vk->inst);
  if (s == WEIR_OK) s = pick_device(vk, index);
  if (s == WEIR_OK) s = create_device(vk);
  if (s == WEIR_OK) s = choose_memory(vk);
  if (s == WEIR_OK) s = create_submission(vk);
  if (s != WEIR_OK) {
    weir_vk_destroy(vk);
    return s;
  }
  *out_self = vk;
  return WEIR_OK;
}

void weir_vk_destroy(void *self) {
  weir_vk *vk = self;
  if (!vk) return;
  if (vk->device) {
    (void)weir_vk_flush(vk);
    vk->vk.vkDeviceWaitIdle(vk->device);
    weir_vk_buffer_destroy(vk, &vk->staging);
    if (vk->queries) vk->vk.vkDestroyQueryPool(vk->device, vk->queries, NULL);
    if (vk->fence) vk->vk.vkDestroyFence(vk->device, vk->fence, NULL);
    if (vk->pool) vk->vk.vkDestroyCommandPool(vk->device, vk->pool, NULL);
    vk->vk.vkDestroyDevice(vk->device, NULL);
  }
  weir_vk_fft_release_compiler(vk);
  weir_vk_instance_destroy(&vk->inst);
  free(vk);
}

weir_status weir_vk_describe(void *self, weir_device_info *out) {
  weir_vk *vk = self;
  WEIR_TRY(weir_vk_describe_physical(vk->physical, vk->index, out));
  size_t used = strlen(out->details);
  if (used + 1 < sizeof out->details)
    snprintf(out->details + used, sizeof out->details - used, "memory path: %s\n",
             vk->direct ? "direct (device-local + host-visible, no staging copies)"
                        : "staged (device-local buffers, host-visible staging buffer)");
  return WEIR_OK;
}
