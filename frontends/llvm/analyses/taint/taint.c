/* The taint analysis, written on the public analysis API
 * (include/weir/analysis.h) and nothing else: no LLVM, no frontend
 * internals. It is registered from api/load.c's static table as a plugin
 * is from its library, and its findings keep the built-in rules
 * (report/rules.c) because the frontend runs it as `taint`.
 *
 * Facts: V(v) per SSA value ("v is tainted"; for a pointer: "v points to
 * tainted data"), M(l) per memory location ("the contents of l are
 * tainted"), R(f) per non-void function ("f returns tainted data"). A
 * pointer is tainted when V(p) holds or M of a location it may point to.
 * V of pointers is what keeps the analysis context-sensitive where the
 * points-to sets are not: getenv's result is V, so a helper returning its
 * argument (`identity(getenv(..))`, `identity("ls")`) taints only the call
 * that passed tainted data, although both results point to both strings.
 *
 * Stores and library calls write through every location a pointer may
 * point to; a store overwrites (kills) only a single stack/global scalar
 * target. Calls pass M(l) into a callee for the locations it may read or
 * write (mod/ref), kill in the caller what it may write, and bring those
 * back from its exit. Sources, sinks, sanitizers and propagators come from
 * the library table (analyses/config.c). Every flow is stated here (no
 * WEIR_FACT_FOLLOW): V facts only die after the value's last use
 * (WEIR_FACT_LIVENESS). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "weir/analysis.h"
#include "weir/status.h"

enum { V = 0, M = 1, R = 2, VARARGS = 3, SHARED = 4 };

static const weir_fact_kind kinds[] = {
    {"taint value", WEIR_FACT_PER_VALUE, WEIR_FACT_LIVENESS, WEIR_ANALYSIS_NO_KIND},
    /* A string literal or other constant data, or a function, never holds
     * tainted data in a program that runs (writing there faults): no facts,
     * so an imprecise pointer that "writes" there taints nothing that a
     * literal format string reads. */
    {"taint memory", WEIR_FACT_PER_LOCATION, WEIR_FACT_WRITABLE_ONLY, WEIR_ANALYSIS_NO_KIND},
    {"taint return", WEIR_FACT_PER_RETURN, 0, WEIR_ANALYSIS_NO_KIND},
    /* "one of the arguments passed through `...` is tainted", per variadic function */
    {"taint variadic arguments of", WEIR_FACT_CUSTOM, 0, WEIR_ANALYSIS_NO_KIND},
    /* the targets of vague pointers (share_vague_targets) */
    {"taint memory behind untyped pointers", WEIR_FACT_CUSTOM, 0, WEIR_ANALYSIS_NO_KIND},
};

/* In the order of the sink categories (WEIR_LIBRARY_COMMAND, _FORMAT,
 * _PLAIN): a sink's category is the rule of its findings. As a built-in,
 * SARIF takes their texts from report/rules.c; these are the same ids. */
static const weir_analysis_rule taint_rules[] = {
    {"weir-taint-command-injection", "CommandInjection", "78", WEIR_SEVERITY_ERROR, "9.8",
     "Untrusted data reaches a command that a shell or exec runs", NULL},
    {"weir-taint-format-string", "UncontrolledFormatString", "134", WEIR_SEVERITY_ERROR, "9.3",
     "Untrusted data is used as a printf-style format string", NULL},
    {"weir-taint", "TaintedDataReachesSink", "20", WEIR_SEVERITY_WARNING, "7.5",
     "Untrusted data reaches a configured sink", NULL},
};

/* A growable set of locations or facts. */
typedef struct ids {
  uint32_t *v;
  size_t n, cap;
} ids;

typedef struct taint_state {
  const weir_fact *m;  /* [locations] M facts (weir_analysis_location_facts), after numbering */
  uint8_t *shared;   /* [locations] 1: its fact stands for several locations (never killed) */
  weir_fact *va;     /* [functions] VARARGS fact of a variadic function, else 0 */
  ids targets, facts, fresh;
  int failed;        /* no memory: reported once, after the callback */
} taint_state;

static void push(taint_state *st, ids *s, uint32_t x) {
  if (s->n == s->cap) {
    size_t cap = s->cap ? 2 * s->cap : 64;
    uint32_t *grown = realloc(s->v, cap * sizeof *grown);
    if (!grown) {
      st->failed = 1;
      return;
    }
    s->v = grown, s->cap = cap;
  }
  s->v[s->n++] = x;
}

