/* Internals of the LLVM frontend shared by its files: the build context
 * (module, value and node numbering, call resolution), flow builders and the
 * hooks each analysis implements. */
#ifndef WEIR_FRONTENDS_LLVM_INTERNAL_H
#define WEIR_FRONTENDS_LLVM_INTERNAL_H

#include <llvm-c/Core.h>

#include "frontends/llvm/frontend.h"
#include "frontends/llvm/memory/memory.h"
#include "frontends/llvm/util.h"

#define WEIR_LLVM_NONE UINT32_MAX

/* ---- what the built problem keeps (no LLVM objects: the module is gone) -- */
typedef struct weir_llvm_loc {
  char *file;
  uint32_t line, column;
  char *function;
  uint32_t instruction;
  char *text;
} weir_llvm_loc;

/* The rules findings belong to (report/rules.c has their texts, CWE tags
 * and severities). */
typedef enum weir_llvm_finding_rule {
  WEIR_LLVM_RULE_COMMAND_INJECTION = 0, /* weir-taint-command-injection, CWE-78 */
  WEIR_LLVM_RULE_FORMAT_STRING = 1,     /* weir-taint-format-string, CWE-134 */
  WEIR_LLVM_RULE_TAINT = 2,             /* weir-taint (a configured sink without category), CWE-20 */
  WEIR_LLVM_RULE_UNINIT = 3,            /* weir-uninit, CWE-457 */
  WEIR_LLVM_RULE_USE_AFTER_FREE = 4,    /* weir-use-after-free, CWE-416 */
  WEIR_LLVM_RULE_DOUBLE_FREE = 5,       /* weir-double-free, CWE-415 */
  WEIR_LLVM_RULE_COUNT = 6
} weir_llvm_finding_rule;

/* A place where a finding may be: it is one if any of its facts holds at
 * node. Fact 0 (zero) means "whenever the node is reachable". */
typedef struct weir_llvm_check {
  weir_llvm_finding_rule rule;
  uint32_t node;
  uint32_t fact_first, fact_count; /* into check_facts */
  uint32_t loc;
  char *message;
  /* For the confidence rank (report/location.c, from the memory model at
   * the check's instruction): objects the pointer read or written may
   * point to (1: must-alias; 0: a value use), and whether that memory is a
   * summary (array, heap or collapsed object) that no store overwrites. */
  uint32_t targets;
  uint8_t weak;
  /* typestate: the states (bits) in which the call is the error; a fact
   * counts only when its IDE value has one of them (0: IFDS, any fact). */
  uint32_t states;
  /* One finding per (rule, source) instead of per location: a use of an
   * undefined value, whose every use downstream is the same bug. */
  uint8_t per_source;
  uint32_t what; /* with per_source: what is read (an analysis' key; findings merge only when equal) */
  /* const (analyses/const): what the use is (WEIR_LLVM_CONST_USE_*), the
   * integer's width, and, while the module lives (pruning runs before it
   * is disposed), the instruction that uses it and the operand. */
  uint8_t const_use;
  uint8_t bits;
  LLVMValueRef user;
  uint32_t operand;
} weir_llvm_check;

enum { WEIR_LLVM_CONST_USE_NONE = 0, WEIR_LLVM_CONST_USE_COMPARE = 1, WEIR_LLVM_CONST_USE_SWITCH = 2,
       WEIR_LLVM_CONST_USE_BRANCH = 3, WEIR_LLVM_CONST_USE_ARGUMENT = 4 };

/* Where facts are generated, for the related location and the code flow:
 * a taint source call, the allocation of uninitialized memory, a free. */
typedef struct weir_llvm_source {
  uint32_t node;
  uint32_t loc;
  char *name;
  uint8_t per_source; /* what it reaches is one finding (weir_llvm_check.per_source) */
} weir_llvm_source;

