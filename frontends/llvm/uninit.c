/* The uninit analysis: possibly-uninitialized stack slots. Facts: one per
 * alloca ("the slot may be uninitialized") and one per pointer parameter of
 * a defined function ("the memory the parameter points to may be
 * uninitialized"). Generated at the alloca, killed by any store into the slot
 * (field-insensitive: a store to one element counts for the whole slot).
 * Pointer arguments (README.md, "the pointer-argument rule"):
 *   - into a defined callee, the caller's slot fact becomes the parameter's
 *     fact, so reads through the parameter before a store are found inside
 *     the callee; the call-to-return flow kills the slot, and the return flow
 *     brings it back only when the callee never writes through the parameter
 *     (no store through it, never passes it on): a callee that may write
 *     counts as initializing it, as out-parameters written on success only
 *     (`if (err) return err; *out = v;`) would otherwise flood the report;
 *   - into a declaration (libc: scanf, memset, fgets, ...) the slot counts as
 *     initialized after the call (we cannot see the body).
 * A slot or parameter whose address is stored into memory escapes: it counts
 * as initialized from that store on (written, for a parameter).
 * A finding is a load from a slot (or through a parameter) whose fact holds. */
#include <stdio.h>
#include <stdlib.h>

#include "frontends/llvm/internal.h"

enum { FACT_SLOT = 0, FACT_PARAM = 1 };

static uint32_t carrier(const weir_llvm_ctx *ctx, LLVMValueRef pointer) {
  if (LLVMGetTypeKind(LLVMTypeOf(pointer)) != LLVMPointerTypeKind) return 0;
  weir_llvm_origin o = weir_llvm_origin_of(ctx, pointer);
  if (o.kind == WEIR_LLVM_ORIGIN_SLOT) return ctx->fact_b[o.vid];
  if (o.kind == WEIR_LLVM_ORIGIN_PARAM) return ctx->fact_a[o.vid];
  return 0;
}

/* The address a store writes into memory, unless the store is the -O0 spill
 * of a parameter into its own slot (that is no escape). */
static LLVMValueRef escaping_address(const weir_llvm_ctx *ctx, LLVMValueRef store) {
  uint32_t slot = weir_llvm_vid(ctx, LLVMGetOperand(store, 1));
  if (slot != WEIR_LLVM_NONE && ctx->spill_of[slot] != WEIR_LLVM_NONE) return NULL;
  return LLVMGetOperand(store, 0);
}

static void mark_written(weir_llvm_ctx *ctx, LLVMValueRef pointer) {
  if (!pointer) return;
  if (LLVMGetTypeKind(LLVMTypeOf(pointer)) != LLVMPointerTypeKind) return;
  weir_llvm_origin o = weir_llvm_origin_of(ctx, pointer);
  if (o.kind == WEIR_LLVM_ORIGIN_PARAM) ctx->may_write[o.vid] = 1;
}

static void number(weir_llvm_ctx *ctx) {
  ctx->may_write = calloc(ctx->value_count ? ctx->value_count : 1, 1);
  if (!ctx->may_write) {
    ctx->failed = 1;
    return;
  }
  for (uint32_t v = 0; v < ctx->value_count; ++v) {
    LLVMValueRef value = ctx->values[v];
    if (LLVMIsAAllocaInst(value)) ctx->fact_b[v] = weir_llvm_new_fact(ctx, FACT_SLOT, v);
    else if (LLVMIsAArgument(value) && LLVMGetTypeKind(LLVMTypeOf(value)) == LLVMPointerTypeKind)
      ctx->fact_a[v] = weir_llvm_new_fact(ctx, FACT_PARAM, v);
    else if (LLVMIsAStoreInst(value)) {
      mark_written(ctx, LLVMGetOperand(value, 1));
      mark_written(ctx, escaping_address(ctx, value));
    }
    else if (LLVMIsACallInst(value))
      for (unsigned k = 0; k < LLVMGetNumArgOperands(value); ++k) mark_written(ctx, LLVMGetOperand(value, k));
  }
}

static void describe(weir_llvm_ctx *ctx, uint32_t fact, weir_llvm_text *out) {
  uint32_t kind = ctx->fact_info.v[2 * (fact - 1)], id = ctx->fact_info.v[2 * (fact - 1) + 1];
  weir_llvm_describe_value(ctx, kind == FACT_SLOT ? "uninit slot" : "uninit pointee of", id, out);
}

