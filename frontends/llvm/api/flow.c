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