struct weir_llvm_problem {
  weir_llvm_analysis analysis;
  char name[512];
  weir_ifds_problem *ifds;     /* built by module/emit.c; NULL until then */
  weir_llvm_text legend;       /* what each fact stands for, back to back (no separators) */
  weir_llvm_vec legend_offset; /* [facts + 1] fact f is legend[offset[f], offset[f + 1]) */
  weir_llvm_loc *locs;
  size_t loc_count, loc_cap;
  weir_llvm_check *checks;
  size_t check_count, check_cap;
  weir_llvm_vec check_facts;
  weir_llvm_source *sources;
  size_t source_count, source_cap;
  weir_llvm_build_stats stats;
  struct weir_llvm_positions *positions; /* per-node source positions (report/location.c) */
  /* A plugin analysis (api/): its id, its rules (owned copies; a check's
   * rule indexes them) and the words of a code flow's first step. */
  char plugin_id[64];
  char plugin_version[64];      /* SARIF tool.extensions (report/sarif.c); "" when not declared */
  char plugin_description[256];
  struct weir_llvm_rule_info *plugin_rules;
  size_t plugin_rule_count;
  char source_label[48];
  int failed; /* an allocation failed while recording */
  /* typestate (analyses/typestate): the IDE problem (its ifds is `ifds`
   * above, owned by it) and the edge functions flows name by index. */
  struct weir_ide_problem *ide;
  struct weir_ide_fn *ts_fns;
  uint32_t ts_fn_count, ts_states;
  uint8_t const_local_memory; /* const: locations kept within functions (analyses/const/const.c) */
};

/* ---- the library table (analyses/config.c): the --config format ----------- */
typedef enum weir_llvm_rule_kind {
  WEIR_LLVM_SOURCE = 0,   /* taints its result and/or pointed-to buffers */
  WEIR_LLVM_SINK = 1,     /* tainted argument = finding (category in to_arg: weir_llvm_rule_id) */
  WEIR_LLVM_SANITIZER = 2,/* result clean, pointed-to buffers cleaned */
  WEIR_LLVM_TRANSFER = 3, /* taint of argument FROM flows into buffer TO */
  WEIR_LLVM_ALLOC = 4,    /* returns a new heap block (to_arg: WEIR_LLVM_ALLOC_*; arg: copied block) */
  WEIR_LLVM_FREE = 5,     /* releases the block behind argument arg */
  WEIR_LLVM_RETURNS = 6,  /* returns (a pointer into) argument arg */
  WEIR_LLVM_COPY = 7,     /* copies the memory behind FROM into the memory behind TO */
  WEIR_LLVM_WRITES = 8,   /* writes (initialises) the memory behind the selected arguments */
  WEIR_LLVM_READS = 9,    /* reads the memory behind the selected arguments */
  WEIR_LLVM_VALUE = 10    /* the result is computed from the memory behind the selected arguments */
} weir_llvm_rule_kind;

enum {
  WEIR_LLVM_ALLOC_NONE = 0,
  WEIR_LLVM_ALLOC_UNINIT = 1,  /* malloc: the block is uninitialised */
  WEIR_LLVM_ALLOC_ZERO = 2,    /* calloc: zeroed */
  WEIR_LLVM_ALLOC_REALLOC = 3, /* realloc: a copy of the block behind `arg` (and more) */
  WEIR_LLVM_ALLOC_COPY = 4     /* strdup: an initialised copy of the memory behind `arg` */
};

/* What a call of a library function does to memory, gathered from every
 * rule that names it. Argument masks: bit k for argument k (k < 63); bit 63
 * stands for "and every argument from 63 on". */
typedef struct weir_llvm_libcall {
  int known;             /* some rule names the function */
  uint8_t alloc;         /* WEIR_LLVM_ALLOC_* */
  uint32_t alloc_from;   /* realloc/strdup: the argument whose block is copied, else UINT32_MAX */
  uint32_t frees;        /* the argument whose block is released, else UINT32_MAX */
  uint32_t returns_arg;  /* the result points into this argument's block, else UINT32_MAX */
  uint32_t copy_from, copy_to; /* memory copy (memcpy, strcpy), else UINT32_MAX */
  uint64_t writes;       /* arguments whose memory the call writes */
  uint64_t reads;        /* arguments whose memory the call reads */
} weir_llvm_libcall;

/* The library model of the callee `name` (every field empty when unknown). */
void weir_llvm_library_lookup(const struct weir_llvm_config *config, const char *name, size_t length,
                              weir_llvm_libcall *out);
/* Whether bit `arg` of a mask is set (arguments >= 63 read bit 63). */
int weir_llvm_mask_has(uint64_t mask, uint32_t arg);

/* Argument selector: RET, one argument, or every argument from `index` on. */
#define WEIR_LLVM_ARG_RET UINT32_MAX
typedef struct weir_llvm_rule {
  weir_llvm_rule_kind kind;
  char name[96];
  uint32_t arg;      /* argument index or WEIR_LLVM_ARG_RET (none for sanitizer) */
  int from_on;       /* 1: every argument >= arg */
  uint32_t to_arg;   /* transfer/copy: destination argument; + 256 means "and every later one";
                      * sink: the weir_llvm_finding_rule of its findings; alloc: WEIR_LLVM_ALLOC_* */
  int deep;          /* source/sink: also the memory reached through pointers stored there
                      * (getline's char **, execv's argument array) */
} weir_llvm_rule;

