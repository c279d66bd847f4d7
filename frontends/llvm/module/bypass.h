/* Bypassing identity nodes (bypass.c): the sparse supergraph of emit.c. */
#ifndef WEIR_FRONTENDS_LLVM_BYPASS_H
#define WEIR_FRONTENDS_LLVM_BYPASS_H

#include "frontends/llvm/internal.h"

typedef struct weir_llvm_bypass_input {
  uint32_t first, node_count;  /* the function's nodes [first, first + node_count) */
  const uint8_t *keep;         /* [node_count] 1: never bypassed (start, exit, call, ...) */
  const uint32_t *edges;       /* [edge_count][4]: from, to, flow, is-identity */
  size_t edge_count;
} weir_llvm_bypass_input;

/* The function's intraprocedural edges with the nodes that only hand every
 * fact on bypassed, as (from, to, flow) triples into `edges_out`, and how
 * many nodes were bypassed. 0: out of memory. */
int weir_llvm_bypass(const weir_llvm_bypass_input *input, weir_llvm_vec *edges_out, uint32_t *bypassed);

#endif
