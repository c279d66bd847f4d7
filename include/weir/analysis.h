/* weir — writing an IFDS analysis for `weir analyze` (the LLVM frontend).
 *
 * An analysis plugin is a shared library that exports
 *     const weir_analysis *weir_analysis_register(void);
 * and is run with `weir analyze --analysis plugin:/path/libmine.so prog.bc`
 * (PATH is a file path: plugin:libmine.so is ./libmine.so), or by its id
 * when the library is in a directory on WEIR_ANALYSIS_PATH named libID.so,
 * libweir_ID.so or ID.so. At most 32 fact kinds and 32 rules.
 * It declares its fact kinds, its rules and callbacks per instruction kind;
 * the callbacks add gen / kill / pair transfers through a flow builder and
 * say where a finding may be. The frontend does the rest exactly as for the
 * built-in analyses (taint, uninit, uaf): reading and preparing the modules,
 * the memory model, the ICFG, fact pruning, the solve on any backend,
 * witness paths, code flows, SARIF, suppressions, --fail-on-findings.
 *
 * Nothing of LLVM is in this header: the program is seen through opaque
 * handles (values, functions, memory locations and objects) and queries.
 * The functions below are not in libweir: weir-analyze (the program behind
 * `weir analyze`) exports them to the plugins it loads, so a plugin links
 * against nothing (or libweir, for weir_fail and friends).
 *
 * Walkthrough with a complete example: docs/analysis-api.md; the example
 * itself: share/weir/analysis-template/ (frontends/llvm/api/template/). The
 * built-in taint is written on this header alone too
 * (frontends/llvm/analyses/taint/taint.c): the full-size example. */
#ifndef WEIR_ANALYSIS_H
#define WEIR_ANALYSIS_H

#include <stddef.h>
#include <stdint.h>

#include "weir/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The declaration's layout and the meaning of every call below. A plugin
 * built against another number is refused with a message that says so. */
#define WEIR_ANALYSIS_ABI_VERSION 1u
/* Additions that keep the ABI (new functions and flags, no layout change):
 * 1 since ABI 1.1, the calls and the flag marked "(1.1)". A plugin that uses
 * them needs a weir-analyze of that minor version or later; one built
 * against 1.0 runs unchanged. */
#define WEIR_ANALYSIS_ABI_MINOR 1u
/* The symbol every analysis plugin exports. */
#define WEIR_ANALYSIS_ENTRY_NAME "weir_analysis_register"

/* Marks the functions weir-analyze exports to plugins (not libweir's). */
#if defined(__GNUC__) || defined(__clang__)
#define WEIR_ANALYSIS_API __attribute__((visibility("default")))
#else
#define WEIR_ANALYSIS_API
#endif

/* ---- handles ---------------------------------------------------------------
 * Valid during the callback that received them (in practice: during the
 * build of one problem). Never dereference them. */
typedef struct weir_analysis_ctx weir_analysis_ctx; /* one build of one program */
typedef struct weir_ir_value weir_ir_value;         /* instruction, argument, constant, global */
typedef struct weir_ir_function weir_ir_function;   /* a defined or declared function */
typedef struct weir_flow weir_flow;                 /* the flow function being filled */
typedef uint32_t weir_fact;        /* 0: the zero fact ("always"), or "no fact" */
typedef uint32_t weir_mem_location;/* an abstract memory cell (object + byte offset) */
typedef uint32_t weir_mem_object;  /* an abstract object (alloca, global, heap site, ...) */
#define WEIR_MEM_NONE UINT32_MAX

/* ---- what an analysis declares ----------------------------------------- */
typedef enum weir_fact_domain {
  WEIR_FACT_PER_VALUE = 0,    /* one fact per SSA value (instruction result, argument) */
  WEIR_FACT_PER_LOCATION = 1, /* one per abstract memory location */
  WEIR_FACT_PER_RETURN = 2,   /* one per defined function that returns a value */
  WEIR_FACT_CUSTOM = 3        /* made by the `number` callback (weir_analysis_new_fact) */
} weir_fact_domain;

/* Flags of a fact kind: the standard flows the frontend adds by itself
 * (before the callbacks run on the same flow, which may add more). */
