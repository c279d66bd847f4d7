/* Internals of the LLVM frontend shared by its files: the build context
 * (module, value and node numbering, call resolution), flow builders and the
 * hooks each analysis implements. */
#ifndef WEIR_FRONTENDS_LLVM_INTERNAL_H
#define WEIR_FRONTENDS_LLVM_INTERNAL_H

#include <llvm-c/Core.h>

#include "frontends/llvm/frontend.h"
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

/* A place where a finding may be: it is one if any of its facts holds at node. */
typedef struct weir_llvm_check {
  uint32_t node;
  uint32_t fact_first, fact_count; /* into check_facts */
  uint32_t loc;
  char *message;
} weir_llvm_check;

/* A taint source call: generating node, for the related location. */
typedef struct weir_llvm_source {
  uint32_t node;
  uint32_t loc;
  char *name;
} weir_llvm_source;

struct weir_llvm_problem {
  weir_llvm_analysis analysis;
  char name[512];
  weir_llvm_text text;
  weir_llvm_loc *locs;
  size_t loc_count, loc_cap;
  weir_llvm_check *checks;
  size_t check_count, check_cap;
  weir_llvm_vec check_facts;
  weir_llvm_source *sources;
  size_t source_count, source_cap;
  weir_llvm_build_stats stats;
  int failed; /* an allocation failed while recording */
};

/* ---- taint configuration -------------------------------------------------- */
typedef enum weir_llvm_rule_kind {
  WEIR_LLVM_SOURCE = 0,   /* taints its result and/or pointed-to buffers */
  WEIR_LLVM_SINK = 1,     /* tainted argument = finding */
  WEIR_LLVM_SANITIZER = 2,/* result clean, pointed-to buffers cleaned */
  WEIR_LLVM_TRANSFER = 3  /* taint of argument FROM flows into buffer TO */
} weir_llvm_rule_kind;

/* Argument selector: RET, one argument, or every argument from `index` on. */
#define WEIR_LLVM_ARG_RET UINT32_MAX
typedef struct weir_llvm_rule {
  weir_llvm_rule_kind kind;
  char name[96];
  uint32_t arg;      /* argument index or WEIR_LLVM_ARG_RET (none for sanitizer) */
  int from_on;       /* 1: every argument >= arg */
  uint32_t to_arg;   /* transfer: destination argument; + 256 means "and every later one" */
} weir_llvm_rule;

struct weir_llvm_config {
  weir_llvm_rule *rules;
  size_t count, cap;
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
} weir_llvm_flow;

void weir_llvm_flow_reset(weir_llvm_flow *flow, int identity);
void weir_llvm_flow_kill(weir_llvm_flow *flow, uint32_t fact);
/* from -> to between real facts: a zero or missing fact (0 / NONE) on either
 * side is ignored, so "no fact" never turns into a generation by accident. */
void weir_llvm_flow_pair(weir_llvm_flow *flow, uint32_t from, uint32_t to);
/* 0 -> to: generates `to` (ignored when `to` is 0 / NONE). */
void weir_llvm_flow_gen(weir_llvm_flow *flow, uint32_t to);
void weir_llvm_flow_free(weir_llvm_flow *flow);
/* Appends the flow token ("id,-3,0>7", "none"). */
void weir_llvm_flow_write(weir_llvm_text *text, weir_llvm_flow *flow);

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
  uint32_t ret_fact;      /* taint: the returned value */
  uint32_t incoming;      /* callee lines that name it */
  uint32_t address_taken;
} weir_llvm_fn;

typedef struct weir_llvm_ctx weir_llvm_ctx;

typedef struct weir_llvm_hooks {
  /* Numbers the facts (ctx->fact_count starts at 1). */
  void (*number)(weir_llvm_ctx *ctx);
  /* Effect of an instruction on a plain node (incl. external calls, ret). */
  void (*plain)(weir_llvm_ctx *ctx, LLVMValueRef inst, weir_llvm_flow *flow);
  void (*call_to_return)(weir_llvm_ctx *ctx, LLVMValueRef call, weir_llvm_flow *flow);
  void (*callee)(weir_llvm_ctx *ctx, LLVMValueRef call, uint32_t proc, weir_llvm_flow *call_flow,
                 weir_llvm_flow *ret_flow);
  /* Records checks and sources of the instruction at `node`. */
  void (*check)(weir_llvm_ctx *ctx, LLVMValueRef inst, uint32_t node);
  /* Names a fact for the legend comment. */
  void (*describe)(weir_llvm_ctx *ctx, uint32_t fact, weir_llvm_text *out);
} weir_llvm_hooks;

struct weir_llvm_ctx {
  LLVMModuleRef module;
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
  uint32_t fact_count;
  weir_llvm_vec fact_info;       /* per fact from 1: kind, id (analysis-defined) */
  uint32_t node_count;
  int failed;
};

uint32_t weir_llvm_vid(const weir_llvm_ctx *ctx, LLVMValueRef value);
weir_llvm_origin weir_llvm_origin_of(const weir_llvm_ctx *ctx, LLVMValueRef pointer);
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

/* Builds the ICFG numbering and the call resolution (icfg.c). */
weir_status weir_llvm_icfg_prepare(weir_llvm_ctx *ctx);
/* Writes the whole problem text (emit.c). */
weir_status weir_llvm_emit(weir_llvm_ctx *ctx);
void weir_llvm_ctx_free(weir_llvm_ctx *ctx);

/* Records a location for an instruction, returns its index (location.c). */
uint32_t weir_llvm_add_loc(weir_llvm_ctx *ctx, LLVMValueRef inst);
/* The source variable name of an alloca from llvm.dbg.declare, or the IR name. */
void weir_llvm_slot_name(const weir_llvm_ctx *ctx, LLVMValueRef alloca, weir_llvm_text *out);
void weir_llvm_add_check(weir_llvm_ctx *ctx, uint32_t node, const uint32_t *facts, size_t count,
                         LLVMValueRef inst, const char *message);
void weir_llvm_add_source(weir_llvm_ctx *ctx, uint32_t node, LLVMValueRef inst, const char *name,
                          size_t name_length);

extern const weir_llvm_hooks weir_llvm_taint_hooks;
extern const weir_llvm_hooks weir_llvm_uninit_hooks;

/* Taint source search behind a finding (witness.c): built once per result,
 * then asked per finding; returns a source index or WEIR_LLVM_NONE. */
typedef struct weir_llvm_witness weir_llvm_witness;
weir_status weir_llvm_witness_new(const weir_llvm_problem *problem, const weir_ifds_problem *loaded,
                                  const weir_ifds_result *result, weir_llvm_witness **out);
uint32_t weir_llvm_witness_source(weir_llvm_witness *witness, uint32_t node, uint32_t fact);
void weir_llvm_witness_free(weir_llvm_witness *witness);

#endif
