/* const: linear constant propagation as an IDE problem (docs/const.md).
 *
 * Facts: V(v) per integer SSA value (at most 64 bits), M(l) per memory
 * location of a variable, field, heap block or external object (the memory
 * model's), R(f) per function returning an integer. Every fact that may be
 * read must hold wherever it is read (a fact that does not hold has the
 * value ⊤, which merges into anything): a value is generated at its
 * definition (⊥ when const cannot follow the instruction), a location at
 * the entries where its content is unknown (locals at their function's
 * start, globals at main's start with their initialiser, everything at the
 * start of a function no call reaches or whose address is taken). */
#include <stdlib.h>
#include <string.h>

#include "frontends/llvm/analyses/const/const.h"
#include <llvm-c/Target.h>

#include "frontends/llvm/report/report.h"

enum { FACT_VALUE = 0, FACT_LOCATION = 1, FACT_RETURN = 2 };

static int is_int(LLVMValueRef v) {
  LLVMTypeRef t = LLVMTypeOf(v);
  return LLVMGetTypeKind(t) == LLVMIntegerTypeKind && LLVMGetIntTypeWidth(t) <= 64;
}

static uint32_t val(const weir_llvm_ctx *ctx, LLVMValueRef v) {
  uint32_t vid = weir_llvm_vid(ctx, v);
  return vid == WEIR_LLVM_NONE ? 0 : ctx->fact_a[vid];
}

static uint32_t loc(const weir_llvm_ctx *ctx, uint32_t location) { return ctx->loc_fact[location]; }

/* Whether a sorted location array holds `l`. */
static int holds(const uint32_t *v, size_t n, uint32_t l) {
  size_t lo = 0, hi = n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (v[mid] < l) lo = mid + 1;
    else hi = mid;
  }
  return lo < n && v[lo] == l;
}

static void gen_bottom(weir_llvm_ctx *ctx, weir_llvm_flow *flow, uint32_t to) {
  weir_ide_fn bot = weir_llvm_const_bottom();
  weir_llvm_const_pair(ctx, flow, 0, to, &bot);
}

static void gen_const(weir_llvm_ctx *ctx, weir_llvm_flow *flow, uint32_t to, int64_t c) {
  weir_ide_fn f = weir_ide_fn_const(c);
  weir_llvm_const_pair(ctx, flow, 0, to, &f);
}

static void copy_pair(weir_llvm_ctx *ctx, weir_llvm_flow *flow, uint32_t from, uint32_t to) {
  weir_ide_fn id = weir_ide_fn_identity(WEIR_IDE_LINEAR, 0);
  weir_llvm_const_pair(ctx, flow, from, to, &id);
}

/* `to` takes integer `v`: its fact, its constant, or ⊥ (undef: nothing,
 * as LLVM's own constant propagation takes it). */
static void assign(weir_llvm_ctx *ctx, weir_llvm_flow *flow, LLVMValueRef v, uint32_t to) {
  int64_t c = 0;
  if (!to || LLVMIsAUndefValue(v)) return;
  if (weir_llvm_const_int_value(v, &c)) gen_const(ctx, flow, to, c);
  else if (is_int(v) && val(ctx, v)) copy_pair(ctx, flow, val(ctx, v), to);
  else gen_bottom(ctx, flow, to);
}

/* ---- numbering -------------------------------------------------------- */

static void push(weir_llvm_ctx *ctx, weir_llvm_vec *v, uint32_t x) {
  weir_llvm_vec_push(v, x);
  if (v->failed) ctx->failed = 1;
}

static void sort_locations(weir_llvm_ctx *ctx) {
  weir_llvm_const_state *s = ctx->cst;
  uint32_t locations = weir_llvm_memory_location_count(ctx->memory);
  for (uint32_t l = 0; l < locations; ++l) {
    if (!ctx->loc_fact[l]) continue;
    const weir_llvm_object *o = weir_llvm_memory_object(ctx->memory, weir_llvm_memory_location(ctx->memory, l).object);
    if (o->kind == WEIR_LLVM_OBJECT_GLOBAL) push(ctx, &s->globals, l);
    else if (o->kind != WEIR_LLVM_OBJECT_STACK || !o->function) push(ctx, &s->others, l);
    else {
      uint32_t p = weir_llvm_map_get(&ctx->fn_index, o->function);
      if (p != WEIR_LLVM_NONE) push(ctx, &s->stack[p], l);
    }
  }
}