static int by_value(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return (x > y) - (x < y);
}

static void sort_unique(ids *s) {
  if (s->n < 2) return;
  qsort(s->v, s->n, sizeof *s->v, by_value);
  size_t out = 1;
  for (size_t k = 1; k < s->n; ++k)
    if (s->v[k] != s->v[out - 1]) s->v[out++] = s->v[k];
  s->n = out;
}

static taint_state *state(weir_analysis_ctx *cx) { return weir_analysis_state(cx); }

/* A callback that ran out of memory gives up with a message (the build fails). */
static void give_up_if_failed(taint_state *st, const char *where) {
  if (st->failed)
    weir_fail(WEIR_ERR_OUT_OF_MEMORY, "taint: no memory in %s. Fix: free memory, or analyse fewer modules", where);
}

static weir_fact val(weir_analysis_ctx *cx, const weir_ir_value *v) { return weir_analysis_value_fact(cx, V, v); }
/* M(l): from the table once numbering is done (a call per location cost
 * 5 % of the frontend on ovsdb-server). */
static weir_fact loc(weir_analysis_ctx *cx, weir_mem_location l) {
  const taint_state *st = weir_analysis_state(cx);
  return st->m ? st->m[l] : weir_analysis_location_fact(cx, M, l);
}

static int is_named(weir_analysis_ctx *cx, const weir_ir_function *fn, const char *name) {
  size_t length = 0;
  const char *own = weir_ir_function_name(cx, fn, &length);
  return length == strlen(name) && memcmp(own, name, length) == 0;
}

static int selected(const weir_library_rule *rule, uint32_t k) {
  return rule->arg_and_after ? k >= rule->arg : k == rule->arg;
}

/* ---- numbering ------------------------------------------------------------ */

static uint32_t class_of(uint32_t *parent, uint32_t l) {
  while (parent[l] != l) l = parent[l] = parent[parent[l]];
  return l;
}

/* The shared fact's name: "(N places, such as <its first member>)". */
static weir_fact new_shared_fact(weir_analysis_ctx *cx, uint32_t places, weir_mem_location first) {
  size_t length = weir_mem_describe(cx, first, NULL, 0);
  char *text = malloc(length + 64), *where = malloc(length + 1);
  weir_fact fact = 0;
  if (text && where) {
    weir_mem_describe(cx, first, where, length + 1);
    snprintf(text, length + 64, "(%u places, such as %s)", places, where);
    weir_analysis_new_fact(cx, SHARED, text, &fact);
  } else {
    state(cx)->failed = 1;
  }
  free(text), free(where);
  return fact;
}

/* The locations one vague pointer may point to (weir_mem_is_vague: the
 * OCaml runtime's `value`s cast to pointers, a container's `void *`) share
 * one fact, and so, transitively, do the targets of vague pointers whose
 * sets overlap. A read through such a pointer reads all of them and a
 * memcpy between two pairs each with each; with a fact per location every
 * procedure that touches them is solved once per tainted location at its
 * entry, which is what stopped ocamlrun's taint at 805 M path edges. One
 * fact says "some of these places may hold tainted data": what a read
 * through the vague pointer already concluded, now also for a read of one
 * of them through a precise pointer (coarser there); a shared fact is never
 * killed (a store into one place leaves the others as they were). */
