/* weir — IDE problems (Sagiv, Reps and Horwitz 1996): an IFDS problem whose
 * flow pairs (d1 -> d2) carry an edge function from a closed family of
 * constant size, and the serial reference solver for them.
 *
 * The text format is docs/ide-format.md: an IFDS file (docs/ifds-format.md)
 * with the magic `weir-ide 1`, a `family` line, and edge functions on its
 * flow lines and values on its seeds. Plain IFDS files and weir/ifds.h are
 * unchanged by it.
 *
 * Version: the functions here appeared in weir 0.x with issue 24; the
 * structs below are part of that first version (WEIR_IDE_API_VERSION 1). */
#ifndef WEIR_IDE_H
#define WEIR_IDE_H

#include "weir/export.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "weir/ifds.h"
#include "weir/ifds_gen.h"
#include "weir/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define WEIR_IDE_API_VERSION 1

/* The families of edge functions. One per problem. */
typedef enum weir_ide_family {
  /* Linear constant propagation over int64_t: values are ⊤ (no
   * information), a constant, or ⊥ (not constant); functions are
   * λx.⊤, λx.⊥, λx.c and the strict λx.a·x+b (⊤ ↦ ⊤, ⊥ ↦ ⊥). Arithmetic
   * wraps modulo 2^64 (two's complement), as C's unsigned arithmetic does. */
  WEIR_IDE_LINEAR = 1,
  /* Finite-state typestate: values are sets of states (a bitset over at
   * most 32 states; the empty set is ⊤, no information); a function maps
   * each state to a set of states and may add states of its own. Merging is
   * set union. */
  WEIR_IDE_TYPESTATE = 2
} weir_ide_family;

#define WEIR_IDE_MAX_STATES 32

/* Kinds of a linear edge function. */
enum {
  WEIR_IDE_LIN_TOP = 0,   /* λx.⊤: no path (the neutral element of merging) */
  WEIR_IDE_LIN_BOT = 1,   /* λx.⊥ */
  WEIR_IDE_LIN_CONST = 2, /* λx.b, whatever x is (⊤ and ⊥ too) */
  WEIR_IDE_LIN_AFFINE = 3 /* λx.a·x+b for a constant x; ⊤ ↦ ⊤, ⊥ ↦ ⊥ (a = 1, b = 0: identity) */
};

typedef struct weir_ide_linear_fn {
  uint32_t kind;     /* WEIR_IDE_LIN_* */
  uint32_t reserved; /* 0 */
  int64_t a, b;      /* AFFINE: a and b; CONST: b (a = 0); else both 0 */
} weir_ide_linear_fn;

/* f(S) = gen ∪ ⋃_{s ∈ S} to[s]. Canonical form: to[s] has no bit of gen,
 * and to[s] = 0 for s at or past the problem's state count. gen only comes
 * from a seed (a constant) and from compositions with it; the identity is
 * to[s] = {s}, ⊤ is all zero. */
typedef struct weir_ide_typestate_fn {
  uint32_t gen;
  uint32_t to[WEIR_IDE_MAX_STATES];
} weir_ide_typestate_fn;

/* An edge function: family is a weir_ide_family and says which member is
 * meant. Fixed size, no pointers: the solvers copy them freely. */
typedef struct weir_ide_fn {
  uint32_t family;
  uint32_t reserved; /* 0 */
  union {
    weir_ide_linear_fn linear;
    weir_ide_typestate_fn typestate;
  } u;
} weir_ide_fn;

/* Kinds of a value. */
enum {
  WEIR_IDE_VALUE_TOP = 0,   /* linear: ⊤ (no information) */
  WEIR_IDE_VALUE_CONST = 1, /* linear: `constant` */
  WEIR_IDE_VALUE_BOT = 2,   /* linear: ⊥ (not a constant) */
  WEIR_IDE_VALUE_STATES = 3 /* typestate: the set `states` (bit s: state s) */
};

typedef struct weir_ide_value {
  uint32_t kind;   /* WEIR_IDE_VALUE_* */
  uint32_t states; /* typestate only */
  int64_t constant; /* linear CONST only */
} weir_ide_value;

