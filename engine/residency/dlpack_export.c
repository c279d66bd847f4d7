/* DLPack export: a view becomes a DLManagedTensor that holds a reference on
 * the view's chunk, so the memory stays resident until the consumer's
 * deleter runs, however early weir's own references go. */
#include <stdlib.h>

#include "weir/interop.h"

/* One allocation holds the tensor and the arrays it points into; the tensor
 * is the first member so that `self` in the deleter is the block. */
typedef struct export_block {
  DLManagedTensor managed;
  int64_t shape[WEIR_VIEW_MAX_DIMS];
  int64_t strides[WEIR_VIEW_MAX_DIMS];
  weir_chunk *chunk;
} export_block;

static void export_deleter(DLManagedTensor *self) {
  if (!self) return;
  export_block *block = self->manager_ctx;
  /* A failing free has nobody to report to here; the backend's own checks
   * keep it from crashing. */
  (void)weir_chunk_release(block->chunk);
  free(block);
}

static weir_status export_checks(const weir_view *view, DLDataType dtype) {
  WEIR_TRY(weir_view_validate(view));
  weir_status status = weir_dlpack_check_dtype(dtype);
  if (status != WEIR_OK) return weir_fail_context(status, "weir_dlpack_export");
  if ((uint32_t)dtype.bits / 8u != view->element_bytes)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "weir_dlpack_export: dtype of %u bits does not match the view's %u-byte "
                     "elements. Fix: export with a dtype of element_bytes * 8 bits.",
                     (unsigned)dtype.bits, view->element_bytes);
  for (uint32_t d = 0; d < view->ndim; ++d)
    if (view->shape[d] > INT64_MAX || view->strides[d] > INT64_MAX)
      return weir_fail(WEIR_ERR_OUT_OF_RANGE,
                       "weir_dlpack_export: dimension %u (extent %llu, stride %llu) does not "
                       "fit DLPack's int64. Fix: use a smaller view.",
                       d, (unsigned long long)view->shape[d],
                       (unsigned long long)view->strides[d]);
  return WEIR_OK;
}

weir_status weir_dlpack_export(const weir_view *view, DLDataType dtype, DLManagedTensor **out) {
  if (!out)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "weir_dlpack_export: out is NULL. Fix: pass a DLManagedTensor **.");
  *out = NULL;
  WEIR_TRY(export_checks(view, dtype));
  weir_backend *backend = weir_chunk_backend(view->chunk);
  DLDevice device;
  WEIR_TRY(weir_dlpack_device(backend, &device));
  void *base = NULL;
  weir_status status = weir_buffer_export_pointer(backend, weir_chunk_buffer(view->chunk), &base);
  if (status != WEIR_OK)
    return weir_fail_context(status, "weir_dlpack_export on %s", weir_backend_id(backend));
  export_block *block = calloc(1, sizeof *block);
  if (!block)
    return weir_fail(WEIR_ERR_OUT_OF_MEMORY,
                     "weir_dlpack_export: no host memory for the %zu-byte tensor record. Fix: "
                     "free host memory.",
                     sizeof *block);
  for (uint32_t d = 0; d < view->ndim; ++d) {
    block->shape[d] = (int64_t)view->shape[d];
    block->strides[d] = (int64_t)view->strides[d];
  }
  /* data stays the buffer's base (keeps its alignment); the view's offset
   * goes into byte_offset as DLPack intends. */
  block->managed.dl_tensor = (DLTensor){.data = base, .device = device, .ndim = (int)view->ndim,
                                        .dtype = dtype, .shape = block->shape,
                                        .strides = block->strides,
                                        .byte_offset = view->byte_offset};
  block->managed.manager_ctx = block;
  block->managed.deleter = export_deleter;
  block->chunk = view->chunk;
  weir_chunk_retain(view->chunk);
  *out = &block->managed;
  return WEIR_OK;
}
