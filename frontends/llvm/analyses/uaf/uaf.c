/* Use after free and double free (CWE-416, CWE-415) over the memory model,
 * as the flow of dangling pointers. An abstract heap object stands for
 * every block of its allocation site, so "o was freed" says nothing about
 * the block a pointer holds now; what is dangling is a pointer value that
 * was taken before its block was freed. Facts:
 *
 *   DV(v)  SSA pointer v may hold a dangling pointer;
 *   DM(l)  location l may hold one;
 *   DR(f)  function f may return one.
 *
 * A free-like call (the table's `free`) makes its argument dangle, with
 * every pointer derived from the same value by casts and GEPs, and the
 * slot it was just read from (`free(s->buf)`: s->buf; dangling.c); the
 * freed block's own fields hold nothing any more. Not every place the
 * points-to set says may hold the block (dangle()). Dangling pointers flow
 * through casts, GEPs, phis, selects, loads, memcpy, returns and callee
 * exits; a store (or zeroing memset) overwrites what every target held
 * (`s->buf = NULL`, a new block); on the edge where realloc returned NULL
 * the old pointer does not dangle. A parameter left dangling at a callee's
 * exit makes the argument of each call, its aliases and the slot it was
 * read from dangle in that caller (value to value: a destroy callback that
 * points-to lets every container call frees only what that call handed
 * it); a slot of the caller's own frame that comes back dangling makes the
 * pointers the caller stored there dangle (`b.bytes = p; destroy(&b);
 * free(p)` at -O2). A finding is a load or store through a dangling
 * pointer, a library call handed one (its `reads`/`writes` arguments; for
 * an unmodelled declaration any pointer argument), a defined function
 * handed one (the callee does not get it: one bug, one finding), or a
 * second free. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontends/llvm/analyses/uaf/dangling.h"

enum { FACT_VALUE = 0, FACT_LOCATION = 1, FACT_RETURN = 2 };

static uint32_t object_of(const weir_llvm_ctx *ctx, uint32_t location) {
  return weir_llvm_memory_location(ctx->memory, location).object;
}

/* ctx->obj_fact marks the heap blocks the analysis tracks (1; no fact of
 * their own): a pointer that may point into one may dangle. */
static int tracked(const weir_llvm_ctx *ctx, uint32_t location) {
  return ctx->obj_fact[object_of(ctx, location)] != 0;
}

static uint32_t dv(const weir_llvm_ctx *ctx, LLVMValueRef v) {
  uint32_t vid = v ? weir_llvm_vid(ctx, v) : WEIR_LLVM_NONE;
  return vid == WEIR_LLVM_NONE ? 0 : ctx->fact_a[vid];
}

static uint32_t dm(const weir_llvm_ctx *ctx, uint32_t location) { return ctx->loc_fact[location]; }

