/* Host versions of the IDE engine's programs: each call runs one workgroup,
 * which walks its share of the targets (chunks of the workgroup size,
 * strided by the grid) with the per-item logic of ide_kernels.h. */
#include <string.h>

#include "programs/ide/ide_host.h"
#include "programs/ide/ide_kernels.h"

static void ctx_from(const weir_host_invocation *inv, ide_ctx *cx) {
  void *const *b = inv->bindings;
  cx->fns = b[WEIR_IDE_B_FNS];
  cx->offset = b[WEIR_IDE_B_OFFSET];
  cx->rules = b[WEIR_IDE_B_RULES];
  cx->jf_in = b[WEIR_IDE_B_JF_IN];
  cx->jf_out = b[WEIR_IDE_B_JF_OUT];
  cx->chg_in = b[WEIR_IDE_B_CHG_IN];
  cx->chg_out = b[WEIR_IDE_B_CHG_OUT];
  cx->ctrl = b[WEIR_IDE_B_CTRL];
  memcpy(&cx->pc, inv->push_constants, sizeof cx->pc);
}

void weir_host_ide_round(const weir_host_invocation *inv) {
  ide_ctx cx;
  ctx_from(inv, &cx);
  if (ide_round_skipped(&cx)) return;
  uint64_t wg = inv->workgroup_size[0], step = (uint64_t)inv->grid[0] * wg;
  for (uint64_t base = inv->workgroup_id[0] * wg; base < cx.pc.targets; base += step) {
    uint64_t stop = base + wg < cx.pc.targets ? base + wg : cx.pc.targets;
    for (uint64_t t = base; t < stop; ++t) ide_round_item(&cx, (uint32_t)t);
  }
}

void weir_host_ide_advance(const weir_host_invocation *inv) {
  if (inv->workgroup_id[0] != 0u) return;
  ide_ctx cx;
  ctx_from(inv, &cx);
  ide_advance(&cx);
}
