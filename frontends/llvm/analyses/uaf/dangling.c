/* Where dangling pointers come from, for the uaf analysis (uaf.c): the
 * aliases of a freed pointer, the slot it was read from, and a
 * flow-insensitive closure of uaf's flows from every free, so that facts
 * exist only for what a free can reach. */
#include <stdlib.h>
#include <string.h>

#include "frontends/llvm/analyses/uaf/dangling.h"
#include "frontends/llvm/module/module.h"

static uint32_t object_of(const weir_llvm_ctx *ctx, uint32_t location) {
  return weir_llvm_memory_location(ctx->memory, location).object;
}

int weir_llvm_meets_tracked(const weir_llvm_ctx *ctx, const uint32_t *locs, size_t n) {
  for (size_t k = 0; k < n; ++k)
    if (ctx->obj_fact[object_of(ctx, locs[k])]) return 1;
  return 0;
}

static int meets_tracked_value(const weir_llvm_ctx *ctx, LLVMValueRef v) {
  const uint32_t *locs = NULL;
  size_t n = weir_llvm_pts(ctx, v, &locs);
  return weir_llvm_meets_tracked(ctx, locs, n);
}

/* Whether GEP `g` leaves its base's address as it is (all indices 0). */
static int zero_gep(LLVMValueRef g) {
  for (int k = 1; k < LLVMGetNumOperands(g); ++k) {
    LLVMValueRef index = LLVMGetOperand(g, (unsigned)k);
    if (!LLVMIsAConstantInt(index) || LLVMConstIntGetZExtValue(index) != 0) return 0;
  }
  return 1;
}

/* Back through casts (and GEPs that add nothing) to the value `pointer`
 * comes from: a block is freed by its start address, so a pointer into
 * the middle of a struct that a callee "freed" is an indirect call the
 * points-to sets resolved wrongly, and not its struct; then the other
 * loads of the same pointer, then forward through casts and GEPs (not
 * phis: a loop's phi holds the last iteration's value). */
size_t weir_llvm_alias_values(LLVMValueRef pointer, LLVMValueRef work[WEIR_LLVM_ALIAS_CAP]) {
  LLVMValueRef root = pointer;
  for (int depth = 0; depth < 16 && root; ++depth) {
    if (LLVMIsABitCastInst(root) || LLVMIsAAddrSpaceCastInst(root) || (LLVMIsAGetElementPtrInst(root) && zero_gep(root)))
      root = LLVMGetOperand(root, 0);
    else
      break;
  }
  if (!root || !(LLVMIsAInstruction(root) || LLVMIsAArgument(root))) return 0;
  enum { CAP = WEIR_LLVM_ALIAS_CAP };
  size_t n = 0;
  work[n++] = root;
  if (LLVMIsALoadInst(root)) {
    LLVMValueRef from = LLVMGetOperand(root, 0);
    LLVMBasicBlockRef home = LLVMGetInstructionParent(root);
    for (LLVMUseRef u = LLVMGetFirstUse(from); u && n < CAP; u = LLVMGetNextUse(u)) {
      LLVMValueRef user = LLVMGetUser(u);
      if (user != root && LLVMIsALoadInst(user) && LLVMGetOperand(user, 0) == from &&
          LLVMGetBasicBlockParent(LLVMGetInstructionParent(user)) == LLVMGetBasicBlockParent(home))
        work[n++] = user;
    }
  }
  for (size_t k = 0; k < n; ++k) {
    for (LLVMUseRef u = LLVMGetFirstUse(work[k]); u && n < CAP; u = LLVMGetNextUse(u)) {
      LLVMValueRef user = LLVMGetUser(u);
      int derived = LLVMIsABitCastInst(user) || LLVMIsAAddrSpaceCastInst(user) ||
                    (LLVMIsAGetElementPtrInst(user) && LLVMGetOperand(user, 0) == work[k]);
      int seen = 0;
      for (size_t j = 0; j < n && !seen; ++j) seen = work[j] == user;
      if (derived && !seen) work[n++] = user;
    }
  }
  return n;
}

