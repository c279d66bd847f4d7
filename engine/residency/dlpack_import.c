/* DLPack import: a tensor of another library becomes a non-owning chunk and a
 * view of it. weir takes over the managed tensor and calls its deleter once,
 * when the chunk's last reference goes. */
#include "weir/interop.h"


static void import_release(void *context) {
  DLManagedTensor *tensor = context;
  if (tensor->deleter) tensor->deleter(tensor);
}

static weir_status device_matches(weir_backend *backend, const DLTensor *t) {
  DLDevice mine;
  WEIR_TRY(weir_dlpack_device(backend, &mine));
  /* Host memory is one address space: cpu:0 .. cpu:7 are separate instances
   * over the same RAM, while other libraries always say (kDLCPU, 0). So a
   * kDLCPU tensor of any id is imported on any kDLCPU backend; only device
   * memory (CUDA, ...) must match the id. */
  if (mine.device_type == kDLCPU && t->device.device_type == kDLCPU) return WEIR_OK;
  if (mine.device_type != t->device.device_type || mine.device_id != t->device.device_id)
    return weir_fail(WEIR_ERR_UNSUPPORTED,
                     "weir_dlpack_import: the tensor lives on (%s, %d) but backend %s is (%s, "
                     "%d). Fix: import on the backend of the tensor's device, or copy the "
                     "tensor there first.",
                     weir_dlpack_device_type_name(t->device.device_type), t->device.device_id,
                     weir_backend_id(backend), weir_dlpack_device_type_name(mine.device_type),
                     mine.device_id);
  return WEIR_OK;
}

/* Shape and strides as a chunk-less view; strides NULL means compact
 * row-major, as DLPack defines. */
static weir_status tensor_view(const DLTensor *t, weir_view *view) {
  if (t->ndim < 0 || t->ndim > WEIR_VIEW_MAX_DIMS || (t->ndim > 0 && !t->shape))
    return weir_fail(WEIR_ERR_UNSUPPORTED,
                     "weir_dlpack_import: ndim %d (shape %s) is not supported. Fix: import "
                     "tensors of 0 to %u dimensions with a shape array.",
                     t->ndim, t->shape ? "given" : "NULL", (unsigned)WEIR_VIEW_MAX_DIMS);
  *view = (weir_view){.element_bytes = t->dtype.bits / 8u, .ndim = (uint32_t)t->ndim};
  uint64_t compact = 1;
  for (int d = t->ndim; d-- > 0;) {
    int64_t stride = t->strides ? t->strides[d] : (int64_t)compact;
    if (t->shape[d] < 0 || stride < 0)
      return weir_fail(WEIR_ERR_UNSUPPORTED,
                       "weir_dlpack_import: dimension %d has extent %lld and stride %lld; "
                       "negative values are not supported. Fix: pass a tensor with "
                       "non-negative strides (make it contiguous first).",
                       d, (long long)t->shape[d], (long long)stride);
    view->shape[d] = (uint64_t)t->shape[d];
    view->strides[d] = (uint64_t)stride;
    if (__builtin_mul_overflow(compact, view->shape[d] ? view->shape[d] : 1, &compact))
      compact = UINT64_MAX;
  }
  return WEIR_OK;
}

weir_status weir_dlpack_import(weir_backend *backend, DLManagedTensor *tensor,
                               weir_view *out_view, DLDataType *out_dtype) {
  if (!backend || !tensor || !out_view)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "weir_dlpack_import: backend, tensor or out_view is NULL. Fix: pass all "
                     "three.");
  const DLTensor *t = &tensor->dl_tensor;
  weir_status status = weir_dlpack_check_dtype(t->dtype);
  if (status != WEIR_OK) return weir_fail_context(status, "weir_dlpack_import");
  WEIR_TRY(device_matches(backend, t));
  weir_view view;
  WEIR_TRY(tensor_view(t, &view));
  uint64_t span = 0;
  WEIR_TRY(weir_view_span_bytes(&view, &span));
  if (span == 0 || !t->data)
    return weir_fail(WEIR_ERR_UNSUPPORTED,
                     "weir_dlpack_import: the tensor is empty or its data is NULL (%llu "
                     "bytes); weir buffers hold at least one byte. Fix: import a non-empty "
                     "tensor.",
                     (unsigned long long)span);
  void *first = (char *)t->data + t->byte_offset;
  status = weir_chunk_import_external(backend, first, span, import_release, tensor, &view.chunk);
  if (status != WEIR_OK) return weir_fail_context(status, "weir_dlpack_import");
  *out_view = view;
  if (out_dtype) *out_dtype = t->dtype;
  return WEIR_OK;
}
