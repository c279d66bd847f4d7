/* The kernel ABI of weir's CUDA programs: how one dispatch step reaches a
 * __global__ function. Shared by the CUDA backend (C, host side: it fills the
 * struct) and by every .cu file of programs/cuda (device side: it reads it), so
 * the two can never disagree on a layout. See programs/cuda/README.md.
 *
 * One struct, passed BY VALUE as the kernel's only parameter: the launch
 * copies it into the kernel parameter space, so a captured CUDA graph keeps
 * its own copy and no device memory is needed for arguments. */
#ifndef WEIR_CUDA_ABI_H
#define WEIR_CUDA_ABI_H

#include <stdint.h>

#include "weir/program.h"

/* Bumped whenever weir_cuda_args changes layout or meaning. */
#define WEIR_CUDA_ABI_VERSION 2u

typedef struct weir_cuda_args {
  /* CUdeviceptr of binding i (0 for i >= binding_count). */
  uint64_t binding[WEIR_MAX_BINDINGS];
  /* Size in bytes of binding i, so kernels bounds-check against the buffer
   * itself and not only against a count in the push constants. */
  uint64_t binding_bytes[WEIR_MAX_BINDINGS];
  /* The step's push constants, byte for byte, zero-padded (8-byte aligned). */
  uint32_t push[WEIR_MAX_PUSH_CONSTANT_BYTES / 4];
  uint32_t binding_count;
  uint32_t push_constant_bytes;
  uint32_t grid[3];           /* == gridDim: the step's resolved workgroup counts */
  uint32_t workgroup_size[3]; /* == blockDim: the program's workgroup_size */
} weir_cuda_args;

#define WEIR_CUDA_ARGS_BYTES 672u

#if defined(__cplusplus)
static_assert(sizeof(weir_cuda_args) == WEIR_CUDA_ARGS_BYTES, "weir_cuda_args layout changed");
#else
_Static_assert(sizeof(weir_cuda_args) == WEIR_CUDA_ARGS_BYTES, "weir_cuda_args layout changed");
#endif

#if defined(__CUDACC__)
/* ---- device side -------------------------------------------------------- */
#include <string.h>

#include <cub/block/block_scan.cuh>

/* Declares a weir kernel: C linkage (the program's cuda_entry is this exact
 * name), one by-value weir_cuda_args named `args`. WEIR_CUDA_KERNEL_WG also
 * tells ptxas the block size, which must equal the program's workgroup_size
 * product (the backend refuses a launch above the kernel's limit). */
#define WEIR_CUDA_KERNEL(name) extern "C" __global__ void name(const weir_cuda_args args)
#define WEIR_CUDA_KERNEL_WG(name, threads)                                                  \
  extern "C" __global__ void __launch_bounds__(threads) name(const weir_cuda_args args)

/* Binding i as a typed device pointer. */
#define WEIR_CUDA_BINDING(type, i) ((type *)(uintptr_t)args.binding[(i)])
/* How many `type` elements binding i holds. */
#define WEIR_CUDA_BINDING_COUNT(type, i) (args.binding_bytes[(i)] / sizeof(type))

/* The push constants as a struct of the program's layout (programs/generic.h
 * and friends); memcpy because the struct may be wider-aligned than 4. */
template <typename T>
__device__ __forceinline__ T weir_cuda_push(const weir_cuda_args &a) {
  static_assert(sizeof(T) <= sizeof(a.push), "push constants larger than the ABI allows");
  T value;
  memcpy(&value, a.push, sizeof(T));
  return value;
}

/* Linear index of this block in the grid: x + gx * (y + gy * z), as the host
 * programs compute their workgroup index. */
__device__ __forceinline__ uint64_t weir_cuda_block_linear(void) {
  return blockIdx.x + (uint64_t)gridDim.x * (blockIdx.y + (uint64_t)gridDim.y * blockIdx.z);
}

/* Linear index of this thread in its block. */
__device__ __forceinline__ uint32_t weir_cuda_thread_linear(void) {
  return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}

/* Global linear invocation index (block_linear * threads_per_block + thread). */
__device__ __forceinline__ uint64_t weir_cuda_global_linear(void) {
  return weir_cuda_block_linear() * ((uint64_t)blockDim.x * blockDim.y * blockDim.z) +
         weir_cuda_thread_linear();
}

/* Reserves `count` slots per thread in an append buffer whose fill level is
 * *counter, with ONE global atomic per block: a CUB BlockScan gives each
 * thread its offset inside the block's total, thread 0 adds the total to the
 * counter, and every thread gets base + its offset. Collective: every thread
 * of the block must call it (count 0 is fine), BLOCK_THREADS must equal the
 * block's thread count (a 1-D block). Returns this thread's first slot; the
 * caller compares slot + count with its capacity and raises its overflow
 * flag instead of writing past the end. *block_total (optional) receives the
 * block's total. T: uint32_t or unsigned long long (atomicAdd overloads). */
template <int BLOCK_THREADS, typename T>
__device__ __forceinline__ T weir_cuda_block_reserve(T *counter, T count, T *block_total = nullptr) {
  typedef cub::BlockScan<T, BLOCK_THREADS> Scan;
  __shared__ typename Scan::TempStorage scan_storage;
  __shared__ T base;
  T offset, total;
  Scan(scan_storage).ExclusiveSum(count, offset, total);
  if (threadIdx.x == 0) base = total ? atomicAdd(counter, total) : (T)0;
  __syncthreads(); /* publishes `base`; also lets scan_storage be reused */
  T slot = base + offset;
  if (block_total) *block_total = total;
  __syncthreads(); /* nobody overwrites `base` (next call) before all read it */
  return slot;
}

#endif /* __CUDACC__ */
#endif
