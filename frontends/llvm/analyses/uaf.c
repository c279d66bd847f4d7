/* Use after free and double free (CWE-416, CWE-415) as an IFDS typestate
 * over the memory model: one fact F(o) per heap object, "o may have been
 * freed". The allocation site of o kills it (a new block: allocated), a
 * free-like call (the table's `free`) generates it for every object its
 * argument may point to. A finding is a load or store through a pointer to
 * a freed object, a library call handed one (its `reads`/`writes`
 * arguments; for an unmodelled declaration any pointer argument), or a
 * second free.
 *
 * Freed states end where no pointer to the block can be left: a store of
 * NULL (or a memset to zero) into the only non-local place that may hold
 * one (`free(s->buf); s->buf = NULL;`), and the return of a function whose
 * locals alone held it (and that neither returns it nor was handed it).
 *
 * Calls: F(o) goes into a callee for the objects it may touch (mod/ref and
 * what it allocates); what it may write or allocate is killed across the
 * call and comes back from the callee's exit, so a callee that frees, or
 * allocates anew, is seen through. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontends/llvm/internal.h"

enum { FACT_OBJECT = 0 };

#define HOLDER_NONE UINT32_MAX          /* no memory holds a pointer to the object */
#define HOLDER_SEVERAL (UINT32_MAX - 1) /* more than one location may */

static uint32_t object_of(const weir_llvm_ctx *ctx, uint32_t location) {
  return weir_llvm_memory_location(ctx->memory, location).object;
}

static uint32_t fact_of_location(const weir_llvm_ctx *ctx, uint32_t location) {
  return ctx->obj_fact[object_of(ctx, location)];
}

static void number(weir_llvm_ctx *ctx) {
  uint32_t objects = weir_llvm_memory_object_count(ctx->memory);
  ctx->obj_fact = calloc(objects ? objects : 1, sizeof *ctx->obj_fact);
  if (!ctx->obj_fact) {
    ctx->failed = 1;
    return;
  }
  weir_llvm_mark_inlined_wrappers(ctx);
  for (uint32_t o = 0; o < objects; ++o)
    if (weir_llvm_memory_object(ctx->memory, o)->kind == WEIR_LLVM_OBJECT_HEAP && !weir_llvm_shared_site(ctx, o))
      ctx->obj_fact[o] = weir_llvm_new_fact(ctx, FACT_OBJECT, o);
}

static void describe(weir_llvm_ctx *ctx, uint32_t fact, weir_llvm_text *out) {
  uint32_t id = ctx->fact_info.v[2 * (fact - 1) + 1];
  const weir_llvm_object *o = weir_llvm_memory_object(ctx->memory, id);
  weir_llvm_text_put(out, "freed ", 6);
  weir_llvm_memory_describe(ctx->memory, o->first_location, out);
}

/* The F facts of what `pointer` may point to, deduplicated, into `out`. */
static void freed_facts(const weir_llvm_ctx *ctx, LLVMValueRef pointer, weir_llvm_vec *out) {
  out->n = 0;
  if (weir_llvm_pts_vague(ctx, pointer)) return; /* a generic destroy callback frees "everything" */
  const uint32_t *locs = NULL;
  size_t n = weir_llvm_pts(ctx, pointer, &locs);
  for (size_t k = 0; k < n; ++k) {
    uint32_t fact = fact_of_location(ctx, locs[k]);
    if (fact) weir_llvm_vec_push(out, fact);
  }
  weir_llvm_vec_sort_unique(out);
}

/* `*array = realloc(*array, n)` (through a temporary, as in a grow helper):
 * the old block is read from a place and the new one stored back to it.
 * The flow-insensitive points-to set of that place holds both blocks, so
 * "the old block is freed" would make every later use of the array a
 * finding; such a realloc releases nothing for this analysis. A realloc
 * whose result goes elsewhere (`grown = realloc(data, n)`) frees `data`. */
