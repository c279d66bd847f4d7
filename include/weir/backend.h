/* weir — what a backend implements.
 *
 * A backend is a weir_provider (identity, probing, opening) plus one table of
 * operations (weir_backend_ops) on an opaque instance pointer `self`. The
 * engine (engine/core) does everything that is the same for every backend
 * before calling in: handle validation (foreign, freed, stale buffers), range
 * and count checks, program/format/binding/push-constant checks, the default
 * grid, memory caps, statistics and the per-instance program cache. So an
 * operation receives only validated native values: buffer pointers the
 * backend itself returned from allocate, offsets inside them, resolved grids.
 *
 * Required operations: destroy, describe, allocate, release, upload_many,
 * download_ranges_into, dispatch. Every other pointer may be NULL; the engine
 * then supplies a default built from the required ones (documented at each
 * field). A new backend starts with the required seven, passes the
 * conformance suite (`weir conformance --backend NAME`), and overrides the
 * optional ones where its device can do better (one submission per sequence,
 * graphs for repeated groups, device timestamps). */
#ifndef WEIR_BACKEND_H
#define WEIR_BACKEND_H

#include "weir/export.h"

#include "weir/fft.h"
#include "weir/weir.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Bumped whenever weir_provider, weir_backend_ops or what a provider fills
 * (weir_device_info, weir_open_options) changes layout or meaning. 2: the
 * device info gained max_binding_bytes. 3: weir_native_step gained `fft` and
 * weir_backend_ops gained fft_plan / fft_destroy (at its end). 4: the device
 * info and the open options start with struct_size (the engine hands a
 * provider structs of its own, full size; weir/weir.h). A provider
 * must state exactly this number; any other is refused at load. */
#define WEIR_BACKEND_ABI_VERSION 4u

/* Device index meaning "the backend's best device" (spec without ":N"). */
#define WEIR_DEVICE_DEFAULT UINT32_MAX

typedef struct weir_native_upload {
  void *buffer;    /* from allocate */
  uint64_t offset; /* offset + bytes <= the buffer's size */
  const void *data;
  uint64_t bytes;
} weir_native_upload;

typedef struct weir_native_range {
  void *buffer;
  uint64_t offset;
  uint64_t bytes;
  void *output; /* caller memory of `bytes` bytes */
} weir_native_range;

typedef struct weir_native_step {
  const weir_program *program;   /* has code in the backend's format */
  void *program_state;           /* from prepare_program (NULL without it) */
  void *const *bindings;         /* binding_count native buffers */
  const uint64_t *binding_bytes; /* their sizes */
  uint32_t binding_count;
  weir_grid grid;                /* resolved: every count >= 1 */
  const void *push_constants;
  uint32_t push_constant_bytes;
  /* NULL for a program step. Otherwise an FFT step of a plan the backend
   * made with fft_plan (this pointer): bindings are {input, output} (the
   * same pointer twice for an in-place C2C), program is the engine's
   * "weir_fft" marker (no code in any format), program_state is NULL, grid
   * {1, 1, 1}, no push constants. Only backends with fft_plan receive them,
   * in dispatch and every sequence operation, in order with the other steps. */
  void *fft;
} weir_native_step;