/* The function whose frame `location` is in, or NULL for memory that
 * outlives calls. */
LLVMValueRef weir_llvm_frame_of(const weir_llvm_ctx *ctx, uint32_t location) {
  const weir_llvm_object *o = weir_llvm_memory_object(ctx->memory, object_of(ctx, location));
  return o->kind == WEIR_LLVM_OBJECT_STACK ? o->function : NULL;
}

/* Whether a store between `from` and `to` (one block) may write a location of `slots`. */
static int written_between(const weir_llvm_ctx *ctx, LLVMValueRef from, LLVMValueRef to, const uint32_t *slots,
                           size_t n) {
  for (LLVMValueRef inst = LLVMGetNextInstruction(from); inst && inst != to; inst = LLVMGetNextInstruction(inst)) {
    if (!LLVMIsAStoreInst(inst) && !LLVMIsACallInst(inst)) continue;
    if (LLVMIsACallInst(inst)) {
      if (weir_llvm_marker_call(inst)) continue;
      return 1; /* a call may write anything */
    }
    const uint32_t *locs = NULL;
    size_t m = weir_llvm_pts(ctx, LLVMGetOperand(inst, 1), &locs);
    for (size_t j = 0; j < m; ++j)
      for (size_t k = 0; k < n; ++k)
        if (locs[j] == slots[k]) return 1;
  }
  return 0;
}

/* Whether a defined callee of `call` may write a location of `slots`:
 * `c = s->conns.next; kill_connection(c);` unlinks c (writing the slot it
 * was read from) before it frees it. */
int weir_llvm_callee_writes(const weir_llvm_ctx *ctx, LLVMValueRef call, const uint32_t *slots, size_t n) {
  const uint32_t *procs = NULL;
  size_t count = weir_llvm_call_procs(ctx, call, &procs);
  for (size_t p = 0; p < count; ++p) {
    const uint32_t *mod = NULL;
    size_t m = weir_llvm_memory_mod(ctx->memory, ctx->fns[procs[p]].fn, &mod);
    for (size_t j = 0; j < m; ++j)
      for (size_t k = 0; k < n; ++k)
        if (mod[j] == slots[k]) return 1;
  }
  return 0;
}

/* The store in `call`'s block, before it, that put `root` (casts aside)
 * into memory: `s->buf = p; free(p);`, also what -O2 and prepare's
 * store-to-load forwarding make of `s->buf = malloc(n); ...; free(s->buf);`. */
static LLVMValueRef stored_before(LLVMValueRef call, LLVMValueRef root) {
  for (LLVMValueRef i = LLVMGetPreviousInstruction(call); i; i = LLVMGetPreviousInstruction(i))
    if (LLVMIsAStoreInst(i) && weir_llvm_strip_bitcasts(LLVMGetOperand(i, 0)) == root) return i;
  return NULL;
}

/* `free(s->buf)`: the slot the pointer was read from (or just stored to)
 * dangles, when that was in the same block with nothing written there
 * since (queue_pop_head reads the head, unlinks it, then frees it). Not for
 * realloc, whose result goes back into the slot (and on failure frees
 * nothing). */
