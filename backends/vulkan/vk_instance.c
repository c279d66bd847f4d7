/* The Vulkan loader (volk) and instances. The loader is loaded once per
 * process (it is process-wide by nature); every weir instance then creates its
 * own VkInstance, so nothing else is shared between backend instances. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/vulkan/vk_internal.h"

static pthread_once_t loader_once = PTHREAD_ONCE_INIT;
static VkResult loader_result = VK_ERROR_INITIALIZATION_FAILED;
static pthread_mutex_t loader_lock = PTHREAD_MUTEX_INITIALIZER;
static int instance_functions_loaded;

static void load_loader(void) { loader_result = volkInitialize(); }

static VKAPI_ATTR VkBool32 VKAPI_CALL on_validation_message(
    VkDebugUtilsMessageSeverityFlagBitsEXT severity, VkDebugUtilsMessageTypeFlagsEXT types,
    const VkDebugUtilsMessengerCallbackDataEXT *data, void *user) {
  (void)types;
  (void)user;
  const char *level = severity >= VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT ? "error" : "warning";
  fprintf(stderr, WEIR_VK_VALIDATION_PREFIX " %s: %s: %s\n", level,
          data->pMessageIdName ? data->pMessageIdName : "-", data->pMessage ? data->pMessage : "");
  return VK_FALSE;
}

static int layer_present(const char *name) {
  uint32_t n = 0;
  if (vkEnumerateInstanceLayerProperties(&n, NULL) != VK_SUCCESS || n == 0) return 0;
  VkLayerProperties *layers = calloc(n, sizeof *layers);
  if (!layers) return 0;
  int found = 0;
  if (vkEnumerateInstanceLayerProperties(&n, layers) == VK_SUCCESS)
    for (uint32_t i = 0; i < n && !found; ++i) found = strcmp(layers[i].layerName, name) == 0;
  free(layers);
  return found;
}

static weir_status load_loader_checked(void) {
  pthread_once(&loader_once, load_loader);
  if (loader_result != VK_SUCCESS)
    return weir_fail(WEIR_ERR_UNAVAILABLE,
                     "vulkan: the Vulkan loader libvulkan.so.1 could not be loaded (%s). Fix: "
                     "apt-get install libvulkan1 mesa-vulkan-drivers (or your GPU vendor's "
                     "Vulkan driver).",
                     weir_vk_result_name(loader_result));
  uint32_t version = volkGetInstanceVersion();
  if (version < VK_API_VERSION_1_1)
    return weir_fail(WEIR_ERR_UNAVAILABLE,
                     "vulkan: the Vulkan loader supports version %u.%u (expected >= 1.1). Fix: "
                     "update libvulkan1.",
                     VK_API_VERSION_MAJOR(version), VK_API_VERSION_MINOR(version));
  return WEIR_OK;
}

static weir_status create_vk_instance(weir_vk_instance *out) {
  const char *env = getenv("WEIR_VULKAN_VALIDATION");
  int validate = env && env[0] && strcmp(env, "0") != 0;
  if (validate && !layer_present("VK_LAYER_KHRONOS_validation"))
    return weir_fail(WEIR_ERR_UNAVAILABLE,
                     "vulkan: WEIR_VULKAN_VALIDATION=%s asks for VK_LAYER_KHRONOS_validation, "
                     "which is not installed. Fix: apt-get install vulkan-validationlayers, or "
                     "unset WEIR_VULKAN_VALIDATION.",
                     env);
  VkValidationFeatureEnableEXT sync = VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT;
  VkValidationFeaturesEXT features = {
      .sType = VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT,
      .enabledValidationFeatureCount = 1,
      .pEnabledValidationFeatures = &sync,
  };
  VkDebugUtilsMessengerCreateInfoEXT messenger = {
      .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT,
      .pNext = validate && strcmp(env, "sync") == 0 ? &features : NULL,
      .messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT |
                         VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
      .messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                     VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                     VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT,
      .pfnUserCallback = on_validation_message,
  };
  const char *layer = "VK_LAYER_KHRONOS_validation";
  const char *ext = VK_EXT_DEBUG_UTILS_EXTENSION_NAME;
  VkApplicationInfo app = {
      .sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
      .pApplicationName = "weir",
      .pEngineName = "weir",
      .apiVersion = VK_API_VERSION_1_1,
  };
  VkInstanceCreateInfo info = {
      .sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
      .pNext = validate ? &messenger : NULL,
      .pApplicationInfo = &app,
      .enabledLayerCount = validate ? 1u : 0u,
      .ppEnabledLayerNames = validate ? &layer : NULL,
      .enabledExtensionCount = validate ? 1u : 0u,
      .ppEnabledExtensionNames = validate ? &ext : NULL,
  };
  VkResult r = vkCreateInstance(&info, NULL, &out->instance);
  if (r != VK_SUCCESS)
    return weir_vk_fail(r, "vkCreateInstance", "creating the Vulkan 1.1 instance");
  /* Instance-level entry points are loader trampolines, valid for every
   * instance: load them once, under a lock, from the first instance. */
  pthread_mutex_lock(&loader_lock);
  if (!instance_functions_loaded) volkLoadInstanceOnly(out->instance);
  instance_functions_loaded = 1;
  pthread_mutex_unlock(&loader_lock);
  if (validate) {
    PFN_vkCreateDebugUtilsMessengerEXT create = (PFN_vkCreateDebugUtilsMessengerEXT)
        vkGetInstanceProcAddr(out->instance, "vkCreateDebugUtilsMessengerEXT");
    out->destroy_messenger = (PFN_vkDestroyDebugUtilsMessengerEXT)vkGetInstanceProcAddr(
        out->instance, "vkDestroyDebugUtilsMessengerEXT");
    messenger.pNext = NULL;
    r = create && out->destroy_messenger ? create(out->instance, &messenger, NULL, &out->messenger)
                                         : VK_ERROR_EXTENSION_NOT_PRESENT;
    if (r != VK_SUCCESS)
      return weir_vk_fail(r, "vkCreateDebugUtilsMessengerEXT", "installing the validation messenger");
  }
  return WEIR_OK;
}

