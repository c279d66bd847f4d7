/* What the three analyses share: points-to queries through the memory model,
 * the library model of a call (looked up once per callee), allocation sites
 * and the strong-update rule. */
#include <stdlib.h>
#include <string.h>

#include <llvm-c/DebugInfo.h>

#include "frontends/llvm/internal.h"

LLVMValueRef weir_llvm_strip_bitcasts(LLVMValueRef v) {
  while (v && (LLVMIsABitCastInst(v) || (LLVMIsAConstantExpr(v) && LLVMGetConstOpcode(v) == LLVMBitCast)))
    v = LLVMGetOperand(v, 0);
  return v;
}

LLVMBasicBlockRef weir_llvm_only_pred(LLVMBasicBlockRef block) {
  LLVMBasicBlockRef pred = NULL;
  for (LLVMBasicBlockRef p = LLVMGetFirstBasicBlock(LLVMGetBasicBlockParent(block)); p; p = LLVMGetNextBasicBlock(p)) {
    LLVMValueRef term = LLVMGetBasicBlockTerminator(p);
    for (unsigned k = 0, n = term ? LLVMGetNumSuccessors(term) : 0; k < n; ++k)
      if (LLVMGetSuccessor(term, k) == block) {
        if (pred && pred != p) return NULL;
        pred = p;
      }
  }
  return pred;
}

const weir_llvm_vec *weir_llvm_callee_mod(weir_llvm_ctx *ctx, LLVMValueRef call) {
  weir_llvm_vec *out = &ctx->mod_locs;
  if (ctx->mod_call == call) return out;
  ctx->mod_call = call;
  out->n = 0;
  const weir_llvm_vec *reach = weir_llvm_call_reach(ctx, call);
  const uint32_t *procs = NULL;
  size_t n = weir_llvm_call_procs(ctx, call, &procs);
  for (size_t p = 0; p < n; ++p) {
    const uint32_t *locs = NULL;
    size_t m = weir_llvm_memory_mod(ctx->memory, ctx->fns[procs[p]].fn, &locs);
    for (size_t k = 0; k < m; ++k)
      if (weir_llvm_call_may_touch(ctx, call, reach, locs[k])) weir_llvm_vec_push(out, locs[k]);
  }
  if (n > 1) weir_llvm_vec_sort_unique(out);
  if (out->failed) ctx->failed = 1;
  return out;
}

int weir_llvm_is_pointer(LLVMValueRef value) {
  return LLVMGetTypeKind(LLVMTypeOf(value)) == LLVMPointerTypeKind;
}

size_t weir_llvm_pts(const weir_llvm_ctx *ctx, LLVMValueRef pointer, const uint32_t **locations) {
  static const uint32_t none[1] = {0};
  *locations = none;
  if (!ctx->memory || !pointer || !weir_llvm_is_pointer(pointer)) return 0;
  return weir_llvm_memory_points_to(ctx->memory, pointer, locations);
}

/* Breadth first over stored pointers, a level at a time; each level is
 * sorted once (sets of thousands of locations on real programs). A deep
 * rule reads whole blocks: every field from the pointed one on
 * (msghdr.msg_iov, the elements of an argv array). */
void weir_llvm_pts_deep(const weir_llvm_ctx *ctx, LLVMValueRef pointer, int depth, weir_llvm_vec *out) {
  enum { CAP = 4096 };
  out->n = 0;
  const uint32_t *locs = NULL;
  size_t n = weir_llvm_pts(ctx, pointer, &locs);
  for (size_t k = 0; k < n; ++k) weir_llvm_vec_push(out, locs[k]); /* sorted, unique */
  if (depth == 0) return;
  weir_llvm_vec frontier = {0}, next = {0};
  for (size_t k = 0; k < out->n; ++k) weir_llvm_vec_push(&frontier, out->v[k]);
  for (int level = 0; level < depth && frontier.n && out->n < CAP; ++level) {
    next.n = 0;
    for (size_t k = 0; k < frontier.n && next.n < CAP; ++k) {
      uint32_t first, end;
      weir_llvm_block(ctx, frontier.v[k], &first, &end);
      for (uint32_t l = first; l < end; ++l) {
        weir_llvm_vec_push(&next, l);
        const uint32_t *inner = NULL;
        size_t m = weir_llvm_memory_contents(ctx->memory, l, &inner);
        for (size_t j = 0; j < m && next.n < CAP; ++j) weir_llvm_vec_push(&next, inner[j]);
      }
    }
    weir_llvm_vec_sort_unique(&next);
    frontier.n = 0;
    for (size_t k = 0; k < next.n; ++k)
      if (!weir_llvm_vec_contains(out, next.v[k])) weir_llvm_vec_push(&frontier, next.v[k]);
    for (size_t k = 0; k < frontier.n && out->n < CAP; ++k) weir_llvm_vec_push(out, frontier.v[k]);
    weir_llvm_vec_sort_unique(out);
  }
  if (frontier.failed || next.failed) out->failed = 1;
  weir_llvm_vec_free(&frontier);
  weir_llvm_vec_free(&next);
}

