/* Where typestate resources can be (origin.h). */
#include <stdlib.h>
#include <string.h>

#include "frontends/llvm/analyses/typestate/origin.h"
#include "frontends/llvm/analyses/typestate/spec.h"

static const weir_llvm_vec empty_set;

int weir_ts_spec_names(const weir_ts_spec *spec, const char *name, size_t length) {
  for (size_t e = 0; e < spec->count; ++e)
    if (strlen(spec->entries[e].fn) == length && length && memcmp(spec->entries[e].fn, name, length) == 0) return 1;
  return 0;
}

static const weir_ts_entry *create_entry(const weir_ts_spec *spec, const char *name, size_t length) {
  for (size_t e = 0; e < spec->count; ++e)
    if (spec->entries[e].kind == WEIR_TS_CREATE && strlen(spec->entries[e].fn) == length &&
        memcmp(spec->entries[e].fn, name, length) == 0)
      return &spec->entries[e];
  return NULL;
}

const weir_llvm_vec *weir_ts_value_origin(const weir_llvm_ctx *ctx, LLVMValueRef v) {
  uint32_t vid = v ? weir_llvm_vid(ctx, v) : WEIR_LLVM_NONE;
  return vid == WEIR_LLVM_NONE || !ctx->ts ? &empty_set : &ctx->ts->value[vid];
}

static weir_llvm_vec *loc_set(weir_llvm_ctx *ctx, uint32_t l) {
  return ctx->ts->shared[l] ? &ctx->ts->shared_origin : &ctx->ts->location[l];
}

const weir_llvm_vec *weir_ts_location_origin(const weir_llvm_ctx *ctx, uint32_t l) {
  return ctx->ts->shared[l] ? &ctx->ts->shared_origin : &ctx->ts->location[l];
}

/* dst |= src (both sorted); 1 when dst grew. */
static int join(weir_llvm_vec *dst, const weir_llvm_vec *src) {
  if (!src->n || dst == src) return 0;
  size_t before = dst->n;
  for (size_t k = 0; k < src->n; ++k)
    if (!weir_llvm_vec_contains(dst, src->v[k])) weir_llvm_vec_push(dst, src->v[k]);
  if (dst->n == before) return 0;
  weir_llvm_vec_sort_unique(dst);
  return 1;
}

/* Whether a value of type `to` can be the resource site s made: the same
 * type, or a void * (i8 *) that carries any pointer. A FILE * never flows
 * into a `struct json *` load, whatever a vague points-to set says. */
static int fits(const weir_llvm_ctx *ctx, LLVMTypeRef to, uint32_t site) {
  LLVMTypeRef made = LLVMTypeOf(ctx->ts->site_call[site]);
  if (to == made) return 1;
  if (LLVMGetTypeKind(to) != LLVMPointerTypeKind || LLVMGetTypeKind(made) != LLVMPointerTypeKind) return 0;
  LLVMTypeRef e = LLVMGetElementType(to);
  return LLVMGetTypeKind(e) == LLVMIntegerTypeKind && LLVMGetIntTypeWidth(e) == 8;
}

/* dst |= the sites of src that fit values of type `to`. */
static int join_fitting(const weir_llvm_ctx *ctx, weir_llvm_vec *dst, const weir_llvm_vec *src, LLVMTypeRef to) {
  size_t before = dst->n;
  for (size_t k = 0; k < src->n; ++k)
    if (fits(ctx, to, src->v[k]) && !weir_llvm_vec_contains(dst, src->v[k])) weir_llvm_vec_push(dst, src->v[k]);
  if (dst->n == before) return 0;
  weir_llvm_vec_sort_unique(dst);
  return 1;
}

static weir_llvm_vec *set_of(weir_llvm_ctx *ctx, LLVMValueRef v) {
  uint32_t vid = v ? weir_llvm_vid(ctx, v) : WEIR_LLVM_NONE;
  return vid == WEIR_LLVM_NONE ? NULL : &ctx->ts->value[vid];
}

static int join_value(weir_llvm_ctx *ctx, LLVMValueRef to, LLVMValueRef from) {
  weir_llvm_vec *d = set_of(ctx, to), *s = set_of(ctx, weir_llvm_strip_bitcasts(from));
  if (!s) s = set_of(ctx, from);
  if (!d || !s || !s->n) return 0;
  return LLVMIsACastInst(to) ? join(d, s) : join_fitting(ctx, d, s, LLVMTypeOf(to)); /* a cast takes any */
}

