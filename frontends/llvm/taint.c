/* The taint analysis. Facts: one per SSA value (argument or non-void
 * instruction: "this value, or the memory it points to, is tainted"), one
 * per stack slot (alloca: "the slot's contents are tainted") and one per
 * non-void function ("the returned value is tainted"). Field-insensitive; the
 * only memory tracked precisely is a slot reached by direct pointer
 * derivation (GEP, casts) from its alloca, and the -O0 parameter spill. */
#include <stdio.h>
#include <string.h>

#include "frontends/llvm/internal.h"

enum { FACT_VALUE = 0, FACT_SLOT = 1, FACT_RETURN = 2 };

static uint32_t val(const weir_llvm_ctx *ctx, LLVMValueRef v) {
  uint32_t vid = weir_llvm_vid(ctx, v);
  return vid == WEIR_LLVM_NONE ? 0 : ctx->fact_a[vid];
}

/* The fact that stands for the memory a pointer reaches. */
static uint32_t carrier(const weir_llvm_ctx *ctx, LLVMValueRef pointer) {
  if (LLVMGetTypeKind(LLVMTypeOf(pointer)) != LLVMPointerTypeKind) return 0;
  weir_llvm_origin o = weir_llvm_origin_of(ctx, pointer);
  if (o.kind == WEIR_LLVM_ORIGIN_SLOT) return ctx->fact_b[o.vid];
  if (o.kind == WEIR_LLVM_ORIGIN_PARAM) return ctx->fact_a[o.vid];
  return 0;
}

/* Every fact meaning "v is tainted": its own, and what it points to. */
static void flows_from(const weir_llvm_ctx *ctx, LLVMValueRef v, uint32_t to, weir_llvm_flow *flow) {
  uint32_t a = val(ctx, v), b = carrier(ctx, v);
  if (a) weir_llvm_flow_pair(flow, a, to);
  if (b && b != a) weir_llvm_flow_pair(flow, b, to);
}

static void number(weir_llvm_ctx *ctx) {
  for (uint32_t v = 0; v < ctx->value_count; ++v) {
    LLVMValueRef value = ctx->values[v];
    if (LLVMIsAAllocaInst(value)) ctx->fact_b[v] = weir_llvm_new_fact(ctx, FACT_SLOT, v);
    else if (LLVMGetTypeKind(LLVMTypeOf(value)) != LLVMVoidTypeKind)
      ctx->fact_a[v] = weir_llvm_new_fact(ctx, FACT_VALUE, v);
  }
  for (uint32_t p = 0; p < ctx->fn_count; ++p) {
    LLVMTypeRef type = LLVMGetReturnType(LLVMGlobalGetValueType(ctx->fns[p].fn));
    if (LLVMGetTypeKind(type) != LLVMVoidTypeKind) ctx->fns[p].ret_fact = weir_llvm_new_fact(ctx, FACT_RETURN, p);
  }
}

static void describe(weir_llvm_ctx *ctx, uint32_t fact, weir_llvm_text *out) {
  uint32_t kind = ctx->fact_info.v[2 * (fact - 1)], id = ctx->fact_info.v[2 * (fact - 1) + 1];
  if (kind == FACT_RETURN) {
    size_t length = 0;
    const char *name = LLVMGetValueName2(ctx->fns[id].fn, &length);
    weir_llvm_text_printf(out, "taint return of %.*s", (int)length, name);
    return;
  }
  weir_llvm_describe_value(ctx, kind == FACT_SLOT ? "taint slot" : "taint value", id, out);
}

static uint32_t arg_count(LLVMValueRef call) { return LLVMGetNumArgOperands(call); }

static int selected(const weir_llvm_rule *rule, uint32_t k) {
  return rule->from_on ? k >= rule->arg : k == rule->arg;
}

/* `from` taints what `arg` points to; from == 0 generates (a source). */
static void taint_pointee(const weir_llvm_ctx *ctx, LLVMValueRef arg, uint32_t from, weir_llvm_flow *flow) {
  int pointer = LLVMGetTypeKind(LLVMTypeOf(arg)) == LLVMPointerTypeKind;
  uint32_t targets[2] = {carrier(ctx, arg), pointer ? val(ctx, arg) : 0};
  for (int t = 0; t < 2; ++t) {
    if (from == 0) weir_llvm_flow_gen(flow, targets[t]);
    else weir_llvm_flow_pair(flow, from, targets[t]);
  }
}