/* A loaded or built IDE problem: the IFDS problem of its exploded
 * supergraph, and the edge functions on its pairs. */
typedef struct weir_ide_problem {
  weir_ifds_problem *ifds;
  uint32_t family;      /* weir_ide_family */
  uint32_t state_count; /* typestate: 1..32; linear: 0 */
  uint32_t *state_name_offset; /* [state_count + 1] into state_names (typestate) */
  char *state_names;

  /* Interned edge functions; function 0 is always the identity. */
  uint32_t fn_count;
  weir_ide_fn *fns;

  /* The pairs that carry a function other than the identity, sorted by
   * (d1, d2) within each element. Element e's pairs are
   * ann_*[X_offset[e] .. X_offset[e + 1]), where X is the element's kind:
   * edge_ann_offset[E + 1] over the intraprocedural edges in the order of
   * ifds->succ_node; call_ann_offset[C + 1] over the call-to-return
   * functions; callee_call_ann_offset and callee_return_ann_offset [K + 1]
   * over the callees (ifds->callee_proc). A pair not listed carries the
   * identity (and a pair given the identity is not listed). */
  uint32_t *edge_ann_offset, *call_ann_offset;
  uint32_t *callee_call_ann_offset, *callee_return_ann_offset;
  uint32_t ann_count;
  uint32_t *ann_from, *ann_to, *ann_fn;

  /* The value of each seed, parallel to ifds->seed_node / seed_fact
   * (repeated seeds: their values merged). */
  weir_ide_value *seed_value;
} weir_ide_problem;

/* Frees a problem from a load, weir_ide_builder_build or
 * weir_ide_generate_problem, with its IFDS problem (problem->ifds) and every
 * array. NULL is accepted and does nothing. */
WEIR_API void weir_ide_problem_free(weir_ide_problem *problem);

/* Loads a `weir-ide 1` file. Errors as the IFDS loader's:
 * "FILE:LINE:COL: error: WHAT (found X, expected Y). Fix: ...".
 * Returns WEIR_OK and *out (free it with weir_ide_problem_free);
 * WEIR_ERR_PARSE for a text that breaks a rule (docs/ide-format.md,
 * "Errors"); WEIR_ERR_IO when the file cannot be opened or read;
 * WEIR_ERR_OUT_OF_MEMORY; WEIR_ERR_INVALID_ARGUMENT for a NULL path or out.
 * On every failure *out is NULL (when out is not). */
WEIR_API weir_status weir_ide_load_file(const char *path, weir_ide_problem **out);
/* The same from `length` bytes at `text` (need not end with a zero byte).
 * `name` is only what messages call the text ("NAME:LINE:COL: error: ...");
 * NULL reads "<memory>". Nothing is opened or read by that name. */
WEIR_API weir_status weir_ide_load_memory(const char *name, const char *text, size_t length,
                                          weir_ide_problem **out);
/* The same with the IFDS loader's options (NULL: none; .strict refuses a
 * text without its `end` line). */
WEIR_API weir_status weir_ide_load_file_ex(const char *path, const weir_ifds_load_options *options,
                                           weir_ide_problem **out);
WEIR_API weir_status weir_ide_load_memory_ex(const char *name, const char *text, size_t length,
                                             const weir_ifds_load_options *options,
                                             weir_ide_problem **out);

/* Writes the problem in the text format (the IFDS writer's canonical order,
 * the functions of each element's pairs after its flow, `end` last):
 * loading it gives the same problem. WEIR_OK; WEIR_ERR_INVALID_ARGUMENT
 * (NULL); WEIR_ERR_UNSUPPORTED for a typestate function with `gen` set
 * (only the builder makes those), checked before anything is written, so
 * that nothing is; WEIR_ERR_OUT_OF_MEMORY; WEIR_ERR_IO when a write fails. */
WEIR_API weir_status weir_ide_write_problem(const weir_ide_problem *problem, FILE *out);

/* A generated IDE problem: the IFDS problem of weir_ifds_generate_problem
 * for `options` (any preset), with edge functions drawn for some of its pairs
 * and values for its seeds, from options->seed. states: typestate 1..32
 * (named s0...), ignored for linear. The same options give the same
 * problem; weir_ide_generate writes it (a comment line with the options,
 * then weir_ide_write_problem's text). */
