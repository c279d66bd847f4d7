/* Writes the problem text: header, fact legend, procedures, then per
 * function its edges, call and callee lines, and finally the seeds. The flow
 * of an instruction sits on the edges that leave its node, so the facts that
 * hold at a node are those before the instruction runs. */
#include <string.h>

#include "frontends/llvm/internal.h"

typedef struct emitter {
  weir_llvm_ctx *ctx;
  weir_llvm_text *text;
  weir_llvm_flow flow, flow2;
  weir_llvm_text token;
} emitter;

static void write_proc_name(emitter *e, uint32_t proc) {
  size_t length = 0;
  const char *name = LLVMGetValueName2(e->ctx->fns[proc].fn, &length);
  int clean = length > 0;
  for (size_t k = 0; k < length && clean; ++k)
    if ((unsigned char)name[k] <= ' ' || name[k] == '#' || (unsigned char)name[k] >= 0x7f) clean = 0;
  /* Names must be one token and unique; LLVM names are unique, so only odd
   * ones (empty, quoted with spaces or non-ASCII bytes) get a numbered
   * stand-in, with a leading '"' that no clean LLVM name can start with. */
  if (clean && name[0] != '"') weir_llvm_text_put(e->text, name, length);
  else weir_llvm_text_printf(e->text, "\"anonymous.%u", proc);
}

static void write_header(emitter *e) {
  weir_llvm_ctx *ctx = e->ctx;
  weir_llvm_text_printf(e->text,
                        "weir-ifds 1\n# %s analysis of %s (weir analyze, LLVM frontend)\n"
                        "facts %u\nprocs %u\nnodes %u\n",
                        weir_llvm_analysis_name(ctx->analysis), ctx->out->name, ctx->fact_count,
                        ctx->fn_count, ctx->node_count);
  weir_llvm_text_put(e->text, "# fact 0 zero\n", 14);
  for (uint32_t f = 1; f < ctx->fact_count; ++f) {
    weir_llvm_text_printf(e->text, "# fact %u ", f);
    ctx->hooks->describe(ctx, f, e->text);
    weir_llvm_text_put(e->text, "\n", 1);
  }
  for (uint32_t p = 0; p < ctx->fn_count; ++p) {
    weir_llvm_text_printf(e->text, "proc %u ", p);
    write_proc_name(e, p);
    weir_llvm_text_printf(e->text, " %u %u\n", ctx->fns[p].first, ctx->fns[p].last);
  }
}

static void write_edge(emitter *e, uint32_t from, uint32_t to, const weir_llvm_text *token) {
  weir_llvm_text_printf(e->text, "edge %u %u ", from, to);
  weir_llvm_text_put(e->text, token->p, token->n);
  weir_llvm_text_put(e->text, "\n", 1);
  e->ctx->out->stats.edges++;
}

static uint32_t first_node(const weir_llvm_ctx *ctx, LLVMBasicBlockRef block) {
  return ctx->node_of[weir_llvm_vid(ctx, LLVMGetFirstInstruction(block))];
}

static void set_token(emitter *e, weir_llvm_flow *flow) {
  e->token.n = 0;
  weir_llvm_flow_write(&e->token, flow);
}

static void write_call(emitter *e, LLVMValueRef call, uint32_t vid, uint32_t node) {
  weir_llvm_ctx *ctx = e->ctx;
  uint32_t ret = node + 1;
  weir_llvm_flow_reset(&e->flow, 1);
  ctx->hooks->call_to_return(ctx, call, &e->flow);
  weir_llvm_text_printf(e->text, "call %u %u ", node, ret);
  weir_llvm_flow_write(e->text, &e->flow);
  weir_llvm_text_put(e->text, "\n", 1);
  ctx->out->stats.call_sites++;
  for (uint32_t k = 0; k < ctx->callee_count[vid]; ++k) {
    uint32_t proc = ctx->callees.v[ctx->callee_first[vid] + k];
    weir_llvm_flow_reset(&e->flow, 0);
    weir_llvm_flow_reset(&e->flow2, 0);
    ctx->hooks->callee(ctx, call, proc, &e->flow, &e->flow2);
    weir_llvm_text_printf(e->text, "callee %u %u ", node, proc);
    weir_llvm_flow_write(e->text, &e->flow);
    weir_llvm_text_put(e->text, " ", 1);
    weir_llvm_flow_write(e->text, &e->flow2);
    weir_llvm_text_put(e->text, "\n", 1);
    ctx->out->stats.callee_lines++;
  }
  /* The return site leads to the next instruction unchanged. */
  weir_llvm_text_printf(e->text, "edge %u %u id\n", ret,
                        ctx->node_of[weir_llvm_vid(ctx, LLVMGetNextInstruction(call))]);
  ctx->out->stats.edges++;
}