/* How much carrying locations through callees costs: every location fact
 * a function (or its callees) reads enters it and lives on its nodes, in
 * each context. Past the budget (btmon -O0: hundreds of location facts
 * through a call tree of 100 k nodes, more than 33 M path edges, which the
 * serial reference solver cannot hold) const keeps memory within each
 * function: a location holds ⊥ at the start of every function that loads
 * it (main: globals at their initial values) and after every call that may
 * write it; values still cross calls as arguments and results. */
#define WEIR_CONST_MEMORY_BUDGET 4000000ull

static void direct_reads(weir_llvm_ctx *ctx, uint32_t p) {
  weir_llvm_vec *out = &ctx->cst->reads[p];
  for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(ctx->fns[p].fn); b; b = LLVMGetNextBasicBlock(b))
    for (LLVMValueRef i = LLVMGetFirstInstruction(b); i; i = LLVMGetNextInstruction(i)) {
      if (!LLVMIsALoadInst(i) || !is_int(i)) continue;
      const uint32_t *locs = NULL;
      size_t n = weir_llvm_pts(ctx, LLVMGetOperand(i, 0), &locs);
      for (size_t k = 0; k < n; ++k)
        if (loc(ctx, locs[k])) push(ctx, out, locs[k]);
    }
  weir_llvm_vec_sort_unique(out);
}

static void choose_memory_mode(weir_llvm_ctx *ctx) {
  weir_llvm_const_state *s = ctx->cst;
  uint64_t cost = 0;
  for (uint32_t p = 0; p < ctx->fn_count; ++p) {
    const uint32_t *ref = NULL, *mod = NULL;
    size_t nr = weir_llvm_memory_ref(ctx->memory, ctx->fns[p].fn, &ref), facts = 0;
    size_t nm = weir_llvm_memory_mod(ctx->memory, ctx->fns[p].fn, &mod);
    for (size_t k = 0; k < nr; ++k) facts += loc(ctx, ref[k]) != 0;
    for (size_t k = 0; k < nm; ++k) facts += loc(ctx, mod[k]) != 0 && !holds(ref, nr, mod[k]);
    cost += (uint64_t)facts * (ctx->fns[p].last - ctx->fns[p].first + 1);
  }
  s->local_memory = cost > WEIR_CONST_MEMORY_BUDGET;
  ctx->out->const_local_memory = (uint8_t)s->local_memory;
  if (!s->local_memory) return;
  s->reads = calloc(ctx->fn_count ? ctx->fn_count : 1, sizeof *s->reads);
  if (!s->reads) return (void)(ctx->failed = 1);
  for (uint32_t p = 0; p < ctx->fn_count; ++p) direct_reads(ctx, p);
}

/* Facts for the integers that may be a constant somewhere (maybe.c); the
 * others are ⊥ wherever they hold and need none. */
