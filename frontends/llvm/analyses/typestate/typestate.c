/* The typestate analysis: an IDE problem of the typestate family.
 *
 * Facts (weir_llvm_number_common): V(v) per SSA value ("v is a tracked
 * resource"), M(l) per memory location ("l holds one", or for a memory
 * resource such as a mutex "l is one"), R(f) per function ("f returns
 * one"). They flow like taint's (stores, loads, casts, phis, arguments,
 * returns); every pair carries the identity except at the calls the spec
 * names, where the spec's transition of that argument applies to the facts
 * that stand for the resource passed (aliases.c's rule below). A finding
 * is a check at such a call whose fact may be in an error state there. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontends/llvm/analyses/typestate/spec.h"
#include "frontends/llvm/internal.h"
#include "frontends/llvm/report/report.h"
#include "weir/ide.h"

enum { FACT_VALUE = 0, FACT_LOCATION = 1, FACT_RETURN = 2 };

static const weir_ts_spec *spec_of(const weir_llvm_ctx *ctx) { return ctx->config->typestate; }

static uint32_t val(const weir_llvm_ctx *ctx, LLVMValueRef v) {
  uint32_t vid = weir_llvm_vid(ctx, v);
  return vid == WEIR_LLVM_NONE ? 0 : ctx->fact_a[vid];
}

static uint32_t loc(const weir_llvm_ctx *ctx, uint32_t location) { return ctx->loc_fact[location]; }

static int carries(const weir_llvm_ctx *ctx, uint32_t object) {
  const weir_llvm_object *o = weir_llvm_memory_object(ctx->memory, object);
  return o->kind != WEIR_LLVM_OBJECT_CONSTANT && o->kind != WEIR_LLVM_OBJECT_FUNCTION;
}

/* Interns `fn` in the problem's table (few distinct functions: a spec has
 * a handful of transitions); its index, 0 on failure (the identity). */
static uint32_t intern_fn(weir_llvm_ctx *ctx, const weir_ide_fn *fn) {
  weir_llvm_problem *out = ctx->out;
  for (uint32_t k = 0; k < out->ts_fn_count; ++k)
    if (memcmp(&out->ts_fns[k], fn, sizeof *fn) == 0) return k;
  weir_ide_fn *grown = realloc(out->ts_fns, (out->ts_fn_count + 1) * sizeof *grown);
  if (!grown) return ctx->failed = 1, 0;
  out->ts_fns = grown;
  out->ts_fns[out->ts_fn_count] = *fn;
  return out->ts_fn_count++;
}

static char *dup(weir_llvm_ctx *ctx, const char *s) {
  return weir_llvm_strndup(s, strlen(s), &ctx->out->failed);
}

/* The spec's error rules as the problem's rules (SARIF reportingDescriptors),
 * owned copies like a plugin's; a check's rule indexes them. */
static void spec_rules(weir_llvm_ctx *ctx) {
  const weir_ts_spec *spec = spec_of(ctx);
  weir_llvm_problem *out = ctx->out;
  out->plugin_rules = calloc(spec->rule_count ? spec->rule_count : 1, sizeof *out->plugin_rules);
  if (!out->plugin_rules) return (void)(out->failed = 1);
  for (uint32_t r = 0; r < spec->rule_count; ++r) {
    const char *msg = "a call in a state the typestate spec forbids";
    for (size_t e = 0; e < spec->count; ++e)
      if (spec->entries[e].kind == WEIR_TS_ERROR && spec->entries[e].rule == r) msg = spec->entries[e].message;
    char help[400];
    snprintf(help, sizeof help, "%s (typestate spec '%s'). Follow the code flow from where the resource "
             "was created and make each call happen in a state the spec allows.", msg, spec->name);
    weir_llvm_rule_info *i = &out->plugin_rules[r];
    *i = (weir_llvm_rule_info){dup(ctx, spec->rules[r].id), dup(ctx, "TypestateViolation"), dup(ctx, spec->rules[r].cwe),
                               dup(ctx, "error"), dup(ctx, "7.0"), dup(ctx, msg), dup(ctx, help), dup(ctx, help),
                               dup(ctx, help), dup(ctx, "TypestateViolation"), dup(ctx, msg)};
  }
  out->plugin_rule_count = spec->rule_count;
}

