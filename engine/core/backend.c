/* Backend instances: the handle table (allocate, free, validation), memory
 * caps, statistics and the per-instance program cache. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <dlfcn.h>
#include <errno.h>

#include "engine/core/internal.h"

uint64_t weir_now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

weir_status weir_grow(void **array, size_t *capacity, size_t need, size_t size) {
  if (need <= *capacity) return WEIR_OK;
  if (size == 0 || need > SIZE_MAX / size)
    return weir_fail(WEIR_ERR_OUT_OF_RANGE,
                     "engine bookkeeping for %zu items of %zu bytes exceeds the address space. "
                     "Fix: check the count you passed; it is larger than any array can be.",
                     need, size);
  size_t cap = *capacity ? *capacity : 8;
  while (cap < need) cap = cap > SIZE_MAX / 2 / size ? need : cap * 2;
  void *grown = realloc(*array, cap * size);
  if (!grown)
    return weir_fail(WEIR_ERR_OUT_OF_MEMORY,
                     "host allocation of %zu bytes for engine bookkeeping failed. Fix: free host "
                     "memory or use smaller batches.",
                     cap * size);
  *array = grown;
  *capacity = cap;
  return WEIR_OK;
}

void weir_device_info_terminate(weir_device_info *d) {
  d->backend_id[sizeof d->backend_id - 1] = '\0';
  d->spec[sizeof d->spec - 1] = '\0';
  d->name[sizeof d->name - 1] = '\0';
  d->kind[sizeof d->kind - 1] = '\0';
  d->driver[sizeof d->driver - 1] = '\0';
  d->details[sizeof d->details - 1] = '\0';
}

/* Instance ids: the one piece of process-wide state in the engine, and not
 * configuration: a counter that only hands out distinct numbers. It must be
 * process-wide because a handle outlives its instance and is checked against
 * whatever instance later sits at the same address; atomic so that instances
 * opened on different threads never share an id. 64 bits never wrap. */
static _Atomic uint64_t next_instance_id = 1;

/* WEIR_MAX_BINDING_BYTES stands in for weir_open_options.max_binding_bytes
 * when the caller left it 0 (tests and users force small limits on any
 * backend without code changes). A value that is not a byte count is an
 * error, never ignored. */
static weir_status binding_limit_from_env(weir_open_options *o) {
  const char *text = getenv("WEIR_MAX_BINDING_BYTES");
  if (o->max_binding_bytes || !text || !*text) return WEIR_OK;
  char *end = NULL;
  errno = 0;
  unsigned long long v = strtoull(text, &end, 10);
  if (errno || *end || text[0] < '0' || text[0] > '9' || v < 64u)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "WEIR_MAX_BINDING_BYTES is '%s', not a byte count of at least 64. Fix: set it "
                     "to a number such as 65536, or unset it.",
                     text);
  o->max_binding_bytes = v;
  return WEIR_OK;
}

weir_status weir_backend_wrap(const weir_provider *provider, void *plugin_handle, uint32_t index,
                              const weir_open_options *options, weir_backend **out) {
  weir_open_options known; /* the caller's fields this library knows, the rest 0 */
  WEIR_TRY(weir_struct_in("weir_backend_open_ex", "weir_open_options", options,
                          WEIR_OPEN_OPTIONS_SIZE_V1, sizeof known, &known));
  weir_backend *b = calloc(1, sizeof *b);
  if (!b)
    return weir_fail(WEIR_ERR_OUT_OF_MEMORY,
                     "opening backend '%s': no host memory for the instance. Fix: free memory.",
                     provider->id);
  atomic_init(&b->refs, 1u);
  b->magic = WEIR_BACKEND_LIVE;
  b->instance = atomic_fetch_add_explicit(&next_instance_id, 1u, memory_order_relaxed);
  b->provider = provider;
  b->ops = provider->ops;
  b->plugin_handle = plugin_handle;
  b->options = known;
  weir_status st = binding_limit_from_env(&b->options);
  if (st == WEIR_OK) st = provider->open(index, &b->options, &b->self);
  if (st == WEIR_OK) st = b->ops->describe(b->self, &b->info);
  weir_device_info_terminate(&b->info);
  b->info.struct_size = sizeof b->info; /* a provider may have cleared the whole struct */
  uint64_t forced = b->options.max_binding_bytes;
  if (forced && (b->info.max_binding_bytes == 0 || forced < b->info.max_binding_bytes))
    b->info.max_binding_bytes = forced;
  if (st != WEIR_OK) {
    if (b->self) b->ops->destroy(b->self);
    free(b);
    return st;
  }
  *out = b;
  return WEIR_OK;
}

void weir_backend_retain(weir_backend *b) {
  if (b) atomic_fetch_add_explicit(&b->refs, 1u, memory_order_relaxed);
}

