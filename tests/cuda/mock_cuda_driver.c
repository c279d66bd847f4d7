/* A stand-in for libcuda.so.1, for machines without a GPU: loaded by the
 * CUDA backend through WEIR_CUDA_DRIVER=path, it lets the backend's own logic
 * (argument blocks, staging, chunking, ranged reads, graph capture and
 * replay, events, error paths) run the whole conformance suite here.
 *
 * It is deliberately strict where a real GPU would be silently wrong:
 * - work on a stream is QUEUED and only runs at a synchronization (stream,
 *   event, cuMemFree), so a missing sync shows up as stale data;
 * - every device range a copy or a kernel binding touches must lie inside a
 *   live cuMemAlloc block, and host sides of async copies must be pinned
 *   (cuMemAllocHost) memory, else CUDA_ERROR_INVALID_VALUE;
 * - a kernel's weir_cuda_args must agree with its launch (grid, block);
 * - synchronizing a stream that is being captured fails, as on a GPU;
 * - overlapping copies are refused (undefined on a GPU).
 * Kernel "weir_NAME" runs as built-in program NAME's host version, per block
 * (the CUDA code itself needs a GPU); a name that is not a built-in program
 * or not in the loaded fatbin is CUDA_ERROR_NOT_FOUND.
 *
 * Environment: WEIR_MOCK_CUDA_INIT=<CUresult> makes cuInit fail with it;
 * WEIR_MOCK_CUDA_DEVICES=<n> sets the device count (default 1);
 * WEIR_MOCK_CUDA_PINNED_MAX=<bytes> fails bigger cuMemAllocHost. Counters for
 * tests: weir_mock_cuda_get_counters(). */
#include <cuda.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "programs/cuda/weir_cuda_abi.h"
#include "tests/cuda/mock_cuda_driver.h"

static weir_mock_cuda_counters g_count;

void weir_mock_cuda_get_counters(weir_mock_cuda_counters *out) { *out = g_count; }

/* ---- memory bookkeeping ---------------------------------------------------- */

typedef struct block {
  unsigned char *base;
  size_t bytes;
  int pinned;
  struct block *next;
} block;

static block *g_blocks;

static block *find_block(uintptr_t p, size_t bytes, int pinned) {
  for (block *b = g_blocks; b; b = b->next) {
    uintptr_t base = (uintptr_t)b->base;
    if (b->pinned == pinned && p >= base && p - base <= b->bytes && bytes <= b->bytes - (p - base))
      return b;
  }
  return NULL;
}

static CUresult add_block(size_t bytes, int pinned, void **out) {
  block *b = calloc(1, sizeof *b);
  if (!b) return CUDA_ERROR_OUT_OF_MEMORY;
  b->base = malloc(bytes ? bytes : 1);
  if (!b->base) {
    free(b);
    return CUDA_ERROR_OUT_OF_MEMORY;
  }
  memset(b->base, 0xA5, bytes); /* device memory is not zeroed: do not rely on it */
  b->bytes = bytes;
  b->pinned = pinned;
  b->next = g_blocks;
  g_blocks = b;
  if (pinned) g_count.live_pinned_blocks++;
  else g_count.live_device_blocks++;
  *out = b->base;
  return CUDA_SUCCESS;
}

static CUresult remove_block(uintptr_t p, int pinned) {
  for (block **link = &g_blocks; *link; link = &(*link)->next) {
    block *b = *link;
    if ((uintptr_t)b->base == p && b->pinned == pinned) {
      *link = b->next;
      if (pinned) g_count.live_pinned_blocks--;
      else g_count.live_device_blocks--;
      free(b->base);
      free(b);
      return CUDA_SUCCESS;
    }
  }
  return CUDA_ERROR_INVALID_VALUE;
}

/* ---- kernels ---------------------------------------------------------------
 * A kernel "weir_NAME" runs as the built-in program NAME's host version, one
 * call per block, with the launch's grid and block and the bindings and push
 * constants taken from the weir_cuda_args the backend passed: so the CUDA
 * backend's marshalling is exercised with the reference semantics of every
 * program (the IFDS engine's included). The .cu code itself needs a GPU. */