static int replaces_in_place(LLVMValueRef call, uint32_t arg) {
  LLVMValueRef old = weir_llvm_strip_bitcasts(LLVMGetOperand(call, arg));
  if (!old || !LLVMIsALoadInst(old)) return 0;
  LLVMValueRef place = weir_llvm_strip_bitcasts(LLVMGetOperand(old, 0));
  LLVMValueRef values[8] = {call};
  size_t count = 1;
  for (size_t k = 0; k < count; ++k)
    for (LLVMUseRef u = LLVMGetFirstUse(values[k]); u; u = LLVMGetNextUse(u)) {
      LLVMValueRef user = LLVMGetUser(u);
      if (LLVMIsABitCastInst(user) && count < 8) values[count++] = user;
      else if (LLVMIsAStoreInst(user) && LLVMGetOperand(user, 0) == values[k] &&
               weir_llvm_strip_bitcasts(LLVMGetOperand(user, 1)) == place)
        return 1;
    }
  return 0;
}

static void external_call(weir_llvm_ctx *ctx, LLVMValueRef call, weir_llvm_flow *flow) {
  const weir_llvm_libcall *model = weir_llvm_call_model(ctx, call);
  uint32_t object = weir_llvm_allocated_object(ctx, call);
  if (object != WEIR_LLVM_NONE) weir_llvm_flow_kill(flow, ctx->obj_fact[object]);
  if (model->frees < LLVMGetNumArgOperands(call)) {
    weir_llvm_vec facts = {0};
    freed_facts(ctx, LLVMGetOperand(call, model->frees), &facts);
    /* realloc frees the old block and returns a new one: in a loop
     * (`p = realloc(p, n)`) the old block is this site's own object, which
     * the call makes anew, so it is not freed after the call. */
    uint32_t made = object != WEIR_LLVM_NONE ? ctx->obj_fact[object] : 0;
    int replacing = model->alloc == WEIR_LLVM_ALLOC_REALLOC && replaces_in_place(call, model->frees);
    for (size_t k = 0; k < facts.n && !replacing; ++k)
      if (facts.v[k] != made) weir_llvm_flow_gen(flow, facts.v[k]);
    if (facts.failed) ctx->failed = 1;
    weir_llvm_vec_free(&facts);
  }
}

/* `free(s); return NULL;`: a function that returns a null pointer hands
 * none of the blocks it allocated to its caller, which checks for NULL and
 * does not touch them. Their freed state does not leave the function on
 * that path (without this, every error path of a constructor would make
 * every later use of what it builds a finding). */
static void kill_allocations(weir_llvm_ctx *ctx, LLVMValueRef fn, weir_llvm_flow *flow) {
  const uint32_t *objects = NULL;
  size_t n = weir_llvm_memory_allocs(ctx->memory, fn, &objects);
  for (size_t k = 0; k < n; ++k) weir_llvm_flow_kill(flow, ctx->obj_fact[objects[k]]);
}

static int is_null(LLVMValueRef v) { return weir_llvm_is_pointer(v) && LLVMIsAConstantPointerNull(v); }

static void null_return(weir_llvm_ctx *ctx, LLVMValueRef ret, weir_llvm_flow *flow) {
  if (LLVMGetNumOperands(ret) == 1 && is_null(LLVMGetOperand(ret, 0)))
    kill_allocations(ctx, LLVMGetBasicBlockParent(LLVMGetInstructionParent(ret)), flow);
}

/* The same when the null comes into the return value's phi (one return
 * block, as -O0 code after mem2reg has it). */
static int returned(LLVMValueRef phi) {
  for (LLVMUseRef u = LLVMGetFirstUse(phi); u; u = LLVMGetNextUse(u))
    if (LLVMIsAReturnInst(LLVMGetUser(u))) return 1;
  return 0;
}

static int holders_ready(weir_llvm_ctx *ctx);

/* `free(g->buf); g->buf = NULL;` (or a memset of the struct): when the
 * place written is the only memory other than locals that may hold a
 * pointer to a freed block, no pointer to it is left that outlives the
 * functions now running: its freed state ends here (optimistic about
 * locals of callers still running; without
 * this, the next block from the same site, stored in the same place, is
 * "used after free"). `whole`: the write covers the object from there on. */
static void clear_holder(weir_llvm_ctx *ctx, LLVMValueRef pointer, int whole, weir_llvm_flow *flow) {
  const uint32_t *locs = NULL;
  if (weir_llvm_pts(ctx, pointer, &locs) != 1 || !holders_ready(ctx)) return;
  weir_llvm_location_info target = weir_llvm_memory_location(ctx->memory, locs[0]);
  for (uint32_t f = 1; f < ctx->fact_count; ++f) {
    uint32_t object = ctx->fact_info.v[2 * (f - 1) + 1];
    uint32_t holder = ctx->holder_loc[object];
    if (holder == HOLDER_NONE || holder == HOLDER_SEVERAL) continue;
    weir_llvm_location_info h = weir_llvm_memory_location(ctx->memory, holder);
    if (holder == locs[0] || (whole && h.object == target.object && h.offset >= target.offset))
      weir_llvm_flow_kill(flow, f);
  }
}

