/* What a call reads of its caller's locals, in the call's own context
 * (uninit: one level of call-site context for helpers).
 *
 * The memory model's ref summary of a function is context-insensitive: a
 * helper `clone(struct frame *dst, const struct frame *src)` reads `src->len`,
 * and src's points-to set is every frame any caller passed as src. When
 * `avctp_packet` calls `clone(&avctp_frame.frame, frame)`, its unset local
 * avctp_frame goes into the callee (dst points to it) and the read of
 * `src->len` finds "avctp_frame.frame.len may be uninitialised": a false
 * finding at every such helper (btmon had 10 at one header line).
 *
 * Here each defined function gets, per pointer parameter, the byte offsets
 * it (or a callee it hands the parameter on to) reads through it: "all"
 * for a variable index or a library read of the whole block. A caller's
 * local enters the callee at a call only at the locations the call's
 * arguments map those offsets to. Functions that may read another
 * function's local through something other than a parameter (a pointer
 * loaded from memory, a global) keep the context-insensitive rule, and so
 * does everything when the summaries do not settle (recursion, see
 * ROUNDS_MAX). */
#include <stdlib.h>
#include <string.h>

#include "frontends/llvm/internal.h"

#define PARAMS_MAX 16
#define OFFSETS_MAX 64 /* more offsets through one parameter: "all" */
#define ROUNDS_MAX 64
#define FRESH_BLOCKS 16 /* how far fresh_at walks back to the allocation */

typedef struct fn_reads {
  weir_llvm_vec offsets[PARAMS_MAX]; /* sorted byte offsets read through parameter j */
  uint8_t all[PARAMS_MAX];           /* every location of what parameter j points to */
  uint8_t other;                     /* may read another function's local otherwise: no refinement */
} fn_reads;

struct weir_llvm_param_reads {
  fn_reads *fns; /* [ctx->fn_count] */
  int usable;    /* summaries settled */
};

/* The parameter `pointer` is derived from (through casts and GEPs with
 * constant offsets), its index and the offset; -1 when it is not one. */
static int param_of(const weir_llvm_ctx *ctx, LLVMValueRef fn, LLVMValueRef pointer, int64_t *offset,
                    int *variable) {
  *offset = 0;
  *variable = 0;
  for (int depth = 0; depth < 32 && pointer; ++depth) {
    if (LLVMIsABitCastInst(pointer) || LLVMIsAAddrSpaceCastInst(pointer)) {
      pointer = LLVMGetOperand(pointer, 0);
    } else if (LLVMIsAGetElementPtrInst(pointer)) {
      /* Offsets as the memory model has them: array indices and the
       * first index of an aggregate stay in the cell; a constant step over
       * scalars moves out of it. */
      int64_t d = 0, delta = 0;
      weir_llvm_memory_gep_offset(ctx->memory, pointer, &d, &delta);
      if (delta) *variable = 1;
      *offset += d;
      pointer = LLVMGetOperand(pointer, 0);
    } else {
      break;
    }
  }
  if (!pointer || !LLVMIsAArgument(pointer)) return -1;
  unsigned count = LLVMCountParams(fn);
  for (unsigned j = 0; j < count && j < PARAMS_MAX; ++j)
    if (LLVMGetParam(fn, j) == pointer) return *offset < 0 ? -2 : (int)j;
  return -2; /* a parameter past PARAMS_MAX */
}

static int reads_foreign_local(const weir_llvm_ctx *ctx, LLVMValueRef fn, LLVMValueRef pointer) {
  const uint32_t *locs = NULL;
  size_t n = weir_llvm_pts(ctx, pointer, &locs);
  for (size_t k = 0; k < n; ++k) {
    const weir_llvm_object *o =
        weir_llvm_memory_object(ctx->memory, weir_llvm_memory_location(ctx->memory, locs[k]).object);
    if (o->kind == WEIR_LLVM_OBJECT_STACK && o->function != fn) return 1;
  }
  return 0;
}

/* Records a read through `pointer` in `r` (all: of the whole block). */
static void note_read(const weir_llvm_ctx *ctx, LLVMValueRef fn, LLVMValueRef pointer, int all, fn_reads *r) {
  int64_t offset = 0;
  int variable = 0;
  int j = param_of(ctx, fn, pointer, &offset, &variable);
  if (j >= 0) {
    if (all || variable || r->offsets[j].n >= 4 * OFFSETS_MAX) r->all[j] = 1;
    else if (!r->all[j]) weir_llvm_vec_push(&r->offsets[j], (uint32_t)offset);
  } else if (j == -2 || reads_foreign_local(ctx, fn, pointer)) {
    r->other = 1;
  }
}

/* A call inside `fn` hands the callee's parameter reads on: through fn's
 * own parameters (shifted by the argument's offset), or to `other`. */