static void run_blocks(const weir_program *prog, const uint32_t grid[3], const uint32_t dims[3],
                       const weir_cuda_args *a) {
  void *bindings[WEIR_MAX_BINDINGS];
  for (int i = 0; i < WEIR_MAX_BINDINGS; ++i) bindings[i] = (void *)(uintptr_t)a->binding[i];
  weir_host_invocation inv;
  memset(&inv, 0, sizeof inv);
  memcpy(inv.grid, grid, sizeof inv.grid);
  memcpy(inv.workgroup_size, dims, sizeof inv.workgroup_size);
  inv.bindings = bindings;
  inv.binding_bytes = a->binding_bytes;
  inv.push_constants = a->push;
  inv.push_constant_bytes = a->push_constant_bytes;
  for (uint32_t z = 0; z < grid[2]; ++z)
    for (uint32_t y = 0; y < grid[1]; ++y)
      for (uint32_t x = 0; x < grid[0]; ++x) {
        inv.workgroup_id[0] = x;
        inv.workgroup_id[1] = y;
        inv.workgroup_id[2] = z;
        prog->host(&inv);
      }
}

/* ---- queued work ------------------------------------------------------------ */

typedef enum op_kind { OP_COPY, OP_KERNEL, OP_GRAPH, OP_EVENT, OP_HOST } op_kind;

typedef struct mock_graph mock_graph;
typedef struct op {
  op_kind kind;
  void *dst;
  const void *src;
  size_t bytes;
  const weir_program *prog;
  uint32_t grid[3], block[3];
  weir_cuda_args args;
  mock_graph *graph;
  uint64_t *event_ns;
  void (*host_fn)(void *); /* OP_HOST: queued by another mock (tests/nccl) */
  void *host_arg;
} op;

struct mock_graph {
  op *ops;
  size_t count, capacity;
};

typedef struct mock_stream {
  int device;           /* the device of the context current at cuStreamCreate */
  mock_graph queue;     /* pending work */
  mock_graph *capture;  /* non-NULL while capturing */
} mock_stream;

static CUresult push_op(mock_graph *g, const op *o) {
  if (g->count == g->capacity) {
    size_t cap = g->capacity ? g->capacity * 2 : 16;
    op *grown = realloc(g->ops, cap * sizeof *grown);
    if (!grown) return CUDA_ERROR_OUT_OF_MEMORY;
    g->ops = grown;
    g->capacity = cap;
  }
  g->ops[g->count++] = *o;
  return CUDA_SUCCESS;
}

static CUresult enqueue(CUstream s, const op *o) {
  mock_stream *ms = (mock_stream *)s;
  if (!ms) return CUDA_ERROR_INVALID_HANDLE; /* weir always uses its own stream */
  return push_op(ms->capture ? ms->capture : &ms->queue, o);
}

static uint64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void run_kernel(const op *o) {
  run_blocks(o->prog, o->grid, o->block, &o->args);
  g_count.kernels_run++;
}

static void run_ops(const mock_graph *g) {
  for (size_t i = 0; i < g->count; ++i) {
    const op *o = &g->ops[i];
    switch (o->kind) {
      case OP_COPY: memcpy(o->dst, o->src, o->bytes); break;
      case OP_KERNEL: run_kernel(o); break;
      case OP_GRAPH: run_ops(o->graph); break;
      case OP_EVENT: *o->event_ns = now_ns(); break;
      case OP_HOST: o->host_fn(o->host_arg); break;
    }
  }
}

static CUresult drain(mock_stream *ms) {
  if (ms->capture) return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
  run_ops(&ms->queue);
  ms->queue.count = 0;
  return CUDA_SUCCESS;
}

/* Every stream the mock made, so implicit syncs (cuMemFree) can drain all. */
#define MAX_STREAMS 64
static mock_stream *g_streams[MAX_STREAMS];

static CUresult drain_all(void) {
  for (int i = 0; i < MAX_STREAMS; ++i)
    if (g_streams[i] && g_streams[i]->capture) return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
  for (int i = 0; i < MAX_STREAMS; ++i)
    if (g_streams[i]) drain(g_streams[i]);
  return CUDA_SUCCESS;
}

