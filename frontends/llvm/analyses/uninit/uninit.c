/* The uninit analysis on the memory model.
 *
 * Facts: U(l) per location of an object that starts uninitialised (stack
 * objects, and heap blocks of malloc-like allocators), UV(v) per SSA value
 * ("v may be undefined": an `undef` left by mem2reg flowed into it) and
 * R(f) ("f may return an undefined value").
 *
 * - An alloca, or a malloc-like call (or a call of an allocation wrapper),
 *   generates U for every location of its object; calloc/strdup do not.
 * - memcpy moves the state field by field; with one destination target it
 *   replaces the destination's (a strong update, from there on in the block
 *   as for library writes).
 * - On the edge that leaves a loop, the arrays the loop stores into count
 *   as written (analyses/uninit/loopfill.c: the zero-iteration path).
 * - Arrays written in part (analyses/uninit/ranges.c): a cell with stores of a
 *   known element range smaller than the array has a second fact, U_all
 *   ("no element written yet"); such a store clears U_all only, every
 *   other transfer treats U and U_all alike. A read with a range that the
 *   partial stores do not cover checks U, every other read U_all.
 * - A read through a pointer other than a local's own alloca skips the
 *   fields written before every escape of the local's address
 *   (analyses/uninit/escape.c: `if (c) { memcpy(&v, ...); p = &v; }`, then `*p`).
 * - A store through a pointer with one target, or whose targets are locals
 *   of different functions (a helper writing its caller's local through a
 *   parameter), kills U of the targets; a target may be an array element
 *   or a heap block (optimistic: one written element counts for the whole
 *   collapsed array); with other sets of targets nothing is killed.
 *   Library calls that write through an argument (the table's `writes`, and
 *   any pointer argument of an unmodelled declaration) initialise it.
 * - A call of a defined function counts as initialising everything the
 *   callee may write (mod): optimistic, since out-parameters written on
 *   success only would otherwise be reported at every caller; the callee
 *   sees U of what it may read (ref), so reads inside it are found there;
 *   of the caller's own locals only what its reads through its parameters
 *   reach from this call's arguments (analyses/uninit/paramref.c).
 * - mem2reg turns uninitialised scalars into `undef`: an undef operand, or
 *   a phi that takes undef on the edge it comes in by, makes UV; arithmetic
 *   and casts pass it on.
 * Findings: a load from a location whose U holds; a use of an undefined
 * value (branch condition, address, argument of a library call); a library
 * call reading uninitialised memory (the table's `reads`). */
#include <llvm-c/Target.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontends/llvm/internal.h"

enum { FACT_VALUE = 0, FACT_LOCATION = 1, FACT_RETURN = 2, FACT_LOCATION_ALL = 3 };

static uint32_t val(const weir_llvm_ctx *ctx, LLVMValueRef v) {
  uint32_t vid = weir_llvm_vid(ctx, v);
  return vid == WEIR_LLVM_NONE ? 0 : ctx->fact_a[vid];
}

static int is_undef(LLVMValueRef v) { return LLVMIsUndef(v) && !LLVMIsAPoisonValue(v); }

static int starts_uninitialised(const weir_llvm_ctx *ctx, uint32_t id) {
  if (ctx->appended[id]) return 0; /* filled by appends (analyses/uninit/append.c) */
  const weir_llvm_object *o = weir_llvm_memory_object(ctx->memory, id);
  if (o->kind == WEIR_LLVM_OBJECT_STACK) return 1;
  if (o->kind != WEIR_LLVM_OBJECT_HEAP ||
      (o->alloc_kind != WEIR_LLVM_ALLOC_UNINIT && o->alloc_kind != WEIR_LLVM_ALLOC_REALLOC))
    return 0;
  /* A wrapper's block stands for every caller's (internal.h): not tracked. */
  uint32_t object = weir_llvm_memory_object_of_site(ctx->memory, o->site);
  return object == UINT32_MAX || !weir_llvm_shared_site(ctx, object);
}

static void strong_parameters(weir_llvm_ctx *ctx);

static void number(weir_llvm_ctx *ctx) {
  weir_llvm_append_objects(ctx);
  if (ctx->failed) return;
  weir_llvm_number_common(ctx, FACT_VALUE, FACT_LOCATION, FACT_RETURN, starts_uninitialised);
  if (!ctx->failed) weir_llvm_ranges_build(ctx, FACT_LOCATION_ALL);
  if (!ctx->failed) strong_parameters(ctx);
}

/* A location's facts: U, and U_all where the cell has stores of part of it
 * (analyses/uninit/ranges.c); every transfer but a partial store treats the two
 * alike. */
static uint32_t all_of(const weir_llvm_ctx *ctx, uint32_t location) {
  uint32_t twin = weir_llvm_ranges_twin(ctx, location);
  return twin ? twin : ctx->loc_fact[location];
}

static void loc_gen(weir_llvm_ctx *ctx, uint32_t location, weir_llvm_flow *flow) {
  weir_llvm_flow_gen(flow, ctx->loc_fact[location]);
  weir_llvm_flow_gen(flow, weir_llvm_ranges_twin(ctx, location));
}

static void loc_kill(weir_llvm_ctx *ctx, uint32_t location, weir_llvm_flow *flow) {
  weir_llvm_flow_kill(flow, ctx->loc_fact[location]);
  weir_llvm_flow_kill(flow, weir_llvm_ranges_twin(ctx, location));
}

