/* scale_u32 as host code in a shared library, for weir_program_from_host_library
 * and the .weirprog manifest: b0[i] *= factor for i < count, where i is the
 * global invocation index along x (as shaders/scale_u32.comp computes it). */
#include <weir/program.h>

typedef struct scale_push {
  uint32_t factor, count;
} scale_push;

__attribute__((visibility("default"))) void scale_u32_host(const weir_host_invocation *inv) {
  const scale_push *pc = inv->push_constants;
  uint32_t *data = inv->bindings[0];
  uint64_t words = inv->binding_bytes[0] / 4;
  uint64_t base = (uint64_t)inv->workgroup_id[0] * inv->workgroup_size[0];
  for (uint32_t lx = 0; lx < inv->workgroup_size[0]; ++lx) {
    uint64_t i = base + lx;
    if (i < pc->count && i < words) data[i] *= pc->factor;
  }
}

/* The bug of issue 17 in host form: only the first half of each workgroup's
 * items are processed. `weir bench --verify` must report the mismatch. */
__attribute__((visibility("default"))) void scale_u32_host_half(const weir_host_invocation *inv) {
  weir_host_invocation half = *inv;
  half.workgroup_size[0] = inv->workgroup_size[0] / 2 ? inv->workgroup_size[0] / 2 : 1;
  const scale_push *pc = inv->push_constants;
  uint32_t *data = inv->bindings[0];
  uint64_t words = inv->binding_bytes[0] / 4;
  uint64_t base = (uint64_t)inv->workgroup_id[0] * inv->workgroup_size[0];
  for (uint32_t lx = 0; lx < half.workgroup_size[0]; ++lx) {
    uint64_t i = base + lx;
    if (i < pc->count && i < words) data[i] *= pc->factor;
  }
}