static void share_vague_targets(weir_analysis_ctx *cx, taint_state *st) {
  uint32_t locations = weir_mem_location_count(cx), size = locations ? locations : 1;
  uint32_t *parent = malloc(size * sizeof *parent);
  uint32_t *members = calloc(size, sizeof *members); /* per class: locations with a fact */
  weir_fact *shared = calloc(size, sizeof *shared);  /* per class: its fact, once made */
  st->shared = calloc(size, 1);
  if (!parent || !members || !shared || !st->shared) {
    free(parent), free(members), free(shared);
    st->failed = 1;
    return;
  }
  for (uint32_t l = 0; l < locations; ++l) parent[l] = l;
  for (uint32_t v = 0, values = weir_ir_value_count(cx); v < values; ++v) {
    const weir_ir_value *value = weir_ir_value_at(cx, v);
    if (!weir_ir_is_pointer(cx, value) || !weir_mem_is_vague(cx, value)) continue;
    const weir_mem_location *locs = NULL;
    size_t n = weir_mem_points_to(cx, value, &locs);
    for (size_t k = 1; k < n; ++k) {
      uint32_t a = class_of(parent, locs[0]), b = class_of(parent, locs[k]);
      if (a != b) parent[a < b ? b : a] = a < b ? a : b;
    }
  }
  for (uint32_t l = 0; l < locations; ++l)
    if (loc(cx, l)) members[class_of(parent, l)]++;
  for (uint32_t l = 0; l < locations; ++l) {
    uint32_t c = class_of(parent, l);
    if (!loc(cx, l) || members[c] < 2) continue;
    if (!shared[c]) shared[c] = new_shared_fact(cx, members[c], l); /* named by its first member */
    weir_analysis_share_location_fact(cx, M, l, shared[c]);
    st->shared[l] = 1;
  }
  free(parent), free(members), free(shared);
}

static void number(weir_analysis_ctx *cx) {
  taint_state *st = state(cx);
  share_vague_targets(cx, st);
  uint32_t functions = weir_ir_function_count(cx);
  st->va = calloc(functions ? functions : 1, sizeof *st->va);
  if (!st->va) st->failed = 1;
  for (uint32_t p = 0; p < functions && st->va; ++p) {
    const weir_ir_function *fn = weir_ir_function_at(cx, p);
    if (!weir_ir_function_is_variadic(cx, fn)) continue;
    size_t length = 0;
    const char *name = weir_ir_function_name(cx, fn, &length);
    char *copy = malloc(length + 1);
    if (!copy) {
      st->failed = 1;
      break;
    }
    memcpy(copy, name, length);
    copy[length] = 0;
    weir_analysis_new_fact(cx, VARARGS, copy, &st->va[p]);
    free(copy);
  }
  uint32_t count = 0;
  st->m = weir_analysis_location_facts(cx, M, &count);
  give_up_if_failed(st, "numbering");
}

static weir_fact va_fact(weir_analysis_ctx *cx, const weir_ir_function *fn) {
  uint32_t p = weir_ir_function_index(cx, fn);
  taint_state *st = state(cx);
  return p < weir_ir_function_count(cx) && st->va ? st->va[p] : 0;
}

/* Kills the fact of `location` unless other locations share it. */
static void kill_location(weir_analysis_ctx *cx, weir_mem_location l, weir_flow *flow) {
  taint_state *st = state(cx);
  if (!st->shared || !st->shared[l]) weir_flow_kill(flow, loc(cx, l));
}

/* ---- transfers ------------------------------------------------------------ */

/* Every fact meaning "v is tainted": its own, and its memory. */
static void flows_from(weir_analysis_ctx *cx, const weir_ir_value *v, weir_fact to, weir_flow *flow) {
  weir_flow_pair(flow, val(cx, v), to);
  const weir_mem_location *locs = NULL;
  size_t n = weir_mem_points_to(cx, v, &locs);
  for (size_t k = 0; k < n; ++k) weir_flow_pair(flow, loc(cx, locs[k]), to);
}

/* `from` (0: generate) taints the memory behind `pointer`, the whole block
 * from there on (`depth` levels of stored pointers deep); without a known
 * target, the pointer itself. */
static void taint_memory(weir_analysis_ctx *cx, const weir_ir_value *pointer, weir_fact from, int depth,
                         weir_flow *flow) {
  taint_state *st = state(cx);
  ids *targets = &st->targets;
  targets->n = 0;
  if (!weir_mem_is_vague(cx, pointer)) {
    const weir_mem_location *locs = NULL;
    size_t n = weir_mem_points_to_deep(cx, pointer, depth, &locs);
    for (size_t k = 0; k < n; ++k) push(st, targets, locs[k]);
  }
  size_t direct = targets->n;
  for (size_t k = 0; k < direct && weir_ir_points_to_struct(cx, pointer); ++k) {
    weir_mem_location end;
    weir_mem_block(cx, targets->v[k], &end);
    for (uint32_t l = targets->v[k] + 1; l < end; ++l) push(st, targets, l);
  }
  if (targets->n != direct) sort_unique(targets);
  weir_fact fallback = targets->n == 0 && weir_ir_is_pointer(cx, pointer) ? val(cx, pointer) : 0;
  for (size_t k = 0; k <= targets->n; ++k) {
    weir_fact to = k < targets->n ? loc(cx, targets->v[k]) : fallback;
    if (from == 0) weir_flow_gen(flow, to);
    else weir_flow_pair(flow, from, to);
  }
}

