/* Views: a typed, strided window onto a chunk. Strides are in elements (as in
 * DLPack); every offset is computed with overflow checks so that a hostile
 * shape is refused instead of wrapping around into someone else's bytes. */
#include "engine/residency/checked.h"
#include "weir/residency.h"

/* need_chunk 0: only the shape matters (span arithmetic before a chunk
 * exists, as in DLPack import). */
static weir_status view_shape_ok(const char *op, const weir_view *view, int need_chunk) {
  if (!view)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT, "%s: view is NULL. Fix: pass a weir_view.", op);
  if (need_chunk && !view->chunk)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "%s: the view has no chunk. Fix: build it with weir_view_make.", op);
  if (view->element_bytes == 0)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "%s: element_bytes is 0. Fix: give the element size in bytes (>= 1).", op);
  if (view->ndim > WEIR_VIEW_MAX_DIMS)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "%s: ndim %u exceeds WEIR_VIEW_MAX_DIMS (%u). Fix: merge dimensions.", op,
                     view->ndim, (unsigned)WEIR_VIEW_MAX_DIMS);
  return WEIR_OK;
}

uint64_t weir_view_element_count(const weir_view *view) {
  if (!view || view->ndim > WEIR_VIEW_MAX_DIMS) return 0;
  uint64_t count = 1;
  for (uint32_t d = 0; d < view->ndim; ++d)
    if (weir_checked_mul(count, view->shape[d], &count)) return UINT64_MAX;
  return count;
}

weir_status weir_view_span_bytes(const weir_view *view, uint64_t *out) {
  WEIR_TRY(view_shape_ok("weir_view_span_bytes", view, 0));
  if (!out)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "weir_view_span_bytes: out is NULL. Fix: pass a uint64_t *.");
  for (uint32_t d = 0; d < view->ndim; ++d)
    if (view->shape[d] == 0) return *out = 0, WEIR_OK;
  uint64_t last = 0; /* element index of the last element */
  for (uint32_t d = 0; d < view->ndim; ++d) {
    uint64_t step;
    if (weir_checked_mul(view->shape[d] - 1, view->strides[d], &step) ||
        weir_checked_add(last, step, &last))
      goto overflow;
  }
  if (weir_checked_add(last, 1, &last) || weir_checked_mul(last, view->element_bytes, out))
    goto overflow;
  return WEIR_OK;
overflow:
  return weir_fail(WEIR_ERR_OUT_OF_RANGE,
                   "weir_view_span_bytes: shape x strides x element_bytes (%u) overflows 64 "
                   "bits. Fix: check the view's shape and strides.",
                   view->element_bytes);
}

weir_status weir_view_validate(const weir_view *view) {
  uint64_t span = 0, end = 0;
  WEIR_TRY(view_shape_ok("weir_view_validate", view, 1));
  WEIR_TRY(weir_view_span_bytes(view, &span));
  uint64_t chunk_bytes = weir_chunk_bytes(view->chunk);
  if (weir_checked_add(view->byte_offset, span, &end) || end > chunk_bytes ||
      view->byte_offset > chunk_bytes)
    return weir_fail(WEIR_ERR_OUT_OF_RANGE,
                     "weir_view_validate: the view covers bytes [%llu, %llu + %llu) but its "
                     "chunk holds %llu bytes. Fix: shrink the shape or the offset.",
                     (unsigned long long)view->byte_offset,
                     (unsigned long long)view->byte_offset, (unsigned long long)span,
                     (unsigned long long)chunk_bytes);
  return WEIR_OK;
}

weir_status weir_view_make(weir_chunk *chunk, uint64_t byte_offset, uint32_t element_bytes,
                           uint32_t ndim, const uint64_t *shape, weir_view *out) {
  if (!out)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "weir_view_make: out is NULL. Fix: pass a weir_view *.");
  if (ndim > 0 && !shape)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "weir_view_make: shape is NULL for ndim %u. Fix: pass ndim extents.", ndim);
  weir_view view = {.chunk = chunk, .byte_offset = byte_offset, .element_bytes = element_bytes,
                    .ndim = ndim};
  WEIR_TRY(view_shape_ok("weir_view_make", &view, 1));
  /* Row-major: the trailing (sample) dimension is contiguous. A stride that
   * overflows is caught by the span check in validate. */
  uint64_t stride = 1;
  for (uint32_t d = ndim; d-- > 0;) {
    view.shape[d] = shape[d];
    view.strides[d] = stride;
    if (weir_checked_mul(stride, shape[d] ? shape[d] : 1, &stride)) stride = UINT64_MAX;
  }
  WEIR_TRY(weir_view_validate(&view));
  *out = view;
  return WEIR_OK;
}

weir_status weir_view_element_offset(const weir_view *view, const uint64_t *index,
                                     uint64_t *out) {
  WEIR_TRY(view_shape_ok("weir_view_element_offset", view, 1));
  if (!out || (view->ndim > 0 && !index))
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "weir_view_element_offset: index or out is NULL. Fix: pass ndim (%u) "
                     "indices and a uint64_t *.",
                     view->ndim);
  uint64_t element = 0;
  for (uint32_t d = 0; d < view->ndim; ++d) {
    if (index[d] >= view->shape[d])
      return weir_fail(WEIR_ERR_OUT_OF_RANGE,
                       "weir_view_element_offset: index %llu of dimension %u is past its "
                       "extent %llu. Fix: stay below the extent.",
                       (unsigned long long)index[d], d, (unsigned long long)view->shape[d]);
    uint64_t step;
    if (weir_checked_mul(index[d], view->strides[d], &step) ||
        weir_checked_add(element, step, &element))
      return weir_fail(WEIR_ERR_OUT_OF_RANGE,
                       "weir_view_element_offset: offset of dimension %u overflows. Fix: check "
                       "the view's strides.",
                       d);
  }
  uint64_t bytes;
  if (weir_checked_mul(element, view->element_bytes, &bytes) ||
      weir_checked_add(bytes, view->byte_offset, out))
    return weir_fail(WEIR_ERR_OUT_OF_RANGE,
                     "weir_view_element_offset: byte offset overflows. Fix: check the view.");
  return WEIR_OK;
}
