/* The taint analysis on the memory model.
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
 * the library table (analyses/config.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontends/llvm/internal.h"

enum { FACT_VALUE = 0, FACT_LOCATION = 1, FACT_RETURN = 2 };

static uint32_t val(const weir_llvm_ctx *ctx, LLVMValueRef v) {
  uint32_t vid = weir_llvm_vid(ctx, v);
  return vid == WEIR_LLVM_NONE ? 0 : ctx->fact_a[vid];
}

static uint32_t loc(const weir_llvm_ctx *ctx, uint32_t location) { return ctx->loc_fact[location]; }

/* Every fact meaning "v is tainted": its own, and its memory. */
static void flows_from(const weir_llvm_ctx *ctx, LLVMValueRef v, uint32_t to, weir_llvm_flow *flow) {
  weir_llvm_flow_pair(flow, val(ctx, v), to);
  const uint32_t *locs = NULL;
  size_t n = weir_llvm_pts(ctx, v, &locs);
  for (size_t k = 0; k < n; ++k) weir_llvm_flow_pair(flow, loc(ctx, locs[k]), to);
}

/* `from` (0: generate) taints the memory behind `pointer`, the whole block
 * from there on (`depth` levels of stored pointers deep); without a known
 * target, the pointer itself. */
static void taint_memory(weir_llvm_ctx *ctx, LLVMValueRef pointer, uint32_t from, int depth,
                         weir_llvm_flow *flow) {
  weir_llvm_vec targets = {0};
  if (!weir_llvm_pts_vague(ctx, pointer)) weir_llvm_pts_deep(ctx, pointer, depth, &targets);
  size_t direct = targets.n;
  for (size_t k = 0; k < direct && weir_llvm_points_to_struct(pointer); ++k) {
    uint32_t first, end;
    weir_llvm_block(ctx, targets.v[k], &first, &end);
    for (uint32_t l = first + 1; l < end; ++l) weir_llvm_vec_push(&targets, l);
  }
  if (targets.n != direct) weir_llvm_vec_sort_unique(&targets);
  if (targets.failed) ctx->failed = 1;
  uint32_t fallback = targets.n == 0 && weir_llvm_is_pointer(pointer) ? val(ctx, pointer) : 0;
  for (size_t k = 0; k <= targets.n; ++k) {
    uint32_t to = k < targets.n ? loc(ctx, targets.v[k]) : fallback;
    if (from == 0) weir_llvm_flow_gen(flow, to);
    else weir_llvm_flow_pair(flow, from, to);
  }
  weir_llvm_vec_free(&targets);
}

enum { FACT_VARARGS = 3, FACT_SHARED = 4 };

static int is_vararg(LLVMValueRef fn) { return LLVMIsFunctionVarArg(LLVMGlobalGetValueType(fn)); }

static uint32_t class_of(uint32_t *parent, uint32_t l) {
  while (parent[l] != l) l = parent[l] = parent[parent[l]];
  return l;
}

/* The locations one vague pointer may point to (weir_llvm_pts_vague: the
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
static void share_vague_targets(weir_llvm_ctx *ctx) {
  uint32_t locations = weir_llvm_memory_location_count(ctx->memory), size = locations ? locations : 1;
  uint32_t *parent = malloc(size * sizeof *parent);
  uint32_t *members = calloc(size, sizeof *members); /* per class: locations with a fact */
  uint32_t *shared = calloc(size, sizeof *shared);   /* per class: its fact, once made */
  ctx->loc_shared = calloc(size, 1);
  if (!parent || !members || !shared || !ctx->loc_shared) {
    free(parent), free(members), free(shared);
    ctx->failed = 1;
    return;
  }
  for (uint32_t l = 0; l < locations; ++l) parent[l] = l;
  for (uint32_t v = 0; v < ctx->value_count; ++v) {
    if (!weir_llvm_is_pointer(ctx->values[v]) || !weir_llvm_pts_vague(ctx, ctx->values[v])) continue;
    const uint32_t *locs = NULL;
    size_t n = weir_llvm_pts(ctx, ctx->values[v], &locs);
    for (size_t k = 1; k < n; ++k) {
      uint32_t a = class_of(parent, locs[0]), b = class_of(parent, locs[k]);
      if (a != b) parent[a < b ? b : a] = a < b ? a : b;
    }
  }
  for (uint32_t l = 0; l < locations; ++l)
    if (ctx->loc_fact[l]) members[class_of(parent, l)]++;
  for (uint32_t l = 0; l < locations; ++l) {
    uint32_t c = class_of(parent, l);
    if (!ctx->loc_fact[l] || members[c] < 2) continue;
    if (!shared[c]) shared[c] = weir_llvm_new_fact(ctx, FACT_SHARED, l); /* named by its first member */
    ctx->loc_fact[l] = shared[c];
    ctx->loc_shared[l] = 1;
  }
  free(parent), free(members), free(shared);
}

