/* Use after free and double free (CWE-416, CWE-415) over the memory model,
 * as the flow of dangling pointers. An abstract heap object stands for
 * every block of its allocation site, so "o was freed" says nothing about
 * the block a pointer holds now; what is dangling is a pointer value that
 * was taken before its block was freed. Facts:
 *
 *   DV(v)  SSA pointer v may hold a dangling pointer;
 *   DM(l)  location l may hold one;
 *   DR(f)  function f may return one;
 *   F(o)   a block of object o was freed during the current call (only to
 *          tell the caller, at the return, which of its pointers dangle).
 *
 * A free-like call (the table's `free`) makes its argument dangle, with
 * every pointer derived from the same value by casts and GEPs, and the
 * slot it was just read from (`free(s->buf)`: s->buf); the freed block's
 * own fields hold nothing any more. Not every place the points-to set says
 * may hold the block (dangle()). Dangling pointers flow through casts,
 * GEPs, phis, selects, stores (a store through a pointer with one target
 * overwrites it: `s->buf = NULL` or a new block ends the dangling state),
 * loads, memcpy, returns and callee exits. A parameter left dangling at a
 * callee's exit makes the argument of each call, its aliases and the slot
 * it was read from dangle in that caller (value to value: a destroy
 * callback that points-to lets every container call frees only what that
 * call handed it). A finding is a load or store through a dangling
 * pointer, a library call handed one (its `reads`/`writes` arguments; for
 * an unmodelled declaration any pointer argument), a defined function
 * handed one (the callee does not get it: one bug, one finding), or a
 * second free.
 *
 * F(o) does not enter callees: at a callee's exit it means "freed in this
 * call", and makes the pointers the caller stored into its own locals that
 * the callee reaches dangle (`b.bytes = p; destroy(&b); free(p)`). A new
 * block from o's site ends it, and so do a NULL store into the only place
 * that held the block and the return of a function whose locals alone held
 * it (and that neither returns it nor was handed it). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontends/llvm/analyses/dangling.h"

enum { FACT_OBJECT = 0, FACT_VALUE = 1, FACT_LOCATION = 2, FACT_RETURN = 3 };

#define HOLDER_NONE UINT32_MAX          /* no memory holds a pointer to the object */
#define HOLDER_SEVERAL (UINT32_MAX - 1) /* more than one location may */

static uint32_t object_of(const weir_llvm_ctx *ctx, uint32_t location) {
  return weir_llvm_memory_location(ctx->memory, location).object;
}

static uint32_t fact_of_location(const weir_llvm_ctx *ctx, uint32_t location) {
  return ctx->obj_fact[object_of(ctx, location)];
}

static uint32_t dv(const weir_llvm_ctx *ctx, LLVMValueRef v) {
  uint32_t vid = v ? weir_llvm_vid(ctx, v) : WEIR_LLVM_NONE;
  return vid == WEIR_LLVM_NONE ? 0 : ctx->fact_a[vid];
}

static uint32_t dm(const weir_llvm_ctx *ctx, uint32_t location) { return ctx->loc_fact[location]; }

static uint32_t fact_kind(const weir_llvm_ctx *ctx, uint32_t fact) { return ctx->fact_info.v[2 * (fact - 1)]; }

/* Whether any of `n` locations lies in a tracked block. */
static int meets_tracked(const weir_llvm_ctx *ctx, const uint32_t *locs, size_t n) {
  for (size_t k = 0; k < n; ++k)
    if (fact_of_location(ctx, locs[k])) return 1;
  return 0;
}