static void number(weir_llvm_ctx *ctx) {
  spec_rules(ctx);
  weir_llvm_number_common(ctx, FACT_VALUE, FACT_LOCATION, FACT_RETURN, carries);
  ctx->out->ts_states = spec_of(ctx)->state_count;
  weir_ide_fn id = weir_ide_fn_identity(WEIR_IDE_TYPESTATE, ctx->out->ts_states);
  intern_fn(ctx, &id); /* function 0: the identity */
}

static void describe(weir_llvm_ctx *ctx, uint32_t fact, weir_llvm_text *out) {
  uint32_t kind = ctx->fact_info.v[2 * (fact - 1)], id = ctx->fact_info.v[2 * (fact - 1) + 1];
  if (kind == FACT_RETURN) {
    size_t length = 0;
    const char *name = LLVMGetValueName2(ctx->fns[id].fn, &length);
    weir_llvm_text_printf(out, "%s resource returned by %.*s", spec_of(ctx)->name, (int)length, name);
  } else if (kind == FACT_LOCATION) {
    weir_llvm_text_printf(out, "%s resource in ", spec_of(ctx)->name);
    weir_llvm_memory_describe(ctx->memory, id, out);
  } else {
    weir_llvm_describe_value(ctx, "resource value", id, out);
  }
}

/* Pair from -> to carrying function `fn` (an index into ctx->out->ts_fns). */
static void pair_fn(weir_llvm_ctx *ctx, weir_llvm_flow *flow, uint32_t from, uint32_t to, uint32_t fn) {
  if (!to || (from == to && from == 0)) return;
  if (from != to) {
    if (from == 0) weir_llvm_flow_gen(flow, to);
    else weir_llvm_flow_pair(flow, from, to);
  }
  if (fn == 0) return;
  weir_llvm_vec_push(&flow->fns, from);
  weir_llvm_vec_push(&flow->fns, to);
  weir_llvm_vec_push(&flow->fns, fn);
  (void)ctx;
}

/* The facts that stand for the resource `arg` at a call: for a memory
 * resource, the locations it points to; for a value, its own fact, the
 * locations it was just loaded from (-O0 reloads a local before every
 * use) and, when that is a parameter's spill slot, the parameter. *strong:
 * one resource for sure (a single location). */
static void push_fact(weir_llvm_vec *out, uint32_t fact) {
  if (fact) weir_llvm_vec_push(out, fact);
}

static void aliases(const weir_llvm_ctx *ctx, LLVMValueRef arg, weir_llvm_vec *out, int *strong) {
  const uint32_t *locs = NULL;
  out->n = 0;
  *strong = 1;
  arg = weir_llvm_strip_bitcasts(arg);
  if (spec_of(ctx)->memory) {
    size_t n = weir_llvm_pts(ctx, arg, &locs);
    for (size_t k = 0; k < n; ++k) push_fact(out, loc(ctx, locs[k]));
    *strong = n == 1;
    return;
  }
  push_fact(out, val(ctx, arg));
  if (!LLVMIsALoadInst(arg)) return;
  LLVMValueRef p = weir_llvm_strip_bitcasts(LLVMGetOperand(arg, 0));
  size_t n = weir_llvm_pts(ctx, p, &locs);
  for (size_t k = 0; k < n && n == 1; ++k) push_fact(out, loc(ctx, locs[k]));
  uint32_t vid = LLVMIsAAllocaInst(p) ? weir_llvm_vid(ctx, p) : WEIR_LLVM_NONE;
  if (vid != WEIR_LLVM_NONE && ctx->spill_of[vid] != WEIR_LLVM_NONE) push_fact(out, ctx->fact_a[ctx->spill_of[vid]]);
}

/* The transition of the spec's entries for (callee, argument k): each
 * state to the entry's target (errors keep it), others unchanged; weak
 * (not one resource for sure): the old state stays possible too. */