/* The state of `from` moves to `to` (a copy, a call's way in or out). */
static void loc_pair(weir_llvm_ctx *ctx, uint32_t from, uint32_t to, weir_llvm_flow *flow) {
  weir_llvm_flow_pair(flow, ctx->loc_fact[from], ctx->loc_fact[to]);
  if (weir_llvm_ranges_twin(ctx, from) || weir_llvm_ranges_twin(ctx, to))
    weir_llvm_flow_pair(flow, all_of(ctx, from), all_of(ctx, to));
}

static void describe(weir_llvm_ctx *ctx, uint32_t fact, weir_llvm_text *out) {
  uint32_t kind = ctx->fact_info.v[2 * (fact - 1)], id = ctx->fact_info.v[2 * (fact - 1) + 1];
  if (kind == FACT_RETURN) {
    size_t length = 0;
    const char *name = LLVMGetValueName2(ctx->fns[id].fn, &length);
    weir_llvm_text_printf(out, "uninit return of %.*s", (int)length, name);
  } else if (kind == FACT_LOCATION || kind == FACT_LOCATION_ALL) {
    if (kind == FACT_LOCATION_ALL) weir_llvm_text_put(out, "no element written of ", 22);
    weir_llvm_text_put(out, "uninit memory ", 14);
    weir_llvm_memory_describe(ctx->memory, id, out);
  } else {
    weir_llvm_describe_value(ctx, "undefined value", id, out);
  }
}

/* "to may be undefined" if `from` is undef or may be. */
static void undefined_from(const weir_llvm_ctx *ctx, LLVMValueRef from, uint32_t to, weir_llvm_flow *flow) {
  if (is_undef(from)) weir_llvm_flow_gen(flow, to);
  else weir_llvm_flow_pair(flow, val(ctx, from), to);
}

static void object_facts(weir_llvm_ctx *ctx, uint32_t object, int generate, weir_llvm_flow *flow) {
  if (object == WEIR_LLVM_NONE) return;
  const weir_llvm_object *o = weir_llvm_memory_object(ctx->memory, object);
  for (uint32_t k = 0; k < o->location_count; ++k) {
    if (generate) loc_gen(ctx, o->first_location + k, flow);
    else loc_kill(ctx, o->first_location + k, flow);
  }
}

/* Whether `old` is the same place of a block that the realloc block of
 * `location` may have been made from (`if (!*data) *data = malloc(n); if
 * (small) *data = realloc(*data, n);`, then `p = *data; p->f = ..`): once
 * the realloc returned, the old block is gone, so a pointer to either is to
 * one live block. */
static int reallocated_from(const weir_llvm_ctx *ctx, uint32_t location, uint32_t old) {
  weir_llvm_location_info to = weir_llvm_memory_location(ctx->memory, location);
  weir_llvm_location_info from = weir_llvm_memory_location(ctx->memory, old);
  const weir_llvm_object *o = weir_llvm_memory_object(ctx->memory, to.object);
  if (to.object == from.object || to.offset != from.offset || o->kind != WEIR_LLVM_OBJECT_HEAP ||
      o->alloc_kind != WEIR_LLVM_ALLOC_REALLOC || !o->site || !LLVMIsACallInst(o->site) ||
      LLVMGetNumArgOperands(o->site) == 0)
    return 0;
  const uint32_t *locs = NULL;
  size_t n = weir_llvm_pts(ctx, LLVMGetOperand(o->site, 0), &locs);
  for (size_t k = 0; k < n; ++k)
    if (weir_llvm_memory_location(ctx->memory, locs[k]).object == from.object) return 1;
  return 0;
}

static int replaced_by_realloc(const weir_llvm_ctx *ctx, const uint32_t *locs, size_t n, size_t k) {
  for (size_t j = 0; j < n; ++j)
    if (j != k && ctx->loc_fact[locs[j]] && reallocated_from(ctx, locs[j], locs[k])) return 1;
  return 0;
}

/* Whether a write through a pointer to these locations is taken for a
 * strong update of each: one target, or a set that at run time is one
 * place per call stack:
 *  - locals of different functions (a helper's parameter points to its
 *    caller's local, a different one per caller; optimistic when the stack
 *    holds two of them, as `f(&a)` calling `g(&b)` calling `h(p)` may);
 *  - heap blocks all allocated in one function (one per call of an
 *    allocator; a wrapper that has two malloc calls, for a pool and
 *    without one, gives each caller's pointer two blocks);
 *  - with them, a local array of the function the blocks are for, or of
 *    any other (the small-buffer idiom `p = n <= 16 ? small : xmalloc(n);
 *    for (..) p[i] = ..`: optimistic when `small` is read directly after a
 *    write through p that went to the heap).
 * Targets without a U fact (calloc'd, untracked) do not count; nor does a
 * block that a target realloc block was made from (reallocated_from). */
static int strong_through_parameter(const weir_llvm_ctx *ctx, LLVMValueRef pointer);

static int strong_targets(const weir_llvm_ctx *ctx, const uint32_t *locs, size_t n) {
  if (n == 1) return 1;
  if (n > 16) return 0;
  const weir_llvm_object *seen[16];
  LLVMValueRef heap_function = NULL;
  size_t tracked = 0;
  for (size_t k = 0; k < n; ++k) {
    if (!ctx->loc_fact[locs[k]]) continue; /* calloc'd, a wrapper's: no state to update */
    if (replaced_by_realloc(ctx, locs, n, k)) continue; /* counted as the realloc block */
    const weir_llvm_object *o =
        weir_llvm_memory_object(ctx->memory, weir_llvm_memory_location(ctx->memory, locs[k]).object);
    for (size_t j = 0; j < tracked; ++j)
      if (seen[j] == o) return 0; /* two cells of one object */
    seen[tracked++] = o;
    if (o->kind == WEIR_LLVM_OBJECT_HEAP && o->function) {
      if (heap_function && heap_function != o->function) return 0;
      heap_function = o->function;
    }
  }
  if (tracked <= 1) return 1;
  for (size_t j = 0; j < tracked; ++j) {
    const weir_llvm_object *o = seen[j];
    if ((o->kind != WEIR_LLVM_OBJECT_STACK && o->kind != WEIR_LLVM_OBJECT_HEAP) || !o->function) return 0;
    if (o->kind != WEIR_LLVM_OBJECT_STACK) continue;
    if (o->function == heap_function && !o->is_array) return 0;
    for (size_t i = 0; i < j; ++i)
      if (seen[i]->kind == WEIR_LLVM_OBJECT_STACK && seen[i]->function == o->function) return 0;
  }
  return 1;
}