static void write_plain(emitter *e, LLVMValueRef inst, uint32_t proc, uint32_t node) {
  weir_llvm_ctx *ctx = e->ctx;
  weir_llvm_flow_reset(&e->flow, 1);
  if (!(LLVMIsACallInst(inst) && weir_llvm_classify_call(ctx, inst) == WEIR_LLVM_CALL_IGNORED))
    ctx->hooks->plain(ctx, inst, &e->flow);
  set_token(e, &e->flow);
  if (!LLVMIsATerminatorInst(inst)) {
    write_edge(e, node, ctx->node_of[weir_llvm_vid(ctx, LLVMGetNextInstruction(inst))], &e->token);
    return;
  }
  if (LLVMIsAReturnInst(inst)) {
    write_edge(e, node, ctx->fns[proc].last, &e->token);
    return;
  }
  /* Several successors may be the same block (switch cases): one edge each. */
  unsigned count = LLVMGetNumSuccessors(inst);
  for (unsigned s = 0; s < count; ++s) {
    uint32_t target = first_node(ctx, LLVMGetSuccessor(inst, s));
    int seen = 0;
    for (unsigned t = 0; t < s && !seen; ++t) seen = first_node(ctx, LLVMGetSuccessor(inst, t)) == target;
    if (!seen) write_edge(e, node, target, &e->token);
  }
}

static void write_function(emitter *e, uint32_t proc) {
  weir_llvm_ctx *ctx = e->ctx;
  LLVMValueRef f = ctx->fns[proc].fn;
  weir_llvm_text_printf(e->text, "# %u: ", proc);
  write_proc_name(e, proc);
  weir_llvm_text_printf(e->text, "\nedge %u %u id\n", ctx->fns[proc].first,
                        first_node(ctx, LLVMGetEntryBasicBlock(f)));
  ctx->out->stats.edges++;
  for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(f); b; b = LLVMGetNextBasicBlock(b))
    for (LLVMValueRef i = LLVMGetFirstInstruction(b); i; i = LLVMGetNextInstruction(i)) {
      uint32_t vid = weir_llvm_vid(ctx, i);
      uint32_t node = ctx->node_of[vid];
      if (ctx->callee_count[vid]) write_call(e, i, vid, node);
      else write_plain(e, i, proc, node);
      ctx->hooks->check(ctx, i, node);
    }
}

/* Entry points: main, and every function no resolved call reaches (library
 * API, callbacks handed to external code, dead code), in the zero context. */
static void write_seeds(emitter *e) {
  weir_llvm_ctx *ctx = e->ctx;
  for (uint32_t p = 0; p < ctx->fn_count; ++p) {
    size_t length = 0;
    const char *name = LLVMGetValueName2(ctx->fns[p].fn, &length);
    int is_main = length == 4 && memcmp(name, "main", 4) == 0;
    if (!is_main && ctx->fns[p].incoming) continue;
    weir_llvm_text_printf(e->text, "seed %u 0\n", ctx->fns[p].first);
    ctx->out->stats.seeds++;
  }
}

weir_status weir_llvm_emit(weir_llvm_ctx *ctx) {
  emitter e = {.ctx = ctx, .text = &ctx->out->text};
  write_header(&e);
  for (uint32_t p = 0; p < ctx->fn_count; ++p) write_function(&e, p);
  write_seeds(&e);
  int failed = e.text->failed || e.token.failed || e.flow.kills.failed || e.flow.pairs.failed ||
               e.flow2.kills.failed || e.flow2.pairs.failed || ctx->out->failed || ctx->failed;
  weir_llvm_flow_free(&e.flow);
  weir_llvm_flow_free(&e.flow2);
  weir_llvm_text_free(&e.token);
  if (failed)
    return weir_fail(WEIR_ERR_OUT_OF_MEMORY,
                     "analyze %s: no memory for the problem text (%zu bytes so far). Fix: free "
                     "memory or analyse a smaller module",
                     ctx->out->name, e.text->n);
  ctx->out->stats.nodes = ctx->node_count;
  ctx->out->stats.facts = ctx->fact_count;
  ctx->out->stats.functions = ctx->fn_count;
  ctx->out->stats.checks = (uint32_t)ctx->out->check_count;
  ctx->out->stats.text_bytes = e.text->n;
  return WEIR_OK;
}