void weir_backend_close(weir_backend *b) {
  if (!b || weir_check_backend(b, "weir_backend_close") != WEIR_OK) return;
  if (atomic_fetch_sub_explicit(&b->refs, 1u, memory_order_acq_rel) != 1u) return;
  b->magic = WEIR_BACKEND_DEAD;
  for (uint32_t i = 0; i < b->slot_count; ++i)
    if (b->slots[i].native) b->ops->release(b->self, b->slots[i].native);
  for (size_t i = 0; i < b->program_count; ++i) {
    if (b->ops->release_program)
      b->ops->release_program(b->self, &b->programs[i]->copy, b->programs[i]->state);
    free(b->programs[i]);
  }
  b->ops->destroy(b->self);
  if (b->plugin_handle) dlclose(b->plugin_handle);
  free(b->slots);
  free(b->programs);
  free(b->registered);
  free(b->scratch.steps);
  free(b->scratch.bindings);
  free(b->scratch.binding_bytes);
  free(b->scratch.ranges);
  free(b->scratch.uploads);
  free(b);
}

const char *weir_backend_id(const weir_backend *b) { return b ? b->provider->id : "(null)"; }
const char *weir_backend_version(const weir_backend *b) {
  return b ? b->provider->version : "(null)";
}
weir_program_format weir_backend_format(const weir_backend *b) {
  return b ? b->provider->format : WEIR_FORMAT_HOST;
}

int weir_backend_batches_sequences(const weir_backend *b) {
  return b && b->ops->dispatch_sequence_read_ranges_into &&
         b->ops->dispatch_repeated_sequence_read_ranges_into;
}

weir_status weir_backend_device_info(weir_backend *b, weir_device_info *out) {
  if (!b || !out)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "weir_backend_device_info: backend or output is NULL. Fix: pass an open "
                     "backend and a weir_device_info to fill.");
  size_t bytes;
  WEIR_TRY(weir_struct_out_size("weir_backend_device_info", "weir_device_info", out,
                                WEIR_DEVICE_INFO_SIZE_V1, sizeof *out, &bytes));
  weir_struct_out_copy(out, &b->info, bytes, sizeof *out);
  return WEIR_OK;
}

void weir_backend_get_stats(const weir_backend *b, weir_backend_stats *out) {
  if (!out) return;
  if (b) *out = b->stats;
  else memset(out, 0, sizeof *out);
}

void weir_backend_reset_stats(weir_backend *b) {
  if (!b) return;
  uint64_t resident = b->stats.resident_bytes, live = b->stats.live_buffers;
  memset(&b->stats, 0, sizeof b->stats);
  b->stats.resident_bytes = resident;
  b->stats.peak_resident_bytes = resident;
  b->stats.live_buffers = live;
}

/* ---- handles ----------------------------------------------------------- */

weir_status weir_check_backend(const weir_backend *b, const char *what) {
  if (!b)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "%s: backend is NULL. Fix: open one with weir_backend_open.", what);
  if (b->magic != WEIR_BACKEND_LIVE)
    return weir_fail(WEIR_ERR_FOREIGN_RESOURCE,
                     "%s: the backend was already closed (its last reference was released). "
                     "Fix: close each backend once and make no call with it afterwards; hold a "
                     "reference (weir_backend_retain) while it is still needed.",
                     what);
  return WEIR_OK;
}

weir_status weir_resolve(const weir_backend *b, weir_buffer buffer, const char *what,
                         weir_slot **out) {
  *out = NULL; /* set on every path: callers' WEIR_TRY cannot show the compiler it failed */
  WEIR_TRY(weir_check_backend(b, what));
  if (buffer.owner == b && buffer.instance != b->instance)
    return weir_fail(WEIR_ERR_FOREIGN_RESOURCE,
                     "%s: the buffer (slot %u) belongs to backend instance #%llu, which was "
                     "closed; this is instance #%llu ('%s') at the same address. Fix: do not keep "
                     "buffer handles past weir_backend_close; allocate new ones on this instance.",
                     what, buffer.slot, (unsigned long long)buffer.instance,
                     (unsigned long long)b->instance, b->info.spec);
  if (buffer.owner != b) {
    if (!buffer.owner)
      return weir_fail(WEIR_ERR_FOREIGN_RESOURCE,
                       "%s: the buffer handle is empty (never allocated). Fix: pass a buffer "
                       "from weir_allocate on this backend.",
                       what);
    return weir_fail(WEIR_ERR_FOREIGN_RESOURCE,
                     "%s: the buffer belongs to another backend instance (this is '%s' %s). "
                     "Fix: use buffers only with the instance that allocated them; move data "
                     "between instances with a transport (weir/residency.h).",
                     what, b->info.spec, b->info.name);
  }
  if (buffer.slot >= b->slot_count || buffer.generation == 0 ||
      b->slots[buffer.slot].generation != buffer.generation || !b->slots[buffer.slot].native)
    return weir_fail(WEIR_ERR_FOREIGN_RESOURCE,
                     "%s: buffer (slot %u, generation %u) was already freed or is stale. Fix: "
                     "do not use a buffer after weir_free, and free each buffer once.",
                     what, buffer.slot, buffer.generation);
  *out = &((weir_backend *)b)->slots[buffer.slot];
  return WEIR_OK;
}

