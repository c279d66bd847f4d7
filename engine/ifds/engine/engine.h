/* The resident IFDS engine's internals (see README.md in this folder). */
#ifndef WEIR_IFDS_ENGINE_INTERNAL_H
#define WEIR_IFDS_ENGINE_INTERNAL_H

#include <stdint.h>

#include "programs/ifds/ifds_host.h"
#include "programs/ifds/ifds_layout.h"
#include "weir/ifds.h"

/* Capacities of the growing relations (entries, not bytes). */
typedef struct ifds_caps {
  uint64_t plog;  /* path-edge log entries */
  uint64_t ptab;  /* path-edge table slots */
  uint64_t ctab;  /* context table slots */
  uint64_t inc;   /* incoming entries */
  uint64_t es;    /* end-summary entries */
} ifds_caps;

/* The sharded relations (the graph and the control block are one buffer
 * each). Each relation's entries are 8 bytes; see ifds_layout.h. */
enum {
  IFDS_R_PTAB,
  IFDS_R_PLOG,
  IFDS_R_CTAB,
  IFDS_R_CHEAD,
  IFDS_R_INC,
  IFDS_R_INCM,
  IFDS_R_ES,
  IFDS_R_COUNT
};

enum {
  IFDS_P_CLEAR,
  IFDS_P_RESTORE,
  IFDS_P_SEED,
  IFDS_P_REHASH,
  IFDS_P_UNLINK,
  IFDS_P_RELATE,
  IFDS_P_EXPAND,
  IFDS_P_ADVANCE,
  IFDS_P_INGEST,
  IFDS_P_COUNT
};

typedef struct ifds_engine {
  weir_backend *backend;
  const weir_ifds_problem *problem;
  uint32_t fact_bits, node_bits;
  uint32_t key_words; /* 1: the log and table hold 32-bit keys; 2: 64-bit (solve.c) */
  uint32_t grid;         /* workgroups per delta dispatch, adapted per window */
  uint32_t max_grid;     /* workgroups for full-size work (clears, rebuilds) */
  uint64_t graph_words;
  uint32_t *to_old; /* device node -> problem node */
  /* The bindings of every program, in binding order: a relation's shards
   * past the ones it uses are copies of its shard 0 (bound, never touched). */
  weir_buffer buf[WEIR_IFDS_BINDINGS];
  uint32_t shards[IFDS_R_COUNT];      /* shards each relation really has */
  uint64_t shard_bytes[WEIR_IFDS_BINDINGS]; /* bytes of each real shard */
  uint32_t shard_shift;  /* entries per shard = 2^shard_shift (32: one shard, no limit) */
  uint64_t binding_limit; /* the backend's per-binding limit in bytes (0: none) */
  ifds_caps caps;
  uint64_t plog_allocated; /* entries of the log buffer (caps.plog once allocated) */
  const weir_program *prog[IFDS_P_COUNT];
  int subgroup_appends; /* the _sg programs: appends reserved once per subgroup (solve.c) */
  uint32_t ctrl[WEIR_IFDS_CTRL_READ]; /* the last window's read-back */
  uint64_t growths, windows;
  /* Atomic reservations on the device (C_RESERVES, a 32-bit count that
   * wraps): their sum, and the count at the last read-back. */
  uint64_t reserves;
  uint32_t reserves_seen;
  int keep_table;   /* rollback keeps the table and the log past B (no rehash) */
  int full_rebuild; /* the next window's prefix: 1 rebuild everything, 0 roll back one iteration */
  uint32_t parts;   /* passes of relate and expand (window.c: split_loops) */
  uint32_t grid_cap; /* most workgroups per delta dispatch (max_grid, more after a split) */
  uint64_t resident_bytes, peak_bytes; /* this solve's own buffers */
  /* Across devices (multi.c): this device's index, the device count (0: one
   * device, no owner checks), entries per outbox and of the inbox. */
  uint32_t device, devices;
  uint32_t out_cap;
  uint64_t in_cap;
  int graph_borrowed; /* the graph buffer belongs to a replica set */
} ifds_engine;

/* solve.c: what one device's solve and a solve across devices share. */
weir_status weir_ifds_engine_check_problem(const weir_ifds_problem *problem);
/* The sized structs of a solve entry point (`fn` names it in messages):
 * the caller's options, if any, copied into *known (fields this library
 * does not know stay 0; *options points to known, or is NULL), and the
 * bytes of the caller's stats this library may fill (0 without stats). */
weir_status weir_ifds_engine_args_in(const char *fn, const weir_ifds_engine_options *given,
                                     weir_ifds_engine_options *known, const weir_ifds_engine_options **options,
                                     const weir_ifds_stats *stats, size_t *stats_bytes);
/* Zeroes *e and sets it up for `backend`: key widths, programs, first sizes. */
weir_status weir_ifds_engine_init(ifds_engine *e, weir_backend *backend,
                                  const weir_ifds_problem *problem,
                                  const weir_ifds_engine_options *options);
/* The logged keys [0, ctrl[C_PLOG]), 4 * key_words bytes each: in place on
 * a host device, else downloaded into *owned (the caller frees it; NULL
 * when in place). */
