/* What `weir info` shows about a Vulkan device: identity, driver, memory
 * heaps and the limits that matter to weir's programs. */
#include <stdio.h>
#include <string.h>

#include "backends/vulkan/vk_internal.h"

static const char *kind_name(VkPhysicalDeviceType type) {
  switch (type) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return "discrete-gpu";
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return "integrated-gpu";
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return "virtual-gpu";
    case VK_PHYSICAL_DEVICE_TYPE_CPU: return "cpu";
    default: return "other";
  }
}

/* Appends printf output to a fixed buffer, cutting at its end. */
static void append(char *buf, size_t cap, const char *fmt, ...) WEIR_PRINTF(3, 4);
static void append(char *buf, size_t cap, const char *fmt, ...) {
  size_t used = strlen(buf);
  if (used + 1 >= cap) return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf + used, cap - used, fmt, ap);
  va_end(ap);
}

static void describe_driver(VkPhysicalDevice device, const VkPhysicalDeviceProperties *p,
                            weir_device_info *out) {
  VkPhysicalDeviceDriverPropertiesKHR driver = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES_KHR};
  if (p->apiVersion >= VK_API_VERSION_1_2 ||
      weir_vk_has_extension(device, VK_KHR_DRIVER_PROPERTIES_EXTENSION_NAME)) {
    VkPhysicalDeviceProperties2 p2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, .pNext = &driver};
    vkGetPhysicalDeviceProperties2(device, &p2);
    snprintf(out->driver, sizeof out->driver, "%.40s %.80s", driver.driverName, driver.driverInfo);
  } else {
    snprintf(out->driver, sizeof out->driver, "driver version 0x%x", p->driverVersion);
  }
}

static void describe_memory(VkPhysicalDevice device, weir_device_info *out) {
  VkPhysicalDeviceMemoryProperties mem;
  vkGetPhysicalDeviceMemoryProperties(device, &mem);
  for (uint32_t h = 0; h < mem.memoryHeapCount; ++h) {
    int local = (mem.memoryHeaps[h].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT) != 0;
    if (local && mem.memoryHeaps[h].size > out->memory_bytes) out->memory_bytes = mem.memoryHeaps[h].size;
    append(out->details, sizeof out->details, "memory heap %u: %llu MiB%s\n", h,
           (unsigned long long)(mem.memoryHeaps[h].size >> 20), local ? " device-local" : "");
  }
  for (uint32_t t = 0; t < mem.memoryTypeCount; ++t) {
    VkMemoryPropertyFlags f = mem.memoryTypes[t].propertyFlags;
    append(out->details, sizeof out->details, "memory type %u: heap %u%s%s%s%s\n", t,
           mem.memoryTypes[t].heapIndex, f & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT ? " device-local" : "",
           f & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT ? " host-visible" : "",
           f & VK_MEMORY_PROPERTY_HOST_COHERENT_BIT ? " host-coherent" : "",
           f & VK_MEMORY_PROPERTY_HOST_CACHED_BIT ? " host-cached" : "");
  }
}

