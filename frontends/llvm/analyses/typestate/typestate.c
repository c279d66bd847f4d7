/* The typestate analysis: an IDE problem of the typestate family.
 *
 * Facts, only where a resource can be (origin.c, the demand filter): V(v)
 * per SSA value ("v is a tracked resource", a pointer or an int such as a
 * descriptor), M(l) per memory location ("l holds one", or for a memory
 * resource such as a mutex "l is one"), R(f) per function ("f returns
 * one") and, for a spec with a leak line, S(s) per creating call ("the
 * resource made there"). They flow like taint's (stores, loads, casts,
 * phis, arguments, returns); every pair carries the identity except at the
 * calls the spec names, where the spec's transition applies to the facts
 * that stand for the resource passed (holders.c: strong where they
 * must be the same resource, weak, the join of old and new, where they
 * may). A finding is a check at such a call whose fact may be in an error
 * state there, or a resource whose S fact is still in a leak state when
 * main returns, exit is called, or the function that made it (and kept it
 * to itself) returns. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontends/llvm/analyses/typestate/origin.h"
#include "frontends/llvm/analyses/typestate/spec.h"
#include "frontends/llvm/analyses/typestate/ts.h"
#include "frontends/llvm/internal.h"
#include "frontends/llvm/report/report.h"
#include "weir/ide.h"

enum { FACT_VALUE = 0, FACT_LOCATION = 1, FACT_RETURN = 2, FACT_SITE = 3, FACT_SHARED = 4 };





static int carries(const weir_llvm_ctx *ctx, uint32_t object) {
  const weir_llvm_object *o = weir_llvm_memory_object(ctx->memory, object);
  return o->kind != WEIR_LLVM_OBJECT_CONSTANT && o->kind != WEIR_LLVM_OBJECT_FUNCTION;
}

static int named(const char *fn, const char *name, size_t length) {
  return strlen(fn) == length && memcmp(fn, name, length) == 0;
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

/* The spec's error and leak rules as the problem's rules (SARIF
 * reportingDescriptors), owned copies like a plugin's; a check's rule
 * indexes them. */
