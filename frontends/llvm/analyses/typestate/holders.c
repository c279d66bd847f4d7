/* Which facts stand for the resource a spec call is handed (ts.h,
 * docs/typestate.md "Aliases"): strong where they must be that resource,
 * weak where they may be, none where they most likely hold another. */
#include <string.h>

#include "frontends/llvm/analyses/typestate/origin.h"
#include "frontends/llvm/analyses/typestate/ts.h"

static int overlaps(const weir_llvm_vec *a, const weir_llvm_vec *b) {
  for (size_t k = 0; k < a->n; ++k)
    if (weir_llvm_vec_contains(b, a->v[k])) return 1;
  return 0;
}

static int same_set(const weir_llvm_vec *a, const weir_llvm_vec *b) {
  return a->n == b->n && (a->n == 0 || memcmp(a->v, b->v, a->n * sizeof *a->v) == 0);
}

/* The facts of the function `fn` (values, its own stack slots) whose
 * resource is exactly `origin`: where a resource made in fn itself is the
 * only one they can be (its copies at -O0, the value at -O2). */
static void same_resource(const weir_llvm_ctx *ctx, LLVMValueRef fn, const weir_llvm_vec *origin, weir_llvm_vec *out) {
  const weir_ts_state *ts = ctx->ts;
  uint32_t proc = weir_llvm_map_get(&ctx->fn_index, fn);
  if (proc == WEIR_LLVM_NONE) return;
  for (size_t k = 0; k < ts->proc_values[proc].n; ++k) {
    uint32_t v = ts->proc_values[proc].v[k];
    if (same_set(&ts->value[v], origin)) push_fact(out, ctx->fact_a[v]);
  }
  for (size_t k = 0; k < ts->fact_locations.n; ++k) {
    uint32_t l = ts->fact_locations.v[k];
    const weir_llvm_object *o = weir_llvm_memory_object(ctx->memory, weir_llvm_memory_location(ctx->memory, l).object);
    if (o->kind == WEIR_LLVM_OBJECT_STACK && o->function == fn && !ts->shared[l] && same_set(&ts->location[l], origin))
      push_fact(out, loc(ctx, l));
  }
}

/* A local of `fn` itself. Not a global: it may hold the resource an
 * earlier call made at the same site (vlog's `log_fd` is the descriptor
 * a previous set_log_file opened, not the one this call just closed). */
static int single_place(const weir_llvm_ctx *ctx, uint32_t l, LLVMValueRef fn) {
  const weir_llvm_object *o = weir_llvm_memory_object(ctx->memory, weir_llvm_memory_location(ctx->memory, l).object);
  return o->kind == WEIR_LLVM_OBJECT_STACK && o->function == fn;
}

/* Whether `arg` is this activation's resource: the creating call's result
 * itself, or read from fn's own locals. Not one read from a global or a
 * heap block: that may be the resource an earlier call of fn made at the
 * same site (vlog's `close(log_fd)` closes the old log, not the
 * `new_log_fd` this call just opened). */
static int made_here_within(const weir_llvm_ctx *ctx, LLVMValueRef arg, LLVMValueRef fn, int depth) {
  arg = weir_llvm_strip_bitcasts(arg);
  if (LLVMIsACallInst(arg)) return 1;
  if (LLVMIsAConstant(arg)) return 1; /* NULL, -1: no resource */
  if ((LLVMIsAPHINode(arg) || LLVMIsASelectInst(arg)) && depth > 0) { /* -O2: every incoming one */
    unsigned count = LLVMIsAPHINode(arg) ? LLVMCountIncoming(arg) : 2;
    for (unsigned k = 0; k < count; ++k)
      if (!made_here_within(ctx, LLVMIsAPHINode(arg) ? LLVMGetIncomingValue(arg, k) : LLVMGetOperand(arg, k + 1), fn,
                            depth - 1))
        return 0;
    return 1;
  }
  if (!LLVMIsALoadInst(arg)) return 0;
  const uint32_t *locs = NULL;
  size_t n = weir_llvm_pts(ctx, LLVMGetOperand(arg, 0), &locs);
  for (size_t k = 0; k < n; ++k)
    if (!single_place(ctx, locs[k], fn)) return 0;
  return n > 0;
}

static int made_here(const weir_llvm_ctx *ctx, LLVMValueRef arg, LLVMValueRef fn) {
  return made_here_within(ctx, arg, fn, 4);
}

/* The value's own facts (a value spec): the value, the local or global
 * scalar it was just loaded from (-O0 reloads a local before each use),
 * a spilled parameter. What a check looks at: the resource passed. */