typedef struct weir_backend_ops {
  /* Frees the instance. Every buffer and program state has been released. */
  void (*destroy)(void *self);
  weir_status (*describe)(void *self, weir_device_info *out);

  weir_status (*allocate)(void *self, uint64_t bytes, void **out_buffer);
  /* Frees a buffer from allocate (or import). Cannot fail. */
  void (*release)(void *self, void *buffer);

  /* All offsets are 0. One staging operation, one synchronization. */
  weir_status (*upload_many)(void *self, const weir_native_upload *items, size_t count);
  /* Optional. Default: only zero offsets are accepted and forwarded to
   * upload_many; any other offset fails with a message naming this gap. */
  weir_status (*upload_at_many)(void *self, const weir_native_upload *items, size_t count);

  /* Transfers exactly the ranges (never whole buffers), one synchronization. */
  weir_status (*download_ranges_into)(void *self, const weir_native_range *ranges, size_t count);

  /* Optional: make device code for a program once (pipelines, modules). The
   * engine caches the state per instance and passes it in every step. */
  weir_status (*prepare_program)(void *self, const weir_program *program, void **out_state);
  void (*release_program)(void *self, const weir_program *program, void *state);

  /* One step, complete when it returns (one fence). */
  weir_status (*dispatch)(void *self, const weir_native_step *step);

  /* Optional. Default: dispatch each step, then download_ranges_into. */
  weir_status (*dispatch_sequence_read_ranges_into)(void *self, const weir_native_step *steps,
                                                    size_t step_count,
                                                    const weir_native_range *reads,
                                                    size_t read_count);
  /* Optional. Default: the prefix, then the group repeat_count times through
   * dispatch, then download_ranges_into. */
  weir_status (*dispatch_repeated_sequence_read_ranges_into)(
      void *self, const weir_native_step *prefix, size_t prefix_count,
      const weir_native_step *repeated, size_t repeated_count, uint64_t repeat_count,
      const weir_native_range *reads, size_t read_count);
  /* Optional. Default: each step dispatched alone, timed with the host's
   * monotonic clock (describe should then say timestamps_are_device = 0). */
  weir_status (*dispatch_sequence_timed)(void *self, const weir_native_step *steps,
                                         size_t step_count, uint64_t *step_ns);

  /* Optional. Default: staged through host memory with download + upload_at. */
  weir_status (*copy)(void *self, void *dst, uint64_t dst_offset, void *src, uint64_t src_offset,
                      uint64_t bytes);
  /* Optional. Default: nothing to wait for (every op completes in-call). */
  weir_status (*finish)(void *self);

  /* Optional, for DLPack interop. export_pointer: the pointer a DLPack
   * consumer of this device type dereferences (host pointer, CUdeviceptr).
   * import_external: wrap memory the backend does not own as a buffer (release
   * is still called, and must not free the memory). */
  weir_status (*export_pointer)(void *self, void *buffer, void **out_pointer);
  weir_status (*import_external)(void *self, void *pointer, uint64_t bytes, void **out_buffer);

  /* Optional (both or neither): FFTs with the backend's own library (VkFFT,
   * cuFFT), run as ordinary steps of any sequence. fft_plan gets a desc the
   * engine validated and normalised (rank, extents, enums; batch and inner
   * >= 1) and does every allocation the transform will need; it fails with
   * WEIR_ERR_UNSUPPORTED naming the parameter its library cannot do, or
   * WEIR_ERR_UNAVAILABLE naming a missing library. The plan then arrives as
   * weir_native_step.fft in dispatch and the sequence operations, where the
   * backend records it like any other step (nothing may be allocated
   * there). fft_destroy frees it; no step of it is pending. Without these
   * the engine runs its own FFT on host-format backends and refuses it
   * elsewhere with WEIR_ERR_UNSUPPORTED naming the backend. */
  weir_status (*fft_plan)(void *self, const weir_fft_desc *desc, void **out_plan);
  void (*fft_destroy)(void *self, void *plan);
} weir_backend_ops;

typedef struct weir_provider {
  uint32_t abi_version;       /* WEIR_BACKEND_ABI_VERSION */
  const char *id;             /* "cpu", "vulkan", "cuda", or a plugin's id */
  const char *version;        /* implementation version string */
  weir_program_format format; /* the one program format it runs */
  int32_t dl_device_type;     /* DLPack device type of its devices */

  /* Is the backend usable here? WEIR_OK with the device count, or
   * WEIR_ERR_UNAVAILABLE with the reason in weir_last_error(). Must not crash
   * or leak when drivers are missing. */
  weir_status (*probe)(uint32_t *device_count);
  weir_status (*describe_device)(uint32_t index, weir_device_info *out);
  /* index: a device index, or WEIR_DEVICE_DEFAULT for the best one. */
  weir_status (*open)(uint32_t index, const weir_open_options *options, void **out_self);

  const weir_backend_ops *ops;
} weir_provider;

/* A plugin (a shared library loaded with --backend plugin:PATH or from
 * WEIR_BACKEND_PATH) exports exactly this function. */
#define WEIR_PLUGIN_ENTRY_NAME "weir_plugin_register"
typedef const weir_provider *(*weir_plugin_register_fn)(void);

/* Opens a backend compiled into the application itself (no plugin file):
 * `provider` is validated like a plugin's (ABI version, required fields), then
 * opened on device `index` (WEIR_DEVICE_DEFAULT for the best one) with the
 * engine's validation and defaults. The provider must outlive the instance. */
WEIR_API weir_status weir_backend_open_provider(const weir_provider *provider, uint32_t index,
                                                const weir_open_options *options,
                                                weir_backend **out);

#ifdef __cplusplus
}
#endif
#endif