static void describe_limits(VkPhysicalDevice device, const VkPhysicalDeviceProperties *p,
                            weir_device_info *out) {
  const VkPhysicalDeviceLimits *l = &p->limits;
  VkPhysicalDeviceSubgroupProperties sub = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES};
  VkPhysicalDeviceProperties2 p2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, .pNext = &sub};
  vkGetPhysicalDeviceProperties2(device, &p2);
  VkPhysicalDeviceShaderAtomicInt64FeaturesKHR a64 = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_INT64_FEATURES_KHR};
  VkPhysicalDeviceFeatures2 f2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
  if (weir_vk_has_extension(device, VK_KHR_SHADER_ATOMIC_INT64_EXTENSION_NAME)) f2.pNext = &a64;
  vkGetPhysicalDeviceFeatures2(device, &f2);
  uint32_t family = 0, ts_bits = 0;
  if (weir_vk_compute_family(device, &family)) {
    VkQueueFamilyProperties fams[32];
    uint32_t n = 32;
    vkGetPhysicalDeviceQueueFamilyProperties(device, &n, fams);
    ts_bits = fams[family].timestampValidBits;
  }
  char *d = out->details;
  size_t cap = sizeof out->details;
  append(d, cap, "max workgroup size: %u x %u x %u (%u invocations)\n", l->maxComputeWorkGroupSize[0],
         l->maxComputeWorkGroupSize[1], l->maxComputeWorkGroupSize[2], l->maxComputeWorkGroupInvocations);
  append(d, cap, "max workgroup count: %u x %u x %u\n", l->maxComputeWorkGroupCount[0],
         l->maxComputeWorkGroupCount[1], l->maxComputeWorkGroupCount[2]);
  append(d, cap, "push-constant bytes: %u\n", l->maxPushConstantsSize);
  append(d, cap, "max storage buffer range: %u bytes\n", l->maxStorageBufferRange);
  int compute = (sub.supportedStages & VK_SHADER_STAGE_COMPUTE_BIT) != 0;
  out->subgroup_ops = 0;
  if (compute && (sub.supportedOperations & VK_SUBGROUP_FEATURE_BASIC_BIT))
    out->subgroup_ops |= WEIR_SUBGROUP_BASIC;
  if (compute && (sub.supportedOperations & VK_SUBGROUP_FEATURE_BALLOT_BIT))
    out->subgroup_ops |= WEIR_SUBGROUP_BALLOT;
  out->subgroup_size = compute ? sub.subgroupSize : 0u;
  append(d, cap, "subgroup size: %u (operations 0x%x, compute: %s; ballot: %s)\n", sub.subgroupSize,
         (unsigned)sub.supportedOperations, compute ? "yes" : "no",
         out->subgroup_ops & WEIR_SUBGROUP_BALLOT ? "yes" : "no");
  append(d, cap, "64-bit integers: %s; 64-bit buffer atomics: %s\n", f2.features.shaderInt64 ? "yes" : "no",
         a64.shaderBufferInt64Atomics ? "yes" : "no");
  if (ts_bits)
    append(d, cap, "timestamps: yes (%u valid bits, %.3f ns per tick)\n", ts_bits, (double)l->timestampPeriod);
  else
    append(d, cap, "timestamps: no (timed dispatch uses the host clock)\n");
  append(d, cap, "push descriptors: %s\n",
         weir_vk_has_extension(device, VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME) ? "yes" : "no");
  out->timestamps_are_device = ts_bits > 0;
  out->max_binding_bytes = l->maxStorageBufferRange;
}

weir_status weir_vk_describe_physical(VkPhysicalDevice device, uint32_t index, weir_device_info *out) {
  VkPhysicalDeviceProperties p;
  vkGetPhysicalDeviceProperties(device, &p);
  memset(out, 0, sizeof *out);
  snprintf(out->backend_id, sizeof out->backend_id, "vulkan");
  snprintf(out->spec, sizeof out->spec, "vulkan:%u", index);
  snprintf(out->name, sizeof out->name, "%.127s", p.deviceName);
  snprintf(out->kind, sizeof out->kind, "%s", kind_name(p.deviceType));
  describe_driver(device, &p, out);
  out->dl_device_type = 7; /* kDLVulkan */
  out->dl_device_id = (int32_t)index;
  append(out->details, sizeof out->details, "type: %s\nvulkan api: %u.%u.%u\ndriver: %s\n", out->kind,
         VK_API_VERSION_MAJOR(p.apiVersion), VK_API_VERSION_MINOR(p.apiVersion),
         VK_API_VERSION_PATCH(p.apiVersion), out->driver);
  describe_memory(device, out);
  describe_limits(device, &p, out);
  return WEIR_OK;
}
