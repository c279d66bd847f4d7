/* The ICFG of a module at instruction granularity: value numbering, call
 * resolution (direct, indirect by type over address-taken functions) and
 * node numbering. Each defined function is a procedure laid out as
 *   start, one node per instruction (a call with defined callees takes two:
 *   call node + return site), exit
 * so FIRST < LAST, call nodes are never exits and return sites never starts. */
#include <stdlib.h>
#include <string.h>

#include "frontends/llvm/internal.h"

uint32_t weir_llvm_vid(const weir_llvm_ctx *ctx, LLVMValueRef value) {
  return weir_llvm_map_get(&ctx->value_id, value);
}

int weir_llvm_is_call(LLVMValueRef inst) { return LLVMIsACallInst(inst) != NULL; }

static LLVMValueRef strip_casts(LLVMValueRef v) {
  for (int depth = 0; v && depth < 16; ++depth) {
    if (LLVMIsAConstantExpr(v) && (LLVMGetConstOpcode(v) == LLVMBitCast ||
                                   LLVMGetConstOpcode(v) == LLVMAddrSpaceCast))
      v = LLVMGetOperand(v, 0);
    else if (LLVMIsAGlobalAlias(v))
      v = LLVMAliasGetAliasee(v);
    else
      break;
  }
  return v;
}

LLVMValueRef weir_llvm_direct_callee(LLVMValueRef call) {
  LLVMValueRef v = strip_casts(LLVMGetCalledValue(call));
  return v && LLVMIsAFunction(v) ? v : NULL;
}

const char *weir_llvm_callee_name(LLVMValueRef call, size_t *length) {
  LLVMValueRef fn = weir_llvm_direct_callee(call);
  if (!fn) {
    *length = 0;
    return "";
  }
  return LLVMGetValueName2(fn, length);
}

/* Intrinsics are identity (llvm.dbg.*, lifetime, ...) unless the library
 * table models them: llvm.memcpy/memmove/memset move or write memory,
 * llvm.va_start/va_copy initialise a va_list. */
static int is_ignored_intrinsic(const weir_llvm_config *config, const char *name, size_t length) {
  if (length < 5 || strncmp(name, "llvm.", 5) != 0) return 0;
  weir_llvm_libcall model;
  weir_llvm_library_lookup(config, name, length, &model);
  return !model.known;
}

weir_llvm_call_kind weir_llvm_classify_call(const weir_llvm_ctx *ctx, LLVMValueRef call) {
  uint32_t vid = weir_llvm_vid(ctx, call);
  if (vid != WEIR_LLVM_NONE && ctx->callee_count && ctx->callee_count[vid]) return WEIR_LLVM_CALL_NODE;
  size_t length = 0;
  const char *name = weir_llvm_callee_name(call, &length);
  if (is_ignored_intrinsic(ctx->config, name, length)) return WEIR_LLVM_CALL_IGNORED;
  return WEIR_LLVM_CALL_EXTERNAL;
}

static LLVMValueRef strip_pointer(LLVMValueRef v, int *direct) {
  for (int depth = 0; v && depth < 64; ++depth) {
    if (LLVMIsAGetElementPtrInst(v) || LLVMIsABitCastInst(v) || LLVMIsAAddrSpaceCastInst(v)) {
      *direct = 0;
      v = LLVMGetOperand(v, 0);
    } else if (LLVMIsAConstantExpr(v) && (LLVMGetConstOpcode(v) == LLVMGetElementPtr ||
                                          LLVMGetConstOpcode(v) == LLVMBitCast)) {
      *direct = 0;
      v = LLVMGetOperand(v, 0);
    } else {
      break;
    }
  }
  return v;
}

weir_llvm_origin weir_llvm_origin_of(const weir_llvm_ctx *ctx, LLVMValueRef pointer) {
  weir_llvm_origin o = {WEIR_LLVM_ORIGIN_NONE, WEIR_LLVM_NONE, 1};
  LLVMValueRef v = strip_pointer(pointer, &o.direct);
  if (!v) return o;
  uint32_t vid = weir_llvm_vid(ctx, v);
  if (vid == WEIR_LLVM_NONE) return o;
  if (LLVMIsAAllocaInst(v)) {
    o.kind = WEIR_LLVM_ORIGIN_SLOT;
    o.vid = vid;
  } else if (LLVMIsAArgument(v) && LLVMGetTypeKind(LLVMTypeOf(v)) == LLVMPointerTypeKind) {
    o.kind = WEIR_LLVM_ORIGIN_PARAM;
    o.vid = vid;
  } else if (LLVMIsALoadInst(v)) {
    /* -O0 spills every parameter to a slot and reloads it: a load from a
     * slot that only ever holds parameter p is p itself. */
    uint32_t slot = weir_llvm_vid(ctx, LLVMGetOperand(v, 0));
    if (slot != WEIR_LLVM_NONE && ctx->spill_of[slot] != WEIR_LLVM_NONE &&
        LLVMGetTypeKind(LLVMTypeOf(v)) == LLVMPointerTypeKind) {
      o.kind = WEIR_LLVM_ORIGIN_PARAM;
      o.vid = ctx->spill_of[slot];
    }
  }
  return o;
}

