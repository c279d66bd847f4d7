/* The IFDS engine across devices or MPI ranks (see multi.c and
 * docs/distributed.md): the state shared by multi.c (setup, entry points),
 * multi_round.c (rounds and the exchange) and multi_result.c (the result). */
#ifndef WEIR_IFDS_ENGINE_MULTI_H
#define WEIR_IFDS_ENGINE_MULTI_H

#include "engine/ifds/engine/plan.h"

typedef struct member {
  ifds_engine e;
  window_plan w;
  weir_chunk *out, *in; /* outboxes (size x out_cap keys), inbox */
  uint32_t in_count;    /* inbox keys the next round ingests */
  int rebuild;          /* the next prefix rebuilds after growth */
  int rehash;           /* the next prefix rebuilds the table from the log [0, rehash_to) */
  uint32_t rehash_to;
  weir_backend_stats before;
  /* The round's outcome when it ran on its own thread (the message lives in
   * that thread's weir_last_error, so it is carried back here). */
  weir_status st;
  char message[1024];
  struct multi *mt;
  int head;
  uint64_t k; /* iterations in this round's window */
  uint64_t owned; /* path edges it owns (multi_result.c) */
  double busy;    /* seconds its windows ran (on its thread) */
} member;

/* Columns of a member's row in the gathered table: its outbox counts (one
 * per member), then these. */
enum { ROW_CONVERGED, ROW_LOG, ROW_ITER, ROW_EXTRA };

typedef struct multi {
  weir_group *group;
  const weir_ifds_problem *pb;
  const weir_ifds_engine_options *o;
  uint32_t size, first, local;
  member *m;
  uint8_t *proc_owner;
  uint32_t *to_old; /* device node -> problem node */
  weir_replica_set *graph;
  uint64_t width;   /* size + ROW_EXTRA */
  uint64_t *rows;   /* size x width, every member's row */
  uint64_t *send_counts, *send_displs, *recv_counts, *recv_displs; /* local x size */
  weir_chunk **meta_send, **meta_recv; /* allgather of rows across processes */
  uint64_t rounds, exchanged_keys, iterations;
  uint64_t graph_hash; /* of the packed supergraph: ranks compare it */
  double seconds_exchange;
} multi;

/* The member that owns path edge `key` (as ifds_owner in
 * programs/ifds/ifds_kernels.h, from the problem's procedures). */
static inline uint32_t weir_ifds_multi_key_owner(const multi *mt, const ifds_engine *e,
                                                 uint64_t key) {
  uint32_t node = (uint32_t)((key >> e->fact_bits) & ((1ull << e->node_bits) - 1u));
  uint32_t d1 = (uint32_t)(key >> (e->node_bits + e->fact_bits));
  uint32_t b = mt->proc_owner[mt->pb->node_proc[mt->to_old[node]]];
  if (!(b & WEIR_IFDS_SPREAD)) return b;
  return ((b & WEIR_IFDS_SPREAD_HOME) + ((d1 * 0x9E3779B1u) >> 8)) % mt->size;
}

/* partition.c: the ownership mode (options, then WEIR_IFDS_OWNERSHIP), and
 * the owner byte of every procedure for it (a member, or WEIR_IFDS_SPREAD
 * and a home member). */
weir_status weir_ifds_multi_ownership(const weir_ifds_engine_options *o, int32_t *mode);
weir_status weir_ifds_multi_partition(const weir_ifds_problem *pb, uint32_t size, int32_t mode,
                                      uint8_t *owner);

/* Member `rank`'s row of the gathered table (size x width). */
static inline uint64_t *weir_ifds_multi_row(const multi *mt, uint32_t rank) {
  return mt->rows + (uint64_t)rank * mt->width;
}
double weir_ifds_multi_now(void);
/* The most entries per destination the outboxes of e can have (one binding). */
uint64_t weir_ifds_multi_max_outbox(const ifds_engine *e);
/* A buffer of `entries` keys for binding `binding` of member e, as a chunk
 * (replacing *chunk); refused past the backend's per-binding limit. */
weir_status weir_ifds_multi_box(ifds_engine *e, uint64_t entries, const char *what,
                                weir_chunk **chunk, int binding);
/* Every member's row on every process (an allgather across processes). */
weir_status weir_ifds_multi_gather_rows(multi *mt);
/* multi_round.c: rounds until every member converged and no outbox holds anything. */
weir_status weir_ifds_multi_run_rounds(multi *mt);
/* multi_result.c: the result on member 0's process, the group's path edges on all. */
weir_status weir_ifds_multi_collect(multi *mt, weir_ifds_result *out, uint64_t *path_edges);

#endif