/* The same test for a store through `pointer` to `locs` (analyses/
 * loopfill.c uses it): a strong target set, or a parameter that every call
 * passes one (strong_parameters). */
int weir_llvm_uninit_strong_store(const weir_llvm_ctx *ctx, LLVMValueRef pointer, const uint32_t *locs, size_t n) {
  return strong_targets(ctx, locs, n) || strong_through_parameter(ctx, pointer);
}

/* One level of call-site context for writes through parameters: a helper
 * `set_key(.., BF_word *initial)` called as `set_key(.., ai)` and
 * `set_key(.., yi)` (two locals of one function), or with a local at one
 * call and the caller's scratch block at another, has a parameter whose
 * points-to set holds them all, so a store through it updates none of
 * them. But only the state of what this call's arguments reach enters the
 * callee (weir_llvm_call_may_touch), so when every call passes the
 * parameter a pointer that is a strong target set on its own, a store
 * through the parameter is strong in every context. Bit k of
 * param_strong[proc] says so for parameter k (the first 32). */
static void strong_parameters(weir_llvm_ctx *ctx) {
  uint32_t *seen = calloc(ctx->fn_count ? ctx->fn_count : 1, sizeof *seen);
  uint32_t *weak = calloc(ctx->fn_count ? ctx->fn_count : 1, sizeof *weak);
  if (!seen || !weak) {
    free(seen), free(weak);
    ctx->failed = 1;
    return;
  }
  for (uint32_t vid = 0; vid < ctx->value_count; ++vid) {
    LLVMValueRef call = ctx->values[vid];
    if (!LLVMIsACallInst(call)) continue;
    const uint32_t *procs = NULL;
    size_t callees = weir_llvm_call_procs(ctx, call, &procs);
    if (!callees) continue;
    uint32_t args = LLVMGetNumArgOperands(call);
    for (uint32_t k = 0; k < args && k < 32; ++k) {
      LLVMValueRef arg = LLVMGetOperand(call, k);
      if (!weir_llvm_is_pointer(arg)) continue;
      const uint32_t *locs = NULL;
      size_t n = weir_llvm_pts(ctx, arg, &locs);
      int strong = strong_targets(ctx, locs, n);
      for (size_t p = 0; p < callees; ++p) {
        seen[procs[p]] |= 1u << k;
        if (!strong) weak[procs[p]] |= 1u << k;
      }
    }
  }
  for (uint32_t p = 0; p < ctx->fn_count; ++p) seen[p] &= ~weak[p];
  free(weak);
  ctx->param_strong = seen;
}

/* Whether `pointer` is a parameter of its function (through casts and
 * GEPs) that every call passes a strong target set (strong_parameters). */
static int strong_through_parameter(const weir_llvm_ctx *ctx, LLVMValueRef pointer) {
  if (!ctx->param_strong) return 0;
  for (int depth = 0; depth < 32 && pointer && !LLVMIsAArgument(pointer); ++depth) {
    if (!LLVMIsABitCastInst(pointer) && !LLVMIsAGetElementPtrInst(pointer)) return 0;
    pointer = LLVMGetOperand(pointer, 0);
  }
  if (!pointer || !LLVMIsAArgument(pointer)) return 0;
  LLVMValueRef fn = LLVMGetParamParent(pointer);
  uint32_t proc = weir_llvm_map_get(&ctx->fn_index, fn);
  if (proc == WEIR_LLVM_NONE) return 0;
  for (unsigned k = 0; k < LLVMCountParams(fn) && k < 32; ++k)
    if (LLVMGetParam(fn, k) == pointer) return (ctx->param_strong[proc] >> k) & 1u;
  return 0;
}

/* The bytes a library call writes through its first argument when the
 * call gives them as a constant (`memset(&p.t, 0, 16)`, as -O2 zeroes the
 * fields a designated initialiser leaves out; bzero; memcpy's destination),
 * else 0: the length is not known. */
static uint64_t written_bytes(LLVMValueRef call, uint32_t arg) {
  int64_t bytes = arg == 0 ? weir_llvm_memory_call_length(call, weir_llvm_direct_callee(call)) : -1;
  return bytes > 0 ? (uint64_t)bytes : 0;
}

/* A library call writing through `pointer` fills the block from there on
 * when the pointer is to a whole struct or to the start of a block
 * (`memset(p, 0, sizeof *p)` after malloc, va_start, read into a struct);
 * through a char pointer into a field it fills that field (optimistic about
 * the length), or the fields inside `bytes` when the call gives a constant
 * length. `depth` follows stored pointers (recvmsg's msghdr). */
