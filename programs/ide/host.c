/* Host versions of the IDE engine's programs: each call runs one workgroup
 * with the per-item logic of ide_kernels.h. A round walks its share of the
 * worklist (chunks of the workgroup size, strided by the grid); expand
 * takes every grid-th changed target whole (one lane: a host workgroup is
 * one thread). */
#include <string.h>

#include "programs/ide/ide_host.h"
#include "programs/ide/ide_kernels.h"

static void ctx_from(const weir_host_invocation *inv, ide_ctx *cx) {
  void *const *b = inv->bindings;
  cx->fns = b[WEIR_IDE_B_FNS];
  cx->offset = b[WEIR_IDE_B_OFFSET];
  cx->rules = b[WEIR_IDE_B_RULES];
  cx->jf = b[WEIR_IDE_B_JF];
  cx->next = b[WEIR_IDE_B_NEXT];
  cx->dep_offset = b[WEIR_IDE_B_DEP_OFFSET];
  cx->deps = b[WEIR_IDE_B_DEPS];
  cx->mark = b[WEIR_IDE_B_MARK];
  cx->work = b[WEIR_IDE_B_WORK];
  cx->changed = b[WEIR_IDE_B_CHANGED];
  cx->ctrl = b[WEIR_IDE_B_CTRL];
  memcpy(&cx->pc, inv->push_constants, sizeof cx->pc);
}

void weir_host_ide_round(const weir_host_invocation *inv) {
  ide_ctx cx;
  ctx_from(inv, &cx);
  if (ide_stopped(&cx)) return;
  uint64_t wg = inv->workgroup_size[0], step = (uint64_t)inv->grid[0] * wg, n = ide_round_items(&cx);
  for (uint64_t base = inv->workgroup_id[0] * wg; base < n; base += step) {
    uint64_t stop = base + wg < n ? base + wg : n;
    for (uint64_t i = base; i < stop; ++i) ide_round_item(&cx, ide_round_target(&cx, (uint32_t)i));
  }
}

void weir_host_ide_expand(const weir_host_invocation *inv) {
  ide_ctx cx;
  ctx_from(inv, &cx);
  if (ide_stopped(&cx)) return;
  uint32_t n = cx.ctrl[WEIR_IDE_C_CHANGES];
  for (uint64_t i = inv->workgroup_id[0]; i < n; i += inv->grid[0]) ide_expand_item(&cx, (uint32_t)i, 0u, 1u);
}

void weir_host_ide_advance(const weir_host_invocation *inv) {
  if (inv->workgroup_id[0] != 0u) return;
  ide_ctx cx;
  ctx_from(inv, &cx);
  ide_advance(&cx);
}
