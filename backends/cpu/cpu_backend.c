/* The CPU backend: buffers are host memory, `host` programs run per
 * workgroup on a per-instance thread pool. Every operation completes before
 * it returns, so sequences need no fences: the engine's default sequence
 * implementation (dispatch loop + ranged copy) is already one "sync".
 * cpu:0 .. cpu:7 are distinct instances with separate memory, standing in
 * for several GPUs in residency tests. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backends/cpu/cpu_pool.h"
#include "weir/backend.h"

#define CPU_DEVICE_COUNT 8u
#define CPU_MAX_THREADS 64u
#define CPU_ALIGNMENT 64u

typedef struct cpu_buffer {
  unsigned char *data;
  uint64_t bytes;
  int external; /* imported memory: not ours to free */
} cpu_buffer;

typedef struct cpu_backend {
  uint32_t index;
  uint32_t threads;
  cpu_pool pool;
} cpu_backend;

static uint32_t core_count(void) {
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n < 1 ? 1u : (n > (long)CPU_MAX_THREADS ? CPU_MAX_THREADS : (uint32_t)n);
}

static uint64_t host_memory(void) {
  long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  return pages > 0 && page > 0 ? (uint64_t)pages * (uint64_t)page : 0;
}

static weir_status cpu_probe(uint32_t *count) {
  *count = CPU_DEVICE_COUNT;
  return WEIR_OK;
}

static void fill_info(uint32_t index, uint32_t threads, weir_device_info *out) {
  memset(out, 0, sizeof *out);
  snprintf(out->backend_id, sizeof out->backend_id, "cpu");
  snprintf(out->spec, sizeof out->spec, "cpu:%u", index);
  snprintf(out->name, sizeof out->name, "weir host CPU device %u (%u threads)", index, threads);
  snprintf(out->kind, sizeof out->kind, "cpu");
  snprintf(out->driver, sizeof out->driver, "weir cpu backend %s", WEIR_VERSION_STRING);
  out->memory_bytes = host_memory();
  out->dl_device_type = 1; /* kDLCPU */
  out->dl_device_id = (int32_t)index;
  out->timestamps_are_device = 0;
  snprintf(out->details, sizeof out->details,
           "threads: %u (one per core; the caller's thread works too)\n"
           "memory: host RAM, separate per cpu:N instance\n"
           "format: host (C functions, one call per workgroup)",
           threads);
}

static weir_status cpu_describe_device(uint32_t index, weir_device_info *out) {
  if (index >= CPU_DEVICE_COUNT && index != WEIR_DEVICE_DEFAULT)
    return weir_fail(WEIR_ERR_UNAVAILABLE,
                     "cpu backend has no device %u (devices 0..%u). Fix: use cpu:0 .. cpu:%u.",
                     index, CPU_DEVICE_COUNT - 1, CPU_DEVICE_COUNT - 1);
  fill_info(index == WEIR_DEVICE_DEFAULT ? 0 : index, core_count(), out);
  return WEIR_OK;
}

static weir_status cpu_open(uint32_t index, const weir_open_options *options, void **out) {
  cpu_backend *c = calloc(1, sizeof *c);
  if (!c)
    return weir_fail(WEIR_ERR_OUT_OF_MEMORY, "cpu backend: no memory for the instance. Fix: free memory.");
  c->index = index == WEIR_DEVICE_DEFAULT ? 0 : index;
  c->threads = options && options->threads ? options->threads : core_count();
  if (c->threads > CPU_MAX_THREADS) c->threads = CPU_MAX_THREADS;
  weir_status st = cpu_pool_init(&c->pool, c->threads);
  if (st != WEIR_OK) {
    free(c);
    return st;
  }
  *out = c;
  return WEIR_OK;
}

static void cpu_destroy(void *self) {
  cpu_backend *c = self;
  cpu_pool_destroy(&c->pool);
  free(c);
}

static weir_status cpu_describe(void *self, weir_device_info *out) {
  cpu_backend *c = self;
  fill_info(c->index, c->threads, out);
  return WEIR_OK;
}

static weir_status cpu_allocate(void *self, uint64_t bytes, void **out) {
  (void)self;
  uint64_t rounded = (bytes + CPU_ALIGNMENT - 1) / CPU_ALIGNMENT * CPU_ALIGNMENT;
  cpu_buffer *b = malloc(sizeof *b);
  void *data = rounded >= bytes && rounded <= SIZE_MAX ? aligned_alloc(CPU_ALIGNMENT, rounded) : NULL;
  if (!b || !data) {
    free(b);
    free(data);
    return weir_fail(WEIR_ERR_OUT_OF_MEMORY,
                     "cpu backend: allocating %llu bytes failed. Fix: free buffers or allocate "
                     "less.",
                     (unsigned long long)bytes);
  }
  memset(data, 0, rounded); /* deterministic contents for tests and sanitizers */
  b->data = data;
  b->bytes = bytes;
  b->external = 0;
  *out = b;
  return WEIR_OK;
}