static uint32_t transition(weir_llvm_ctx *ctx, const char *name, size_t length, uint32_t k, int strong) {
  const weir_ts_spec *spec = spec_of(ctx);
  weir_ide_fn fn = weir_ide_fn_identity(WEIR_IDE_TYPESTATE, spec->state_count);
  int any = 0;
  for (size_t e = 0; e < spec->count; ++e) {
    const weir_ts_entry *t = &spec->entries[e];
    if (t->kind != WEIR_TS_MOVE || t->arg != k || strlen(t->fn) != length || memcmp(t->fn, name, length)) continue;
    fn.u.typestate.to[t->from] = (strong ? 0u : 1u << t->from) | 1u << t->to;
    any = 1;
  }
  return any ? intern_fn(ctx, &fn) : 0;
}

/* A call the spec creates a resource with: V(result) or M(targets) start
 * in the entry's state (a constant function out of the zero fact). */
static void create(weir_llvm_ctx *ctx, LLVMValueRef call, const weir_ts_entry *t, weir_llvm_flow *flow) {
  weir_ide_fn fn = weir_ide_fn_top(WEIR_IDE_TYPESTATE);
  fn.u.typestate.gen = 1u << t->to;
  uint32_t f = intern_fn(ctx, &fn);
  if (t->arg == WEIR_TS_RET) {
    pair_fn(ctx, flow, 0, val(ctx, call), f);
    return;
  }
  if (t->arg >= (uint32_t)LLVMGetNumArgOperands(call)) return;
  const uint32_t *locs = NULL;
  size_t n = weir_llvm_pts(ctx, LLVMGetOperand(call, t->arg), &locs);
  for (size_t k = 0; k < n; ++k) {
    if (n == 1) weir_llvm_flow_kill(flow, loc(ctx, locs[k]));
    pair_fn(ctx, flow, 0, loc(ctx, locs[k]), f);
  }
}

/* An external call: creations and transitions of the spec. */
static void spec_call(weir_llvm_ctx *ctx, LLVMValueRef call, weir_llvm_flow *flow) {
  size_t length = 0;
  const char *name = weir_llvm_callee_name(call, &length);
  const weir_ts_spec *spec = spec_of(ctx);
  for (size_t e = 0; e < spec->count; ++e)
    if (spec->entries[e].kind == WEIR_TS_CREATE && strlen(spec->entries[e].fn) == length &&
        memcmp(spec->entries[e].fn, name, length) == 0)
      create(ctx, call, &spec->entries[e], flow);
  uint32_t args = LLVMGetNumArgOperands(call);
  weir_llvm_vec facts = {0};
  for (uint32_t k = 0; k < args; ++k) {
    int strong = 1;
    aliases(ctx, LLVMGetOperand(call, k), &facts, &strong);
    uint32_t fn = transition(ctx, name, length, k, strong);
    for (size_t j = 0; j < facts.n && fn; ++j) pair_fn(ctx, flow, facts.v[j], facts.v[j], fn);
  }
  if (facts.failed) ctx->failed = 1;
  weir_llvm_vec_free(&facts);
}