/* Kills the fact of `location` unless other locations share it. */
static void kill_location(const weir_llvm_ctx *ctx, uint32_t location, weir_llvm_flow *flow) {
  if (!ctx->loc_shared || !ctx->loc_shared[location]) weir_llvm_flow_kill(flow, loc(ctx, location));
}

/* A string literal or other constant data, or a function, never holds
 * tainted data in a program that runs (writing there faults): no facts, so
 * an imprecise pointer that "writes" there taints nothing that a literal
 * format string reads. */
static int carries(const weir_llvm_ctx *ctx, uint32_t object) {
  const weir_llvm_object *o = weir_llvm_memory_object(ctx->memory, object);
  return o->kind != WEIR_LLVM_OBJECT_CONSTANT && o->kind != WEIR_LLVM_OBJECT_FUNCTION;
}

static void number(weir_llvm_ctx *ctx) {
  weir_llvm_number_common(ctx, FACT_VALUE, FACT_LOCATION, FACT_RETURN, carries);
  share_vague_targets(ctx);
  /* "one of the arguments passed through `...` is tainted" */
  for (uint32_t p = 0; p < ctx->fn_count; ++p)
    if (is_vararg(ctx->fns[p].fn)) ctx->fns[p].va_fact = weir_llvm_new_fact(ctx, FACT_VARARGS, p);
}

static void describe(weir_llvm_ctx *ctx, uint32_t fact, weir_llvm_text *out) {
  uint32_t kind = ctx->fact_info.v[2 * (fact - 1)], id = ctx->fact_info.v[2 * (fact - 1) + 1];
  if (kind == FACT_RETURN || kind == FACT_VARARGS) {
    size_t length = 0;
    const char *name = LLVMGetValueName2(ctx->fns[id].fn, &length);
    weir_llvm_text_printf(out, "taint %s of %.*s", kind == FACT_RETURN ? "return" : "variadic arguments",
                          (int)length, name);
  } else if (kind == FACT_LOCATION) {
    weir_llvm_text_put(out, "taint memory ", 13);
    weir_llvm_memory_describe(ctx->memory, id, out);
  } else if (kind == FACT_SHARED) {
    uint32_t places = 0, locations = weir_llvm_memory_location_count(ctx->memory);
    for (uint32_t l = 0; l < locations; ++l) places += ctx->loc_fact[l] == fact;
    weir_llvm_text_printf(out, "taint memory behind untyped pointers (%u places, such as ", places);
    weir_llvm_memory_describe(ctx->memory, id, out);
    weir_llvm_text_put(out, ")", 1);
  } else {
    weir_llvm_describe_value(ctx, "taint value", id, out);
  }
}

/* main's argv strings are attacker-controlled from the first instruction. */
static void entry(weir_llvm_ctx *ctx, uint32_t proc, weir_llvm_flow *flow) {
  size_t length = 0;
  const char *name = LLVMGetValueName2(ctx->fns[proc].fn, &length);
  if (length != 4 || memcmp(name, "main", 4) != 0) return;
  uint32_t array = WEIR_LLVM_NONE, strings = WEIR_LLVM_NONE;
  weir_llvm_memory_argv(ctx->memory, &array, &strings);
  if (strings != WEIR_LLVM_NONE) weir_llvm_flow_gen(flow, loc(ctx, strings));
  if (array != WEIR_LLVM_NONE) weir_llvm_flow_gen(flow, loc(ctx, array)); /* pointers to tainted strings */
}

