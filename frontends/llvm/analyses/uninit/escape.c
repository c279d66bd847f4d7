/* Fields written before a local's address escapes (uninit).
 *
 * IFDS does not correlate branches, so in
 *
 *     struct timeval *tv = NULL, ctv;
 *     if (cmsg->cmsg_type == SCM_TIMESTAMP) { memcpy(&ctv, CMSG_DATA(cmsg), sizeof ctv); tv = &ctv; }
 *     packet_control(tv, ...);          // reads tv->tv_sec when tv != NULL
 *
 * the path that skips the memcpy carries "ctv uninitialised" into
 * packet_control, where the flow-insensitive points-to set of tv holds ctv:
 * a false finding (btmon had 27 of 51 of this kind). But a pointer to ctv
 * other than ctv's own alloca only exists once the address has escaped
 * (stored, passed, merged in a phi, returned), and every escape here comes
 * after the memcpy. So a read through such a pointer sees
 * the fields written before every escape initialised: the check skips them.
 *
 * Per stack object (up to 64 locations), computed once on first query: the
 * locations written on every path to each point of its function (a forward
 * must-analysis over the CFG; a write is a store with that single target,
 * or llvm.memset/llvm.memcpy or a library call writing through a pointer to
 * the start of the object: the whole object; a call of a defined function
 * writes what its mod summary holds and its ref summary does not, as the
 * analysis' call-to-return edge assumes), and the escapes of its
 * alloca's address (through casts and GEPs; a phi escapes at the end of the
 * incoming block; a defined callee after the call, its writes counted; a
 * store of the address where something may first read it back: the next
 * call or load that may read the object in that block). A location is "written before escape" if it is written
 * on every path to every escape. Reads through the alloca itself
 * (and GEPs of it) are always checked: the IFDS flow is exact for them.
 * Sound for stack objects (each activation starts uninitialised: a pointer
 * escaped in one activation is read after that activation's writes). */
#include <stdlib.h>
#include <string.h>

#include "frontends/llvm/internal.h"
#include "frontends/llvm/module/module.h"

enum { STATE_UNKNOWN = 0, STATE_CHECKED = 1, STATE_WRITTEN = 2 };
#define USES_MAX 4096

typedef struct escape_walk {
  weir_llvm_ctx *ctx;
  const weir_llvm_object *o;
  LLVMBasicBlockRef *blocks; /* of the alloca's function */
  unsigned block_count;
  weir_llvm_map block_index;
  uint64_t *in;     /* [block_count]: locations written on every path to the block's start */
  uint64_t written; /* locations written before every escape so far */
  size_t uses;
  int overflow;
} escape_walk;

static int is_intrinsic(LLVMValueRef call, const char *prefix) {
  size_t length = 0;
  const char *name = weir_llvm_callee_name(call, &length);
  size_t n = strlen(prefix);
  return length >= n && strncmp(name, prefix, n) == 0;
}

static uint64_t summary_mask(escape_walk *w, const uint32_t *locs, size_t m) {
  uint64_t mask = 0;
  uint32_t first = w->o->first_location, count = w->o->location_count;
  for (size_t k = 0; k < m; ++k)
    if (locs[k] >= first && locs[k] < first + count) mask |= 1ull << (locs[k] - first);
  return mask;
}

/* The object's locations a call of a defined function may write and does
 * not read (mod without ref: out-parameters): the analysis counts them
 * initialised after the call, and no read inside the callee can see them
 * before. What the callee also reads must be written before the call, or
 * `update(&v)` doing `v->n++` would hide its read of an unset n. */
static uint64_t call_writes(escape_walk *w, LLVMValueRef call) {
  uint64_t mod = 0, ref = 0;
  const uint32_t *procs = NULL;
  size_t n = weir_llvm_call_procs(w->ctx, call, &procs);
  for (size_t p = 0; p < n; ++p) {
    const uint32_t *locs = NULL;
    size_t m = weir_llvm_memory_mod(w->ctx->memory, w->ctx->fns[procs[p]].fn, &locs);
    mod |= summary_mask(w, locs, m);
    m = weir_llvm_memory_ref(w->ctx->memory, w->ctx->fns[procs[p]].fn, &locs);
    ref |= summary_mask(w, locs, m);
  }
  return mod & ~ref;
}

/* The object's locations a write through `target` reaches: the one it
 * points to, or (`whole`: memset, a library write) all from the start. */
static uint64_t target_writes(escape_walk *w, LLVMValueRef target, int whole) {
  const uint32_t *locs = NULL;
  if (weir_llvm_pts(w->ctx, target, &locs) != 1) return 0;
  uint32_t first = w->o->first_location, count = w->o->location_count;
  if (locs[0] < first || locs[0] >= first + count) return 0;
  if (whole && weir_llvm_memory_location(w->ctx->memory, locs[0]).offset == 0)
    return count == 64 ? ~0ull : (1ull << count) - 1;
  return 1ull << (locs[0] - first);
}