static void plain(weir_llvm_ctx *ctx, LLVMValueRef inst, weir_llvm_flow *flow) {
  const uint32_t *locs = NULL;
  if (LLVMIsAStoreInst(inst)) {
    size_t n = weir_llvm_pts(ctx, LLVMGetOperand(inst, 1), &locs);
    for (size_t k = 0; k < n; ++k) {
      if (n == 1 && weir_llvm_strong_target(ctx, locs[k]) && !spec_of(ctx)->memory) weir_llvm_flow_kill(flow, loc(ctx, locs[k]));
      weir_llvm_flow_pair(flow, val(ctx, LLVMGetOperand(inst, 0)), loc(ctx, locs[k]));
    }
  } else if (LLVMIsALoadInst(inst)) {
    size_t n = weir_llvm_pts(ctx, LLVMGetOperand(inst, 0), &locs);
    for (size_t k = 0; k < n; ++k) weir_llvm_flow_pair(flow, loc(ctx, locs[k]), val(ctx, inst));
  } else if (LLVMIsACastInst(inst) || LLVMIsAGetElementPtrInst(inst)) {
    weir_llvm_flow_pair(flow, val(ctx, LLVMGetOperand(inst, 0)), val(ctx, inst));
  } else if (LLVMIsASelectInst(inst)) {
    weir_llvm_flow_pair(flow, val(ctx, LLVMGetOperand(inst, 1)), val(ctx, inst));
    weir_llvm_flow_pair(flow, val(ctx, LLVMGetOperand(inst, 2)), val(ctx, inst));
  } else if (LLVMIsAReturnInst(inst) && LLVMGetNumOperands(inst) == 1) {
    uint32_t proc = weir_llvm_map_get(&ctx->fn_index, LLVMGetBasicBlockParent(LLVMGetInstructionParent(inst)));
    if (proc != WEIR_LLVM_NONE) weir_llvm_flow_pair(flow, val(ctx, LLVMGetOperand(inst, 0)), ctx->fns[proc].ret_fact);
  } else if (LLVMIsACallInst(inst) && weir_llvm_classify_call(ctx, inst) == WEIR_LLVM_CALL_EXTERNAL) {
    spec_call(ctx, inst, flow);
  }
}

static void move(weir_llvm_ctx *ctx, LLVMValueRef value, LLVMValueRef phi, weir_llvm_flow *flow) {
  weir_llvm_flow_pair(flow, val(ctx, value), val(ctx, phi));
}

/* Every location fact goes through the callee (a resource's state may
 * change there) and comes back from its exit; the caller keeps none of
 * them across the call. Arguments' values come back as their parameters. */
static void call_to_return(weir_llvm_ctx *ctx, LLVMValueRef call, weir_llvm_flow *flow) {
  uint32_t locations = weir_llvm_memory_location_count(ctx->memory);
  for (uint32_t l = 0; l < locations; ++l) weir_llvm_flow_kill(flow, loc(ctx, l));
  weir_llvm_vec facts = {0};
  uint32_t args = LLVMGetNumArgOperands(call);
  for (uint32_t k = 0; k < args && !spec_of(ctx)->memory; ++k) {
    int strong = 1;
    aliases(ctx, LLVMGetOperand(call, k), &facts, &strong);
    weir_llvm_flow_kill(flow, val(ctx, LLVMGetOperand(call, k))); /* comes back as the parameter */
  }
  weir_llvm_vec_free(&facts);
}

static void callee(weir_llvm_ctx *ctx, LLVMValueRef call, uint32_t proc, weir_llvm_flow *call_flow,
                   weir_llvm_flow *ret_flow) {
  uint32_t locations = weir_llvm_memory_location_count(ctx->memory);
  weir_llvm_vec facts = {0}, replaced = {0};
  uint32_t args = LLVMGetNumArgOperands(call), k = 0;
  for (LLVMValueRef param = LLVMGetFirstParam(ctx->fns[proc].fn); param && k < args;
       param = LLVMGetNextParam(param), ++k) {
    if (spec_of(ctx)->memory) break;
    int strong = 1;
    weir_llvm_flow_pair(call_flow, val(ctx, LLVMGetOperand(call, k)), val(ctx, param));
    aliases(ctx, LLVMGetOperand(call, k), &facts, &strong);
    for (size_t j = 0; j < facts.n; ++j) {
      weir_llvm_flow_pair(ret_flow, val(ctx, param), facts.v[j]);
      weir_llvm_vec_push(&replaced, facts.v[j]);
    }
  }
  weir_llvm_vec_sort_unique(&replaced);
  for (uint32_t l = 0; l < locations; ++l) {
    uint32_t f = loc(ctx, l);
    if (!f) continue;
    weir_llvm_flow_pair(call_flow, f, f);
    if (!weir_llvm_vec_contains(&replaced, f)) weir_llvm_flow_pair(ret_flow, f, f);
  }
  if (ctx->fns[proc].ret_fact) weir_llvm_flow_pair(ret_flow, ctx->fns[proc].ret_fact, val(ctx, call));
  if (facts.failed || replaced.failed) ctx->failed = 1;
  weir_llvm_vec_free(&facts);
  weir_llvm_vec_free(&replaced);
}

