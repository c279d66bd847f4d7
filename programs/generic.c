/* Host (CPU backend) code of the generic built-in programs. */
#include "programs/generic.h"

#include <stdatomic.h>
#include <string.h>

/* Index range [begin, end) of this workgroup's invocations, clipped to `limit`. */
static void workgroup_span(const weir_host_invocation *inv, uint64_t limit, uint64_t *begin,
                           uint64_t *end) {
  uint64_t wg = inv->workgroup_size[0];
  uint64_t linear = inv->workgroup_id[0] +
                    (uint64_t)inv->grid[0] *
                        (inv->workgroup_id[1] + (uint64_t)inv->grid[1] * inv->workgroup_id[2]);
  *begin = linear * wg;
  *end = *begin + wg;
  if (*end > limit) *end = limit;
  if (*begin > *end) *begin = *end;
}

static uint64_t min_u64(uint64_t a, uint64_t b) { return a < b ? a : b; }

void weir_host_noop(const weir_host_invocation *inv) { (void)inv; }

void weir_host_fill_u32(const weir_host_invocation *inv) {
  weir_fill_u32_push p;
  memcpy(&p, inv->push_constants, sizeof p);
  uint32_t *dst = inv->bindings[0];
  uint64_t begin, end;
  workgroup_span(inv, min_u64(p.count, inv->binding_bytes[0] / 4), &begin, &end);
  for (uint64_t i = begin; i < end; ++i) dst[i] = p.value;
}

void weir_host_copy_u32(const weir_host_invocation *inv) {
  weir_copy_u32_push p;
  memcpy(&p, inv->push_constants, sizeof p);
  uint32_t *dst = inv->bindings[0];
  const uint32_t *src = inv->bindings[1];
  uint64_t limit = min_u64(p.count, min_u64(inv->binding_bytes[0], inv->binding_bytes[1]) / 4);
  uint64_t begin, end;
  workgroup_span(inv, limit, &begin, &end);
  for (uint64_t i = begin; i < end; ++i) dst[i] = src[i];
}

void weir_host_add_u32(const weir_host_invocation *inv) {
  weir_add_u32_push p;
  memcpy(&p, inv->push_constants, sizeof p);
  uint32_t *dst = inv->bindings[0];
  uint64_t begin, end;
  workgroup_span(inv, min_u64(p.count, inv->binding_bytes[0] / 4), &begin, &end);
  for (uint64_t i = begin; i < end; ++i) dst[i] += p.value;
}

void weir_host_counter_u32(const weir_host_invocation *inv) {
  uint32_t *counter = inv->bindings[0];
  if (inv->binding_bytes[0] >= 4 && inv->workgroup_id[0] == 0 && inv->workgroup_id[1] == 0 &&
      inv->workgroup_id[2] == 0)
    counter[0] += 1;
}

void weir_host_atomic_add_u32(const weir_host_invocation *inv) {
  weir_atomic_add_u32_push p;
  memcpy(&p, inv->push_constants, sizeof p);
  if (inv->binding_bytes[0] < 4) return;
  /* One atomic per workgroup: the sum of its invocations' contributions. */
  uint64_t n = (uint64_t)inv->workgroup_size[0] * inv->workgroup_size[1] * inv->workgroup_size[2];
  _Atomic uint32_t *counter = (_Atomic uint32_t *)inv->bindings[0];
  atomic_fetch_add_explicit(counter, (uint32_t)(n * p.value), memory_order_relaxed);
}