static void note_call(const weir_llvm_ctx *ctx, const struct weir_llvm_param_reads *pr, LLVMValueRef fn,
                      LLVMValueRef call, fn_reads *r) {
  const uint32_t *procs = NULL;
  size_t n = weir_llvm_call_procs(ctx, call, &procs);
  uint32_t args = LLVMGetNumArgOperands(call);
  for (size_t p = 0; p < n; ++p) {
    const fn_reads *g = &pr->fns[procs[p]];
    r->other |= g->other;
    for (uint32_t k = 0; k < args && k < PARAMS_MAX; ++k) {
      if (!g->all[k] && !g->offsets[k].n) continue;
      LLVMValueRef arg = LLVMGetOperand(call, k);
      int64_t offset = 0;
      int variable = 0;
      int j = param_of(ctx, fn, arg, &offset, &variable);
      if (j >= 0) {
        if (g->all[k] || variable) r->all[j] = 1;
        size_t count = g->offsets[k].n; /* g may be r itself (recursion): its vector grows here */
        for (size_t i = 0; i < count && !r->all[j]; ++i) {
          weir_llvm_vec_push(&r->offsets[j], (uint32_t)offset + g->offsets[k].v[i]);
          if (r->offsets[j].n > 4 * OFFSETS_MAX) r->all[j] = 1; /* before sorting: bounded */
        }
      } else if (j == -2 || reads_foreign_local(ctx, fn, arg)) {
        r->other = 1;
      }
    }
  }
}

static void summarise(weir_llvm_ctx *ctx, const struct weir_llvm_param_reads *pr, uint32_t proc,
                      fn_reads *r) {
  LLVMValueRef fn = ctx->fns[proc].fn;
  for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(fn); b; b = LLVMGetNextBasicBlock(b))
    for (LLVMValueRef i = LLVMGetFirstInstruction(b); i; i = LLVMGetNextInstruction(i)) {
      if (LLVMIsALoadInst(i)) {
        note_read(ctx, fn, LLVMGetOperand(i, 0), 0, r);
      } else if (LLVMIsACallInst(i)) {
        weir_llvm_call_kind kind = weir_llvm_classify_call(ctx, i);
        if (kind == WEIR_LLVM_CALL_NODE) {
          note_call(ctx, pr, fn, i, r);
          continue;
        }
        const weir_llvm_libcall *model = weir_llvm_call_model(ctx, i);
        uint32_t args = LLVMGetNumArgOperands(i);
        for (uint32_t k = 0; k < args; ++k) {
          LLVMValueRef arg = LLVMGetOperand(i, k);
          if (weir_llvm_is_pointer(arg) && (weir_llvm_mask_has(model->reads, k) || model->copy_from == k))
            note_read(ctx, fn, arg, 1, r);
        }
      }
    }
  for (int j = 0; j < PARAMS_MAX; ++j) {
    if (r->offsets[j].failed) ctx->failed = 1;
    weir_llvm_vec_sort_unique(&r->offsets[j]);
    if (r->offsets[j].n > OFFSETS_MAX) r->all[j] = 1;
    if (r->all[j]) r->offsets[j].n = 0; /* "all" says it */
  }
}

static size_t size_of(const fn_reads *r) {
  size_t n = r->other;
  for (int j = 0; j < PARAMS_MAX; ++j) n += r->offsets[j].n + r->all[j];
  return n;
}

static struct weir_llvm_param_reads *build(weir_llvm_ctx *ctx) {
  struct weir_llvm_param_reads *pr = calloc(1, sizeof *pr);
  if (!pr || !(pr->fns = calloc(ctx->fn_count ? ctx->fn_count : 1, sizeof *pr->fns))) {
    free(pr);
    ctx->failed = 1;
    return NULL;
  }
  /* Rounds until no summary grows: reads only grow, a round is linear. */
  for (int round = 0, changed = 1; changed && round < ROUNDS_MAX; ++round) {
    changed = 0;
    for (uint32_t p = 0; p < ctx->fn_count; ++p) {
      size_t before = size_of(&pr->fns[p]);
      summarise(ctx, pr, p, &pr->fns[p]);
      if (size_of(&pr->fns[p]) != before) changed = 1;
    }
    if (!changed) pr->usable = 1;
  }
  return pr;
}

void weir_llvm_param_reads_free(weir_llvm_ctx *ctx) {
  struct weir_llvm_param_reads *pr = ctx->param_reads;
  if (!pr) return;
  for (uint32_t p = 0; pr->fns && p < ctx->fn_count; ++p)
    for (int j = 0; j < PARAMS_MAX; ++j) weir_llvm_vec_free(&pr->fns[p].offsets[j]);
  free(pr->fns);
  free(pr);
  ctx->param_reads = NULL;
}