static int named(const char *fn, const char *name, size_t length) {
  return strlen(fn) == length && memcmp(fn, name, length) == 0;
}

/* A memory resource no call creates (a global mutex with its static
 * initializer) is handed to the program in the first create's state: every
 * global location a spec call's argument may point to starts so at main. */
static void entry(weir_llvm_ctx *ctx, uint32_t proc, weir_llvm_flow *flow) {
  const weir_ts_spec *spec = spec_of(ctx);
  size_t length = 0;
  const char *name = LLVMGetValueName2(ctx->fns[proc].fn, &length);
  if (!spec->memory || !named("main", name, length)) return;
  uint32_t initial = UINT32_MAX;
  for (size_t e = 0; e < spec->count && initial == UINT32_MAX; ++e)
    if (spec->entries[e].kind == WEIR_TS_CREATE) initial = spec->entries[e].to;
  weir_ide_fn fn = weir_ide_fn_top(WEIR_IDE_TYPESTATE);
  fn.u.typestate.gen = 1u << initial;
  uint32_t f = intern_fn(ctx, &fn);
  for (LLVMValueRef g = LLVMGetFirstFunction(ctx->module); g; g = LLVMGetNextFunction(g))
    for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(g); b; b = LLVMGetNextBasicBlock(b))
      for (LLVMValueRef i = LLVMGetFirstInstruction(b); i; i = LLVMGetNextInstruction(i)) {
        if (!LLVMIsACallInst(i) || weir_llvm_classify_call(ctx, i) != WEIR_LLVM_CALL_EXTERNAL) continue;
        const char *callee = weir_llvm_callee_name(i, &length);
        for (size_t e = 0; e < spec->count; ++e) {
          const weir_ts_entry *t = &spec->entries[e];
          if (t->kind == WEIR_TS_CREATE || !named(t->fn, callee, length) || t->arg >= LLVMGetNumArgOperands(i)) continue;
          const uint32_t *locs = NULL;
          size_t n = weir_llvm_pts(ctx, LLVMGetOperand(i, t->arg), &locs);
          for (size_t k = 0; k < n; ++k) {
            weir_llvm_location_info info = weir_llvm_memory_location(ctx->memory, locs[k]);
            if (weir_llvm_memory_object(ctx->memory, info.object)->kind == WEIR_LLVM_OBJECT_GLOBAL)
              pair_fn(ctx, flow, 0, loc(ctx, locs[k]), f);
          }
        }
      }
}

/* A spec call: a source where it creates, a check per error entry. */
static void check(weir_llvm_ctx *ctx, LLVMValueRef inst, uint32_t node) {
  if (!LLVMIsACallInst(inst) || weir_llvm_classify_call(ctx, inst) != WEIR_LLVM_CALL_EXTERNAL) return;
  const weir_ts_spec *spec = spec_of(ctx);
  size_t length = 0;
  const char *name = weir_llvm_callee_name(inst, &length);
  weir_llvm_vec facts = {0};
  for (size_t e = 0; e < spec->count; ++e) {
    const weir_ts_entry *t = &spec->entries[e];
    if (!named(t->fn, name, length)) continue;
    if (t->kind == WEIR_TS_CREATE) weir_llvm_add_source(ctx, node, inst, name, length);
    if (t->kind != WEIR_TS_ERROR || t->arg >= LLVMGetNumArgOperands(inst)) continue;
    int strong = 1;
    aliases(ctx, LLVMGetOperand(inst, t->arg), &facts, &strong);
    size_t before = ctx->out->check_count;
    weir_llvm_add_rule_check(ctx, (weir_llvm_finding_rule)t->rule, node, facts.v, facts.n, inst, t->message);
    if (ctx->out->check_count > before) ctx->out->checks[before].states = 1u << t->from;
  }
  if (facts.failed) ctx->failed = 1;
  weir_llvm_vec_free(&facts);
}

const weir_llvm_hooks weir_llvm_typestate_hooks = {number, entry, plain, move, call_to_return, callee,
                                                   check, describe, NULL};