/* Whether any cell of location l's block holds a resource. */
static int block_holds(const weir_llvm_ctx *ctx, uint32_t l) {
  uint32_t first, end;
  weir_llvm_block(ctx, l, &first, &end);
  for (uint32_t k = first; k < end; ++k)
    if (weir_ts_location_origin(ctx, k)->n) return 1;
  return 0;
}

/* memcpy / memmove: what the source block holds, cell by cell (only
 * blocks that hold a resource: most copies move plain data). */
static int copy_block(weir_llvm_ctx *ctx, LLVMValueRef call) {
  if (LLVMGetNumArgOperands(call) < 2) return 0;
  /* a generic copy (a container's void *) is followed nowhere, as uaf does */
  if (weir_llvm_pts_vague(ctx, LLVMGetOperand(call, 0)) || weir_llvm_pts_vague(ctx, LLVMGetOperand(call, 1))) return 0;
  const uint32_t *src = NULL, *dst = NULL;
  size_t ns = weir_llvm_pts(ctx, LLVMGetOperand(call, 1), &src);
  size_t nd = weir_llvm_pts(ctx, LLVMGetOperand(call, 0), &dst);
  int changed = 0;
  weir_llvm_vec pairs = {0};
  for (size_t a = 0; a < ns; ++a)
    for (size_t b = 0; b < nd && block_holds(ctx, src[a]); ++b) {
      pairs.n = 0;
      weir_llvm_block_pairs(ctx, src[a], dst[b], &pairs);
      for (size_t k = 0; k + 1 < pairs.n; k += 2)
        changed |= join(loc_set(ctx, pairs.v[k + 1]), loc_set(ctx, pairs.v[k]));
    }
  if (pairs.failed) ctx->failed = 1;
  weir_llvm_vec_free(&pairs);
  return changed;
}

static int call_step(weir_llvm_ctx *ctx, LLVMValueRef inst) {
  int changed = 0;
  weir_llvm_call_kind kind = weir_llvm_classify_call(ctx, inst);
  if (kind == WEIR_LLVM_CALL_NODE) {
    const uint32_t *procs = NULL;
    size_t n = weir_llvm_call_procs(ctx, inst, &procs);
    uint32_t args = LLVMGetNumArgOperands(inst);
    for (size_t p = 0; p < n; ++p) {
      uint32_t k = 0;
      for (LLVMValueRef param = LLVMGetFirstParam(ctx->fns[procs[p]].fn); param && k < args;
           param = LLVMGetNextParam(param), ++k)
        changed |= join_value(ctx, param, LLVMGetOperand(inst, k));
      weir_llvm_vec *d = set_of(ctx, inst);
      if (d) changed |= join_fitting(ctx, d, &ctx->ts->ret[procs[p]], LLVMTypeOf(inst));
    }
  } else if (kind == WEIR_LLVM_CALL_EXTERNAL) {
    size_t length = 0;
    const char *name = weir_llvm_callee_name(inst, &length);
    if ((length >= 11 && strncmp(name, "llvm.memcpy", 11) == 0) || (length >= 12 && strncmp(name, "llvm.memmove", 12) == 0))
      changed |= copy_block(ctx, inst);
  }
  return changed;
}

static int step(weir_llvm_ctx *ctx, LLVMValueRef inst) {
  const uint32_t *locs = NULL;
  int changed = 0;
  if (LLVMIsACastInst(inst) || LLVMIsAGetElementPtrInst(inst) || LLVMIsAFreezeInst(inst)) {
    changed = join_value(ctx, inst, LLVMGetOperand(inst, 0));
  } else if (LLVMIsASelectInst(inst)) {
    changed = join_value(ctx, inst, LLVMGetOperand(inst, 1)) | join_value(ctx, inst, LLVMGetOperand(inst, 2));
  } else if (LLVMIsAPHINode(inst)) {
    for (unsigned k = 0; k < LLVMCountIncoming(inst); ++k) changed |= join_value(ctx, inst, LLVMGetIncomingValue(inst, k));
  } else if (LLVMIsALoadInst(inst)) {
    weir_llvm_vec *d = set_of(ctx, inst);
    LLVMTypeRef type = LLVMTypeOf(inst);
    if (d && weir_llvm_pts_vague(ctx, LLVMGetOperand(inst, 0))) return join_fitting(ctx, d, &ctx->ts->shared_origin, type);
    size_t n = d ? weir_llvm_pts(ctx, LLVMGetOperand(inst, 0), &locs) : 0;
    for (size_t k = 0; k < n; ++k) changed |= join_fitting(ctx, d, loc_set(ctx, locs[k]), type);
  } else if (LLVMIsAStoreInst(inst)) {
    weir_llvm_vec *s = set_of(ctx, weir_llvm_strip_bitcasts(LLVMGetOperand(inst, 0)));
    /* an int resource (a descriptor) is not followed behind vague pointers:
     * every int read through one would become a descriptor */
    if (s && s->n && weir_llvm_pts_vague(ctx, LLVMGetOperand(inst, 1)))
      return weir_llvm_is_pointer(LLVMGetOperand(inst, 0)) ? join(&ctx->ts->shared_origin, s) : 0;
    size_t n = s && s->n ? weir_llvm_pts(ctx, LLVMGetOperand(inst, 1), &locs) : 0;
    for (size_t k = 0; k < n; ++k) changed |= join(loc_set(ctx, locs[k]), s);
  } else if (LLVMIsAReturnInst(inst) && LLVMGetNumOperands(inst) == 1) {
    uint32_t proc = ctx->value_proc[weir_llvm_vid(ctx, inst)];
    weir_llvm_vec *s = set_of(ctx, weir_llvm_strip_bitcasts(LLVMGetOperand(inst, 0)));
    if (s) changed = join(&ctx->ts->ret[proc], s);
  } else if (LLVMIsACallInst(inst)) {
    changed = call_step(ctx, inst);
  }
  return changed;
}

