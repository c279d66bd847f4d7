/* The CUDA provider: probing, describing and opening devices; the ops table. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backends/cuda/cuda_backend.h"
#include "backends/cuda/cuda_fft.h"

#define KDL_CUDA 2

static weir_status cuda_probe(uint32_t *device_count) {
  const weir_cuda_driver *d = weir_cuda_driver_get();
  if (!d) return WEIR_ERR_UNAVAILABLE;
  int count = 0;
  WEIR_CUDA_TRY(d, d->pcuDeviceGetCount(&count), "cuDeviceGetCount");
  if (count <= 0)
    return weir_fail(WEIR_ERR_UNAVAILABLE,
                     "cuda: the driver (version %d) sees no CUDA device. Fix: check nvidia-smi "
                     "and CUDA_VISIBLE_DEVICES, or use another backend (cpu, vulkan)",
                     d->driver_version);
  if (device_count) *device_count = (uint32_t)count;
  return WEIR_OK;
}

static weir_status check_ordinal(uint32_t index, uint32_t count) {
  if (index < count) return WEIR_OK;
  return weir_fail(WEIR_ERR_OUT_OF_RANGE,
                   "cuda: device %u does not exist (this machine has %u CUDA device%s). Fix: use "
                   "cuda:0 .. cuda:%u (weir info lists them)",
                   index, count, count == 1 ? "" : "s", count ? count - 1 : 0);
}

static weir_status cuda_describe_device(uint32_t index, weir_device_info *out) {
  uint32_t count = 0;
  WEIR_TRY(cuda_probe(&count));
  WEIR_TRY(check_ordinal(index, count));
  return weir_cuda_describe_ordinal(weir_cuda_driver_get(), index, out);
}

/* "The best device": highest compute capability, then most memory. */
static weir_status best_ordinal(const weir_cuda_driver *d, uint32_t count, uint32_t *out) {
  uint64_t best_score = 0;
  *out = 0;
  for (uint32_t i = 0; i < count; ++i) {
    CUdevice dev;
    int major = 0, minor = 0;
    size_t mem = 0;
    WEIR_CUDA_TRY(d, d->pcuDeviceGet(&dev, (int)i), "cuDeviceGet(%u)", i);
    WEIR_CUDA_TRY(d, d->pcuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev),
                  "cuDeviceGetAttribute(COMPUTE_CAPABILITY_MAJOR, device %u)", i);
    WEIR_CUDA_TRY(d, d->pcuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev),
                  "cuDeviceGetAttribute(COMPUTE_CAPABILITY_MINOR, device %u)", i);
    WEIR_CUDA_TRY(d, d->pcuDeviceTotalMem(&mem, dev), "cuDeviceTotalMem(device %u)", i);
    uint64_t score = ((uint64_t)(major * 10 + minor) << 48) | (mem >> 20);
    if (score > best_score) {
      best_score = score;
      *out = i;
    }
  }
  return WEIR_OK;
}

static const weir_backend_ops cuda_ops = {
    .destroy = weir_cuda_destroy,
    .describe = weir_cuda_describe,
    .allocate = weir_cuda_allocate,
    .release = weir_cuda_release,
    .upload_many = weir_cuda_upload_many,
    .upload_at_many = weir_cuda_upload_many, /* offsets are native to cuMemcpyHtoDAsync */
    .download_ranges_into = weir_cuda_download_ranges_into,
    .prepare_program = weir_cuda_prepare_program,
    .release_program = weir_cuda_release_program,
    .dispatch = weir_cuda_dispatch,
    .dispatch_sequence_read_ranges_into = weir_cuda_dispatch_sequence,
    .dispatch_repeated_sequence_read_ranges_into = weir_cuda_dispatch_repeated,
    .dispatch_sequence_timed = weir_cuda_dispatch_timed,
    .copy = weir_cuda_copy,
    .finish = weir_cuda_finish,
    .export_pointer = weir_cuda_export_pointer,
    .import_external = weir_cuda_import_external,
    .fft_plan = weir_cuda_fft_plan,
    .fft_destroy = weir_cuda_fft_destroy,
};

static void graph_destroy(void *context, void *graph, void *exec) {
  weir_cuda_instance *inst = context;
  if (inst->pid != getpid()) return; /* the parent's graphs: not ours to destroy */
  if (exec) inst->d->pcuGraphExecDestroy((CUgraphExec)exec);
  if (graph) inst->d->pcuGraphDestroy((CUgraph)graph);
}