static void initialise(weir_llvm_ctx *ctx, LLVMValueRef pointer, int depth, uint64_t bytes, weir_llvm_flow *flow) {
  weir_llvm_vec locs = {0};
  weir_llvm_pts_deep(ctx, pointer, depth, &locs);
  int whole = weir_llvm_points_to_struct(pointer) || depth > 0;
  for (size_t k = 0; k < locs.n; ++k) {
    uint32_t first, end;
    weir_llvm_block(ctx, locs.v[k], &first, &end);
    if (!whole && weir_llvm_memory_location(ctx->memory, first).offset != 0)
      end = weir_llvm_block_span(ctx, first, bytes);
    for (uint32_t l = first; l < end; ++l) loc_kill(ctx, l, flow);
  }
  if (locs.failed) ctx->failed = 1;
  weir_llvm_vec_free(&locs);
}

/* Sources marked `deep` (recvmsg, getline) fill what is behind the
 * pointers stored in their argument too. */
static int deep_source(weir_llvm_ctx *ctx, LLVMValueRef call, uint32_t arg) {
  size_t length = 0;
  const char *name = weir_llvm_callee_name(call, &length);
  const weir_llvm_rule *rules[16];
  size_t n = weir_llvm_config_find(ctx->config, WEIR_LLVM_SOURCE, name, length, rules, 16);
  for (size_t r = 0; r < n; ++r)
    if (rules[r]->deep && (rules[r]->from_on ? arg >= rules[r]->arg : arg == rules[r]->arg)) return 1;
  return 0;
}

/* A new block from an allocator, by its kind. */
static void allocation(weir_llvm_ctx *ctx, LLVMValueRef call, weir_llvm_flow *flow) {
  uint32_t object = weir_llvm_allocated_object(ctx, call);
  if (object == WEIR_LLVM_NONE) return;
  const weir_llvm_object *o = weir_llvm_memory_object(ctx->memory, object);
  object_facts(ctx, object, 0, flow);
  if (o->alloc_kind == WEIR_LLVM_ALLOC_UNINIT) object_facts(ctx, object, 1, flow);
  if (o->alloc_kind == WEIR_LLVM_ALLOC_REALLOC && LLVMGetNumArgOperands(call) > 0) {
    /* The old contents move over: U of the old block flows into the new one. */
    const uint32_t *locs = NULL;
    size_t n = weir_llvm_pts(ctx, LLVMGetOperand(call, 0), &locs);
    for (size_t k = 0; k < n; ++k)
      for (uint32_t j = 0; j < o->location_count; ++j) loc_pair(ctx, locs[k], o->first_location + j, flow);
  }
}

/* Whether `location` lies in an object that one of the `n` targets `to`
 * of a copy lies in. */
static int copies_from_target(const weir_llvm_ctx *ctx, uint32_t location, const uint32_t *to, size_t n) {
  uint32_t object = weir_llvm_memory_location(ctx->memory, location).object;
  for (size_t k = 0; k < n; ++k)
    if (weir_llvm_memory_location(ctx->memory, to[k]).object == object) return 1;
  return 0;
}

static void external_call(weir_llvm_ctx *ctx, LLVMValueRef call, weir_llvm_flow *flow) {
  const weir_llvm_libcall *model = weir_llvm_call_model(ctx, call);
  uint32_t args = LLVMGetNumArgOperands(call);
  for (uint32_t k = 0; k < args; ++k) {
    LLVMValueRef arg = LLVMGetOperand(call, k);
    if (!weir_llvm_is_pointer(arg)) continue;
    if (!model->known || weir_llvm_mask_has(model->writes, k) || weir_llvm_format_writes(ctx, call, k))
      initialise(ctx, arg, deep_source(ctx, call, k) ? 2 : 0, written_bytes(call, k), flow);
  }
  if (model->frees < args) {
    /* A released block is no longer "uninitialised" (a later use is a use
     * after free, another analysis): the error path `free(b); return err;`
     * must not carry a block that was never filled to the callers. */
    const uint32_t *locs = NULL;
    size_t n = weir_llvm_pts(ctx, LLVMGetOperand(call, model->frees), &locs);
    for (size_t k = 0; k < n; ++k) {
      uint32_t first, end;
      weir_llvm_block(ctx, locs[k], &first, &end);
      for (uint32_t l = first; l < end; ++l) loc_kill(ctx, l, flow);
    }
  }
  if (model->copy_from < args && model->copy_to < args) {
    /* memcpy: the copy is as (un)initialised as the original, field by field. */
    const uint32_t *from = NULL, *to = NULL;
    /* A source that may point to almost anything (more objects than a
     * check looks at, weir_llvm_pts_vague) carries no state: as checks
     * skip such pointers, copies from them do not spread it, and nor do
     * copies into such a pointer (as stores through it, store()). */
    int vague = weir_llvm_pts_vague(ctx, LLVMGetOperand(call, model->copy_from)) ||
                weir_llvm_pts_vague(ctx, LLVMGetOperand(call, model->copy_to));
    size_t nf = vague ? 0 : weir_llvm_pts(ctx, LLVMGetOperand(call, model->copy_from), &from);
    size_t nt = weir_llvm_pts(ctx, LLVMGetOperand(call, model->copy_to), &to);
    weir_llvm_vec pairs = {0};
    for (size_t a = 0; a < nf; ++a)
      for (size_t b = 0; b < nt; ++b) weir_llvm_block_pairs(ctx, from[a], to[b], &pairs);
    /* One destination (or locals of different functions): a strong update,
     * its old state is replaced by the source's. */
    int strong = weir_llvm_uninit_strong_store(ctx, LLVMGetOperand(call, model->copy_to), to, nt);
    if (strong) initialise(ctx, LLVMGetOperand(call, model->copy_to), 0, written_bytes(call, model->copy_to), flow);
    /* A strong update's targets are one place per call stack; a source
     * that is one of them is, in that stack, the place being replaced.
     * `*o = *in` in a helper that one caller hands `&o` as the
     * destination and the next as the source (`check(in, &o)`, then
     * `check(&o, &o2)`): pairs from one target into another would carry
     * the first caller's uninitialised o into every context. */
    for (size_t k = 0; k + 1 < pairs.n; k += 2)
      if (!strong || !copies_from_target(ctx, pairs.v[k], to, nt)) loc_pair(ctx, pairs.v[k], pairs.v[k + 1], flow);
    if (pairs.failed) ctx->failed = 1;
    weir_llvm_vec_free(&pairs);
  }
  allocation(ctx, call, flow);
}

