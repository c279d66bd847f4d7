/* CUDA versions of the generic built-in programs (programs/generic.h holds
 * their push-constant layouts and the host versions they must match). */
#include "programs/cuda/weir_cuda_abi.h"
#include "programs/generic.h"

/* Element count an element-wise program may touch: the push-constant count,
 * clipped to what binding i actually holds. */
static __device__ __forceinline__ uint64_t generic_limit(const weir_cuda_args &a, uint32_t count,
                                                         int i) {
  uint64_t held = a.binding_bytes[i] / 4;
  return count < held ? count : held;
}

WEIR_CUDA_KERNEL(weir_noop) {}

WEIR_CUDA_KERNEL_WG(weir_fill_u32, WEIR_GENERIC_WORKGROUP) {
  weir_fill_u32_push p = weir_cuda_push<weir_fill_u32_push>(args);
  uint64_t i = weir_cuda_global_linear();
  if (i < generic_limit(args, p.count, 0)) WEIR_CUDA_BINDING(uint32_t, 0)[i] = p.value;
}

WEIR_CUDA_KERNEL_WG(weir_copy_u32, WEIR_GENERIC_WORKGROUP) {
  weir_copy_u32_push p = weir_cuda_push<weir_copy_u32_push>(args);
  uint64_t limit = generic_limit(args, p.count, 0);
  uint64_t src_limit = generic_limit(args, p.count, 1);
  if (src_limit < limit) limit = src_limit;
  uint64_t i = weir_cuda_global_linear();
  if (i < limit) WEIR_CUDA_BINDING(uint32_t, 0)[i] = WEIR_CUDA_BINDING(const uint32_t, 1)[i];
}

WEIR_CUDA_KERNEL_WG(weir_add_u32, WEIR_GENERIC_WORKGROUP) {
  weir_add_u32_push p = weir_cuda_push<weir_add_u32_push>(args);
  uint64_t i = weir_cuda_global_linear();
  if (i < generic_limit(args, p.count, 0)) WEIR_CUDA_BINDING(uint32_t, 0)[i] += p.value;
}

/* One increment per dispatch, however large the grid: only the first
 * invocation of the first workgroup writes (as the host version). */
WEIR_CUDA_KERNEL(weir_counter_u32) {
  if (args.binding_bytes[0] >= 4 && weir_cuda_global_linear() == 0)
    WEIR_CUDA_BINDING(uint32_t, 0)[0] += 1;
}

/* Every invocation contributes `value`; the block adds its total with ONE
 * atomic through weir_cuda_block_reserve (the host version aggregates per
 * workgroup the same way), which also exercises that helper on every GPU
 * the conformance suite runs on. The early return is uniform per launch. */
WEIR_CUDA_KERNEL_WG(weir_atomic_add_u32, WEIR_GENERIC_WORKGROUP) {
  weir_atomic_add_u32_push p = weir_cuda_push<weir_atomic_add_u32_push>(args);
  if (args.binding_bytes[0] < 4) return;
  weir_cuda_block_reserve<WEIR_GENERIC_WORKGROUP>(WEIR_CUDA_BINDING(uint32_t, 0), p.value);
}