/* Context, stream, device limits and the first staging buffer. */
static weir_status open_resources(weir_cuda_instance *inst) {
  const weir_cuda_driver *d = inst->d;
  uint32_t n = inst->ordinal;
  WEIR_CUDA_TRY(d, d->pcuDeviceGet(&inst->device, (int)n), "cuDeviceGet(%u)", n);
  WEIR_CUDA_TRY(d, d->pcuDevicePrimaryCtxRetain(&inst->context, inst->device),
                "cuDevicePrimaryCtxRetain(device %u)", n);
  WEIR_TRY(weir_cuda_enter(inst));
  static const CUdevice_attribute grid_attr[3] = {CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X,
                                                  CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y,
                                                  CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z};
  static const CUdevice_attribute block_attr[3] = {CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X,
                                                   CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y,
                                                   CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z};
  for (int i = 0; i < 3; ++i) {
    WEIR_CUDA_TRY(d, d->pcuDeviceGetAttribute(&inst->max_grid[i], grid_attr[i], inst->device),
                  "cuDeviceGetAttribute(MAX_GRID_DIM_%c, device %u)", "XYZ"[i], n);
    WEIR_CUDA_TRY(d, d->pcuDeviceGetAttribute(&inst->max_block[i], block_attr[i], inst->device),
                  "cuDeviceGetAttribute(MAX_BLOCK_DIM_%c, device %u)", "XYZ"[i], n);
  }
  WEIR_CUDA_TRY(d, d->pcuStreamCreate(&inst->stream, CU_STREAM_NON_BLOCKING),
                "cuStreamCreate(NON_BLOCKING) on device %u", n);
  return weir_cuda_staging_reserve(inst, WEIR_CUDA_STAGING_MIN);
}

static weir_status cuda_open(uint32_t index, const weir_open_options *options, void **out_self) {
  (void)options; /* the memory limit is enforced by the engine */
  uint32_t count = 0;
  WEIR_TRY(cuda_probe(&count));
  const weir_cuda_driver *d = weir_cuda_driver_get();
  if (index == WEIR_DEVICE_DEFAULT) WEIR_TRY(best_ordinal(d, count, &index));
  WEIR_TRY(check_ordinal(index, count));
  weir_cuda_instance *inst = calloc(1, sizeof *inst);
  if (!inst)
    return weir_fail(WEIR_ERR_OUT_OF_MEMORY,
                     "cuda: allocating the instance (%zu bytes) failed. Fix: free host memory",
                     sizeof *inst);
  inst->d = d;
  inst->pid = getpid();
  inst->ordinal = index;
  weir_cuda_graph_cache_init(&inst->graphs, graph_destroy, inst);
  weir_status s = open_resources(inst);
  if (s != WEIR_OK) {
    weir_cuda_destroy(inst);
    return s;
  }
  *out_self = inst;
  return WEIR_OK;
}

void weir_cuda_destroy(void *self) {
  weir_cuda_instance *inst = self;
  if (!inst) return;
  const weir_cuda_driver *d = inst->d;
  /* In a forked child the driver's objects belong to the parent: only the
   * host memory is ours to free. */
  if (inst->context && inst->pid == getpid()) {
    d->pcuCtxSetCurrent(inst->context);
    if (inst->stream) d->pcuStreamSynchronize(inst->stream);
    weir_cuda_graph_cache_free(&inst->graphs);
    for (size_t i = 0; i < inst->event_count; ++i) d->pcuEventDestroy(inst->events[i]);
    for (size_t i = 0; i < inst->module_count; ++i) d->pcuModuleUnload(inst->modules[i].module);
    if (inst->staging) d->pcuMemFreeHost(inst->staging);
    if (inst->stream) d->pcuStreamDestroy(inst->stream);
    d->pcuDevicePrimaryCtxRelease(inst->device);
  }
  weir_cuda_graph_cache_free(&inst->graphs);
  free(inst->events);
  free(inst->modules);
  free(inst);
}

weir_status weir_cuda_describe(void *self, weir_device_info *out) {
  weir_cuda_instance *inst = self;
  WEIR_TRY(weir_cuda_check_process(inst->pid));
  return weir_cuda_describe_ordinal(inst->d, inst->ordinal, out);
}

weir_status weir_cuda_enter(weir_cuda_instance *inst) {
  WEIR_TRY(weir_cuda_check_process(inst->pid));
  WEIR_CUDA_TRY(inst->d, inst->d->pcuCtxSetCurrent(inst->context),
                "cuCtxSetCurrent(primary context of device %u)", inst->ordinal);
  return WEIR_OK;
}

weir_status weir_cuda_sync(weir_cuda_instance *inst, const char *what) {
  WEIR_CUDA_TRY(inst->d, inst->d->pcuStreamSynchronize(inst->stream),
                "cuStreamSynchronize after %s on device %u", what, inst->ordinal);
  return WEIR_OK;
}

weir_status weir_cuda_finish(void *self) {
  weir_cuda_instance *inst = self;
  WEIR_TRY(weir_cuda_enter(inst));
  return weir_cuda_sync(inst, "finish");
}

const weir_provider weir_provider_cuda = {
    .abi_version = WEIR_BACKEND_ABI_VERSION,
    .id = "cuda",
    .version = "0.1.0",
    .format = WEIR_FORMAT_CUDA,
    .dl_device_type = KDL_CUDA,
    .probe = cuda_probe,
    .describe_device = cuda_describe_device,
    .open = cuda_open,
    .ops = &cuda_ops,
};