/* A store to part of an array (analyses/uninit/ranges.c) clears U_all only:
 * the elements it does not write keep U. */
/* Kills U of `location` and of the fields after it in its object that a
 * store of `bytes` covers: at -O0 a struct passed or returned by value
 * (`DLDataType dtype`, `struct cpx s = cmul(a, b)`) is stored as one
 * integer or vector over all its fields. */
static void kill_covered(weir_llvm_ctx *ctx, uint32_t location, uint64_t bytes, weir_llvm_flow *flow) {
  for (uint32_t l = location, end = weir_llvm_block_span(ctx, location, bytes); l < end; ++l) loc_kill(ctx, l, flow);
}

static void store(weir_llvm_ctx *ctx, LLVMValueRef inst, weir_llvm_flow *flow) {
  const uint32_t *locs = NULL;
  size_t n = weir_llvm_pts(ctx, LLVMGetOperand(inst, 1), &locs);
  int partial = weir_llvm_ranges_partial_store(ctx, inst);
  uint64_t bytes = LLVMStoreSizeOfType(LLVMGetModuleDataLayout(ctx->module), LLVMTypeOf(LLVMGetOperand(inst, 0)));
  if (weir_llvm_uninit_strong_store(ctx, LLVMGetOperand(inst, 1), locs, n))
    for (size_t k = 0; k < n; ++k) {
      if (partial) weir_llvm_flow_kill(flow, weir_llvm_ranges_twin(ctx, locs[k]));
      else kill_covered(ctx, locs[k], bytes, flow);
    }
  /* A pointer that may point to almost anything (a container's `void *`)
   * writes no state: as reads through it are not checked, writes through
   * it would only pour one caller's unset value into every other user's
   * memory (`symbol->uuid = uuid` through a hash map's data pointer making
   * the fields of unrelated rows unset). */
  if (weir_llvm_pts_vague(ctx, LLVMGetOperand(inst, 1))) n = 0;
  for (size_t k = 0; k < n; ++k) {
    undefined_from(ctx, LLVMGetOperand(inst, 0), ctx->loc_fact[locs[k]], flow);
    uint32_t twin = weir_llvm_ranges_twin(ctx, locs[k]);
    if (twin) undefined_from(ctx, LLVMGetOperand(inst, 0), twin, flow);
  }
}

/* Whether a shufflevector's mask takes no lane of `operand` (-O2 writes
 * `shufflevector <4 x i32> %v, <4 x i32> undef, <2 x i32> <0, 1>` to take
 * part of one vector: the undef is never read). */
static int shuffle_skips(LLVMValueRef inst, int operand) {
  LLVMTypeRef type = LLVMTypeOf(LLVMGetOperand(inst, 0));
  if (LLVMGetTypeKind(type) != LLVMVectorTypeKind) return 0;
  int lanes = (int)LLVMGetVectorSize(type);
  unsigned n = LLVMGetNumMaskElements(inst);
  for (unsigned k = 0; k < n; ++k) {
    int lane = LLVMGetMaskValue(inst, k);
    if (lane != LLVMGetUndefMaskElem() && lane / lanes == operand) return 0;
  }
  return 1;
}

/* Operands that build an aggregate start from undef by design, and the
 * operand of a shuffle whose lanes the mask does not take. */
static int builds_from_undef(LLVMValueRef inst, int operand) {
  if (LLVMIsAShuffleVectorInst(inst)) return operand == 0 || shuffle_skips(inst, operand);
  return operand == 0 && (LLVMIsAInsertValueInst(inst) || LLVMIsAInsertElementInst(inst));
}

static void plain(weir_llvm_ctx *ctx, LLVMValueRef inst, weir_llvm_flow *flow) {
  uint32_t result = val(ctx, inst);
  weir_llvm_flow_kill(flow, result);
  if (LLVMIsAAllocaInst(inst)) {
    object_facts(ctx, weir_llvm_memory_object_of_site(ctx->memory, inst), 1, flow);
  } else if (LLVMIsAStoreInst(inst)) {
    store(ctx, inst, flow);
  } else if (LLVMIsACallInst(inst)) {
    external_call(ctx, inst, flow);
  } else if (LLVMIsAReturnInst(inst)) {
    uint32_t proc = ctx->value_proc[weir_llvm_vid(ctx, inst)];
    if (LLVMGetNumOperands(inst) == 1 && ctx->fns[proc].ret_fact)
      undefined_from(ctx, LLVMGetOperand(inst, 0), ctx->fns[proc].ret_fact, flow);
  } else if (result && !LLVMIsALoadInst(inst)) {
    /* Arithmetic, casts, GEP, compares, select, aggregates pass undefinedness on. */
    for (int k = 0; k < LLVMGetNumOperands(inst); ++k)
      if (!builds_from_undef(inst, k)) undefined_from(ctx, LLVMGetOperand(inst, k), result, flow);
  }
}