static void store_null(weir_llvm_ctx *ctx, LLVMValueRef inst, weir_llvm_flow *flow) {
  if (is_null(LLVMGetOperand(inst, 0))) clear_holder(ctx, LLVMGetOperand(inst, 1), 0, flow);
}

static void memset_zero(weir_llvm_ctx *ctx, LLVMValueRef call, weir_llvm_flow *flow) {
  size_t length = 0;
  const char *name = weir_llvm_callee_name(call, &length);
  if (length < 11 || strncmp(name, "llvm.memset", 11) != 0 || LLVMGetNumArgOperands(call) < 2) return;
  LLVMValueRef value = LLVMGetOperand(call, 1);
  if (LLVMIsAConstantInt(value) && LLVMConstIntGetZExtValue(value) == 0)
    clear_holder(ctx, LLVMGetOperand(call, 0), 1, flow);
}

static void plain(weir_llvm_ctx *ctx, LLVMValueRef inst, weir_llvm_flow *flow) {
  if (LLVMIsAStoreInst(inst)) store_null(ctx, inst, flow);
  if (LLVMIsACallInst(inst)) memset_zero(ctx, inst, flow);
  if (LLVMIsACallInst(inst)) external_call(ctx, inst, flow);
  else if (LLVMIsAReturnInst(inst)) null_return(ctx, inst, flow);
}

static void move(weir_llvm_ctx *ctx, LLVMValueRef value, LLVMValueRef phi, weir_llvm_flow *flow) {
  /* facts are objects, not values; only a null return matters here */
  if (is_null(value) && returned(phi))
    kill_allocations(ctx, LLVMGetBasicBlockParent(LLVMGetInstructionParent(phi)), flow);
}

/* Objects a callee may change the state of: written (freed blocks count as
 * written) or allocated, in it or below it. */
static void touched(const weir_llvm_ctx *ctx, LLVMValueRef fn, int with_reads, weir_llvm_vec *out) {
  const uint32_t *locs = NULL, *objects = NULL;
  /* Only tracked blocks have a fact: the vectors stay small. */
  size_t n = weir_llvm_memory_mod(ctx->memory, fn, &locs);
  for (size_t k = 0; k < n; ++k)
    if (fact_of_location(ctx, locs[k])) weir_llvm_vec_push(out, fact_of_location(ctx, locs[k]));
  if (with_reads) {
    n = weir_llvm_memory_ref(ctx->memory, fn, &locs);
    for (size_t k = 0; k < n; ++k)
      if (fact_of_location(ctx, locs[k])) weir_llvm_vec_push(out, fact_of_location(ctx, locs[k]));
  }
  n = weir_llvm_memory_allocs(ctx->memory, fn, &objects);
  for (size_t k = 0; k < n; ++k)
    if (ctx->obj_fact[objects[k]]) weir_llvm_vec_push(out, ctx->obj_fact[objects[k]]);
}

/* Objects stored (two levels deep) in global variables: any function can
 * reach them without being handed a pointer. */
static const weir_llvm_vec *global_objects(weir_llvm_ctx *ctx) {
  if (ctx->global_objects_ready) return &ctx->global_objects;
  ctx->global_objects_ready = 1;
  weir_llvm_vec *out = &ctx->global_objects;
  uint32_t objects = weir_llvm_memory_object_count(ctx->memory);
  for (uint32_t o = 0; o < objects; ++o)
    if (weir_llvm_memory_object(ctx->memory, o)->kind == WEIR_LLVM_OBJECT_GLOBAL) weir_llvm_vec_push(out, o);
  weir_llvm_objects_reach(ctx, out, 2);
  if (out->failed) ctx->failed = 1;
  return out;
}

/* Mod/ref merge every calling context. At one call, the callee can change
 * the state only of the blocks it is handed (through its arguments, two
 * levels deep), the blocks globals lead to, and those it allocates itself:
 * `ifds_vec_free(&a)` frees a's array, not every array the function ever
 * frees. Keeps the F facts of `facts` that pass that test. */