struct weir_llvm_config {
  const struct weir_ts_spec *typestate; /* weir_llvm_config_typestate_spec (borrowed) */
  struct weir_ts_spec *owned_spec;      /* weir_llvm_config_typestate_spec_file (freed with the config) */
  weir_llvm_rule *rules;
  size_t count, cap;
  uint32_t *sorted;      /* rule indices: exact names in name order, then the patterns */
  size_t sorted_count, pattern_count;
  int keep_all_facts;    /* weir_llvm_config_keep_all_facts: no demand pruning (module/emit.c) */
  int prune_with_const;  /* weir_llvm_config_prune_with_const (analyses/const/prune.c) */
  int const_branches_only; /* const records only the uses a branch decides on (pruning's demand) */
};

/* Rules of `kind` for callee `name` (length `length`), up to `capacity`. */
size_t weir_llvm_config_find(const weir_llvm_config *config, weir_llvm_rule_kind kind,
                             const char *name, size_t length, const weir_llvm_rule **found,
                             size_t capacity);
int weir_llvm_config_names(const weir_llvm_config *config, const char *name, size_t length);

/* ---- flow functions --------------------------------------------------------- */
typedef struct weir_llvm_flow {
  int identity;
  weir_llvm_vec kills;
  weir_llvm_vec pairs; /* from, to, from, to, ... */
  weir_llvm_vec bundles; /* per bundle: count of from, count of to, the from facts, the to facts */
  /* IDE analyses (typestate) only: (from, to, function) triples, a pair's
   * edge function by its index in the problem's table (analyses/typestate);
   * a pair not listed carries the identity. Empty for the IFDS analyses. */
  weir_llvm_vec fns;
} weir_llvm_flow;

void weir_llvm_flow_reset(weir_llvm_flow *flow, int identity);
void weir_llvm_flow_kill(weir_llvm_flow *flow, uint32_t fact);
/* from -> to between real facts: a zero or missing fact (0 / NONE) on either
 * side is ignored, so "no fact" never turns into a generation by accident. */
void weir_llvm_flow_pair(weir_llvm_flow *flow, uint32_t from, uint32_t to);
/* 0 -> to: generates `to` (ignored when `to` is 0 / NONE). */
void weir_llvm_flow_gen(weir_llvm_flow *flow, uint32_t to);
/* Every fact of `from` flows into every fact of `to` (0 / NONE skipped):
 * what a block copy between two points-to sets does at one relative
 * offset. The first pass links the two sides through one vertex of the
 * fact graph (module/emit.c) instead of nf x nt edges; the second expands
 * the product of the facts pruning kept. */
void weir_llvm_flow_bundle(weir_llvm_flow *flow, const uint32_t *from, size_t nf, const uint32_t *to, size_t nt);
void weir_llvm_flow_free(weir_llvm_flow *flow);
/* Interns the flow with the builder through a fact map (NONE: pruned, left
 * out; NULL: no map) and gives its index; `scratch` holds the mapped arrays. */
weir_status weir_llvm_flow_intern(weir_ifds_builder *builder, weir_llvm_flow *flow, const uint32_t *map,
                                  weir_llvm_vec *scratch, uint32_t *index);

/* ---- build context ------------------------------------------------------------ */
typedef enum weir_llvm_origin_kind {
  WEIR_LLVM_ORIGIN_NONE = 0,
  WEIR_LLVM_ORIGIN_SLOT = 1,  /* derived from an alloca (vid of the alloca) */
  WEIR_LLVM_ORIGIN_PARAM = 2  /* a pointer parameter (vid of the argument) */
} weir_llvm_origin_kind;

typedef struct weir_llvm_origin {
  weir_llvm_origin_kind kind;
  uint32_t vid;
  int direct; /* the pointer is the alloca / parameter itself (no GEP) */
} weir_llvm_origin;

typedef enum weir_llvm_call_kind {
  WEIR_LLVM_CALL_IGNORED = 0, /* llvm.dbg.*, lifetime and other intrinsics: identity */
  WEIR_LLVM_CALL_EXTERNAL = 1,/* declarations, modelled names, unresolved indirect */
  WEIR_LLVM_CALL_NODE = 2     /* at least one defined callee: call + return site */
} weir_llvm_call_kind;

