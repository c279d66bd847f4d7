/* The IFDS engine's device layout: the words of the graph header, the
 * control block and the push constants. Shared by the host driver
 * (engine/ifds/engine), the host kernels, the CUDA kernels (this header
 * compiles as CUDA) and mirrored by hand in programs/glsl/ifds_common.glsl,
 * which must agree word for word.
 *
 * Relations on the device (see engine/ifds/engine/README.md):
 *   plog  u64[plog_cap]   every path edge ever found, in discovery order; the
 *                         delta of an iteration is the slice [A, B) of it
 *   ptab  u64[ptab_size]   open-addressing set of path-edge keys (dedup)
 *   ctab  u64[ctab_size]   contexts (proc, entry fact) -> slot
 *   chead u32[2*slots]    per context: head of its incoming list, head of its
 *                         end-summary list
 *   inc   u64[inc_cap]    incoming: the caller's path edge ...
 *                         (plog, ptab, ctab and inc: u32 when key_words is 1)
 *   incm  u32[2*inc_cap]  ... its callee index k and the next entry
 *   es    u32[2*es_cap]   end summaries: exit fact d4 and the next entry
 *
 * Every relation but the graph and the control block is split into shards
 * (separate buffers, one binding each) so that no binding passes the
 * backend's per-binding limit: every entry is 8 bytes (one u64, or two u32),
 * shard s of a relation holds its entries [s << shift, (s + 1) << shift),
 * and the same shift (push constant shard_shift) holds for all relations.
 * A backend without a limit gets one shard per relation (shift 32). */
#ifndef WEIR_PROGRAMS_IFDS_LAYOUT_H
#define WEIR_PROGRAMS_IFDS_LAYOUT_H

#include <stdint.h>

#define WEIR_IFDS_EMPTY32 0xFFFFFFFFu
#define WEIR_IFDS_EMPTY64 0xFFFFFFFFFFFFFFFFull

/* Graph header: the first WEIR_IFDS_GRAPH_HEADER words of the graph buffer
 * hold counts and the word offsets of each array in that buffer.
 *
 * Nodes are renumbered on the device so that a node's kind is its number:
 * call c is node c, the exit of procedure q is node CALLS + q, and the other
 * nodes follow in their original order (the host maps results back). So
 * step 1 (relate) skips ordinary nodes without touching memory. Records keep
 * what one item reads in one cache line, built from the problem's arrays:
 *   node   {first successor}, one word per ordinary node and one more: the
 *          successors of ordinary node i are [node[i], node[i + 1]) (CSR
 *          in the device numbering; the two words share a cache line)
 *   succ   {target node, flow}                     (two words per edge)
 *   call   {return site, call-to-return flow, first callee, end of callees}
 *   callee {proc, call flow, return flow, the proc's start node}
 * Flows are the problem's arrays as they are; seeds are renumbered. */
enum {
  WEIR_IFDS_G_NODES = 0,
  WEIR_IFDS_G_PROCS,
  WEIR_IFDS_G_CALLS,
  WEIR_IFDS_G_CALLEES,
  WEIR_IFDS_G_FLOWS,
  WEIR_IFDS_G_SEEDS,
  WEIR_IFDS_G_NODE_REC,
  WEIR_IFDS_G_SUCC,
  WEIR_IFDS_G_CALL_REC,
  WEIR_IFDS_G_CALLEE_REC,
  WEIR_IFDS_G_IDENTITY,
  WEIR_IFDS_G_KILL_OFFSET,
  WEIR_IFDS_G_KILL_FACT,
  WEIR_IFDS_G_PAIR_OFFSET,
  WEIR_IFDS_G_PAIR_FROM,
  WEIR_IFDS_G_PAIR_TO,
  WEIR_IFDS_G_SEED_NODE,
  WEIR_IFDS_G_SEED_FACT,
  /* Across devices only (weir_ifds_solve_engine_group; 0 words otherwise):
   * the owning device of each device node, one byte per node, four per word
   * (little end first), and per procedure the 64-bit set (two words, low
   * first) of the devices that own a call site calling it. An owner byte
   * with WEIR_IFDS_SPREAD set marks a spread procedure: its path edges go
   * by a hash of their entry fact d1 (ifds_owner in ifds_kernels.h), the low six bits
   * name the device of d1 = 0. */
  WEIR_IFDS_G_OWNER,
  WEIR_IFDS_G_CALLERS,
  WEIR_IFDS_GRAPH_HEADER = 32
};

/* Control block words (u32). Written by the kernels, read back by the host
 * after each window (the first WEIR_IFDS_CTRL_READ words, one range). */
enum {
  WEIR_IFDS_C_A = 0,      /* delta begin in plog */
  WEIR_IFDS_C_B,          /* delta end in plog */
  WEIR_IFDS_C_PLOG,       /* plog entries reserved (may pass the capacity on overflow) */
  WEIR_IFDS_C_INC,        /* incoming entries reserved */
  WEIR_IFDS_C_ES,         /* end-summary entries reserved */
  WEIR_IFDS_C_CTAB,       /* contexts inserted */
  WEIR_IFDS_C_STATE,      /* WEIR_IFDS_S_* bits: when non-zero every kernel is a no-op */
  WEIR_IFDS_C_OVERFLOW,   /* WEIR_IFDS_O_* bits: which capacity ran out */
  WEIR_IFDS_C_ITER,       /* iterations with a non-empty delta */
  WEIR_IFDS_C_INC_MARK,   /* incoming entries when the current iteration began */
  WEIR_IFDS_C_ES_MARK,    /* end-summary entries when the current iteration began */
  WEIR_IFDS_C_MARKED,     /* 1: the marks describe the current iteration (rollback by unlink) */
  WEIR_IFDS_C_MERGED,     /* across devices: 1 once this round's inbox joined the delta */
  /* Atomic reservations of room (log, incoming, end summaries, outboxes):
   * one per reserve, however many entries it takes, so the host can report
   * atomics per path edge. Counts up modulo 2^32 and survives every restore
   * (the host sums the difference after each window). */
  WEIR_IFDS_C_RESERVES,
  /* Across devices: entries in the outbox for device j at word C_OUT + j
   * (zero when a round begins), and at word C_OUT_MARK + j their number
   * when the current iteration began (a rollback goes back to it). */
  WEIR_IFDS_C_OUT = 16,
  WEIR_IFDS_MAX_DEVICES = 64,
  WEIR_IFDS_C_OUT_MARK = WEIR_IFDS_C_OUT + WEIR_IFDS_MAX_DEVICES,
  WEIR_IFDS_CTRL_WORDS = WEIR_IFDS_C_OUT_MARK + WEIR_IFDS_MAX_DEVICES,
  WEIR_IFDS_CTRL_READ = WEIR_IFDS_CTRL_WORDS
};