/* An `undef` that comes into a phi no source variable is (no dbg.value
 * describes it) is the optimiser's: a loop unrolled by two leaves `phi
 * [undef, %prologue], [%v, %body]` for a value read only on paths where
 * the body ran (ocamlrun's threaded interpreter: 200 such reads at -O2).
 * A variable of the program (`int x; if (c) x = 1;`) is a phi with a
 * dbg.value and stays a source; without debug info every undef does. */
static void move(weir_llvm_ctx *ctx, LLVMValueRef value, LLVMValueRef phi, weir_llvm_flow *flow) {
  uint32_t to = val(ctx, phi);
  weir_llvm_flow_kill(flow, to);
  if (is_undef(value) && weir_llvm_compiler_temporary(phi)) return;
  undefined_from(ctx, value, to, flow);
}

/* Whether two pointers are the same address expression: one value, or
 * GEPs (at -O0 `a[i].buf` is computed anew at each use) of the same
 * operands, casts of the same value counting as the same. */
static int same_address(LLVMValueRef a, LLVMValueRef b, int depth) {
  if (a == b) return 1;
  if (depth > 4 || !a || !b) return 0;
  if (LLVMIsACastInst(a) && LLVMIsACastInst(b)) /* the index widened again: zext i16 %index */
    return LLVMGetInstructionOpcode(a) == LLVMGetInstructionOpcode(b) && LLVMTypeOf(a) == LLVMTypeOf(b) &&
           same_address(LLVMGetOperand(a, 0), LLVMGetOperand(b, 0), depth + 1);
  if (!LLVMIsAGetElementPtrInst(a) || !LLVMIsAGetElementPtrInst(b)) return 0;
  int n = LLVMGetNumOperands(a);
  if (n != LLVMGetNumOperands(b)) return 0;
  for (int k = 0; k < n; ++k)
    if (!same_address(LLVMGetOperand(a, (unsigned)k), LLVMGetOperand(b, (unsigned)k), depth + 1)) return 0;
  return 1;
}

/* The allocation call a compared pointer is: the call itself, or a load
 * of the place the call's result was stored to earlier in the same block
 * (`g[i].buf = malloc(n); if (!g[i].buf) return;`). */
static LLVMValueRef allocation_compared(LLVMValueRef v) {
  v = weir_llvm_strip_bitcasts(v);
  if (!v || LLVMIsACallInst(v) || !LLVMIsALoadInst(v)) return v;
  LLVMValueRef address = LLVMGetOperand(v, 0);
  for (LLVMValueRef i = LLVMGetPreviousInstruction(v); i; i = LLVMGetPreviousInstruction(i)) {
    /* Stores to other places are passed over (optimistic: only the null
     * edge's kill depends on it). */
    if (!LLVMIsAStoreInst(i) || !same_address(LLVMGetOperand(i, 1), address, 0)) continue;
    LLVMValueRef stored = weir_llvm_strip_bitcasts(LLVMGetOperand(i, 0));
    return LLVMIsACallInst(stored) ? stored : NULL;
  }
  return NULL;
}

/* `p = malloc(n); if (!p) return -1;`: on the edge where the new block's
 * pointer is NULL the block does not exist; its uninitialised state must
 * not travel along the error path to the callers. */
static void edge(weir_llvm_ctx *ctx, LLVMValueRef term, LLVMBasicBlockRef succ, weir_llvm_flow *flow) {
  if (!LLVMIsABranchInst(term) || !LLVMIsConditional(term)) return;
  weir_llvm_loop_exit_fills(ctx, term, succ, flow);
  LLVMValueRef cond = LLVMGetCondition(term);
  if (!LLVMIsAICmpInst(cond)) return;
  LLVMIntPredicate pred = LLVMGetICmpPredicate(cond);
  if (pred != LLVMIntEQ && pred != LLVMIntNE) return;
  LLVMValueRef a = weir_llvm_strip_bitcasts(LLVMGetOperand(cond, 0));
  LLVMValueRef b = weir_llvm_strip_bitcasts(LLVMGetOperand(cond, 1));
  LLVMValueRef block = LLVMIsAConstantPointerNull(b) ? a : LLVMIsAConstantPointerNull(a) ? b : NULL;
  block = allocation_compared(block);
  if (!block || !LLVMIsACallInst(block) || LLVMGetSuccessor(term, 0) == LLVMGetSuccessor(term, 1)) return;
  LLVMBasicBlockRef null_edge = LLVMGetSuccessor(term, pred == LLVMIntEQ ? 0 : 1);
  if (succ == null_edge) object_facts(ctx, weir_llvm_allocated_object(ctx, block), 0, flow);
}

static void call_to_return(weir_llvm_ctx *ctx, LLVMValueRef call, weir_llvm_flow *flow) {
  weir_llvm_flow_kill(flow, val(ctx, call));
  const uint32_t *procs = NULL;
  size_t n = weir_llvm_call_procs(ctx, call, &procs);
  const weir_llvm_vec *reach = weir_llvm_call_reach(ctx, call);
  for (size_t p = 0; p < n; ++p) {
    const uint32_t *locs = NULL;
    size_t m = weir_llvm_memory_mod(ctx->memory, ctx->fns[procs[p]].fn, &locs);
    for (size_t k = 0; k < m; ++k)
      if (weir_llvm_call_may_touch(ctx, call, reach, locs[k])) loc_kill(ctx, locs[k], flow);
    const uint32_t *objects = NULL;
    m = weir_llvm_memory_allocs(ctx->memory, ctx->fns[procs[p]].fn, &objects);
    for (size_t k = 0; k < m; ++k) object_facts(ctx, objects[k], 0, flow);
  }
  allocation(ctx, call, flow); /* an allocation wrapper */
}