static int selected(const weir_llvm_rule *rule, uint32_t k) {
  return rule->from_on ? k >= rule->arg : k == rule->arg;
}

/* The result of a call points to memory made by this very call (a heap
 * block, or what an unmodelled declaration returns): its locations. */
static void fresh_result_memory(weir_llvm_ctx *ctx, LLVMValueRef call, weir_llvm_vec *out) {
  out->n = 0;
  const uint32_t *locs = NULL;
  size_t n = weir_llvm_pts(ctx, call, &locs);
  for (size_t k = 0; k < n; ++k) {
    weir_llvm_location_info info = weir_llvm_memory_location(ctx->memory, locs[k]);
    if (weir_llvm_memory_object(ctx->memory, info.object)->site == call) weir_llvm_vec_push(out, locs[k]);
  }
}

/* The result is clean and so is the memory behind the pointer arguments
 * (an in-place sanitizer); the argument values themselves stay as they are
 * (a sanitizer that returns a clean copy leaves the original tainted). */
static void sanitize(weir_llvm_ctx *ctx, LLVMValueRef call, weir_llvm_flow *flow) {
  uint32_t args = LLVMGetNumArgOperands(call);
  for (uint32_t k = 0; k < args; ++k) {
    const uint32_t *locs = NULL;
    size_t n = weir_llvm_pts(ctx, LLVMGetOperand(call, k), &locs);
    for (size_t j = 0; j < n; ++j) kill_location(ctx, locs[j], flow);
  }
}

static void sources(weir_llvm_ctx *ctx, LLVMValueRef call, const weir_llvm_rule *const *rules,
                    size_t n, weir_llvm_flow *flow) {
  uint32_t args = LLVMGetNumArgOperands(call);
  for (size_t r = 0; r < n; ++r) {
    int depth = rules[r]->deep ? 2 : 0;
    if (rules[r]->arg != WEIR_LLVM_ARG_RET) {
      for (uint32_t k = 0; k < args; ++k)
        if (selected(rules[r], k)) taint_memory(ctx, LLVMGetOperand(call, k), 0, depth, flow);
    } else if (weir_llvm_is_pointer(call) && depth) {
      taint_memory(ctx, call, 0, depth, flow);
      weir_llvm_flow_gen(flow, val(ctx, call));
    } else {
      weir_llvm_flow_gen(flow, val(ctx, call)); /* getchar, fgetc */
    }
  }
}

/* The memory behind FROM arguments flows into the memory behind TO ones. */
static void transfers(weir_llvm_ctx *ctx, LLVMValueRef call, const weir_llvm_rule *const *rules,
                      size_t n, weir_llvm_flow *flow) {
  uint32_t args = LLVMGetNumArgOperands(call);
  for (size_t r = 0; r < n; ++r) {
    weir_llvm_rule to = {.arg = rules[r]->to_arg % 256, .from_on = rules[r]->to_arg >= 256};
    for (uint32_t k = 0; k < args; ++k) {
      if (!selected(rules[r], k)) continue;
      LLVMValueRef src = LLVMGetOperand(call, k);
      const uint32_t *locs = NULL;
      size_t m = weir_llvm_pts(ctx, src, &locs);
      for (uint32_t d = 0; d < args; ++d) {
        if (!selected(&to, d) || d == k) continue;
        LLVMValueRef dst = LLVMGetOperand(call, d);
        /* from == 0 would mean "generate": a constant source carries nothing. */
        if (val(ctx, src)) taint_memory(ctx, dst, val(ctx, src), 0, flow);
        const uint32_t *dlocs = NULL;
        size_t dn = weir_llvm_pts(ctx, dst, &dlocs);
        if (dn == 0)
          for (size_t j = 0; j < m; ++j) taint_memory(ctx, dst, loc(ctx, locs[j]), 0, flow);
        weir_llvm_copy_blocks(ctx, locs, m, dlocs, dn, flow);
      }
    }
  }
}

/* A call without a defined callee: library rules, and by default "a
 * tainted argument (or its memory) taints the result and the memory the
 * call hands back". */
