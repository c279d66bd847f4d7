/* Partitions: cut the sample (trailing) dimension of a view into `parts`
 * blocks whose starts are multiples of pad_to, so that every device gets
 * aligned, equally sized work. Blocks are views of the same memory. */
#include "engine/residency/checked.h"
#include "weir/residency.h"

weir_partition_spec weir_partition_spec_default(uint64_t parts) {
  return (weir_partition_spec){.parts = parts, .pad_to = WEIR_PARTITION_DEFAULT_PAD_TO};
}

static weir_status spec_ok(const char *op, weir_partition_spec spec) {
  if (spec.parts == 0)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "%s: partition spec has 0 parts. Fix: use parts >= 1 (one per device).",
                     op);
  if (spec.pad_to == 0)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "%s: partition spec has pad_to 0. Fix: use pad_to >= 1 (default %u, "
                     "weir_partition_spec_default).",
                     op, WEIR_PARTITION_DEFAULT_PAD_TO);
  return WEIR_OK;
}

weir_status weir_padded_block_samples(uint64_t total, weir_partition_spec spec, uint64_t *out) {
  WEIR_TRY(spec_ok("weir_padded_block_samples", spec));
  if (!out)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "weir_padded_block_samples: out is NULL. Fix: pass a uint64_t *.");
  /* ceil without total + parts - 1, which could overflow. */
  uint64_t per = total / spec.parts + (total % spec.parts != 0);
  uint64_t rest = per % spec.pad_to;
  if (rest != 0 && weir_checked_add(per, spec.pad_to - rest, &per))
    return weir_fail(WEIR_ERR_OUT_OF_RANGE,
                     "weir_padded_block_samples: rounding %llu samples per block up to a "
                     "multiple of %llu overflows 64 bits (total %llu, parts %llu). Fix: use a "
                     "smaller pad_to.",
                     (unsigned long long)per, (unsigned long long)spec.pad_to,
                     (unsigned long long)total, (unsigned long long)spec.parts);
  *out = per;
  return WEIR_OK;
}

weir_status weir_partition_view(const weir_view *view, weir_partition_spec spec, uint64_t index,
                                weir_view *out) {
  static const char op[] = "weir_partition_view";
  WEIR_TRY(spec_ok(op, spec));
  if (!out)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT, "%s: out is NULL. Fix: pass a weir_view *.", op);
  WEIR_TRY(weir_view_validate(view));
  if (view->ndim == 0)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "%s: the view has no sample dimension (ndim 0). Fix: give the view at "
                     "least one dimension; the trailing one is partitioned.",
                     op);
  if (index >= spec.parts)
    return weir_fail(WEIR_ERR_OUT_OF_RANGE,
                     "%s: block %llu requested of a %llu-part partition. Fix: use an index "
                     "below parts.",
                     op, (unsigned long long)index, (unsigned long long)spec.parts);
  uint32_t sample_dim = view->ndim - 1;
  uint64_t total = view->shape[sample_dim], block = 0, start = 0;
  WEIR_TRY(weir_padded_block_samples(total, spec, &block));
  weir_view part = *view;
  /* Overflow of index * block means the start is past any real sample. */
  if (weir_checked_mul(index, block, &start) || start >= total) {
    part.shape[sample_dim] = 0;
    *out = part;
    return WEIR_OK;
  }
  uint64_t extent = total - start < block ? total - start : block;
  part.shape[sample_dim] = extent;
  /* In a non-empty validated view sample `start` lies inside the chunk, so
   * this cannot overflow; an empty view (another extent 0) keeps its offset. */
  if (weir_view_element_count(view) != 0) {
    uint64_t shift = 0;
    if (weir_checked_mul(start, view->strides[sample_dim], &shift) ||
        weir_checked_mul(shift, view->element_bytes, &shift) ||
        weir_checked_add(part.byte_offset, shift, &part.byte_offset))
      return weir_fail(WEIR_ERR_INTERNAL,
                       "%s: block %llu's byte offset overflows in a validated view. Fix: "
                       "please report this bug.",
                       op, (unsigned long long)index);
  }
  *out = part;
  return WEIR_OK;
}