/* A call without a defined callee: source, sanitizer, transfer rules, and by
 * default "a tainted argument taints the result". */
static void external_call(weir_llvm_ctx *ctx, LLVMValueRef call, weir_llvm_flow *flow) {
  size_t length = 0;
  const char *name = weir_llvm_callee_name(call, &length);
  const weir_llvm_rule *rules[16];
  uint32_t result = val(ctx, call), args = arg_count(call);
  if (weir_llvm_config_find(ctx->config, WEIR_LLVM_SANITIZER, name, length, rules, 16)) {
    for (uint32_t k = 0; k < args; ++k) {
      LLVMValueRef arg = LLVMGetOperand(call, k);
      weir_llvm_flow_kill(flow, carrier(ctx, arg));
      if (LLVMGetTypeKind(LLVMTypeOf(arg)) == LLVMPointerTypeKind) weir_llvm_flow_kill(flow, val(ctx, arg));
    }
    return;
  }
  for (uint32_t k = 0; k < args; ++k) flows_from(ctx, LLVMGetOperand(call, k), result, flow);
  size_t n = weir_llvm_config_find(ctx->config, WEIR_LLVM_SOURCE, name, length, rules, 16);
  for (size_t r = 0; r < n; ++r) {
    if (rules[r]->arg == WEIR_LLVM_ARG_RET) weir_llvm_flow_gen(flow, result);
    else
      for (uint32_t k = 0; k < args; ++k)
        if (selected(rules[r], k)) taint_pointee(ctx, LLVMGetOperand(call, k), 0, flow);
  }
  n = weir_llvm_config_find(ctx->config, WEIR_LLVM_TRANSFER, name, length, rules, 16);
  for (size_t r = 0; r < n; ++r) {
    weir_llvm_rule to = {.arg = rules[r]->to_arg % 256, .from_on = rules[r]->to_arg >= 256};
    for (uint32_t k = 0; k < args; ++k) {
      if (!selected(rules[r], k)) continue;
      LLVMValueRef src = LLVMGetOperand(call, k);
      for (uint32_t d = 0; d < args; ++d) {
        if (!selected(&to, d)) continue;
        uint32_t a = val(ctx, src), b = carrier(ctx, src);
        if (a) taint_pointee(ctx, LLVMGetOperand(call, d), a, flow);
        if (b) taint_pointee(ctx, LLVMGetOperand(call, d), b, flow);
      }
    }
  }
}

static int derives_pointer(LLVMValueRef inst) {
  return LLVMIsAGetElementPtrInst(inst) || LLVMIsACastInst(inst) || LLVMIsAPHINode(inst) ||
         LLVMIsASelectInst(inst);
}