typedef struct weir_llvm_fn {
  LLVMValueRef fn;
  uint32_t first, last;   /* start and exit node */
  uint32_t ret_fact;      /* uninit, uaf, typestate: the returned value */
  uint32_t incoming;      /* callee lines that name it */
  uint32_t address_taken;
} weir_llvm_fn;

typedef struct weir_llvm_ctx weir_llvm_ctx;

typedef struct weir_llvm_hooks {
  /* Numbers the facts (ctx->fact_count starts at 1). */
  void (*number)(weir_llvm_ctx *ctx);
  /* The edge from a procedure's start node to its first instruction. */
  void (*entry)(weir_llvm_ctx *ctx, uint32_t proc, weir_llvm_flow *flow);
  /* Effect of an instruction on a plain node (incl. external calls, ret). */
  void (*plain)(weir_llvm_ctx *ctx, LLVMValueRef inst, weir_llvm_flow *flow);
  /* A phi assignment on the edge it belongs to: `phi` takes `value`. The
   * edges of a terminator carry the phis of their successor, so a value
   * only flows in from the predecessor it comes from. */
  void (*move)(weir_llvm_ctx *ctx, LLVMValueRef value, LLVMValueRef phi, weir_llvm_flow *flow);
  void (*call_to_return)(weir_llvm_ctx *ctx, LLVMValueRef call, weir_llvm_flow *flow);
  void (*callee)(weir_llvm_ctx *ctx, LLVMValueRef call, uint32_t proc, weir_llvm_flow *call_flow,
                 weir_llvm_flow *ret_flow);
  /* Records checks and sources of the instruction at `node`. */
  void (*check)(weir_llvm_ctx *ctx, LLVMValueRef inst, uint32_t node);
  /* Names a fact for the legend comment. */
  void (*describe)(weir_llvm_ctx *ctx, uint32_t fact, weir_llvm_text *out);
  /* Optional: what taking the edge from terminator `term` to `succ` tells
   * (after `plain` and the phi moves of that edge). */
  void (*edge)(weir_llvm_ctx *ctx, LLVMValueRef term, LLVMBasicBlockRef succ, weir_llvm_flow *flow);
} weir_llvm_hooks;

/* weir_llvm_call_reach's state: the reach of each call (by value id), the
 * objects each object holds, and a stamp per object for deduplication. */
typedef struct weir_llvm_reach {
  int ready;                 /* 0: not yet allocated, 1: allocated, -1: out of memory */
  uint32_t objects;          /* memory objects */
  weir_llvm_vec *cache;      /* [value_count] */
  uint8_t *cache_ready;
  weir_llvm_vec *succ;       /* [objects] */
  uint8_t *succ_ready;
  weir_llvm_vec *stack_succ; /* [objects]: the stack objects among succ */
  uint8_t *stack_succ_ready;
  uint32_t *stamp_of, stamp; /* [objects] */
  uint8_t *escaped;          /* [objects]: 1 for stack objects reachable from a global */
  uint8_t *held;             /* [objects]: 1 for stack objects whose address a location holds */
  weir_llvm_vec scratch;     /* the reach of a call without a value id */
  weir_llvm_vec walk;        /* compute_reach's visited objects */
} weir_llvm_reach;

struct weir_llvm_ctx {
  LLVMModuleRef module;
  const weir_llvm_memory *memory; /* points-to, mod/ref (memory/memory.h) */
  weir_llvm_analysis analysis;
  const weir_llvm_config *config;
  const weir_llvm_hooks *hooks;
  weir_llvm_problem *out;

  weir_llvm_fn *fns;
  uint32_t fn_count;
  weir_llvm_map fn_index;        /* defined function -> proc */
  LLVMValueRef *taken;           /* address-taken functions (defined or not) */
  uint32_t taken_count;