/* ---- the driver API ------------------------------------------------------ */

static int g_initialised;

static CUresult m_cuInit(unsigned int flags) {
  const char *fail = getenv("WEIR_MOCK_CUDA_INIT");
  if (flags != 0) return CUDA_ERROR_INVALID_VALUE;
  if (fail && atoi(fail) != 0) return (CUresult)atoi(fail);
  g_initialised = 1;
  return CUDA_SUCCESS;
}
static CUresult m_cuDriverGetVersion(int *v) { *v = 13000; return CUDA_SUCCESS; }
static int device_count(void) {
  const char *n = getenv("WEIR_MOCK_CUDA_DEVICES");
  return n ? atoi(n) : 1;
}
static CUresult m_cuDeviceGetCount(int *n) {
  if (!g_initialised) return CUDA_ERROR_NOT_INITIALIZED;
  *n = device_count();
  return CUDA_SUCCESS;
}
static CUresult m_cuDeviceGet(CUdevice *d, int ordinal) {
  if (!g_initialised) return CUDA_ERROR_NOT_INITIALIZED;
  if (ordinal < 0 || ordinal >= device_count()) return CUDA_ERROR_INVALID_DEVICE;
  *d = ordinal;
  return CUDA_SUCCESS;
}
static CUresult m_cuDeviceGetName(char *name, int len, CUdevice d) {
  if (len <= 0) return CUDA_ERROR_INVALID_VALUE;
  strncpy(name, "weir mock CUDA device", (size_t)len - 1);
  name[len - 1] = '\0';
  (void)d;
  return CUDA_SUCCESS;
}
static CUresult m_cuDeviceGetAttribute(int *v, CUdevice_attribute attr, CUdevice d) {
  (void)d;
  switch (attr) {
    case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR: *v = 9; break;
    case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR: *v = 0; break;
    case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X: *v = 2147483647; break;
    case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y:
    case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z: *v = 65535; break;
    case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X:
    case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y: *v = 1024; break;
    case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z: *v = 64; break;
    case CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK: *v = 1024; break;
    case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT: *v = 2; break;
    default: *v = 0; break;
  }
  return CUDA_SUCCESS;
}
static CUresult m_cuDeviceTotalMem(size_t *bytes, CUdevice d) { (void)d; *bytes = (size_t)1 << 30; return CUDA_SUCCESS; }
static CUresult m_cuDevicePrimaryCtxRetain(CUcontext *c, CUdevice d) {
  *c = (CUcontext)(uintptr_t)(0x1000 + d);
  return CUDA_SUCCESS;
}
static CUresult m_cuDevicePrimaryCtxRelease(CUdevice d) { (void)d; return CUDA_SUCCESS; }
static int g_current_device = -1; /* of the context made current last */
static CUresult m_cuCtxSetCurrent(CUcontext c) {
  if (!c) return CUDA_ERROR_INVALID_CONTEXT;
  g_current_device = (int)((uintptr_t)c - 0x1000);
  return CUDA_SUCCESS;
}

static CUresult m_cuStreamCreate(CUstream *s, unsigned int flags) {
  if (flags != CU_STREAM_NON_BLOCKING) return CUDA_ERROR_INVALID_VALUE; /* weir's contract */
  for (int i = 0; i < MAX_STREAMS; ++i)
    if (!g_streams[i]) {
      g_streams[i] = calloc(1, sizeof(mock_stream));
      if (!g_streams[i]) return CUDA_ERROR_OUT_OF_MEMORY;
      g_streams[i]->device = g_current_device;
      *s = (CUstream)g_streams[i];
      g_count.live_streams++;
      return CUDA_SUCCESS;
    }
  return CUDA_ERROR_OUT_OF_MEMORY;
}
static CUresult m_cuStreamDestroy(CUstream s) {
  for (int i = 0; i < MAX_STREAMS; ++i)
    if (g_streams[i] == (mock_stream *)s) {
      drain(g_streams[i]);
      free(g_streams[i]->queue.ops);
      free(g_streams[i]);
      g_streams[i] = NULL;
      g_count.live_streams--;
      return CUDA_SUCCESS;
    }
  return CUDA_ERROR_INVALID_HANDLE;
}
static CUresult m_cuStreamSynchronize(CUstream s) {
  if (!s) return CUDA_ERROR_INVALID_HANDLE;
  g_count.syncs++;
  return drain((mock_stream *)s);
}