/* The object's locations that `inst` writes, as a mask. */
static uint64_t writes_of(escape_walk *w, LLVMValueRef inst) {
  if (LLVMIsAStoreInst(inst)) return target_writes(w, LLVMGetOperand(inst, 1), 0);
  if (!LLVMIsACallInst(inst)) return 0;
  if (weir_llvm_classify_call(w->ctx, inst) == WEIR_LLVM_CALL_NODE) return call_writes(w, inst);
  if (is_intrinsic(inst, "llvm.memset") || is_intrinsic(inst, "llvm.memcpy") || is_intrinsic(inst, "llvm.memmove"))
    return target_writes(w, LLVMGetOperand(inst, 0), 1);
  if (is_intrinsic(inst, "llvm.")) return 0; /* lifetime markers, debug info: no write */
  /* A library call: the arguments its model writes (or copies into); an
   * unmodelled declaration initialises what it is given, as in the analysis. */
  const weir_llvm_libcall *model = weir_llvm_call_model(w->ctx, inst);
  uint64_t mask = 0;
  uint32_t args = LLVMGetNumArgOperands(inst);
  for (uint32_t k = 0; k < args; ++k) {
    LLVMValueRef arg = LLVMGetOperand(inst, k);
    if (weir_llvm_is_pointer(arg) && (!model->known || weir_llvm_mask_has(model->writes, k) || model->copy_to == k))
      mask |= target_writes(w, arg, 1);
  }
  return mask;
}

static uint64_t writes_before(escape_walk *w, LLVMBasicBlockRef block, LLVMValueRef at) {
  uint64_t mask = 0;
  for (LLVMValueRef i = LLVMGetFirstInstruction(block); i && i != at; i = LLVMGetNextInstruction(i))
    mask |= writes_of(w, i);
  return mask;
}

/* Must-written over the function's CFG: in[b] = AND of out[p] over its
 * predecessors, out[b] = in[b] | what b writes; the entry starts empty. */
static int must_written(escape_walk *w, LLVMValueRef function) {
  unsigned n = w->block_count = LLVMCountBasicBlocks(function);
  w->blocks = calloc(n ? n : 1, sizeof *w->blocks);
  w->in = calloc(n ? n : 1, sizeof *w->in);
  uint64_t *gen = calloc(n ? n : 1, sizeof *gen), *out = calloc(n ? n : 1, sizeof *out);
  int ok = w->blocks && w->in && gen && out;
  if (ok) {
    LLVMGetBasicBlocks(function, w->blocks);
    for (unsigned b = 0; b < n; ++b) {
      weir_llvm_map_put(&w->block_index, w->blocks[b], b);
      gen[b] = writes_before(w, w->blocks[b], NULL);
      out[b] = ~0ull;
      w->in[b] = ~0ull;
    }
    ok = !w->block_index.failed;
  }
  for (int changed = ok, rounds = 0; changed && rounds < 64; ++rounds) {
    changed = 0;
    for (unsigned b = 0; b < n; ++b) { /* in[s] &= out[b] for every successor s */
      if (b == 0) w->in[0] = 0;
      uint64_t o = w->in[b] | gen[b];
      if (o != out[b]) out[b] = o, changed = 1;
      LLVMValueRef term = LLVMGetBasicBlockTerminator(w->blocks[b]);
      unsigned succ = term ? LLVMGetNumSuccessors(term) : 0;
      for (unsigned k = 0; k < succ; ++k) {
        uint32_t s = weir_llvm_map_get(&w->block_index, LLVMGetSuccessor(term, k));
        if (s != WEIR_LLVM_NONE && s != 0 && (w->in[s] & out[b]) != w->in[s]) w->in[s] &= out[b], changed = 1;
      }
    }
  }
  free(gen);
  free(out);
  return ok;
}

/* An escape in `block` before `at` (NULL: at the block's end). */
static void escape(escape_walk *w, LLVMBasicBlockRef block, LLVMValueRef at) {
  uint32_t b = weir_llvm_map_get(&w->block_index, block);
  if (b == WEIR_LLVM_NONE) {
    w->overflow = 1;
    return;
  }
  w->written &= w->in[b] | writes_before(w, block, at);
}

/* Whether a load through `address` may read the object. */
static int may_read_object(escape_walk *w, LLVMValueRef address) {
  const uint32_t *locs = NULL;
  size_t m = weir_llvm_pts(w->ctx, address, &locs);
  for (size_t k = 0; k < m; ++k)
    if (locs[k] >= w->o->first_location && locs[k] - w->o->first_location < w->o->location_count) return 1;
  return 0;
}

/* The address stored into memory escapes where something may read it
 * back: the first call, or load that may read the object, after the store
 * in its block; the fields written before that count as written before the
 * escape (libiberty's `dpm.next = dpi->modifiers; dpi->modifiers = &dpm;
 * dpm.mod = dc; dpm.printed = 0; d_print_comp(dpi, ..)`, whose recursive
 * activations read the outer ones' `dpm` through the list). */