weir_status weir_check_range(const weir_slot *slot, uint64_t offset, uint64_t bytes,
                             const char *what) {
  if (offset > slot->bytes || bytes > slot->bytes - offset)
    return weir_fail(WEIR_ERR_OUT_OF_RANGE,
                     "%s: range [%llu, %llu + %llu) is outside the buffer of %llu bytes. Fix: "
                     "keep offset + length <= the buffer size (weir_buffer_size).",
                     what, (unsigned long long)offset, (unsigned long long)offset,
                     (unsigned long long)bytes, (unsigned long long)slot->bytes);
  return WEIR_OK;
}

weir_status weir_resolve_item(const weir_backend *b, weir_buffer buffer, const char *what,
                              const char *kind, size_t index, weir_slot **out) {
  if (b && b->magic == WEIR_BACKEND_LIVE && buffer.owner == b &&
      buffer.instance == b->instance && buffer.slot < b->slot_count && buffer.generation != 0 &&
      b->slots[buffer.slot].generation == buffer.generation && b->slots[buffer.slot].native) {
    *out = &((weir_backend *)b)->slots[buffer.slot];
    return WEIR_OK;
  }
  char where[128];
  snprintf(where, sizeof where, "%s %s %zu", what, kind, index);
  return weir_resolve(b, buffer, where, out);
}

weir_status weir_check_item_range(const weir_slot *slot, uint64_t offset, uint64_t bytes,
                                  const char *what, const char *kind, size_t index) {
  if (offset <= slot->bytes && bytes <= slot->bytes - offset) return WEIR_OK;
  char where[128];
  snprintf(where, sizeof where, "%s %s %zu", what, kind, index);
  return weir_check_range(slot, offset, bytes, where);
}

static weir_status take_slot(weir_backend *b, void *native, uint64_t bytes, int external,
                             weir_buffer *out) {
  uint32_t index;
  if (b->free_head) {
    index = b->free_head - 1;
    b->free_head = b->slots[index].next_free;
  } else {
    size_t cap = b->slot_cap;
    if (b->slot_count == UINT32_MAX)
      return weir_fail(WEIR_ERR_OUT_OF_MEMORY,
                       "'%s' holds %u buffers, the most one instance can. Fix: free buffers "
                       "or pack small ones into larger ones.",
                       b->info.spec, b->slot_count);
    weir_status st = weir_grow((void **)&b->slots, &cap, (size_t)b->slot_count + 1, sizeof *b->slots);
    if (st != WEIR_OK) return st;
    b->slot_cap = (uint32_t)cap;
    index = b->slot_count++;
    b->slots[index].generation = 0;
  }
  weir_slot *s = &b->slots[index];
  s->native = native;
  s->bytes = bytes;
  s->external = (uint8_t)external;
  s->next_free = 0;
  s->fft = NULL;
  if (++s->generation == 0) s->generation = 1;
  *out = (weir_buffer){b, index, s->generation, b->instance};
  b->stats.live_buffers++;
  if (!external) {
    b->stats.resident_bytes += bytes;
    if (b->stats.resident_bytes > b->stats.peak_resident_bytes)
      b->stats.peak_resident_bytes = b->stats.resident_bytes;
  }
  return WEIR_OK;
}

weir_status weir_allocate(weir_backend *b, uint64_t bytes, weir_buffer *out) {
  if (!b || !out)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "weir_allocate: backend or output handle is NULL. Fix: pass both.");
  *out = WEIR_NULL_BUFFER;
  WEIR_TRY(weir_check_backend(b, "weir_allocate"));
  if (bytes == 0)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "weir_allocate: 0 bytes requested on '%s'. Fix: allocate at least 1 byte.",
                     b->info.spec);
  uint64_t limit = b->options.memory_limit_bytes;
  if (limit && (bytes > limit || b->stats.resident_bytes > limit - bytes))
    return weir_fail(WEIR_ERR_OUT_OF_MEMORY,
                     "weir_allocate: %llu bytes on '%s' would exceed its memory limit (%llu bytes "
                     "resident, limit %llu). Fix: free buffers, or raise "
                     "weir_open_options.memory_limit_bytes.",
                     (unsigned long long)bytes, b->info.spec,
                     (unsigned long long)b->stats.resident_bytes, (unsigned long long)limit);
  if (b->info.memory_bytes && bytes > b->info.memory_bytes)
    return weir_fail(WEIR_ERR_OUT_OF_MEMORY,
                     "weir_allocate: %llu bytes requested, but device '%s' (%s) has %llu bytes. "
                     "Fix: split the data into smaller buffers or use a larger device.",
                     (unsigned long long)bytes, b->info.spec, b->info.name,
                     (unsigned long long)b->info.memory_bytes);
  void *native = NULL;
  weir_status st = b->ops->allocate(b->self, bytes, &native);
  if (st != WEIR_OK) return st;
  st = take_slot(b, native, bytes, 0, out);
  if (st != WEIR_OK) b->ops->release(b->self, native);
  return st;
}