const weir_llvm_libcall *weir_llvm_call_model(weir_llvm_ctx *ctx, LLVMValueRef call) {
  static const weir_llvm_libcall unknown = {0, 0, WEIR_LLVM_NONE, WEIR_LLVM_NONE, WEIR_LLVM_NONE,
                                            WEIR_LLVM_NONE, WEIR_LLVM_NONE, 0, 0};
  LLVMValueRef fn = weir_llvm_direct_callee(call);
  if (!fn) return &unknown;
  uint32_t index = weir_llvm_map_get(&ctx->libcall_index, fn);
  if (index != WEIR_LLVM_NONE) return &ctx->libcalls[index];
  if (ctx->libcall_count == ctx->libcall_cap) {
    size_t cap = ctx->libcall_cap ? ctx->libcall_cap * 2 : 64;
    weir_llvm_libcall *grown = realloc(ctx->libcalls, cap * sizeof *grown);
    if (!grown) {
      ctx->failed = 1;
      return &unknown;
    }
    ctx->libcalls = grown;
    ctx->libcall_cap = cap;
  }
  size_t length = 0;
  const char *name = LLVMGetValueName2(fn, &length);
  weir_llvm_library_lookup(ctx->config, name, length, &ctx->libcalls[ctx->libcall_count]);
  weir_llvm_map_put(&ctx->libcall_index, fn, (uint32_t)ctx->libcall_count);
  if (ctx->libcall_index.failed) ctx->failed = 1;
  return &ctx->libcalls[ctx->libcall_count++];
}

uint32_t weir_llvm_allocated_object(const weir_llvm_ctx *ctx, LLVMValueRef call) {
  if (!ctx->memory) return WEIR_LLVM_NONE;
  uint32_t object = weir_llvm_memory_object_of_site(ctx->memory, call);
  if (object == WEIR_LLVM_NONE) return WEIR_LLVM_NONE;
  return weir_llvm_memory_object(ctx->memory, object)->kind == WEIR_LLVM_OBJECT_HEAP ? object
                                                                                  : WEIR_LLVM_NONE;
}

int weir_llvm_strong_target(const weir_llvm_ctx *ctx, uint32_t location) {
  weir_llvm_location_info info = weir_llvm_memory_location(ctx->memory, location);
  const weir_llvm_object *o = weir_llvm_memory_object(ctx->memory, info.object);
  return (o->kind == WEIR_LLVM_OBJECT_STACK || o->kind == WEIR_LLVM_OBJECT_GLOBAL) && !o->is_array &&
         !o->collapsed;
}

size_t weir_llvm_call_procs(const weir_llvm_ctx *ctx, LLVMValueRef call, const uint32_t **procs) {
  uint32_t vid = weir_llvm_vid(ctx, call);
  if (vid == WEIR_LLVM_NONE || !ctx->callee_count[vid]) return 0;
  *procs = ctx->callees.v + ctx->callee_first[vid];
  return ctx->callee_count[vid];
}