void weir_ts_direct_holders(const weir_llvm_ctx *ctx, LLVMValueRef arg, weir_llvm_vec *out) {
  const uint32_t *locs = NULL;
  push_fact(out, val(ctx, arg));
  if (!LLVMIsALoadInst(arg)) return;
  LLVMValueRef p = weir_llvm_strip_bitcasts(LLVMGetOperand(arg, 0));
  /* not a heap block's or an array's cell: it stands for the cells of
   * every block of its site (every stream's handle field) */
  if (weir_llvm_pts(ctx, p, &locs) == 1 && !ctx->ts->shared[locs[0]] && weir_llvm_strong_target(ctx, locs[0]))
    push_fact(out, loc(ctx, locs[0]));
  uint32_t vid = LLVMIsAAllocaInst(p) ? weir_llvm_vid(ctx, p) : WEIR_LLVM_NONE;
  if (vid != WEIR_LLVM_NONE && ctx->spill_of[vid] != WEIR_LLVM_NONE) push_fact(out, ctx->fact_a[ctx->spill_of[vid]]);
}

/* The facts that stand for the resource `arg` at instruction `at`.
 * strong: they must be it: the value itself, the slot it was just loaded
 * from (-O0 reloads a local before every use) when that is one location,
 * a spilled parameter, S(site) when arg can only be that site's resource,
 * and, when that site is in this very function, every value and slot of
 * the function that can only hold that resource. weak: they may be it
 * (another place whose origin meets arg's: a global, a heap field, another
 * site's S). A memory resource: the locations arg points to, strong when
 * there is one. */
void weir_ts_holders(const weir_llvm_ctx *ctx, LLVMValueRef at, LLVMValueRef arg, weir_llvm_vec *strong,
                     weir_llvm_vec *weak) {
  const weir_ts_state *ts = ctx->ts;
  const uint32_t *locs = NULL;
  strong->n = weak->n = 0;
  arg = weir_llvm_strip_bitcasts(arg);
  if (spec_of(ctx)->memory) {
    size_t n = weir_llvm_pts_vague(ctx, arg) ? 0 : weir_llvm_pts(ctx, arg, &locs);
    for (size_t k = 0; k < n; ++k) push_fact(n == 1 ? strong : weak, loc(ctx, locs[k]));
    return;
  }
  const weir_llvm_vec *origin = weir_ts_value_origin(ctx, arg);
  if (!origin->n) return;
  weir_ts_direct_holders(ctx, arg, strong);
  LLVMValueRef fn = LLVMGetBasicBlockParent(LLVMGetInstructionParent(at));
  if (origin->n == 1) {
    push_fact(strong, ts->site_fact[origin->v[0]]);
    if (LLVMGetBasicBlockParent(LLVMGetInstructionParent(ts->site_call[origin->v[0]])) == fn && made_here(ctx, arg, fn))
      same_resource(ctx, fn, origin, strong);
  } else {
    for (size_t k = 0; k < origin->n; ++k) push_fact(weak, ts->site_fact[origin->v[k]]);
  }
  weir_llvm_vec_sort_unique(strong);
  /* other places of this function only when arg is this activation's own
   * resource; read from a global or a parameter it may be an older one */
  for (size_t k = 0; k < ts->fact_locations.n && made_here(ctx, arg, fn); ++k) {
    uint32_t l = ts->fact_locations.v[k];
    /* a summary (heap block, array, the shared fact) stands for many
     * places that hold other resources most of the time: "may be closed"
     * there would make every later use of any of them a finding; so does
     * a global or another function's local (other activations: a caller's
     * own handle comes back through the argument it passed, arguments_back) */
    if (overlaps(weir_ts_location_origin(ctx, l), origin) && !weir_llvm_vec_contains(strong, loc(ctx, l)) &&
        !ts->shared[l] && weir_llvm_strong_target(ctx, l) && single_place(ctx, l, fn))
      push_fact(weak, loc(ctx, l));
  }
  uint32_t proc = weir_llvm_map_get(&ctx->fn_index, fn);
  for (size_t k = 0; proc != WEIR_LLVM_NONE && k < ts->proc_values[proc].n && made_here(ctx, arg, fn); ++k) {
    uint32_t v = ts->proc_values[proc].v[k];
    if (overlaps(&ts->value[v], origin) && !weir_llvm_vec_contains(strong, ctx->fact_a[v])) push_fact(weak, ctx->fact_a[v]);
  }
  weir_llvm_vec_sort_unique(weak);
}
