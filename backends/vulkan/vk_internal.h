/* The Vulkan backend's private types. One weir_vk instance owns its own
 * VkInstance, VkDevice and per-device function table (volkLoadDeviceTable),
 * so any number of instances, on one device or several, are independent. */
#ifndef WEIR_BACKENDS_VULKAN_INTERNAL_H
#define WEIR_BACKENDS_VULKAN_INTERNAL_H

#include <volk.h>

#include "weir/backend.h"

/* Prefix of every validation-layer message (WEIR_VULKAN_VALIDATION=1); tests
 * fail on it (CTest FAIL_REGULAR_EXPRESSION). */
#define WEIR_VK_VALIDATION_PREFIX "weir-vulkan-validation:"

/* ---- errors (vk_result.c) ---- */
const char *weir_vk_result_name(VkResult result);
/* weir_fail with the VkResult by name; the status follows the result class
 * (out of memory, device lost, unavailable driver...). */
weir_status weir_vk_fail(VkResult result, const char *call, const char *context);

/* ---- loader and instances (vk_instance.c) ---- */
typedef struct weir_vk_instance {
  VkInstance instance;
  VkDebugUtilsMessengerEXT messenger;
  PFN_vkDestroyDebugUtilsMessengerEXT destroy_messenger;
  uint32_t device_count;
  VkPhysicalDevice *devices;
} weir_vk_instance;

/* Loads the loader (once per process), creates an instance (with the
 * validation layer when WEIR_VULKAN_VALIDATION=1) and lists its devices. */
weir_status weir_vk_instance_create(weir_vk_instance *out);
void weir_vk_instance_destroy(weir_vk_instance *inst);
/* Index of the best device: discrete > integrated > virtual > CPU > other. */
uint32_t weir_vk_best_device(const weir_vk_instance *inst);
/* Compute queue family of a device, preferring one with timestamps. */
int weir_vk_compute_family(VkPhysicalDevice device, uint32_t *out_family);
int weir_vk_has_extension(VkPhysicalDevice device, const char *name);

/* ---- device description (vk_info.c) ---- */
weir_status weir_vk_describe_physical(VkPhysicalDevice device, uint32_t index,
                                      weir_device_info *out);

/* ---- the instance (vk_device.c) ---- */
typedef struct weir_vk_buffer {
  VkBuffer buffer;
  VkDeviceMemory memory;
  uint64_t bytes;
  uint8_t *mapped; /* direct mode: persistently mapped device memory */
} weir_vk_buffer;

typedef struct weir_vk_program {
  VkShaderModule module;
  VkDescriptorSetLayout set_layout; /* push-descriptor layout; 0 without bindings */
  VkPipelineLayout layout;
  VkPipeline pipeline;
} weir_vk_program;

/* What the command buffer being recorded has last done, so the next
 * command gets exactly the barrier it needs. */
enum { WEIR_VK_LAST_NONE = 0, WEIR_VK_LAST_COMPUTE = 1, WEIR_VK_LAST_TRANSFER = 2 };

typedef struct weir_vk {
  weir_vk_instance inst;
  VkPhysicalDevice physical;
  uint32_t index;
  VkPhysicalDeviceProperties props;
  uint32_t max_push_descriptors; /* bindings one program may have */
  VkDevice device;
  struct VolkDeviceTable vk; /* this device's functions */
  uint32_t family;
  VkQueue queue;
  int has_timestamps;
  int has_int64, has_int64_atomics; /* shader features enabled on the device */
  int has_float64;                   /* shaderFloat64 (VkFFT double precision) */
  uint32_t timestamp_bits;

  /* Memory: `direct` when one type is device-local + host-visible + coherent
   * (lavapipe, resizable BAR): buffers are mapped and read/written in place. */
  int direct;
  uint32_t buffer_type;  /* memory type of buffers */
  uint32_t staging_type; /* host-visible coherent type of the staging buffer */
  weir_vk_buffer staging; /* persistent, grown on demand (staged mode only) */

  /* Submission: one primary command buffer + one fence, reused by every
   * call; `recording` is set while commands (e.g. copies) wait to be
   * submitted with the next synchronizing call. */
  VkCommandPool pool;
  VkCommandBuffer cmd;
  VkCommandBuffer secondary; /* the repeated group */
  VkFence fence;
  int recording;
  int last; /* WEIR_VK_LAST_* in the recording */
  VkPipeline bound[2]; /* pipeline bound in the primary / secondary buffer */

  VkQueryPool queries; /* timestamps, 2 per step; grown on demand */
  uint32_t query_cap;

  uint64_t fft_call; /* bumped per dispatching call: which FFT plans it uses how (vk_fft.c) */
  /* This instance holds a reference on glslang's process state from its
   * first FFT plan to its destruction (vk_fft.c): glslang then keeps its
   * parsed built-in declarations between plans instead of parsing them again
   * for every VkFFT application (most of a small plan's time). */
  int glslang_held;
} weir_vk;

