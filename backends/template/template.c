/* The template backend: weir's smallest complete backend, built as a plugin.
 *
 * It runs host programs (WEIR_FORMAT_HOST) on the calling thread, one
 * workgroup after another, on buffers in plain malloc'd memory. It implements
 * the seven required operations of weir_backend_ops, plus upload_at_many,
 * copy, export_pointer and import_external because on host memory they are a
 * few lines each; every other operation is left NULL so that the engine's
 * default (built from the required ones) is used. README.md walks through
 * every field. Everything the engine already checks (handles, ranges,
 * bindings, push-constant sizes, grids) is NOT checked again here. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "weir/backend.h"

#define TEMPLATE_ID "template"
#define TEMPLATE_VERSION "1.0.0"

/* Exported with default visibility: the one symbol weir looks up. */
#define TEMPLATE_EXPORT __attribute__((visibility("default")))

/* One instance. A real backend keeps its device, queue and pools here. */
typedef struct template_instance {
  weir_open_options options;
} template_instance;

/* One buffer: host bytes, and whether they belong to someone else. */
typedef struct template_buffer {
  unsigned char *bytes;
  uint64_t size;
  int external;
} template_buffer;

/* ---- provider: identity, probing, opening ------------------------------- */

static weir_status template_probe(uint32_t *device_count) {
  *device_count = 1; /* the host is always there */
  return WEIR_OK;
}

static weir_status template_describe_device(uint32_t index, weir_device_info *out) {
  if (index != 0 && index != WEIR_DEVICE_DEFAULT)
    return weir_fail(WEIR_ERR_UNAVAILABLE,
                     "template backend: device %u does not exist (it has 1 device). "
                     "Fix: use plugin spec without an index or with :0.",
                     index);
  memset(out, 0, sizeof *out);
  strcpy(out->backend_id, TEMPLATE_ID);
  strcpy(out->spec, TEMPLATE_ID ":0");
  strcpy(out->name, "template (single-threaded host)");
  strcpy(out->kind, "cpu");
  strcpy(out->driver, "weir template plugin " TEMPLATE_VERSION);
  long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  out->memory_bytes = pages > 0 && page > 0 ? (uint64_t)pages * (uint64_t)page : 0;
  out->dl_device_type = 1; /* kDLCPU */
  out->dl_device_id = 0;
  out->timestamps_are_device = 0; /* the engine's timed default uses the host clock */
  strcpy(out->details, "threads: 1\nformat: host\n");
  return WEIR_OK;
}

static weir_status template_open(uint32_t index, const weir_open_options *options,
                                 void **out_self) {
  weir_device_info probe = WEIR_DEVICE_INFO_INIT;
  WEIR_TRY(template_describe_device(index, &probe));
  template_instance *self = calloc(1, sizeof *self);
  if (!self)
    return weir_fail(WEIR_ERR_OUT_OF_MEMORY,
                     "template backend: could not allocate an instance (%zu bytes). "
                     "Fix: free host memory.",
                     sizeof *self);
  if (options) self->options = *options;
  *out_self = self;
  return WEIR_OK;
}

/* ---- required operations ------------------------------------------------ */

static void template_destroy(void *self) { free(self); }

static weir_status template_describe(void *self, weir_device_info *out) {
  (void)self;
  return template_describe_device(0, out);
}

static weir_status template_allocate(void *self, uint64_t bytes, void **out_buffer) {
  (void)self;
  template_buffer *buffer = calloc(1, sizeof *buffer);
  unsigned char *data = bytes <= SIZE_MAX ? malloc((size_t)bytes) : NULL;
  if (!buffer || !data) {
    free(buffer);
    free(data);
    return weir_fail(WEIR_ERR_OUT_OF_MEMORY,
                     "template backend: allocating %llu bytes failed. "
                     "Fix: allocate less, or free buffers first.",
                     (unsigned long long)bytes);
  }
  buffer->bytes = data;
  buffer->size = bytes;
  *out_buffer = buffer;
  return WEIR_OK;
}

static void template_release(void *self, void *native) {
  (void)self;
  template_buffer *buffer = native;
  if (!buffer->external) free(buffer->bytes);
  free(buffer);
}

static weir_status template_upload_many(void *self, const weir_native_upload *items, size_t count) {
  (void)self;
  for (size_t i = 0; i < count; ++i) {
    template_buffer *buffer = items[i].buffer;
    memcpy(buffer->bytes + items[i].offset, items[i].data, (size_t)items[i].bytes);
  }
  return WEIR_OK;
}