enum {
  /* PER_VALUE: the fact follows the value: operands to the result of casts,
   * arithmetic, compares, selects (not the condition), aggregates and GEPs
   * (the base only), phi inputs to the phi, arguments to parameters of
   * defined callees, and a returned value to the PER_RETURN kind `link`,
   * which comes back as the call's result. A redefined value loses it. */
  WEIR_FACT_FOLLOW = 1u << 0,
  /* PER_LOCATION: facts of locations that no program can write (string
   * literals, functions) are not made. */
  WEIR_FACT_WRITABLE_ONLY = 1u << 1,
  /* PER_VALUE (1.1): the kind's facts die after the value's last use, as a
   * FOLLOW kind's do, without the FOLLOW flows (an analysis that states
   * every value flow itself). The first PER_VALUE kind with FOLLOW or
   * LIVENESS is the one pruned so. */
  WEIR_FACT_LIVENESS = 1u << 2
};
/* Any other bit, or a flag on a domain not named above, is refused. */
/* PER_LOCATION with WEIR_FACT_FOLLOW: across a call of a defined function,
 * a location's fact goes into each callee that may read or write it (mod/ref,
 * restricted to the caller's locals it is handed) and the callee's writes
 * come back from its exit (what it may write is killed on the call-to-return
 * edge): the rule of the built-in taint analysis. */

#define WEIR_ANALYSIS_NO_KIND UINT32_MAX

typedef struct weir_fact_kind {
  const char *name;        /* for the fact legend and code flows: "secret value" */
  weir_fact_domain domain;
  uint32_t flags;          /* WEIR_FACT_* */
  uint32_t link;           /* PER_VALUE + FOLLOW: index of the PER_RETURN kind of returns, or
                            * WEIR_ANALYSIS_NO_KIND */
} weir_fact_kind;

typedef enum weir_severity {
  WEIR_SEVERITY_ERROR = 0,   /* SARIF level "error" */
  WEIR_SEVERITY_WARNING = 1, /* "warning" */
  WEIR_SEVERITY_NOTE = 2     /* "note" */
} weir_severity;

/* A rule findings belong to (SARIF reportingDescriptor). Strings are copied
 * when the problem is built. */
typedef struct weir_analysis_rule {
  const char *id;                /* "secret-to-output": letters, digits, '-', '_', '.' */
  const char *name;              /* Pascal case: "SensitiveDataToOutput" */
  const char *cwe;               /* "532" (the number alone), or NULL */
  weir_severity severity;
  const char *security_severity; /* "5.5" (a decimal 0.0 .. 10.0), or NULL */
  const char *short_description; /* one sentence */
  const char *help;              /* what it means and how to fix it; NULL: the short description */
} weir_analysis_rule;

/* Callbacks run twice per instruction (the frontend first collects the fact
 * graph for pruning, then builds): they must depend on the program only. Every
 * callback is optional unless noted. */