static int alloc_state(weir_llvm_ctx *ctx) {
  uint32_t locations = weir_llvm_memory_location_count(ctx->memory);
  weir_ts_state *ts = ctx->ts = calloc(1, sizeof *ts);
  if (!ts) return 0;
  ts->value = calloc(ctx->value_count ? ctx->value_count : 1, sizeof *ts->value);
  ts->location = calloc(locations ? locations : 1, sizeof *ts->location);
  ts->ret = calloc(ctx->fn_count ? ctx->fn_count : 1, sizeof *ts->ret);
  ts->relevant = calloc(ctx->fn_count ? ctx->fn_count : 1, 1);
  ts->proc_values = calloc(ctx->fn_count ? ctx->fn_count : 1, sizeof *ts->proc_values);
  ts->shared = calloc(locations ? locations : 1, 1);
  return ts->value && ts->location && ts->ret && ts->relevant && ts->proc_values && ts->shared;
}

/* ts->shared: every location a vague pointer may point to. */
static void mark_shared(weir_llvm_ctx *ctx) {
  for (uint32_t v = 0; v < ctx->value_count; ++v) {
    if (!weir_llvm_is_pointer(ctx->values[v]) || !weir_llvm_pts_vague(ctx, ctx->values[v])) continue;
    const uint32_t *locs = NULL;
    size_t n = weir_llvm_pts(ctx, ctx->values[v], &locs);
    for (size_t k = 0; k < n; ++k) ctx->ts->shared[locs[k]] = 1;
  }
}

/* The creating calls: each is a site, its result starts the flow. */
static int seed_sites(weir_llvm_ctx *ctx) {
  const weir_ts_spec *spec = ctx->config->typestate;
  weir_ts_state *ts = ctx->ts;
  for (uint32_t v = 0; v < ctx->value_count; ++v) {
    LLVMValueRef inst = ctx->values[v];
    if (!LLVMIsACallInst(inst) || weir_llvm_classify_call(ctx, inst) != WEIR_LLVM_CALL_EXTERNAL) continue;
    size_t length = 0;
    const char *name = weir_llvm_callee_name(inst, &length);
    const weir_ts_entry *e = create_entry(spec, name, length);
    if (!e || e->arg != WEIR_TS_RET) continue;
    LLVMValueRef *grown = realloc(ts->site_call, (ts->site_count + 1) * sizeof *grown);
    if (!grown) return 0;
    ts->site_call = grown;
    weir_llvm_vec_push(&ts->value[v], ts->site_count);
    ts->site_call[ts->site_count++] = inst;
  }
  ts->site_fact = calloc(ts->site_count ? ts->site_count : 1, sizeof *ts->site_fact);
  ts->escapes = calloc(ts->site_count ? ts->site_count : 1, 1);
  return ts->site_fact && ts->escapes;
}

/* Memory specs: the locations a spec call's argument may point to are the
 * resources (a mutex); they are marked with the one pseudo-site 0. */