static CUresult m_cuMemAlloc(CUdeviceptr *p, size_t bytes) {
  if (bytes == 0) return CUDA_ERROR_INVALID_VALUE;
  void *q = NULL;
  CUresult r = add_block(bytes, 0, &q);
  if (r == CUDA_SUCCESS) *p = (CUdeviceptr)(uintptr_t)q;
  return r;
}
static CUresult m_cuMemFree(CUdeviceptr p) {
  CUresult r = drain_all(); /* cuMemFree waits for the device */
  return r != CUDA_SUCCESS ? r : remove_block((uintptr_t)p, 0);
}
static CUresult m_cuMemAllocHost(void **p, size_t bytes) {
  const char *max = getenv("WEIR_MOCK_CUDA_PINNED_MAX");
  if (bytes == 0) return CUDA_ERROR_INVALID_VALUE;
  if (max && bytes > (size_t)strtoull(max, NULL, 10)) return CUDA_ERROR_OUT_OF_MEMORY;
  return add_block(bytes, 1, p);
}
static CUresult m_cuMemFreeHost(void *p) {
  CUresult r = drain_all();
  return r != CUDA_SUCCESS ? r : remove_block((uintptr_t)p, 1);
}
static CUresult m_cuMemGetInfo(size_t *free_bytes, size_t *total) {
  *free_bytes = (size_t)1 << 29;
  *total = (size_t)1 << 30;
  return CUDA_SUCCESS;
}

static CUresult copy_async(void *dst, int dst_pinned, const void *src, int src_pinned,
                           size_t bytes, CUstream s) {
  if (!find_block((uintptr_t)dst, bytes, dst_pinned) || !find_block((uintptr_t)src, bytes, src_pinned))
    return CUDA_ERROR_INVALID_VALUE;
  uintptr_t d = (uintptr_t)dst, s0 = (uintptr_t)src;
  if (d < s0 + bytes && s0 < d + bytes) return CUDA_ERROR_INVALID_VALUE; /* overlap: undefined */
  op o = {.kind = OP_COPY, .dst = dst, .src = src, .bytes = bytes};
  g_count.copies++;
  return enqueue(s, &o);
}
static CUresult m_cuMemcpyHtoDAsync(CUdeviceptr dst, const void *src, size_t n, CUstream s) {
  g_count.bytes_to_device += n;
  return copy_async((void *)(uintptr_t)dst, 0, src, 1, n, s);
}
static CUresult m_cuMemcpyDtoHAsync(void *dst, CUdeviceptr src, size_t n, CUstream s) {
  g_count.bytes_to_host += n;
  return copy_async(dst, 1, (const void *)(uintptr_t)src, 0, n, s);
}
static CUresult m_cuMemcpyDtoDAsync(CUdeviceptr dst, CUdeviceptr src, size_t n, CUstream s) {
  return copy_async((void *)(uintptr_t)dst, 0, (const void *)(uintptr_t)src, 0, n, s);
}

/* A module is its fatbin image; the container header gives its extent. */
static size_t image_bytes(const unsigned char *image) {
  uint16_t header = 0;
  uint64_t body = 0;
  memcpy(&header, image + 6, sizeof header);
  memcpy(&body, image + 8, sizeof body);
  return header + (size_t)body;
}

static CUresult m_cuModuleLoadDataEx(CUmodule *m, const void *image, unsigned int n,
                                     CUjit_option *opts, void **values) {
  (void)n, (void)opts, (void)values;
  uint32_t magic = 0;
  if (!image) return CUDA_ERROR_INVALID_VALUE;
  memcpy(&magic, image, sizeof magic);
  if (magic != 0xBA55ED50u) return CUDA_ERROR_INVALID_IMAGE; /* the fatbin magic */
  *m = (CUmodule)(uintptr_t)image;
  g_count.modules_loaded++;
  return CUDA_SUCCESS;
}