typedef struct weir_analysis {
  uint32_t abi_version;          /* WEIR_ANALYSIS_ABI_VERSION */
  const char *id;                /* "secret-log": letters, digits, '-', '_'; not taint, uninit, uaf */
  const char *version;           /* the plugin's own version (SARIF tool.extensions), or NULL */
  const char *description;       /* one line (SARIF tool.extensions), or NULL */
  const char *source_label;      /* code flows: "<label> '<source>'" at a source; NULL: "from" */
  const weir_fact_kind *kinds;   /* at least one */
  uint32_t kind_count;
  const weir_analysis_rule *rules; /* at least one; findings name one by index */
  uint32_t rule_count;
  /* The analysis' library table in the `--config` format (one directive a
   * line: `source getpass ret`, `sink puts arg0`, `sanitizer NAME`, `transfer
   * NAME FROM TO`; frontends/llvm/README.md). The user's --config file is
   * added after it. Only weir_analysis_library asks it; the memory model keeps
   * the default table. NULL: empty. */
  const char *library_rules;

  /* Per-build state: init gets the context first, fini last. A failed init
   * frees what it made: fini then gets NULL. The run stops (exit 2) with
   * init's weir_fail message, or one that names the plugin and status. */
  weir_status (*init)(weir_analysis_ctx *cx, void **state);
  void (*fini)(void *state);
  /* Makes CUSTOM facts (weir_analysis_new_fact); after the other domains. */
  void (*number)(weir_analysis_ctx *cx);

  /* Transfers. `inst` is the instruction; its facts flow along the edge
   * that leaves it (what holds at a node is what holds before it runs). */
  void (*entry)(weir_analysis_ctx *cx, const weir_ir_function *fn, weir_flow *flow);
  void (*store)(weir_analysis_ctx *cx, const weir_ir_value *inst, weir_flow *flow);
  void (*load)(weir_analysis_ctx *cx, const weir_ir_value *inst, weir_flow *flow);
  /* A call with no defined callee: a declaration, an unresolved indirect
   * call, or a function the library table names. */
  void (*call_library)(weir_analysis_ctx *cx, const weir_ir_value *call, weir_flow *flow);
  /* A call with defined callees: what goes around them (call to return
   * site), into one callee (caller facts to callee facts at its start) and
   * back from it (callee facts at its exit to caller facts). Without
   * call_enter / call_exit only the FOLLOW kinds cross. */
  void (*call_to_return)(weir_analysis_ctx *cx, const weir_ir_value *call, weir_flow *flow);
  void (*call_enter)(weir_analysis_ctx *cx, const weir_ir_value *call, const weir_ir_function *callee,
                     weir_flow *flow);
  void (*call_exit)(weir_analysis_ctx *cx, const weir_ir_value *call, const weir_ir_function *callee,
                    weir_flow *flow);
  void (*ret)(weir_analysis_ctx *cx, const weir_ir_value *inst, weir_flow *flow);
  /* `phi` takes `incoming` on the edge from the block it comes from. */
  void (*phi)(weir_analysis_ctx *cx, const weir_ir_value *phi, const weir_ir_value *incoming, weir_flow *flow);
  /* A terminator (br, switch, ...) taken to its successor number `successor`. */
  void (*branch)(weir_analysis_ctx *cx, const weir_ir_value *inst, uint32_t successor, weir_flow *flow);
  /* Every other instruction (alloca, arithmetic, casts, GEPs, ...). */
  void (*other)(weir_analysis_ctx *cx, const weir_ir_value *inst, weir_flow *flow);

  /* Required: where findings may be and where facts come from, by
   * weir_analysis_report and weir_analysis_source, for any instruction. */
  void (*check)(weir_analysis_ctx *cx, const weir_ir_value *inst);
} weir_analysis;

typedef const weir_analysis *(*weir_analysis_register_fn)(void);

/* ---- facts ------------------------------------------------------------------
 * 0 when the kind does not have one there (a constant, a void value, an
 * index out of range: then the build fails with a message). */
WEIR_ANALYSIS_API weir_fact weir_analysis_value_fact(weir_analysis_ctx *cx, uint32_t kind, const weir_ir_value *v);
WEIR_ANALYSIS_API weir_fact weir_analysis_location_fact(weir_analysis_ctx *cx, uint32_t kind,
                                                        weir_mem_location location);
WEIR_ANALYSIS_API weir_fact weir_analysis_return_fact(weir_analysis_ctx *cx, uint32_t kind,
                                                      const weir_ir_function *fn);
/* A CUSTOM fact named `name` (copied), in the `number` callback only. */
WEIR_ANALYSIS_API weir_status weir_analysis_new_fact(weir_analysis_ctx *cx, uint32_t kind, const char *name,
                                                     weir_fact *out);
/* The state init made. */
WEIR_ANALYSIS_API void *weir_analysis_state(weir_analysis_ctx *cx);

/* ---- the flow builder: facts that hold before the instruction --------------
 * Every fact not mentioned stays as it is (identity), except on call_enter
 * and call_exit flows, which start empty. A fact of 0 is ignored on either
 * side of a pair ("no fact" never becomes a generation). */
WEIR_ANALYSIS_API weir_status weir_flow_gen(weir_flow *flow, weir_fact to);
WEIR_ANALYSIS_API weir_status weir_flow_kill(weir_flow *flow, weir_fact fact);
WEIR_ANALYSIS_API weir_status weir_flow_pair(weir_flow *flow, weir_fact from, weir_fact to);

/* ---- where findings are (in `check`) ----------------------------------------
 * A finding of rule `rule` (an index into weir_analysis.rules) at `inst` when
 * one of `facts` holds before it (fact 0: whenever it is reachable; count 0:
 * never). The message (copied) is what the user reads.
 * Argument errors (NULL message, NULL facts with a count, a rule or fact out
 * of range, a call outside `check`) fail the build with a message, whether
 * or not the plugin looks at the returned status; so does any error a
 * callback leaves with weir_fail. The status is the build's first error. */
WEIR_ANALYSIS_API weir_status weir_analysis_report(weir_analysis_ctx *cx, const weir_ir_value *inst, uint32_t rule,
                                                   const weir_fact *facts, size_t count, const char *message);