static void keep_reachable(weir_llvm_ctx *ctx, LLVMValueRef call, weir_llvm_vec *facts) {
  if (facts->n == 0) return; /* most calls touch no tracked block */
  weir_llvm_vec allocs = {0};
  const weir_llvm_vec *reach = weir_llvm_call_reach(ctx, call);
  const weir_llvm_vec *globals = global_objects(ctx);
  const uint32_t *procs = NULL;
  size_t n = weir_llvm_call_procs(ctx, call, &procs);
  for (size_t p = 0; p < n; ++p) {
    const uint32_t *objects = NULL;
    size_t m = weir_llvm_memory_allocs(ctx->memory, ctx->fns[procs[p]].fn, &objects);
    for (size_t k = 0; k < m; ++k) weir_llvm_vec_push(&allocs, ctx->obj_fact[objects[k]]);
  }
  weir_llvm_vec_sort_unique(&allocs);
  size_t kept = 0;
  for (size_t k = 0; k < facts->n; ++k) {
    uint32_t fact = facts->v[k];
    uint32_t object = fact ? ctx->fact_info.v[2 * (fact - 1) + 1] : 0;
    if (fact && (weir_llvm_vec_contains(&allocs, fact) || weir_llvm_vec_contains(reach, object) ||
                 weir_llvm_vec_contains(globals, object)))
      facts->v[kept++] = fact;
  }
  facts->n = kept;
  if (allocs.failed) ctx->failed = 1;
  weir_llvm_vec_free(&allocs);
}

static void call_to_return(weir_llvm_ctx *ctx, LLVMValueRef call, weir_llvm_flow *flow) {
  weir_llvm_vec facts = {0};
  const uint32_t *procs = NULL;
  size_t n = weir_llvm_call_procs(ctx, call, &procs);
  for (size_t p = 0; p < n; ++p) touched(ctx, ctx->fns[procs[p]].fn, 0, &facts);
  weir_llvm_vec_sort_unique(&facts);
  keep_reachable(ctx, call, &facts);
  for (size_t k = 0; k < facts.n; ++k) weir_llvm_flow_kill(flow, facts.v[k]);
  uint32_t object = weir_llvm_allocated_object(ctx, call); /* an allocation wrapper */
  if (object != WEIR_LLVM_NONE) weir_llvm_flow_kill(flow, ctx->obj_fact[object]);
  if (facts.failed) ctx->failed = 1;
  weir_llvm_vec_free(&facts);
}

/* Which memory may hold a pointer to each object: none, only the locals
 * of one function (holder_fn), or anything else. Computed once from the
 * contents of every location. */
static int holders_ready(weir_llvm_ctx *ctx) {
  if (ctx->holder_state) return 1;
  uint32_t objects = weir_llvm_memory_object_count(ctx->memory);
  uint32_t locations = weir_llvm_memory_location_count(ctx->memory);
  ctx->holder_state = calloc(objects ? objects : 1, 1);
  ctx->holder_fn = calloc(objects ? objects : 1, sizeof *ctx->holder_fn);
  ctx->holder_loc = malloc((objects ? objects : 1) * sizeof *ctx->holder_loc);
  if (!ctx->holder_state || !ctx->holder_fn || !ctx->holder_loc) {
    ctx->failed = 1;
    return 0;
  }
  for (uint32_t o = 0; o < objects; ++o) ctx->holder_loc[o] = HOLDER_NONE;
  for (uint32_t l = 0; l < locations; ++l) {
    const weir_llvm_object *h = weir_llvm_memory_object(ctx->memory, object_of(ctx, l));
    LLVMValueRef fn = h->kind == WEIR_LLVM_OBJECT_STACK ? h->function : NULL;
    const uint32_t *inner = NULL;
    size_t n = weir_llvm_memory_contents(ctx->memory, l, &inner);
    for (size_t k = 0; k < n; ++k) {
      uint32_t o = object_of(ctx, inner[k]);
      if (!ctx->obj_fact[o]) continue;
      /* holder_loc counts memory that outlives calls: locals die with their frames */
      if (!fn) ctx->holder_loc[o] = ctx->holder_loc[o] == HOLDER_NONE || ctx->holder_loc[o] == l ? l : HOLDER_SEVERAL;
      if (ctx->holder_state[o] == 2) continue;
      if (!fn || (ctx->holder_state[o] == 1 && ctx->holder_fn[o] != fn)) ctx->holder_state[o] = 2;
      else ctx->holder_state[o] = 1, ctx->holder_fn[o] = fn;
    }
  }
  return 1;
}

