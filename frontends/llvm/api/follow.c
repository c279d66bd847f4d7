/* The standard flows of FOLLOW kinds (include/weir/analysis.h), added
 * before the plugin's callbacks so that an analysis states only what is
 * its own: value facts move with SSA values, location facts cross calls as
 * the built-in taint's do (analyses/taint/taint.c). */
#include "frontends/llvm/api/api.h"

static int follows(const weir_analysis_ctx *cx, uint32_t kind, weir_fact_domain domain) {
  const weir_fact_kind *k = &cx->decl->kinds[kind];
  return k->domain == domain && (k->flags & WEIR_FACT_FOLLOW) && cx->facts[kind];
}

static uint32_t val(const weir_analysis_ctx *cx, uint32_t kind, LLVMValueRef v) {
  return weir_llvm_api_value_fact(cx, kind, v);
}

/* Instructions whose result is computed from their operands' values. */
static int computes(LLVMValueRef inst) {
  return LLVMIsACastInst(inst) || LLVMIsABinaryOperator(inst) || LLVMIsACmpInst(inst) ||
         LLVMIsASelectInst(inst) || LLVMIsAGetElementPtrInst(inst) || LLVMIsAExtractValueInst(inst) ||
         LLVMIsAInsertValueInst(inst) || LLVMIsAExtractElementInst(inst) || LLVMIsAInsertElementInst(inst) ||
         LLVMIsAShuffleVectorInst(inst) || LLVMIsAUnaryOperator(inst) || LLVMIsAFreezeInst(inst);
}

void weir_llvm_api_follow_plain(weir_analysis_ctx *cx, LLVMValueRef inst, weir_llvm_flow *flow) {
  for (uint32_t kind = 0; kind < cx->decl->kind_count; ++kind) {
    if (!follows(cx, kind, WEIR_FACT_PER_VALUE)) continue;
    uint32_t result = val(cx, kind, inst);
    weir_llvm_flow_kill(flow, result); /* redefined (a loop runs it again) */
    if (result && computes(inst)) {
      /* The select's condition is an implicit flow; a GEP points into its base's block. */
      int first = LLVMIsASelectInst(inst) ? 1 : 0;
      int operands = LLVMIsAGetElementPtrInst(inst) ? 1 : LLVMGetNumOperands(inst);
      for (int k = first; k < operands; ++k) weir_llvm_flow_pair(flow, val(cx, kind, LLVMGetOperand(inst, k)), result);
    }
    uint32_t link = cx->decl->kinds[kind].link;
    if (LLVMIsAReturnInst(inst) && LLVMGetNumOperands(inst) == 1 && link != WEIR_ANALYSIS_NO_KIND &&
        cx->facts[link]) {
      uint32_t proc = cx->ctx->value_proc[weir_llvm_vid(cx->ctx, inst)];
      weir_llvm_flow_pair(flow, val(cx, kind, LLVMGetOperand(inst, 0)), cx->facts[link][proc]);
    }
  }
}

void weir_llvm_api_follow_move(weir_analysis_ctx *cx, LLVMValueRef value, LLVMValueRef phi, weir_llvm_flow *flow) {
  for (uint32_t kind = 0; kind < cx->decl->kind_count; ++kind) {
    if (!follows(cx, kind, WEIR_FACT_PER_VALUE)) continue;
    uint32_t to = val(cx, kind, phi);
    weir_llvm_flow_kill(flow, to);
    weir_llvm_flow_pair(flow, val(cx, kind, value), to);
  }
}


static int any_location_follows(const weir_analysis_ctx *cx) {
  for (uint32_t kind = 0; kind < cx->decl->kind_count; ++kind)
    if (follows(cx, kind, WEIR_FACT_PER_LOCATION)) return 1;
  return 0;
}

void weir_llvm_api_follow_call_to_return(weir_analysis_ctx *cx, LLVMValueRef call, weir_llvm_flow *flow) {
  const weir_llvm_vec *mod = any_location_follows(cx) ? weir_llvm_callee_mod(cx->ctx, call) : NULL;
  for (uint32_t kind = 0; kind < cx->decl->kind_count; ++kind) {
    if (follows(cx, kind, WEIR_FACT_PER_VALUE)) weir_llvm_flow_kill(flow, val(cx, kind, call));
    if (!follows(cx, kind, WEIR_FACT_PER_LOCATION)) continue;
    for (size_t k = 0; k < mod->n; ++k) weir_llvm_flow_kill(flow, cx->facts[kind][mod->v[k]]);
  }
}

static void values_into(weir_analysis_ctx *cx, uint32_t kind, LLVMValueRef call, uint32_t proc,
                        weir_llvm_flow *call_flow, weir_llvm_flow *ret_flow) {
  LLVMValueRef fn = cx->ctx->fns[proc].fn;
  uint32_t args = LLVMGetNumArgOperands(call), k = 0;
  for (LLVMValueRef param = LLVMGetFirstParam(fn); param && k < args; param = LLVMGetNextParam(param), ++k)
    weir_llvm_flow_pair(call_flow, val(cx, kind, LLVMGetOperand(call, k)), val(cx, kind, param));
  uint32_t link = cx->decl->kinds[kind].link;
  if (link != WEIR_ANALYSIS_NO_KIND && cx->facts[link])
    weir_llvm_flow_pair(ret_flow, cx->facts[link][proc], val(cx, kind, call));
}

static void locations_into(weir_analysis_ctx *cx, uint32_t kind, LLVMValueRef call, uint32_t proc,
                           weir_llvm_flow *call_flow, weir_llvm_flow *ret_flow) {
  weir_llvm_ctx *ctx = cx->ctx;
  const uint32_t *facts = cx->facts[kind];
  const weir_llvm_vec *mod = weir_llvm_callee_mod(ctx, call);
  const weir_llvm_vec *reach = weir_llvm_call_reach(ctx, call);
  const uint32_t *ref = NULL;
  size_t refs = weir_llvm_memory_ref(ctx->memory, ctx->fns[proc].fn, &ref);
  for (size_t j = 0; j < refs; ++j)
    if (weir_llvm_call_may_touch(ctx, call, reach, ref[j])) weir_llvm_flow_pair(call_flow, facts[ref[j]], facts[ref[j]]);
  for (size_t j = 0; j < mod->n; ++j) {
    weir_llvm_flow_pair(call_flow, facts[mod->v[j]], facts[mod->v[j]]);
    weir_llvm_flow_pair(ret_flow, facts[mod->v[j]], facts[mod->v[j]]);
  }
}

void weir_llvm_api_follow_callee(weir_analysis_ctx *cx, LLVMValueRef call, uint32_t proc, weir_llvm_flow *call_flow,
                                 weir_llvm_flow *ret_flow) {
  for (uint32_t kind = 0; kind < cx->decl->kind_count; ++kind) {
    if (follows(cx, kind, WEIR_FACT_PER_VALUE)) values_into(cx, kind, call, proc, call_flow, ret_flow);
    if (follows(cx, kind, WEIR_FACT_PER_LOCATION)) locations_into(cx, kind, call, proc, call_flow, ret_flow);
  }
}