static void number(weir_llvm_ctx *ctx) {
  ctx->cst = calloc(1, sizeof *ctx->cst);
  if (ctx->cst) ctx->cst->stack = calloc(ctx->fn_count ? ctx->fn_count : 1, sizeof *ctx->cst->stack);
  uint32_t locations = weir_llvm_memory_location_count(ctx->memory);
  ctx->loc_fact = calloc(locations ? locations : 1, sizeof *ctx->loc_fact);
  if (!ctx->cst || !ctx->cst->stack || !ctx->loc_fact) return (void)(ctx->failed = 1);
  LLVMValueRef main_fn = LLVMGetNamedFunction(ctx->module, "main");
  ctx->cst->has_main = main_fn && LLVMCountBasicBlocks(main_fn) > 0;
  weir_ide_fn id = weir_ide_fn_identity(WEIR_IDE_LINEAR, 0);
  weir_llvm_const_intern(ctx, &id); /* function 0: the identity */
  uint8_t *may_value = NULL, *may_location = NULL, *may_ret = NULL;
  if (!weir_llvm_const_maybe(ctx, &may_value, &may_location, &may_ret)) return (void)(ctx->failed = 1);
  /* The result of an intrinsic the ICFG skips (llvm.expect) gets no fact:
   * its uses read it as ⊥. */
  for (uint32_t v = 0; v < ctx->value_count; ++v)
    if (may_value[v] && is_int(ctx->values[v]) &&
        !(LLVMIsACallInst(ctx->values[v]) && weir_llvm_classify_call(ctx, ctx->values[v]) == WEIR_LLVM_CALL_IGNORED))
      ctx->fact_a[v] = weir_llvm_new_fact(ctx, FACT_VALUE, v);
  for (uint32_t l = 0; l < locations; ++l) {
    const weir_llvm_object *o = weir_llvm_memory_object(ctx->memory, weir_llvm_memory_location(ctx->memory, l).object);
    if (may_location[l] && o->kind != WEIR_LLVM_OBJECT_CONSTANT && o->kind != WEIR_LLVM_OBJECT_FUNCTION)
      ctx->loc_fact[l] = weir_llvm_new_fact(ctx, FACT_LOCATION, l);
  }
  for (uint32_t p = 0; p < ctx->fn_count; ++p) {
    LLVMTypeRef type = LLVMGetReturnType(LLVMGlobalGetValueType(ctx->fns[p].fn));
    if (may_ret[p] && LLVMGetTypeKind(type) == LLVMIntegerTypeKind && LLVMGetIntTypeWidth(type) <= 64)
      ctx->fns[p].ret_fact = weir_llvm_new_fact(ctx, FACT_RETURN, p);
  }
  free(may_value), free(may_location), free(may_ret);
  sort_locations(ctx);
  choose_memory_mode(ctx);
}

void weir_llvm_const_state_free(weir_llvm_ctx *ctx) {
  weir_llvm_const_state *s = ctx->cst;
  if (!s) return;
  for (uint32_t p = 0; s->stack && p < ctx->fn_count; ++p) weir_llvm_vec_free(&s->stack[p]);
  for (uint32_t p = 0; s->reads && p < ctx->fn_count; ++p) weir_llvm_vec_free(&s->reads[p]);
  free(s->reads);
  free(s->stack);
  weir_llvm_vec_free(&s->globals);
  weir_llvm_vec_free(&s->others);
  free(s->slots);
  free(s);
  ctx->cst = NULL;
}

static void describe(weir_llvm_ctx *ctx, uint32_t fact, weir_llvm_text *out) {
  uint32_t kind = ctx->fact_info.v[2 * (fact - 1)], id = ctx->fact_info.v[2 * (fact - 1) + 1];
  if (kind == FACT_RETURN) {
    size_t length = 0;
    const char *name = LLVMGetValueName2(ctx->fns[id].fn, &length);
    weir_llvm_text_printf(out, "integer returned by %.*s", (int)length, name);
  } else if (kind == FACT_LOCATION) {
    weir_llvm_text_printf(out, "integer in ");
    weir_llvm_memory_describe(ctx->memory, id, out);
  } else {
    weir_llvm_describe_value(ctx, "integer", id, out);
  }
}

/* ---- entries ---------------------------------------------------------- */

/* The value a global location holds before main runs: its initialiser
 * when that is zero everywhere or a plain integer at offset 0; 0 when
 * const does not read it (a struct or array initialiser: ⊥). */
int weir_llvm_const_initial(const weir_llvm_ctx *ctx, uint32_t location, int64_t *out) {
  int64_t ignored = 0;
  if (!out) out = &ignored;
  weir_llvm_location_info info = weir_llvm_memory_location(ctx->memory, location);
  LLVMValueRef g = weir_llvm_memory_object(ctx->memory, info.object)->site;
  LLVMValueRef init = g && LLVMIsAGlobalVariable(g) ? LLVMGetInitializer(g) : NULL;
  if (!init || LLVMIsExternallyInitialized(g) ||
      (!LLVMIsGlobalConstant(g) && LLVMGetLinkage(g) != LLVMInternalLinkage &&
       LLVMGetLinkage(g) != LLVMPrivateLinkage && LLVMGetLinkage(g) != LLVMExternalLinkage))
    return 0; /* weak or common definitions may be replaced at link time */
  if (LLVMIsNull(init)) return *out = 0, 1;
  return info.offset == 0 && weir_llvm_const_int_value(init, out);
}

