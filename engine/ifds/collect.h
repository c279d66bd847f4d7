/* The result of a solver from its packed path edges, built in the memory
 * that held them (the reference solver's path-edge set). */
#ifndef WEIR_ENGINE_IFDS_COLLECT_H
#define WEIR_ENGINE_IFDS_COLLECT_H

#include <stddef.h>
#include <stdint.h>

#include "weir/ifds.h"

/* (*words)[0..slots) holds path edges packed as n << 2 bc_bits | d1 <<
 * bc_bits | d2, UINT64_MAX in empty slots. Fills out->hold_node/hold_fact
 * (every (n, d2), sorted, unique) and takes the array: it becomes
 * hold_fact or is freed, and *words is NULL afterwards, also on failure.
 * The extra memory is the sort's copy of the keys and the hold_node array
 * (4 bytes per hold). */
/* keys[0..m): (n << 32 | d2) in any order, duplicates allowed; the array is
 * taken (it becomes hold_fact or is freed). Fills hold_node/hold_fact. */
weir_status weir_ifds_holds_from_keys(uint64_t *keys, size_t m, weir_ifds_result *out);

weir_status weir_ifds_holds_in_place(uint64_t **words, size_t slots, uint32_t bc_bits,
                                     weir_ifds_result *out);

#endif