/* Counts values and numbers functions. */
static weir_status number_values(weir_llvm_ctx *ctx) {
  uint32_t fns = 0, values = 0;
  for (LLVMValueRef f = LLVMGetFirstFunction(ctx->module); f; f = LLVMGetNextFunction(f)) {
    if (LLVMIsDeclaration(f)) {
      ctx->out->stats.declarations++;
      continue;
    }
    fns++;
    values += LLVMCountParams(f);
    for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(f); b; b = LLVMGetNextBasicBlock(b))
      for (LLVMValueRef i = LLVMGetFirstInstruction(b); i; i = LLVMGetNextInstruction(i)) values++;
  }
  if (fns == 0)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "analyze %s: the module defines no function (only declarations). Fix: "
                     "compile a C file that has function bodies (clang-14 -g -O0 -emit-llvm -c)",
                     ctx->out->name);
  ctx->fns = calloc(fns, sizeof *ctx->fns);
  ctx->values = calloc(values ? values : 1, sizeof *ctx->values);
  ctx->value_proc = calloc(values ? values : 1, sizeof *ctx->value_proc);
  if (!ctx->fns || !ctx->values || !ctx->value_proc)
    return weir_fail(WEIR_ERR_OUT_OF_MEMORY, "analyze %s: no memory for %u values. Fix: free memory",
                     ctx->out->name, values);
  for (LLVMValueRef f = LLVMGetFirstFunction(ctx->module); f; f = LLVMGetNextFunction(f)) {
    if (LLVMIsDeclaration(f)) continue;
    uint32_t proc = ctx->fn_count++;
    ctx->fns[proc].fn = f;
    weir_llvm_map_put(&ctx->fn_index, f, proc);
    for (LLVMValueRef a = LLVMGetFirstParam(f); a; a = LLVMGetNextParam(a)) {
      ctx->value_proc[ctx->value_count] = proc;
      ctx->values[ctx->value_count] = a;
      weir_llvm_map_put(&ctx->value_id, a, ctx->value_count++);
    }
    for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(f); b; b = LLVMGetNextBasicBlock(b))
      for (LLVMValueRef i = LLVMGetFirstInstruction(b); i; i = LLVMGetNextInstruction(i)) {
        ctx->value_proc[ctx->value_count] = proc;
        ctx->values[ctx->value_count] = i;
        weir_llvm_map_put(&ctx->value_id, i, ctx->value_count++);
      }
  }
  return WEIR_OK;
}

/* A function is address-taken when a use is anything but the callee of a call. */
static int address_taken(LLVMValueRef fn) {
  for (LLVMUseRef u = LLVMGetFirstUse(fn); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (!LLVMIsACallInst(user) || LLVMGetCalledValue(user) != fn) return 1;
    for (unsigned k = 0; k < LLVMGetNumArgOperands(user); ++k)
      if (LLVMGetOperand(user, k) == fn) return 1;
  }
  return 0;
}

static weir_status collect_taken(weir_llvm_ctx *ctx) {
  uint32_t count = 0;
  for (LLVMValueRef f = LLVMGetFirstFunction(ctx->module); f; f = LLVMGetNextFunction(f)) count++;
  ctx->taken = calloc(count ? count : 1, sizeof *ctx->taken);
  if (!ctx->taken) return weir_fail(WEIR_ERR_OUT_OF_MEMORY, "analyze: no memory. Fix: free memory");
  for (LLVMValueRef f = LLVMGetFirstFunction(ctx->module); f; f = LLVMGetNextFunction(f)) {
    size_t length = 0;
    const char *name = LLVMGetValueName2(f, &length);
    if (is_ignored_intrinsic(ctx->config, name, length) || !address_taken(f)) continue;
    ctx->taken[ctx->taken_count++] = f;
    uint32_t proc = weir_llvm_map_get(&ctx->fn_index, f);
    if (proc != WEIR_LLVM_NONE) ctx->fns[proc].address_taken = 1;
  }
  return WEIR_OK;
}