static int returns_object(const weir_llvm_ctx *ctx, LLVMValueRef fn, uint32_t object) {
  for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(fn); b; b = LLVMGetNextBasicBlock(b)) {
    LLVMValueRef ret = LLVMGetBasicBlockTerminator(b);
    if (!ret || !LLVMIsAReturnInst(ret) || LLVMGetNumOperands(ret) != 1) continue;
    const uint32_t *locs = NULL;
    size_t n = weir_llvm_pts(ctx, LLVMGetOperand(ret, 0), &locs);
    for (size_t k = 0; k < n; ++k)
      if (object_of(ctx, locs[k]) == object) return 1;
  }
  return 0;
}

/* `free(name); return;` in a function whose locals alone held the block
 * (`char *name = lookup(...); ... free(name);`): when it returns no pointer
 * to the block is left, so its freed state does not go back to the caller
 * (or the next call's fresh block from the same site, NULL on another
 * path, would be "used after free"). Not when the call's arguments lead to
 * the block (the caller still holds it) or the callee returns it. */
static int dies_with(weir_llvm_ctx *ctx, LLVMValueRef call, uint32_t proc, uint32_t fact,
                     const weir_llvm_vec *reach) {
  if (!holders_ready(ctx) || fact == 0) return 0;
  uint32_t object = ctx->fact_info.v[2 * (fact - 1) + 1];
  LLVMValueRef fn = ctx->fns[proc].fn;
  if (ctx->holder_state[object] == 2 || (ctx->holder_state[object] == 1 && ctx->holder_fn[object] != fn))
    return 0;
  if (ctx->holder_state[object] == 0) return 0; /* held in SSA values only: the caller may hold it too */
  return !weir_llvm_vec_contains(reach, object) && !returns_object(ctx, fn, object);
}

static void callee(weir_llvm_ctx *ctx, LLVMValueRef call, uint32_t proc, weir_llvm_flow *call_flow,
                   weir_llvm_flow *ret_flow) {
  weir_llvm_vec in = {0}, changed = {0};
  const uint32_t *procs = NULL;
  size_t n = weir_llvm_call_procs(ctx, call, &procs);
  for (size_t p = 0; p < n; ++p) touched(ctx, ctx->fns[procs[p]].fn, 0, &changed);
  touched(ctx, ctx->fns[proc].fn, 1, &in);
  for (size_t k = 0; k < changed.n; ++k) weir_llvm_vec_push(&in, changed.v[k]);
  weir_llvm_vec_sort_unique(&in);
  weir_llvm_vec_sort_unique(&changed);
  keep_reachable(ctx, call, &in);
  keep_reachable(ctx, call, &changed);
  /* A block the call hands over while it is freed was reported at the call
   * (check_call): the callee does not get it as freed, so one bug is one
   * finding, at the outermost use. */
  weir_llvm_vec handed = {0};
  uint32_t args = LLVMGetNumArgOperands(call);
  for (uint32_t k = 0; k < args; ++k) {
    const uint32_t *locs = NULL;
    size_t n_locs = weir_llvm_pts(ctx, LLVMGetOperand(call, k), &locs);
    for (size_t j = 0; j < n_locs; ++j) weir_llvm_vec_push(&handed, fact_of_location(ctx, locs[j]));
  }
  weir_llvm_vec_sort_unique(&handed);
  for (size_t k = 0, h = 0; k < in.n; ++k) {
    while (h < handed.n && handed.v[h] < in.v[k]) ++h;
    if (h < handed.n && handed.v[h] == in.v[k]) continue;
    weir_llvm_flow_pair(call_flow, in.v[k], in.v[k]);
  }
  if (handed.failed) ctx->failed = 1;
  weir_llvm_vec_free(&handed);
  const weir_llvm_vec *reach = weir_llvm_call_reach(ctx, call);
  for (size_t k = 0; k < changed.n; ++k)
    if (!dies_with(ctx, call, proc, changed.v[k], reach)) weir_llvm_flow_pair(ret_flow, changed.v[k], changed.v[k]);
  if (in.failed || changed.failed) ctx->failed = 1;
  weir_llvm_vec_free(&in);
  weir_llvm_vec_free(&changed);
}