/* Globals, heap and external locations at an entry: only those the
 * function (or its callees) may read need to hold there; the others never
 * reach a load from it (a location a callee writes comes back from it).
 * Generating every location at every entry made each callback of a big
 * program carry thousands of facts through all its nodes. */
static void gen_entry_locations(weir_llvm_ctx *ctx, uint32_t proc, weir_llvm_flow *flow, int initial) {
  const weir_llvm_const_state *s = ctx->cst;
  const uint32_t *ref = NULL, *mod = NULL;
  size_t nr = weir_llvm_memory_ref(ctx->memory, ctx->fns[proc].fn, &ref);
  size_t nm = weir_llvm_memory_mod(ctx->memory, ctx->fns[proc].fn, &mod);
  for (size_t k = 0; k < s->globals.n; ++k) {
    uint32_t l = s->globals.v[k];
    int64_t c = 0;
    if (!holds(ref, nr, l) && !holds(mod, nm, l)) continue; /* a written one goes back to callers */
    if (initial && weir_llvm_const_initial(ctx, l, &c)) gen_const(ctx, flow, loc(ctx, l), c);
    else gen_bottom(ctx, flow, loc(ctx, l));
  }
  for (size_t k = 0; k < s->others.n; ++k)
    if (holds(ref, nr, s->others.v[k]) || holds(mod, nm, s->others.v[k])) gen_bottom(ctx, flow, loc(ctx, s->others.v[k]));
}

static void entry(weir_llvm_ctx *ctx, uint32_t proc, weir_llvm_flow *flow) {
  weir_llvm_const_state *s = ctx->cst;
  size_t length = 0;
  const char *name = LLVMGetValueName2(ctx->fns[proc].fn, &length);
  int is_main = length == 4 && memcmp(name, "main", 4) == 0;
  /* called from where const cannot see: no call in the module, its
   * address taken, or (a library: no main) any function others may link to */
  LLVMLinkage linkage = LLVMGetLinkage(ctx->fns[proc].fn);
  int exported = linkage != LLVMInternalLinkage && linkage != LLVMPrivateLinkage;
  int outside = !ctx->fns[proc].incoming || ctx->fns[proc].address_taken || (!s->has_main && exported);
  if (outside || is_main)
    for (LLVMValueRef p = LLVMGetFirstParam(ctx->fns[proc].fn); p; p = LLVMGetNextParam(p))
      if (is_int(p)) gen_bottom(ctx, flow, val(ctx, p));
  if (s->local_memory) {
    int initial = is_main && !ctx->fns[proc].address_taken;
    for (size_t k = 0; k < s->reads[proc].n; ++k) {
      uint32_t l = s->reads[proc].v[k];
      int64_t c = 0;
      if (initial && weir_llvm_const_initial(ctx, l, &c)) gen_const(ctx, flow, loc(ctx, l), c);
      else gen_bottom(ctx, flow, loc(ctx, l));
    }
  } else if (is_main || outside) {
    gen_entry_locations(ctx, proc, flow, is_main && !ctx->fns[proc].address_taken);
  }
  for (size_t k = 0; k < s->stack[proc].n; ++k) gen_bottom(ctx, flow, loc(ctx, s->stack[proc].v[k])); /* locals start unset */
}

/* ---- instructions ----------------------------------------------------- */

/* The locations a store of `bytes` at location `l` covers past `l` itself
 * (a small struct stored as one i64) lose what they held. */
static void store_span(weir_llvm_ctx *ctx, weir_llvm_flow *flow, uint32_t l, uint64_t bytes) {
  uint32_t end = weir_llvm_block_span(ctx, l, bytes);
  for (uint32_t k = l + 1; k < end; ++k) gen_bottom(ctx, flow, loc(ctx, k));
}

static uint64_t store_bytes(const weir_llvm_ctx *ctx, LLVMValueRef v) {
  LLVMTargetDataRef layout = LLVMGetModuleDataLayout(ctx->module);
  return LLVMStoreSizeOfType(layout, LLVMTypeOf(v));
}