static LLVMValueRef read_back_point(escape_walk *w, LLVMValueRef store) {
  for (LLVMValueRef i = LLVMGetNextInstruction(store); i; i = LLVMGetNextInstruction(i)) {
    if (weir_llvm_marker_call(i)) continue;
    if (LLVMIsACallInst(i) || LLVMIsAInvokeInst(i) || LLVMIsATerminatorInst(i)) return i;
    if (LLVMIsALoadInst(i) && may_read_object(w, LLVMGetOperand(i, 0))) return i;
  }
  return NULL;
}

static void walk_uses(escape_walk *w, LLVMValueRef value, int depth) {
  for (LLVMUseRef u = LLVMGetFirstUse(value); u && !w->overflow; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (++w->uses > USES_MAX || depth > 16) {
      w->overflow = 1;
      return;
    }
    if (LLVMIsALoadInst(user) || LLVMIsAICmpInst(user)) continue;
    if (LLVMIsAStoreInst(user) && LLVMGetOperand(user, 0) != value) continue; /* a write through it */
    if (LLVMIsAGetElementPtrInst(user) || LLVMIsABitCastInst(user) || LLVMIsAAddrSpaceCastInst(user)) {
      if (LLVMGetOperand(user, 0) == value) walk_uses(w, user, depth + 1);
      continue;
    }
    if (weir_llvm_marker_call(user)) continue;
    if (LLVMIsACallInst(user) && (is_intrinsic(user, "llvm.memset") || is_intrinsic(user, "llvm.memcpy") ||
                                  is_intrinsic(user, "llvm.memmove")))
      continue; /* the destination is written, the source read (checked at the call) */
    if (LLVMIsAPHINode(user)) {
      unsigned n = LLVMCountIncoming(user);
      for (unsigned k = 0; k < n; ++k)
        if (LLVMGetIncomingValue(user, k) == value) escape(w, LLVMGetIncomingBlock(user, k), NULL);
      continue;
    }
    if (!LLVMIsAInstruction(user)) {
      w->overflow = 1; /* a constant expression of a local: not followed */
      return;
    }
    if (LLVMIsACallInst(user)) {
      /* Passed to a call: what it may write (a defined callee's mod, a
       * library call's written arguments) counts as written by the call,
       * as the analysis' call-to-return edge has it. */
      LLVMValueRef next = LLVMGetNextInstruction(user);
      escape(w, LLVMGetInstructionParent(user), next);
      continue;
    }
    if (LLVMIsAStoreInst(user)) { /* the address itself stored */
      escape(w, LLVMGetInstructionParent(user), read_back_point(w, user));
      continue;
    }
    escape(w, LLVMGetInstructionParent(user), user);
  }
}

static void compute(weir_llvm_ctx *ctx, uint32_t object) {
  const weir_llvm_object *o = weir_llvm_memory_object(ctx->memory, object);
  uint8_t *state = ctx->escape_state + o->first_location;
  memset(state, STATE_CHECKED, o->location_count);
  if (o->kind != WEIR_LLVM_OBJECT_STACK || !o->site || !LLVMIsAAllocaInst(o->site) || o->collapsed ||
      o->location_count > 64)
    return;
  escape_walk w = {.ctx = ctx, .o = o, .written = ~0ull};
  if (!must_written(&w, LLVMGetBasicBlockParent(LLVMGetInstructionParent(o->site)))) ctx->failed = 1;
  else walk_uses(&w, o->site, 0);
  if (!w.overflow && !ctx->failed)
    for (uint32_t k = 0; k < o->location_count; ++k)
      if (w.written >> k & 1) state[k] = STATE_WRITTEN;
  free(w.blocks);
  free(w.in);
  weir_llvm_map_free(&w.block_index);
}

static LLVMValueRef base_of(LLVMValueRef pointer) {
  for (int k = 0; k < 32 && pointer; ++k) {
    if (LLVMIsAGetElementPtrInst(pointer) || LLVMIsABitCastInst(pointer) || LLVMIsAAddrSpaceCastInst(pointer))
      pointer = LLVMGetOperand(pointer, 0);
    else
      break;
  }
  return pointer;
}

int weir_llvm_written_before_escape(weir_llvm_ctx *ctx, LLVMValueRef pointer, uint32_t location) {
  uint32_t count = weir_llvm_memory_location_count(ctx->memory);
  if (location >= count) return 0;
  if (!ctx->escape_state) {
    ctx->escape_state = calloc(count ? count : 1, 1);
    if (!ctx->escape_state) {
      ctx->failed = 1;
      return 0;
    }
  }
  uint32_t object = weir_llvm_memory_location(ctx->memory, location).object;
  if (ctx->escape_state[location] == STATE_UNKNOWN) compute(ctx, object);
  if (ctx->escape_state[location] != STATE_WRITTEN) return 0;
  return base_of(pointer) != weir_llvm_memory_object(ctx->memory, object)->site; /* not its own alloca */
}
