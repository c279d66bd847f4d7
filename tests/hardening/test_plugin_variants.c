/* A small host-memory backend built several times with one defect each, for
 * the hardening tests (issue #11):
 *   PLUGIN_STALL         dispatch returns success without running anything
 *                        (a backend that makes no progress: items 5)
 *   PLUGIN_BAD_FORMAT    an invalid program format value      (item 7)
 *   PLUGIN_LONG_ID       an id longer than the reports' field  (item 7)
 *   PLUGIN_BUILTIN_ID    the id of a built-in backend ("cpu")  (item 7)
 *   PLUGIN_UNTERMINATED  device strings filled to the last byte, no NUL (item 7)
 * Without a defect macro the id is PLUGIN_ID and the backend is well formed
 * (it still runs nothing: the tests that use it never dispatch). */
#include <stdlib.h>
#include <string.h>

#include "weir/backend.h"

#ifndef PLUGIN_ID
#define PLUGIN_ID "stall"
#endif

static weir_status probe(uint32_t *count) {
  *count = 1;
  return WEIR_OK;
}

static weir_status describe_device(uint32_t index, weir_device_info *out) {
  memset(out, 0, sizeof *out);
#ifdef PLUGIN_UNTERMINATED
  /* Every field to its last byte with no terminator: readers must bound. */
  memset(out->backend_id, 'b', sizeof out->backend_id);
  memset(out->spec, 's', sizeof out->spec);
  memset(out->name, 'n', sizeof out->name);
  memset(out->kind, 'k', sizeof out->kind);
  memset(out->driver, 'd', sizeof out->driver);
  memset(out->details, 'x', sizeof out->details);
#else
  strcpy(out->backend_id, "plugin");
  strcpy(out->spec, PLUGIN_ID);
  strcpy(out->name, "hardening test device");
  strcpy(out->kind, "cpu");
  strcpy(out->driver, "none");
#endif
  out->dl_device_type = 1;
  out->dl_device_id = (int32_t)index;
  return WEIR_OK;
}

static int instance;

static weir_status open_device(uint32_t index, const weir_open_options *options, void **self) {
  (void)index;
  (void)options;
  *self = &instance;
  return WEIR_OK;
}

static void destroy(void *self) { (void)self; }

static weir_status describe(void *self, weir_device_info *out) {
  (void)self;
  return describe_device(0, out);
}

static weir_status allocate(void *self, uint64_t bytes, void **out) {
  (void)self;
  *out = calloc(1, (size_t)bytes);
  return *out ? WEIR_OK : weir_fail(WEIR_ERR_OUT_OF_MEMORY, "no memory. Fix: free memory.");
}

static void release(void *self, void *buffer) {
  (void)self;
  free(buffer);
}

static weir_status upload_many(void *self, const weir_native_upload *items, size_t count) {
  (void)self;
  for (size_t i = 0; i < count; ++i)
    memcpy((char *)items[i].buffer + items[i].offset, items[i].data, (size_t)items[i].bytes);
  return WEIR_OK;
}

static weir_status download_ranges_into(void *self, const weir_native_range *ranges,
                                        size_t count) {
  (void)self;
  for (size_t i = 0; i < count; ++i)
    memcpy(ranges[i].output, (char *)ranges[i].buffer + ranges[i].offset, (size_t)ranges[i].bytes);
  return WEIR_OK;
}

/* The defect every variant shares: success, and nothing ran. */
static weir_status dispatch(void *self, const weir_native_step *step) {
  (void)self;
  (void)step;
  return WEIR_OK;
}

static const weir_backend_ops ops = {
    .destroy = destroy,
    .describe = describe,
    .allocate = allocate,
    .release = release,
    .upload_many = upload_many,
    .download_ranges_into = download_ranges_into,
    .dispatch = dispatch,
};

static const weir_provider provider = {
    .abi_version = WEIR_BACKEND_ABI_VERSION,
#if defined(PLUGIN_LONG_ID)
    .id = "an-id-longer-than-sixteen-characters",
#elif defined(PLUGIN_BUILTIN_ID)
    .id = "cpu",
#else
    .id = PLUGIN_ID,
#endif
    .version = "1.0.0",
#ifdef PLUGIN_BAD_FORMAT
    .format = (weir_program_format)7,
#else
    .format = WEIR_FORMAT_HOST,
#endif
    .dl_device_type = 1,
    .probe = probe,
    .describe_device = describe_device,
    .open = open_device,
    .ops = &ops,
};

__attribute__((visibility("default"))) const weir_provider *weir_plugin_register(void);
const weir_provider *weir_plugin_register(void) { return &provider; }