weir_status weir_free(weir_backend *b, weir_buffer buffer) {
  weir_slot *s;
  WEIR_TRY(weir_resolve(b, buffer, "weir_free", &s));
  b->ops->release(b->self, s->native);
  if (!s->external) b->stats.resident_bytes -= s->bytes;
  b->stats.live_buffers--;
  s->native = NULL;
  s->bytes = 0;
  s->fft = NULL;
  if (++s->generation == 0) s->generation = 1;
  s->next_free = b->free_head;
  b->free_head = buffer.slot + 1;
  return WEIR_OK;
}

weir_status weir_buffer_size(const weir_backend *b, weir_buffer buffer, uint64_t *bytes) {
  if (!bytes)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "weir_buffer_size: the output is NULL. Fix: pass a uint64_t to receive it.");
  weir_slot *s;
  WEIR_TRY(weir_resolve(b, buffer, "weir_buffer_size", &s));
  *bytes = s->bytes;
  return WEIR_OK;
}

weir_status weir_buffer_export_pointer(weir_backend *b, weir_buffer buffer, void **out) {
  if (!out)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "weir_buffer_export_pointer: the output is NULL. Fix: pass a void* to receive "
                     "the pointer.");
  weir_slot *s;
  WEIR_TRY(weir_resolve(b, buffer, "weir_buffer_export_pointer", &s));
  if (!b->ops->export_pointer)
    return weir_fail(WEIR_ERR_UNSUPPORTED,
                     "weir_buffer_export_pointer: backend '%s' has no pointer a consumer could "
                     "dereference. Fix: download the data (weir_download_range_into), or use a "
                     "cpu or cuda backend for zero-copy interop.",
                     b->provider->id);
  return b->ops->export_pointer(b->self, s->native, out);
}

weir_status weir_buffer_import_external(weir_backend *b, void *pointer, uint64_t bytes,
                                        weir_buffer *out) {
  if (!b || !out || !pointer || bytes == 0)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "weir_buffer_import_external: backend, pointer or output is NULL, or bytes "
                     "is 0 (bytes = %llu). Fix: pass memory of at least 1 byte.",
                     (unsigned long long)bytes);
  if ((uintptr_t)pointer % 4u != 0)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "weir_buffer_import_external: pointer %p is not 4-byte aligned (programs "
                     "read 32-bit words). Fix: import memory aligned to at least 4 bytes.",
                     pointer);
  if (!b->ops->import_external)
    return weir_fail(WEIR_ERR_UNSUPPORTED,
                     "weir_buffer_import_external: backend '%s' cannot wrap external memory. "
                     "Fix: allocate a buffer and upload the data instead.",
                     b->provider->id);
  void *native = NULL;
  WEIR_TRY(b->ops->import_external(b->self, pointer, bytes, &native));
  weir_status st = take_slot(b, native, bytes, 1, out);
  if (st != WEIR_OK) b->ops->release(b->self, native);
  return st;
}

/* ---- programs ------------------------------------------------------------ */

weir_status weir_backend_register_program(weir_backend *b, const weir_program *program) {
  if (!b)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "weir_backend_register_program: backend is NULL. Fix: pass an open backend.");
  WEIR_TRY(weir_program_validate(program));
  /* Code that contradicts its declaration fails here, not at the first
   * dispatch (and not silently: a hard-coded workgroup size). */
  WEIR_TRY(weir_program_check_spirv(program));
  if (weir_backend_find_program(b, program->name))
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "weir_backend_register_program: a program named '%s' already exists. Fix: "
                     "give your program a unique name (e.g. prefix it with your project's).",
                     program->name);
  WEIR_TRY(weir_grow((void **)&b->registered, &b->registered_cap, b->registered_count + 1,
                     sizeof *b->registered));
  b->registered[b->registered_count++] = program;
  return WEIR_OK;
}

const weir_program *weir_backend_find_program(const weir_backend *b, const char *name) {
  if (!name) return NULL;
  for (size_t i = 0; b && i < b->registered_count; ++i)
    if (strcmp(b->registered[i]->name, name) == 0) return b->registered[i];
  return weir_builtin_program(name);
}
