/* The weir_llvm_hooks of every plugin analysis: each hook adds the FOLLOW
 * flows (follow.c), then calls the plugin's callback for that kind of
 * instruction with handles that are the frontend's own pointers. The rest
 * of the pipeline (module/emit.c, report/) cannot tell a plugin from a
 * built-in. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontends/llvm/api/api.h"

weir_status weir_llvm_api_misuse(weir_analysis_ctx *cx, const char *fmt, ...) {
  if (cx->error != WEIR_OK) return cx->error; /* the first one says most */
  int n = snprintf(cx->message, sizeof cx->message, "analysis '%s': ", cx->decl->id);
  va_list ap;
  va_start(ap, fmt);
  if (n > 0 && (size_t)n < sizeof cx->message) vsnprintf(cx->message + n, sizeof cx->message - (size_t)n, fmt, ap);
  va_end(ap);
  cx->error = WEIR_ERR_INVALID_ARGUMENT;
  return cx->error;
}

static void number(weir_llvm_ctx *ctx) { weir_llvm_api_number(ctx); }

static void entry(weir_llvm_ctx *ctx, uint32_t proc, weir_llvm_flow *flow) {
  weir_analysis_ctx *cx = ctx->api;
  weir_flow f = {flow, cx};
  if (cx->decl->entry) cx->decl->entry(cx, API_FN_HANDLE(ctx->fns[proc].fn), &f);
}

static void plain(weir_llvm_ctx *ctx, LLVMValueRef inst, weir_llvm_flow *flow) {
  weir_analysis_ctx *cx = ctx->api;
  const weir_analysis *d = cx->decl;
  weir_flow f = {flow, cx};
  const weir_ir_value *h = API_HANDLE(inst);
  weir_llvm_api_follow_plain(cx, inst, flow);
  if (LLVMIsAStoreInst(inst)) {
    if (d->store) d->store(cx, h, &f);
  } else if (LLVMIsALoadInst(inst)) {
    if (d->load) d->load(cx, h, &f);
  } else if (LLVMIsACallInst(inst) || LLVMIsAInvokeInst(inst)) {
    if (d->call_library) d->call_library(cx, h, &f);
  } else if (LLVMIsAReturnInst(inst)) {
    if (d->ret) d->ret(cx, h, &f);
  } else if (!LLVMIsATerminatorInst(inst)) { /* terminators: `branch`, per successor (edge) */
    if (d->other) d->other(cx, h, &f);
  }
}

static void move(weir_llvm_ctx *ctx, LLVMValueRef value, LLVMValueRef phi, weir_llvm_flow *flow) {
  weir_analysis_ctx *cx = ctx->api;
  weir_flow f = {flow, cx};
  weir_llvm_api_follow_move(cx, value, phi, flow);
  if (cx->decl->phi) cx->decl->phi(cx, API_HANDLE(phi), API_HANDLE(value), &f);
}

static void call_to_return(weir_llvm_ctx *ctx, LLVMValueRef call, weir_llvm_flow *flow) {
  weir_analysis_ctx *cx = ctx->api;
  weir_flow f = {flow, cx};
  weir_llvm_api_follow_call_to_return(cx, call, flow);
  if (cx->decl->call_to_return) cx->decl->call_to_return(cx, API_HANDLE(call), &f);
}

static void callee(weir_llvm_ctx *ctx, LLVMValueRef call, uint32_t proc, weir_llvm_flow *call_flow,
                   weir_llvm_flow *ret_flow) {
  weir_analysis_ctx *cx = ctx->api;
  weir_flow in = {call_flow, cx}, out = {ret_flow, cx};
  const weir_ir_function *fn = API_FN_HANDLE(ctx->fns[proc].fn);
  weir_llvm_api_follow_callee(cx, call, proc, call_flow, ret_flow);
  if (cx->decl->call_enter) cx->decl->call_enter(cx, API_HANDLE(call), fn, &in);
  if (cx->decl->call_exit) cx->decl->call_exit(cx, API_HANDLE(call), fn, &out);
}

static void check(weir_llvm_ctx *ctx, LLVMValueRef inst, uint32_t node) {
  (void)node; /* weir_analysis_report finds it again from the instruction */
  weir_analysis_ctx *cx = ctx->api;
  cx->checking = 1;
  cx->decl->check(cx, API_HANDLE(inst));
  cx->checking = 0;
}

static void describe(weir_llvm_ctx *ctx, uint32_t fact, weir_llvm_text *out) { weir_llvm_api_describe(ctx, fact, out); }

static void edge(weir_llvm_ctx *ctx, LLVMValueRef term, LLVMBasicBlockRef succ, weir_llvm_flow *flow) {
  weir_analysis_ctx *cx = ctx->api;
  if (!cx->decl->branch) return;
  unsigned count = LLVMGetNumSuccessors(term), s = 0;
  while (s < count && LLVMGetSuccessor(term, s) != succ) ++s;
  weir_flow f = {flow, cx};
  cx->decl->branch(cx, API_HANDLE(term), s, &f);
}

const weir_llvm_hooks weir_llvm_api_hooks = {number, entry, plain, move, call_to_return, callee,
                                             check, describe, edge};

weir_status weir_llvm_api_begin(weir_llvm_ctx *ctx, const weir_llvm_plugin *plugin) {
  weir_analysis_ctx *cx = calloc(1, sizeof *cx);
  if (!cx) return weir_fail(WEIR_ERR_OUT_OF_MEMORY, "analysis: no memory for its state. Fix: free memory");
  cx->ctx = ctx;
  cx->plugin = plugin;
  cx->decl = plugin->decl;
  ctx->api = cx;
  ctx->names = plugin->table;
  weir_llvm_problem *out = ctx->out;
  snprintf(out->plugin_id, sizeof out->plugin_id, "%s", cx->decl->id);
  snprintf(out->source_label, sizeof out->source_label, "%s", cx->decl->source_label ? cx->decl->source_label : "from");
  WEIR_TRY(weir_llvm_api_copy_rules(out, cx->decl));
  if (!cx->decl->init) return WEIR_OK;
  weir_status s = cx->decl->init(cx, &cx->state);
  if (s != WEIR_OK)
    return weir_fail_context(s, "analysis '%s': its init callback failed", cx->decl->id);
  return WEIR_OK;
}

weir_status weir_llvm_api_end(weir_llvm_ctx *ctx, weir_status s) {
  weir_analysis_ctx *cx = ctx->api;
  if (!cx) return s;
  if (cx->decl->fini) cx->decl->fini(cx->state);
  if (cx->error != WEIR_OK) /* the misuse explains whatever failed after it */
    s = weir_fail(cx->error, "%s", cx->message);
  weir_llvm_api_facts_free(cx);
  free(cx);
  ctx->api = NULL;
  return s;
}