/* Does the (uncompressed) image contain `name` followed by NUL or '(' as a
 * symbol or PTX entry would? Keeps the mock from accepting kernels the
 * fatbin does not have. */
static int image_has(const unsigned char *image, const char *name) {
  size_t bytes = image_bytes(image), n = strlen(name);
  for (size_t i = 0; i + n < bytes; ++i)
    if (memcmp(image + i, name, n) == 0 && (image[i + n] == 0 || image[i + n] == '('))
      return 1;
  return 0;
}
static CUresult m_cuModuleUnload(CUmodule m) { (void)m; g_count.modules_unloaded++; return CUDA_SUCCESS; }
static CUresult m_cuModuleGetFunction(CUfunction *f, CUmodule m, const char *name) {
  const weir_program *prog = strncmp(name, "weir_", 5) == 0 ? weir_builtin_program(name + 5) : NULL;
  if (!prog || !prog->host || !image_has((const unsigned char *)m, name))
    return CUDA_ERROR_NOT_FOUND;
  *f = (CUfunction)(uintptr_t)prog;
  return CUDA_SUCCESS;
}
static CUresult m_cuFuncGetAttribute(int *v, CUfunction_attribute attr, CUfunction f) {
  (void)f;
  if (attr != CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK) return CUDA_ERROR_INVALID_VALUE;
  *v = 1024;
  return CUDA_SUCCESS;
}

/* The launch must agree with its argument block, and every binding must lie
 * inside a live device allocation. */
static CUresult m_cuLaunchKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                                 unsigned by, unsigned bz, unsigned shared, CUstream s,
                                 void **params, void **extra) {
  const weir_program *prog = (const weir_program *)f;
  if (!prog || !params || !params[0] || extra || shared != 0 || !gx || !gy || !gz || !bx || !by ||
      !bz || bx > 1024 || by > 1024 || bz > 64 || bx * by * bz > 1024)
    return CUDA_ERROR_INVALID_VALUE; /* a GPU's block limits: 1024 x 1024 x 64, 1024 in all */
  op o = {.kind = OP_KERNEL, .prog = prog, .grid = {gx, gy, gz}, .block = {bx, by, bz}};
  memcpy(&o.args, params[0], sizeof o.args);
  const weir_cuda_args *a = &o.args;
  if (a->grid[0] != gx || a->grid[1] != gy || a->grid[2] != gz || a->workgroup_size[0] != bx ||
      a->workgroup_size[1] != by || a->workgroup_size[2] != bz ||
      a->binding_count > WEIR_MAX_BINDINGS || a->push_constant_bytes > sizeof a->push)
    return CUDA_ERROR_INVALID_VALUE;
  for (uint32_t i = 0; i < WEIR_MAX_BINDINGS; ++i) {
    if (i >= a->binding_count) {
      if (a->binding[i] || a->binding_bytes[i]) return CUDA_ERROR_INVALID_VALUE;
    } else if (!find_block((uintptr_t)a->binding[i], a->binding_bytes[i], 0)) {
      return CUDA_ERROR_INVALID_VALUE;
    }
  }
  g_count.launches++;
  return enqueue(s, &o);
}

static CUresult m_cuEventCreate(CUevent *e, unsigned int flags) {
  if (flags != CU_EVENT_DEFAULT) return CUDA_ERROR_INVALID_VALUE; /* timing must stay enabled */
  uint64_t *ns = calloc(1, sizeof *ns);
  if (!ns) return CUDA_ERROR_OUT_OF_MEMORY;
  *e = (CUevent)ns;
  g_count.live_events++;
  return CUDA_SUCCESS;
}
static CUresult m_cuEventDestroy(CUevent e) {
  free(e);
  g_count.live_events--;
  return CUDA_SUCCESS;
}
static CUresult m_cuEventRecord(CUevent e, CUstream s) {
  *(uint64_t *)e = 0;
  op o = {.kind = OP_EVENT, .event_ns = (uint64_t *)e};
  return enqueue(s, &o);
}
static CUresult m_cuEventSynchronize(CUevent e) {
  (void)e;
  g_count.syncs++;
  return drain_all();
}
static CUresult m_cuEventElapsedTime(float *ms, CUevent a, CUevent b) {
  uint64_t t0 = *(uint64_t *)a, t1 = *(uint64_t *)b;
  if (!t0 || !t1) return CUDA_ERROR_NOT_READY;
  *ms = (float)((double)(t1 - t0) / 1e6);
  return CUDA_SUCCESS;
}