/* ---- findings ------------------------------------------------------------ */
static void check_use(weir_llvm_ctx *ctx, uint32_t node, LLVMValueRef inst, LLVMValueRef pointer,
                      weir_llvm_finding_rule rule, const char *what) {
  weir_llvm_vec facts = {0};
  freed_facts(ctx, pointer, &facts);
  if (facts.n) {
    const uint32_t *locs = NULL;
    weir_llvm_pts(ctx, pointer, &locs);
    weir_llvm_text name = {0}, note = {0}, message = {0};
    weir_llvm_access_words(ctx, pointer, !LLVMIsALoadInst(inst) && !LLVMIsAStoreInst(inst), locs[0], &name, &note);
    weir_llvm_text_printf(&message, "%s '%s', which may already have been freed", what, name.p);
    if (note.n) weir_llvm_text_printf(&message, " (%s)", note.p);
    if (name.failed || note.failed || message.failed) ctx->failed = 1;
    else weir_llvm_add_rule_check(ctx, rule, node, facts.v, facts.n, inst, message.p);
    weir_llvm_text_free(&name);
    weir_llvm_text_free(&note);
    weir_llvm_text_free(&message);
  }
  if (facts.failed) ctx->failed = 1;
  weir_llvm_vec_free(&facts);
}

static void check_call(weir_llvm_ctx *ctx, LLVMValueRef inst, uint32_t node) {
  weir_llvm_call_kind kind = weir_llvm_classify_call(ctx, inst);
  if (kind == WEIR_LLVM_CALL_NODE) {
    /* Handing a dangling pointer to a defined function is a use (CWE-416
     * counts call arguments); what the callee does with it is found there. */
    size_t length = 0;
    const char *name = weir_llvm_callee_name(inst, &length);
    char what[160];
    if (length) snprintf(what, sizeof what, "'%.*s' is passed", (int)(length > 96 ? 96 : length), name);
    else snprintf(what, sizeof what, "an indirect call is passed");
    for (uint32_t k = 0; k < LLVMGetNumArgOperands(inst); ++k)
      if (weir_llvm_is_pointer(LLVMGetOperand(inst, k)))
        check_use(ctx, node, inst, LLVMGetOperand(inst, k), WEIR_LLVM_RULE_USE_AFTER_FREE, what);
    return;
  }
  if (kind != WEIR_LLVM_CALL_EXTERNAL) return;
  const weir_llvm_libcall *model = weir_llvm_call_model(ctx, inst);
  size_t length = 0;
  const char *name = weir_llvm_callee_name(inst, &length);
  uint32_t args = LLVMGetNumArgOperands(inst);
  for (uint32_t k = 0; k < args; ++k) {
    LLVMValueRef arg = LLVMGetOperand(inst, k);
    if (!weir_llvm_is_pointer(arg)) continue;
    char what[160];
    if (k == model->frees) {
      snprintf(what, sizeof what, "'%.*s' releases", (int)(length > 96 ? 96 : length), name);
      check_use(ctx, node, inst, arg, WEIR_LLVM_RULE_DOUBLE_FREE, what);
      continue;
    }
    int uses = model->known ? weir_llvm_mask_has(model->reads | model->writes, k) || k == model->copy_from ||
                                  k == model->copy_to
                            : 1;
    if (!uses) continue;
    snprintf(what, sizeof what, "'%.*s' uses", (int)(length > 96 ? 96 : length), length ? name : "(indirect)");
    check_use(ctx, node, inst, arg, WEIR_LLVM_RULE_USE_AFTER_FREE, what);
  }
  if (model->frees != WEIR_LLVM_NONE) weir_llvm_add_source(ctx, node, inst, name, length);
}

static void check(weir_llvm_ctx *ctx, LLVMValueRef inst, uint32_t node) {
  if (LLVMIsALoadInst(inst))
    check_use(ctx, node, inst, LLVMGetOperand(inst, 0), WEIR_LLVM_RULE_USE_AFTER_FREE, "reads");
  else if (LLVMIsAStoreInst(inst))
    check_use(ctx, node, inst, LLVMGetOperand(inst, 1), WEIR_LLVM_RULE_USE_AFTER_FREE, "writes");
  else if (LLVMIsACallInst(inst))
    check_call(ctx, inst, node);
}

const weir_llvm_hooks weir_llvm_uaf_hooks = {number, NULL, plain, move, call_to_return, callee,
                                             check, describe, NULL};