  weir_llvm_map value_id;        /* argument / instruction -> vid */
  LLVMValueRef *values;          /* [value_count] */
  uint32_t *value_proc;          /* [value_count] */
  uint32_t value_count;
  uint32_t *node_of;             /* [value_count] instruction node, NONE for arguments */
  uint32_t *spill_of;            /* [value_count] alloca holding only argument vid, else NONE */
  uint32_t *callee_first;        /* [value_count] into callees, call nodes only */
  uint32_t *callee_count;
  weir_llvm_vec callees;         /* procs */
  uint32_t *fact_a, *fact_b;     /* [value_count] analysis-owned fact numbers (0: none) */
  uint8_t *may_write;            /* [value_count] uninit: a pointer parameter stored through */
  uint32_t *param_strong;        /* [fn_count] uninit: bit k, every call passes parameter k a strong target set (uninit.c) */
  uint32_t *loc_fact;            /* [memory locations] analysis-owned fact per location (0: none) */
  uint32_t *obj_fact;            /* [memory objects] analysis-owned fact per object (0: none; uaf: 1 marks a tracked block) */
  uint8_t *escape_state;         /* [memory locations] uninit: written before its local's address escapes (analyses/uninit/escape.c) */
  uint8_t *inlined_wrapper;      /* [memory objects] 1: a heap site copied by inlining into many functions (number_common) */
  weir_llvm_vec *dm_mod, *dm_touch; /* [fn_count] uaf: the locations with a DM fact each function may write / read or write, sorted */
  uint64_t *param_frees;         /* [2 fn_count] uaf: parameters (bits) a function may free, and whose kept pointers (analyses/uaf/cleanup.c) */
  uint8_t *fail_free_state;      /* [fn_count] uaf: frees only when it fails (analyses/uaf/cleanup.c) */
  LLVMValueRef mod_call;         /* weir_llvm_callee_mod (weir_mem_call_mod): the call whose callees' written locations mod_locs holds */
  weir_llvm_vec mod_locs;        /* (an indirect call's callees are built one after the other) */
  struct weir_llvm_param_reads *param_reads; /* uninit: reads through parameters per function (analyses/uninit/paramref.c) */
  struct weir_llvm_ranges *ranges; /* uninit: element ranges of array accesses (analyses/uninit/ranges.c) */
  uint8_t *appended;             /* [memory objects] uninit: filled by appends at a count (analyses/uninit/append.c) */
  struct weir_llvm_tag_table *tags; /* uninit: stores into struct fields, for tagged unions (analyses/uninit/tags.c) */
  weir_llvm_map libcall_index;   /* callee -> index into libcalls */
  weir_llvm_libcall *libcalls;
  size_t libcall_count, libcall_cap;
  const uint32_t *fact_map;      /* while building: fact -> built number (NONE: pruned) */
  weir_llvm_vec *demand;         /* first pass of module/emit.c: the facts checks look at, instead of checks */
  weir_llvm_reach reach;         /* weir_llvm_call_reach's caches (analyses/common.c) */
  struct weir_ts_state *ts;      /* typestate: origins, relevance, escapes (analyses/typestate/origin.c) */
  struct weir_analysis_ctx *api; /* a plugin analysis: the adapter's state (api/), else NULL */
  struct weir_llvm_const_state *cst; /* const: locations per function and kind (analyses/const) */
  const weir_llvm_config *names; /* the table whose names make a defined function a library call
                                  * (taint: config; a plugin: its own table), or NULL */
  uint32_t fact_count;
  weir_llvm_vec fact_info;       /* per fact from 1: kind, id (analysis-defined) */
  uint32_t node_count;
  int failed;
};

uint32_t weir_llvm_vid(const weir_llvm_ctx *ctx, LLVMValueRef value);
weir_llvm_origin weir_llvm_origin_of(const weir_llvm_ctx *ctx, LLVMValueRef pointer);
/* The one block with edges into `block` (a switch may have several), or
 * NULL when it has none or more than one (analyses/common.c). */
LLVMBasicBlockRef weir_llvm_only_pred(LLVMBasicBlockRef block);
/* Locations any defined callee of `call` may write, where this call can
 * touch them, sorted; kept for the last call asked about (an indirect call
 * asks once per callee: merging every callee's set each time was quadratic,
 * ocamlrun 80 % of the build). The vector belongs to ctx (mod_locs). */
const weir_llvm_vec *weir_llvm_callee_mod(weir_llvm_ctx *ctx, LLVMValueRef call);
/* The direct callee after stripping pointer casts, or NULL. */
LLVMValueRef weir_llvm_direct_callee(LLVMValueRef call);
/* Name of the direct callee ("" when indirect). */
const char *weir_llvm_callee_name(LLVMValueRef call, size_t *length);
weir_llvm_call_kind weir_llvm_classify_call(const weir_llvm_ctx *ctx, LLVMValueRef call);
int weir_llvm_is_call(LLVMValueRef inst);
/* Allocates the next fact and records what it stands for (for the legend). */
uint32_t weir_llvm_new_fact(weir_llvm_ctx *ctx, uint32_t kind, uint32_t id);
/* Writes "KIND NAME in FUNCTION" for a value fact (legend comments). */
void weir_llvm_describe_value(const weir_llvm_ctx *ctx, const char *kind, uint32_t vid,
                              weir_llvm_text *out);

