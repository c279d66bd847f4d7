/* Internals of the analysis API adapter (frontends/llvm/api, README.md):
 * the loaded plugin, the per-build state behind weir_analysis_ctx, and how
 * the handles of include/weir/analysis.h map to the frontend's own
 * pointers and ids. */
#ifndef WEIR_FRONTENDS_LLVM_API_API_H
#define WEIR_FRONTENDS_LLVM_API_API_H

#include "frontends/llvm/internal.h"
#include "weir/analysis.h"

/* A kind may have at most this many rules and kinds (SARIF and the legend
 * keep small fixed tables of them). */
#define WEIR_LLVM_API_MAX_KINDS 32u
#define WEIR_LLVM_API_MAX_RULES 32u

struct weir_llvm_plugin {
  void *handle;             /* dlopen handle; NULL for a declaration compiled in */
  const weir_analysis *decl;
  char origin[1100];        /* "plugin '/path/lib.so'" or "analysis 'id' (compiled in)" for messages */
  weir_llvm_config *table;  /* the analysis' library table: its text, then --config files */
  /* A built-in written on the API (analyses/taint): registered from the
   * static table of load.c, its id is the built-in's, the report side is
   * the built-in's own (problem->analysis, report/rules.c) and its library
   * table is weir's (the default table and --config), not `table`. */
  int builtin;
  weir_llvm_analysis analysis; /* builtin: which one */
};

/* The built-ins written on the API: their declarations (analyses/). */
const weir_analysis *weir_llvm_taint_analysis(void);
/* The built-in `analysis` as a plugin of the static table (load.c), or
 * *out NULL when it is not written on the API. */
weir_status weir_llvm_plugin_builtin(weir_llvm_analysis analysis, weir_llvm_plugin **out);

/* The per-build state (the plugin sees it as weir_analysis_ctx). */
struct weir_analysis_ctx {
  weir_llvm_ctx *ctx;
  const weir_llvm_plugin *plugin;
  const weir_analysis *decl;
  void *state;                     /* what init made */
  const weir_llvm_config *table;   /* the library table weir_analysis_library* ask */
  weir_llvm_vec deep;              /* weir_mem_points_to_deep's answer */
  uint32_t locations;              /* the memory model's location count */
  /* weir_mem_call_may_touch asks in a loop about one call: its reach, kept
   * for the last (numbered) call asked about */
  LLVMValueRef reach_call;
  const weir_llvm_vec *reach;
  uint32_t *facts[WEIR_LLVM_API_MAX_KINDS]; /* per kind: fact by vid / location / proc (0: none) */
  char **custom;                   /* CUSTOM facts' names, by id */
  size_t custom_count, custom_cap;
  int numbering;                   /* inside the number callback */
  int checking;                    /* inside the check callback (findings and sources only there) */
  char file[1024];                 /* weir_ir_position_of's file, until its next call */
  weir_status error;               /* the plugin's first misuse, or WEIR_OK */
  char message[640];
};

/* The flow handle: the frontend's flow and the build it belongs to. */
struct weir_flow {
  weir_llvm_flow *flow;
  weir_analysis_ctx *cx;
};

/* Handles are the frontend's pointers, cast. */
#define API_VALUE(v) ((LLVMValueRef)(v))
#define API_HANDLE(v) ((const weir_ir_value *)(v))
#define API_FN(f) ((LLVMValueRef)(f))
#define API_FN_HANDLE(f) ((const weir_ir_function *)(f))

/* Before the ICFG: the state, init, the rules copied into the problem. */
weir_status weir_llvm_api_begin(weir_llvm_ctx *ctx, const weir_llvm_plugin *plugin);
/* After the build (status `s`): fini, frees; the plugin's misuse if any. */
weir_status weir_llvm_api_end(weir_llvm_ctx *ctx, weir_status s);

/* Records the first misuse (a bad kind, fact, rule or handle) for the end
 * of the build; returns the status it recorded. */
weir_status weir_llvm_api_misuse(weir_analysis_ctx *cx, const char *fmt, ...) WEIR_PRINTF(2, 3);
/* The same with another status (no memory in weir_analysis_new_fact). */
weir_status weir_llvm_api_failure(weir_analysis_ctx *cx, weir_status status, const char *fmt, ...) WEIR_PRINTF(3, 4);
/* Checks a declaration's fields (ABI version first); `origin` names it. */
weir_status weir_llvm_api_validate(const weir_analysis *decl, const char *origin);
/* The same for a built-in of the static table (its id may be a built-in's). */
weir_status weir_llvm_api_validate_builtin(const weir_analysis *decl, const char *origin);

/* Facts (facts.c): numbering per kind, the legend, the standard flows. */
void weir_llvm_api_number(weir_llvm_ctx *ctx);
void weir_llvm_api_describe(weir_llvm_ctx *ctx, uint32_t fact, weir_llvm_text *out);
void weir_llvm_api_facts_free(weir_analysis_ctx *cx);
/* The fact of kind `kind` for a value (0: none), by the frontend's value. */
uint32_t weir_llvm_api_value_fact(const weir_analysis_ctx *cx, uint32_t kind, LLVMValueRef v);

/* The FOLLOW flows of every kind (follow.c), before the plugin's callbacks. */
void weir_llvm_api_follow_plain(weir_analysis_ctx *cx, LLVMValueRef inst, weir_llvm_flow *flow);
void weir_llvm_api_follow_move(weir_analysis_ctx *cx, LLVMValueRef value, LLVMValueRef phi, weir_llvm_flow *flow);
void weir_llvm_api_follow_call_to_return(weir_analysis_ctx *cx, LLVMValueRef call, weir_llvm_flow *flow);
void weir_llvm_api_follow_callee(weir_analysis_ctx *cx, LLVMValueRef call, uint32_t proc, weir_llvm_flow *call_flow,
                                 weir_llvm_flow *ret_flow);

/* Rules (report.c): the declaration's rules as the problem's own. */
weir_status weir_llvm_api_copy_rules(weir_llvm_problem *problem, const weir_analysis *decl);
void weir_llvm_api_free_rules(weir_llvm_problem *problem);

#endif