static void number(weir_llvm_ctx *ctx) {
  uint32_t objects = weir_llvm_memory_object_count(ctx->memory);
  uint32_t locations = weir_llvm_memory_location_count(ctx->memory);
  ctx->obj_fact = calloc(objects ? objects : 1, sizeof *ctx->obj_fact);
  ctx->loc_fact = calloc(locations ? locations : 1, sizeof *ctx->loc_fact);
  if (!ctx->obj_fact || !ctx->loc_fact) {
    ctx->failed = 1;
    return;
  }
  weir_llvm_mark_inlined_wrappers(ctx);
  for (uint32_t o = 0; o < objects; ++o)
    if (weir_llvm_memory_object(ctx->memory, o)->kind == WEIR_LLVM_OBJECT_HEAP && !weir_llvm_shared_site(ctx, o))
      ctx->obj_fact[o] = weir_llvm_new_fact(ctx, FACT_OBJECT, o);
  /* A dangling state for what may point into a tracked block, and that a
   * free can reach. */
  weir_llvm_dangle_marks marks = {0};
  if (!weir_llvm_may_dangle(ctx, &marks)) ctx->failed = 1;
  for (uint32_t v = 0; v < ctx->value_count && !ctx->failed; ++v) {
    const uint32_t *locs = NULL;
    size_t n = weir_llvm_is_pointer(ctx->values[v]) && marks.value[v] ? weir_llvm_pts(ctx, ctx->values[v], &locs) : 0;
    if (meets_tracked(ctx, locs, n)) ctx->fact_a[v] = weir_llvm_new_fact(ctx, FACT_VALUE, v);
  }
  for (uint32_t l = 0; l < locations && !ctx->failed; ++l) {
    const uint32_t *inner = NULL;
    size_t n = marks.location[l] ? weir_llvm_memory_contents(ctx->memory, l, &inner) : 0;
    if (meets_tracked(ctx, inner, n)) ctx->loc_fact[l] = weir_llvm_new_fact(ctx, FACT_LOCATION, l);
  }
  for (uint32_t p = 0; p < ctx->fn_count && !ctx->failed; ++p) {
    LLVMTypeRef type = LLVMGetReturnType(LLVMGlobalGetValueType(ctx->fns[p].fn));
    if (LLVMGetTypeKind(type) == LLVMPointerTypeKind && marks.returns[p])
      ctx->fns[p].ret_fact = weir_llvm_new_fact(ctx, FACT_RETURN, p);
  }
  free(marks.value);
  free(marks.location);
  free(marks.returns);
}

static void describe(weir_llvm_ctx *ctx, uint32_t fact, weir_llvm_text *out) {
  uint32_t kind = fact_kind(ctx, fact), id = ctx->fact_info.v[2 * (fact - 1) + 1];
  if (kind == FACT_OBJECT) {
    weir_llvm_text_put(out, "freed in this call ", 19);
    weir_llvm_memory_describe(ctx->memory, weir_llvm_memory_object(ctx->memory, id)->first_location, out);
  } else if (kind == FACT_LOCATION) {
    weir_llvm_text_put(out, "dangling pointer in ", 20);
    weir_llvm_memory_describe(ctx->memory, id, out);
  } else if (kind == FACT_RETURN) {
    size_t length = 0;
    const char *name = LLVMGetValueName2(ctx->fns[id].fn, &length);
    weir_llvm_text_printf(out, "dangling pointer returned by %.*s", (int)length, name);
  } else {
    weir_llvm_describe_value(ctx, "dangling pointer", id, out);
  }
}

static void alias_class(const weir_llvm_ctx *ctx, LLVMValueRef pointer, weir_llvm_vec *out) {
  LLVMValueRef work[WEIR_LLVM_ALIAS_CAP];
  size_t n = weir_llvm_alias_values(pointer, work);
  for (size_t k = 0; k < n; ++k)
    if (dv(ctx, work[k])) weir_llvm_vec_push(out, dv(ctx, work[k]));
}

static void slot_dangles(const weir_llvm_ctx *ctx, LLVMValueRef call, LLVMValueRef pointer, weir_llvm_vec *out) {
  const uint32_t *slots = NULL;
  size_t n = weir_llvm_freed_slots(ctx, call, pointer, &slots);
  for (size_t k = 0; k < n; ++k)
    if (dm(ctx, slots[k])) weir_llvm_vec_push(out, dm(ctx, slots[k]));
}

/* free(pointer): the pointer, its aliases and the slot it was read from
 * dangle. Not every place the points-to set says may hold the block: one
 * abstract block stands for every block of its site, so such a place holds,
 * most of the time, a sibling (the second string of the same strdup, the
 * queue entry the freed block came out of); and a destroy callback that
 * points-to lets every container call would make every container's
 * holders dangle. */