/* The location of `object` that holds byte `offset`: the last one at or before it. */
static uint32_t location_holding(const weir_llvm_ctx *ctx, uint32_t object, uint64_t offset) {
  const weir_llvm_object *o = weir_llvm_memory_object(ctx->memory, object);
  uint32_t found = o->first_location;
  for (uint32_t l = o->first_location; l < o->first_location + o->location_count; ++l)
    if (weir_llvm_memory_location(ctx->memory, l).offset <= offset) found = l;
  return found;
}

/* Whether a value may point into `object`. */
static int may_point_into(weir_llvm_ctx *ctx, LLVMValueRef value, uint32_t object) {
  if (!weir_llvm_is_pointer(value)) return 0;
  const uint32_t *locs = NULL;
  size_t n = weir_llvm_pts(ctx, value, &locs);
  for (size_t k = 0; k < n; ++k)
    if (weir_llvm_memory_location(ctx->memory, locs[k]).object == object) return 1;
  return 0;
}

/* Whether the heap block `object`, allocated in the caller, is fresh at
 * `call`: the path back from the call through single predecessors
 * (FRESH_BLOCKS at most) reaches its allocation, and no instruction on it
 * stores a pointer into the block anywhere or hands one to another call.
 * Nothing but this call's arguments can lead a callee to the block then:
 * `this = xmalloc(..); inet_open_active(.., &this->fd)` -- the logger the
 * callee may log through cannot hold `this` yet (OVS's syslog-direct.c). */
static int fresh_at(weir_llvm_ctx *ctx, LLVMValueRef call, uint32_t object, const weir_llvm_object *o) {
  if (o->kind != WEIR_LLVM_OBJECT_HEAP || !o->site || !LLVMIsACallInst(o->site)) return 0;
  LLVMBasicBlockRef block = LLVMGetInstructionParent(call);
  LLVMValueRef fn = LLVMGetBasicBlockParent(block);
  if (o->function != fn) return 0;
  LLVMValueRef i = LLVMGetPreviousInstruction(call);
  for (int steps = 0; steps < FRESH_BLOCKS;) {
    for (; i; i = LLVMGetPreviousInstruction(i)) {
      if (i == o->site) return 1;
      if (LLVMIsAStoreInst(i) && may_point_into(ctx, LLVMGetOperand(i, 0), object)) return 0;
      if (LLVMIsACallInst(i) && !LLVMIsADbgInfoIntrinsic(i))
        for (unsigned a = 0, n = LLVMGetNumArgOperands(i); a < n; ++a)
          if (may_point_into(ctx, LLVMGetOperand(i, a), object)) return 0;
    }
    LLVMBasicBlockRef pred = weir_llvm_only_pred(block);
    if (!pred || ++steps == FRESH_BLOCKS) return 0;
    block = pred;
    i = LLVMGetLastInstruction(block);
  }
  return 0;
}

int weir_llvm_call_may_read(weir_llvm_ctx *ctx, LLVMValueRef call, uint32_t proc, uint32_t location) {
  weir_llvm_location_info info = weir_llvm_memory_location(ctx->memory, location);
  const weir_llvm_object *o = weir_llvm_memory_object(ctx->memory, info.object);
  int own_local = o->kind == WEIR_LLVM_OBJECT_STACK && o->function == LLVMGetBasicBlockParent(LLVMGetInstructionParent(call));
  if (!own_local && o->kind != WEIR_LLVM_OBJECT_HEAP) return 1;
  if (!ctx->param_reads) ctx->param_reads = build(ctx);
  const struct weir_llvm_param_reads *pr = ctx->param_reads;
  if (!pr || !pr->usable || proc >= ctx->fn_count) return 1;
  const fn_reads *r = &pr->fns[proc];
  /* Another function's local may come in other ways than by parameter
   * (r->other); a fresh block cannot: no memory holds it yet. */
  if (own_local ? r->other : !fresh_at(ctx, call, info.object, o)) return 1;
  uint32_t args = LLVMGetNumArgOperands(call);
  for (uint32_t j = 0; j < args && j < PARAMS_MAX; ++j) {
    if (!r->all[j] && !r->offsets[j].n) continue;
    const uint32_t *locs = NULL;
    size_t n = weir_llvm_pts(ctx, LLVMGetOperand(call, j), &locs);
    for (size_t k = 0; k < n; ++k) {
      weir_llvm_location_info t = weir_llvm_memory_location(ctx->memory, locs[k]);
      if (t.object != info.object) continue;
      if (r->all[j]) return 1;
      for (size_t i = 0; i < r->offsets[j].n; ++i)
        if (location_holding(ctx, t.object, (uint64_t)t.offset + r->offsets[j].v[i]) == location) return 1;
    }
  }
  return 0;
}