/* Owner byte of a node of a spread procedure (see G_OWNER): this bit, and
 * its home device (that of entry fact 0) in the low six bits. */
enum { WEIR_IFDS_SPREAD = 0x80u, WEIR_IFDS_SPREAD_HOME = 0x3Fu };

enum { WEIR_IFDS_S_CONVERGED = 1u, WEIR_IFDS_S_OVERFLOW = 2u };
enum {
  WEIR_IFDS_O_PLOG = 1u,
  WEIR_IFDS_O_PTAB = 2u,
  WEIR_IFDS_O_CTAB = 4u,
  WEIR_IFDS_O_INC = 8u,
  WEIR_IFDS_O_ES = 16u,
  /* A kernel's loops were cut short by the driver (lavapipe/llvmpipe ends
   * every loop of a shader invocation once 65535 iterations have run, in
   * all its loops together, and says nothing): redo the iteration with the
   * long loops split over more passes (GLSL programs only). */
  WEIR_IFDS_O_LOOP = 32u,
  /* An outbox for another device ran out of room (across devices only). */
  WEIR_IFDS_O_OUT = 64u
};

/* Kernel modes: relate walks the live delta or a rebuild range; restore
 * resets everything (FULL), rolls back one iteration (PARTIAL: the log to
 * B, the lists to the marks) or only the lists (KEEP: log and table stay); advance
 * starts the next iteration or only records the marks (MARK). */
enum {
  WEIR_IFDS_MODE_DELTA = 0,
  WEIR_IFDS_MODE_RANGE = 1,
  WEIR_IFDS_MODE_FULL = 0,
  WEIR_IFDS_MODE_PARTIAL = 1,
  WEIR_IFDS_MODE_KEEP = 2,
  WEIR_IFDS_MODE_NEXT = 0,
  WEIR_IFDS_MODE_MARK = 1,
  /* advance across devices, first step of a round: clears the converged bit
   * (new path edges may have arrived) and the outbox counts (RESUME); after
   * the inbox was ingested, makes it part of the current delta (MERGE). */
  WEIR_IFDS_MODE_RESUME = 2,
  WEIR_IFDS_MODE_MERGE = 3
};

/* Push constants of every IFDS program (20 words). */
typedef struct weir_ifds_push {
  uint32_t fact_bits;  /* key = d1 << (node_bits + fact_bits) | node << fact_bits | d2 */
  uint32_t node_bits;
  uint32_t mode;       /* WEIR_IFDS_MODE_* (relate), unused elsewhere */
  uint32_t ptab_size;  /* path-edge table slots (any size: fastrange slotting) */
  uint32_t plog_cap;
  uint32_t ctab_size;  /* context table slots */
  uint32_t inc_cap;
  uint32_t es_cap;
  uint32_t begin;      /* range (MODE_RANGE, rehash); restore: A */
  uint32_t end;        /* range end; restore: B; clear: word count */
  uint32_t value;      /* clear: fill value; restore: iterations */
  uint32_t probe_limit;
  uint32_t part;       /* relate, expand (GLSL): which pass of `parts` this dispatch is */
  uint32_t parts;      /* passes the long loops are split over (0 or 1: one) */
  uint32_t shard_shift; /* entry i of a relation is entry i & (2^shift - 1) of shard i >> shift
                           (32: one shard, no limit) */
  uint32_t key_words;  /* 1: the path-edge log and table, the contexts and the incoming
                          entries hold 32-bit keys (the key fits);
                          else 64-bit. Every program format (SPIR-V: aliased u32 views) */
  /* Across devices (weir_ifds_solve_engine_group): this device's index and
   * the device count (0 or 1: one device, no owner checks), the entries of
   * each per-destination outbox, and the entries of the inbox (ingest). */
  uint32_t device;
  uint32_t devices;
  uint32_t out_cap;
  uint32_t in_count;
} weir_ifds_push;

/* Shards (bindings) per relation. The context heads follow the context
 * table (one entry per slot) and the incoming links the incoming entries.
 * 2 + 6 + 6 + 2 + 2 + 4 + 4 + 4 = 30 bindings, and the outbox and inbox of a
 * solve across devices: 32, what Vulkan's push descriptors allow on the
 * common drivers. */
enum {
  WEIR_IFDS_SHARDS_PTAB = 6,
  WEIR_IFDS_SHARDS_PLOG = 6,
  WEIR_IFDS_SHARDS_CTAB = 2,
  WEIR_IFDS_SHARDS_INC = 4,
  WEIR_IFDS_SHARDS_ES = 4
};

/* Host and device kernels run workgroups of this many invocations. */
#define WEIR_IFDS_WORKGROUP 64u

#endif