/* main's argv strings are attacker-controlled from the first instruction. */
static void entry(weir_analysis_ctx *cx, const weir_ir_function *fn, weir_flow *flow) {
  if (!is_named(cx, fn, "main")) return;
  weir_mem_location array, strings;
  weir_mem_argv(cx, &array, &strings);
  if (strings != WEIR_MEM_NONE) weir_flow_gen(flow, loc(cx, strings));
  if (array != WEIR_MEM_NONE) weir_flow_gen(flow, loc(cx, array)); /* pointers to tainted strings */
}

/* The result of a call points to memory made by this very call (a heap
 * block, or what an unmodelled declaration returns): its locations. */
static void fresh_result_memory(weir_analysis_ctx *cx, const weir_ir_value *call, ids *out) {
  out->n = 0;
  const weir_mem_location *locs = NULL;
  size_t n = weir_mem_points_to(cx, call, &locs);
  for (size_t k = 0; k < n; ++k)
    if (weir_mem_object_site(cx, weir_mem_object_of(cx, locs[k])) == call) push(state(cx), out, locs[k]);
}

/* The result is clean and so is the memory behind the pointer arguments
 * (an in-place sanitizer); the argument values themselves stay as they are
 * (a sanitizer that returns a clean copy leaves the original tainted). */
static void sanitize(weir_analysis_ctx *cx, const weir_ir_value *call, weir_flow *flow) {
  uint32_t args = weir_ir_call_arg_count(cx, call);
  for (uint32_t k = 0; k < args; ++k) {
    const weir_mem_location *locs = NULL;
    size_t n = weir_mem_points_to(cx, weir_ir_call_arg(cx, call, k), &locs);
    for (size_t j = 0; j < n; ++j) kill_location(cx, locs[j], flow);
  }
}

static void sources(weir_analysis_ctx *cx, const weir_ir_value *call, const weir_library_rule *rules, size_t n,
                    weir_flow *flow) {
  uint32_t args = weir_ir_call_arg_count(cx, call);
  for (size_t r = 0; r < n; ++r) {
    int depth = rules[r].deep ? 2 : 0;
    if (rules[r].arg != WEIR_LIBRARY_RET) {
      for (uint32_t k = 0; k < args; ++k)
        if (selected(&rules[r], k)) taint_memory(cx, weir_ir_call_arg(cx, call, k), 0, depth, flow);
    } else if (weir_ir_is_pointer(cx, call) && depth) {
      taint_memory(cx, call, 0, depth, flow);
      weir_flow_gen(flow, val(cx, call));
    } else {
      weir_flow_gen(flow, val(cx, call)); /* getchar, fgetc */
    }
  }
}

/* The memory behind FROM arguments flows into the memory behind TO ones. */
static void transfers(weir_analysis_ctx *cx, const weir_ir_value *call, const weir_library_rule *rules, size_t n,
                      weir_flow *flow) {
  uint32_t args = weir_ir_call_arg_count(cx, call);
  for (size_t r = 0; r < n; ++r) {
    weir_library_rule to = {.arg = rules[r].to, .arg_and_after = rules[r].to_and_after};
    for (uint32_t k = 0; k < args; ++k) {
      if (!selected(&rules[r], k)) continue;
      const weir_ir_value *src = weir_ir_call_arg(cx, call, k);
      const weir_mem_location *locs = NULL;
      size_t m = weir_mem_points_to(cx, src, &locs);
      for (uint32_t d = 0; d < args; ++d) {
        if (!selected(&to, d) || d == k) continue;
        const weir_ir_value *dst = weir_ir_call_arg(cx, call, d);
        /* from == 0 would mean "generate": a constant source carries nothing. */
        if (val(cx, src)) taint_memory(cx, dst, val(cx, src), 0, flow);
        const weir_mem_location *dlocs = NULL;
        size_t dn = weir_mem_points_to(cx, dst, &dlocs);
        if (dn == 0)
          for (size_t j = 0; j < m; ++j) taint_memory(cx, dst, loc(cx, locs[j]), 0, flow);
        weir_flow_copy_blocks(flow, M, locs, m, dlocs, dn);
      }
    }
  }
}