void weir_llvm_access_words(const weir_llvm_ctx *ctx, LLVMValueRef pointer, int as_argument, uint32_t location,
                            weir_llvm_text *what, weir_llvm_text *note) {
  weir_llvm_text name = {0};
  if (as_argument) weir_llvm_memory_describe_object(ctx->memory, location, &name); /* a call gets the block */
  else weir_llvm_memory_describe(ctx->memory, location, &name);
  if (weir_llvm_memory_access_name(ctx->memory, pointer, as_argument, what)) {
    /* "a[]" or "s.len" already says "a" or "s": no note of it */
    int named = name.p && strncmp(name.p, what->p, name.n) == 0 &&
                (what->p[name.n] == '\0' || what->p[name.n] == '[' || what->p[name.n] == '.');
    if (name.p && !named) weir_llvm_text_put(note, name.p, name.n);
  } else {
    weir_llvm_text_put(what, name.p ? name.p : "?", name.p ? name.n : 1);
  }
  if (name.failed) what->failed = 1;
  weir_llvm_text_free(&name);
}

void weir_llvm_add_rule_check(weir_llvm_ctx *ctx, weir_llvm_finding_rule rule, uint32_t node,
                              const uint32_t *facts, size_t count, LLVMValueRef inst,
                              const char *message) {
  size_t before = ctx->out->check_count;
  weir_llvm_add_check(ctx, node, facts, count, inst, message);
  if (ctx->out->check_count > before) ctx->out->checks[before].rule = rule;
}

void weir_llvm_block_pairs(const weir_llvm_ctx *ctx, uint32_t from, uint32_t to, weir_llvm_vec *out) {
  uint32_t first, end;
  weir_llvm_block(ctx, from, &first, &end);
  for (uint32_t k = first; k < end; ++k) {
    weir_llvm_vec_push(out, k);
    weir_llvm_vec_push(out, weir_llvm_block_counterpart(ctx, from, to, k));
  }
}

/* A block copy between every location of `src` and every location of
 * `dst` (memcpy between two `void *` that point to thousands of places
 * each): field by field, so struct copies keep clean fields clean. The
 * cell r bytes into a source block flows into the cell r bytes into every
 * destination block, as one bundle per relative offset r (so (sources +
 * destinations) x fields, not their product, until pruning has run).
 * Source cells without a location fact (`facts`, by location), or that
 * pruning dropped, are skipped. */
void weir_llvm_copy_blocks_of(weir_llvm_ctx *ctx, const uint32_t *facts, const uint32_t *src, size_t m,
                              const uint32_t *dst, size_t dn, weir_llvm_flow *flow) {
  weir_llvm_vec cells = {0}, from = {0}, to = {0}; /* cells: (relative offset, fact) pairs */
  for (size_t j = 0; j < m && dn; ++j) {
    uint32_t first, end;
    weir_llvm_block(ctx, src[j], &first, &end);
    uint32_t base = weir_llvm_memory_location(ctx->memory, src[j]).offset;
    for (uint32_t k = first; k < end; ++k) {
      uint32_t fact = facts[k];
      if (!fact || (ctx->fact_map && ctx->fact_map[fact] == WEIR_LLVM_NONE)) continue;
      weir_llvm_vec_push(&cells, weir_llvm_memory_location(ctx->memory, k).offset - base);
      weir_llvm_vec_push(&cells, fact);
    }
  }
  weir_llvm_vec_sort_pairs(&cells);
  for (size_t c = 0; c + 1 < cells.n;) {
    uint32_t r = cells.v[c];
    from.n = to.n = 0;
    for (; c + 1 < cells.n && cells.v[c] == r; c += 2) weir_llvm_vec_push(&from, cells.v[c + 1]);
    for (size_t e = 0; e < dn; ++e) {
      weir_llvm_location_info d = weir_llvm_memory_location(ctx->memory, dst[e]);
      uint32_t target = weir_llvm_memory_location_at(ctx->memory, d.object, d.offset + r);
      weir_llvm_vec_push(&to, facts[target == WEIR_LLVM_NONE ? dst[e] : target]);
    }
    weir_llvm_vec_sort_unique(&to);
    weir_llvm_flow_bundle(flow, from.v, from.n, to.v, to.n);
  }
  if (cells.failed || from.failed || to.failed) ctx->failed = 1;
  weir_llvm_vec_free(&cells);
  weir_llvm_vec_free(&from);
  weir_llvm_vec_free(&to);
}