/* `inst` generates facts: code flows start there, named `name` ("getpass"). */
WEIR_ANALYSIS_API weir_status weir_analysis_source(weir_analysis_ctx *cx, const weir_ir_value *inst,
                                                   const char *name);

/* ---- the library table --------------------------------------------------- */
typedef enum weir_library_kind {
  WEIR_LIBRARY_SOURCE = 0, WEIR_LIBRARY_SINK = 1, WEIR_LIBRARY_SANITIZER = 2, WEIR_LIBRARY_TRANSFER = 3
} weir_library_kind;
#define WEIR_LIBRARY_RET UINT32_MAX /* the call's result, as `arg` */
/* Whether a rule of `kind` of the analysis' table names the callee of
 * `call` and selects argument `arg` (WEIR_LIBRARY_RET: the result; any
 * value for a sanitizer). 0 no, 1 yes, 2 yes with `deep`. For TRANSFER,
 * `arg` is the source argument and *to (may be NULL) gets the destination. */
WEIR_ANALYSIS_API int weir_analysis_library(weir_analysis_ctx *cx, const weir_ir_value *call, weir_library_kind kind,
                                            uint32_t arg, uint32_t *to);

/* ---- the program ------------------------------------------------------------ */
typedef enum weir_ir_kind {
  WEIR_IR_OTHER = 0, WEIR_IR_STORE, WEIR_IR_LOAD, WEIR_IR_CALL, WEIR_IR_RET, WEIR_IR_PHI, WEIR_IR_BRANCH,
  WEIR_IR_ALLOCA, WEIR_IR_GEP, WEIR_IR_CAST, WEIR_IR_BINARY, WEIR_IR_COMPARE, WEIR_IR_SELECT,
  WEIR_IR_ARGUMENT, WEIR_IR_CONSTANT, WEIR_IR_GLOBAL, WEIR_IR_FUNCTION
} weir_ir_kind;

typedef struct weir_ir_position {
  const char *file;       /* from debug info; the module's name without it */
  uint32_t line, column;  /* 0 without debug info */
} weir_ir_position;

WEIR_ANALYSIS_API weir_ir_kind weir_ir_kind_of(weir_analysis_ctx *cx, const weir_ir_value *v);
/* Operands as LLVM orders them: store (value, pointer), load (pointer); for
 * a call, weir_ir_call_arg. NULL past the end. */
WEIR_ANALYSIS_API uint32_t weir_ir_operand_count(weir_analysis_ctx *cx, const weir_ir_value *v);
WEIR_ANALYSIS_API const weir_ir_value *weir_ir_operand(weir_analysis_ctx *cx, const weir_ir_value *v, uint32_t k);
WEIR_ANALYSIS_API uint32_t weir_ir_call_arg_count(weir_analysis_ctx *cx, const weir_ir_value *call);
WEIR_ANALYSIS_API const weir_ir_value *weir_ir_call_arg(weir_analysis_ctx *cx, const weir_ir_value *call, uint32_t k);
/* The direct callee's name ("" for an indirect call); not NUL-terminated.
 * At -O2 some calls are intrinsics: "llvm.abs.i32" for abs, "llvm.memcpy.*". */
WEIR_ANALYSIS_API const char *weir_ir_callee_name(weir_analysis_ctx *cx, const weir_ir_value *call, size_t *length);
/* The defined functions a call may reach (indirect calls resolved). */
WEIR_ANALYSIS_API uint32_t weir_ir_callee_count(weir_analysis_ctx *cx, const weir_ir_value *call);
WEIR_ANALYSIS_API const weir_ir_function *weir_ir_callee(weir_analysis_ctx *cx, const weir_ir_value *call, uint32_t k);
/* Debug location of an instruction (0 on success; a status without one). */
WEIR_ANALYSIS_API weir_status weir_ir_position_of(weir_analysis_ctx *cx, const weir_ir_value *inst,
                                                  weir_ir_position *out);
/* Whether the value is a pointer; its type's size in bytes (0: unsized). */
WEIR_ANALYSIS_API int weir_ir_is_pointer(weir_analysis_ctx *cx, const weir_ir_value *v);
WEIR_ANALYSIS_API uint64_t weir_ir_type_size(weir_analysis_ctx *cx, const weir_ir_value *v);
/* A constant integer's value (1) or 0 when `v` is not one. */
WEIR_ANALYSIS_API int weir_ir_constant_int(weir_analysis_ctx *cx, const weir_ir_value *v, int64_t *out);