size_t weir_llvm_freed_slots(const weir_llvm_ctx *ctx, LLVMValueRef call, LLVMValueRef pointer, const uint32_t **slots) {
  LLVMValueRef root = pointer;
  while (root && (LLVMIsABitCastInst(root) || LLVMIsAGetElementPtrInst(root))) root = LLVMGetOperand(root, 0);
  if (!root) return 0;
  LLVMValueRef from = LLVMIsALoadInst(root) && LLVMGetInstructionParent(root) == LLVMGetInstructionParent(call)
                          ? root
                          : stored_before(call, root);
  if (!from) return 0;
  if (weir_llvm_call_model((weir_llvm_ctx *)ctx, call)->alloc == WEIR_LLVM_ALLOC_REALLOC) return 0;
  LLVMValueRef place = LLVMGetOperand(from, LLVMIsALoadInst(from) ? 0 : 1);
  if (weir_llvm_pts_vague(ctx, place)) return 0;
  /* `free(v[i].p)` in a loop: the cell stands for every element (-O2
   * casts the element's field: `(char **)&v[i].p`) */
  for (LLVMValueRef g = place; g && (LLVMIsAGetElementPtrInst(g) || LLVMIsABitCastInst(g)); g = LLVMGetOperand(g, 0))
    for (int k = 1; LLVMIsAGetElementPtrInst(g) && k < LLVMGetNumOperands(g); ++k)
      if (!LLVMIsAConstant(LLVMGetOperand(g, (unsigned)k))) return 0;
  size_t n = weir_llvm_pts(ctx, place, slots);
  return written_between(ctx, from, call, *slots, n) || weir_llvm_callee_writes(ctx, call, *slots, n) ? 0 : n;
}

static void mark_value(const weir_llvm_ctx *ctx, weir_llvm_dangle_marks *m, LLVMValueRef v) {
  uint32_t vid = v ? weir_llvm_vid(ctx, v) : WEIR_LLVM_NONE;
  if (vid != WEIR_LLVM_NONE && !m->value[vid]) m->value[vid] = 1, m->changed = 1;
}

static int marked_value(const weir_llvm_ctx *ctx, const weir_llvm_dangle_marks *m, LLVMValueRef v) {
  uint32_t vid = v ? weir_llvm_vid(ctx, v) : WEIR_LLVM_NONE;
  return vid != WEIR_LLVM_NONE && m->value[vid];
}

static void mark_locations(weir_llvm_dangle_marks *m, const uint32_t *locs, size_t n) {
  for (size_t k = 0; k < n; ++k)
    if (!m->location[locs[k]]) m->location[locs[k]] = 1, m->changed = 1;
}

static void mark_aliases(const weir_llvm_ctx *ctx, weir_llvm_dangle_marks *m, LLVMValueRef call, LLVMValueRef pointer) {
  LLVMValueRef work[WEIR_LLVM_ALIAS_CAP];
  size_t n = weir_llvm_alias_values(pointer, work);
  for (size_t k = 0; k < n; ++k) mark_value(ctx, m, work[k]);
  const uint32_t *slots = NULL;
  size_t count = weir_llvm_freed_slots(ctx, call, pointer, &slots); /* before reading `slots` */
  mark_locations(m, slots, count);
}

/* One instruction's rules of the closure (the flows of plain, move and
 * callee, without kills). */