static void dangle(weir_llvm_ctx *ctx, LLVMValueRef call, LLVMValueRef pointer, weir_llvm_flow *flow) {
  weir_llvm_vec facts = {0};
  alias_class(ctx, pointer, &facts);
  slot_dangles(ctx, call, pointer, &facts);
  /* the freed block's own fields hold nothing any more (tracked or not) */
  const uint32_t *locs = NULL;
  size_t n = weir_llvm_pts_vague(ctx, pointer) ? 0 : weir_llvm_pts(ctx, pointer, &locs);
  for (size_t k = 0; k < n; ++k) {
    const weir_llvm_object *o = weir_llvm_memory_object(ctx->memory, object_of(ctx, locs[k]));
    if (o->kind != WEIR_LLVM_OBJECT_HEAP) continue;
    for (uint32_t l = 0; l < o->location_count; ++l) weir_llvm_flow_kill(flow, dm(ctx, o->first_location + l));
  }
  for (size_t k = 0; k < facts.n; ++k) weir_llvm_flow_gen(flow, facts.v[k]);
  if (facts.failed) ctx->failed = 1;
  weir_llvm_vec_free(&facts);
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

/* memcpy and the table's copies: the dangling pointers of the source
 * block, field by field. */
static void copy_pointers(weir_llvm_ctx *ctx, LLVMValueRef call, const weir_llvm_libcall *model,
                          weir_llvm_flow *flow) {
  uint32_t args = LLVMGetNumArgOperands(call);
  if (model->copy_from >= args || model->copy_to >= args) return;
  LLVMValueRef source = LLVMGetOperand(call, model->copy_from), target = LLVMGetOperand(call, model->copy_to);
  if (weir_llvm_pts_vague(ctx, source) || weir_llvm_pts_vague(ctx, target)) return;
  const uint32_t *src = NULL, *dst = NULL;
  size_t ns = weir_llvm_pts(ctx, source, &src);
  weir_llvm_vec from = {0}; /* the source locations whose block may hold a dangling pointer */
  for (size_t k = 0; k < ns; ++k) {
    uint32_t first, end, any = 0;
    weir_llvm_block(ctx, src[k], &first, &end);
    for (uint32_t l = src[k]; l < end && !any; ++l) any = dm(ctx, l) != 0;
    if (any) weir_llvm_vec_push(&from, src[k]);
  }
  size_t nd = from.n ? weir_llvm_pts(ctx, target, &dst) : 0;
  weir_llvm_vec pairs = {0};
  for (size_t j = 0; j < from.n; ++j)
    for (size_t e = 0; e < nd; ++e) weir_llvm_block_pairs(ctx, from.v[j], dst[e], &pairs);
  for (size_t j = 0; j + 1 < pairs.n; j += 2) weir_llvm_flow_pair(flow, dm(ctx, pairs.v[j]), dm(ctx, pairs.v[j + 1]));
  if (pairs.failed || from.failed) ctx->failed = 1;
  weir_llvm_vec_free(&pairs);
  weir_llvm_vec_free(&from);
}

static void external_call(weir_llvm_ctx *ctx, LLVMValueRef call, weir_llvm_flow *flow) {
  const weir_llvm_libcall *model = weir_llvm_call_model(ctx, call);
  weir_llvm_flow_kill(flow, dv(ctx, call)); /* a new result */
  uint32_t object = weir_llvm_allocated_object(ctx, call);
  if (object != WEIR_LLVM_NONE) weir_llvm_flow_kill(flow, ctx->obj_fact[object]);
  copy_pointers(ctx, call, model, flow);
  if (model->frees < LLVMGetNumArgOperands(call)) {
    weir_llvm_vec facts = {0};
    freed_facts(ctx, LLVMGetOperand(call, model->frees), &facts);
    /* realloc frees the old block and returns a new one: in a loop
     * (`p = realloc(p, n)`) the old block is this site's own object, which
     * the call makes anew, so it is not freed after the call. */
    uint32_t made = object != WEIR_LLVM_NONE ? ctx->obj_fact[object] : 0;
    int replacing = model->alloc == WEIR_LLVM_ALLOC_REALLOC && replaces_in_place(call, model->frees);
    size_t kept = 0;
    for (size_t k = 0; k < facts.n && !replacing; ++k)
      if (facts.v[k] != made) facts.v[kept++] = facts.v[k];
    facts.n = replacing ? 0 : kept;
    for (size_t k = 0; k < facts.n; ++k) weir_llvm_flow_gen(flow, facts.v[k]);
    if (!replacing) dangle(ctx, call, LLVMGetOperand(call, model->frees), flow);
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
    if (fact_kind(ctx, f) != FACT_OBJECT) continue;
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
  if (!LLVMIsAConstantInt(value) || LLVMConstIntGetZExtValue(value) != 0) return;
  clear_holder(ctx, LLVMGetOperand(call, 0), 1, flow);
  const uint32_t *locs = NULL;
  if (weir_llvm_pts(ctx, LLVMGetOperand(call, 0), &locs) != 1) return;
  uint32_t first, end; /* the block from there on holds no pointer now */
  weir_llvm_block(ctx, locs[0], &first, &end);
  for (uint32_t l = locs[0]; l < end; ++l) weir_llvm_flow_kill(flow, dm(ctx, l));
}

/* `*pointer = value`: the value's dangling state goes into the places the
 * pointer may point to; a single target is overwritten (optimistically
 * also a heap block's field: the block written is the one that held the
 * old pointer, as in `free(s->buf); s->buf = NULL;`). */
static void store(weir_llvm_ctx *ctx, LLVMValueRef inst, weir_llvm_flow *flow) {
  LLVMValueRef value = LLVMGetOperand(inst, 0), pointer = LLVMGetOperand(inst, 1);
  if (weir_llvm_pts_vague(ctx, pointer)) return;
  const uint32_t *locs = NULL;
  size_t n = weir_llvm_pts(ctx, pointer, &locs);
  if (n == 1) weir_llvm_flow_kill(flow, dm(ctx, locs[0]));
  uint32_t from = dv(ctx, value);
  for (size_t k = 0; k < n && from; ++k) weir_llvm_flow_pair(flow, from, dm(ctx, locs[k]));
}

static void load(weir_llvm_ctx *ctx, LLVMValueRef inst, weir_llvm_flow *flow) {
  uint32_t result = dv(ctx, inst);
  if (!result) return;
  weir_llvm_flow_kill(flow, result);
  LLVMValueRef pointer = LLVMGetOperand(inst, 0);
  if (weir_llvm_pts_vague(ctx, pointer)) return;
  const uint32_t *locs = NULL;
  size_t n = weir_llvm_pts(ctx, pointer, &locs);
  for (size_t k = 0; k < n; ++k) weir_llvm_flow_pair(flow, dm(ctx, locs[k]), result);
}

/* A new frame's locals hold no pointer yet. */
static void alloca_fresh(weir_llvm_ctx *ctx, LLVMValueRef inst, weir_llvm_flow *flow) {
  uint32_t object = weir_llvm_memory_object_of_site(ctx->memory, inst);
  if (object == WEIR_LLVM_NONE) return;
  const weir_llvm_object *o = weir_llvm_memory_object(ctx->memory, object);
  for (uint32_t k = 0; k < o->location_count; ++k) weir_llvm_flow_kill(flow, dm(ctx, o->first_location + k));
}

/* Casts, GEPs (from their base), selects: the operands' dangling state. */
static void derive(weir_llvm_ctx *ctx, LLVMValueRef inst, weir_llvm_flow *flow) {
  uint32_t result = dv(ctx, inst);
  if (!result) return;
  weir_llvm_flow_kill(flow, result);
  int first = LLVMIsASelectInst(inst) ? 1 : 0;
  int operands = LLVMIsAGetElementPtrInst(inst) || LLVMIsACastInst(inst) ? 1 : LLVMGetNumOperands(inst);
  for (int k = first; k < operands; ++k) weir_llvm_flow_pair(flow, dv(ctx, LLVMGetOperand(inst, k)), result);
}

static void plain(weir_llvm_ctx *ctx, LLVMValueRef inst, weir_llvm_flow *flow) {
  if (LLVMIsAStoreInst(inst)) {
    store_null(ctx, inst, flow);
    store(ctx, inst, flow);
  } else if (LLVMIsACallInst(inst)) {
    memset_zero(ctx, inst, flow);
    external_call(ctx, inst, flow);
  } else if (LLVMIsAReturnInst(inst)) {
    null_return(ctx, inst, flow);
    uint32_t proc = ctx->value_proc[weir_llvm_vid(ctx, inst)];
    if (LLVMGetNumOperands(inst) == 1 && ctx->fns[proc].ret_fact)
      weir_llvm_flow_pair(flow, dv(ctx, LLVMGetOperand(inst, 0)), ctx->fns[proc].ret_fact);
  } else if (LLVMIsALoadInst(inst)) {
    load(ctx, inst, flow);
  } else if (LLVMIsAAllocaInst(inst)) {
    alloca_fresh(ctx, inst, flow);
  } else {
    derive(ctx, inst, flow);
  }
}

static void move(weir_llvm_ctx *ctx, LLVMValueRef value, LLVMValueRef phi, weir_llvm_flow *flow) {
  if (is_null(value) && returned(phi))
    kill_allocations(ctx, LLVMGetBasicBlockParent(LLVMGetInstructionParent(phi)), flow);
  uint32_t to = dv(ctx, phi);
  weir_llvm_flow_kill(flow, to);
  weir_llvm_flow_pair(flow, dv(ctx, value), to);
}

/* Objects a callee may change the state of: written (freed blocks count as
 * written) or allocated, in it or below it. */
static void touched(const weir_llvm_ctx *ctx, LLVMValueRef fn, weir_llvm_vec *out) {
  const uint32_t *locs = NULL, *objects = NULL;
  /* Only tracked blocks have a fact: the vectors stay small. */
  size_t n = weir_llvm_memory_mod(ctx->memory, fn, &locs);
  for (size_t k = 0; k < n; ++k)
    if (fact_of_location(ctx, locs[k])) weir_llvm_vec_push(out, fact_of_location(ctx, locs[k]));
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

/* The locations with a DM fact that function `proc` may write, or read or
 * write: computed once per function (mod/ref lists are long, calls many). */
static const weir_llvm_vec *dm_summary(weir_llvm_ctx *ctx, uint32_t proc, int with_reads) {
  if (!ctx->dm_mod) {
    ctx->dm_mod = calloc(ctx->fn_count ? ctx->fn_count : 1, sizeof *ctx->dm_mod);
    ctx->dm_touch = calloc(ctx->fn_count ? ctx->fn_count : 1, sizeof *ctx->dm_touch);
    if (!ctx->dm_mod || !ctx->dm_touch) {
      ctx->failed = 1;
      static const weir_llvm_vec none = {0};
      return &none;
    }
    for (uint32_t p = 0; p < ctx->fn_count; ++p)
      for (int pass = 0; pass < 2; ++pass) {
        const uint32_t *locs = NULL;
        LLVMValueRef fn = ctx->fns[p].fn;
        size_t m = pass ? weir_llvm_memory_ref(ctx->memory, fn, &locs) : weir_llvm_memory_mod(ctx->memory, fn, &locs);
        for (size_t k = 0; k < m; ++k) {
          if (!dm(ctx, locs[k])) continue;
          if (!pass) weir_llvm_vec_push(&ctx->dm_mod[p], locs[k]);
          weir_llvm_vec_push(&ctx->dm_touch[p], locs[k]);
        }
        weir_llvm_vec_sort_unique(pass ? &ctx->dm_touch[p] : &ctx->dm_mod[p]);
        if (ctx->dm_mod[p].failed || ctx->dm_touch[p].failed) ctx->failed = 1;
      }
  }
  return with_reads ? &ctx->dm_touch[proc] : &ctx->dm_mod[proc];
}

/* Locations with a DM fact the callees of `call` may write (killed across
 * the call, they come back from the exits), or also read; sorted. */
static void callee_locations(weir_llvm_ctx *ctx, LLVMValueRef call, int with_reads, weir_llvm_vec *out) {
  const weir_llvm_vec *reach = weir_llvm_call_reach(ctx, call);
  const uint32_t *procs = NULL;
  size_t n = weir_llvm_call_procs(ctx, call, &procs);
  for (size_t p = 0; p < n; ++p) {
    const weir_llvm_vec *locs = dm_summary(ctx, procs[p], with_reads);
    for (size_t k = 0; k < locs->n; ++k)
      if (weir_llvm_call_may_touch(ctx, call, reach, locs->v[k])) weir_llvm_vec_push(out, locs->v[k]);
  }
  if (n > 1) weir_llvm_vec_sort_unique(out);
}

/* F(o) passes around a call (the callee does not get it) unless the callee
 * makes o anew; DM facts of what the callee may write go through it. */
static void call_to_return(weir_llvm_ctx *ctx, LLVMValueRef call, weir_llvm_flow *flow) {
  const uint32_t *procs = NULL;
  size_t n = weir_llvm_call_procs(ctx, call, &procs);
  for (size_t p = 0; p < n; ++p) {
    const uint32_t *objects = NULL;
    size_t m = weir_llvm_memory_allocs(ctx->memory, ctx->fns[procs[p]].fn, &objects);
    for (size_t k = 0; k < m; ++k) weir_llvm_flow_kill(flow, ctx->obj_fact[objects[k]]);
  }
  uint32_t object = weir_llvm_allocated_object(ctx, call); /* an allocation wrapper */
  if (object != WEIR_LLVM_NONE) weir_llvm_flow_kill(flow, ctx->obj_fact[object]);
  weir_llvm_flow_kill(flow, dv(ctx, call));
  weir_llvm_vec mod = {0};
  callee_locations(ctx, call, 0, &mod);
  for (size_t k = 0; k < mod.n; ++k) weir_llvm_flow_kill(flow, dm(ctx, mod.v[k]));
  if (mod.failed) ctx->failed = 1;
  weir_llvm_vec_free(&mod);
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

static int points_into(const weir_llvm_ctx *ctx, LLVMValueRef pointer, uint32_t freed) {
  const uint32_t *locs = NULL;
  size_t n = weir_llvm_is_pointer(pointer) ? weir_llvm_pts(ctx, pointer, &locs) : 0;
  for (size_t j = 0; j < n; ++j)
    if (fact_of_location(ctx, locs[j]) == freed) return 1;
  return 0;
}

/* Values of the caller stored into its own locals that the call can reach
 * (`b.bytes = p; destroy(&b);`): the callee may have freed them through
 * them. (Not stores into heap blocks: a destroy callback that points-to
 * lets every queue call would free whatever any block holds.) */
static void stored_values_dangle(weir_llvm_ctx *ctx, LLVMValueRef call, uint32_t freed, weir_llvm_vec *facts) {
  const weir_llvm_vec *reach = weir_llvm_call_reach(ctx, call);
  LLVMValueRef fn = LLVMGetBasicBlockParent(LLVMGetInstructionParent(call));
  for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(fn); b; b = LLVMGetNextBasicBlock(b))
    for (LLVMValueRef inst = LLVMGetFirstInstruction(b); inst; inst = LLVMGetNextInstruction(inst)) {
      if (!LLVMIsAStoreInst(inst) || !points_into(ctx, LLVMGetOperand(inst, 0), freed)) continue;
      const uint32_t *locs = NULL;
      size_t n = weir_llvm_pts(ctx, LLVMGetOperand(inst, 1), &locs);
      int reached = n > 0;
      for (size_t j = 0; j < n && reached; ++j)
        reached = weir_llvm_frame_of(ctx, locs[j]) == fn && weir_llvm_vec_contains(reach, object_of(ctx, locs[j]));
      if (reached) alias_class(ctx, LLVMGetOperand(inst, 0), facts);
    }
}

/* The callee freed a block of the object of F fact `freed`: the values
 * the caller stored where the callee can reach, and what derives from
 * them, dangle. */
static void stored_dangle(weir_llvm_ctx *ctx, LLVMValueRef call, uint32_t freed, weir_llvm_flow *ret_flow) {
  weir_llvm_vec facts = {0};
  stored_values_dangle(ctx, call, freed, &facts);
  weir_llvm_vec_sort_unique(&facts);
  for (size_t k = 0; k < facts.n; ++k) weir_llvm_flow_pair(ret_flow, freed, facts.v[k]);
  if (facts.failed) ctx->failed = 1;
  weir_llvm_vec_free(&facts);
}

/* A parameter the callee left dangling (it freed the block, or a callee of
 * its did): the argument, and what derives from it, dangle in the caller.
 * Value to value, so a destroy callback that the points-to analysis lets
 * any queue call frees only what that call was handed. */
static void arguments_dangle(weir_llvm_ctx *ctx, LLVMValueRef call, uint32_t proc, weir_llvm_flow *ret_flow) {
  uint32_t args = LLVMGetNumArgOperands(call), k = 0;
  for (LLVMValueRef param = LLVMGetFirstParam(ctx->fns[proc].fn); param && k < args;
       param = LLVMGetNextParam(param), ++k) {
    if (!dv(ctx, param)) continue;
    weir_llvm_vec facts = {0};
    alias_class(ctx, LLVMGetOperand(call, k), &facts);
    slot_dangles(ctx, call, LLVMGetOperand(call, k), &facts); /* `destroy(s->p)`: s->p */
    for (size_t j = 0; j < facts.n; ++j) weir_llvm_flow_pair(ret_flow, dv(ctx, param), facts.v[j]);
    if (facts.failed) ctx->failed = 1;
    weir_llvm_vec_free(&facts);
  }
}

static void callee(weir_llvm_ctx *ctx, LLVMValueRef call, uint32_t proc, weir_llvm_flow *call_flow,
                   weir_llvm_flow *ret_flow) {
  /* F facts: what this callee frees comes back (unless it died with the
   * callee's locals) and makes the caller's arguments dangle. */
  weir_llvm_vec changed = {0};
  touched(ctx, ctx->fns[proc].fn, &changed);
  weir_llvm_vec_sort_unique(&changed);
  keep_reachable(ctx, call, &changed);
  for (size_t k = 0; k < changed.n; ++k) {
    if (dies_with(ctx, call, proc, changed.v[k], weir_llvm_call_reach(ctx, call))) continue;
    weir_llvm_flow_pair(ret_flow, changed.v[k], changed.v[k]);
    stored_dangle(ctx, call, changed.v[k], ret_flow);
  }
  if (changed.failed) ctx->failed = 1;
  weir_llvm_vec_free(&changed);
  /* DM facts: into the callee what it may read or write; back what it may
   * write and the places that hold blocks it may free (free's holders).
   * Dangling arguments are reported at the call (check_call) and do not
   * go in: one bug is one finding, at the outermost use. */
  const weir_llvm_vec *reach = weir_llvm_call_reach(ctx, call), *in = dm_summary(ctx, proc, 1);
  for (size_t k = 0; k < in->n; ++k) {
    uint32_t l = in->v[k];
    if (!weir_llvm_call_may_touch(ctx, call, reach, l)) continue;
    weir_llvm_flow_pair(call_flow, dm(ctx, l), dm(ctx, l));
    /* back: what it may write, and a slot it read, which may come back
     * dangling (`free(b->bytes)`); not its own locals, which die with it */
    if (weir_llvm_frame_of(ctx, l) != ctx->fns[proc].fn) weir_llvm_flow_pair(ret_flow, dm(ctx, l), dm(ctx, l));
  }
  if (ctx->fns[proc].ret_fact) weir_llvm_flow_pair(ret_flow, ctx->fns[proc].ret_fact, dv(ctx, call));
  arguments_dangle(ctx, call, proc, ret_flow);
}

/* ---- findings ------------------------------------------------------------ */
static void check_use(weir_llvm_ctx *ctx, uint32_t node, LLVMValueRef inst, LLVMValueRef pointer,
                      weir_llvm_finding_rule rule, const char *what) {
  weir_llvm_vec facts = {0};
  if (dv(ctx, pointer)) weir_llvm_vec_push(&facts, dv(ctx, pointer));
  if (facts.n) {
    const uint32_t *locs = NULL;
    size_t n = weir_llvm_pts(ctx, pointer, &locs), named = 0;
    /* the block to name: a tracked one, allocated in this function if one is */
    LLVMValueRef here = LLVMGetBasicBlockParent(LLVMGetInstructionParent(inst));
    for (size_t k = n; k-- > 0;) {
      if (!fact_of_location(ctx, locs[k])) continue;
      if (!fact_of_location(ctx, locs[named]) || weir_llvm_memory_object(ctx->memory, object_of(ctx, locs[k]))->function == here)
        named = k;
    }
    weir_llvm_text name = {0}, note = {0}, message = {0};
    weir_llvm_access_words(ctx, pointer, !LLVMIsALoadInst(inst) && !LLVMIsAStoreInst(inst), locs[named], &name, &note);
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