static int callee_is(weir_analysis_ctx *cx, const weir_ir_value *call, const char *name) {
  size_t length = 0;
  const char *own = weir_ir_callee_name(cx, call, &length);
  return length == strlen(name) && memcmp(own, name, length) == 0;
}

/* A call without a defined callee: library rules, and by default "a
 * tainted argument (or its memory) taints the result and the memory the
 * call hands back". */
static void call_library(weir_analysis_ctx *cx, const weir_ir_value *call, weir_flow *flow) {
  taint_state *st = state(cx);
  weir_flow_kill(flow, val(cx, call));
  weir_library_rule rules[16];
  if (weir_analysis_library_rules(cx, call, WEIR_LIBRARY_SANITIZER, rules, 16)) {
    sanitize(cx, call, flow);
    return;
  }
  uint32_t args = weir_ir_call_arg_count(cx, call);
  weir_fact result = val(cx, call);
  weir_mem_call_info model;
  weir_mem_library_call(cx, call, &model);
  fresh_result_memory(cx, call, &st->fresh);
  for (uint32_t k = 0; k < args; ++k) {
    /* An allocator's block holds nothing of its size (a tainted length
     * makes no tainted data): only realloc's and strdup's source block
     * flows into the new one. */
    if (model.alloc && k != model.alloc_from) continue;
    const weir_ir_value *arg = weir_ir_call_arg(cx, call, k);
    flows_from(cx, arg, result, flow);
    for (size_t j = 0; j < st->fresh.n; ++j) flows_from(cx, arg, loc(cx, st->fresh.v[j]), flow);
  }
  if (args == 1 && callee_is(cx, call, "llvm.va_start")) {
    /* The va_list now reaches the variadic arguments: their taint is its. */
    weir_fact va = va_fact(cx, weir_ir_function_of(cx, call));
    if (va) taint_memory(cx, weir_ir_call_arg(cx, call, 0), va, 0, flow);
  }
  size_t n = weir_analysis_library_rules(cx, call, WEIR_LIBRARY_SOURCE, rules, 16);
  sources(cx, call, rules, n, flow);
  n = weir_analysis_library_rules(cx, call, WEIR_LIBRARY_TRANSFER, rules, 16);
  transfers(cx, call, rules, n, flow);
  give_up_if_failed(st, "a library call's flow");
}

static void store(weir_analysis_ctx *cx, const weir_ir_value *inst, weir_flow *flow) {
  const weir_ir_value *value = weir_ir_operand(cx, inst, 0), *pointer = weir_ir_operand(cx, inst, 1);
  const weir_mem_location *locs = NULL;
  size_t n = weir_mem_is_vague(cx, pointer) ? 0 : weir_mem_points_to(cx, pointer, &locs);
  if (n == 1 && weir_mem_strong(cx, locs[0])) kill_location(cx, locs[0], flow);
  weir_fact from = val(cx, value);
  for (size_t k = 0; k < n; ++k) weir_flow_pair(flow, from, loc(cx, locs[k]));
  if (n == 0) weir_flow_pair(flow, from, val(cx, pointer));
}

static void load(weir_analysis_ctx *cx, const weir_ir_value *inst, weir_flow *flow) {
  const weir_ir_value *pointer = weir_ir_operand(cx, inst, 0);
  weir_fact result = val(cx, inst);
  weir_flow_kill(flow, result);
  const weir_mem_location *locs = NULL;
  size_t n = weir_mem_points_to(cx, pointer, &locs);
  for (size_t k = 0; k < n; ++k) weir_flow_pair(flow, loc(cx, locs[k]), result);
  weir_flow_pair(flow, val(cx, pointer), result); /* read through a pointer to tainted data */
}

static void ret(weir_analysis_ctx *cx, const weir_ir_value *inst, weir_flow *flow) {
  if (weir_ir_operand_count(cx, inst) != 1) return;
  weir_fact to = weir_analysis_return_fact(cx, R, weir_ir_function_of(cx, inst));
  if (to) weir_flow_pair(flow, val(cx, weir_ir_operand(cx, inst, 0)), to); /* a pointer: "points to tainted data" */
}

