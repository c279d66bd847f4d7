/* weir — DLPack interop (DLPack 0.6, DLManagedTensor).
 *
 * Devices are named the DLPack way: a device type and an id. cpu:1 is
 * (kDLCPU, 1), cuda:0 is (kDLCUDA, 0), vulkan:0 is (kDLVulkan, 0); the pair
 * comes from weir_device_info.dl_device_type / dl_device_id.
 *
 * Export hands a view to another library (PyTorch, CuPy, JAX, NumPy) without a
 * copy: the DLManagedTensor holds a reference on the view's chunk until the
 * consumer calls its deleter, which it must do exactly once.
 *
 * Import wraps a DLPack tensor as a NON-owning chunk (weir never frees the
 * memory) and a view of it, on a backend whose device is the tensor's device.
 * Host memory is one address space: a kDLCPU tensor of any device id (other
 * libraries say (kDLCPU, 0)) is imported on any kDLCPU backend, cpu:0 ..
 * cpu:7 alike; device tensors (kDLCUDA, ...) need the same type and id.
 *
 * Supported element types: kDLInt / kDLUInt 8, 16, 32, 64 bits; kDLFloat 16,
 * 32, 64 bits; kDLBfloat 16 bits; kDLBool 8 bits (WEIR_DLPACK_BOOL); one
 * lane. weir only stores and moves the elements, so their bits are enough. Strides must be non-negative; at most
 * WEIR_VIEW_MAX_DIMS dims. Anything else is refused with
 * WEIR_ERR_UNSUPPORTED and a message saying what to change. */
#ifndef WEIR_INTEROP_H
#define WEIR_INTEROP_H

#include "weir/export.h"

#include <dlpack/dlpack.h>

#include "weir/residency.h"

#ifdef __cplusplus
extern "C" {
#endif

/* DLPack >= 0.8's kDLBool type code (one byte per element), which the 0.6
 * header weir builds against does not name yet. */
#define WEIR_DLPACK_BOOL 6

/* The backend's device as a DLDevice. */
WEIR_API weir_status weir_dlpack_device(weir_backend *backend, DLDevice *out);

/* "kDLCPU", "kDLCUDA", "kDLVulkan", ... ("unknown" otherwise), for messages. */
WEIR_API const char *weir_dlpack_device_type_name(int device_type);

/* WEIR_OK if weir can carry elements of `dtype`; else WEIR_ERR_UNSUPPORTED
 * naming the type. */
WEIR_API weir_status weir_dlpack_check_dtype(DLDataType dtype);

/* Exports `view` as a new DLManagedTensor of element type `dtype` (whose size
 * must be view->element_bytes). data is the buffer's base pointer and
 * byte_offset the view's offset, so data keeps the buffer's alignment. The
 * tensor retains the chunk; its deleter releases it and frees the tensor.
 * Refused (WEIR_ERR_UNSUPPORTED) on backends with no consumer pointer
 * (vulkan). */
WEIR_API weir_status weir_dlpack_export(const weir_view *view, DLDataType dtype, DLManagedTensor **out);

/* Imports `tensor` on `backend` (its device must equal the tensor's device;
 * for kDLCPU only the type must match: host memory is shared).
 * On success weir takes over the managed tensor: *out_view's chunk (reference
 * count 1, owns_memory 0) calls tensor->deleter (if any) exactly once when
 * its last reference is released. On failure the caller still owns `tensor`.
 * out_dtype may be NULL. The view spans the tensor's elements; its chunk
 * covers exactly the bytes from the first to one past the last element. */
WEIR_API weir_status weir_dlpack_import(weir_backend *backend, DLManagedTensor *tensor,
                               weir_view *out_view, DLDataType *out_dtype);

#ifdef __cplusplus
}
#endif
#endif