void weir_llvm_copy_blocks(weir_llvm_ctx *ctx, const uint32_t *src, size_t m, const uint32_t *dst, size_t dn,
                           weir_llvm_flow *flow) {
  weir_llvm_copy_blocks_of(ctx, ctx->loc_fact, src, m, dst, dn, flow);
}

uint32_t weir_llvm_block_counterpart(const weir_llvm_ctx *ctx, uint32_t from, uint32_t to, uint32_t k) {
  uint32_t delta = weir_llvm_memory_location(ctx->memory, k).offset - weir_llvm_memory_location(ctx->memory, from).offset;
  weir_llvm_location_info dst = weir_llvm_memory_location(ctx->memory, to);
  uint32_t target = weir_llvm_memory_location_at(ctx->memory, dst.object, dst.offset + delta);
  return target == WEIR_LLVM_NONE ? to : target;
}

uint32_t weir_llvm_block_span(const weir_llvm_ctx *ctx, uint32_t location, uint64_t bytes) {
  uint32_t first, end;
  weir_llvm_block(ctx, location, &first, &end);
  uint32_t start = weir_llvm_memory_location(ctx->memory, first).offset, last = first + 1;
  while (last < end && weir_llvm_memory_location(ctx->memory, last).offset - start < bytes) ++last;
  return last;
}

void weir_llvm_block(const weir_llvm_ctx *ctx, uint32_t location, uint32_t *first, uint32_t *end) {
  weir_llvm_location_info info = weir_llvm_memory_location(ctx->memory, location);
  const weir_llvm_object *o = weir_llvm_memory_object(ctx->memory, info.object);
  *first = location;
  *end = o->first_location + o->location_count;
}

int weir_llvm_points_to_struct(LLVMValueRef pointer) {
  for (int depth = 0; pointer && depth < 8; ++depth) {
    if (LLVMIsABitCastInst(pointer) ||
        (LLVMIsAConstantExpr(pointer) && LLVMGetConstOpcode(pointer) == LLVMBitCast))
      pointer = LLVMGetOperand(pointer, 0);
    else
      break;
  }
  if (!pointer || LLVMGetTypeKind(LLVMTypeOf(pointer)) != LLVMPointerTypeKind) return 0;
  LLVMTypeRef element = LLVMGetElementType(LLVMTypeOf(pointer));
  while (LLVMGetTypeKind(element) == LLVMArrayTypeKind) element = LLVMGetElementType(element);
  return LLVMGetTypeKind(element) == LLVMStructTypeKind; /* va_list is [1 x struct] */
}

/* The objects stored in any location of `object`, sorted and unique;
 * computed once per object (every call site's reach walks them). */
static const weir_llvm_vec *object_successors(weir_llvm_ctx *ctx, uint32_t object) {
  weir_llvm_reach *r = &ctx->reach;
  weir_llvm_vec *out = &r->succ[object];
  if (r->succ_ready[object]) return out;
  r->succ_ready[object] = 1;
  const weir_llvm_object *o = weir_llvm_memory_object(ctx->memory, object);
  for (uint32_t l = o->first_location; l < o->first_location + o->location_count; ++l) {
    const uint32_t *inner = NULL;
    size_t m = weir_llvm_memory_contents(ctx->memory, l, &inner);
    for (size_t j = 0; j < m; ++j) weir_llvm_vec_push(out, weir_llvm_memory_location(ctx->memory, inner[j]).object);
  }
  weir_llvm_vec_sort_unique(out);
  if (out->failed) ctx->failed = 1;
  return out;
}

/* Adds `object` to `out` unless this walk (stamp) has it already. */
static void reach_add(weir_llvm_reach *r, uint32_t object, weir_llvm_vec *out) {
  if (r->stamp_of[object] == r->stamp) return;
  r->stamp_of[object] = r->stamp;
  weir_llvm_vec_push(out, object);
}

static int reach_init(weir_llvm_ctx *ctx);

/* A new walk: no object carries its stamp yet. */
static void reach_begin(weir_llvm_reach *r) {
  if (++r->stamp == 0) { /* wrapped: no stamp may stand for an old walk */
    memset(r->stamp_of, 0, r->objects * sizeof *r->stamp_of);
    r->stamp = 1;
  }
}

