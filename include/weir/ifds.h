/* weir — IFDS problems, the reference solver and the resident engine.
 *
 * The text format is docs/ifds-format.md (the project's copy of
 * shared/spec/ifds-text-format.md). A loaded problem is compact and ready
 * for upload: every array is a flat uint32_t array (structure of arrays), so
 * the resident engine uploads them as they are in one weir_upload_many. */
#ifndef WEIR_IFDS_H
#define WEIR_IFDS_H

#include "weir/export.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "weir/residency.h"
#include "weir/weir.h"

#ifdef __cplusplus
extern "C" {
#endif

#define WEIR_IFDS_NONE UINT32_MAX

/* A distributive flow function, interned: identical functions are stored
 * once. f(d) = ({d} if identity and d not in kills) + {b : (d, b) in pairs}.
 * The implied pair 0 -> 0 is NOT stored; every solver applies it itself.
 * kills are sorted, unique, never 0; pairs are sorted by (from, to), unique. */
typedef struct weir_ifds_flows {
  uint32_t count;
  uint32_t *identity;     /* [count] 0 or 1 */
  uint32_t *kill_offset;  /* [count + 1] into kill_fact */
  uint32_t *kill_fact;    /* [kill_offset[count]] */
  uint32_t *pair_offset;  /* [count + 1] into pair_from / pair_to */
  uint32_t *pair_from;    /* [pair_offset[count]] */
  uint32_t *pair_to;
} weir_ifds_flows;

typedef struct weir_ifds_problem {
  uint32_t fact_count; /* F >= 1; fact 0 is the zero fact */
  uint32_t proc_count; /* P >= 1 */
  uint32_t node_count; /* N >= 2 */

  /* Procedures: nodes first..last inclusive; start = first, exit = last. */
  uint32_t *proc_first; /* [P] */
  uint32_t *proc_last;  /* [P] */
  uint32_t *proc_name_offset; /* [P + 1] into names (names are not NUL separated) */
  char *names;
  uint32_t *node_proc;  /* [N] owning procedure */

  /* Intraprocedural edges, CSR by source node; within a node sorted by target. */
  uint32_t *succ_offset; /* [N + 1] */
  uint32_t *succ_node;   /* [E] */
  uint32_t *succ_flow;   /* [E] flow index */

  /* Call sites, sorted by call node. */
  uint32_t call_count;
  uint32_t *call_node;     /* [C] */
  uint32_t *call_return;   /* [C] return site */
  uint32_t *call_flow;     /* [C] call-to-return flow */
  uint32_t *node_call;     /* [N] call index of a call node, else WEIR_IFDS_NONE */
  uint32_t *callee_offset; /* [C + 1] */
  uint32_t *callee_proc;   /* [K] sorted by proc within a call */
  uint32_t *callee_call_flow;   /* [K] CALLFLOW */
  uint32_t *callee_return_flow; /* [K] RETFLOW */

  /* Seeds (0, node, fact), sorted by (node, fact), duplicates removed. */
  uint32_t seed_count;
  uint32_t *seed_node;
  uint32_t *seed_fact;

  weir_ifds_flows flows;

  /* Where things came from, for messages. */
  char source_name[256];
  uint64_t source_bytes;

  /* WEIR_IFDS_WARN_* bits: things that loaded but deserve a word to the
   * user. The library prints nothing; a command prints
   * weir_ifds_warning_text(bit) for each bit (weir solve does, once). */
  uint32_t warnings;
} weir_ifds_problem;

/* The text had no `end` trailer: a file cut at a line boundary would look
 * the same (files written before the trailer existed have none). */
#define WEIR_IFDS_WARN_NO_END_LINE (1u << 0)
/* No seeds: every solver's result is empty. */
#define WEIR_IFDS_WARN_NO_SEEDS (1u << 1)
/* A sentence for one WEIR_IFDS_WARN_* bit ("" for an unknown bit). */
WEIR_API const char *weir_ifds_warning_text(uint32_t warning);

/* Loads and validates a problem file. On failure *out is NULL and the message
 * is "FILE:LINE:COL: error: WHAT (found X, expected Y). Fix: ..." with status
 * WEIR_ERR_PARSE (bad content) or WEIR_ERR_IO (unreadable file). A regular
 * file is memory-mapped; anything else (a pipe) is read in chunks. */
WEIR_API weir_status weir_ifds_load_file(const char *path, weir_ifds_problem **out);
/* The same from memory; `name` stands for the file name in messages. */
WEIR_API weir_status weir_ifds_load_memory(const char *name, const char *text, size_t length,
                                  weir_ifds_problem **out);

/* Options of a load; NULL or all zero is what the two calls above do. */
typedef struct weir_ifds_load_options {
  /* A text without the `end` trailer is an error (at the end of the file)
   * instead of a problem with WEIR_IFDS_WARN_NO_END_LINE. */
  int strict;
} weir_ifds_load_options;
WEIR_API weir_status weir_ifds_load_file_ex(const char *path,
                                            const weir_ifds_load_options *options,
                                            weir_ifds_problem **out);
WEIR_API weir_status weir_ifds_load_memory_ex(const char *name, const char *text, size_t length,
                                              const weir_ifds_load_options *options,
                                              weir_ifds_problem **out);
WEIR_API void weir_ifds_problem_free(weir_ifds_problem *problem);

/* ---- problems built in memory ----------------------------------------------
 *
 * A builder takes the elements of a problem one call at a time, in the order
 * of the text format: the counts (create), every procedure, then edges,
 * calls, callees and seeds in any order; flow functions are interned first
 * and referred to by index. It applies the loader's rules with the loader's
 * messages, naming the element instead of a line ("builder: edge 12 (from
 * node 7 to node 9): edge leaves its procedure (found ...). Fix: ...").
 * A rule that one element breaks is checked by its call, which refuses the
 * element and leaves the builder as it was (the caller may go on); the rest
 * (missing callees, duplicate edges and callees) by weir_ifds_builder_build.
 * After build, or after a failure that is not a refused element (out of
 * memory), the builder only accepts weir_ifds_builder_free. Elements are
 * numbered per kind from 0 in the order added (edge 12 is the 13th edge). */
typedef struct weir_ifds_builder weir_ifds_builder;

/* facts >= 1 (fact 0 is the zero fact), procs >= 1, nodes >= 2. The counts
 * are maxima: the tables they size grow as procedures arrive (doubling), and
 * the node tables take their full size only when the procedure ranges are
 * known to cover every node, so a builder created for 1 << 29 nodes costs
 * what its elements cost until then. */
WEIR_API weir_status weir_ifds_builder_create(uint32_t facts, uint32_t procs, uint32_t nodes,
                                              weir_ifds_builder **out);
/* Procedure `id` owns nodes first..last (start first, exit last); `name` is
 * one token (no spaces, control characters or '#'), unique. Every procedure
 * is declared before the first edge, call, callee or seed. */
WEIR_API weir_status weir_ifds_builder_proc(weir_ifds_builder *builder, uint32_t id,
                                            uint32_t first, uint32_t last, const char *name);
/* Interns f(d) = ({d} if identity and d not in kills) + {b : (d, b) in pairs}
 * and gives its index in *flow; the same function always gets the same index
 * (kills need `identity`; never kill 0; no pair A>0 with A != 0; the pair
 * 0>0 is implied). `pairs` holds pair_count (from, to) pairs, flattened:
 * {from0, to0, from1, to1, ...}. NULL arrays are fine with a count of 0. */
WEIR_API weir_status weir_ifds_builder_flow(weir_ifds_builder *builder, int identity,
                                            const uint32_t *kills, size_t kill_count,
                                            const uint32_t *pairs, size_t pair_count,
                                            uint32_t *flow);
/* An intraprocedural edge: FROM and TO in one procedure, at most once. */
WEIR_API weir_status weir_ifds_builder_edge(weir_ifds_builder *builder, uint32_t from,
                                            uint32_t to, uint32_t flow);
/* Node `site` calls; `ret` is its return site; `flow` the call-to-return
 * function. One per call node, which has no edges and at least one callee. */
WEIR_API weir_status weir_ifds_builder_call(weir_ifds_builder *builder, uint32_t site,
                                            uint32_t ret, uint32_t flow);
/* One possible callee `proc` of call node `site` (the call may come later). */
WEIR_API weir_status weir_ifds_builder_callee(weir_ifds_builder *builder, uint32_t site,
                                              uint32_t proc, uint32_t call_flow,
                                              uint32_t return_flow);
/* An initial path edge (0, node, fact); repeats are allowed. */
WEIR_API weir_status weir_ifds_builder_seed(weir_ifds_builder *builder, uint32_t node,
                                            uint32_t fact);
/* Checks what needs every element and assembles the problem: exactly what
 * loading the same elements from text gives (source_name "builder"). */
WEIR_API weir_status weir_ifds_builder_build(weir_ifds_builder *builder,
                                             weir_ifds_problem **out);
WEIR_API void weir_ifds_builder_free(weir_ifds_builder *builder);

/* Writes a problem in the text format (canonical order), ending with the
 * `end` trailer. */
WEIR_API weir_status weir_ifds_write_problem(const weir_ifds_problem *problem, FILE *out);

/* The result: every (node, fact) that holds, sorted by node then fact, and
 * the number of distinct path edges. */
typedef struct weir_ifds_result {
  uint64_t path_edges;
  uint64_t hold_count;
  uint32_t *hold_node;
  uint32_t *hold_fact;
} weir_ifds_result;

WEIR_API void weir_ifds_result_free(weir_ifds_result *result);
/* Writes the spec's result file; two correct solvers write identical bytes. */
WEIR_API weir_status weir_ifds_write_result(const weir_ifds_result *result, FILE *out);
WEIR_API weir_status weir_ifds_write_result_file(const weir_ifds_result *result, const char *path);

/* Figures a solver reports. Unused fields stay 0. struct_size: see
 * weir/weir.h ("Structs the caller allocates"); the solvers fill the bytes
 * that fit and leave struct_size as the caller set it. */
/* Members of a solve across devices with their own figures in the stats. */
#define WEIR_IFDS_MEMBER_STATS 64

typedef struct weir_ifds_stats {
  size_t struct_size; /* sizeof(weir_ifds_stats): WEIR_IFDS_STATS_INIT */
  uint64_t path_edges;
  uint64_t summary_edges; /* reference solver; the engine keeps none (see
                            engine/ifds/engine/README.md) and reports 0 */
  uint64_t end_summaries;
  uint64_t incoming;
  uint64_t iterations;
  uint64_t windows;
  uint64_t host_syncs;
  uint64_t bytes_uploaded;
  uint64_t bytes_downloaded;
  uint64_t peak_resident_bytes;
  uint64_t growths;
  double seconds_upload;
  double seconds_solve;
  double seconds_readback;
  /* Engine: the bytes each kind of device state held at the end (they only
   * grow, so also their largest): the supergraph, the path-edge log, the
   * path-edge table, and the contexts with their incoming and end-summary
   * lists. */
  uint64_t graph_bytes, log_bytes, table_bytes, list_bytes;
  /* Engine: entries per buffer when the relations were split into shards to
   * fit the backend's per-binding limit (0: one buffer each). */
  uint64_t shard_entries;
  /* Engine across devices (weir_ifds_solve_engine_multi / _group): the
   * devices (group members) that took part (0 or 1: one), the path-edge keys
   * and bytes that moved between them in the per-iteration exchanges (the
   * owner's copies of forwarded path edges, and exit edges sent to the
   * devices that own callers), the seconds spent exchanging, and the rounds
   * (one exchange each). path_edges counts each path edge once (at its
   * owner). */
  uint32_t devices;
  uint64_t exchanged_keys, exchanged_bytes, rounds;
  double seconds_exchange;
  /* Engine: atomic reservations of room on the device (path-edge log,
   * incoming and end-summary lists, outboxes), one per reserve however many
   * entries it takes; divided by path_edges: atomics per path edge. Appends
   * aggregated per group (a workgroup's batch on cpu, a subgroup on GPUs)
   * take fewer. Rolled-back iterations count again. */
  uint64_t reserve_atomics;
  /* Engine across devices: per member (its index in the group; the first
   * WEIR_IFDS_MEMBER_STATS), the path edges it owns (they add up to
   * path_edges) and the seconds its windows ran on its host thread (busy
   * time: the device computing, or the thread waiting for it). Max over mean
   * of the path edges is the imbalance of the ownership (docs/distributed.md,
   * "Partitioning"). Zero on one device. */
  uint64_t member_path_edges[WEIR_IFDS_MEMBER_STATS];
  double member_busy_seconds[WEIR_IFDS_MEMBER_STATS];
} weir_ifds_stats;

#define WEIR_IFDS_STATS_INIT {.struct_size = sizeof(weir_ifds_stats)}
#define WEIR_IFDS_STATS_SIZE_V1 (offsetof(weir_ifds_stats, seconds_exchange) + sizeof(double))

/* Progress callback for long solves (may be NULL): called now and then with
 * the iteration count and path edges so far. */
typedef void (*weir_ifds_progress_fn)(void *user, uint64_t iterations, uint64_t path_edges);

/* The classic serial worklist tabulation; the oracle for every other solver. */
WEIR_API weir_status weir_ifds_solve_reference(const weir_ifds_problem *problem, weir_ifds_result *out,
                                      weir_ifds_stats *stats);

/* The same with options: a progress callback, called about every 65536
 * worklist iterations (NULL options: none). */
typedef struct weir_ifds_reference_options {
  weir_ifds_progress_fn progress;
  void *progress_user;
} weir_ifds_reference_options;
WEIR_API weir_status weir_ifds_solve_reference_ex(const weir_ifds_problem *problem,
                                         const weir_ifds_reference_options *options,
                                         weir_ifds_result *out, weir_ifds_stats *stats);

/* Options of the resident fixed-point engine. Zero means "choose".
 * struct_size: see weir/weir.h ("Structs the caller allocates"). */
typedef struct weir_ifds_engine_options {
  size_t struct_size; /* sizeof(weir_ifds_engine_options): WEIR_IFDS_ENGINE_OPTIONS_INIT */
  uint64_t initial_table_capacity;    /* path-edge table slots */
  uint64_t initial_frontier_capacity; /* delta / candidate entries */
  uint32_t initial_window;            /* iterations per window */
  uint32_t max_window;
  weir_ifds_progress_fn progress; /* after every window (windows last at most ~2 s) */
  void *progress_user;
  /* Called (with progress_user) when the upload, the solve (the fixed point
   * on the device) and the read-back of the result are done, once each and in
   * that order, with the phase's name ("upload", "solve", "read-back") and
   * its seconds. May be NULL. */
  void (*phase)(void *user, const char *phase, double seconds);
  /* Nonzero: run the SPIR-V programs that reserve one atomic per appended
   * entry even where the device has subgroup ballots (the fallback for
   * devices without them; tests run both). The host and CUDA programs
   * aggregate per workgroup / warp always. Setting WEIR_IFDS_PER_ITEM_APPENDS
   * to anything but 0 in the environment does the same. */
  int32_t per_item_appends;
  /* Nonzero: 64-bit keys in the path-edge log and table even where 32 bits
   * hold every key (node bits + 2 fact bits <= 32: 4 bytes of log and 5.3 of
   * table per path edge instead of 8 and 10.7; every backend, on one
   * device). WEIR_IFDS_WIDE_KEYS set to anything but 0 does the same; tests
   * run both. */
  int32_t wide_keys;
  /* Across devices: how path edges are dealt to the members
   * (WEIR_IFDS_OWNERSHIP_*; 0 is WEIR_IFDS_OWNERSHIP_WORK). Every choice
   * gives the same result; they differ in balance and in what is exchanged
   * (docs/distributed.md, "Partitioning"). WEIR_IFDS_OWNERSHIP=work, nodes or
   * spread in the environment applies where this is 0. */
  int32_t ownership;
} weir_ifds_engine_options;

/* Ownership across devices (weir_ifds_engine_options.ownership). */
enum {
  /* Contiguous blocks of procedures of about equal estimated work (nodes
   * times the facts their flows and callers name), and the procedures
   * estimated to take more than a quarter of one member's share spread over
   * every member (each path edge by a hash of its context's entry fact). */
  WEIR_IFDS_OWNERSHIP_WORK = 0,
  /* Contiguous blocks of about equal node counts (the first partitioning). */
  WEIR_IFDS_OWNERSHIP_NODES = 1,
  /* Every procedure spread: the best balance of path edges, the most
   * exchanged (every exit edge goes to every member). */
  WEIR_IFDS_OWNERSHIP_SPREAD = 2
};

#define WEIR_IFDS_ENGINE_OPTIONS_INIT {.struct_size = sizeof(weir_ifds_engine_options)}
#define WEIR_IFDS_ENGINE_OPTIONS_SIZE_V1 \
  (offsetof(weir_ifds_engine_options, phase) + sizeof(void (*)(void *, const char *, double)))

/* Runs the tabulation as a data-parallel fixed point on resident buffers of
 * `backend`; the result is byte-identical to the reference solver's. */
WEIR_API weir_status weir_ifds_solve_engine(weir_backend *backend, const weir_ifds_problem *problem,
                                   const weir_ifds_engine_options *options,
                                   weir_ifds_result *out, weir_ifds_stats *stats);

/* The same fixed point across `count` devices of this process (1 to 64; any
 * mix of backends, e.g. cpu:0, cpu:1 and vulkan:0): the supergraph is
 * broadcast to every device with a replica set; each path edge is owned by
 * the device that owns its node's procedure (procedures are split into
 * contiguous blocks of about equal node counts); each device runs an
 * iteration on its own delta, puts the path edges other devices own into
 * per-destination outboxes on the device, and the outboxes move through the
 * stream transport (weir_alltoallv) once per iteration. The result is
 * byte-identical to the reference solver's for any device list and order.
 * See docs/distributed.md. count == 1 is an ordinary solve on that device
 * through the same exchange loop. */
WEIR_API weir_status weir_ifds_solve_engine_multi(weir_backend *const *backends, size_t count,
                                                  const weir_ifds_problem *problem,
                                                  const weir_ifds_engine_options *options,
                                                  weir_ifds_result *out, weir_ifds_stats *stats);

/* The same as this process's part of `group` (weir/residency.h): every
 * process of the group calls it with the same problem and its local members'
 * backends (weir_group_local_count entries, in rank order); an MPI group
 * (weir/mpi/transport.h) makes it a multi-rank solve. The result is complete
 * on the process that holds member 0; other processes get an empty result
 * (0 nodes). An error on any member ends the solve on every process with
 * that member's message (weir_group_agree). Stats are the group's totals on
 * every process. */
WEIR_API weir_status weir_ifds_solve_engine_group(weir_group *group,
                                                  weir_backend *const *local_backends,
                                                  const weir_ifds_problem *problem,
                                                  const weir_ifds_engine_options *options,
                                                  weir_ifds_result *out, weir_ifds_stats *stats);

/* Across devices: the largest member_path_edges over their mean (1.0 is a
 * perfect balance); 0 for a solve on one device, or stats whose struct_size
 * predates the per-member figures. */
WEIR_API double weir_ifds_stats_imbalance(const weir_ifds_stats *stats);

/* Writes the stats as one JSON object (for --stats FILE.json); across
 * devices with member_path_edges, member_busy_seconds and
 * path_edge_imbalance. */
WEIR_API weir_status weir_ifds_write_stats_json(const weir_ifds_stats *stats, const char *solver,
                                       const char *backend, double seconds_load, FILE *out);

#ifdef __cplusplus
}
#endif
#endif
