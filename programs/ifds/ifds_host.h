/* Host (CPU backend) versions of the IFDS engine's programs. */
#ifndef WEIR_PROGRAMS_IFDS_HOST_H
#define WEIR_PROGRAMS_IFDS_HOST_H

#include "weir/program.h"

#include "programs/ifds/ifds_layout.h"

/* Every program but ifds_clear binds the same buffers, in this order: the
 * graph, the control block, then each relation's shards (B_X is the first
 * shard of X; shards a relation does not use are bound to its shard 0 and
 * never touched). programs/glsl/ifds_common.glsl mirrors these numbers. */
enum {
  WEIR_IFDS_B_GRAPH = 0,
  WEIR_IFDS_B_CTRL = 1,
  WEIR_IFDS_B_PTAB = 2,
  WEIR_IFDS_B_PLOG = WEIR_IFDS_B_PTAB + WEIR_IFDS_SHARDS_PTAB,
  WEIR_IFDS_B_CTAB = WEIR_IFDS_B_PLOG + WEIR_IFDS_SHARDS_PLOG,
  WEIR_IFDS_B_CHEAD = WEIR_IFDS_B_CTAB + WEIR_IFDS_SHARDS_CTAB,
  WEIR_IFDS_B_INC = WEIR_IFDS_B_CHEAD + WEIR_IFDS_SHARDS_CTAB,
  WEIR_IFDS_B_INCM = WEIR_IFDS_B_INC + WEIR_IFDS_SHARDS_INC,
  WEIR_IFDS_B_ES = WEIR_IFDS_B_INCM + WEIR_IFDS_SHARDS_INC,
  /* Across devices: the outboxes (u64 keys; the one for device j at
   * entries [j * out_cap, (j + 1) * out_cap)) and the inbox (u64 keys). A
   * solve on one device binds the control block there (never touched). */
  WEIR_IFDS_B_OUT = WEIR_IFDS_B_ES + WEIR_IFDS_SHARDS_ES,
  WEIR_IFDS_B_IN,
  WEIR_IFDS_BINDINGS
};

void weir_host_ifds_clear(const weir_host_invocation *inv);
void weir_host_ifds_restore(const weir_host_invocation *inv);
void weir_host_ifds_seed(const weir_host_invocation *inv);
void weir_host_ifds_rehash(const weir_host_invocation *inv);
void weir_host_ifds_unlink(const weir_host_invocation *inv);
void weir_host_ifds_relate(const weir_host_invocation *inv);
void weir_host_ifds_expand(const weir_host_invocation *inv);
void weir_host_ifds_advance(const weir_host_invocation *inv);
void weir_host_ifds_ingest(const weir_host_invocation *inv);

#endif