WEIR_ANALYSIS_API const weir_ir_function *weir_ir_function_of(weir_analysis_ctx *cx, const weir_ir_value *v);
WEIR_ANALYSIS_API const char *weir_ir_function_name(weir_analysis_ctx *cx, const weir_ir_function *fn,
                                                    size_t *length);
WEIR_ANALYSIS_API uint32_t weir_ir_param_count(weir_analysis_ctx *cx, const weir_ir_function *fn);
WEIR_ANALYSIS_API const weir_ir_value *weir_ir_param(weir_analysis_ctx *cx, const weir_ir_function *fn, uint32_t k);
WEIR_ANALYSIS_API int weir_ir_function_is_defined(weir_analysis_ctx *cx, const weir_ir_function *fn);

/* ---- the memory model (whole program, flow- and context-insensitive) ------ */
typedef enum weir_mem_kind {
  WEIR_MEM_STACK = 0, WEIR_MEM_GLOBAL = 1, WEIR_MEM_HEAP = 2, WEIR_MEM_CONSTANT = 3, WEIR_MEM_FUNCTION = 4,
  WEIR_MEM_EXTERNAL = 5 /* made outside the module: argv, what unknown declarations return */
} weir_mem_kind;

/* Locations `pointer` may point to, sorted (owned by the frontend). */
WEIR_ANALYSIS_API size_t weir_mem_points_to(weir_analysis_ctx *cx, const weir_ir_value *pointer,
                                            const weir_mem_location **out);
/* Locations the pointers stored at `location` may point to. */
WEIR_ANALYSIS_API size_t weir_mem_contents(weir_analysis_ctx *cx, weir_mem_location location,
                                           const weir_mem_location **out);
/* A pointer that may point to more than 8 objects (a container's void *):
 * the built-ins neither write nor report through it. */
WEIR_ANALYSIS_API int weir_mem_is_vague(weir_analysis_ctx *cx, const weir_ir_value *pointer);
WEIR_ANALYSIS_API weir_mem_object weir_mem_object_of(weir_analysis_ctx *cx, weir_mem_location location);
WEIR_ANALYSIS_API uint32_t weir_mem_offset(weir_analysis_ctx *cx, weir_mem_location location);
WEIR_ANALYSIS_API weir_mem_kind weir_mem_object_kind(weir_analysis_ctx *cx, weir_mem_object object);
/* Its locations: [*first, *first + *count). */
WEIR_ANALYSIS_API void weir_mem_object_locations(weir_analysis_ctx *cx, weir_mem_object object,
                                                 weir_mem_location *first, uint32_t *count);
/* The alloca, global or allocation call that makes it (NULL for argv). */
WEIR_ANALYSIS_API const weir_ir_value *weir_mem_object_site(weir_analysis_ctx *cx, weir_mem_object object);
/* The heap object an allocation call (malloc, an allocation wrapper) makes, or WEIR_MEM_NONE. */
WEIR_ANALYSIS_API weir_mem_object weir_mem_allocated_object(weir_analysis_ctx *cx, const weir_ir_value *call);
/* Whether one store through a pointer with this single target overwrites
 * all of it (not an array cell, a heap block or a collapsed object). */
WEIR_ANALYSIS_API int weir_mem_strong(weir_analysis_ctx *cx, weir_mem_location location);
/* Mod/ref of a defined function, over everything it may call. */
WEIR_ANALYSIS_API size_t weir_mem_mod(weir_analysis_ctx *cx, const weir_ir_function *fn, const weir_mem_location **out);
WEIR_ANALYSIS_API size_t weir_mem_ref(weir_analysis_ctx *cx, const weir_ir_function *fn, const weir_mem_location **out);
/* Whether the callees of `call` may touch `location` at this call site (the
 * caller's own locals only when their address is handed over). */
WEIR_ANALYSIS_API int weir_mem_call_may_touch(weir_analysis_ctx *cx, const weir_ir_value *call,
                                              weir_mem_location location);
/* main's argv: the pointer array and the strings (WEIR_MEM_NONE without). */
WEIR_ANALYSIS_API void weir_mem_argv(weir_analysis_ctx *cx, weir_mem_location *array, weir_mem_location *strings);
/* The location in C words ("buf", "s.len", "the block from malloc in f at
 * x.c:12"), NUL-terminated and cut to fit `size`; returns the full length. */