/* ---- shared by the analyses (analyses/common.c) ---- */
int weir_llvm_is_pointer(LLVMValueRef value);
/* `v` without bitcasts (instructions and constant expressions). */
LLVMValueRef weir_llvm_strip_bitcasts(LLVMValueRef v);
/* Memory locations a pointer may point to (memory model). */
size_t weir_llvm_pts(const weir_llvm_ctx *ctx, LLVMValueRef pointer, const uint32_t **locations);
/* The same, plus `depth` levels of what is stored there (deep rules), into `out` (sorted). */
void weir_llvm_pts_deep(const weir_llvm_ctx *ctx, LLVMValueRef pointer, int depth, weir_llvm_vec *out);
/* The library model of a call's direct callee (cached per callee; empty when indirect). */
const weir_llvm_libcall *weir_llvm_call_model(weir_llvm_ctx *ctx, LLVMValueRef call);
/* The heap object a call allocates (library allocator or allocation wrapper), or NONE. */
uint32_t weir_llvm_allocated_object(const weir_llvm_ctx *ctx, LLVMValueRef call);
/* Whether a store through a pointer with this single target overwrites all of it. */
int weir_llvm_strong_target(const weir_llvm_ctx *ctx, uint32_t location);
/* The words a message uses for the memory at `location` read or written
 * through `pointer`: the access as the source wrote it ("p->len") and, when
 * the location's own name says more ("len of the block from malloc in f at
 * x.c:12", "v.len"), that name as `note`; else the location's name alone.
 * `as_argument`: the pointer is passed to a call (named as passed: "line"). */
void weir_llvm_access_words(const weir_llvm_ctx *ctx, LLVMValueRef pointer, int as_argument, uint32_t location,
                            weir_llvm_text *what, weir_llvm_text *note);
/* Whether a read through `pointer` of `location` (of a local) sees it
 * written: every escape of the local's address comes after a write of it in
 * the same block, and `pointer` is not the local's own alloca (analyses/uninit/escape.c). */
int weir_llvm_written_before_escape(weir_llvm_ctx *ctx, LLVMValueRef pointer, uint32_t location);
/* Whether the defined callee `proc` of `call` may read `location` in this
 * call's context: for the caller's own locals, only where the call's
 * arguments lead the callee's reads through its parameters
 * (analyses/uninit/paramref.c); 1 for anything else. */
int weir_llvm_call_may_read(weir_llvm_ctx *ctx, LLVMValueRef call, uint32_t proc, uint32_t location);
void weir_llvm_param_reads_free(weir_llvm_ctx *ctx);
/* Element ranges of array accesses (analyses/uninit/ranges.c, uninit): finds the
 * loads and stores whose elements are known (constant indices, loops with
 * constant bounds) and makes a second fact of kind `fact_kind`, U_all, for
 * every cell that has a store of part of it. */
typedef struct weir_llvm_ranges weir_llvm_ranges;
void weir_llvm_ranges_build(weir_llvm_ctx *ctx, uint32_t fact_kind);
void weir_llvm_ranges_free(weir_llvm_ctx *ctx);
/* Marks ctx->appended: the objects an address computation indexes by an
 * append counter (`a[n++]`), which uninit takes as initialised
 * (analyses/uninit/append.c). */
void weir_llvm_append_objects(weir_llvm_ctx *ctx);
/* The cell's U_all fact ("no element written yet"), 0 when it has none. */
uint32_t weir_llvm_ranges_twin(const weir_llvm_ctx *ctx, uint32_t location);
/* Whether a store writes part of its cell only (it clears U_all, not U). */
int weir_llvm_ranges_partial_store(const weir_llvm_ctx *ctx, LLVMValueRef store);
/* Whether a load of `location` reads elements the cell's partial stores do
 * not cover (checked against U, not U_all); appends why to `note`. */
int weir_llvm_ranges_uncovered_read(const weir_llvm_ctx *ctx, LLVMValueRef load, uint32_t location,
                                    weir_llvm_text *note);
/* Whether a load through `pointer` (at `inst`) reads the payload of a
 * tagged union under a test of its tag whose every writer also writes the
 * payload (analyses/uninit/tags.c): not a use of unset memory. */
int weir_llvm_tag_guarded_read(weir_llvm_ctx *ctx, LLVMValueRef inst, LLVMValueRef pointer);
void weir_llvm_tags_free(weir_llvm_ctx *ctx);
/* Whether a printf-style call (a `format` sink of the table) with a
 * constant format does not read through argument `arg`: no %s takes it
 * (%p, %d, %n ...). 0 when the format cannot be followed (analyses/uninit/format.c). */
