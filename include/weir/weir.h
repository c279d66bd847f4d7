/* weir — the backend-neutral dispatch interface.
 *
 * One interface, several backends (cpu, vulkan, cuda, plugins). A backend
 * instance owns a device's resident buffers; everything here is a call on
 * one instance. The instance is not thread-safe: use it from one thread at a
 * time (like a stream). Different instances are independent.
 *
 * Data flows one way: allocate -> upload (batched) -> dispatch sequences on
 * the device -> read back only the ranges you need. Calls named *_many,
 * *_sequence_* and *_repeated_* are ONE host synchronization each, however
 * many buffers or steps they carry. */
#ifndef WEIR_WEIR_H
#define WEIR_WEIR_H

#include "weir/export.h"

#include <stddef.h>
#include <stdint.h>

#include "weir/program.h"
#include "weir/status.h"
#include "weir/version.h" /* WEIR_VERSION_STRING, weir_version() */

#ifdef __cplusplus
extern "C" {
#endif

typedef struct weir_backend weir_backend;

/* A resident buffer. A small value: the instance that made it (its address
 * and its process-unique instance id), a slot and a generation. Freed, stale,
 * zero and foreign handles are detected and refused (WEIR_ERR_FOREIGN_RESOURCE),
 * never dereferenced; so is the handle of a closed instance even when a new
 * instance was placed at the same address (the ids differ). */
typedef struct weir_buffer {
  weir_backend *owner;
  uint32_t slot;
  uint32_t generation;
  uint64_t instance; /* id of the owner, never reused within a process; 0: none */
} weir_buffer;

#define WEIR_NULL_BUFFER ((weir_buffer){0, 0, 0, 0})

/* ---- opening a backend ------------------------------------------------- */

/* Structs the caller allocates and weir reads or fills (weir_open_options,
 * weir_device_info, weir_ifds_engine_options, weir_ifds_stats) start with
 * `size_t struct_size`: the caller sets it to sizeof the struct its headers
 * declare, most simply with the struct's WEIR_..._INIT initializer. weir then
 * reads (options) or fills (info, stats) only the bytes that both sides know,
 * so a field added at the end in a later release breaks no program built
 * before it. 0 (a zeroed struct) means the first published layout
 * (WEIR_..._SIZE_V1); a non-zero size below it is refused
 * (WEIR_ERR_INVALID_ARGUMENT). An options struct larger than this library's
 * is accepted only when the bytes this library does not know are zero. See
 * docs/packaging.md, "The ABI". */

typedef struct weir_open_options {
  size_t struct_size; /* sizeof(weir_open_options): WEIR_OPEN_OPTIONS_INIT */
  /* Refuse allocations that would take this instance's resident bytes past
   * this figure (0: the device's own limit). Lets tests and users bound
   * memory on any backend. */
  uint64_t memory_limit_bytes;
  /* Threads of the cpu backend, the calling thread included (0: one per
   * core; 1: everything on the calling thread; at most 64). */
  uint32_t threads;
  /* Refuse steps that bind a buffer larger than this many bytes, and report
   * it as the device's per-binding limit (weir_device_info.max_binding_bytes)
   * when it is below the device's own (0: the device's own limit). Lets
   * tests exercise code that splits data for devices with small limits on
   * any backend. When 0, the environment variable WEIR_MAX_BINDING_BYTES (a
   * byte count) is used if set. */
  uint64_t max_binding_bytes;
} weir_open_options;

#define WEIR_OPEN_OPTIONS_INIT {.struct_size = sizeof(weir_open_options)}
/* The first published layout: what struct_size 0 stands for. */
#define WEIR_OPEN_OPTIONS_SIZE_V1 (offsetof(weir_open_options, max_binding_bytes) + sizeof(uint64_t))

/* spec: "cpu", "cpu:N", "vulkan", "vulkan:N", "cuda", "cuda:N", "auto",
 * "plugin:/path/libfoo.so[:N]", or the id of a plugin found on
 * WEIR_BACKEND_PATH. "auto" picks CUDA, else a Vulkan device that is not a
 * CPU implementation, else cpu. An unavailable backend (not built in, no
 * driver, no device) gives WEIR_ERR_UNAVAILABLE naming what is missing; an
 * index N past the devices a backend has is a wrong spec: WEIR_ERR_OUT_OF_RANGE
 * naming the largest valid index. */
WEIR_API weir_status weir_backend_open(const char *spec, weir_backend **out);
WEIR_API weir_status weir_backend_open_ex(const char *spec, const weir_open_options *options,
                                 weir_backend **out);
/* Drops the caller's reference. The instance (and every buffer still alive)
 * is freed when the last reference goes: objects that must outlive the
 * caller's use, such as residency chunks and DLPack exports whose consumer
 * decides when to let go, hold their own (weir_backend_retain). NULL is
 * allowed.
 *
 * After the last reference is gone the pointer is dangling, like one passed
 * to free(): any further call with it (a second close, weir_free, ...) is
 * undefined behaviour. weir detects the common slips cheaply where it can: a
 * buffer handle of a closed instance is refused by every later instance, even
 * one placed at the same address (handles carry the instance id); a second
 * close or a call on a closed instance whose memory was not reused yet is
 * refused (weir_last_error says so, close then does nothing) instead of
 * freeing twice. Under AddressSanitizer such calls are reported as
 * heap-use-after-free instead. Not detected (undefined): calls on a closed
 * instance whose memory was reused by a new instance (they act on the new
 * one), and calls racing with the last close on another thread. */
WEIR_API void weir_backend_close(weir_backend *backend);
WEIR_API void weir_backend_retain(weir_backend *backend);

typedef struct weir_device_info {
  size_t struct_size;   /* sizeof(weir_device_info): WEIR_DEVICE_INFO_INIT */
  char backend_id[16];  /* "cpu", "vulkan", "cuda", plugin id */
  char spec[48];        /* what weir_backend_open accepts for this device: "cpu:1" */
  char name[128];       /* "llvmpipe (LLVM 15.0.6, 256 bits)" */
  char kind[24];        /* "cpu", "discrete-gpu", "integrated-gpu", "virtual-gpu" */
  char driver[128];     /* driver / implementation version */
  uint64_t memory_bytes;
  int32_t dl_device_type; /* DLPack DLDeviceType: kDLCPU = 1, kDLCUDA = 2, kDLVulkan = 7 */
  int32_t dl_device_id;
  int timestamps_are_device; /* 1: timed dispatch uses device timestamps; 0: host clock */
  /* The most bytes one binding of a step may span (Vulkan:
   * maxStorageBufferRange), or the open option's smaller figure; 0: no
   * limit. Data larger than this must be split over several bindings. */
  uint64_t max_binding_bytes;
  char details[1536];   /* further "key: value" lines for `weir info` */
  /* Subgroup (warp) operations a compute program may use on this device:
   * invocations per subgroup (0: none or unknown) and WEIR_SUBGROUP_* bits
   * (Vulkan: supportedOperations where supportedStages has compute; CUDA:
   * warps of 32 with ballot; cpu: none). Programs that use them have a
   * variant without them (see programs/glsl/ifds_common.glsl). */
  uint32_t subgroup_size;
  uint32_t subgroup_ops;
} weir_device_info;

#define WEIR_SUBGROUP_BASIC 1u  /* elect, barriers (GL_KHR_shader_subgroup_basic) */
#define WEIR_SUBGROUP_BALLOT 2u /* ballot, broadcast, bit counts (GL_KHR_shader_subgroup_ballot) */

#define WEIR_DEVICE_INFO_INIT {.struct_size = sizeof(weir_device_info)}
#define WEIR_DEVICE_INFO_SIZE_V1 (offsetof(weir_device_info, details) + 1536u)

WEIR_API const char *weir_backend_id(const weir_backend *backend);
WEIR_API const char *weir_backend_version(const weir_backend *backend);
WEIR_API weir_program_format weir_backend_format(const weir_backend *backend);
WEIR_API weir_status weir_backend_device_info(weir_backend *backend, weir_device_info *out);

/* What each known backend is: compiled in, available or why not. For `weir info`. */
typedef struct weir_backend_report {
  char id[16];
  char version[32];
  int available;
  uint32_t device_count;
  char reason[768]; /* why unavailable (the driver's own error where there is one) */
} weir_backend_report;

/* Fills up to `capacity` reports (built-in backends, then plugins on
 * WEIR_BACKEND_PATH); *count receives the total. */
WEIR_API weir_status weir_backend_reports(weir_backend_report *reports, size_t capacity, size_t *count);
/* Describes device `index` of backend `id` without keeping it open. */
WEIR_API weir_status weir_backend_describe(const char *id, uint32_t index, weir_device_info *out);

/* ---- counters ----------------------------------------------------------- */

typedef struct weir_backend_stats {
  uint64_t host_syncs;       /* waits of the host for the device */
  uint64_t dispatches;       /* steps executed, repeated ones counted each time */
  uint64_t uploads;          /* upload calls (a batch counts once) */
  uint64_t bytes_uploaded;
  uint64_t bytes_downloaded;
  uint64_t resident_bytes;   /* allocated now */
  uint64_t peak_resident_bytes;
  uint64_t live_buffers;
} weir_backend_stats;

WEIR_API void weir_backend_get_stats(const weir_backend *backend, weir_backend_stats *out);
/* Zeroes the counters; peak_resident_bytes restarts from resident_bytes. */
WEIR_API void weir_backend_reset_stats(weir_backend *backend);

/* ---- buffers ------------------------------------------------------------ */

/* Exactly `bytes` bytes (>= 1), contents unspecified. */
WEIR_API weir_status weir_allocate(weir_backend *backend, uint64_t bytes, weir_buffer *out);
WEIR_API weir_status weir_free(weir_backend *backend, weir_buffer buffer);
WEIR_API weir_status weir_buffer_size(const weir_backend *backend, weir_buffer buffer, uint64_t *bytes);

typedef struct weir_upload_item {
  weir_buffer buffer;
  uint64_t offset; /* must be 0 for weir_upload_many */
  const void *data;
  uint64_t bytes;
} weir_upload_item;

/* Writes `bytes` bytes at offset 0 (bytes <= size). */
WEIR_API weir_status weir_upload(weir_backend *backend, weir_buffer buffer, const void *data,
                        uint64_t bytes);
/* Many uploads as ONE staging operation and one synchronization. */
WEIR_API weir_status weir_upload_many(weir_backend *backend, const weir_upload_item *items, size_t count);
/* Ranged uploads at byte offsets, one operation. */
WEIR_API weir_status weir_upload_at_many(weir_backend *backend, const weir_upload_item *items, size_t count);

typedef struct weir_range {
  weir_buffer buffer;
  uint64_t offset;
  uint64_t bytes;
} weir_range;

/* Whole buffer into a new malloc() block (caller frees with free()). */
WEIR_API weir_status weir_download(weir_backend *backend, weir_buffer buffer, void **out_data,
                          uint64_t *out_bytes);
/* Whole buffer into caller memory of `capacity` bytes (>= size). */
WEIR_API weir_status weir_download_into(weir_backend *backend, weir_buffer buffer, void *dst,
                               uint64_t capacity);
/* Only [offset, offset+bytes) is transferred. */
WEIR_API weir_status weir_download_range(weir_backend *backend, weir_buffer buffer, uint64_t offset,
                                uint64_t bytes, void **out_data);
WEIR_API weir_status weir_download_range_into(weir_backend *backend, weir_buffer buffer, uint64_t offset,
                                     uint64_t bytes, void *dst);
/* outputs[i] receives ranges[i]; one synchronization. On any error no output
 * is written. */
WEIR_API weir_status weir_download_ranges_into(weir_backend *backend, const weir_range *ranges,
                                      size_t range_count, void *const *outputs,
                                      size_t output_count);

/* Device-to-device copy between two buffers of this instance; ordered with
 * later operations of the instance (no host wait of its own on backends with
 * a device copy; the engine's fallback for others stages through host memory
 * in 4 MiB pieces, two synchronizations per piece, counted in the stats). */
WEIR_API weir_status weir_copy(weir_backend *backend, weir_buffer dst, uint64_t dst_offset,
                      weir_buffer src, uint64_t src_offset, uint64_t bytes);
/* Waits until everything enqueued on the instance has completed. */
WEIR_API weir_status weir_finish(weir_backend *backend);

/* ---- dispatch ----------------------------------------------------------- */

typedef struct weir_step {
  const weir_program *program;
  const weir_buffer *bindings; /* binding_count == program->binding_count */
  uint32_t binding_count;
  weir_grid grid;              /* {0,0,0}: the program's default grid */
  const void *push_constants;  /* push_constant_bytes == program->push_constant_bytes */
  uint32_t push_constant_bytes;
} weir_step;

/* One dispatch, completed before the call returns (one fence). */
WEIR_API weir_status weir_dispatch(weir_backend *backend, const weir_program *program,
                          const weir_buffer *bindings, uint32_t binding_count, weir_grid grid,
                          const void *push_constants, uint32_t push_constant_bytes);

/* Steps in order (step k sees every write of step k-1), then the read
 * ranges, behind ONE synchronization on backends that implement sequences
 * (cpu, vulkan, cuda); on a backend that only implements single dispatches
 * the engine's fallback takes one per step, and the stats say so.
 * outputs[i] receives reads[i]. Programs are cached per instance by address
 * and re-validated when the struct's contents change. */
WEIR_API weir_status weir_dispatch_sequence_read_ranges_into(weir_backend *backend,
                                                    const weir_step *steps, size_t step_count,
                                                    const weir_range *reads, size_t read_count,
                                                    void *const *outputs, size_t output_count);

/* 1 when this backend runs a sequence (and a repeated sequence) behind one
 * synchronization itself; 0 when the engine's fallback dispatches it step by
 * step, one fence each (a minimal plugin). */
WEIR_API int weir_backend_batches_sequences(const weir_backend *backend);

/* prefix once, then `repeated` repeat_count times (0 allowed), then the read
 * ranges, behind ONE synchronization; no per-iteration host allocation. */
WEIR_API weir_status weir_dispatch_repeated_sequence_read_ranges_into(
    weir_backend *backend, const weir_step *prefix, size_t prefix_count,
    const weir_step *repeated, size_t repeated_count, uint64_t repeat_count,
    const weir_range *reads, size_t read_count, void *const *outputs, size_t output_count);

/* Runs the steps as one sequence and writes each step's execution time in
 * nanoseconds to step_ns[i] (device timestamps where the backend has them;
 * weir_device_info.timestamps_are_device says which). */
WEIR_API weir_status weir_dispatch_sequence_timed(weir_backend *backend, const weir_step *steps,
                                         size_t step_count, uint64_t *step_ns);

/* ---- external memory (DLPack interop builds on these) -------------------- */

/* The pointer a consumer on this device dereferences for `buffer` (a host
 * pointer on cpu, a CUdeviceptr on cuda). WEIR_ERR_UNSUPPORTED where the
 * backend has no such pointer (vulkan). */
WEIR_API weir_status weir_buffer_export_pointer(weir_backend *backend, weir_buffer buffer, void **out);
/* Wraps memory weir does not own (a host pointer on cpu, a device pointer on
 * cuda) as a buffer of `bytes` bytes. weir_free forgets the buffer without
 * freeing the memory; it does not count towards the resident bytes. */
WEIR_API weir_status weir_buffer_import_external(weir_backend *backend, void *pointer, uint64_t bytes,
                                        weir_buffer *out);

/* ---- programs by name ---------------------------------------------------- */

/* Makes a user program findable by name on this instance (the struct must
 * outlive the instance). Names must be unique among registered and built-in
 * programs. */
WEIR_API weir_status weir_backend_register_program(weir_backend *backend, const weir_program *program);
/* Registered programs first, then built-ins; NULL if neither has `name`. */
WEIR_API const weir_program *weir_backend_find_program(const weir_backend *backend, const char *name);

#ifdef __cplusplus
}
#endif
#endif
