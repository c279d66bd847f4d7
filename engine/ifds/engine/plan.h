/* The steps of the IFDS engine's windows: the prefix that (re)builds the
 * relations after growth, an iteration, and across devices a round (see
 * multi.c). Shared by window.c (one device) and multi.c (several). */
#ifndef WEIR_IFDS_ENGINE_PLAN_H
#define WEIR_IFDS_ENGINE_PLAN_H

#include "engine/ifds/engine/engine.h"

#define PROBE_LIMIT 4096u
/* Passes relate and expand split their long loops over, at most (see
 * split_loops). */
#define MAX_PARTS 64u
/* restore, unlink or seed, rehash, advance, relate per part, and a clear
 * per shard of the table, the contexts and their heads; across devices the
 * round's resume, ingest and advance. */
#define MAX_PREFIX (8u + MAX_PARTS + WEIR_IFDS_SHARDS_PTAB + 2u * WEIR_IFDS_SHARDS_CTAB)
#define MAX_REPEATED (2u * MAX_PARTS + 1u)

typedef struct window_plan {
  weir_step prefix[MAX_PREFIX], repeated[MAX_REPEATED];
  weir_ifds_push prefix_push[MAX_PREFIX], push[MAX_REPEATED];
  size_t prefix_count, repeated_count;
} window_plan;

/* The prefix after growth (or of the first window, from a zeroed control
 * block): see the comment at the top of window.c. */
void weir_ifds_plan_rebuild(const ifds_engine *e, window_plan *w);
/* An iteration: relate in `parts` passes, expand in `parts` passes, advance. */
void weir_ifds_plan_iteration(const ifds_engine *e, window_plan *w);
/* Across devices (multi.c): the steps a round starts with, appended to
 * w->prefix: resume (the converged bit and outbox counts cleared), ingest of
 * the inbox's `in_count` path edges, merge (they join the current delta);
 * the round's iterations are weir_ifds_plan_iteration's. */
void weir_ifds_plan_round_head(const ifds_engine *e, window_plan *w, uint32_t in_count);
/* The prefix that rebuilds the table alone from the log [0, count) (after
 * the log grew to make room for an inbox; nothing else changes). */
void weir_ifds_plan_rehash(const ifds_engine *e, window_plan *w, uint32_t count);
/* The driver cut a kernel's loops short (WEIR_IFDS_O_LOOP): twice the
 * passes, or an error past MAX_PARTS. */
weir_status weir_ifds_engine_split_loops(ifds_engine *e);

#endif