static void spec_rules(weir_llvm_ctx *ctx) {
  const weir_ts_spec *spec = spec_of(ctx);
  weir_llvm_problem *out = ctx->out;
  out->plugin_rules = calloc(spec->rule_count ? spec->rule_count : 1, sizeof *out->plugin_rules);
  if (!out->plugin_rules) return (void)(out->failed = 1);
  for (uint32_t r = 0; r < spec->rule_count; ++r) {
    const char *msg = "a call in a state the typestate spec forbids";
    for (size_t e = 0; e < spec->count; ++e)
      if ((spec->entries[e].kind == WEIR_TS_ERROR || spec->entries[e].kind == WEIR_TS_LEAK) && spec->entries[e].rule == r)
        msg = spec->entries[e].message;
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

static const weir_ts_entry *leak_entry(const weir_ts_spec *spec) {
  for (size_t e = 0; e < spec->count; ++e)
    if (spec->entries[e].kind == WEIR_TS_LEAK) return &spec->entries[e];
  return NULL;
}

/* Facts only where origin.c says a resource can be. */
static void number(weir_llvm_ctx *ctx) {
  spec_rules(ctx);
  weir_ts_origins(ctx);
  uint32_t locations = weir_llvm_memory_location_count(ctx->memory);
  ctx->loc_fact = calloc(locations ? locations : 1, sizeof *ctx->loc_fact);
  if (ctx->failed || !ctx->loc_fact) return (void)(ctx->failed = 1);
  weir_ts_state *ts = ctx->ts;
  for (uint32_t v = 0; v < ctx->value_count; ++v)
    if (ts->value[v].n && LLVMGetTypeKind(LLVMTypeOf(ctx->values[v])) != LLVMVoidTypeKind) {
      ctx->fact_a[v] = weir_llvm_new_fact(ctx, FACT_VALUE, v);
      weir_llvm_vec_push(&ts->proc_values[ctx->value_proc[v]], v);
    }
  uint32_t shared = 0; /* the fact of every vague pointer's target (origin.h) */
  for (uint32_t l = 0; l < locations; ++l) {
    if (!weir_ts_location_origin(ctx, l)->n || !carries(ctx, weir_llvm_memory_location(ctx->memory, l).object)) continue;
    if (ts->shared[l] && shared) {
      ctx->loc_fact[l] = shared;
      continue;
    }
    ctx->loc_fact[l] = weir_llvm_new_fact(ctx, ts->shared[l] ? FACT_SHARED : FACT_LOCATION, l);
    if (ts->shared[l]) shared = ctx->loc_fact[l];
    weir_llvm_vec_push(&ts->fact_locations, l);
  }
  for (uint32_t p = 0; p < ctx->fn_count; ++p)
    if (ts->ret[p].n) ctx->fns[p].ret_fact = weir_llvm_new_fact(ctx, FACT_RETURN, p);
  for (uint32_t s = 0; s < ts->site_count && leak_entry(spec_of(ctx)); ++s)
    ts->site_fact[s] = weir_llvm_new_fact(ctx, FACT_SITE, s);
  weir_ts_relevance(ctx);
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
  } else if (kind == FACT_SHARED) {
    weir_llvm_text_printf(out, "%s resource behind untyped pointers (such as ", spec_of(ctx)->name);
    weir_llvm_memory_describe(ctx->memory, id, out);
    weir_llvm_text_put(out, ")", 1);
  } else if (kind == FACT_SITE) {
    weir_llvm_describe_value(ctx, "the resource made by", weir_llvm_vid(ctx, ctx->ts->site_call[id]), out);
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

/* The transition of the spec's `kind` entries (move or try) for (callee,
 * argument k): each state to the entry's target, others unchanged; weak
 * (not one resource for sure): the old state stays possible too. */
static uint32_t transition(weir_llvm_ctx *ctx, int kind, const char *name, size_t length, uint32_t k, int strong) {
  const weir_ts_spec *spec = spec_of(ctx);
  weir_ide_fn fn = weir_ide_fn_identity(WEIR_IDE_TYPESTATE, spec->state_count);
  int any = 0;
  for (size_t e = 0; e < spec->count; ++e) {
    const weir_ts_entry *t = &spec->entries[e];
    if (t->kind != kind || t->arg != k || !named(t->fn, name, length)) continue;
    fn.u.typestate.to[t->from] = (strong ? 0u : 1u << t->from) | 1u << t->to;
    any = 1;
  }
  return any ? intern_fn(ctx, &fn) : 0;
}

/* Applies the transition of (kind, callee, argument k) to the holders of
 * `arg`: the strong one to the strong holders, the weak to the others. */
static void apply(weir_llvm_ctx *ctx, int kind, LLVMValueRef at, const char *name, size_t length, uint32_t k,
                  LLVMValueRef arg, weir_llvm_flow *flow) {
  uint32_t strong_fn = transition(ctx, kind, name, length, k, 1);
  if (!strong_fn) return;
  uint32_t weak_fn = transition(ctx, kind, name, length, k, 0);
  weir_llvm_vec strong = {0}, weak = {0};
  weir_ts_holders(ctx, at, arg, &strong, &weak);
  for (size_t j = 0; j < strong.n; ++j) pair_fn(ctx, flow, strong.v[j], strong.v[j], strong_fn);
  for (size_t j = 0; j < weak.n; ++j) pair_fn(ctx, flow, weak.v[j], weak.v[j], weak_fn);
  if (strong.failed || weak.failed) ctx->failed = 1;
  weir_llvm_vec_free(&strong);
  weir_llvm_vec_free(&weak);
}

/* A call the spec creates a resource with: V(result) and S(site), or
 * M(targets), start in the entry's state (a constant function out of the
 * zero fact). */
static void create(weir_llvm_ctx *ctx, LLVMValueRef call, const weir_ts_entry *t, weir_llvm_flow *flow) {
  weir_ide_fn fn = weir_ide_fn_top(WEIR_IDE_TYPESTATE);
  fn.u.typestate.gen = 1u << t->to;
  uint32_t f = intern_fn(ctx, &fn);
  if (t->arg == WEIR_TS_RET) {
    pair_fn(ctx, flow, 0, val(ctx, call), f);
    const weir_llvm_vec *origin = weir_ts_value_origin(ctx, call);
    for (size_t k = 0; k < origin->n; ++k)
      if (ctx->ts->site_call[origin->v[k]] == call) {
        weir_llvm_flow_kill(flow, ctx->ts->site_fact[origin->v[k]]);
        pair_fn(ctx, flow, 0, ctx->ts->site_fact[origin->v[k]], f);
      }
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

/* An external call: creations and transitions of the spec; a block copy. */
static void spec_call(weir_llvm_ctx *ctx, LLVMValueRef call, weir_llvm_flow *flow) {
  size_t length = 0;
  const char *name = weir_llvm_callee_name(call, &length);
  const weir_ts_spec *spec = spec_of(ctx);
  if (!spec->memory && ((length >= 11 && strncmp(name, "llvm.memcpy", 11) == 0) ||
                        (length >= 12 && strncmp(name, "llvm.memmove", 12) == 0))) {
    const uint32_t *src = NULL, *dst = NULL;
    size_t ns = weir_llvm_pts(ctx, LLVMGetOperand(call, 1), &src), nd = weir_llvm_pts(ctx, LLVMGetOperand(call, 0), &dst);
    weir_llvm_copy_blocks(ctx, src, ns, dst, nd, flow);
    return;
  }
  if (!weir_ts_spec_names(spec, name, length)) return;
  for (size_t e = 0; e < spec->count; ++e)
    if (spec->entries[e].kind == WEIR_TS_CREATE && named(spec->entries[e].fn, name, length))
      create(ctx, call, &spec->entries[e], flow);
  uint32_t args = LLVMGetNumArgOperands(call);
  for (uint32_t k = 0; k < args; ++k) apply(ctx, WEIR_TS_MOVE, call, name, length, k, LLVMGetOperand(call, k), flow);
}

/* What a read of the shared fact (origin.h) gives: a resource in the state
 * it was made in. The shared fact stands for every place behind untyped
 * pointers, each holding its own resource; the states some of them went
 * through say nothing about the one read here. */
static uint32_t fresh_fn(weir_llvm_ctx *ctx) {
  const weir_ts_spec *spec = spec_of(ctx);
  uint32_t made = 0;
  for (size_t e = 0; e < spec->count; ++e)
    if (spec->entries[e].kind == WEIR_TS_CREATE) made |= 1u << spec->entries[e].to;
  weir_ide_fn fn = weir_ide_fn_identity(WEIR_IDE_TYPESTATE, spec->state_count);
  for (uint32_t k = 0; k < spec->state_count; ++k) fn.u.typestate.to[k] = made;
  return intern_fn(ctx, &fn);
}

static void plain(weir_llvm_ctx *ctx, LLVMValueRef inst, weir_llvm_flow *flow) {
  const uint32_t *locs = NULL;
  if (LLVMIsAStoreInst(inst)) {
    uint32_t from = val(ctx, weir_llvm_strip_bitcasts(LLVMGetOperand(inst, 0)));
    size_t n = weir_llvm_pts(ctx, LLVMGetOperand(inst, 1), &locs);
    /* what every target held is overwritten, even a heap field (`*f =
     * fopen(..)` where f may be any caller's field, after `fclose(s->f)`):
     * optimistic, as uaf's stores; the shared fact is never killed */
    for (size_t k = 0; k < n && !spec_of(ctx)->memory; ++k)
      if (!ctx->ts->shared[locs[k]]) weir_llvm_flow_kill(flow, loc(ctx, locs[k]));
    for (size_t k = 0, last = 0; k < n && from; ++k)
      if (loc(ctx, locs[k]) != last) weir_llvm_flow_pair(flow, from, last = loc(ctx, locs[k]));
  } else if (LLVMIsALoadInst(inst)) {
    size_t n = val(ctx, inst) ? weir_llvm_pts(ctx, LLVMGetOperand(inst, 0), &locs) : 0;
    int shared_read = 0;
    for (size_t k = 0; k < n; ++k) {
      if (!loc(ctx, locs[k]) || (ctx->ts->shared[locs[k]] && shared_read++)) continue;
      pair_fn(ctx, flow, loc(ctx, locs[k]), val(ctx, inst), ctx->ts->shared[locs[k]] ? fresh_fn(ctx) : 0);
    }
  } else if (LLVMIsACastInst(inst) || LLVMIsAGetElementPtrInst(inst) || LLVMIsAFreezeInst(inst)) {
    weir_llvm_flow_pair(flow, val(ctx, LLVMGetOperand(inst, 0)), val(ctx, inst));
  } else if (LLVMIsASelectInst(inst)) {
    weir_llvm_flow_pair(flow, val(ctx, LLVMGetOperand(inst, 1)), val(ctx, inst));
    weir_llvm_flow_pair(flow, val(ctx, LLVMGetOperand(inst, 2)), val(ctx, inst));
  } else if (LLVMIsAReturnInst(inst) && LLVMGetNumOperands(inst) == 1) {
    uint32_t proc = weir_llvm_map_get(&ctx->fn_index, LLVMGetBasicBlockParent(LLVMGetInstructionParent(inst)));
    if (proc != WEIR_LLVM_NONE)
      weir_llvm_flow_pair(flow, val(ctx, weir_llvm_strip_bitcasts(LLVMGetOperand(inst, 0))), ctx->fns[proc].ret_fact);
  } else if (LLVMIsACallInst(inst) && weir_llvm_classify_call(ctx, inst) == WEIR_LLVM_CALL_EXTERNAL) {
    spec_call(ctx, inst, flow);
  }
}

static void move(weir_llvm_ctx *ctx, LLVMValueRef value, LLVMValueRef phi, weir_llvm_flow *flow) {
  weir_llvm_flow_pair(flow, val(ctx, value), val(ctx, phi));
}

static int call_relevant(const weir_llvm_ctx *ctx, LLVMValueRef call) {
  const uint32_t *procs = NULL;
  size_t n = weir_llvm_call_procs(ctx, call, &procs);
  for (size_t p = 0; p < n; ++p)
    if (ctx->ts->relevant[procs[p]]) return 1;
  return 0;
}

/* Facts that live outside any frame: locations and S(site). */
static void frame_free_facts(const weir_llvm_ctx *ctx, weir_llvm_vec *out) {
  for (size_t k = 0; k < ctx->ts->fact_locations.n; ++k) push_fact(out, loc(ctx, ctx->ts->fact_locations.v[k]));
  for (uint32_t s = 0; s < ctx->ts->site_count; ++s) push_fact(out, ctx->ts->site_fact[s]);
}

/* A callee that may act on a resource (origin.c's relevance): every
 * location and S fact goes through it (a resource's state may change
 * there) and comes back from its exit; the arguments' holders come back as
 * the parameters. Any other callee is passed by: its facts stay. */
static void call_to_return(weir_llvm_ctx *ctx, LLVMValueRef call, weir_llvm_flow *flow) {
  if (!call_relevant(ctx, call)) return;
  weir_llvm_vec facts = {0};
  frame_free_facts(ctx, &facts);
  for (size_t k = 0; k < facts.n; ++k) weir_llvm_flow_kill(flow, facts.v[k]);
  for (uint32_t k = 0; k < LLVMGetNumArgOperands(call) && !spec_of(ctx)->memory; ++k)
    weir_llvm_flow_kill(flow, val(ctx, weir_llvm_strip_bitcasts(LLVMGetOperand(call, k))));
  if (facts.failed) ctx->failed = 1;
  weir_llvm_vec_free(&facts);
}

static int is_site_fact(const weir_llvm_ctx *ctx, uint32_t fact) {
  return ctx->fact_info.v[2 * (fact - 1)] == FACT_SITE;
}

/* The parameter's state at the callee's exit is the argument's: strong
 * holders take it, weak ones join it. S facts also went through the callee,
 * where the parameter stands for every caller's resource (weak); for the
 * resource this call passed, the parameter's state is the precise one. */
static void arguments_back(weir_llvm_ctx *ctx, LLVMValueRef call, uint32_t proc, weir_llvm_flow *ret_flow,
                           weir_llvm_vec *replaced) {
  weir_llvm_vec strong = {0}, weak = {0};
  uint32_t args = LLVMGetNumArgOperands(call), k = 0;
  for (LLVMValueRef param = LLVMGetFirstParam(ctx->fns[proc].fn); param && k < args;
       param = LLVMGetNextParam(param), ++k) {
    LLVMValueRef arg = weir_llvm_strip_bitcasts(LLVMGetOperand(call, k));
    weir_ts_holders(ctx, call, arg, &strong, &weak);
    for (size_t j = 0; j < strong.n && val(ctx, param); ++j) {
      weir_llvm_flow_pair(ret_flow, val(ctx, param), strong.v[j]);
      weir_llvm_vec_push(replaced, strong.v[j]);
    }
    for (size_t j = 0; j < weak.n; ++j) weir_llvm_flow_pair(ret_flow, val(ctx, param), weak.v[j]);
  }
  if (strong.failed || weak.failed) ctx->failed = 1;
  weir_llvm_vec_free(&strong);
  weir_llvm_vec_free(&weak);
  weir_llvm_vec_sort_unique(replaced);
}

static void callee(weir_llvm_ctx *ctx, LLVMValueRef call, uint32_t proc, weir_llvm_flow *call_flow,
                   weir_llvm_flow *ret_flow) {
  uint32_t args = LLVMGetNumArgOperands(call), k = 0;
  for (LLVMValueRef param = LLVMGetFirstParam(ctx->fns[proc].fn); param && k < args;
       param = LLVMGetNextParam(param), ++k)
    weir_llvm_flow_pair(call_flow, val(ctx, weir_llvm_strip_bitcasts(LLVMGetOperand(call, k))), val(ctx, param));
  if (ctx->fns[proc].ret_fact) weir_llvm_flow_pair(ret_flow, ctx->fns[proc].ret_fact, val(ctx, call));
  weir_llvm_vec replaced = {0}, facts = {0};
  if (!call_relevant(ctx, call)) {
    /* what it stores comes back (a handle put in a global) */
    const uint32_t *mod = NULL;
    size_t m = weir_llvm_memory_mod(ctx->memory, ctx->fns[proc].fn, &mod);
    for (size_t j = 0; j < m; ++j) weir_llvm_flow_pair(ret_flow, loc(ctx, mod[j]), loc(ctx, mod[j]));
    return;
  }
  if (!spec_of(ctx)->memory) arguments_back(ctx, call, proc, ret_flow, &replaced);
  frame_free_facts(ctx, &facts);
  for (size_t j = 0; j < facts.n; ++j) {
    weir_llvm_flow_pair(call_flow, facts.v[j], facts.v[j]);
    if (!weir_llvm_vec_contains(&replaced, facts.v[j])) weir_llvm_flow_pair(ret_flow, facts.v[j], facts.v[j]);
  }
  if (facts.failed || replaced.failed) ctx->failed = 1;
  weir_llvm_vec_free(&facts);
  weir_llvm_vec_free(&replaced);
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
  for (size_t k = 0; k < ctx->ts->fact_locations.n; ++k) {
    uint32_t l = ctx->ts->fact_locations.v[k];
    weir_llvm_location_info info = weir_llvm_memory_location(ctx->memory, l);
    if (weir_llvm_memory_object(ctx->memory, info.object)->kind == WEIR_LLVM_OBJECT_GLOBAL) pair_fn(ctx, flow, 0, loc(ctx, l), f);
  }
}

/* ---- branches: a failed creation, a try that succeeded (branch.c) ------- */
static int is_try(const weir_llvm_ctx *ctx, LLVMValueRef call, const char **name, size_t *length) {
  if (!call || !LLVMIsACallInst(call) || weir_llvm_classify_call(ctx, call) != WEIR_LLVM_CALL_EXTERNAL) return 0;
  *name = weir_llvm_callee_name(call, length);
  const weir_ts_spec *spec = spec_of(ctx);
  for (size_t e = 0; e < spec->count; ++e)
    if (spec->entries[e].kind == WEIR_TS_TRY && named(spec->entries[e].fn, *name, *length)) return 1;
  return 0;
}

static void edge(weir_llvm_ctx *ctx, LLVMValueRef term, LLVMBasicBlockRef succ, weir_llvm_flow *flow) {
  weir_ts_branch t;
  if (!weir_ts_decode(term, succ, &t)) return;
  if (!spec_of(ctx)->memory && weir_ts_failed(&t)) {
    weir_llvm_vec strong = {0}, weak = {0};
    weir_ts_holders(ctx, term, t.x, &strong, &weak);
    for (size_t k = 0; k < strong.n; ++k) weir_llvm_flow_kill(flow, strong.v[k]);
    if (strong.failed || weak.failed) ctx->failed = 1;
    weir_llvm_vec_free(&strong);
    weir_llvm_vec_free(&weak);
  }
  const char *name = NULL;
  size_t length = 0;
  if (weir_ts_returned_zero(&t) && is_try(ctx, t.x, &name, &length))
    for (uint32_t k = 0; k < LLVMGetNumArgOperands(t.x); ++k)
      apply(ctx, WEIR_TS_TRY, term, name, length, k, LLVMGetOperand(t.x, k), flow);
}

/* ---- checks ---------------------------------------------------------------- */
/* The node a try's success edge leads to is a source: the lock is taken
 * there (and the node is kept, so the edge's transition stays on it). */
static void try_sources(weir_llvm_ctx *ctx, LLVMValueRef call, const char *name, size_t length) {
  for (LLVMUseRef u = LLVMGetFirstUse(call); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    for (int hops = 0; user && hops < 3; ++hops) {
      if (LLVMIsABranchInst(user)) {
        for (unsigned s = 0; s < 2 && LLVMIsConditional(user); ++s) {
          weir_ts_branch t;
          LLVMBasicBlockRef succ = LLVMGetSuccessor(user, s);
          if (weir_ts_decode(user, succ, &t) && t.x == call && weir_ts_returned_zero(&t))
            weir_llvm_add_source(ctx, ctx->node_of[weir_llvm_vid(ctx, LLVMGetFirstInstruction(succ))], call, name, length);
        }
        break;
      }
      LLVMUseRef next = LLVMGetFirstUse(user);
      user = next && !LLVMGetNextUse(next) ? LLVMGetUser(next) : NULL; /* icmp, then xor */
    }
  }
}

/* One check per resource S(site) still in the leak state at `inst`. */
static void leak_check(weir_llvm_ctx *ctx, LLVMValueRef inst, uint32_t node, uint32_t site, const char *when) {
  const weir_ts_entry *t = leak_entry(spec_of(ctx));
  LLVMValueRef call = ctx->ts->site_call[site];
  size_t length = 0;
  const char *name = weir_llvm_callee_name(call, &length);
  char message[640];
  snprintf(message, sizeof message, "%s: the %s from '%.*s' at line %u is still %s %s", t->message, spec_of(ctx)->name,
           (int)(length > 64 ? 64 : length), name, LLVMGetDebugLocLine(call), spec_of(ctx)->states[t->from], when);
  size_t before = ctx->out->check_count;
  weir_llvm_add_rule_check(ctx, (weir_llvm_finding_rule)t->rule, node, &ctx->ts->site_fact[site], 1, inst, message);
  if (ctx->out->check_count > before) ctx->out->checks[before].states = 1u << t->from;
}

/* Program end (main returns, exit): every resource that outlives the
 * function that made it and that no unknown function was handed, and
 * main's own. A function's return: the resources it made and kept to its
 * own frame (origin.c's escapes: no global, heap, caller's memory, return
 * value or unknown callee ever holds them). */
static void leak_checks(weir_llvm_ctx *ctx, LLVMValueRef inst, uint32_t node, int at_exit) {
  if (!leak_entry(spec_of(ctx))) return;
  LLVMValueRef fn = LLVMGetBasicBlockParent(LLVMGetInstructionParent(inst));
  size_t length = 0;
  const char *fname = LLVMGetValueName2(fn, &length);
  int in_main = named("main", fname, length);
  char when[160];
  if (at_exit) snprintf(when, sizeof when, "at exit");
  else snprintf(when, sizeof when, "when '%.*s' returns", (int)(length > 96 ? 96 : length), fname);
  const weir_ts_state *ts = ctx->ts;
  for (uint32_t s = 0; s < ts->site_count; ++s) {
    int here = LLVMGetBasicBlockParent(LLVMGetInstructionParent(ts->site_call[s])) == fn;
    int program_end = at_exit || in_main;
    if ((program_end && (ts->escapes[s] == 1 || (here && ts->escapes[s] == 0))) ||
        (!program_end && here && ts->escapes[s] == 0))
      leak_check(ctx, inst, node, s, when);
  }
}

/* The resource passed: the value's own facts (direct_holders). Not the
 * other holders a transition reaches: a place that may hold the same
 * resource holds another one (of the same site, an earlier activation's)
 * most of the time. A memory resource: the locations, as a transition. */
static void error_check(weir_llvm_ctx *ctx, LLVMValueRef inst, uint32_t node, const weir_ts_entry *t) {
  weir_llvm_vec strong = {0}, weak = {0};
  LLVMValueRef arg = weir_llvm_strip_bitcasts(LLVMGetOperand(inst, t->arg));
  if (spec_of(ctx)->memory) weir_ts_holders(ctx, inst, arg, &strong, &weak);
  else if (weir_ts_value_origin(ctx, arg)->n) weir_ts_direct_holders(ctx, arg, &strong);
  size_t kept = 0;
  for (size_t k = 0; k < strong.n; ++k)
    if (!is_site_fact(ctx, strong.v[k])) strong.v[kept++] = strong.v[k];
  size_t before = ctx->out->check_count;
  weir_llvm_add_rule_check(ctx, (weir_llvm_finding_rule)t->rule, node, strong.v, kept, inst, t->message);
  if (ctx->out->check_count > before) ctx->out->checks[before].states = 1u << t->from;
  if (strong.failed || weak.failed) ctx->failed = 1;
  weir_llvm_vec_free(&strong);
  weir_llvm_vec_free(&weak);
}

/* A spec call: a source where it creates, a check per error entry; a
 * return or exit: the leak checks. */
static void check(weir_llvm_ctx *ctx, LLVMValueRef inst, uint32_t node) {
  if (LLVMIsAReturnInst(inst)) return leak_checks(ctx, inst, node, 0);
  if (!LLVMIsACallInst(inst) || weir_llvm_classify_call(ctx, inst) != WEIR_LLVM_CALL_EXTERNAL) return;
  const weir_ts_spec *spec = spec_of(ctx);
  size_t length = 0;
  const char *name = weir_llvm_callee_name(inst, &length);
  if (named("exit", name, length)) leak_checks(ctx, inst, node, 1);
  for (size_t e = 0; e < spec->count; ++e) {
    const weir_ts_entry *t = &spec->entries[e];
    if (!named(t->fn, name, length)) continue;
    if (t->kind == WEIR_TS_CREATE) weir_llvm_add_source(ctx, node, inst, name, length);
    if (t->kind == WEIR_TS_TRY) try_sources(ctx, inst, name, length);
    if (t->kind == WEIR_TS_ERROR && t->arg < LLVMGetNumArgOperands(inst)) error_check(ctx, inst, node, t);
  }
}

const weir_llvm_hooks weir_llvm_typestate_hooks = {number, entry, plain, move, call_to_return, callee,
                                                   check, describe, edge};