static void memory_resources(weir_llvm_ctx *ctx) {
  const weir_ts_spec *spec = ctx->config->typestate;
  for (uint32_t v = 0; v < ctx->value_count; ++v) {
    LLVMValueRef inst = ctx->values[v];
    if (!LLVMIsACallInst(inst) || weir_llvm_classify_call(ctx, inst) != WEIR_LLVM_CALL_EXTERNAL) continue;
    size_t length = 0;
    const char *name = weir_llvm_callee_name(inst, &length);
    for (size_t e = 0; e < spec->count; ++e) {
      const weir_ts_entry *t = &spec->entries[e];
      if (t->arg >= LLVMGetNumArgOperands(inst) || strlen(t->fn) != length || memcmp(t->fn, name, length)) continue;
      const uint32_t *locs = NULL;
      size_t n = weir_llvm_pts_vague(ctx, LLVMGetOperand(inst, t->arg)) ? 0 : weir_llvm_pts(ctx, LLVMGetOperand(inst, t->arg), &locs);
      for (size_t k = 0; k < n; ++k)
        if (!ctx->ts->location[locs[k]].n) weir_llvm_vec_push(&ctx->ts->location[locs[k]], 0);
    }
  }
}

void weir_ts_origins(weir_llvm_ctx *ctx) {
  if (!alloc_state(ctx) || !seed_sites(ctx)) {
    ctx->failed = 1;
    return;
  }
  if (ctx->config->typestate->memory) {
    memory_resources(ctx);
    return;
  }
  mark_shared(ctx);
  for (int changed = ctx->ts->site_count > 0; changed && !ctx->failed;) {
    changed = 0;
    ctx->ts->passes++;
    for (uint32_t v = 0; v < ctx->value_count; ++v)
      if (LLVMIsAInstruction(ctx->values[v])) changed |= step(ctx, ctx->values[v]);
  }
}

/* A call of a spec function that acts on a resource (or makes one), or an
 * exit when the spec has a leak line: its function is relevant. */
static int acts(const weir_llvm_ctx *ctx, LLVMValueRef call, int has_leak) {
  const weir_ts_spec *spec = ctx->config->typestate;
  size_t length = 0;
  const char *name = weir_llvm_callee_name(call, &length);
  if (has_leak && length == 4 && memcmp(name, "exit", 4) == 0) return 1;
  for (size_t e = 0; e < spec->count; ++e) {
    const weir_ts_entry *t = &spec->entries[e];
    if (strlen(t->fn) != length || memcmp(t->fn, name, length)) continue;
    if (t->kind == WEIR_TS_CREATE) return 1;
    if (t->arg >= LLVMGetNumArgOperands(call)) continue;
    LLVMValueRef arg = LLVMGetOperand(call, t->arg);
    if (!spec->memory && weir_ts_value_origin(ctx, arg)->n) return 1;
    const uint32_t *locs = NULL;
    size_t n = spec->memory ? weir_llvm_pts(ctx, arg, &locs) : 0;
    for (size_t k = 0; k < n; ++k)
      if (ctx->loc_fact[locs[k]]) return 1;
  }
  return 0;
}

static void mark_relevant(weir_llvm_ctx *ctx, int has_leak) {
  uint8_t *rel = ctx->ts->relevant;
  for (uint32_t v = 0; v < ctx->value_count; ++v) {
    LLVMValueRef inst = ctx->values[v];
    if (LLVMIsACallInst(inst) && weir_llvm_classify_call(ctx, inst) == WEIR_LLVM_CALL_EXTERNAL && acts(ctx, inst, has_leak))
      rel[ctx->value_proc[v]] = 1;
  }
  for (int changed = 1; changed;) {
    changed = 0;
    for (uint32_t v = 0; v < ctx->value_count; ++v) {
      if (rel[ctx->value_proc[v]] || !LLVMIsACallInst(ctx->values[v])) continue;
      const uint32_t *procs = NULL;
      size_t n = weir_llvm_call_procs(ctx, ctx->values[v], &procs);
      for (size_t p = 0; p < n && !rel[ctx->value_proc[v]]; ++p)
        if (rel[procs[p]]) rel[ctx->value_proc[v]] = changed = 1;
    }
  }
}

/* Whether location l outlives the function `fn` that made the resource:
 * not a stack slot of fn, nor a parameter's spill slot of another. */
static int outlives(const weir_llvm_ctx *ctx, uint32_t l, LLVMValueRef fn) {
  const weir_llvm_object *o = weir_llvm_memory_object(ctx->memory, weir_llvm_memory_location(ctx->memory, l).object);
  if (o->kind != WEIR_LLVM_OBJECT_STACK) return 1;
  if (o->function == fn) return 0;
  uint32_t vid = o->site ? weir_llvm_vid(ctx, o->site) : WEIR_LLVM_NONE;
  return vid == WEIR_LLVM_NONE || ctx->spill_of[vid] == WEIR_LLVM_NONE;
}

/* A move or try whose argument may be the resource of several sites
 * (`close(b->fd)` in a destructor every open site's block reaches) moves
 * each of them only weakly: which one it closed cannot be told, so none
 * of them is leak-checked (escapes 3). */