WEIR_ANALYSIS_API size_t weir_mem_describe(weir_analysis_ctx *cx, weir_mem_location location, char *out,
                                           size_t size);

/* ---- additions of ABI 1.1 ----------------------------------------------------
 * What the built-in analyses (taint: frontends/llvm/analyses/taint/taint.c)
 * need beyond 1.0, for any analysis. Same rules as above: a handle or index
 * the call does not know answers 0 / NULL / WEIR_MEM_NONE; a misuse (a call
 * outside the callback it belongs to, a kind of another domain) fails the
 * build with a message. */

/* The program's values: every argument and instruction of the defined
 * functions, in a fixed order (by function, then in block order). */
WEIR_ANALYSIS_API uint32_t weir_ir_value_count(weir_analysis_ctx *cx);
WEIR_ANALYSIS_API const weir_ir_value *weir_ir_value_at(weir_analysis_ctx *cx, uint32_t k);
/* The defined functions (the procedures of the ICFG), in a fixed order, and
 * the index of one in it (UINT32_MAX for a declaration or NULL). */
WEIR_ANALYSIS_API uint32_t weir_ir_function_count(weir_analysis_ctx *cx);
WEIR_ANALYSIS_API const weir_ir_function *weir_ir_function_at(weir_analysis_ctx *cx, uint32_t k);
WEIR_ANALYSIS_API uint32_t weir_ir_function_index(weir_analysis_ctx *cx, const weir_ir_function *fn);
/* Whether the function takes `...`. */
WEIR_ANALYSIS_API int weir_ir_function_is_variadic(weir_analysis_ctx *cx, const weir_ir_function *fn);
/* The first instruction of a defined function (of its entry block). */
WEIR_ANALYSIS_API const weir_ir_value *weir_ir_first_instruction(weir_analysis_ctx *cx, const weir_ir_function *fn);
/* Whether the call goes to call_library (1) rather than to defined callees
 * (call_to_return, call_enter, call_exit) or nowhere (an intrinsic such as
 * llvm.dbg.value: 0). */
WEIR_ANALYSIS_API int weir_ir_call_is_library(weir_analysis_ctx *cx, const weir_ir_value *call);
/* Whether `v` is a pointer to a struct: weir_ir_pointee_is_struct, its own
 * type exactly; weir_ir_points_to_struct after stripping bitcasts and
 * arrays of the struct (a va_list is [1 x struct]). */
WEIR_ANALYSIS_API int weir_ir_pointee_is_struct(weir_analysis_ctx *cx, const weir_ir_value *v);
WEIR_ANALYSIS_API int weir_ir_points_to_struct(weir_analysis_ctx *cx, const weir_ir_value *v);

/* The number of memory locations (weir_mem_location runs 0 .. count-1). */
WEIR_ANALYSIS_API uint32_t weir_mem_location_count(weir_analysis_ctx *cx);
/* The object an alloca, a global or an allocation call makes, or WEIR_MEM_NONE. */
WEIR_ANALYSIS_API weir_mem_object weir_mem_object_of_site(weir_analysis_ctx *cx, const weir_ir_value *site);
/* The rest of the block from `location` on: [location, *end) (the
 * locations after it in its object). */
WEIR_ANALYSIS_API void weir_mem_block(weir_analysis_ctx *cx, weir_mem_location location, weir_mem_location *end);
/* weir_mem_points_to plus `depth` levels of the pointers stored in the whole
 * blocks reached (what a `deep` library rule reads: getline's char **, an
 * argv array), sorted, at most 4096. Owned by the context until the next
 * call of this function. */
WEIR_ANALYSIS_API size_t weir_mem_points_to_deep(weir_analysis_ctx *cx, const weir_ir_value *pointer, int depth,
                                                 const weir_mem_location **out);
/* The locations the defined callees of `call` may write, where this call can
 * touch them (weir_mem_mod of each, filtered by weir_mem_call_may_touch),
 * sorted. Owned by the context until the next call of this function. */
WEIR_ANALYSIS_API size_t weir_mem_call_mod(weir_analysis_ctx *cx, const weir_ir_value *call,
                                           const weir_mem_location **out);
/* What the memory model takes a library call to do (weir's default library
 * table and --config: `alloc`, `free`, `returns`, `copy`, `writes`, `reads`). */