/* Appends to `objects` (whose elements the current walk has stamped) what
 * they hold, `levels` deep, each object once. */
static void reach_expand(weir_llvm_ctx *ctx, weir_llvm_vec *objects, int levels) {
  for (int level = 0, first = 0; level < levels; ++level) {
    size_t end = objects->n;
    for (size_t k = (size_t)first; k < end; ++k) {
      const weir_llvm_vec *succ = object_successors(ctx, objects->v[k]);
      for (size_t j = 0; j < succ->n; ++j) reach_add(&ctx->reach, succ->v[j], objects);
    }
    first = (int)end;
  }
  weir_llvm_vec_sort_unique(objects); /* unique already: sorted for weir_llvm_vec_contains */
}

static int is_stack_object(const weir_llvm_ctx *ctx, uint32_t object) {
  return weir_llvm_memory_object(ctx->memory, object)->kind == WEIR_LLVM_OBJECT_STACK;
}

/* The stack objects that `object` holds (sorted, unique); once per object.
 * A call's reach needs the stack objects two holds below its arguments'
 * targets: walking every object those hold in full at each of ~10 k call
 * sites (a JSON library's or an interpreter's pointers may point to most of
 * the heap) was 40 % of the frontend; the second level now reads only
 * these short lists. */
static const weir_llvm_vec *stack_successors(weir_llvm_ctx *ctx, uint32_t object) {
  weir_llvm_reach *r = &ctx->reach;
  weir_llvm_vec *out = &r->stack_succ[object];
  if (r->stack_succ_ready[object]) return out;
  r->stack_succ_ready[object] = 1;
  const weir_llvm_vec *succ = object_successors(ctx, object);
  for (size_t j = 0; j < succ->n; ++j)
    if (is_stack_object(ctx, succ->v[j])) weir_llvm_vec_push(out, succ->v[j]);
  if (out->failed) ctx->failed = 1;
  return out; /* sorted and unique: a subsequence of succ */
}

/* The stack objects among the pointer arguments' targets and two levels of
 * what those hold. The walk visits each object once (a stamp per object);
 * its second level reads only the stack objects each object holds. */
static void compute_reach(weir_llvm_ctx *ctx, LLVMValueRef call, weir_llvm_vec *objects) {
  weir_llvm_reach *r = &ctx->reach;
  weir_llvm_vec *walk = &r->walk;
  walk->n = 0;
  reach_begin(r);
  uint32_t args = LLVMGetNumArgOperands(call);
  for (uint32_t k = 0; k < args; ++k) {
    LLVMValueRef arg = LLVMGetOperand(call, k);
    if (!weir_llvm_is_pointer(arg)) continue;
    const uint32_t *locs = NULL;
    size_t n = weir_llvm_pts(ctx, arg, &locs);
    for (size_t j = 0; j < n; ++j) reach_add(r, weir_llvm_memory_location(ctx->memory, locs[j]).object, walk);
  }
  size_t targets = walk->n;
  for (size_t k = 0; k < targets; ++k) {
    const weir_llvm_vec *succ = object_successors(ctx, walk->v[k]);
    for (size_t j = 0; j < succ->n; ++j) reach_add(r, succ->v[j], walk);
  }
  for (size_t k = targets, held = walk->n; k < held; ++k) {
    const weir_llvm_vec *below = stack_successors(ctx, walk->v[k]);
    for (size_t j = 0; j < below->n; ++j) reach_add(r, below->v[j], walk);
  }
  objects->n = 0;
  for (size_t k = 0; k < walk->n; ++k)
    if (is_stack_object(ctx, walk->v[k])) weir_llvm_vec_push(objects, walk->v[k]);
  if (walk->failed) objects->failed = 1;
  weir_llvm_vec_sort_unique(objects);
}

void weir_llvm_objects_reach(weir_llvm_ctx *ctx, weir_llvm_vec *objects, int levels) {
  if (!reach_init(ctx)) return;
  reach_begin(&ctx->reach);
  size_t kept = 0;
  for (size_t k = 0; k < objects->n; ++k)
    if (ctx->reach.stamp_of[objects->v[k]] != ctx->reach.stamp) {
      ctx->reach.stamp_of[objects->v[k]] = ctx->reach.stamp;
      objects->v[kept++] = objects->v[k];
    }
  objects->n = kept;
  reach_expand(ctx, objects, levels);
}

