/* CUDA versions of the IDE engine's programs: thin wrappers that run the
 * per-item logic of programs/ide/ide_kernels.h (the code the host programs
 * run and the tests check): a round takes one worklist target per thread,
 * grid-stride; expand one changed target per block, its words and
 * dependents spread over the block's threads. */
#include "programs/cuda/weir_cuda_abi.h"
#include "programs/ide/ide_kernels.h"

namespace ide_cuda {

__device__ __forceinline__ void context(const weir_cuda_args &args, ide_ctx *cx) {
  cx->fns = WEIR_CUDA_BINDING(const uint32_t, WEIR_IDE_B_FNS);
  cx->offset = WEIR_CUDA_BINDING(const uint32_t, WEIR_IDE_B_OFFSET);
  cx->rules = WEIR_CUDA_BINDING(const uint32_t, WEIR_IDE_B_RULES);
  cx->jf = WEIR_CUDA_BINDING(uint32_t, WEIR_IDE_B_JF);
  cx->next = WEIR_CUDA_BINDING(uint32_t, WEIR_IDE_B_NEXT);
  cx->dep_offset = WEIR_CUDA_BINDING(const uint32_t, WEIR_IDE_B_DEP_OFFSET);
  cx->deps = WEIR_CUDA_BINDING(const uint32_t, WEIR_IDE_B_DEPS);
  cx->mark = WEIR_CUDA_BINDING(uint32_t, WEIR_IDE_B_MARK);
  cx->work = WEIR_CUDA_BINDING(uint32_t, WEIR_IDE_B_WORK);
  cx->changed = WEIR_CUDA_BINDING(uint32_t, WEIR_IDE_B_CHANGED);
  cx->ctrl = WEIR_CUDA_BINDING(uint32_t, WEIR_IDE_B_CTRL);
  cx->pc = weir_cuda_push<weir_ide_push>(args);
}

__device__ __forceinline__ void round(const weir_cuda_args &args) {
  ide_ctx cx;
  context(args, &cx);
  if (ide_stopped(&cx)) return;
  uint64_t stride = (uint64_t)gridDim.x * gridDim.y * gridDim.z * blockDim.x * blockDim.y * blockDim.z;
  uint32_t n = ide_round_items(&cx);
  for (uint64_t i = weir_cuda_global_linear(); i < n; i += stride)
    ide_round_item(&cx, ide_round_target(&cx, (uint32_t)i));
}

} // namespace ide_cuda

/* One entry per family, as the SPIR-V programs; the body branches on it. */
WEIR_CUDA_KERNEL_WG(weir_ide_round_linear, WEIR_IDE_WORKGROUP) { ide_cuda::round(args); }
WEIR_CUDA_KERNEL_WG(weir_ide_round_typestate, WEIR_IDE_WORKGROUP) { ide_cuda::round(args); }

WEIR_CUDA_KERNEL_WG(weir_ide_expand, WEIR_IDE_WORKGROUP) {
  ide_ctx cx;
  ide_cuda::context(args, &cx);
  if (ide_stopped(&cx)) return;
  uint32_t n = cx.ctrl[WEIR_IDE_C_CHANGES];
  for (uint32_t i = blockIdx.x; i < n; i += gridDim.x) ide_expand_item(&cx, i, threadIdx.x, blockDim.x);
}

WEIR_CUDA_KERNEL_WG(weir_ide_advance, WEIR_IDE_WORKGROUP) {
  if (weir_cuda_global_linear() != 0) return;
  ide_ctx cx;
  ide_cuda::context(args, &cx);
  ide_advance(&cx);
}