static void plain(weir_llvm_ctx *ctx, LLVMValueRef inst, weir_llvm_flow *flow) {
  if (LLVMIsACallInst(inst)) {
    external_call(ctx, inst, flow);
  } else if (LLVMIsAAllocaInst(inst)) {
    weir_llvm_flow_kill(flow, ctx->fact_b[weir_llvm_vid(ctx, inst)]); /* fresh memory */
  } else if (LLVMIsAStoreInst(inst)) {
    LLVMValueRef pointer = LLVMGetOperand(inst, 1);
    weir_llvm_origin o = weir_llvm_origin_of(ctx, pointer);
    uint32_t target = o.kind == WEIR_LLVM_ORIGIN_SLOT ? ctx->fact_b[o.vid]
                      : o.kind == WEIR_LLVM_ORIGIN_PARAM ? ctx->fact_a[o.vid]
                                                         : val(ctx, pointer);
    /* Only a store to the whole slot overwrites it (strong update). */
    if (o.kind == WEIR_LLVM_ORIGIN_SLOT && o.direct) weir_llvm_flow_kill(flow, target);
    flows_from(ctx, LLVMGetOperand(inst, 0), target, flow);
  } else if (LLVMIsALoadInst(inst)) {
    flows_from(ctx, LLVMGetOperand(inst, 0), val(ctx, inst), flow);
  } else if (LLVMIsAReturnInst(inst)) {
    uint32_t proc = ctx->value_proc[weir_llvm_vid(ctx, inst)];
    if (LLVMGetNumOperands(inst) == 1 && ctx->fns[proc].ret_fact)
      flows_from(ctx, LLVMGetOperand(inst, 0), ctx->fns[proc].ret_fact, flow);
  } else if (val(ctx, inst)) {
    /* Arithmetic, casts, GEP, phi, select, compares, aggregates. */
    uint32_t result = val(ctx, inst);
    int pointer_derivation = derives_pointer(inst);
    for (int k = 0; k < LLVMGetNumOperands(inst); ++k) {
      LLVMValueRef op = LLVMGetOperand(inst, k);
      weir_llvm_flow_pair(flow, val(ctx, op), result);
      if (pointer_derivation) weir_llvm_flow_pair(flow, carrier(ctx, op), result);
    }
  }
}

static void call_to_return(weir_llvm_ctx *ctx, LLVMValueRef call, weir_llvm_flow *flow) {
  (void)ctx, (void)call, (void)flow; /* callees cannot untaint the caller's facts */
}

static void callee(weir_llvm_ctx *ctx, LLVMValueRef call, uint32_t proc, weir_llvm_flow *call_flow,
                   weir_llvm_flow *ret_flow) {
  LLVMValueRef fn = ctx->fns[proc].fn;
  uint32_t args = arg_count(call), k = 0;
  for (LLVMValueRef param = LLVMGetFirstParam(fn); param && k < args; param = LLVMGetNextParam(param), ++k) {
    LLVMValueRef arg = LLVMGetOperand(call, k);
    uint32_t p = val(ctx, param);
    flows_from(ctx, arg, p, call_flow);
    /* Taint written through a pointer parameter returns to the argument. */
    if (p && LLVMGetTypeKind(LLVMTypeOf(param)) == LLVMPointerTypeKind) taint_pointee(ctx, arg, p, ret_flow);
  }
  weir_llvm_flow_pair(ret_flow, ctx->fns[proc].ret_fact ? ctx->fns[proc].ret_fact : WEIR_LLVM_NONE,
                      val(ctx, call));
}

static void check(weir_llvm_ctx *ctx, LLVMValueRef inst, uint32_t node) {
  if (!LLVMIsACallInst(inst) || weir_llvm_classify_call(ctx, inst) != WEIR_LLVM_CALL_EXTERNAL) return;
  size_t length = 0;
  const char *name = weir_llvm_callee_name(inst, &length);
  const weir_llvm_rule *rules[16];
  if (weir_llvm_config_find(ctx->config, WEIR_LLVM_SOURCE, name, length, rules, 16))
    weir_llvm_add_source(ctx, node, inst, name, length);
  size_t n = weir_llvm_config_find(ctx->config, WEIR_LLVM_SINK, name, length, rules, 16);
  uint32_t args = arg_count(inst);
  for (uint32_t k = 0; k < args; ++k) {
    int sink = 0;
    for (size_t r = 0; r < n && !sink; ++r) sink = selected(rules[r], k);
    if (!sink) continue;
    LLVMValueRef arg = LLVMGetOperand(inst, k);
    uint32_t facts[2] = {val(ctx, arg), carrier(ctx, arg)};
    size_t count = 0;
    uint32_t list[2];
    for (int f = 0; f < 2; ++f)
      if (facts[f] && (count == 0 || list[0] != facts[f])) list[count++] = facts[f];
    char message[192];
    snprintf(message, sizeof message, "tainted data reaches argument %u of '%.*s'", k + 1,
             (int)(length > 96 ? 96 : length), name);
    weir_llvm_add_check(ctx, node, list, count, inst, message);
  }
}

const weir_llvm_hooks weir_llvm_taint_hooks = {number, plain, call_to_return, callee, check, describe};