static CUresult m_cuStreamBeginCapture(CUstream s, CUstreamCaptureMode mode) {
  mock_stream *ms = (mock_stream *)s;
  if (!ms || ms->capture) return CUDA_ERROR_ILLEGAL_STATE;
  if (mode != CU_STREAM_CAPTURE_MODE_THREAD_LOCAL && mode != CU_STREAM_CAPTURE_MODE_GLOBAL &&
      mode != CU_STREAM_CAPTURE_MODE_RELAXED)
    return CUDA_ERROR_INVALID_VALUE;
  ms->capture = calloc(1, sizeof(mock_graph));
  return ms->capture ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
}
static CUresult m_cuStreamEndCapture(CUstream s, CUgraph *g) {
  mock_stream *ms = (mock_stream *)s;
  if (!ms || !ms->capture) return CUDA_ERROR_STREAM_CAPTURE_UNMATCHED;
  *g = (CUgraph)ms->capture;
  ms->capture = NULL;
  g_count.captures++;
  g_count.live_graphs++;
  return CUDA_SUCCESS;
}
static CUresult m_cuGraphInstantiateWithFlags(CUgraphExec *e, CUgraph g, unsigned long long flags) {
  if (flags) return CUDA_ERROR_INVALID_VALUE;
  const mock_graph *src = (const mock_graph *)g;
  mock_graph *copy = calloc(1, sizeof *copy);
  if (!copy) return CUDA_ERROR_OUT_OF_MEMORY;
  for (size_t i = 0; i < src->count; ++i)
    if (push_op(copy, &src->ops[i]) != CUDA_SUCCESS) return CUDA_ERROR_OUT_OF_MEMORY;
  *e = (CUgraphExec)copy;
  g_count.instantiations++;
  g_count.live_graph_execs++;
  return CUDA_SUCCESS;
}
static CUresult m_cuGraphLaunch(CUgraphExec e, CUstream s) {
  op o = {.kind = OP_GRAPH, .graph = (mock_graph *)e};
  g_count.graph_launches++;
  return enqueue(s, &o);
}
static void free_graph(mock_graph *g) {
  if (!g) return;
  free(g->ops);
  free(g);
}
static CUresult m_cuGraphExecDestroy(CUgraphExec e) {
  free_graph((mock_graph *)e);
  g_count.live_graph_execs--;
  return CUDA_SUCCESS;
}
static CUresult m_cuGraphDestroy(CUgraph g) {
  free_graph((mock_graph *)g);
  g_count.live_graphs--;
  return CUDA_SUCCESS;
}

static CUresult m_cuGetErrorName(CUresult r, const char **s) {
  switch (r) {
    case CUDA_SUCCESS: *s = "CUDA_SUCCESS"; return CUDA_SUCCESS;
    case CUDA_ERROR_INVALID_VALUE: *s = "CUDA_ERROR_INVALID_VALUE"; return CUDA_SUCCESS;
    case CUDA_ERROR_OUT_OF_MEMORY: *s = "CUDA_ERROR_OUT_OF_MEMORY"; return CUDA_SUCCESS;
    case CUDA_ERROR_NO_DEVICE: *s = "CUDA_ERROR_NO_DEVICE"; return CUDA_SUCCESS;
    case CUDA_ERROR_NOT_FOUND: *s = "CUDA_ERROR_NOT_FOUND"; return CUDA_SUCCESS;
    default: *s = NULL; return CUDA_ERROR_INVALID_VALUE;
  }
}
static CUresult m_cuGetErrorString(CUresult r, const char **s) {
  switch (r) {
    case CUDA_ERROR_NO_DEVICE: *s = "no CUDA-capable device is detected (mock)"; return CUDA_SUCCESS;
    case CUDA_ERROR_INVALID_VALUE: *s = "invalid argument (mock)"; return CUDA_SUCCESS;
    case CUDA_ERROR_OUT_OF_MEMORY: *s = "out of memory (mock)"; return CUDA_SUCCESS;
    case CUDA_ERROR_NOT_FOUND: *s = "named symbol not found (mock)"; return CUDA_SUCCESS;
    default: *s = NULL; return CUDA_ERROR_INVALID_VALUE;
  }
}

