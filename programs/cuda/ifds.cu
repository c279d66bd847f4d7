/* CUDA versions of the IFDS engine's programs: thin wrappers that run the
 * per-item logic of programs/ifds/ifds_kernels.h (the very code the host
 * programs run and the tests check) one item per thread, grid-stride. */
#include "programs/cuda/weir_cuda_abi.h"
#include "programs/ifds/ifds_host.h"
#include "programs/ifds/ifds_kernels.h"

namespace ifds_cuda {

__device__ __forceinline__ void context(const weir_cuda_args &args, ifds_ctx *cx) {
  ifds_ctx_graph(cx, WEIR_CUDA_BINDING(const uint32_t, WEIR_IFDS_B_GRAPH));
  cx->ctrl = WEIR_CUDA_BINDING(uint32_t, WEIR_IFDS_B_CTRL);
  cx->pc = weir_cuda_push<weir_ifds_push>(args);
#define CUDA_BINDING(i) ((uintptr_t)args.binding[(i)])
  IFDS_CTX_SHARDS(cx, CUDA_BINDING);
#undef CUDA_BINDING
}

__device__ __forceinline__ uint64_t first(void) { return weir_cuda_global_linear(); }
__device__ __forceinline__ uint64_t stride(void) {
  return (uint64_t)gridDim.x * gridDim.y * gridDim.z * blockDim.x * blockDim.y * blockDim.z;
}

/* relate / expand over the delta [A, B) (or the push range in MODE_RANGE). */
template <bool RELATE>
__device__ __forceinline__ void walk(const weir_cuda_args &args) {
  ifds_ctx cx;
  context(args, &cx);
  if (ifds_stopped(&cx)) return;
  uint64_t begin = cx.ctrl[WEIR_IFDS_C_A], end = cx.ctrl[WEIR_IFDS_C_B];
  if (cx.pc.mode == WEIR_IFDS_MODE_RANGE) {
    begin = cx.pc.begin;
    end = cx.pc.end;
  }
  ifds_sink sink;
  for (uint64_t i = begin + first(); i < end; i += stride()) {
    uint64_t key = ifds_log_get(&cx, (uint32_t)i);
    if (RELATE) ifds_relate_item(&cx, key, &sink);
    else ifds_expand_item(&cx, key, &sink);
    if (ifds_stopped(&cx)) return;
  }
}

} // namespace ifds_cuda

WEIR_CUDA_KERNEL_WG(weir_ifds_clear, WEIR_IFDS_WORKGROUP) {
  weir_ifds_push pc = weir_cuda_push<weir_ifds_push>(args);
  uint64_t n = WEIR_CUDA_BINDING_COUNT(uint32_t, 0);
  if (pc.end != 0xFFFFFFFFu && pc.end < n) n = pc.end; /* all ones: the whole buffer */
  uint32_t *words = WEIR_CUDA_BINDING(uint32_t, 0);
  for (uint64_t i = ifds_cuda::first(); i < n; i += ifds_cuda::stride()) words[i] = pc.value;
}

WEIR_CUDA_KERNEL_WG(weir_ifds_restore, WEIR_IFDS_WORKGROUP) {
  if (ifds_cuda::first() != 0) return;
  ifds_ctx cx;
  ifds_cuda::context(args, &cx);
  ifds_restore(&cx);
}

WEIR_CUDA_KERNEL_WG(weir_ifds_advance, WEIR_IFDS_WORKGROUP) {
  if (ifds_cuda::first() != 0) return;
  ifds_ctx cx;
  ifds_cuda::context(args, &cx);
  ifds_advance(&cx);
}

WEIR_CUDA_KERNEL_WG(weir_ifds_seed, WEIR_IFDS_WORKGROUP) {
  ifds_ctx cx;
  ifds_cuda::context(args, &cx);
  if (ifds_stopped(&cx)) return;
  ifds_sink sink;
  for (uint64_t i = ifds_cuda::first(); i < cx.seed_count; i += ifds_cuda::stride())
    ifds_seed_item(&cx, (uint32_t)i, &sink);
}

WEIR_CUDA_KERNEL_WG(weir_ifds_rehash, WEIR_IFDS_WORKGROUP) {
  ifds_ctx cx;
  ifds_cuda::context(args, &cx);
  for (uint64_t i = cx.pc.begin + ifds_cuda::first(); i < cx.pc.end; i += ifds_cuda::stride())
    ifds_rehash_item(&cx, ifds_log_get(&cx, (uint32_t)i));
}

WEIR_CUDA_KERNEL_WG(weir_ifds_unlink, WEIR_IFDS_WORKGROUP) {
  ifds_ctx cx;
  ifds_cuda::context(args, &cx);
  for (uint64_t i = ifds_cuda::first(); i < cx.pc.ctab_size; i += ifds_cuda::stride())
    ifds_unlink_item(&cx, (uint32_t)i);
}

/* Across devices: the inbox into the table and log. */
WEIR_CUDA_KERNEL_WG(weir_ifds_ingest, WEIR_IFDS_WORKGROUP) {
  ifds_ctx cx;
  ifds_cuda::context(args, &cx);
  if (ifds_stopped(&cx)) return;
  ifds_sink sink;
  for (uint64_t i = ifds_cuda::first(); i < cx.pc.in_count; i += ifds_cuda::stride())
    ifds_ingest_item(&cx, (uint32_t)i, &sink);
}

WEIR_CUDA_KERNEL_WG(weir_ifds_relate, WEIR_IFDS_WORKGROUP) { ifds_cuda::walk<true>(args); }
WEIR_CUDA_KERNEL_WG(weir_ifds_expand, WEIR_IFDS_WORKGROUP) { ifds_cuda::walk<false>(args); }