enum {
  WEIR_MEM_ALLOC_NONE = 0, WEIR_MEM_ALLOC_UNINIT = 1 /* malloc */, WEIR_MEM_ALLOC_ZERO = 2 /* calloc */,
  WEIR_MEM_ALLOC_REALLOC = 3, WEIR_MEM_ALLOC_COPY = 4 /* strdup */
};
typedef struct weir_mem_call_info {
  uint32_t known;        /* 1: some rule of the table names the callee */
  uint32_t alloc;        /* WEIR_MEM_ALLOC_* */
  uint32_t alloc_from;   /* realloc, strdup: the argument whose block is copied, else UINT32_MAX */
  uint32_t frees;        /* the argument whose block is released, else UINT32_MAX */
  uint32_t returns_arg;  /* the result points into this argument's block, else UINT32_MAX */
  uint32_t copy_from, copy_to; /* a memory copy (memcpy, strcpy), else UINT32_MAX */
  uint64_t writes, reads;      /* bit k: argument k's memory (bit 63: every argument from 63 on) */
} weir_mem_call_info;
/* Fills *out (all empty for an indirect call or an unknown callee). */
WEIR_ANALYSIS_API void weir_mem_library_call(weir_analysis_ctx *cx, const weir_ir_value *call, weir_mem_call_info *out);

/* Every rule of the analysis' library table of `kind` that names the callee
 * of `call`, in the table's order (weir_analysis_library gives the first
 * that selects one argument); at most `capacity` (16 are looked at). */
enum { WEIR_LIBRARY_COMMAND = 0, WEIR_LIBRARY_FORMAT = 1, WEIR_LIBRARY_PLAIN = 2 }; /* a sink's category */
typedef struct weir_library_rule {
  uint32_t arg;           /* the first argument selected, or WEIR_LIBRARY_RET */
  uint32_t arg_and_after; /* 1: every argument from `arg` on ("arg1+") */
  uint32_t to;            /* TRANSFER: the destination argument */
  uint32_t to_and_after;  /* TRANSFER: 1: every argument from `to` on */
  uint32_t deep;          /* SOURCE, SINK: 1: `deep` (the memory reached through stored pointers too) */
  uint32_t category;      /* SINK: WEIR_LIBRARY_COMMAND, _FORMAT (`command`, `format`) or _PLAIN */
} weir_library_rule;
WEIR_ANALYSIS_API size_t weir_analysis_library_rules(weir_analysis_ctx *cx, const weir_ir_value *call,
                                                     weir_library_kind kind, weir_library_rule *out, size_t capacity);

/* In `number` only: `location`'s fact of the PER_LOCATION kind `kind` is
 * `fact` from now on (a CUSTOM fact made there): several locations then
 * share one fact, which weir_analysis_location_fact gives for each (taint:
 * the targets of vague pointers). The location's own fact stays numbered
 * but is never asked for again. */
WEIR_ANALYSIS_API weir_status weir_analysis_share_location_fact(weir_analysis_ctx *cx, uint32_t kind,
                                                                weir_mem_location location, weir_fact fact);
/* Every location's fact of the PER_LOCATION kind `kind`, indexed by
 * location (*count of them: weir_mem_location_count): what
 * weir_analysis_location_fact gives, without a call per location (an
 * analysis that reads thousands of them per instruction). Valid until the
 * build ends; after `number` it no longer changes. NULL for another kind. */
WEIR_ANALYSIS_API const weir_fact *weir_analysis_location_facts(weir_analysis_ctx *cx, uint32_t kind, uint32_t *count);
/* In `check` only: the start of `fn` generates facts (an `entry` callback's
 * gen): code flows start there, named `name` ("argv"), at the position of
 * its first instruction. */
WEIR_ANALYSIS_API weir_status weir_analysis_entry_source(weir_analysis_ctx *cx, const weir_ir_function *fn,
                                                         const char *name);
/* Every location of `from` and the cells of its block after it flows into
 * the cell at the same relative offset of every block of `to` (a memcpy
 * between two points-to sets), field by field, for the location facts of
 * `kind`: one bundle per offset, so two large sets cost their sum, not
 * their product. */
WEIR_ANALYSIS_API weir_status weir_flow_copy_blocks(weir_flow *flow, uint32_t kind, const weir_mem_location *from,
                                                    size_t from_count, const weir_mem_location *to, size_t to_count);

#ifdef __cplusplus
}
#endif
#endif
