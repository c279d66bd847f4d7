/* The CUDA backend's instance and the functions its files share. */
#ifndef WEIR_BACKENDS_CUDA_BACKEND_H
#define WEIR_BACKENDS_CUDA_BACKEND_H

#include "backends/cuda/cuda_driver.h"
#include "backends/cuda/cuda_graph_cache.h"
#include "programs/cuda/weir_cuda_abi.h"
#include "weir/backend.h"

/* The pinned staging buffer grows to fit a batch up to this size; bigger
 * batches go through it in chunks of this size, one synchronization each. */
#define WEIR_CUDA_STAGING_MAX (64u << 20)
#define WEIR_CUDA_STAGING_MIN (1u << 20)

/* A repeated group is captured into a graph holding this many launches at
 * most (group unrolled), so one cuGraphLaunch covers many iterations. */
#define WEIR_CUDA_GRAPH_MAX_NODES 512u
#define WEIR_CUDA_GRAPH_MAX_UNROLL 64u

/* A buffer as the engine sees it (the `void *buffer` of backend.h). */
typedef struct weir_cuda_buffer {
  CUdeviceptr ptr;
  uint64_t bytes;
  int external; /* from import_external: release must not free it */
} weir_cuda_buffer;

/* One loaded image (the built-in fatbin is shared by every built-in program,
 * so it is loaded once and reference-counted by the programs using it). */
typedef struct weir_cuda_module {
  const void *image;
  CUmodule module;
  uint32_t users;
} weir_cuda_module;

/* What prepare_program makes: the kernel and its launch limits. */
typedef struct weir_cuda_program_state {
  CUfunction function;
  const void *image; /* finds its module again (the table moves when it changes) */
  uint32_t block[3];
} weir_cuda_program_state;

typedef struct weir_cuda_instance {
  const weir_cuda_driver *d;
  pid_t pid; /* the opening process: a forked child must not use the instance */
  CUdevice device;
  uint32_t ordinal;
  CUcontext context; /* the device's primary context, retained */
  CUstream stream;   /* non-blocking: never serialised with the legacy stream */
  int max_grid[3];
  int max_block[3]; /* per-dimension block limits (1024, 1024, 64 on current GPUs) */

  unsigned char *staging; /* pinned (cuMemAllocHost), persistent */
  size_t staging_bytes;

  weir_cuda_module *modules;
  size_t module_count, module_capacity;

  weir_cuda_graph_cache graphs;

  CUevent *events; /* timed dispatch: created on demand, kept */
  size_t event_count;
} weir_cuda_instance;

/* Makes the instance's context current on the calling thread (cheap; the
 * instance may move between threads, one at a time). */
weir_status weir_cuda_enter(weir_cuda_instance *inst);
weir_status weir_cuda_sync(weir_cuda_instance *inst, const char *what);
/* The staging buffer, grown to min(bytes, WEIR_CUDA_STAGING_MAX). */
weir_status weir_cuda_staging_reserve(weir_cuda_instance *inst, uint64_t bytes);

/* Fills the kernel's argument block for a step (pure: no driver call). */
void weir_cuda_args_fill(const weir_native_step *step, weir_cuda_args *out);
/* Checks a step's grid against the device and enqueues its kernel. */
weir_status weir_cuda_launch(weir_cuda_instance *inst, const weir_native_step *step);
/* Enqueues reads into staging, synchronizes once per staging-full, copies out. */
weir_status weir_cuda_read_ranges(weir_cuda_instance *inst, const weir_native_range *ranges,
                                  size_t count, const char *what);

/* Ops implemented in the backend's files. */
void weir_cuda_destroy(void *self);
weir_status weir_cuda_describe(void *self, weir_device_info *out);
weir_status weir_cuda_allocate(void *self, uint64_t bytes, void **out_buffer);
void weir_cuda_release(void *self, void *buffer);
weir_status weir_cuda_upload_many(void *self, const weir_native_upload *items, size_t count);
weir_status weir_cuda_download_ranges_into(void *self, const weir_native_range *ranges,
                                           size_t count);
weir_status weir_cuda_prepare_program(void *self, const weir_program *program, void **out_state);
void weir_cuda_release_program(void *self, const weir_program *program, void *state);
weir_status weir_cuda_dispatch(void *self, const weir_native_step *step);
weir_status weir_cuda_dispatch_sequence(void *self, const weir_native_step *steps, size_t count,
                                        const weir_native_range *reads, size_t read_count);
weir_status weir_cuda_dispatch_repeated(void *self, const weir_native_step *prefix,
                                        size_t prefix_count, const weir_native_step *repeated,
                                        size_t repeated_count, uint64_t repeat_count,
                                        const weir_native_range *reads, size_t read_count);
weir_status weir_cuda_dispatch_timed(void *self, const weir_native_step *steps, size_t count,
                                     uint64_t *step_ns);
weir_status weir_cuda_copy(void *self, void *dst, uint64_t dst_offset, void *src,
                           uint64_t src_offset, uint64_t bytes);
weir_status weir_cuda_finish(void *self);
weir_status weir_cuda_export_pointer(void *self, void *buffer, void **out_pointer);
weir_status weir_cuda_import_external(void *self, void *pointer, uint64_t bytes,
                                      void **out_buffer);

/* Device description shared by describe_device (no instance) and describe. */
weir_status weir_cuda_describe_ordinal(const weir_cuda_driver *d, uint32_t ordinal,
                                       weir_device_info *out);

/* Key of a repeated group for the graph cache: per step the function, grid,
 * block and full argument block, then the unroll factor. Written into the
 * cache's scratch buffer. */
weir_status weir_cuda_graph_key(weir_cuda_graph_cache *cache, const weir_native_step *steps,
                                size_t count, uint32_t unroll, unsigned char **out_key,
                                size_t *out_bytes);
/* How many copies of a group of `steps` launches one graph holds. */
uint32_t weir_cuda_graph_unroll(size_t steps);

#endif