static void external_call(weir_llvm_ctx *ctx, LLVMValueRef call, weir_llvm_flow *flow) {
  size_t length = 0;
  const char *name = weir_llvm_callee_name(call, &length);
  const weir_llvm_rule *rules[16];
  if (weir_llvm_config_find(ctx->config, WEIR_LLVM_SANITIZER, name, length, rules, 16)) {
    sanitize(ctx, call, flow);
    return;
  }
  uint32_t args = LLVMGetNumArgOperands(call), result = val(ctx, call);
  /* Copied: a later lookup may move the table the model lives in. */
  const weir_llvm_libcall model = *weir_llvm_call_model(ctx, call);
  weir_llvm_vec fresh = {0};
  fresh_result_memory(ctx, call, &fresh);
  for (uint32_t k = 0; k < args; ++k) {
    /* An allocator's block holds nothing of its size (a tainted length
     * makes no tainted data): only realloc's and strdup's source block
     * flows into the new one. */
    if (model.alloc && k != model.alloc_from) continue;
    LLVMValueRef arg = LLVMGetOperand(call, k);
    flows_from(ctx, arg, result, flow);
    for (size_t j = 0; j < fresh.n; ++j) flows_from(ctx, arg, loc(ctx, fresh.v[j]), flow);
  }
  if (fresh.failed) ctx->failed = 1;
  weir_llvm_vec_free(&fresh);
  if (length == 13 && memcmp(name, "llvm.va_start", 13) == 0 && args == 1) {
    /* The va_list now reaches the variadic arguments: their taint is its. */
    uint32_t proc = ctx->value_proc[weir_llvm_vid(ctx, call)];
    if (ctx->fns[proc].va_fact) taint_memory(ctx, LLVMGetOperand(call, 0), ctx->fns[proc].va_fact, 0, flow);
  }
  size_t n = weir_llvm_config_find(ctx->config, WEIR_LLVM_SOURCE, name, length, rules, 16);
  sources(ctx, call, rules, n, flow);
  n = weir_llvm_config_find(ctx->config, WEIR_LLVM_TRANSFER, name, length, rules, 16);
  transfers(ctx, call, rules, n, flow);
}

static void store(weir_llvm_ctx *ctx, LLVMValueRef inst, weir_llvm_flow *flow) {
  LLVMValueRef value = LLVMGetOperand(inst, 0), pointer = LLVMGetOperand(inst, 1);
  const uint32_t *locs = NULL;
  size_t n = weir_llvm_pts_vague(ctx, pointer) ? 0 : weir_llvm_pts(ctx, pointer, &locs);
  if (n == 1 && weir_llvm_strong_target(ctx, locs[0])) kill_location(ctx, locs[0], flow);
  uint32_t from = val(ctx, value);
  for (size_t k = 0; k < n; ++k) weir_llvm_flow_pair(flow, from, loc(ctx, locs[k]));
  if (n == 0) weir_llvm_flow_pair(flow, from, val(ctx, pointer));
}

static void load(weir_llvm_ctx *ctx, LLVMValueRef inst, weir_llvm_flow *flow) {
  LLVMValueRef pointer = LLVMGetOperand(inst, 0);
  uint32_t result = val(ctx, inst);
  weir_llvm_flow_kill(flow, result);
  const uint32_t *locs = NULL;
  size_t n = weir_llvm_pts(ctx, pointer, &locs);
  for (size_t k = 0; k < n; ++k) weir_llvm_flow_pair(flow, loc(ctx, locs[k]), result);
  weir_llvm_flow_pair(flow, val(ctx, pointer), result); /* read through a pointer to tainted data */
}