WEIR_API weir_status weir_ide_generate_problem(const weir_ifds_gen_options *options,
                                               weir_ide_family family, uint32_t states,
                                               weir_ide_problem **out);
WEIR_API weir_status weir_ide_generate(const weir_ifds_gen_options *options,
                                       weir_ide_family family, uint32_t states, FILE *out);

/* ---- problems built in memory ---------------------------------------------
 *
 * An IDE builder owns an IFDS builder (weir_ide_builder_ifds) that takes the
 * graph as weir_ifds_builder_* calls do; the IDE calls add what IFDS lacks:
 * state names, edge functions on pairs and seeds with values. A pair's
 * function is checked when the problem is built (the element and its pair
 * must exist then); a function itself when it is given. Messages are
 * "builder: WHAT (found X, expected Y). Fix: ..." like the IFDS builder's. */
typedef struct weir_ide_builder weir_ide_builder;

/* states: typestate 1..32; linear 0. facts, procs and nodes as for
 * weir_ifds_builder_create. WEIR_OK and *out (free it with
 * weir_ide_builder_free); WEIR_ERR_INVALID_ARGUMENT for an unknown family, a
 * state count out of range, bad counts or a NULL out (*out is then NULL);
 * WEIR_ERR_OUT_OF_MEMORY. */
WEIR_API weir_status weir_ide_builder_create(weir_ide_family family, uint32_t states,
                                             uint32_t facts, uint32_t procs, uint32_t nodes,
                                             weir_ide_builder **out);
/* The graph: procedures, flows, edges, calls, callees (not seeds: use
 * weir_ide_builder_seed; a seed given here directly starts at ⊤). Owned by
 * the IDE builder. */
WEIR_API weir_ifds_builder *weir_ide_builder_ifds(weir_ide_builder *builder);
/* Typestate: the name of state `id` (1..64 letters, digits and '_', not
 * starting with a digit, not id, top or bot, unique). Unnamed states are
 * named sID. */
WEIR_API weir_status weir_ide_builder_state(weir_ide_builder *builder, uint32_t id,
                                            const char *name);
/* Which function of an element a pair's edge function belongs to. */
typedef enum weir_ide_site {
  WEIR_IDE_SITE_EDGE = 0,       /* edge a -> b */
  WEIR_IDE_SITE_CALL = 1,       /* call-to-return flow of call site a (b unused) */
  WEIR_IDE_SITE_CALLEE_CALL = 2,  /* call flow of callee b of site a */
  WEIR_IDE_SITE_CALLEE_RETURN = 3 /* return flow of callee b of site a */
} weir_ide_site;
/* Pair d1 -> d2 of that element's flow function carries `fn` (the default
 * is the identity). At most once per pair. */
WEIR_API weir_status weir_ide_builder_pair_fn(weir_ide_builder *builder, weir_ide_site site,
                                              uint32_t a, uint32_t b, uint32_t d1, uint32_t d2,
                                              const weir_ide_fn *fn);
/* A seed: path edge (0, node, fact) whose value is `value`.
 * The calls that add (state, pair_fn, seed) return WEIR_OK;
 * WEIR_ERR_INVALID_ARGUMENT for a NULL builder, one already built (or whose
 * build failed), an index out of range, or a function or value not of the
 * builder's family (or not canonical), which leave the builder as it was;
 * WEIR_ERR_OUT_OF_MEMORY. */
WEIR_API weir_status weir_ide_builder_seed(weir_ide_builder *builder, uint32_t node,
                                           uint32_t fact, const weir_ide_value *value);
/* Checks every pair's element and pair against the graph and makes the
 * problem: WEIR_OK and *out (free it with weir_ide_problem_free);
 * WEIR_ERR_INVALID_ARGUMENT for a rule broken (the IFDS builder's, or a
 * function on an element or pair the problem does not have: "builder: edge
 * function I (...)"), a NULL builder or out; WEIR_ERR_OUT_OF_MEMORY. On
 * failure *out is NULL. Either way the builder is done: later calls on it
 * are refused, and it still has to be freed. */
