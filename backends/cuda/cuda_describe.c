/* Describing a CUDA device for `weir info` and weir_backend_device_info. */
#include <stdio.h>
#include <string.h>

#include "backends/cuda/cuda_backend.h"

typedef struct attr_line {
  CUdevice_attribute attr;
  const char *label;
} attr_line;

static const attr_line detail_attrs[] = {
    {CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, "multiprocessors"},
    {CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, "max threads per block"},
    {CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X, "max grid x"},
    {CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y, "max grid y"},
    {CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z, "max grid z"},
    {CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, "max shared memory per block (bytes)"},
    {CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, "L2 cache (bytes)"},
    {CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH, "memory bus width (bits)"},
    {CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED, "stream-ordered allocator"},
};

/* Appends "label: value\n" to out->details (silently bounded by its size). */
static void add_detail(weir_device_info *out, const char *label, long long value) {
  size_t used = strlen(out->details);
  if (used + 1 < sizeof out->details)
    snprintf(out->details + used, sizeof out->details - used, "%s: %lld\n", label, value);
}

weir_status weir_cuda_describe_ordinal(const weir_cuda_driver *d, uint32_t ordinal,
                                       weir_device_info *out) {
  CUdevice dev;
  int major = 0, minor = 0, integrated = 0, bus = 0, domain = 0, pci_dev = 0;
  size_t mem = 0;
  memset(out, 0, sizeof *out);
  WEIR_CUDA_TRY(d, d->pcuDeviceGet(&dev, (int)ordinal), "cuDeviceGet(%u)", ordinal);
  WEIR_CUDA_TRY(d, d->pcuDeviceGetName(out->name, (int)sizeof out->name, dev),
                "cuDeviceGetName(device %u)", ordinal);
  WEIR_CUDA_TRY(d, d->pcuDeviceTotalMem(&mem, dev), "cuDeviceTotalMem(device %u)", ordinal);
  WEIR_CUDA_TRY(d, d->pcuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev),
                "cuDeviceGetAttribute(COMPUTE_CAPABILITY_MAJOR, device %u)", ordinal);
  WEIR_CUDA_TRY(d, d->pcuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev),
                "cuDeviceGetAttribute(COMPUTE_CAPABILITY_MINOR, device %u)", ordinal);
  WEIR_CUDA_TRY(d, d->pcuDeviceGetAttribute(&integrated, CU_DEVICE_ATTRIBUTE_INTEGRATED, dev),
                "cuDeviceGetAttribute(INTEGRATED, device %u)", ordinal);
  /* PCI location is informative only: a driver that refuses it is not fatal. */
  d->pcuDeviceGetAttribute(&domain, CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID, dev);
  d->pcuDeviceGetAttribute(&bus, CU_DEVICE_ATTRIBUTE_PCI_BUS_ID, dev);
  d->pcuDeviceGetAttribute(&pci_dev, CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID, dev);

  snprintf(out->backend_id, sizeof out->backend_id, "cuda");
  snprintf(out->spec, sizeof out->spec, "cuda:%u", ordinal);
  snprintf(out->kind, sizeof out->kind, "%s", integrated ? "integrated-gpu" : "discrete-gpu");
  snprintf(out->driver, sizeof out->driver, "CUDA driver %d.%d", d->driver_version / 1000,
           (d->driver_version % 1000) / 10);
  out->memory_bytes = mem;
  out->dl_device_type = 2; /* kDLCUDA */
  out->dl_device_id = (int32_t)ordinal;
  out->timestamps_are_device = 1;
  out->subgroup_size = 32; /* warps: __ballot_sync and __shfl_sync on every supported GPU */
  out->subgroup_ops = WEIR_SUBGROUP_BASIC | WEIR_SUBGROUP_BALLOT;
  snprintf(out->details, sizeof out->details,
           "compute capability: %d.%d\npci: %04x:%02x:%02x\n", major, minor, domain, bus, pci_dev);
  for (size_t i = 0; i < sizeof detail_attrs / sizeof detail_attrs[0]; ++i) {
    int value = 0;
    if (d->pcuDeviceGetAttribute(&value, detail_attrs[i].attr, dev) == CUDA_SUCCESS)
      add_detail(out, detail_attrs[i].label, value);
  }
  return WEIR_OK;
}