static weir_status template_download_ranges_into(void *self, const weir_native_range *ranges,
                                                 size_t count) {
  (void)self;
  for (size_t i = 0; i < count; ++i) {
    const template_buffer *buffer = ranges[i].buffer;
    memcpy(ranges[i].output, buffer->bytes + ranges[i].offset, (size_t)ranges[i].bytes);
  }
  return WEIR_OK;
}

/* Runs every workgroup of the grid in order on this thread. Host kernels loop
 * over their own invocations, so one call per workgroup is all it takes. */
static weir_status template_dispatch(void *self, const weir_native_step *step) {
  (void)self;
  const weir_program *program = step->program;
  void *bindings[WEIR_MAX_BINDINGS];
  for (uint32_t i = 0; i < step->binding_count; ++i)
    bindings[i] = ((template_buffer *)step->bindings[i])->bytes;
  weir_host_invocation inv = {
      .grid = {step->grid.x, step->grid.y, step->grid.z},
      .workgroup_size = {program->workgroup_size[0], program->workgroup_size[1],
                         program->workgroup_size[2]},
      .bindings = bindings,
      .binding_bytes = step->binding_bytes,
      .push_constants = step->push_constants,
      .push_constant_bytes = step->push_constant_bytes,
  };
  for (uint32_t z = 0; z < step->grid.z; ++z)
    for (uint32_t y = 0; y < step->grid.y; ++y)
      for (uint32_t x = 0; x < step->grid.x; ++x) {
        inv.workgroup_id[0] = x;
        inv.workgroup_id[1] = y;
        inv.workgroup_id[2] = z;
        program->host(&inv);
      }
  return WEIR_OK;
}

/* ---- optional operations worth having on host memory ---------------------- */

/* Without it, the engine refuses non-zero upload offsets. Host memory makes
 * ranged uploads the same loop as upload_many. */
static weir_status template_upload_at_many(void *self, const weir_native_upload *items,
                                           size_t count) {
  return template_upload_many(self, items, count);
}

/* Without it, the engine stages copies through host memory (download, then
 * upload_at). memmove: source and destination may be the same buffer. */
static weir_status template_copy(void *self, void *dst, uint64_t dst_offset, void *src,
                                 uint64_t src_offset, uint64_t bytes) {
  (void)self;
  template_buffer *d = dst;
  const template_buffer *s = src;
  memmove(d->bytes + dst_offset, s->bytes + src_offset, (size_t)bytes);
  return WEIR_OK;
}

static weir_status template_export_pointer(void *self, void *native, void **out_pointer) {
  (void)self;
  *out_pointer = ((template_buffer *)native)->bytes;
  return WEIR_OK;
}

static weir_status template_import_external(void *self, void *pointer, uint64_t bytes,
                                            void **out_buffer) {
  (void)self;
  template_buffer *buffer = calloc(1, sizeof *buffer);
  if (!buffer)
    return weir_fail(WEIR_ERR_OUT_OF_MEMORY,
                     "template backend: importing %llu external bytes failed to allocate "
                     "its record. Fix: free host memory.",
                     (unsigned long long)bytes);
  buffer->bytes = pointer;
  buffer->size = bytes;
  buffer->external = 1; /* release frees the record, never the memory */
  *out_buffer = buffer;
  return WEIR_OK;
}

/* ---- the tables ----------------------------------------------------------- */

static const weir_backend_ops template_ops = {
    .destroy = template_destroy,
    .describe = template_describe,
    .allocate = template_allocate,
    .release = template_release,
    .upload_many = template_upload_many,
    .upload_at_many = template_upload_at_many,
    .download_ranges_into = template_download_ranges_into,
    .prepare_program = NULL, /* nothing to compile for host code */
    .release_program = NULL,
    .dispatch = template_dispatch,
    .dispatch_sequence_read_ranges_into = NULL,          /* engine: dispatch each step */
    .dispatch_repeated_sequence_read_ranges_into = NULL, /* engine: loop over dispatch */
    .dispatch_sequence_timed = NULL,                     /* engine: host clock per step */
    .copy = template_copy,
    .finish = NULL, /* every operation completes before it returns */
    .export_pointer = template_export_pointer,
    .import_external = template_import_external,
};

static const weir_provider template_provider = {
    .abi_version = WEIR_BACKEND_ABI_VERSION,
    .id = TEMPLATE_ID,
    .version = TEMPLATE_VERSION,
    .format = WEIR_FORMAT_HOST,
    .dl_device_type = 1, /* kDLCPU */
    .probe = template_probe,
    .describe_device = template_describe_device,
    .open = template_open,
    .ops = &template_ops,
};

TEMPLATE_EXPORT const weir_provider *weir_plugin_register(void);

const weir_provider *weir_plugin_register(void) { return &template_provider; }