static void store(weir_llvm_ctx *ctx, LLVMValueRef inst, weir_llvm_flow *flow) {
  LLVMValueRef v = LLVMGetOperand(inst, 0);
  const uint32_t *locs = NULL;
  size_t n = weir_llvm_pts(ctx, LLVMGetOperand(inst, 1), &locs);
  uint64_t bytes = store_bytes(ctx, v);
  for (size_t k = 0; k < n; ++k) {
    uint32_t f = loc(ctx, locs[k]);
    if (!f) continue;
    if (n == 1 && weir_llvm_strong_target(ctx, locs[k])) weir_llvm_flow_kill(flow, f); /* else: meet */
    if (is_int(v)) assign(ctx, flow, v, f);
    else gen_bottom(ctx, flow, f);
    store_span(ctx, flow, locs[k], bytes);
  }
}

static void load(weir_llvm_ctx *ctx, LLVMValueRef inst, uint32_t to, weir_llvm_flow *flow) {
  const uint32_t *locs = NULL;
  size_t n = weir_llvm_pts(ctx, LLVMGetOperand(inst, 0), &locs);
  int unknown = n == 0;
  for (size_t k = 0; k < n; ++k) {
    uint32_t f = loc(ctx, locs[k]);
    if (f) copy_pair(ctx, flow, f, to);
    else unknown = 1; /* constant data or a function: not followed */
  }
  if (unknown) gen_bottom(ctx, flow, to);
}

/* A call of a declaration: what it may write through its pointer
 * arguments (the library table; an unknown one: everything they reach) is
 * no longer known. */
static void external_call(weir_llvm_ctx *ctx, LLVMValueRef call, weir_llvm_flow *flow) {
  const weir_llvm_libcall *model = weir_llvm_call_model(ctx, call);
  uint32_t args = LLVMGetNumArgOperands(call);
  weir_llvm_vec targets = {0};
  for (uint32_t k = 0; k < args; ++k) {
    LLVMValueRef a = LLVMGetOperand(call, k);
    if (!weir_llvm_is_pointer(a)) continue;
    int writes = !model->known || weir_llvm_mask_has(model->writes, k) || model->copy_to == k;
    if (!writes) continue;
    weir_llvm_pts_deep(ctx, a, model->known ? 0 : 1, &targets);
    for (size_t j = 0; j < targets.n; ++j) {
      gen_bottom(ctx, flow, loc(ctx, targets.v[j]));
      uint32_t first = 0, end = 0;
      weir_llvm_block(ctx, targets.v[j], &first, &end); /* the call may write the whole block */
      for (uint32_t l = targets.v[j] + 1; l < end; ++l) gen_bottom(ctx, flow, loc(ctx, l));
    }
  }
  if (targets.failed) ctx->failed = 1;
  weir_llvm_vec_free(&targets);
}

/* An integer instruction: its value as a function of one operand's. */
static void define(weir_llvm_ctx *ctx, LLVMValueRef inst, uint32_t to, weir_llvm_flow *flow) {
  LLVMValueRef x = NULL;
  int64_t a = 0, b = 0;
  weir_llvm_flow_kill(flow, to); /* the last iteration's value (a loop) is gone */
  LLVMOpcode op = LLVMGetInstructionOpcode(inst);
  if (LLVMIsALoadInst(inst) && LLVMGetVolatile(inst)) {
    gen_bottom(ctx, flow, to); /* another agent may have changed it */
  } else if (LLVMIsALoadInst(inst)) {
    load(ctx, inst, to, flow);
  } else if (weir_llvm_const_affine(inst, &x, &a, &b)) {
    weir_ide_fn f = weir_ide_fn_linear(a, b);
    int64_t c = 0;
    if (weir_llvm_const_int_value(x, &c)) gen_const(ctx, flow, to, (int64_t)((uint64_t)a * (uint64_t)c + (uint64_t)b));
    else if (val(ctx, x)) weir_llvm_const_pair(ctx, flow, val(ctx, x), to, &f);
    else gen_bottom(ctx, flow, to);
  } else if (op == LLVMSExt || (op == LLVMZExt && LLVMGetIntTypeWidth(LLVMTypeOf(LLVMGetOperand(inst, 0))) == 1)) {
    /* exact: values are kept sign-extended, and i1 as 0 or 1 */
    assign(ctx, flow, LLVMGetOperand(inst, 0), to);
  } else if (LLVMIsASelectInst(inst)) {
    assign(ctx, flow, LLVMGetOperand(inst, 1), to);
    assign(ctx, flow, LLVMGetOperand(inst, 2), to);
  } else if (op == LLVMFreeze) {
    assign(ctx, flow, LLVMGetOperand(inst, 0), to);
  } else if (!LLVMIsACallInst(inst) || weir_llvm_classify_call(ctx, inst) != WEIR_LLVM_CALL_NODE) {
    gen_bottom(ctx, flow, to); /* anything else is not a constant for const */
  }
}