static void kill_pointer_args(const weir_llvm_ctx *ctx, LLVMValueRef call, weir_llvm_flow *flow) {
  for (unsigned k = 0; k < LLVMGetNumArgOperands(call); ++k)
    weir_llvm_flow_kill(flow, carrier(ctx, LLVMGetOperand(call, k)));
}

static void plain(weir_llvm_ctx *ctx, LLVMValueRef inst, weir_llvm_flow *flow) {
  if (LLVMIsAAllocaInst(inst)) weir_llvm_flow_gen(flow, ctx->fact_b[weir_llvm_vid(ctx, inst)]);
  else if (LLVMIsAStoreInst(inst)) {
    weir_llvm_flow_kill(flow, carrier(ctx, LLVMGetOperand(inst, 1)));
    /* A slot whose address is stored somewhere escapes our tracking: from
     * here on it counts as initialized (no alias analysis). */
    LLVMValueRef escaping = escaping_address(ctx, inst);
    if (escaping) weir_llvm_flow_kill(flow, carrier(ctx, escaping));
  }
  else if (LLVMIsACallInst(inst)) kill_pointer_args(ctx, inst, flow);
}

static void call_to_return(weir_llvm_ctx *ctx, LLVMValueRef call, weir_llvm_flow *flow) {
  kill_pointer_args(ctx, call, flow); /* the return flow brings back what stays uninitialized */
}

static void callee(weir_llvm_ctx *ctx, LLVMValueRef call, uint32_t proc, weir_llvm_flow *call_flow,
                   weir_llvm_flow *ret_flow) {
  uint32_t args = LLVMGetNumArgOperands(call), k = 0;
  for (LLVMValueRef param = LLVMGetFirstParam(ctx->fns[proc].fn); param && k < args;
       param = LLVMGetNextParam(param), ++k) {
    uint32_t p = ctx->fact_a[weir_llvm_vid(ctx, param)];
    uint32_t c = carrier(ctx, LLVMGetOperand(call, k));
    if (!p || !c) continue;
    weir_llvm_flow_pair(call_flow, c, p);
    if (!ctx->may_write[weir_llvm_vid(ctx, param)]) weir_llvm_flow_pair(ret_flow, p, c);
  }
}

/* The name of a parameter: its -O0 spill slot's variable, else the IR name. */
static void param_name(const weir_llvm_ctx *ctx, uint32_t vid, weir_llvm_text *out) {
  LLVMValueRef param = ctx->values[vid];
  for (LLVMUseRef u = LLVMGetFirstUse(param); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (!LLVMIsAStoreInst(user)) continue;
    LLVMValueRef slot = LLVMGetOperand(user, 1);
    uint32_t s = weir_llvm_vid(ctx, slot);
    if (s != WEIR_LLVM_NONE && ctx->spill_of[s] == vid) {
      weir_llvm_slot_name(ctx, slot, out);
      return;
    }
  }
  size_t length = 0;
  const char *name = LLVMGetValueName2(param, &length);
  if (length) weir_llvm_text_put(out, name, length);
  else weir_llvm_text_printf(out, "parameter %u", vid);
}

static void check(weir_llvm_ctx *ctx, LLVMValueRef inst, uint32_t node) {
  if (!LLVMIsALoadInst(inst)) return;
  LLVMValueRef pointer = LLVMGetOperand(inst, 0);
  uint32_t fact = carrier(ctx, pointer);
  if (!fact) return;
  weir_llvm_origin o = weir_llvm_origin_of(ctx, pointer);
  weir_llvm_text name = {0}, message = {0};
  if (o.kind == WEIR_LLVM_ORIGIN_SLOT) {
    weir_llvm_slot_name(ctx, ctx->values[o.vid], &name);
    weir_llvm_text_printf(&message, "variable '%s' may be used uninitialized", name.p ? name.p : "?");
  } else {
    param_name(ctx, o.vid, &name);
    weir_llvm_text_printf(&message,
                          "memory behind parameter '%s' may be read uninitialized (a caller "
                          "passes an uninitialized variable)",
                          name.p ? name.p : "?");
  }
  if (name.failed || message.failed) ctx->failed = 1;
  else weir_llvm_add_check(ctx, node, &fact, 1, inst, message.p);
  weir_llvm_text_free(&name);
  weir_llvm_text_free(&message);
}

const weir_llvm_hooks weir_llvm_uninit_hooks = {number, plain, call_to_return, callee, check, describe};