/* An alloca whose every use is a load from it or a store of the same argument. */
static uint32_t spill_argument(const weir_llvm_ctx *ctx, LLVMValueRef alloca) {
  LLVMValueRef arg = NULL;
  for (LLVMUseRef u = LLVMGetFirstUse(alloca); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (LLVMIsALoadInst(user)) continue;
    if (!LLVMIsAStoreInst(user) || LLVMGetOperand(user, 1) != alloca) return WEIR_LLVM_NONE;
    LLVMValueRef stored = LLVMGetOperand(user, 0);
    if (!LLVMIsAArgument(stored) || (arg && arg != stored)) return WEIR_LLVM_NONE;
    arg = stored;
  }
  return arg ? weir_llvm_vid(ctx, arg) : WEIR_LLVM_NONE;
}

static int modelled_by_config(const weir_llvm_ctx *ctx, LLVMValueRef fn) {
  if (!ctx->names) return 0;
  size_t length = 0;
  const char *name = LLVMGetValueName2(fn, &length);
  return weir_llvm_config_names(ctx->names, name, length);
}

static void resolve_call(weir_llvm_ctx *ctx, LLVMValueRef call, uint32_t vid) {
  ctx->callee_first[vid] = (uint32_t)ctx->callees.n;
  LLVMValueRef direct = weir_llvm_direct_callee(call);
  if (direct) {
    uint32_t proc = weir_llvm_map_get(&ctx->fn_index, direct);
    if (proc != WEIR_LLVM_NONE && !modelled_by_config(ctx, direct)) {
      weir_llvm_vec_push(&ctx->callees, proc);
      ctx->callee_count[vid] = 1;
    }
    return;
  }
  if (LLVMIsAInlineAsm(LLVMGetCalledValue(call))) return;
  ctx->out->stats.indirect_sites++;
  /* The memory model knows which functions the called pointer may hold;
   * only when it knows none, every address-taken function of the call's
   * exact type may be called (not when it refused those that reached the
   * pointer: their struct field never holds them). */
  const LLVMValueRef *targets = NULL;
  size_t count = ctx->memory ? weir_llvm_memory_callees(ctx->memory, call, &targets) : 0;
  for (size_t t = 0; t < count; ++t) {
    uint32_t proc = weir_llvm_map_get(&ctx->fn_index, targets[t]);
    if (proc == WEIR_LLVM_NONE || modelled_by_config(ctx, targets[t])) continue;
    weir_llvm_vec_push(&ctx->callees, proc);
    ctx->callee_count[vid]++;
  }
  if (count || (ctx->memory && weir_llvm_memory_call_refused(ctx->memory, call))) {
    ctx->out->stats.indirect_by_points_to++;
    return;
  }
  LLVMTypeRef type = LLVMGetCalledFunctionType(call);
  for (uint32_t t = 0; t < ctx->taken_count; ++t) {
    LLVMValueRef fn = ctx->taken[t];
    uint32_t proc = weir_llvm_map_get(&ctx->fn_index, fn);
    if (proc == WEIR_LLVM_NONE || LLVMGlobalGetValueType(fn) != type || modelled_by_config(ctx, fn))
      continue;
    weir_llvm_vec_push(&ctx->callees, proc);
    ctx->callee_count[vid]++;
  }
}

static void number_nodes(weir_llvm_ctx *ctx) {
  uint32_t node = 0;
  for (uint32_t p = 0; p < ctx->fn_count; ++p) {
    LLVMValueRef f = ctx->fns[p].fn;
    ctx->fns[p].first = node++;
    for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(f); b; b = LLVMGetNextBasicBlock(b))
      for (LLVMValueRef i = LLVMGetFirstInstruction(b); i; i = LLVMGetNextInstruction(i)) {
        uint32_t vid = weir_llvm_vid(ctx, i);
        ctx->node_of[vid] = node++;
        if (ctx->callee_count[vid]) node++; /* the return site */
      }
    ctx->fns[p].last = node++;
  }
  ctx->node_count = node;
}