weir_status weir_vk_open(uint32_t index, const weir_open_options *options, void **out_self);
void weir_vk_destroy(void *self);
weir_status weir_vk_describe(void *self, weir_device_info *out);

/* ---- memory (vk_memory.c) ---- */
weir_status weir_vk_buffer_create(weir_vk *vk, uint64_t bytes, uint32_t type, int map,
                                  weir_vk_buffer *out);
void weir_vk_buffer_destroy(weir_vk *vk, weir_vk_buffer *buf);
weir_status weir_vk_staging_reserve(weir_vk *vk, uint64_t bytes);
weir_status weir_vk_allocate(void *self, uint64_t bytes, void **out_buffer);
void weir_vk_release(void *self, void *buffer);

/* ---- recording and submission (vk_record.c) ---- */
/* Starts the command buffer if it is not being recorded yet. */
weir_status weir_vk_begin(weir_vk *vk);
/* Barrier from whatever the recording did last to `next` (LAST_*). */
void weir_vk_barrier_to(weir_vk *vk, VkCommandBuffer cmd, int next);
/* Records one step: compute->compute barrier when needed, bind, push, dispatch. */
weir_status weir_vk_record_step(weir_vk *vk, VkCommandBuffer cmd, const weir_native_step *step);
/* Ends, submits once and waits on the one fence (when anything was recorded). */
weir_status weir_vk_submit_wait(weir_vk *vk);
/* Submits pending work (e.g. copies) before the host touches mapped memory. */
weir_status weir_vk_flush(weir_vk *vk);

/* ---- transfers (vk_transfer.c) ---- */
weir_status weir_vk_upload_at_many(void *self, const weir_native_upload *items, size_t count);
/* Read-backs inside a submission: _prepare (before recording: may grow the
 * staging buffer), _record (staged mode: the range copies), then after the
 * fence _finish copies into the callers' memory. */
weir_status weir_vk_ranges_prepare(weir_vk *vk, const weir_native_range *ranges, size_t count);
void weir_vk_ranges_record(weir_vk *vk, const weir_native_range *ranges, size_t count);
void weir_vk_ranges_finish(weir_vk *vk, const weir_native_range *ranges, size_t count);
weir_status weir_vk_download_ranges_into(void *self, const weir_native_range *ranges,
                                         size_t count);
weir_status weir_vk_copy(void *self, void *dst, uint64_t dst_offset, void *src,
                         uint64_t src_offset, uint64_t bytes);
weir_status weir_vk_finish(void *self);

/* ---- programs (vk_program.c) ---- */
weir_status weir_vk_prepare_program(void *self, const weir_program *program, void **out_state);
void weir_vk_release_program(void *self, const weir_program *program, void *state);

/* ---- FFT with VkFFT (vk_fft.c) ---- */
weir_status weir_vk_fft_plan(void *self, const weir_fft_desc *desc, void **out_plan);
void weir_vk_fft_destroy(void *self, void *plan);
/* At the instance's destruction: drops its glslang reference, if any. */
void weir_vk_fft_release_compiler(weir_vk *vk);
/* Before recording a call's steps: a new call (weir_vk_fft_begin), then
 * every FFT step of it noted (weir_vk_fft_note, from check_steps), so a plan
 * used with several buffer pairs in one call is staged through its own
 * buffers (its descriptor sets cannot change under a recorded command). */
void weir_vk_fft_begin(weir_vk *vk);
weir_status weir_vk_fft_note(weir_vk *vk, const weir_native_step *step, size_t index);
/* Records an FFT step (copies, VkFFT's dispatches, the scale pass). */
weir_status weir_vk_fft_record(weir_vk *vk, VkCommandBuffer cmd, const weir_native_step *step);

/* ---- dispatch (vk_dispatch.c) ---- */
weir_status weir_vk_dispatch(void *self, const weir_native_step *step);
weir_status weir_vk_sequence(void *self, const weir_native_step *steps, size_t step_count,
                             const weir_native_range *reads, size_t read_count);
weir_status weir_vk_repeated(void *self, const weir_native_step *prefix, size_t prefix_count,
                             const weir_native_step *repeated, size_t repeated_count,
                             uint64_t repeat_count, const weir_native_range *reads,
                             size_t read_count);
weir_status weir_vk_timed(void *self, const weir_native_step *steps, size_t step_count,
                          uint64_t *step_ns);

#endif