static void close_instruction(weir_llvm_ctx *ctx, weir_llvm_dangle_marks *m, LLVMValueRef inst, uint32_t proc) {
  if (LLVMIsACallInst(inst)) {
    weir_llvm_call_kind kind = weir_llvm_classify_call(ctx, inst);
    uint32_t args = LLVMGetNumArgOperands(inst);
    if (kind == WEIR_LLVM_CALL_EXTERNAL) {
      const weir_llvm_libcall *model = weir_llvm_call_model(ctx, inst);
      if (model->frees < args) mark_aliases(ctx, m, inst, LLVMGetOperand(inst, model->frees));
      if (model->copy_from < args && model->copy_to < args) {
        const uint32_t *src = NULL, *dst = NULL;
        size_t ns = weir_llvm_pts(ctx, LLVMGetOperand(inst, model->copy_from), &src);
        int any = 0;
        for (size_t k = 0; k < ns && !any; ++k) any = m->location[src[k]];
        size_t nd = any ? weir_llvm_pts(ctx, LLVMGetOperand(inst, model->copy_to), &dst) : 0;
        mark_locations(m, dst, nd);
      }
      return;
    }
    const uint32_t *procs = NULL;
    size_t n = weir_llvm_call_procs(ctx, inst, &procs);
    for (size_t p = 0; p < n; ++p) {
      if (m->returns[procs[p]]) mark_value(ctx, m, inst);
      uint32_t k = 0;
      for (LLVMValueRef param = LLVMGetFirstParam(ctx->fns[procs[p]].fn); param && k < args;
           param = LLVMGetNextParam(param), ++k)
        if (marked_value(ctx, m, param)) mark_aliases(ctx, m, inst, LLVMGetOperand(inst, k));
    }
    return;
  }
  if (LLVMIsAStoreInst(inst)) {
    LLVMValueRef value = LLVMGetOperand(inst, 0), pointer = LLVMGetOperand(inst, 1);
    const uint32_t *locs = NULL;
    size_t n = weir_llvm_pts(ctx, pointer, &locs);
    /* a pointer kept in a local of its own function: a callee may free it through it (uaf.c, stored_values_dangle) */
    int own = n > 0 && weir_llvm_is_pointer(value) && meets_tracked_value(ctx, value);
    for (size_t k = 0; k < n && own; ++k) own = weir_llvm_frame_of(ctx, locs[k]) == ctx->fns[proc].fn;
    if (own) mark_aliases(ctx, m, inst, value);
    if (marked_value(ctx, m, value) && !weir_llvm_pts_vague(ctx, pointer)) mark_locations(m, locs, n);
  } else if (LLVMIsALoadInst(inst)) {
    const uint32_t *locs = NULL;
    LLVMValueRef pointer = LLVMGetOperand(inst, 0);
    size_t n = weir_llvm_pts_vague(ctx, pointer) ? 0 : weir_llvm_pts(ctx, pointer, &locs);
    int any = 0;
    for (size_t k = 0; k < n && !any; ++k) any = m->location[locs[k]];
    if (any) mark_value(ctx, m, inst);
  } else if (LLVMIsAReturnInst(inst)) {
    if (LLVMGetNumOperands(inst) == 1 && marked_value(ctx, m, LLVMGetOperand(inst, 0)) && !m->returns[proc])
      m->returns[proc] = 1, m->changed = 1;
  } else if (LLVMIsAPHINode(inst)) {
    for (unsigned k = 0; k < LLVMCountIncoming(inst); ++k)
      if (marked_value(ctx, m, LLVMGetIncomingValue(inst, k))) mark_value(ctx, m, inst);
  } else if (weir_llvm_is_pointer(inst)) {
    int first = LLVMIsASelectInst(inst) ? 1 : 0;
    int operands = LLVMIsAGetElementPtrInst(inst) || LLVMIsACastInst(inst) ? 1 : LLVMGetNumOperands(inst);
    for (int k = first; k < operands; ++k)
      if (marked_value(ctx, m, LLVMGetOperand(inst, (unsigned)k))) mark_value(ctx, m, inst);
  }
}

/* Which values, locations and returns can ever dangle: the flows from
 * every free, closed flow-insensitively over the module. Facts (and the
 * pairs every call carries for them) are made only for those: in an
 * interpreter whose `value` words may point anywhere, nearly every pointer
 * and cell may point into a freed block, and few can be reached by one. */
int weir_llvm_may_dangle(weir_llvm_ctx *ctx, weir_llvm_dangle_marks *m) {
  uint32_t locations = weir_llvm_memory_location_count(ctx->memory);
  m->value = calloc(ctx->value_count ? ctx->value_count : 1, 1);
  m->location = calloc(locations ? locations : 1, 1);
  m->returns = calloc(ctx->fn_count ? ctx->fn_count : 1, 1);
  if (!m->value || !m->location || !m->returns) return 0;
  do {
    m->changed = 0;
    for (uint32_t p = 0; p < ctx->fn_count; ++p)
      for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(ctx->fns[p].fn); b; b = LLVMGetNextBasicBlock(b))
        for (LLVMValueRef inst = LLVMGetFirstInstruction(b); inst; inst = LLVMGetNextInstruction(inst))
          close_instruction(ctx, m, inst, p);
  } while (m->changed);
  return 1;
}

