/* Host (CPU backend) versions of the IFDS engine's programs. */
#ifndef WEIR_PROGRAMS_IFDS_HOST_H
#define WEIR_PROGRAMS_IFDS_HOST_H

#include "weir/program.h"

/* Every program but ifds_clear binds the same nine buffers, in this order. */
enum {
  WEIR_IFDS_B_GRAPH = 0,
  WEIR_IFDS_B_CTRL,
  WEIR_IFDS_B_PTAB,
  WEIR_IFDS_B_PLOG,
  WEIR_IFDS_B_CTAB,
  WEIR_IFDS_B_CHEAD,
  WEIR_IFDS_B_INC,
  WEIR_IFDS_B_INCM,
  WEIR_IFDS_B_ES,
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

#endif