static uint32_t fact_kind(const weir_llvm_ctx *ctx, uint32_t fact) { return ctx->fact_info.v[2 * (fact - 1)]; }

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
      ctx->obj_fact[o] = 1;
  /* A dangling state for what may point into a tracked block, and that a
   * free can reach. */
  weir_llvm_dangle_marks marks = {0};
  if (!weir_llvm_may_dangle(ctx, &marks)) ctx->failed = 1;
  for (uint32_t v = 0; v < ctx->value_count && !ctx->failed; ++v) {
    const uint32_t *locs = NULL;
    size_t n = weir_llvm_is_pointer(ctx->values[v]) && marks.value[v] ? weir_llvm_pts(ctx, ctx->values[v], &locs) : 0;
    if (weir_llvm_meets_tracked(ctx, locs, n)) ctx->fact_a[v] = weir_llvm_new_fact(ctx, FACT_VALUE, v);
  }
  for (uint32_t l = 0; l < locations && !ctx->failed; ++l) {
    const uint32_t *inner = NULL;
    size_t n = marks.location[l] ? weir_llvm_memory_contents(ctx->memory, l, &inner) : 0;
    if (weir_llvm_meets_tracked(ctx, inner, n)) ctx->loc_fact[l] = weir_llvm_new_fact(ctx, FACT_LOCATION, l);
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
  if (kind == FACT_LOCATION) {
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
  size_t nd = weir_llvm_pts(ctx, target, &dst);
  weir_llvm_copy_blocks(ctx, src, ns, dst, nd, flow);
}

static void external_call(weir_llvm_ctx *ctx, LLVMValueRef call, weir_llvm_flow *flow) {
  const weir_llvm_libcall *model = weir_llvm_call_model(ctx, call);
  weir_llvm_flow_kill(flow, dv(ctx, call)); /* a new result */
  copy_pointers(ctx, call, model, flow);
  if (model->frees < LLVMGetNumArgOperands(call) &&
      !(model->alloc == WEIR_LLVM_ALLOC_REALLOC && replaces_in_place(call, model->frees)))
    dangle(ctx, call, LLVMGetOperand(call, model->frees), flow);
}

static void memset_zero(weir_llvm_ctx *ctx, LLVMValueRef call, weir_llvm_flow *flow) {
  size_t length = 0;
  const char *name = weir_llvm_callee_name(call, &length);
  if (length < 11 || strncmp(name, "llvm.memset", 11) != 0 || LLVMGetNumArgOperands(call) < 2) return;
  LLVMValueRef value = LLVMGetOperand(call, 1);
  if (!LLVMIsAConstantInt(value) || LLVMConstIntGetZExtValue(value) != 0) return;
  LLVMValueRef pointer = LLVMGetOperand(call, 0);
  if (weir_llvm_pts_vague(ctx, pointer)) return;
  const uint32_t *locs = NULL;
  size_t n = weir_llvm_pts(ctx, pointer, &locs);
  for (size_t k = 0; k < n; ++k) { /* the block from there on holds no pointer now (as store()) */
    uint32_t first, end;
    weir_llvm_block(ctx, locs[k], &first, &end);
    for (uint32_t l = locs[k]; l < end; ++l) weir_llvm_flow_kill(flow, dm(ctx, l));
  }
}

/* `*pointer = value`: the value's dangling state goes into the places the
 * pointer may point to, and what they held is overwritten, for every
 * target (optimistic: the place written is taken to be the one the slot
 * rule made dangle through the same pointer, as in `free(s->buf); s->buf =
 * NULL;` or a grow helper's `free(c->slots); c->slots = bigger;`, where
 * `c` may be any of the program's caches). */
static void store(weir_llvm_ctx *ctx, LLVMValueRef inst, weir_llvm_flow *flow) {
  LLVMValueRef value = LLVMGetOperand(inst, 0), pointer = LLVMGetOperand(inst, 1);
  if (weir_llvm_pts_vague(ctx, pointer)) return;
  const uint32_t *locs = NULL;
  size_t n = weir_llvm_pts(ctx, pointer, &locs);
  for (size_t k = 0; k < n; ++k) weir_llvm_flow_kill(flow, dm(ctx, locs[k]));
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
    store(ctx, inst, flow);
  } else if (LLVMIsACallInst(inst)) {
    memset_zero(ctx, inst, flow);
    external_call(ctx, inst, flow);
  } else if (LLVMIsAReturnInst(inst)) {
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
  uint32_t to = dv(ctx, phi);
  weir_llvm_flow_kill(flow, to);
  weir_llvm_flow_pair(flow, dv(ctx, value), to);
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

/* DM facts of what the callee may write go through it (killed here, they
 * come back from its exit); the result is new. */
static void call_to_return(weir_llvm_ctx *ctx, LLVMValueRef call, weir_llvm_flow *flow) {
  weir_llvm_flow_kill(flow, dv(ctx, call));
  weir_llvm_vec mod = {0};
  callee_locations(ctx, call, 0, &mod);
  for (size_t k = 0; k < mod.n; ++k) weir_llvm_flow_kill(flow, dm(ctx, mod.v[k]));
  if (mod.failed) ctx->failed = 1;
  weir_llvm_vec_free(&mod);
}

/* `b.bytes = p; destroy(&b);`: the callee freed what the caller's own
 * local `l` held, so the pointers the caller stored there dangle too (at
 * -O2 it frees `p`, not a load of b.bytes). */
static void stored_values_dangle(weir_llvm_ctx *ctx, LLVMValueRef call, uint32_t l, weir_llvm_flow *ret_flow) {
  LLVMValueRef fn = LLVMGetBasicBlockParent(LLVMGetInstructionParent(call));
  weir_llvm_vec facts = {0};
  for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(fn); b; b = LLVMGetNextBasicBlock(b))
    for (LLVMValueRef inst = LLVMGetFirstInstruction(b); inst; inst = LLVMGetNextInstruction(inst)) {
      if (!LLVMIsAStoreInst(inst) || !dv(ctx, LLVMGetOperand(inst, 0))) continue;
      const uint32_t *locs = NULL;
      if (weir_llvm_pts(ctx, LLVMGetOperand(inst, 1), &locs) == 1 && locs[0] == l)
        alias_class(ctx, LLVMGetOperand(inst, 0), &facts);
    }
  weir_llvm_vec_sort_unique(&facts);
  for (size_t k = 0; k < facts.n; ++k) weir_llvm_flow_pair(ret_flow, dm(ctx, l), facts.v[k]);
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
  /* DM facts: into the callee and back what it may read or write (a slot
   * it read may come back dangling). Dangling arguments are reported at
   * the call (check_call) and do not go in: one bug is one finding, at the
   * outermost use. */
  const weir_llvm_vec *reach = weir_llvm_call_reach(ctx, call), *in = dm_summary(ctx, proc, 1);
  for (size_t k = 0; k < in->n; ++k) {
    uint32_t l = in->v[k];
    if (!weir_llvm_call_may_touch(ctx, call, reach, l)) continue;
    weir_llvm_flow_pair(call_flow, dm(ctx, l), dm(ctx, l));
    /* back: what it may write, and a slot it read, which may come back
     * dangling (`free(b->bytes)`); not its own locals, which die with it */
    LLVMValueRef frame = weir_llvm_frame_of(ctx, l);
    if (frame == ctx->fns[proc].fn) continue;
    weir_llvm_flow_pair(ret_flow, dm(ctx, l), dm(ctx, l));
    if (frame && frame == LLVMGetBasicBlockParent(LLVMGetInstructionParent(call)))
      stored_values_dangle(ctx, call, l, ret_flow);
  }
  if (ctx->fns[proc].ret_fact) weir_llvm_flow_pair(ret_flow, ctx->fns[proc].ret_fact, dv(ctx, call));
  arguments_dangle(ctx, call, proc, ret_flow);
}

/* How well a freed block names what `inst` uses: 2 allocated in the using
 * function, 1 laid out as the record the access indexes, 0 otherwise. */
static int block_rank(const weir_llvm_ctx *ctx, uint32_t location, LLVMValueRef here, LLVMTypeRef record) {
  uint32_t object = object_of(ctx, location);
  if (weir_llvm_memory_object(ctx->memory, object)->function == here) return 2;
  return record && weir_llvm_memory_object_layout(ctx->memory, object) == record ? 1 : 0;
}

/* ---- findings ------------------------------------------------------------ */
static void check_use(weir_llvm_ctx *ctx, uint32_t node, LLVMValueRef inst, LLVMValueRef pointer,
                      weir_llvm_finding_rule rule, const char *what) {
  weir_llvm_vec facts = {0};
  if (dv(ctx, pointer)) weir_llvm_vec_push(&facts, dv(ctx, pointer));
  if (facts.n) {
    const uint32_t *locs = NULL;
    size_t n = weir_llvm_pts(ctx, pointer, &locs), named = 0;
    /* the block to name: a tracked one, allocated in this function if one
     * is, else one whose layout is the record the access indexes (c->rpc:
     * a struct conn, not the server whose list head c may also be) */
    LLVMValueRef here = LLVMGetBasicBlockParent(LLVMGetInstructionParent(inst));
    LLVMValueRef gep = weir_llvm_strip_bitcasts(pointer);
    LLVMTypeRef record = gep && LLVMIsAGetElementPtrInst(gep) ? LLVMGetGEPSourceElementType(gep) : NULL;
    int rank = n && tracked(ctx, locs[0]) ? block_rank(ctx, locs[0], here, record) : -1;
    if (rank == 2) rank = 1; /* ties: the first block, else the last; among blocks allocated here the first */
    for (size_t k = n; k-- > 0;) {
      if (!tracked(ctx, locs[k])) continue;
      int r = block_rank(ctx, locs[k], here, record);
      if (r > rank || (r == rank && r == 2)) rank = r, named = k;
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
    if (length) snprintf(what, sizeof what, "'%.*s' uses", (int)(length > 96 ? 96 : length), name);
    else snprintf(what, sizeof what, "an indirect call uses"); /* was `'' uses` */
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

/* The call behind `v` when v is it, or a phi or select of it and NULLs
 * (`cap < max ? realloc(buf, n) : NULL`); else NULL. */
static LLVMValueRef realloc_or_null(LLVMValueRef v) {
  if (!v || LLVMIsACallInst(v)) return v;
  unsigned count = LLVMIsAPHINode(v) ? LLVMCountIncoming(v) : LLVMIsASelectInst(v) ? 2 : 0;
  LLVMValueRef call = NULL;
  for (unsigned k = 0; k < count; ++k) {
    LLVMValueRef in = weir_llvm_strip_bitcasts(LLVMIsAPHINode(v) ? LLVMGetIncomingValue(v, k) : LLVMGetOperand(v, k + 1));
    if (LLVMIsAConstantPointerNull(in)) continue;
    if (call || !LLVMIsACallInst(in)) return NULL;
    call = in;
  }
  return call;
}

/* `error = parse(&h, json); if (error) return error;`: on the edge where
 * a function that frees only when it fails (cleanup.c) returned zero, what
 * it hands back through its arguments does not dangle: the arguments and
 * their slots, and the cells of the blocks they point to. */
static void succeeded(weir_llvm_ctx *ctx, LLVMValueRef call, weir_llvm_flow *flow) {
  const uint32_t *procs = NULL;
  size_t n = weir_llvm_call_procs(ctx, call, &procs);
  for (size_t p = 0; p < n; ++p)
    if (!weir_llvm_frees_only_on_failure(ctx, procs[p])) return;
  weir_llvm_vec facts = {0};
  for (unsigned k = 0; n && k < LLVMGetNumArgOperands(call); ++k) {
    LLVMValueRef arg = LLVMGetOperand(call, k);
    if (!weir_llvm_is_pointer(arg)) continue;
    alias_class(ctx, arg, &facts);
    slot_dangles(ctx, call, arg, &facts);
    const uint32_t *locs = NULL;
    size_t m = weir_llvm_pts_vague(ctx, arg) ? 0 : weir_llvm_pts(ctx, arg, &locs);
    for (size_t j = 0; j < m; ++j) {
      uint32_t first, end;
      weir_llvm_block(ctx, locs[j], &first, &end);
      for (uint32_t l = first; l < end; ++l)
        if (dm(ctx, l)) weir_llvm_vec_push(&facts, dm(ctx, l));
    }
  }
  for (size_t k = 0; k < facts.n; ++k) weir_llvm_flow_kill(flow, facts.v[k]);
  if (facts.failed) ctx->failed = 1;
  weir_llvm_vec_free(&facts);
}

/* `bigger = realloc(buf, n); if (!bigger) ...`: on the edge where realloc
 * returned NULL it freed nothing, so `buf` (and its slot) do not dangle
 * there. And the edge where a cleanup-on-failure call succeeded. */
static void edge(weir_llvm_ctx *ctx, LLVMValueRef term, LLVMBasicBlockRef succ, weir_llvm_flow *flow) {
  if (!LLVMIsABranchInst(term) || !LLVMIsConditional(term)) return;
  LLVMValueRef cond = LLVMGetCondition(term);
  if (!LLVMIsAICmpInst(cond) || LLVMGetSuccessor(term, 0) == LLVMGetSuccessor(term, 1)) return;
  LLVMIntPredicate pred = LLVMGetICmpPredicate(cond);
  if (pred != LLVMIntEQ && pred != LLVMIntNE) return;
  LLVMValueRef a = weir_llvm_strip_bitcasts(LLVMGetOperand(cond, 0));
  LLVMValueRef b = weir_llvm_strip_bitcasts(LLVMGetOperand(cond, 1));
  LLVMValueRef tested = weir_llvm_zero_constant(b) ? a : weir_llvm_zero_constant(a) ? b : NULL;
  if (tested && LLVMIsACallInst(tested) && weir_llvm_classify_call(ctx, tested) == WEIR_LLVM_CALL_NODE &&
      succ == LLVMGetSuccessor(term, pred == LLVMIntEQ ? 0 : 1))
    succeeded(ctx, tested, flow);
  LLVMValueRef call = realloc_or_null(LLVMIsAConstantPointerNull(b) ? a : LLVMIsAConstantPointerNull(a) ? b : NULL);
  if (!call || !LLVMIsACallInst(call) || weir_llvm_classify_call(ctx, call) != WEIR_LLVM_CALL_EXTERNAL) return;
  const weir_llvm_libcall *model = weir_llvm_call_model(ctx, call);
  if (model->alloc != WEIR_LLVM_ALLOC_REALLOC || model->frees >= LLVMGetNumArgOperands(call)) return;
  if (succ != LLVMGetSuccessor(term, pred == LLVMIntEQ ? 0 : 1)) return;
  weir_llvm_vec facts = {0};
  alias_class(ctx, LLVMGetOperand(call, model->frees), &facts);
  slot_dangles(ctx, call, LLVMGetOperand(call, model->frees), &facts);
  weir_llvm_vec_sort_unique(&facts);
  for (size_t k = 0; k < facts.n; ++k) weir_llvm_flow_kill(flow, facts.v[k]);
  /* nor through the phis of this edge, which carry the old pointer on
   * (-O2: `free(phi [t, ok], [old, failed])`): their moves are dropped */
  size_t kept = 0;
  for (size_t k = 0; k + 1 < flow->pairs.n; k += 2)
    if (!weir_llvm_vec_contains(&facts, flow->pairs.v[k])) {
      flow->pairs.v[kept++] = flow->pairs.v[k];
      flow->pairs.v[kept++] = flow->pairs.v[k + 1];
    }
  flow->pairs.n = kept;
  if (facts.failed) ctx->failed = 1;
  weir_llvm_vec_free(&facts);
}

const weir_llvm_hooks weir_llvm_uaf_hooks = {number, NULL, plain, move, call_to_return, callee,
                                             check, describe, edge};