static void plain(weir_llvm_ctx *ctx, LLVMValueRef inst, weir_llvm_flow *flow) {
  uint32_t to = is_int(inst) ? val(ctx, inst) : 0;
  if (to && !LLVMIsAPHINode(inst)) define(ctx, inst, to, flow);
  if (LLVMIsAStoreInst(inst)) {
    store(ctx, inst, flow);
  } else if (LLVMIsAReturnInst(inst) && LLVMGetNumOperands(inst) == 1) {
    uint32_t proc = weir_llvm_map_get(&ctx->fn_index, LLVMGetBasicBlockParent(LLVMGetInstructionParent(inst)));
    if (proc != WEIR_LLVM_NONE && ctx->fns[proc].ret_fact) assign(ctx, flow, LLVMGetOperand(inst, 0), ctx->fns[proc].ret_fact);
  } else if (LLVMIsACallInst(inst) && weir_llvm_classify_call(ctx, inst) == WEIR_LLVM_CALL_EXTERNAL) {
    external_call(ctx, inst, flow);
  }
}

static void move(weir_llvm_ctx *ctx, LLVMValueRef value, LLVMValueRef phi, weir_llvm_flow *flow) {
  uint32_t to = is_int(phi) ? val(ctx, phi) : 0;
  if (!to) return;
  weir_llvm_flow_kill(flow, to);
  assign(ctx, flow, value, to);
}

/* ---- calls ------------------------------------------------------------ */

/* Locations and calls (interprocedural memory): a location a callee may
 * read or write goes into it and comes back from it (a write on some
 * paths only meets the value that went in; a strong store replaces it);
 * the caller keeps the others across the call. */
static void call_to_return(weir_llvm_ctx *ctx, LLVMValueRef call, weir_llvm_flow *flow) {
  const weir_llvm_vec *mod = weir_llvm_callee_mod(ctx, call);
  if (ctx->cst->local_memory) { /* what the call may write is no longer known */
    for (size_t k = 0; k < mod->n; ++k) gen_bottom(ctx, flow, loc(ctx, mod->v[k]));
    if (is_int(call)) weir_llvm_flow_kill(flow, val(ctx, call));
    return;
  }
  for (size_t k = 0; k < mod->n; ++k) weir_llvm_flow_kill(flow, loc(ctx, mod->v[k]));
  if (is_int(call)) weir_llvm_flow_kill(flow, val(ctx, call));
}

static void callee(weir_llvm_ctx *ctx, LLVMValueRef call, uint32_t proc, weir_llvm_flow *call_flow,
                   weir_llvm_flow *ret_flow) {
  LLVMValueRef fn = ctx->fns[proc].fn;
  uint32_t args = LLVMGetNumArgOperands(call), k = 0;
  for (LLVMValueRef param = LLVMGetFirstParam(fn); param && k < args; param = LLVMGetNextParam(param), ++k)
    if (is_int(param)) assign(ctx, call_flow, LLVMGetOperand(call, k), val(ctx, param));
  if (ctx->fns[proc].ret_fact && is_int(call)) copy_pair(ctx, ret_flow, ctx->fns[proc].ret_fact, val(ctx, call));
  if (ctx->cst->local_memory) return; /* locations stay in their function */
  const uint32_t *mod = NULL, *ref = NULL;
  size_t nm = weir_llvm_memory_mod(ctx->memory, fn, &mod), nr = weir_llvm_memory_ref(ctx->memory, fn, &ref);
  for (size_t j = 0; j < nr; ++j) weir_llvm_flow_pair(call_flow, loc(ctx, ref[j]), loc(ctx, ref[j]));
  for (size_t j = 0; j < nm; ++j) {
    weir_llvm_flow_pair(call_flow, loc(ctx, mod[j]), loc(ctx, mod[j]));
    weir_llvm_flow_pair(ret_flow, loc(ctx, mod[j]), loc(ctx, mod[j]));
  }
  /* What the caller killed goes through every callee and comes back from
   * each: a callee of an indirect call that does not touch it hands it
   * back unchanged. */
  const weir_llvm_vec *touched = weir_llvm_callee_mod(ctx, call);
  for (size_t j = 0; j < touched->n; ++j) {
    weir_llvm_flow_pair(call_flow, loc(ctx, touched->v[j]), loc(ctx, touched->v[j]));
    weir_llvm_flow_pair(ret_flow, loc(ctx, touched->v[j]), loc(ctx, touched->v[j]));
  }
}