WEIR_API weir_status weir_ide_builder_build(weir_ide_builder *builder, weir_ide_problem **out);
/* Frees the builder and its IFDS builder (whatever weir_ide_builder_ifds
 * returned is gone too), built or not. A problem it built stays valid. NULL
 * is accepted. */
WEIR_API void weir_ide_builder_free(weir_ide_builder *builder);

/* ---- the algebra, for callers that build functions ------------------------
 *
 * Precondition of every call that takes two functions, or a function and a
 * value: both of one family (and, for typestate, of one problem's state
 * count, in canonical form: what these calls and the loader give). Otherwise
 * (families differ, a family that is none, a NULL pointer) the call does not
 * read through the wrong member of the union: functions come back all zero
 * (family 0, which is no family: the builder refuses it and
 * weir_ide_fn_equal calls it equal to nothing) and values all zero (kind
 * WEIR_IDE_VALUE_TOP, constant 0). */

/* The identity: linear λx.x; typestate every state s to {s}, s < states
 * (states 1..32; past 32, or a family that is none: the all-zero function). */
WEIR_API weir_ide_fn weir_ide_fn_identity(weir_ide_family family, uint32_t states);
/* λx.⊤ (the neutral element of merging). */
WEIR_API weir_ide_fn weir_ide_fn_top(weir_ide_family family);
WEIR_API weir_ide_fn weir_ide_fn_linear(int64_t a, int64_t b); /* strict λx.a·x+b */
WEIR_API weir_ide_fn weir_ide_fn_const(int64_t c);             /* λx.c */
/* g ∘ f (f first), exact. Same family only (above). */
WEIR_API weir_ide_fn weir_ide_fn_compose(const weir_ide_fn *g, const weir_ide_fn *f);
/* The merge f ⊔ g (pointwise: linear meets toward ⊥, typestate unions);
 * exact for typestate, sound for linear. Same family only (above). */
WEIR_API weir_ide_fn weir_ide_fn_join(const weir_ide_fn *f, const weir_ide_fn *g);
/* f(x). x must be a value of f's family (WEIR_IDE_VALUE_STATES for
 * typestate, TOP/CONST/BOT for linear); otherwise the all-zero value. */
WEIR_API weir_ide_value weir_ide_fn_apply(const weir_ide_fn *f, const weir_ide_value *x);
/* 1 when f and g are the same function (both canonical, one family), else
 * 0; 0 too when either family is none. */
WEIR_API int weir_ide_fn_equal(const weir_ide_fn *f, const weir_ide_fn *g);

/* ---- solving ------------------------------------------------------------- */

/* Every (node, fact) that holds, sorted by node then fact, and its value:
 * the same (node, fact) pairs as the IFDS reference gives problem->ifds. */
typedef struct weir_ide_result {
  uint64_t path_edges;
  uint64_t hold_count;
  uint32_t *hold_node;
  uint32_t *hold_fact;
  weir_ide_value *value;
} weir_ide_result;

/* Figures of a solve. struct_size: see weir/weir.h ("Structs the caller
 * allocates"): set it with WEIR_IDE_STATS_INIT; the solver fills the bytes
 * both sides know. */
typedef struct weir_ide_stats {
  size_t struct_size; /* sizeof(weir_ide_stats) */
  uint64_t path_edges;
  uint64_t jump_updates; /* times a jump function was lowered (phase 1) */
  uint64_t iterations;   /* worklist steps of phase 1 */
  uint64_t value_iterations; /* worklist steps of phase 2 */
  /* Version 2: the resident engine (weir_ide_solve_engine) fills these; the
   * reference leaves them 0. There, `iterations` counts phase 1's device
   * rounds and `jump_updates` the jump functions changed over them. */
  uint64_t rules;           /* rule instances phase 1 iterates (16 bytes each on the device) */
  uint64_t windows;         /* phase-1 windows: one control-block read (64 bytes) each */
  uint64_t ifds_iterations; /* phase 0: the IFDS engine's iterations */
  uint64_t ifds_windows;    /* phase 0: its windows */
  uint64_t host_syncs;      /* waits for the device, both phases */
  uint64_t peak_resident_bytes; /* the larger of phase 0's and phase 1's device buffers */
  double seconds_phase0;    /* IFDS engine: upload, fixed point, log read-back */
  double seconds_rules;     /* host: the log indexed, rules joined and grouped */
  double seconds_phase1;    /* device: upload, rounds, jump functions read back */
  double seconds_values;    /* host: phase 2 (values.c) and the result */
  /* Version 3 (the engine): targets phase 1 recomputed over all its rounds
   * (every path edge in round 0, then the worklists): the device's work. */
  uint64_t target_visits;
} weir_ide_stats;

