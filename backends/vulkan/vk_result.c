/* VkResult names and the mapping of Vulkan failures to weir statuses. */
#include "backends/vulkan/vk_internal.h"

const char *weir_vk_result_name(VkResult result) {
  switch (result) {
#define NAME(r) case r: return #r;
    NAME(VK_SUCCESS)
    NAME(VK_NOT_READY)
    NAME(VK_TIMEOUT)
    NAME(VK_EVENT_SET)
    NAME(VK_EVENT_RESET)
    NAME(VK_INCOMPLETE)
    NAME(VK_ERROR_OUT_OF_HOST_MEMORY)
    NAME(VK_ERROR_OUT_OF_DEVICE_MEMORY)
    NAME(VK_ERROR_INITIALIZATION_FAILED)
    NAME(VK_ERROR_DEVICE_LOST)
    NAME(VK_ERROR_MEMORY_MAP_FAILED)
    NAME(VK_ERROR_LAYER_NOT_PRESENT)
    NAME(VK_ERROR_EXTENSION_NOT_PRESENT)
    NAME(VK_ERROR_FEATURE_NOT_PRESENT)
    NAME(VK_ERROR_INCOMPATIBLE_DRIVER)
    NAME(VK_ERROR_TOO_MANY_OBJECTS)
    NAME(VK_ERROR_FORMAT_NOT_SUPPORTED)
    NAME(VK_ERROR_FRAGMENTED_POOL)
    NAME(VK_ERROR_UNKNOWN)
    NAME(VK_ERROR_OUT_OF_POOL_MEMORY)
    NAME(VK_ERROR_INVALID_EXTERNAL_HANDLE)
    NAME(VK_ERROR_FRAGMENTATION)
    NAME(VK_ERROR_INVALID_OPAQUE_CAPTURE_ADDRESS)
    NAME(VK_ERROR_INVALID_SHADER_NV)
#undef NAME
    default: return "VK_RESULT_UNKNOWN";
  }
}

static weir_status status_of(VkResult result) {
  switch (result) {
    case VK_ERROR_OUT_OF_HOST_MEMORY:
    case VK_ERROR_OUT_OF_DEVICE_MEMORY:
    case VK_ERROR_OUT_OF_POOL_MEMORY:
    case VK_ERROR_FRAGMENTATION:
    case VK_ERROR_TOO_MANY_OBJECTS: return WEIR_ERR_OUT_OF_MEMORY;
    case VK_ERROR_INITIALIZATION_FAILED:
    case VK_ERROR_INCOMPATIBLE_DRIVER:
    case VK_ERROR_LAYER_NOT_PRESENT:
    case VK_ERROR_EXTENSION_NOT_PRESENT:
    case VK_ERROR_FEATURE_NOT_PRESENT: return WEIR_ERR_UNAVAILABLE;
    default: return WEIR_ERR_DEVICE;
  }
}

static const char *hint_of(VkResult result) {
  switch (result) {
    case VK_ERROR_OUT_OF_HOST_MEMORY: return "free host memory or use smaller buffers";
    case VK_ERROR_OUT_OF_DEVICE_MEMORY:
    case VK_ERROR_FRAGMENTATION:
      return "free device buffers, use smaller ones, or set memory_limit_bytes";
    case VK_ERROR_INCOMPATIBLE_DRIVER:
      return "install a Vulkan 1.1 driver (e.g. apt-get install mesa-vulkan-drivers for "
             "lavapipe) and check VK_DRIVER_FILES / VK_ICD_FILENAMES";
    case VK_ERROR_INITIALIZATION_FAILED:
      return "check that a Vulkan driver is installed and the device is present";
    case VK_ERROR_LAYER_NOT_PRESENT:
      return "install vulkan-validationlayers or unset WEIR_VULKAN_VALIDATION";
    case VK_ERROR_DEVICE_LOST:
      return "the device reset or a program faulted (out-of-bounds access, endless loop); "
             "reopen the backend";
    default: return "run with WEIR_VULKAN_VALIDATION=1 for the validation layer's diagnosis";
  }
}

weir_status weir_vk_fail(VkResult result, const char *call, const char *context) {
  return weir_fail(status_of(result), "vulkan: %s failed with %s (%d) while %s. Fix: %s.", call,
                   weir_vk_result_name(result), (int)result, context, hint_of(result));
}