weir_status weir_ifds_engine_log_keys(ifds_engine *e, const void **keys, void **owned);

/* The path edges (d1, node, d2) of a solve, in the problem's numbering and
 * the log's order (discovery order): phase 0 of the IDE engine. */
typedef struct ifds_path_edges {
  uint64_t count;
  uint32_t *d1, *node, *d2;
} ifds_path_edges;
/* The fixed point on one device, then the log decoded into *out (free it
 * with weir_ifds_path_edges_free; zeroed on failure). *all gets the figures
 * a weir_ifds_solve_engine would report (its struct_size set by the caller). */
weir_status weir_ifds_engine_path_edges(weir_backend *backend, const weir_ifds_problem *problem,
                                        const weir_ifds_engine_options *options,
                                        ifds_path_edges *out, weir_ifds_stats *all);
void weir_ifds_path_edges_free(ifds_path_edges *edges);

/* graph.c: key widths, the packed graph buffer. */
weir_status weir_ifds_engine_key_bits(const weir_ifds_problem *problem, uint32_t *fact_bits,
                                      uint32_t *node_bits);
/* Whether every path edge key fits 32 bits with all ones left for the
 * empty table slot (node bits + 2 fact bits <= 32). */
int weir_ifds_engine_keys_fit_32(const weir_ifds_problem *problem, uint32_t fact_bits,
                                 uint32_t node_bits);
/* solve.c: 1 (32-bit keys in the log, table and exchanges) where every key
 * fits and 64-bit keys are not asked for (wide_keys, WEIR_IFDS_WIDE_KEYS),
 * else 2. */
uint32_t weir_ifds_engine_key_words(const ifds_engine *e, const weir_ifds_engine_options *o);
/* *to_old: the problem's node of each device node (caller frees). */
/* proc_owner (across `devices` devices; NULL for one device): the owner
 * byte of each procedure (a device, or WEIR_IFDS_SPREAD and a home device),
 * which adds the owner and callers arrays (ifds_layout.h). */
weir_status weir_ifds_engine_pack_graph(const weir_ifds_problem *problem,
                                        const uint8_t *proc_owner, uint32_t devices, uint32_t **out,
                                        uint64_t *words, uint32_t **to_old);

/* state.c: device buffers, their sizes and growth. */
/* The shard size from the backend's per-binding limit; refuses a graph or
 * control block that cannot be bound at all. */
weir_status weir_ifds_engine_plan_shards(ifds_engine *e);
/* Entries one relation can hold at most (its shards times the shard size). */
uint64_t weir_ifds_engine_max_entries(const ifds_engine *e, int relation);
/* Bytes resident per kind: graph, path-edge log, table, contexts and lists. */
void weir_ifds_engine_bytes(const ifds_engine *e, uint64_t *graph, uint64_t *log,
                            uint64_t *table, uint64_t *lists);
void weir_ifds_engine_initial_caps(const weir_ifds_problem *problem,
                                   const weir_ifds_engine_options *options, ifds_caps *out);
/* Across `parts` devices: first sizes for one device's share. */
void weir_ifds_engine_share_caps(ifds_engine *e, uint32_t parts);
weir_status weir_ifds_engine_alloc_derived(ifds_engine *e);
weir_status weir_ifds_engine_grow(ifds_engine *e);
void weir_ifds_engine_free_all(ifds_engine *e);
/* Across devices: room in the log for `extra` more path edges (see state.c). */
weir_status weir_ifds_engine_reserve(ifds_engine *e, uint64_t extra, int *rehash);
/* Frees everything but the graph, the control block and the log. */
void weir_ifds_engine_release_derived(ifds_engine *e);
uint64_t weir_ifds_engine_state_bytes(const ifds_engine *e, const ifds_caps *caps);
/* Bytes of one entry of relation r (4 for the log and table of 32-bit keys). */
uint64_t weir_ifds_engine_entry_bytes(const ifds_engine *e, int relation);
weir_status weir_ifds_engine_allocate(ifds_engine *e, uint64_t bytes, const char *what,
                                      weir_buffer *out);

/* After each read-back of the control block: adds the reservations made
 * since the last one to e->reserves. */
void weir_ifds_engine_count_reserves(ifds_engine *e);

/* window.c: the window loop. */
weir_status weir_ifds_engine_run(ifds_engine *e, const weir_ifds_engine_options *options);
/* Workgroups of the next window's delta dispatches, from what the last one
 * (which began at these counts) found. */
void weir_ifds_engine_adapt_grid(ifds_engine *e, uint64_t edges_before,
                                 uint64_t iterations_before);
/* The next window's iterations after one of k that took `seconds`. */
uint64_t weir_ifds_engine_next_window(uint64_t k, uint64_t max_k, double seconds);

/* holds.c: the result from the logged path-edge keys. */
/* keys: 4 * e->key_words bytes each. */
weir_status weir_ifds_engine_holds(const ifds_engine *e, const void *keys, uint64_t count,
                                   weir_ifds_result *out);

#endif