weir_status weir_llvm_icfg_prepare(weir_llvm_ctx *ctx) {
  WEIR_TRY(number_values(ctx));
  WEIR_TRY(collect_taken(ctx));
  size_t n = ctx->value_count ? ctx->value_count : 1;
  ctx->node_of = malloc(n * sizeof *ctx->node_of);
  ctx->spill_of = malloc(n * sizeof *ctx->spill_of);
  ctx->callee_first = calloc(n, sizeof *ctx->callee_first);
  ctx->callee_count = calloc(n, sizeof *ctx->callee_count);
  ctx->fact_a = calloc(n, sizeof *ctx->fact_a);
  ctx->fact_b = calloc(n, sizeof *ctx->fact_b);
  if (!ctx->node_of || !ctx->spill_of || !ctx->callee_first || !ctx->callee_count || !ctx->fact_a ||
      !ctx->fact_b || ctx->fn_index.failed || ctx->value_id.failed)
    return weir_fail(WEIR_ERR_OUT_OF_MEMORY, "analyze %s: no memory for %u values. Fix: free memory",
                     ctx->out->name, ctx->value_count);
  for (uint32_t v = 0; v < ctx->value_count; ++v) {
    LLVMValueRef value = ctx->values[v];
    ctx->node_of[v] = WEIR_LLVM_NONE;
    ctx->spill_of[v] = LLVMIsAAllocaInst(value) ? spill_argument(ctx, value) : WEIR_LLVM_NONE;
    if (LLVMIsACallInst(value)) resolve_call(ctx, value, v);
  }
  if (ctx->callees.failed)
    return weir_fail(WEIR_ERR_OUT_OF_MEMORY, "analyze %s: no memory for callees. Fix: free memory",
                     ctx->out->name);
  for (size_t k = 0; k < ctx->callees.n; ++k) ctx->fns[ctx->callees.v[k]].incoming++;
  number_nodes(ctx);
  ctx->fact_count = 1;
  ctx->hooks->number(ctx);
  if (ctx->failed)
    return weir_fail(WEIR_ERR_OUT_OF_MEMORY, "analyze %s: no memory for %u facts. Fix: free memory",
                     ctx->out->name, ctx->fact_count);
  return WEIR_OK;
}

void weir_llvm_ctx_free(weir_llvm_ctx *ctx) {
  free(ctx->fns);
  free(ctx->taken);
  free(ctx->values);
  free(ctx->value_proc);
  free(ctx->node_of);
  free(ctx->spill_of);
  free(ctx->callee_first);
  free(ctx->callee_count);
  free(ctx->fact_a);
  free(ctx->fact_b);
  free(ctx->may_write);
  free(ctx->param_strong);
  free(ctx->loc_fact);
  free(ctx->obj_fact);
  free(ctx->escape_state);
  free(ctx->inlined_wrapper);
  for (uint32_t p = 0; ctx->dm_mod && p < ctx->fn_count; ++p) weir_llvm_vec_free(&ctx->dm_mod[p]);
  for (uint32_t p = 0; ctx->dm_touch && p < ctx->fn_count; ++p) weir_llvm_vec_free(&ctx->dm_touch[p]);
  free(ctx->dm_mod);
  free(ctx->dm_touch);
  free(ctx->param_frees);
  free(ctx->fail_free_state);
  weir_llvm_vec_free(&ctx->mod_locs);
  weir_llvm_param_reads_free(ctx);
  weir_llvm_ranges_free(ctx);
  weir_llvm_tags_free(ctx);
  weir_ts_state_free(ctx);
  free(ctx->appended);
  free(ctx->libcalls);
  weir_llvm_reach_free(ctx);
  weir_llvm_const_state_free(ctx);
  weir_llvm_map_free(&ctx->libcall_index);
  weir_llvm_vec_free(&ctx->callees);
  weir_llvm_vec_free(&ctx->fact_info);
  weir_llvm_map_free(&ctx->fn_index);
  weir_llvm_map_free(&ctx->value_id);
}

uint32_t weir_llvm_new_fact(weir_llvm_ctx *ctx, uint32_t kind, uint32_t id) {
  weir_llvm_vec_push(&ctx->fact_info, kind);
  weir_llvm_vec_push(&ctx->fact_info, id);
  if (ctx->fact_info.failed) ctx->failed = 1;
  return ctx->fact_count++;
}

void weir_llvm_describe_value(const weir_llvm_ctx *ctx, const char *kind, uint32_t vid,
                              weir_llvm_text *out) {
  LLVMValueRef v = ctx->values[vid];
  size_t fn_length = 0;
  const char *fn = LLVMGetValueName2(ctx->fns[ctx->value_proc[vid]].fn, &fn_length);
  weir_llvm_text_printf(out, "%s ", kind);
  if (LLVMIsAAllocaInst(v)) {
    weir_llvm_slot_name(ctx, v, out);
  } else {
    weir_llvm_text variable = {0};
    size_t length = 0;
    const char *name = LLVMGetValueName2(v, &length);
    if (weir_llvm_value_variable(v, &variable, NULL) && !variable.failed)
      weir_llvm_text_printf(out, "'%s'", variable.p); /* the C variable it is, from debug info */
    else if (length) weir_llvm_text_printf(out, "%%%.*s", (int)length, name);
    else weir_llvm_text_printf(out, "v%u", vid);
    weir_llvm_text_free(&variable);
  }
  weir_llvm_text_printf(out, " in %.*s", (int)fn_length, fn);
}
