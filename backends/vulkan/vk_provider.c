/* The Vulkan provider: probing, describing and opening devices, and the
 * operations table. */
#include "backends/vulkan/vk_internal.h"

static weir_status vk_probe(uint32_t *device_count) {
  weir_vk_instance inst;
  WEIR_TRY(weir_vk_instance_create(&inst));
  *device_count = inst.device_count;
  weir_vk_instance_destroy(&inst);
  return WEIR_OK;
}

static weir_status vk_describe_device(uint32_t index, weir_device_info *out) {
  weir_vk_instance inst;
  WEIR_TRY(weir_vk_instance_create(&inst));
  if (index == WEIR_DEVICE_DEFAULT) index = weir_vk_best_device(&inst);
  weir_status s;
  if (index >= inst.device_count)
    s = weir_fail(WEIR_ERR_OUT_OF_RANGE,
                  "vulkan: device %u requested, but the Vulkan loader lists %u device(s). Fix: use "
                  "vulkan:0 .. vulkan:%u (see `weir info`).",
                  index, inst.device_count, inst.device_count - 1);
  else
    s = weir_vk_describe_physical(inst.devices[index], index, out);
  weir_vk_instance_destroy(&inst);
  return s;
}

static weir_status vk_upload_many(void *self, const weir_native_upload *items, size_t count) {
  return weir_vk_upload_at_many(self, items, count);
}

static const weir_backend_ops vk_ops = {
    .destroy = weir_vk_destroy,
    .describe = weir_vk_describe,
    .allocate = weir_vk_allocate,
    .release = weir_vk_release,
    .upload_many = vk_upload_many,
    .upload_at_many = weir_vk_upload_at_many,
    .download_ranges_into = weir_vk_download_ranges_into,
    .prepare_program = weir_vk_prepare_program,
    .release_program = weir_vk_release_program,
    .dispatch = weir_vk_dispatch,
    .dispatch_sequence_read_ranges_into = weir_vk_sequence,
    .dispatch_repeated_sequence_read_ranges_into = weir_vk_repeated,
    .dispatch_sequence_timed = weir_vk_timed,
    .copy = weir_vk_copy,
    .finish = weir_vk_finish,
    .fft_plan = weir_vk_fft_plan,
    .fft_destroy = weir_vk_fft_destroy,
};

const weir_provider weir_provider_vulkan = {
    .abi_version = WEIR_BACKEND_ABI_VERSION,
    .id = "vulkan",
    .version = "0.1.0",
    .format = WEIR_FORMAT_SPIRV,
    .dl_device_type = 7, /* kDLVulkan */
    .probe = vk_probe,
    .describe_device = vk_describe_device,
    .open = weir_vk_open,
    .ops = &vk_ops,
};