/* ---- hooks for the mock NCCL (tests/nccl), which links this library ---- */

int weir_mock_cuda_stream_device(const void *stream) {
  for (int i = 0; i < MAX_STREAMS; ++i)
    if (g_streams[i] && (const void *)g_streams[i] == stream) return g_streams[i]->device;
  return -1;
}

int weir_mock_cuda_device_range_ok(const void *p, size_t bytes) {
  return find_block((uintptr_t)p, bytes, 0) != NULL;
}

int weir_mock_cuda_enqueue_host(const void *stream, void (*fn)(void *), void *arg) {
  if (weir_mock_cuda_stream_device(stream) < 0 || !fn) return (int)CUDA_ERROR_INVALID_HANDLE;
  op o = {.kind = OP_HOST, .host_fn = fn, .host_arg = arg};
  return (int)enqueue((CUstream)(uintptr_t)stream, &o);
}

/* Function pointers stored as one generic type (casts between function
 * pointer types are well defined) and copied out with memcpy. */
typedef void (*any_fn)(void);
#define ENTRY(name) {#name, (any_fn)m_##name}
static const struct {
  const char *name;
  any_fn fn;
} g_table[] = {
    ENTRY(cuInit), ENTRY(cuDriverGetVersion), ENTRY(cuDeviceGet), ENTRY(cuDeviceGetCount),
    ENTRY(cuDeviceGetName), ENTRY(cuDeviceGetAttribute), ENTRY(cuDeviceTotalMem),
    ENTRY(cuDevicePrimaryCtxRetain), ENTRY(cuDevicePrimaryCtxRelease), ENTRY(cuCtxSetCurrent),
    ENTRY(cuStreamCreate), ENTRY(cuStreamDestroy), ENTRY(cuStreamSynchronize), ENTRY(cuMemAlloc),
    ENTRY(cuMemFree), ENTRY(cuMemAllocHost), ENTRY(cuMemFreeHost), ENTRY(cuMemGetInfo),
    ENTRY(cuMemcpyHtoDAsync), ENTRY(cuMemcpyDtoHAsync), ENTRY(cuMemcpyDtoDAsync),
    ENTRY(cuModuleLoadDataEx), ENTRY(cuModuleUnload), ENTRY(cuModuleGetFunction),
    ENTRY(cuFuncGetAttribute), ENTRY(cuLaunchKernel), ENTRY(cuEventCreate), ENTRY(cuEventDestroy),
    ENTRY(cuEventRecord), ENTRY(cuEventSynchronize), ENTRY(cuEventElapsedTime),
    ENTRY(cuStreamBeginCapture), ENTRY(cuStreamEndCapture), ENTRY(cuGraphInstantiateWithFlags),
    ENTRY(cuGraphLaunch), ENTRY(cuGraphExecDestroy), ENTRY(cuGraphDestroy), ENTRY(cuGetErrorName),
    ENTRY(cuGetErrorString),
};

/* The one exported driver symbol weir looks up with dlsym. */
CUresult cuGetProcAddress_v2(const char *symbol, void **pfn, int version, cuuint64_t flags,
                             CUdriverProcAddressQueryResult *status) {
  g_count.last_requested_version = version;
  if (flags != CU_GET_PROC_ADDRESS_DEFAULT) return CUDA_ERROR_INVALID_VALUE;
  for (size_t i = 0; i < sizeof g_table / sizeof g_table[0]; ++i)
    if (strcmp(g_table[i].name, symbol) == 0) {
      memcpy(pfn, &g_table[i].fn, sizeof *pfn);
      if (status) *status = CU_GET_PROC_ADDRESS_SUCCESS;
      return CUDA_SUCCESS;
    }
  *pfn = NULL;
  if (status) *status = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
  return CUDA_ERROR_NOT_FOUND;
}