static weir_status list_devices(weir_vk_instance *inst) {
  uint32_t n = 0;
  VkResult r = vkEnumeratePhysicalDevices(inst->instance, &n, NULL);
  if (r != VK_SUCCESS) return weir_vk_fail(r, "vkEnumeratePhysicalDevices", "counting devices");
  if (n == 0)
    return weir_fail(WEIR_ERR_UNAVAILABLE,
                     "vulkan: the Vulkan loader found no physical device. Fix: install a Vulkan "
                     "driver (apt-get install mesa-vulkan-drivers gives lavapipe) and check "
                     "VK_DRIVER_FILES.");
  inst->devices = calloc(n, sizeof *inst->devices);
  if (!inst->devices)
    return weir_fail(WEIR_ERR_OUT_OF_MEMORY, "vulkan: no host memory for %u device handles. Fix: free host memory.", n);
  r = vkEnumeratePhysicalDevices(inst->instance, &n, inst->devices);
  if (r != VK_SUCCESS && r != VK_INCOMPLETE)
    return weir_vk_fail(r, "vkEnumeratePhysicalDevices", "listing devices");
  inst->device_count = n;
  return WEIR_OK;
}

weir_status weir_vk_instance_create(weir_vk_instance *out) {
  memset(out, 0, sizeof *out);
  WEIR_TRY(load_loader_checked());
  weir_status s = create_vk_instance(out);
  if (s == WEIR_OK) s = list_devices(out);
  if (s != WEIR_OK) weir_vk_instance_destroy(out);
  return s;
}

void weir_vk_instance_destroy(weir_vk_instance *inst) {
  if (inst->messenger) inst->destroy_messenger(inst->instance, inst->messenger, NULL);
  if (inst->instance) vkDestroyInstance(inst->instance, NULL);
  free(inst->devices);
  memset(inst, 0, sizeof *inst);
}

static int type_rank(VkPhysicalDeviceType type) {
  switch (type) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return 4;
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return 3;
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return 2;
    case VK_PHYSICAL_DEVICE_TYPE_CPU: return 1;
    default: return 0;
  }
}

uint32_t weir_vk_best_device(const weir_vk_instance *inst) {
  uint32_t best = 0;
  int best_rank = -1;
  for (uint32_t i = 0; i < inst->device_count; ++i) {
    VkPhysicalDeviceProperties p;
    uint32_t family;
    vkGetPhysicalDeviceProperties(inst->devices[i], &p);
    int usable = p.apiVersion >= VK_API_VERSION_1_1 && weir_vk_compute_family(inst->devices[i], &family);
    int rank = type_rank(p.deviceType) + (usable ? 8 : 0);
    if (rank > best_rank) best = i, best_rank = rank;
  }
  return best;
}

int weir_vk_compute_family(VkPhysicalDevice device, uint32_t *out_family) {
  VkQueueFamilyProperties families[32];
  uint32_t n = 32;
  vkGetPhysicalDeviceQueueFamilyProperties(device, &n, families);
  int found = 0;
  for (uint32_t i = 0; i < n; ++i) {
    if (!(families[i].queueFlags & VK_QUEUE_COMPUTE_BIT)) continue;
    if (!found || (families[i].timestampValidBits > 0 && families[*out_family].timestampValidBits == 0))
      *out_family = i;
    found = 1;
  }
  return found;
}

int weir_vk_has_extension(VkPhysicalDevice device, const char *name) {
  uint32_t n = 0;
  if (vkEnumerateDeviceExtensionProperties(device, NULL, &n, NULL) != VK_SUCCESS) return 0;
  VkExtensionProperties *exts = calloc(n ? n : 1, sizeof *exts);
  if (!exts) return 0;
  int found = 0;
  if (vkEnumerateDeviceExtensionProperties(device, NULL, &n, exts) == VK_SUCCESS)
    for (uint32_t i = 0; i < n && !found; ++i) found = strcmp(exts[i].extensionName, name) == 0;
  free(exts);
  return found;
}