static void other(weir_analysis_ctx *cx, const weir_ir_value *inst, weir_flow *flow) {
  weir_ir_kind kind = weir_ir_kind_of(cx, inst);
  weir_fact result = val(cx, inst);
  if (kind == WEIR_IR_ALLOCA) {
    /* A new frame's memory is clean (an alloca in a loop is fresh each time). */
    weir_mem_object object = weir_mem_object_of_site(cx, inst);
    weir_mem_location first;
    uint32_t count;
    weir_mem_object_locations(cx, object, &first, &count);
    for (uint32_t k = 0; k < count; ++k) kill_location(cx, first + k, flow);
  } else if (result) {
    /* Arithmetic, casts, select, compares, aggregates: operands' value
     * taint. A GEP points into its base's block: a tainted index does not
     * make the data it points to tainted. */
    weir_flow_kill(flow, result);
    uint32_t first = kind == WEIR_IR_SELECT ? 1 : 0; /* the condition is an implicit flow */
    uint32_t operands = kind == WEIR_IR_GEP ? 1 : weir_ir_operand_count(cx, inst);
    for (uint32_t k = first; k < operands; ++k) weir_flow_pair(flow, val(cx, weir_ir_operand(cx, inst, k)), result);
  }
}

static void phi(weir_analysis_ctx *cx, const weir_ir_value *node, const weir_ir_value *incoming, weir_flow *flow) {
  weir_fact to = val(cx, node);
  weir_flow_kill(flow, to);
  weir_flow_pair(flow, val(cx, incoming), to);
}

static void call_to_return(weir_analysis_ctx *cx, const weir_ir_value *call, weir_flow *flow) {
  const weir_mem_location *mod = NULL;
  size_t n = weir_mem_call_mod(cx, call, &mod);
  for (size_t k = 0; k < n; ++k) weir_flow_kill(flow, loc(cx, mod[k])); /* shared ones too */
  weir_flow_kill(flow, val(cx, call));
}

static void call_enter(weir_analysis_ctx *cx, const weir_ir_value *call, const weir_ir_function *callee,
                       weir_flow *flow) {
  uint32_t args = weir_ir_call_arg_count(cx, call), params = weir_ir_param_count(cx, callee), k = 0;
  /* A pointer argument whose memory is tainted makes the parameter "point
   * to tainted data" (V): in the callee this holds in this calling context
   * only, where the points-to set of the parameter merges every caller. */
  for (; k < params && k < args; ++k) {
    const weir_ir_value *param = weir_ir_param(cx, callee, k), *arg = weir_ir_call_arg(cx, call, k);
    /* A struct pointer keeps its taint per field, in M only: V would taint
     * every field read through it. */
    if (weir_ir_pointee_is_struct(cx, param)) weir_flow_pair(flow, val(cx, arg), val(cx, param));
    else flows_from(cx, arg, val(cx, param), flow);
  }
  weir_fact va = va_fact(cx, callee);
  for (; k < args && va; ++k) flows_from(cx, weir_ir_call_arg(cx, call, k), va, flow); /* through `...` */
  const weir_mem_location *ref = NULL, *mod = NULL;
  size_t refs = weir_mem_ref(cx, callee, &ref);
  for (size_t j = 0; j < refs; ++j)
    if (weir_mem_call_may_touch(cx, call, ref[j])) weir_flow_pair(flow, loc(cx, ref[j]), loc(cx, ref[j]));
  size_t mods = weir_mem_call_mod(cx, call, &mod);
  for (size_t j = 0; j < mods; ++j) weir_flow_pair(flow, loc(cx, mod[j]), loc(cx, mod[j]));
}

static void call_exit(weir_analysis_ctx *cx, const weir_ir_value *call, const weir_ir_function *callee,
                      weir_flow *flow) {
  const weir_mem_location *mod = NULL;
  size_t mods = weir_mem_call_mod(cx, call, &mod);
  for (size_t j = 0; j < mods; ++j) weir_flow_pair(flow, loc(cx, mod[j]), loc(cx, mod[j]));
  weir_fact returned = weir_analysis_return_fact(cx, R, callee);
  if (returned) weir_flow_pair(flow, returned, val(cx, call));
}

/* ---- findings ------------------------------------------------------------- */