/* Stack objects whose address reaches a global, however deep (`g = buf`,
 * `g->list = &node`): any callee may touch those through the global, not
 * only the callees the object is passed to. A walk from every global
 * object over what objects hold. */
static void mark_escaped(weir_llvm_ctx *ctx) {
  weir_llvm_reach *r = &ctx->reach;
  weir_llvm_vec walk = {0};
  reach_begin(r);
  for (uint32_t o = 0; o < r->objects; ++o)
    if (weir_llvm_memory_object(ctx->memory, o)->kind == WEIR_LLVM_OBJECT_GLOBAL) reach_add(r, o, &walk);
  for (size_t k = 0; k < walk.n; ++k) {
    const weir_llvm_vec *succ = object_successors(ctx, walk.v[k]);
    for (size_t j = 0; j < succ->n; ++j) reach_add(r, succ->v[j], &walk);
  }
  if (walk.failed) ctx->failed = 1;
  for (size_t k = 0; k < walk.n; ++k)
    if (weir_llvm_memory_object(ctx->memory, walk.v[k])->kind == WEIR_LLVM_OBJECT_STACK) r->escaped[walk.v[k]] = 1;
  weir_llvm_vec_free(&walk);
}

/* Stack objects whose address some location holds (`node->next = &local`,
 * `*out = buf`). One whose address no location holds travels only in SSA
 * values and arguments: a call reaches it only through its own arguments. */
static void mark_held(weir_llvm_ctx *ctx) {
  weir_llvm_reach *r = &ctx->reach;
  uint32_t locations = weir_llvm_memory_location_count(ctx->memory);
  for (uint32_t l = 0; l < locations; ++l) {
    const uint32_t *inner = NULL;
    size_t m = weir_llvm_memory_contents(ctx->memory, l, &inner);
    for (size_t j = 0; j < m; ++j) {
      uint32_t object = weir_llvm_memory_location(ctx->memory, inner[j]).object;
      if (is_stack_object(ctx, object)) r->held[object] = 1;
    }
  }
}

static int reach_init(weir_llvm_ctx *ctx) {
  weir_llvm_reach *r = &ctx->reach;
  if (r->ready) return r->ready > 0;
  uint32_t values = ctx->value_count ? ctx->value_count : 1;
  r->objects = weir_llvm_memory_object_count(ctx->memory);
  uint32_t objects = r->objects ? r->objects : 1;
  r->cache = calloc(values, sizeof *r->cache);
  r->cache_ready = calloc(values, 1);
  r->succ = calloc(objects, sizeof *r->succ);
  r->succ_ready = calloc(objects, 1);
  r->stack_succ = calloc(objects, sizeof *r->stack_succ);
  r->stack_succ_ready = calloc(objects, 1);
  r->stamp_of = calloc(objects, sizeof *r->stamp_of);
  r->escaped = calloc(objects, 1);
  r->held = calloc(objects, 1);
  r->ready = r->cache && r->cache_ready && r->succ && r->succ_ready && r->stack_succ && r->stack_succ_ready && r->stamp_of &&
                      r->escaped && r->held
                  ? 1
                  : -1;
  if (r->ready < 0) {
    ctx->failed = 1;
    return 0;
  }
  mark_escaped(ctx);
  mark_held(ctx);
  return 1;
}

void weir_llvm_reach_free(weir_llvm_ctx *ctx) {
  weir_llvm_reach *r = &ctx->reach;
  for (uint32_t v = 0; r->cache && v < ctx->value_count; ++v) weir_llvm_vec_free(&r->cache[v]);
  for (uint32_t o = 0; r->succ && o < r->objects; ++o) weir_llvm_vec_free(&r->succ[o]);
  for (uint32_t o = 0; r->stack_succ && o < r->objects; ++o) weir_llvm_vec_free(&r->stack_succ[o]);
  free(r->cache);
  free(r->cache_ready);
  free(r->succ);
  free(r->succ_ready);
  free(r->stack_succ);
  free(r->stack_succ_ready);
  free(r->stamp_of);
  free(r->escaped);
  free(r->held);
  weir_llvm_vec_free(&r->scratch);
  weir_llvm_vec_free(&r->walk);
  memset(r, 0, sizeof *r);
}