int weir_llvm_format_skips_read(weir_llvm_ctx *ctx, LLVMValueRef call, uint32_t arg);
/* Whether such a call writes through argument `arg` (%n). */
int weir_llvm_format_writes(weir_llvm_ctx *ctx, LLVMValueRef call, uint32_t arg);
/* Whether uninit takes a store through `pointer`, which may point to
 * `locs`, for a strong update of each (analyses/uninit/uninit.c). */
int weir_llvm_uninit_strong_store(const weir_llvm_ctx *ctx, LLVMValueRef pointer, const uint32_t *locs, size_t n);
/* On a loop's exit edge `term` -> `succ`, kills U of the array cells the
 * loop's blocks store into, as strong stores (analyses/uninit/loopfill.c). */
void weir_llvm_loop_exit_fills(weir_llvm_ctx *ctx, LLVMValueRef term, LLVMBasicBlockRef succ, weir_llvm_flow *flow);
/* weir_llvm_add_check for a finding of `rule` (fact 0: whenever reachable). */
void weir_llvm_add_rule_check(weir_llvm_ctx *ctx, weir_llvm_finding_rule rule, uint32_t node,
                              const uint32_t *facts, size_t count, LLVMValueRef inst,
                              const char *message);
/* A block copy (memcpy, strcpy, struct assignment) from the location
 * `from` to `to`: appends (source, destination) pairs, field by field at
 * equal offsets (a field the destination lacks lands on `to`). */
void weir_llvm_block_pairs(const weir_llvm_ctx *ctx, uint32_t from, uint32_t to, weir_llvm_vec *out);
/* The location of `to`'s object that corresponds to location `k` of a
 * copy from `from` (same offset from the start of each), or `to` itself
 * when that object has none there. */
/* memcpy between every location of `src` and every location of `dst`: the
 * location facts (ctx->loc_fact) of each source block flow into the cells
 * at the same relative offsets of every destination block, as one bundle
 * per offset (analyses/common.c). */
/* The same over the location facts `facts` (a plugin kind's). */
void weir_llvm_copy_blocks_of(weir_llvm_ctx *ctx, const uint32_t *facts, const uint32_t *src, size_t m,
                              const uint32_t *dst, size_t dn, weir_llvm_flow *flow);
void weir_llvm_copy_blocks(weir_llvm_ctx *ctx, const uint32_t *src, size_t m, const uint32_t *dst, size_t dn,
                           weir_llvm_flow *flow);
uint32_t weir_llvm_block_counterpart(const weir_llvm_ctx *ctx, uint32_t from, uint32_t to, uint32_t k);
/* The end of the locations of location's object, from it on, that a
 * write of `bytes` starting there covers (at least the location itself). */
uint32_t weir_llvm_block_span(const weir_llvm_ctx *ctx, uint32_t location, uint64_t bytes);
/* The locations of `location`'s object from it on: [first, end). */
void weir_llvm_block(const weir_llvm_ctx *ctx, uint32_t location, uint32_t *first, uint32_t *end);
/* Whether a pointer (before casts to i8*) is a pointer to a whole struct:
 * a library call writing through it writes the whole block (recv into a
 * struct, memset, va_start), while one through a char pointer into a field
 * writes that field. */
int weir_llvm_points_to_struct(LLVMValueRef pointer);
/* The STACK objects a call's pointer arguments reach (two levels of stored
 * pointers deep), sorted: what a callee may touch of a caller's frame (the
 * only objects weir_llvm_call_may_touch looks up). Computed once per call;
 * the vector belongs to ctx. */
const weir_llvm_vec *weir_llvm_call_reach(weir_llvm_ctx *ctx, LLVMValueRef call);
void weir_llvm_reach_free(weir_llvm_ctx *ctx);
/* Adds to `objects` what they hold, `levels` deep (stored pointers'
 * objects), and sorts them, each object once. */
void weir_llvm_objects_reach(weir_llvm_ctx *ctx, weir_llvm_vec *objects, int levels);
/* Mod/ref summaries merge every calling context. At one call site, a
 * location of the CALLER's own stack frame can only be touched by the
 * callee if its address is handed over at this call (`reach`), and so can
 * a location of another frame whose address no memory location holds (it
 * came in through a parameter; `reach.held`); globals, heap blocks and the
 * other frames always may be. */