#define WEIR_IDE_STATS_INIT {.struct_size = sizeof(weir_ide_stats)}
#define WEIR_IDE_STATS_SIZE_V1 (offsetof(weir_ide_stats, value_iterations) + sizeof(uint64_t))

/* The serial reference: phase 1 computes a jump function per path edge,
 * phase 2 the values (docs/ide-format.md, "What a solver computes").
 * stats may be NULL (else its struct_size is set, WEIR_IDE_STATS_INIT).
 * WEIR_OK and *out filled (free it with weir_ide_result_free);
 * WEIR_ERR_INVALID_ARGUMENT for a NULL problem or out, or a stats
 * struct_size below the first version's (stats then untouched);
 * WEIR_ERR_OUT_OF_MEMORY. On every failure *out (when out is not NULL) is
 * all zero, with nothing allocated, so weir_ide_result_free(out) is always
 * safe, after a failure as after a success. */
WEIR_API weir_status weir_ide_solve_reference(const weir_ide_problem *problem,
                                              weir_ide_result *out, weir_ide_stats *stats);
/* The resident engine (engine/ide/README.md): phase 0 is the IFDS engine
 * (weir_ifds_solve_engine's fixed point, `options` as there; NULL: the
 * defaults), phase 1 the jump functions as a fixed point ON the device
 * through the dispatch interface (rounds over a rule relation joined once
 * from phase 0's path edges; one 64-byte control read per window), phase 2
 * the values on the host from the downloaded jump functions. The result is
 * byte for byte the reference's (path_edges, rows, values).
 * WEIR_OK and *out (free it with weir_ide_result_free; zeroed on failure);
 * WEIR_ERR_INVALID_ARGUMENT (NULL backend, problem or out; a bad struct_size);
 * WEIR_ERR_UNSUPPORTED for a backend without the programs, a relation past
 * the backend's per-binding limit (the IDE engine does not shard), or a
 * lavapipe loop budget spent (each message ends in a Fix); the IFDS
 * engine's errors; WEIR_ERR_OUT_OF_MEMORY. One device only. */
WEIR_API weir_status weir_ide_solve_engine(weir_backend *backend, const weir_ide_problem *problem,
                                           const weir_ifds_engine_options *options,
                                           weir_ide_result *out, weir_ide_stats *stats);
/* Frees the result's arrays and zeroes it (a zeroed result, or NULL, is
 * fine: nothing happens). */
WEIR_API void weir_ide_result_free(weir_ide_result *result);

/* Writes a value as the format spells it: `top`, `bot`, `-17` (linear);
 * `{opened|closed}` or `{}` (typestate, by state name). A buffer of
 * WEIR_IDE_VALUE_TEXT_MAX bytes always holds it (32 names of at most 64
 * bytes); a shorter one gets it cut. */
#define WEIR_IDE_VALUE_TEXT_MAX (32 * 65 + 3)
WEIR_API void weir_ide_format_value(const weir_ide_problem *problem, const weir_ide_value *value,
                                    char *out, size_t cap);
/* The result file: "weir-ide-result 1", "path-edges E", "holds H", then
 * "n d VALUE" per line. WEIR_OK; WEIR_ERR_INVALID_ARGUMENT (NULL);
 * WEIR_ERR_IO when a write fails (what was written may be partial: write
 * to a temporary file and rename it, as weir ide -o does). */
WEIR_API weir_status weir_ide_write_result(const weir_ide_problem *problem,
                                           const weir_ide_result *result, FILE *out);

#ifdef __cplusplus
}
#endif
#endif
