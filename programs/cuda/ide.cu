/* CUDA versions of the IDE engine's programs: thin wrappers that run the
 * per-item logic of programs/ide/ide_kernels.h (the code the host programs
 * run and the tests check) one target per thread, grid-stride. */
#include "programs/cuda/weir_cuda_abi.h"
#include "programs/ide/ide_kernels.h"

namespace ide_cuda {

__device__ __forceinline__ void context(const weir_cuda_args &args, ide_ctx *cx) {
  cx->fns = WEIR_CUDA_BINDING(const uint32_t, WEIR_IDE_B_FNS);
  cx->offset = WEIR_CUDA_BINDING(const uint32_t, WEIR_IDE_B_OFFSET);
  cx->rules = WEIR_CUDA_BINDING(const uint32_t, WEIR_IDE_B_RULES);
  cx->jf_in = WEIR_CUDA_BINDING(const uint32_t, WEIR_IDE_B_JF_IN);
  cx->jf_out = WEIR_CUDA_BINDING(uint32_t, WEIR_IDE_B_JF_OUT);
  cx->chg_in = WEIR_CUDA_BINDING(const uint32_t, WEIR_IDE_B_CHG_IN);
  cx->chg_out = WEIR_CUDA_BINDING(uint32_t, WEIR_IDE_B_CHG_OUT);
  cx->ctrl = WEIR_CUDA_BINDING(uint32_t, WEIR_IDE_B_CTRL);
  cx->pc = weir_cuda_push<weir_ide_push>(args);
}

__device__ __forceinline__ void round(const weir_cuda_args &args) {
  ide_ctx cx;
  context(args, &cx);
  if (ide_round_skipped(&cx)) return;
  uint64_t stride = (uint64_t)gridDim.x * gridDim.y * gridDim.z * blockDim.x * blockDim.y * blockDim.z;
  for (uint64_t t = weir_cuda_global_linear(); t < cx.pc.targets; t += stride)
    ide_round_item(&cx, (uint32_t)t);
}

} // namespace ide_cuda

/* One entry per family, as the SPIR-V programs; the body branches on it. */
WEIR_CUDA_KERNEL_WG(weir_ide_round_linear, WEIR_IDE_WORKGROUP) { ide_cuda::round(args); }
WEIR_CUDA_KERNEL_WG(weir_ide_round_typestate, WEIR_IDE_WORKGROUP) { ide_cuda::round(args); }

WEIR_CUDA_KERNEL_WG(weir_ide_advance, WEIR_IDE_WORKGROUP) {
  if (weir_cuda_global_linear() != 0) return;
  ide_ctx cx;
  ide_cuda::context(args, &cx);
  ide_advance(&cx);
}