/* Computed once per call site (both emit passes and every hook ask). */
const weir_llvm_vec *weir_llvm_call_reach(weir_llvm_ctx *ctx, LLVMValueRef call) {
  static const weir_llvm_vec none = {0};
  if (!reach_init(ctx)) return &none; /* ctx->failed is set */
  weir_llvm_reach *r = &ctx->reach;
  uint32_t vid = weir_llvm_vid(ctx, call);
  if (vid == WEIR_LLVM_NONE) { /* not numbered: computed each time, valid until the next call */
    compute_reach(ctx, call, &r->scratch);
    if (r->scratch.failed) ctx->failed = 1;
    return &r->scratch;
  }
  if (!r->cache_ready[vid]) {
    compute_reach(ctx, call, &r->cache[vid]);
    r->cache_ready[vid] = 1;
    if (r->cache[vid].failed) ctx->failed = 1;
  }
  return &r->cache[vid];
}

int weir_llvm_call_may_touch(const weir_llvm_ctx *ctx, LLVMValueRef call, const weir_llvm_vec *reach,
                             uint32_t location) {
  uint32_t object = weir_llvm_memory_location(ctx->memory, location).object;
  const weir_llvm_object *o = weir_llvm_memory_object(ctx->memory, object);
  if (o->kind != WEIR_LLVM_OBJECT_STACK) return 1;
  if (!ctx->reach.escaped || ctx->reach.escaped[object]) return 1; /* through a global */
  /* Another function's local comes in through a parameter of this one; if
   * its address is also held in memory, a callee may load it from there. */
  if (o->function != LLVMGetBasicBlockParent(LLVMGetInstructionParent(call)) && ctx->reach.held[object]) return 1;
  return weir_llvm_vec_contains(reach, object);
}

int weir_llvm_pts_vague(const weir_llvm_ctx *ctx, LLVMValueRef pointer) {
  const uint32_t *locs = NULL;
  size_t n = weir_llvm_pts(ctx, pointer, &locs);
  if (n <= WEIR_LLVM_VAGUE_OBJECTS) return 0;
  uint32_t seen[WEIR_LLVM_VAGUE_OBJECTS + 1];
  size_t objects = 0;
  for (size_t k = 0; k < n; ++k) {
    uint32_t o = weir_llvm_memory_location(ctx->memory, locs[k]).object;
    size_t j = 0;
    while (j < objects && seen[j] != o) ++j;
    if (j < objects) continue;
    if (objects == WEIR_LLVM_VAGUE_OBJECTS) return 1;
    seen[objects++] = o;
  }
  return 0;
}

int weir_llvm_shared_site(const weir_llvm_ctx *ctx, uint32_t object) {
  const weir_llvm_object *o = weir_llvm_memory_object(ctx->memory, object);
  if (o->kind != WEIR_LLVM_OBJECT_HEAP || !o->function) return 0;
  if (ctx->inlined_wrapper && ctx->inlined_wrapper[object]) return 1;
  uint32_t proc = weir_llvm_map_get(&ctx->fn_index, o->function);
  return proc != WEIR_LLVM_NONE && ctx->fns[proc].incoming > WEIR_LLVM_SHARED_CALLERS;
}

/* A heap site's source position: the scope, line and column of its debug
 * location, and the function it is in now. */
typedef struct site_origin {
  LLVMMetadataRef scope;
  unsigned line, column;
  LLVMValueRef function;
  uint32_t object, users;
} site_origin;

static int by_origin(const void *pa, const void *pb) {
  const site_origin *a = pa, *b = pb;
  if (a->scope != b->scope) return (uintptr_t)a->scope < (uintptr_t)b->scope ? -1 : 1;
  if (a->line != b->line) return a->line < b->line ? -1 : 1;
  if (a->column != b->column) return a->column < b->column ? -1 : 1;
  return (uintptr_t)a->function < (uintptr_t)b->function ? -1 : (uintptr_t)a->function > (uintptr_t)b->function;
}