static void plain(weir_llvm_ctx *ctx, LLVMValueRef inst, weir_llvm_flow *flow) {
  if (LLVMIsACallInst(inst)) {
    weir_llvm_flow_kill(flow, val(ctx, inst));
    external_call(ctx, inst, flow);
  } else if (LLVMIsAStoreInst(inst)) {
    store(ctx, inst, flow);
  } else if (LLVMIsALoadInst(inst)) {
    load(ctx, inst, flow);
  } else if (LLVMIsAReturnInst(inst)) {
    uint32_t proc = ctx->value_proc[weir_llvm_vid(ctx, inst)];
    if (LLVMGetNumOperands(inst) == 1 && ctx->fns[proc].ret_fact) /* a pointer: "points to tainted data" */
      weir_llvm_flow_pair(flow, val(ctx, LLVMGetOperand(inst, 0)), ctx->fns[proc].ret_fact);
  } else if (LLVMIsAAllocaInst(inst)) {
    /* A new frame's memory is clean (an alloca in a loop is fresh each time). */
    uint32_t object = weir_llvm_memory_object_of_site(ctx->memory, inst);
    if (object != WEIR_LLVM_NONE) {
      const weir_llvm_object *o = weir_llvm_memory_object(ctx->memory, object);
      for (uint32_t k = 0; k < o->location_count; ++k) kill_location(ctx, o->first_location + k, flow);
    }
  } else if (val(ctx, inst)) {
    /* Arithmetic, casts, select, compares, aggregates: operands' value
     * taint. A GEP points into its base's block: a tainted index does not
     * make the data it points to tainted. */
    uint32_t result = val(ctx, inst);
    weir_llvm_flow_kill(flow, result);
    int first = LLVMIsASelectInst(inst) ? 1 : 0; /* the condition is an implicit flow */
    int operands = LLVMIsAGetElementPtrInst(inst) ? 1 : LLVMGetNumOperands(inst);
    for (int k = first; k < operands; ++k) weir_llvm_flow_pair(flow, val(ctx, LLVMGetOperand(inst, k)), result);
  }
}

static void move(weir_llvm_ctx *ctx, LLVMValueRef value, LLVMValueRef phi, weir_llvm_flow *flow) {
  uint32_t to = val(ctx, phi);
  weir_llvm_flow_kill(flow, to);
  weir_llvm_flow_pair(flow, val(ctx, value), to);
}


static void call_to_return(weir_llvm_ctx *ctx, LLVMValueRef call, weir_llvm_flow *flow) {
  const weir_llvm_vec *mod = weir_llvm_callee_mod(ctx, call);
  for (size_t k = 0; k < mod->n; ++k) weir_llvm_flow_kill(flow, loc(ctx, mod->v[k]));
  weir_llvm_flow_kill(flow, val(ctx, call));
}

static void callee(weir_llvm_ctx *ctx, LLVMValueRef call, uint32_t proc, weir_llvm_flow *call_flow,
                   weir_llvm_flow *ret_flow) {
  LLVMValueRef fn = ctx->fns[proc].fn;
  uint32_t args = LLVMGetNumArgOperands(call), k = 0;
  /* A pointer argument whose memory is tainted makes the parameter "point
   * to tainted data" (V): in the callee this holds in this calling context
   * only, where the points-to set of the parameter merges every caller. */
  for (LLVMValueRef param = LLVMGetFirstParam(fn); param && k < args; param = LLVMGetNextParam(param), ++k) {
    LLVMValueRef arg = LLVMGetOperand(call, k);
    /* A struct pointer keeps its taint per field, in M only: V would taint
     * every field read through it. */
    if (weir_llvm_is_pointer(param) &&
        LLVMGetTypeKind(LLVMGetElementType(LLVMTypeOf(param))) == LLVMStructTypeKind)
      weir_llvm_flow_pair(call_flow, val(ctx, arg), val(ctx, param));
    else
      flows_from(ctx, arg, val(ctx, param), call_flow);
  }
  for (; k < args && ctx->fns[proc].va_fact; ++k) /* through `...` */
    flows_from(ctx, LLVMGetOperand(call, k), ctx->fns[proc].va_fact, call_flow);
  const weir_llvm_vec *mod = weir_llvm_callee_mod(ctx, call);
  const weir_llvm_vec *reach = weir_llvm_call_reach(ctx, call);
  const uint32_t *ref = NULL;
  size_t refs = weir_llvm_memory_ref(ctx->memory, fn, &ref);
  for (size_t j = 0; j < refs; ++j)
    if (weir_llvm_call_may_touch(ctx, call, reach, ref[j]))
      weir_llvm_flow_pair(call_flow, loc(ctx, ref[j]), loc(ctx, ref[j]));
  for (size_t j = 0; j < mod->n; ++j) {
    uint32_t f = loc(ctx, mod->v[j]);
    weir_llvm_flow_pair(call_flow, f, f);
    weir_llvm_flow_pair(ret_flow, f, f);
  }
  if (ctx->fns[proc].ret_fact) weir_llvm_flow_pair(ret_flow, ctx->fns[proc].ret_fact, val(ctx, call));
}