static void cpu_release(void *self, void *buffer) {
  (void)self;
  cpu_buffer *b = buffer;
  if (!b->external) free(b->data);
  free(b);
}

static weir_status cpu_upload(void *self, const weir_native_upload *items, size_t count) {
  (void)self;
  for (size_t i = 0; i < count; ++i) {
    cpu_buffer *b = items[i].buffer;
    /* memmove: imported host memory may overlap the source. */
    if (items[i].bytes) memmove(b->data + items[i].offset, items[i].data, items[i].bytes);
  }
  return WEIR_OK;
}

static weir_status cpu_download(void *self, const weir_native_range *ranges, size_t count) {
  (void)self;
  for (size_t i = 0; i < count; ++i) {
    cpu_buffer *b = ranges[i].buffer;
    if (ranges[i].bytes) memmove(ranges[i].output, b->data + ranges[i].offset, ranges[i].bytes);
  }
  return WEIR_OK;
}

static weir_status cpu_dispatch(void *self, const weir_native_step *step) {
  cpu_backend *c = self;
  /* Host kernels receive the data pointers, not our buffer records. */
  void *data[WEIR_MAX_BINDINGS];
  for (uint32_t i = 0; i < step->binding_count; ++i)
    data[i] = ((cpu_buffer *)step->bindings[i])->data;
  weir_native_step resolved = *step;
  resolved.bindings = data;
  cpu_pool_run(&c->pool, &resolved);
  return WEIR_OK;
}

/* Sequences need no fences here: every step has completed (and its writes
 * are visible to the next, through the pool's mutex hand-off) when
 * cpu_dispatch returns, so a whole sequence is one host "synchronization". */
static weir_status cpu_sequence(void *self, const weir_native_step *steps, size_t step_count,
                                const weir_native_range *reads, size_t read_count) {
  for (size_t i = 0; i < step_count; ++i) WEIR_TRY(cpu_dispatch(self, &steps[i]));
  return cpu_download(self, reads, read_count);
}

static weir_status cpu_repeated(void *self, const weir_native_step *prefix, size_t prefix_count,
                                const weir_native_step *repeated, size_t repeated_count,
                                uint64_t repeat_count, const weir_native_range *reads,
                                size_t read_count) {
  for (size_t i = 0; i < prefix_count; ++i) WEIR_TRY(cpu_dispatch(self, &prefix[i]));
  for (uint64_t k = 0; k < repeat_count; ++k)
    for (size_t i = 0; i < repeated_count; ++i) WEIR_TRY(cpu_dispatch(self, &repeated[i]));
  return cpu_download(self, reads, read_count);
}

static weir_status cpu_copy(void *self, void *dst, uint64_t dst_offset, void *src,
                            uint64_t src_offset, uint64_t bytes) {
  (void)self;
  memmove(((cpu_buffer *)dst)->data + dst_offset, ((cpu_buffer *)src)->data + src_offset, bytes);
  return WEIR_OK;
}

static weir_status cpu_export_pointer(void *self, void *buffer, void **out) {
  (void)self;
  *out = ((cpu_buffer *)buffer)->data;
  return WEIR_OK;
}

static weir_status cpu_import_external(void *self, void *pointer, uint64_t bytes, void **out) {
  (void)self;
  cpu_buffer *b = malloc(sizeof *b);
  if (!b)
    return weir_fail(WEIR_ERR_OUT_OF_MEMORY, "cpu backend: no memory to wrap external memory. Fix: free memory.");
  *b = (cpu_buffer){pointer, bytes, 1};
  *out = b;
  return WEIR_OK;
}

static const weir_backend_ops cpu_ops = {
    .destroy = cpu_destroy,
    .describe = cpu_describe,
    .allocate = cpu_allocate,
    .release = cpu_release,
    .upload_many = cpu_upload,
    .upload_at_many = cpu_upload,
    .download_ranges_into = cpu_download,
    .dispatch = cpu_dispatch,
    .dispatch_sequence_read_ranges_into = cpu_sequence,
    .dispatch_repeated_sequence_read_ranges_into = cpu_repeated,
    .copy = cpu_copy,
    .export_pointer = cpu_export_pointer,
    .import_external = cpu_import_external,
};

const weir_provider weir_provider_cpu = {
    .abi_version = WEIR_BACKEND_ABI_VERSION,
    .id = "cpu",
    .version = WEIR_VERSION_STRING,
    .format = WEIR_FORMAT_HOST,
    .dl_device_type = 1,
    .probe = cpu_probe,
    .describe_device = cpu_describe_device,
    .open = cpu_open,
    .ops = &cpu_ops,
};
