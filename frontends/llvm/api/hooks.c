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

static weir_status record(weir_analysis_ctx *cx, weir_status status, const char *fmt, va_list ap) {
  if (cx->error != WEIR_OK) return cx->error; /* the first one says most */
  int n = snprintf(cx->message, sizeof cx->message, "analysis '%s': ", cx->decl->id);
  if (n > 0 && (size_t)n < sizeof cx->message) vsnprintf(cx->message + n, sizeof cx->message - (size_t)n, fmt, ap);
  cx->error = status;
  return cx->error;
}

weir_status weir_llvm_api_misuse(weir_analysis_ctx *cx, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  weir_status s = record(cx, WEIR_ERR_INVALID_ARGUMENT, fmt, ap);
  va_end(ap);
  return s;
}

weir_status weir_llvm_api_failure(weir_analysis_ctx *cx, weir_status status, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  weir_status s = record(cx, status, fmt, ap);
  va_end(ap);
  return s;
}

/* Around every callback. A call that fails without reaching this build's
 * state (a NULL flow or context: nothing says which build it belongs to)
 * leaves its message on the thread, as does a callback that calls
 * weir_fail to give up (callbacks return nothing): either fails the build,
 * as a misuse does, rather than being dropped by a plugin that ignores the
 * status. */
static void before(void) { weir_clear_error(); }

static void after(weir_analysis_ctx *cx, const char *callback) {
  const char *message = weir_last_error();
  if (!message[0] || cx->error != WEIR_OK) return;
  weir_llvm_api_misuse(cx, "in the %s callback: %s%s", callback, message,
                       strstr(message, "Fix:") ? "" : ". Fix: pass the handles the callback got");
  weir_clear_error();
}

static void number(weir_llvm_ctx *ctx) {
  before();
  weir_llvm_api_number(ctx);
  after(ctx->api, "number");
}


static void entry(weir_llvm_ctx *ctx, uint32_t proc, weir_llvm_flow *flow) {
  weir_analysis_ctx *cx = ctx->api;
  weir_flow f = {flow, cx};
  if (!cx->decl->entry) return;
  before();
  cx->decl->entry(cx, API_FN_HANDLE(ctx->fns[proc].fn), &f);
  after(cx, "entry");
}

static void plain(weir_llvm_ctx *ctx, LLVMValueRef inst, weir_llvm_flow *flow) {
  weir_analysis_ctx *cx = ctx->api;
  const weir_analysis *d = cx->decl;
  weir_flow f = {flow, cx};
  const weir_ir_value *h = API_HANDLE(inst);
  weir_llvm_api_follow_plain(cx, inst, flow);
  before();
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
  after(cx, "store, load, call_library, ret or other");
}

static void move(weir_llvm_ctx *ctx, LLVMValueRef value, LLVMValueRef phi, weir_llvm_flow *flow) {
  weir_analysis_ctx *cx = ctx->api;
  weir_flow f = {flow, cx};
  weir_llvm_api_follow_move(cx, value, phi, flow);
  if (!cx->decl->phi) return;
  before();
  cx->decl->phi(cx, API_HANDLE(phi), API_HANDLE(value), &f);
  after(cx, "phi");
}

static void call_to_return(weir_llvm_ctx *ctx, LLVMValueRef call, weir_llvm_flow *flow) {
  weir_analysis_ctx *cx = ctx->api;
  weir_flow f = {flow, cx};
  weir_llvm_api_follow_call_to_return(cx, call, flow);
  if (!cx->decl->call_to_return) return;
  before();
  cx->decl->call_to_return(cx, API_HANDLE(call), &f);
  after(cx, "call_to_return");
}

static void callee(weir_llvm_ctx *ctx, LLVMValueRef call, uint32_t proc, weir_llvm_flow *call_flow,
                   weir_llvm_flow *ret_flow) {
  weir_analysis_ctx *cx = ctx->api;
  weir_flow in = {call_flow, cx}, out = {ret_flow, cx};
  const weir_ir_function *fn = API_FN_HANDLE(ctx->fns[proc].fn);
  weir_llvm_api_follow_callee(cx, call, proc, call_flow, ret_flow);
  before();
  if (cx->decl->call_enter) cx->decl->call_enter(cx, API_HANDLE(call), fn, &in);
  if (cx->decl->call_exit) cx->decl->call_exit(cx, API_HANDLE(call), fn, &out);
  after(cx, "call_enter or call_exit");
}

static void check(weir_llvm_ctx *ctx, LLVMValueRef inst, uint32_t node) {
  (void)node; /* weir_analysis_report finds it again from the instruction */
  weir_analysis_ctx *cx = ctx->api;
  cx->checking = 1;
  before();
  cx->decl->check(cx, API_HANDLE(inst));
  after(cx, "check");
  cx->checking = 0;
}

