/* The flow builder of include/weir/analysis.h over weir_llvm_flow: the
 * same transfers the built-ins make, with each fact checked against the
 * numbering (a wrong one is a misuse reported at the end of the build, never
 * an index out of range later). */
#include "frontends/llvm/api/api.h"

static int fact_ok(weir_flow *flow, weir_fact fact, const char *call) {
  if (!flow || !flow->cx) return 0;
  if (fact < flow->cx->ctx->fact_count) return 1;
  weir_llvm_api_misuse(flow->cx, "%s: fact %u, but the analysis has %u facts. Fix: pass facts that "
                       "weir_analysis_*_fact gave (0: none)", call, fact, flow->cx->ctx->fact_count);
  return 0;
}

static weir_status status_of(weir_flow *flow) {
  return !flow ? weir_fail(WEIR_ERR_INVALID_ARGUMENT, "weir_flow_*: flow is NULL. Fix: pass the flow the callback got")
               : flow->cx->error;
}

weir_status weir_flow_gen(weir_flow *flow, weir_fact to) {
  if (fact_ok(flow, to, "weir_flow_gen")) weir_llvm_flow_gen(flow->flow, to);
  return status_of(flow);
}

weir_status weir_flow_kill(weir_flow *flow, weir_fact fact) {
  if (fact_ok(flow, fact, "weir_flow_kill")) weir_llvm_flow_kill(flow->flow, fact);
  return status_of(flow);
}

weir_status weir_flow_pair(weir_flow *flow, weir_fact from, weir_fact to) {
  if (fact_ok(flow, from, "weir_flow_pair") && fact_ok(flow, to, "weir_flow_pair"))
    weir_llvm_flow_pair(flow->flow, from, to);
  return status_of(flow);
}

weir_status weir_flow_copy_blocks(weir_flow *flow, uint32_t kind, const weir_mem_location *from, size_t from_count,
                                  const weir_mem_location *to, size_t to_count) {
  if (!flow || !flow->cx) return status_of(flow);
  weir_analysis_ctx *cx = flow->cx;
  if (kind >= cx->decl->kind_count || cx->decl->kinds[kind].domain != WEIR_FACT_PER_LOCATION || !cx->facts[kind])
    return weir_llvm_api_misuse(cx, "weir_flow_copy_blocks(kind %u): not a PER_LOCATION kind of the %u declared. "
                                "Fix: pass the index of the location kind whose facts the copy moves", kind,
                                cx->decl->kind_count);
  if ((!from && from_count) || (!to && to_count))
    return weir_llvm_api_misuse(cx, "weir_flow_copy_blocks: %s is NULL with a count. Fix: pass the locations (or "
                                "NULL and 0)", !from && from_count ? "from" : "to");
  uint32_t locations = weir_llvm_memory_location_count(cx->ctx->memory);
  for (size_t k = 0; k < from_count + to_count; ++k) {
    uint32_t l = k < from_count ? from[k] : to[k - from_count];
    if (l >= locations)
      return weir_llvm_api_misuse(cx, "weir_flow_copy_blocks: location %u of %u. Fix: pass locations the memory "
                                  "queries gave", l, locations);
  }
  weir_llvm_copy_blocks_of(cx->ctx, cx->facts[kind], from, from_count, to, to_count, flow->flow);
  return cx->error;
}