int weir_llvm_call_may_touch(const weir_llvm_ctx *ctx, LLVMValueRef call, const weir_llvm_vec *reach,
                             uint32_t location);
/* A pointer the memory model says may point to more than this many objects
 * is "vague": a generic container's `void *`, a callback's user data. The
 * points-to sets are context-insensitive, so such a set merges the data of
 * every user of the container; writing taint, freeing or reporting through
 * it would make findings nobody can act on. The analyses treat it as
 * pointing nowhere for generation and findings (README: precision limits). */
#define WEIR_LLVM_VAGUE_OBJECTS 8
int weir_llvm_pts_vague(const weir_llvm_ctx *ctx, LLVMValueRef pointer);
/* The facts taint and uninit share: one per non-void value, one per
 * location whose object (by id) `carries` accepts (NULL: all), one per
 * non-void function's return; the kinds go to the legend. */
/* A block allocated in a function that many call sites reach (an
 * allocation wrapper, a vector's grow helper, a generic constructor) is one
 * abstract object for the blocks of all of its users: freeing one user's
 * block would make every other user's a use after free, one user's unset
 * field an unset field of every other's. uaf and uninit do not track such
 * summary objects. At -O2 the wrapper is inlined: each caller has its own
 * copy of the allocation (a different site, the same source line of the
 * wrapper in its debug location); a line copied into more than
 * SHARED_CALLERS functions is the same wrapper's block and is not tracked
 * either, as at -O0. */
#define WEIR_LLVM_SHARED_CALLERS 4
int weir_llvm_shared_site(const weir_llvm_ctx *ctx, uint32_t object);
/* Finds the inlined copies (once; weir_llvm_number_common calls it). */
void weir_llvm_mark_inlined_wrappers(weir_llvm_ctx *ctx);
void weir_llvm_number_common(weir_llvm_ctx *ctx, uint32_t value_kind, uint32_t location_kind,
                             uint32_t return_kind,
                             int (*carries)(const weir_llvm_ctx *, uint32_t object));
/* The defined callees of a call node (procs). */
size_t weir_llvm_call_procs(const weir_llvm_ctx *ctx, LLVMValueRef call, const uint32_t **procs);

/* Builds the ICFG numbering and the call resolution (icfg.c). */
weir_status weir_llvm_icfg_prepare(weir_llvm_ctx *ctx);
/* Builds the problem (ctx->out->ifds) and its fact legend (emit.c). */
weir_status weir_llvm_emit(weir_llvm_ctx *ctx);
void weir_llvm_ctx_free(weir_llvm_ctx *ctx);
/* Frees ctx->ts (analyses/typestate/origin.c; NULL is fine). */
void weir_ts_state_free(weir_llvm_ctx *ctx);

/* Records the source position of a node, for code flows (report/location.c). */
void weir_llvm_note_node(weir_llvm_ctx *ctx, uint32_t node, LLVMValueRef inst);
/* Records a location for an instruction, returns its index (location.c). */
uint32_t weir_llvm_add_loc(weir_llvm_ctx *ctx, LLVMValueRef inst);
/* The source variable name of an alloca from llvm.dbg.declare, or the IR name. */
void weir_llvm_slot_name(const weir_llvm_ctx *ctx, LLVMValueRef alloca, weir_llvm_text *out);
void weir_llvm_add_check(weir_llvm_ctx *ctx, uint32_t node, const uint32_t *facts, size_t count,
                         LLVMValueRef inst, const char *message);
void weir_llvm_add_source(weir_llvm_ctx *ctx, uint32_t node, LLVMValueRef inst, const char *name,
                          size_t name_length);

extern const weir_llvm_hooks weir_llvm_uninit_hooks;
extern const weir_llvm_hooks weir_llvm_uaf_hooks;
extern const weir_llvm_hooks weir_llvm_typestate_hooks;
extern const weir_llvm_hooks weir_llvm_const_hooks;
void weir_llvm_const_state_free(weir_llvm_ctx *ctx);
/* --prune-with-const: builds and solves const on `module` (prepared) and
 * makes the br/switch it decides unconditional, then removes the dead
 * blocks (analyses/const/prune.c). */
weir_status weir_llvm_const_prune(LLVMModuleRef module, const weir_llvm_config *config,
                                  weir_llvm_build_stats *stats);
extern const weir_llvm_hooks weir_llvm_api_hooks; /* a plugin analysis (api/hooks.c) */

/* Frees what weir_llvm_note_node recorded (report/location.c; NULL is fine). */
void weir_llvm_positions_free(struct weir_llvm_positions *positions);

#endif