static void describe(weir_llvm_ctx *ctx, uint32_t fact, weir_llvm_text *out) { weir_llvm_api_describe(ctx, fact, out); }

static void edge(weir_llvm_ctx *ctx, LLVMValueRef term, LLVMBasicBlockRef succ, weir_llvm_flow *flow) {
  weir_analysis_ctx *cx = ctx->api;
  if (!cx->decl->branch) return;
  unsigned count = LLVMGetNumSuccessors(term), s = 0;
  while (s < count && LLVMGetSuccessor(term, s) != succ) ++s;
  weir_flow f = {flow, cx};
  before();
  cx->decl->branch(cx, API_HANDLE(term), s, &f);
  after(cx, "branch");
}

const weir_llvm_hooks weir_llvm_api_hooks = {number, entry, plain, move, call_to_return, callee,
                                             check, describe, edge};

/* A failed init: fini gets NULL (docs/analysis-api.md: what init made is
 * init's to free when it fails), and the message names the plugin and the
 * status, with init's own message when it gave one. A refusal of the plugin
 * (exit 2), whatever status it returned. */
static const char *origin(const weir_analysis_ctx *cx) { return cx->plugin->handle ? cx->plugin->origin : ""; }

static weir_status init_failed(weir_analysis_ctx *cx, weir_status s) {
  cx->state = NULL;
  char why[512];
  snprintf(why, sizeof why, "%s", weir_last_error());
  if (why[0])
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT, "analysis '%s'%s%s: its init callback failed with %s (%d): %s%s",
                     cx->decl->id, origin(cx)[0] ? " from " : "", origin(cx), weir_status_name(s), (int)s, why,
                     strstr(why, "Fix:") ? "" : ". Fix: see what the plugin needs to start");
  return weir_fail(WEIR_ERR_INVALID_ARGUMENT, "analysis '%s'%s%s: its init callback failed with %s (%d) and gave no "
                   "reason. Fix: see what the plugin needs to start; its author: call weir_fail with the reason "
                   "and a Fix before returning the status", cx->decl->id, origin(cx)[0] ? " from " : "", origin(cx), weir_status_name(s), (int)s);
}

static weir_status init_builtin(weir_analysis_ctx *cx) {
  weir_clear_error();
  weir_status s = cx->decl->init(cx, &cx->state);
  return s == WEIR_OK ? WEIR_OK : init_failed(cx, s);
}

weir_status weir_llvm_api_begin(weir_llvm_ctx *ctx, const weir_llvm_plugin *plugin) {
  weir_analysis_ctx *cx = calloc(1, sizeof *cx);
  if (!cx) return weir_fail(WEIR_ERR_OUT_OF_MEMORY, "analysis: no memory for its state. Fix: free memory");
  cx->ctx = ctx;
  cx->locations = weir_llvm_memory_location_count(ctx->memory);
  cx->plugin = plugin;
  cx->decl = plugin->decl;
  ctx->api = cx;
  /* A built-in asks weir's table (the defaults and --config), as before it
   * was written on the API; its report side is the built-in's own. */
  cx->table = plugin->builtin ? ctx->config : plugin->table;
  ctx->names = cx->table;
  weir_llvm_problem *out = ctx->out;
  if (plugin->builtin) return cx->decl->init ? init_builtin(cx) : WEIR_OK;
  snprintf(out->plugin_id, sizeof out->plugin_id, "%s", cx->decl->id);
  /* Bounded reads: a plugin's strings are not trusted to end. */
  const char *version = cx->decl->version ? cx->decl->version : "";
  const char *description = cx->decl->description ? cx->decl->description : "";
  snprintf(out->plugin_version, sizeof out->plugin_version, "%.*s", (int)strnlen(version, 63), version);
  snprintf(out->plugin_description, sizeof out->plugin_description, "%.*s", (int)strnlen(description, 255),
           description);
  snprintf(out->source_label, sizeof out->source_label, "%s", cx->decl->source_label ? cx->decl->source_label : "from");
  WEIR_TRY(weir_llvm_api_copy_rules(out, cx->decl));
  if (!cx->decl->init) return WEIR_OK;
  weir_clear_error(); /* what is on the thread after init is init's own message */
  weir_status s = cx->decl->init(cx, &cx->state);
  return s == WEIR_OK ? WEIR_OK : init_failed(cx, s);
}

weir_status weir_llvm_api_end(weir_llvm_ctx *ctx, weir_status s) {
  weir_analysis_ctx *cx = ctx->api;
  if (!cx) return s;
  if (cx->decl->fini) cx->decl->fini(cx->state);
  if (cx->error != WEIR_OK) /* the misuse explains whatever failed after it */
    s = weir_fail(cx->error, "%s", cx->message);
  weir_llvm_api_facts_free(cx);
  weir_llvm_vec_free(&cx->deep);
  free(cx);
  ctx->api = NULL;
  return s;
}