/* ---- uses ------------------------------------------------------------- */

/* A use of integer `base` through casts is read where the first cast
 * reads it: the value's fact may die there (its last use), before the
 * compare or branch that uses the cast. */
static uint32_t use_node(const weir_llvm_ctx *ctx, LLVMValueRef v, LLVMValueRef base, uint32_t node) {
  while (v != base && LLVMIsAInstruction(v) && LLVMGetOperand(v, 0) != base) v = LLVMGetOperand(v, 0);
  if (v == base || !LLVMIsAInstruction(v)) return node;
  uint32_t vid = weir_llvm_vid(ctx, v);
  return vid == WEIR_LLVM_NONE ? node : ctx->node_of[vid];
}

static void add_use(weir_llvm_ctx *ctx, LLVMValueRef user, uint32_t operand, uint32_t node, uint8_t kind) {
  LLVMValueRef base = weir_llvm_const_strip_casts(LLVMGetOperand(user, operand));
  uint32_t f = is_int(base) ? val(ctx, base) : 0;
  if (!f) return; /* a constant, or not an integer */
  node = use_node(ctx, LLVMGetOperand(user, operand), base, node);
  weir_llvm_text name = {0};
  weir_llvm_memory_value_name(ctx->memory, base, &name);
  weir_llvm_text_put(&name, "", 0);
  if (name.failed) ctx->failed = 1;
  size_t before = ctx->out->check_count;
  weir_llvm_add_check(ctx, node, &f, 1, user, name.p ? name.p : "");
  weir_llvm_text_free(&name);
  if (ctx->out->check_count == before) return;
  weir_llvm_check *c = &ctx->out->checks[before];
  c->const_use = kind;
  c->bits = (uint8_t)LLVMGetIntTypeWidth(LLVMTypeOf(base));
  c->user = user;
  c->operand = operand;
}

/* Whether a compare decides a branch (pruning's demand: the others are not recorded). */
static int decides_branch(LLVMValueRef cmp) {
  for (LLVMUseRef u = LLVMGetFirstUse(cmp); u; u = LLVMGetNextUse(u))
    if (LLVMIsABranchInst(LLVMGetUser(u))) return 1;
  return 0;
}

static void check(weir_llvm_ctx *ctx, LLVMValueRef inst, uint32_t node) {
  if (LLVMIsAICmpInst(inst) && (!ctx->config->const_branches_only || decides_branch(inst))) {
    add_use(ctx, inst, 0, node, WEIR_LLVM_CONST_USE_COMPARE);
    add_use(ctx, inst, 1, node, WEIR_LLVM_CONST_USE_COMPARE);
  } else if (LLVMIsASwitchInst(inst)) {
    add_use(ctx, inst, 0, node, WEIR_LLVM_CONST_USE_SWITCH);
  } else if (LLVMIsABranchInst(inst) && LLVMIsConditional(inst) && !LLVMIsAICmpInst(LLVMGetCondition(inst))) {
    add_use(ctx, inst, 0, node, WEIR_LLVM_CONST_USE_BRANCH);
  } else if (LLVMIsACallInst(inst) && !ctx->config->const_branches_only &&
             weir_llvm_classify_call(ctx, inst) != WEIR_LLVM_CALL_IGNORED) {
    for (uint32_t k = 0; k < (uint32_t)LLVMGetNumArgOperands(inst); ++k)
      add_use(ctx, inst, k, node, WEIR_LLVM_CONST_USE_ARGUMENT);
  }
}

const weir_llvm_hooks weir_llvm_const_hooks = {number, entry, plain, move, call_to_return, callee,
                                               check, describe, NULL};