/* The facts that make argument `arg` of a sink tainted. */
static void sink_facts(weir_llvm_ctx *ctx, LLVMValueRef arg, int deep, weir_llvm_vec *out) {
  weir_llvm_vec locs = {0};
  if (!weir_llvm_pts_vague(ctx, arg)) weir_llvm_pts_deep(ctx, arg, deep ? 2 : 0, &locs);
  out->n = 0;
  uint32_t own = val(ctx, arg); /* 0 for constants (a literal, NULL) */
  if (own) weir_llvm_vec_push(out, own);
  for (size_t k = 0; k < locs.n; ++k)
    if (loc(ctx, locs.v[k])) weir_llvm_vec_push(out, loc(ctx, locs.v[k]));
  if (locs.failed) ctx->failed = 1;
  weir_llvm_vec_free(&locs);
}

/* main's start node generates the argv taint (entry hook): a source too. */
static void note_argv_source(weir_llvm_ctx *ctx, LLVMValueRef inst) {
  LLVMBasicBlockRef block = LLVMGetInstructionParent(inst);
  LLVMValueRef fn = LLVMGetBasicBlockParent(block);
  if (inst != LLVMGetFirstInstruction(LLVMGetEntryBasicBlock(fn))) return;
  size_t length = 0;
  const char *name = LLVMGetValueName2(fn, &length);
  uint32_t array = WEIR_LLVM_NONE, strings = WEIR_LLVM_NONE;
  weir_llvm_memory_argv(ctx->memory, &array, &strings);
  if (length != 4 || memcmp(name, "main", 4) != 0 || strings == WEIR_LLVM_NONE) return;
  uint32_t proc = weir_llvm_map_get(&ctx->fn_index, fn);
  if (proc != WEIR_LLVM_NONE) weir_llvm_add_source(ctx, ctx->fns[proc].first, inst, "argv", 4);
}

static void check(weir_llvm_ctx *ctx, LLVMValueRef inst, uint32_t node) {
  note_argv_source(ctx, inst);
  if (!LLVMIsACallInst(inst) || weir_llvm_classify_call(ctx, inst) != WEIR_LLVM_CALL_EXTERNAL) return;
  size_t length = 0;
  const char *name = weir_llvm_callee_name(inst, &length);
  const weir_llvm_rule *rules[16];
  if (weir_llvm_config_find(ctx->config, WEIR_LLVM_SOURCE, name, length, rules, 16))
    weir_llvm_add_source(ctx, node, inst, name, length);
  size_t n = weir_llvm_config_find(ctx->config, WEIR_LLVM_SINK, name, length, rules, 16);
  uint32_t args = LLVMGetNumArgOperands(inst);
  weir_llvm_vec facts = {0};
  for (uint32_t k = 0; k < args; ++k) {
    const weir_llvm_rule *sink = NULL;
    for (size_t r = 0; r < n && !sink; ++r)
      if (selected(rules[r], k)) sink = rules[r];
    if (!sink) continue;
    sink_facts(ctx, LLVMGetOperand(inst, k), sink->deep, &facts);
    char message[192];
    snprintf(message, sizeof message, "tainted data reaches argument %u of '%.*s'", k + 1,
             (int)(length > 96 ? 96 : length), name);
    weir_llvm_add_rule_check(ctx, (weir_llvm_finding_rule)sink->to_arg, node, facts.v, facts.n, inst,
                             message);
  }
  if (facts.failed) ctx->failed = 1;
  weir_llvm_vec_free(&facts);
}

const weir_llvm_hooks weir_llvm_taint_hooks = {number, entry, plain, move, call_to_return, callee,
                                               check, describe, NULL};
