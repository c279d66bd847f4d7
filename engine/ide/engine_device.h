/* Phase 1 of the IDE engine on a device (engine_device.c). */
#ifndef WEIR_ENGINE_IDE_ENGINE_DEVICE_H
#define WEIR_ENGINE_IDE_ENGINE_DEVICE_H

#include "engine/ide/engine.h"
#include "programs/ide/ide_layout.h"

typedef struct ide_device {
  weir_backend *backend;
  const weir_program *prog[3]; /* ide_round_FAMILY, ide_expand, ide_advance */
  weir_buffer buf[WEIR_IDE_BINDINGS]; /* engine_device.c's buffers, in binding order */
  uint64_t bytes;   /* allocated by phase 1 */
  uint64_t windows;
  uint64_t redos;   /* rounds redone after a loop-budget overflow (lavapipe) */
  uint32_t ctrl[WEIR_IDE_CTRL_WORDS]; /* the last window's control block (WEIR_IDE_C_*) */
} ide_device;

/* Runs phase 1 over the rules and leaves the jump functions in s->jf
 * (s->jf_cap of them); every buffer is freed before it returns. */
weir_status ide_device_solve(ide_device *d, const ide_rules *r, ide_solver *s);

#endif