static void moved_together(weir_llvm_ctx *ctx, LLVMValueRef call, const char *name, size_t length) {
  const weir_ts_spec *spec = ctx->config->typestate;
  for (size_t e = 0; e < spec->count; ++e) {
    const weir_ts_entry *t = &spec->entries[e];
    if ((t->kind != WEIR_TS_MOVE && t->kind != WEIR_TS_TRY) || t->arg >= LLVMGetNumArgOperands(call) ||
        strlen(t->fn) != length || memcmp(t->fn, name, length))
      continue;
    const weir_llvm_vec *o = weir_ts_value_origin(ctx, weir_llvm_strip_bitcasts(LLVMGetOperand(call, t->arg)));
    for (size_t j = 0; j < o->n && o->n > 1; ++j) ctx->ts->escapes[o->v[j]] = 3;
  }
}

/* escapes[s]: 3 see moved_together; 2 when the resource is handed to a function neither the
 * module nor the spec defines (it may keep or close it), 1 when it may
 * outlive the function that made it (a global, the heap, a caller's
 * memory, a return value). */
static void mark_escapes(weir_llvm_ctx *ctx) {
  weir_ts_state *ts = ctx->ts;
  const weir_ts_spec *spec = ctx->config->typestate;
  for (uint32_t v = 0; v < ctx->value_count; ++v) {
    LLVMValueRef inst = ctx->values[v];
    if (!LLVMIsACallInst(inst) || weir_llvm_classify_call(ctx, inst) != WEIR_LLVM_CALL_EXTERNAL) continue;
    size_t length = 0;
    const char *name = weir_llvm_callee_name(inst, &length);
    if (weir_ts_spec_names(spec, name, length)) {
      moved_together(ctx, inst, name, length);
      continue;
    }
    if (length > 5 && memcmp(name, "llvm.", 5) == 0) continue;
    for (uint32_t k = 0; k < LLVMGetNumArgOperands(inst); ++k) {
      const weir_llvm_vec *o = weir_ts_value_origin(ctx, weir_llvm_strip_bitcasts(LLVMGetOperand(inst, k)));
      for (size_t j = 0; j < o->n; ++j) ts->escapes[o->v[j]] = 2;
    }
  }
  for (uint32_t p = 0; p < ctx->fn_count; ++p)
    for (size_t j = 0; j < ts->ret[p].n; ++j)
      if (!ts->escapes[ts->ret[p].v[j]]) ts->escapes[ts->ret[p].v[j]] = 1;
  uint32_t locations = weir_llvm_memory_location_count(ctx->memory);
  for (uint32_t l = 0; l < locations; ++l)
    for (size_t j = 0; j < weir_ts_location_origin(ctx, l)->n; ++j) {
      uint32_t s = weir_ts_location_origin(ctx, l)->v[j];
      if (!ts->escapes[s] && outlives(ctx, l, LLVMGetBasicBlockParent(LLVMGetInstructionParent(ts->site_call[s]))))
        ts->escapes[s] = 1;
    }
}

void weir_ts_relevance(weir_llvm_ctx *ctx) {
  const weir_ts_spec *spec = ctx->config->typestate;
  int has_leak = 0;
  for (size_t e = 0; e < spec->count; ++e) has_leak |= spec->entries[e].kind == WEIR_TS_LEAK;
  mark_relevant(ctx, has_leak);
  if (!spec->memory) mark_escapes(ctx);
}

void weir_ts_state_free(weir_llvm_ctx *ctx) {
  weir_ts_state *ts = ctx->ts;
  if (!ts) return;
  uint32_t locations = weir_llvm_memory_location_count(ctx->memory);
  for (uint32_t v = 0; ts->value && v < ctx->value_count; ++v) weir_llvm_vec_free(&ts->value[v]);
  for (uint32_t l = 0; ts->location && l < locations; ++l) weir_llvm_vec_free(&ts->location[l]);
  for (uint32_t p = 0; p < ctx->fn_count; ++p) {
    if (ts->ret) weir_llvm_vec_free(&ts->ret[p]);
    if (ts->proc_values) weir_llvm_vec_free(&ts->proc_values[p]);
  }
  weir_llvm_vec_free(&ts->fact_locations);
  weir_llvm_vec_free(&ts->shared_origin);
  free(ts->shared);
  free(ts->value), free(ts->location), free(ts->ret), free(ts->relevant), free(ts->proc_values);
  free(ts->site_call), free(ts->site_fact), free(ts->escapes);
  free(ts);
  ctx->ts = NULL;
}