/* Marks the heap sites whose source position (a wrapper's allocation,
 * inlined) serves more than WEIR_LLVM_SHARED_CALLERS users: each function
 * an inlined copy is in, and each call of a function that holds the site
 * itself. */
void weir_llvm_mark_inlined_wrappers(weir_llvm_ctx *ctx) {
  if (ctx->inlined_wrapper) return;
  uint32_t objects = weir_llvm_memory_object_count(ctx->memory);
  site_origin *v = calloc(objects ? objects : 1, sizeof *v);
  ctx->inlined_wrapper = calloc(objects ? objects : 1, 1);
  if (!v || !ctx->inlined_wrapper) {
    free(v);
    ctx->failed = 1;
    return;
  }
  size_t n = 0, inlined = 0;
  for (uint32_t k = 0; k < objects; ++k) {
    const weir_llvm_object *o = weir_llvm_memory_object(ctx->memory, k);
    if (o->kind != WEIR_LLVM_OBJECT_HEAP || !o->site || !o->function || !LLVMIsACallInst(o->site)) continue;
    LLVMMetadataRef loc = LLVMInstructionGetDebugLoc(o->site);
    if (!loc || LLVMGetMetadataKind(loc) != LLVMDILocationMetadataKind) continue;
    /* an inlined copy serves the function it is in; the wrapper's own
     * site, every call of the wrapper */
    int copy = LLVMDILocationGetInlinedAt(loc) != NULL;
    uint32_t proc = weir_llvm_map_get(&ctx->fn_index, o->function);
    uint32_t users = copy || proc == WEIR_LLVM_NONE || !ctx->fns[proc].incoming ? 1 : ctx->fns[proc].incoming;
    inlined += copy;
    v[n++] = (site_origin){LLVMDILocationGetScope(loc), LLVMDILocationGetLine(loc), LLVMDILocationGetColumn(loc),
                           o->function, k, users};
  }
  if (inlined) {
    qsort(v, n, sizeof *v, by_origin);
    for (size_t a = 0, b; a < n; a = b) {
      size_t users = 0;
      for (b = a; b < n && v[b].scope == v[a].scope && v[b].line == v[a].line && v[b].column == v[a].column; ++b)
        if (b == a || v[b].function != v[b - 1].function) users += v[b].users;
      if (users > WEIR_LLVM_SHARED_CALLERS)
        for (size_t k = a; k < b; ++k) ctx->inlined_wrapper[v[k].object] = 1;
    }
  }
  free(v);
}

void weir_llvm_number_common(weir_llvm_ctx *ctx, uint32_t value_kind, uint32_t location_kind,
                             uint32_t return_kind,
                             int (*carries)(const weir_llvm_ctx *, uint32_t object)) {
  for (uint32_t v = 0; v < ctx->value_count; ++v)
    if (LLVMGetTypeKind(LLVMTypeOf(ctx->values[v])) != LLVMVoidTypeKind)
      ctx->fact_a[v] = weir_llvm_new_fact(ctx, value_kind, v);
  weir_llvm_mark_inlined_wrappers(ctx);
  uint32_t locations = weir_llvm_memory_location_count(ctx->memory);
  ctx->loc_fact = calloc(locations ? locations : 1, sizeof *ctx->loc_fact);
  if (!ctx->loc_fact) {
    ctx->failed = 1;
    return;
  }
  for (uint32_t l = 0; l < locations; ++l) {
    weir_llvm_location_info info = weir_llvm_memory_location(ctx->memory, l);
    if (!carries || carries(ctx, info.object))
      ctx->loc_fact[l] = weir_llvm_new_fact(ctx, location_kind, l);
  }
  for (uint32_t p = 0; p < ctx->fn_count; ++p) {
    LLVMTypeRef type = LLVMGetReturnType(LLVMGlobalGetValueType(ctx->fns[p].fn));
    if (LLVMGetTypeKind(type) != LLVMVoidTypeKind) ctx->fns[p].ret_fact = weir_llvm_new_fact(ctx, return_kind, p);
  }
}