/* The facts that make argument `arg` of a sink tainted. */
static void sink_facts(weir_analysis_ctx *cx, const weir_ir_value *arg, int deep, ids *out) {
  taint_state *st = state(cx);
  out->n = 0;
  weir_fact own = val(cx, arg); /* 0 for constants (a literal, NULL) */
  if (own) push(st, out, own);
  if (weir_mem_is_vague(cx, arg)) return;
  const weir_mem_location *locs = NULL;
  size_t n = weir_mem_points_to_deep(cx, arg, deep ? 2 : 0, &locs);
  for (size_t k = 0; k < n; ++k)
    if (loc(cx, locs[k])) push(st, out, loc(cx, locs[k]));
}

/* main's start node generates the argv taint (entry): a source too. */
static void note_argv_source(weir_analysis_ctx *cx, const weir_ir_value *inst) {
  const weir_ir_function *fn = weir_ir_function_of(cx, inst);
  if (!fn || inst != weir_ir_first_instruction(cx, fn) || !is_named(cx, fn, "main")) return;
  weir_mem_location array, strings;
  weir_mem_argv(cx, &array, &strings);
  if (strings != WEIR_MEM_NONE) weir_analysis_entry_source(cx, fn, "argv");
}

static void note_source(weir_analysis_ctx *cx, const weir_ir_value *call, const char *name, size_t length) {
  char *copy = malloc(length + 1);
  if (!copy) {
    state(cx)->failed = 1;
    return;
  }
  memcpy(copy, name, length);
  copy[length] = 0;
  weir_analysis_source(cx, call, copy);
  free(copy);
}

static void check(weir_analysis_ctx *cx, const weir_ir_value *inst) {
  taint_state *st = state(cx);
  note_argv_source(cx, inst);
  if (weir_ir_kind_of(cx, inst) != WEIR_IR_CALL || !weir_ir_call_is_library(cx, inst)) return;
  size_t length = 0;
  const char *name = weir_ir_callee_name(cx, inst, &length);
  weir_library_rule rules[16];
  if (weir_analysis_library_rules(cx, inst, WEIR_LIBRARY_SOURCE, rules, 16)) note_source(cx, inst, name, length);
  size_t n = weir_analysis_library_rules(cx, inst, WEIR_LIBRARY_SINK, rules, 16);
  uint32_t args = weir_ir_call_arg_count(cx, inst);
  for (uint32_t k = 0; k < args; ++k) {
    const weir_library_rule *sink = NULL;
    for (size_t r = 0; r < n && !sink; ++r)
      if (selected(&rules[r], k)) sink = &rules[r];
    if (!sink) continue;
    sink_facts(cx, weir_ir_call_arg(cx, inst, k), sink->deep, &st->facts);
    char message[192];
    snprintf(message, sizeof message, "tainted data reaches argument %u of '%.*s'", k + 1,
             (int)(length > 96 ? 96 : length), name);
    weir_analysis_report(cx, inst, sink->category, st->facts.v, st->facts.n, message);
  }
  give_up_if_failed(st, "the checks");
}

/* ---- state ------------------------------------------------------------------ */

static weir_status init(weir_analysis_ctx *cx, void **out) {
  (void)cx;
  *out = calloc(1, sizeof(taint_state));
  return *out ? WEIR_OK : weir_fail(WEIR_ERR_OUT_OF_MEMORY, "taint: no memory for its state. Fix: free memory");
}

static void fini(void *p) {
  taint_state *st = p;
  if (!st) return;
  free(st->shared), free(st->va);
  free(st->targets.v), free(st->facts.v), free(st->fresh.v);
  free(st);
}

static const weir_analysis taint = {
    .abi_version = WEIR_ANALYSIS_ABI_VERSION,
    .id = "taint",
    .description = "untrusted data reaching commands, format strings and configured sinks",
    .kinds = kinds,
    .kind_count = sizeof kinds / sizeof kinds[0],
    .rules = taint_rules,
    .rule_count = sizeof taint_rules / sizeof taint_rules[0],
    .init = init,
    .fini = fini,
    .number = number,
    .entry = entry,
    .store = store,
    .load = load,
    .call_library = call_library,
    .call_to_return = call_to_return,
    .call_enter = call_enter,
    .call_exit = call_exit,
    .ret = ret,
    .phi = phi,
    .other = other,
    .check = check,
};

/* The register function of the static table in api/load.c. */
const weir_analysis *weir_llvm_taint_analysis(void);
const weir_analysis *weir_llvm_taint_analysis(void) { return &taint; }