static void callee(weir_llvm_ctx *ctx, LLVMValueRef call, uint32_t proc, weir_llvm_flow *call_flow,
                   weir_llvm_flow *ret_flow) {
  LLVMValueRef fn = ctx->fns[proc].fn;
  uint32_t args = LLVMGetNumArgOperands(call), k = 0;
  (void)k, (void)args; /* undefined arguments are reported at the call (check_defined_call) */
  const weir_llvm_vec *reach = weir_llvm_call_reach(ctx, call);
  const uint32_t *ref = NULL;
  size_t refs = weir_llvm_memory_ref(ctx->memory, fn, &ref);
  for (size_t j = 0; j < refs; ++j)
    if (weir_llvm_call_may_touch(ctx, call, reach, ref[j]) && weir_llvm_call_may_read(ctx, call, proc, ref[j]))
      loc_pair(ctx, ref[j], ref[j], call_flow);
  if (ctx->fns[proc].ret_fact) weir_llvm_flow_pair(ret_flow, ctx->fns[proc].ret_fact, val(ctx, call));
  /* Blocks the callee allocates come back as they are at its exit (the
   * call-to-return edge killed them: the callee made them anew). */
  const uint32_t *objects = NULL;
  size_t n = weir_llvm_memory_allocs(ctx->memory, fn, &objects);
  for (size_t j = 0; j < n; ++j) {
    const weir_llvm_object *o = weir_llvm_memory_object(ctx->memory, objects[j]);
    for (uint32_t l = o->first_location; l < o->first_location + o->location_count; ++l)
      loc_pair(ctx, l, l, ret_flow);
  }
}

/* ---- findings ------------------------------------------------------------ */
/* One finding per source and thing read: a variable (or a field of one, a
 * block) left uninitialized on one path is one bug, however many reads
 * reach it (findings.c keeps the read nearest the source and lists the
 * others); `what` is the location read + 1, or 0 for a value. */
static void add(weir_llvm_ctx *ctx, uint32_t node, LLVMValueRef inst, const uint32_t *facts,
                size_t count, const char *message, uint32_t what) {
  size_t before = ctx->out->check_count;
  weir_llvm_add_rule_check(ctx, WEIR_LLVM_RULE_UNINIT, node, facts, count, inst, message);
  if (ctx->out->check_count > before) {
    ctx->out->checks[before].per_source = 1;
    ctx->out->checks[before].what = what;
  }
}

/* A use of a value: undef itself (fires whenever reached) or UV. */
static void check_value(weir_llvm_ctx *ctx, uint32_t node, LLVMValueRef inst, LLVMValueRef value,
                        const char *message) {
  uint32_t fact = is_undef(value) ? 0 : val(ctx, value);
  if (fact || is_undef(value)) add(ctx, node, inst, &fact, 1, message, 0);
}

/* A read of the memory behind `pointer`. */
static void check_memory(weir_llvm_ctx *ctx, uint32_t node, LLVMValueRef inst, LLVMValueRef pointer,
                         const char *reader) {
  if (weir_llvm_pts_vague(ctx, pointer)) return;
  if (!reader && weir_llvm_tag_guarded_read(ctx, inst, pointer)) return;
  const uint32_t *locs = NULL;
  size_t n = weir_llvm_pts(ctx, pointer, &locs);
  for (size_t k = 0; k < n; ++k) {
    if (!ctx->loc_fact[locs[k]] || weir_llvm_written_before_escape(ctx, pointer, locs[k])) continue;
    weir_llvm_text what = {0}, note = {0}, message = {0}, range = {0};
    /* An array read: U where it reaches elements no partial store writes,
     * else U_all (one written element counts for all, ranges.c). */
    uint32_t fact = !reader && weir_llvm_ranges_uncovered_read(ctx, inst, locs[k], &range) ? ctx->loc_fact[locs[k]]
                                                                                           : all_of(ctx, locs[k]);
    weir_llvm_access_words(ctx, pointer, reader != NULL, locs[k], &what, &note);
    if (range.n) {
      if (note.n) weir_llvm_text_put(&note, "; ", 2);
      weir_llvm_text_put(&note, range.p, range.n);
    }
    if (reader) weir_llvm_text_printf(&message, "'%s' reads '%s', which may be uninitialized", reader, what.p);
    else weir_llvm_text_printf(&message, "'%s' may be used uninitialized", what.p);
    if (note.n) weir_llvm_text_printf(&message, " (%s)", note.p);
    if (what.failed || note.failed || message.failed || range.failed) ctx->failed = 1;
    else add(ctx, node, inst, &fact, 1, message.p, locs[k] + 1);
    weir_llvm_text_free(&what);
    weir_llvm_text_free(&note);
    weir_llvm_text_free(&message);
    weir_llvm_text_free(&range);
  }
}

/* Passing an uninitialised value to a defined function is a use, as
 * clang's -Wuninitialized sees it: reported at the call, once (the callee
 * does not get it as undefined, or every helper would report it again). */
static void check_defined_call(weir_llvm_ctx *ctx, LLVMValueRef inst, uint32_t node) {
  size_t length = 0;
  const char *name = weir_llvm_callee_name(inst, &length);
  LLVMValueRef direct = weir_llvm_direct_callee(inst);
  uint32_t args = LLVMGetNumArgOperands(inst);
  for (uint32_t k = 0; k < args; ++k) {
    /* -O2 passes undef for a parameter the callee no longer reads (its
     * constant was propagated in): that is no use. */
    if (direct && (k >= LLVMCountParams(direct) || !LLVMGetFirstUse(LLVMGetParam(direct, k)))) continue;
    char message[192];
    snprintf(message, sizeof message, "an uninitialized value is passed as argument %u of '%.*s'", k + 1,
             (int)(length > 96 ? 96 : length), length ? name : "(indirect)");
    check_value(ctx, node, inst, LLVMGetOperand(inst, k), message);
  }
}

static void check_call(weir_llvm_ctx *ctx, LLVMValueRef inst, uint32_t node) {
  weir_llvm_call_kind kind = weir_llvm_classify_call(ctx, inst);
  if (kind == WEIR_LLVM_CALL_NODE) {
    check_defined_call(ctx, inst, node);
    uint32_t object = weir_llvm_allocated_object(ctx, inst); /* an allocation wrapper's block */
    if (object != WEIR_LLVM_NONE && weir_llvm_memory_object(ctx->memory, object)->alloc_kind == WEIR_LLVM_ALLOC_UNINIT) {
      size_t length = 0;
      const char *name = weir_llvm_callee_name(inst, &length);
      weir_llvm_add_source(ctx, node, inst, name, length);
    }
  }
  if (kind != WEIR_LLVM_CALL_EXTERNAL) return;
  const weir_llvm_libcall *model = weir_llvm_call_model(ctx, inst);
  size_t length = 0;
  const char *name = weir_llvm_callee_name(inst, &length);
  char callee[100];
  snprintf(callee, sizeof callee, "%.*s", (int)(length > 96 ? 96 : length), length ? name : "(indirect)");
  uint32_t args = LLVMGetNumArgOperands(inst);
  for (uint32_t k = 0; k < args; ++k) {
    LLVMValueRef arg = LLVMGetOperand(inst, k);
    char message[192];
    snprintf(message, sizeof message, "an uninitialized value is passed as argument %u of '%s'", k + 1, callee);
    check_value(ctx, node, inst, arg, message);
    /* A copy (memcpy) moves uninitialised bytes along: not a use; nor a
     * pointer printed with %p (analyses/uninit/format.c). */
    if (weir_llvm_is_pointer(arg) && weir_llvm_mask_has(model->reads, k) && model->copy_from != k &&
        !weir_llvm_format_skips_read(ctx, inst, k))
      check_memory(ctx, node, inst, arg, callee);
  }
  if (model->alloc == WEIR_LLVM_ALLOC_UNINIT) weir_llvm_add_source(ctx, node, inst, name, length);
}

/* `int x; if (c) x = 1;`: the edge on which mem2reg's phi takes undef
 * leaves x unset; it is the source of what a use of x reports (the witness
 * finds the generation at the edge's first node, `term`'s). */
static void undef_sources(weir_llvm_ctx *ctx, LLVMValueRef term, uint32_t node) {
  LLVMBasicBlockRef from = LLVMGetInstructionParent(term);
  for (unsigned s = 0, n = LLVMGetNumSuccessors(term); s < n; ++s) {
    LLVMBasicBlockRef to = LLVMGetSuccessor(term, s);
    int repeated = 0; /* a switch with several cases to one block */
    for (unsigned t = 0; t < s && !repeated; ++t) repeated = LLVMGetSuccessor(term, t) == to;
    for (LLVMValueRef phi = LLVMGetFirstInstruction(to); !repeated && phi && LLVMIsAPHINode(phi);
         phi = LLVMGetNextInstruction(phi)) {
      if (!val(ctx, phi) || weir_llvm_compiler_temporary(phi)) continue;
      int takes = 0;
      for (unsigned k = 0, m = LLVMCountIncoming(phi); k < m && !takes; ++k)
        takes = LLVMGetIncomingBlock(phi, k) == from && is_undef(LLVMGetIncomingValue(phi, k));
      weir_llvm_text name = {0};
      size_t before = ctx->out->source_count;
      if (takes && weir_llvm_value_variable(phi, &name, NULL)) weir_llvm_add_source(ctx, node, term, name.p, name.n);
      if (ctx->out->source_count > before) ctx->out->sources[before].per_source = 1;
      weir_llvm_text_free(&name);
    }
  }
}

static void check(weir_llvm_ctx *ctx, LLVMValueRef inst, uint32_t node) {
  if (LLVMIsATerminatorInst(inst)) undef_sources(ctx, inst, node);
  if (LLVMIsALoadInst(inst)) {
    check_value(ctx, node, inst, LLVMGetOperand(inst, 0), "an uninitialized pointer is dereferenced");
    check_memory(ctx, node, inst, LLVMGetOperand(inst, 0), NULL);
  } else if (LLVMIsAStoreInst(inst)) {
    check_value(ctx, node, inst, LLVMGetOperand(inst, 1), "an uninitialized pointer is dereferenced");
  } else if (LLVMIsABranchInst(inst) && LLVMIsConditional(inst)) {
    check_value(ctx, node, inst, LLVMGetCondition(inst), "a branch depends on an uninitialized value");
  } else if (LLVMIsASwitchInst(inst)) {
    check_value(ctx, node, inst, LLVMGetOperand(inst, 0), "a switch depends on an uninitialized value");
  } else if (LLVMIsACallInst(inst)) {
    check_call(ctx, inst, node);
  } else if (LLVMIsAAllocaInst(inst)) {
    weir_llvm_text name = {0};
    weir_llvm_slot_name(ctx, inst, &name);
    weir_llvm_add_source(ctx, node, inst, name.p ? name.p : "?", name.p ? name.n : 1);
    weir_llvm_text_free(&name);
  }
}

const weir_llvm_hooks weir_llvm_uninit_hooks = {number, NULL, plain, move, call_to_return, callee,
                                                check, describe, edge};
