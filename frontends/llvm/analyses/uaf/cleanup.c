/* Functions that free what they built only when they fail, for uaf: the
 * way C parsers and constructors are written (`error = parse(&h, json); if
 * (error) return error; use(h.name);`). On failure they free the fields
 * they filled and return an error -- a non-null error object, -1 -- and on
 * success they free nothing. So on the edge where the caller has tested
 * the result and found it zero (null), nothing the call handed back
 * dangles (uaf.c, edge). Without this every field such a function fills
 * dangles after every call of it.
 *
 * A function frees only on failure when it returns a pointer or an
 * integer, and every call in it that may free what its caller's arguments
 * hold -- a parameter's block, or a block whose pointer a parameter's
 * block keeps (`free(h->name)`); not the blocks it allocated itself
 * (`ovsdb_parser_init(&p, json)` frees nothing the caller has) nor
 * deeper ones (`sset_find_and_delete(&h->addresses, a)` frees a node of a
 * set, not a cell of h) -- sits
 * where every return it reaches returns a nonzero value: a nonzero
 * constant, or the value X whose test `X != 0` the call is reached only
 * through. */
#include <stdlib.h>

#include "frontends/llvm/analyses/uaf/dangling.h"

#define WALK_MAX 4096u /* blocks visited from one freeing call */

enum { UNKNOWN = 0, YES = 1, NO = 2 };

#define GLOBAL_ROOT (1ull << 63) /* derived(): memory a global points to */

static uint64_t param_bit(unsigned k) { return 1ull << (k < 62 ? k : 62); }

/* The parameters of its function (bits, the last shared by all from 62
 * on; GLOBAL_ROOT for a global) that `v` is derived from with exactly
 * `loads` loads on the way (0 or 1), through casts, GEPs, phis and
 * selects: `&h->set` is h with 0 loads, `h->name` h with 1. */
static uint64_t derived(LLVMValueRef v, int loads, int depth) {
  if (!v || depth > 12 || loads < 0) return 0;
  if (LLVMIsAArgument(v)) {
    unsigned k = 0;
    for (LLVMValueRef p = LLVMGetFirstParam(LLVMGetParamParent(v)); p && p != v; p = LLVMGetNextParam(p)) ++k;
    return loads == 0 ? param_bit(k) : 0;
  }
  if (LLVMIsAGlobalVariable(v)) return loads == 1 ? GLOBAL_ROOT : 0; /* free(global_ptr) */
  if (LLVMIsALoadInst(v)) return derived(LLVMGetOperand(v, 0), loads - 1, depth + 1);
  if (LLVMIsAConstantExpr(v) || LLVMIsACastInst(v) || LLVMIsAGetElementPtrInst(v))
    return LLVMGetNumOperands(v) ? derived(LLVMGetOperand(v, 0), loads, depth + 1) : 0;
  if (LLVMIsASelectInst(v))
    return derived(LLVMGetOperand(v, 1), loads, depth + 1) | derived(LLVMGetOperand(v, 2), loads, depth + 1);
  if (LLVMIsAPHINode(v)) {
    uint64_t bits = 0;
    for (unsigned k = 0; k < LLVMCountIncoming(v) && k < 8; ++k)
      bits |= derived(LLVMGetIncomingValue(v, k), loads, depth + 1);
    return bits;
  }
  return 0;
}

/* Whether a later call of the same block hands `arg` to a function that
 * writes what it points to: `sset_destroy(a); sset_init(a);` leaves no
 * freed pointer in *a. */
static int reinitialized(const weir_llvm_ctx *ctx, LLVMValueRef call, LLVMValueRef arg) {
  const uint32_t *targets = NULL;
  size_t nt = weir_llvm_pts_vague(ctx, arg) ? 0 : weir_llvm_pts(ctx, arg, &targets);
  for (LLVMValueRef i = LLVMGetNextInstruction(call); i && nt; i = LLVMGetNextInstruction(i)) {
    if (!LLVMIsACallInst(i) || weir_llvm_classify_call(ctx, i) != WEIR_LLVM_CALL_NODE) continue;
    int passed = 0;
    for (unsigned k = 0; k < LLVMGetNumArgOperands(i) && !passed; ++k)
      passed = weir_llvm_strip_bitcasts(LLVMGetOperand(i, k)) == weir_llvm_strip_bitcasts(arg);
    if (passed && weir_llvm_callee_writes(ctx, i, targets, nt)) return 1;
  }
  return 0;
}

/* What a call may free that its caller's arguments hold: out[0] the roots
 * (derived()) freed themselves, out[1] the roots a pointer kept in whose
 * block is freed (`free(h->name)`, `uninit(h)`). Deeper frees (an element
 * of a set the argument holds) leave the argument's own cells alone. */
static void call_frees(const weir_llvm_ctx *ctx, LLVMValueRef call, uint64_t out[2]) {
  out[0] = out[1] = 0;
  weir_llvm_call_kind kind = weir_llvm_classify_call(ctx, call);
  unsigned args = LLVMGetNumArgOperands(call);
  if (kind == WEIR_LLVM_CALL_EXTERNAL) {
    const weir_llvm_libcall *model = weir_llvm_call_model((weir_llvm_ctx *)ctx, call);
    if (model->frees >= args) return;
    out[0] = derived(LLVMGetOperand(call, model->frees), 0, 0);
    out[1] = derived(LLVMGetOperand(call, model->frees), 1, 0);
    return;
  }
  if (kind != WEIR_LLVM_CALL_NODE) return;
  const uint32_t *procs = NULL;
  size_t n = weir_llvm_call_procs(ctx, call, &procs);
  uint64_t self = 0, held = 0; /* what the callees free of their parameters */
  for (size_t p = 0; p < n; ++p) self |= ctx->param_frees[2 * procs[p]], held |= ctx->param_frees[2 * procs[p] + 1];
  for (unsigned k = 0; k < args && (self | held); ++k) {
    LLVMValueRef arg = LLVMGetOperand(call, k);
    if (self & param_bit(k)) out[0] |= derived(arg, 0, 0), out[1] |= derived(arg, 1, 0);
    if ((held & param_bit(k)) && !reinitialized(ctx, call, arg)) out[1] |= derived(arg, 0, 0);
  }
  out[0] |= self & GLOBAL_ROOT;
  out[1] |= held & GLOBAL_ROOT;
}

/* ctx->param_frees: per function, [2p] the parameters it (or a function it
 * calls) may free, [2p + 1] those a pointer kept in whose block it may
 * free, GLOBAL_ROOT for globals; a fixed point over the call graph. 0 when
 * out of memory. */
static int param_frees(weir_llvm_ctx *ctx) {
  ctx->param_frees = calloc(2 * (size_t)(ctx->fn_count ? ctx->fn_count : 1), sizeof *ctx->param_frees);
  if (!ctx->param_frees) return 0;
  for (int changed = 1, round = 0; changed && round < 64; ++round) {
    changed = 0;
    for (uint32_t p = 0; p < ctx->fn_count; ++p) {
      uint64_t bits[2] = {ctx->param_frees[2 * p], ctx->param_frees[2 * p + 1]}, call[2];
      for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(ctx->fns[p].fn); b; b = LLVMGetNextBasicBlock(b))
        for (LLVMValueRef i = LLVMGetFirstInstruction(b); i; i = LLVMGetNextInstruction(i))
          if (LLVMIsACallInst(i)) call_frees(ctx, i, call), bits[0] |= call[0], bits[1] |= call[1];
      if (bits[0] != ctx->param_frees[2 * p] || bits[1] != ctx->param_frees[2 * p + 1]) {
        ctx->param_frees[2 * p] = bits[0], ctx->param_frees[2 * p + 1] = bits[1];
        changed = 1;
      }
    }
  }
  return 1;
}

int weir_llvm_zero_constant(LLVMValueRef v) {
  return LLVMIsAConstantPointerNull(v) || (LLVMIsAConstantInt(v) && LLVMConstIntGetZExtValue(v) == 0);
}

static int nonzero_constant(LLVMValueRef v) {
  if (LLVMIsAConstantInt(v)) return LLVMConstIntGetZExtValue(v) != 0 || LLVMConstIntGetSExtValue(v) != 0;
  return LLVMIsAGlobalValue(v) || (LLVMIsAConstantExpr(v) && LLVMGetConstOpcode(v) == LLVMGetElementPtr);
}

/* The value X such that `block` is reached only through the side of a
 * branch on `X != 0` (`X == 0` false) where X is nonzero, climbing single
 * predecessors; NULL when there is none. */
static LLVMValueRef guard(LLVMBasicBlockRef block) {
  for (int depth = 0; depth < 16 && block; ++depth) {
    LLVMBasicBlockRef pred = NULL;
    int preds = 0;
    for (LLVMUseRef u = LLVMGetFirstUse(LLVMBasicBlockAsValue(block)); u; u = LLVMGetNextUse(u)) {
      LLVMValueRef user = LLVMGetUser(u);
      if (!LLVMIsATerminatorInst(user)) continue;
      LLVMBasicBlockRef from = LLVMGetInstructionParent(user);
      if (from != pred) ++preds;
      pred = from;
    }
    if (preds != 1) return NULL;
    LLVMValueRef term = LLVMGetBasicBlockTerminator(pred);
    if (LLVMIsABranchInst(term) && LLVMIsConditional(term) && LLVMGetSuccessor(term, 0) != LLVMGetSuccessor(term, 1)) {
      LLVMValueRef cond = LLVMGetCondition(term);
      if (!LLVMIsAICmpInst(cond)) return NULL;
      LLVMIntPredicate pred_kind = LLVMGetICmpPredicate(cond);
      LLVMValueRef a = weir_llvm_strip_bitcasts(LLVMGetOperand(cond, 0)), b = LLVMGetOperand(cond, 1);
      if ((pred_kind != LLVMIntNE && pred_kind != LLVMIntEQ) || !weir_llvm_zero_constant(b)) return NULL;
      /* the nonzero side: true of `!= 0`, false of `== 0` */
      unsigned nonzero = pred_kind == LLVMIntNE ? 0 : 1;
      return LLVMGetSuccessor(term, nonzero) == block ? a : NULL;
    }
    block = pred;
  }
  return NULL;
}

/* Whether the value `ret` returns, on a path from `from` (blocks in
 * `seen`), is nonzero: a nonzero constant, X, or a phi of those. */
static int returns_nonzero(LLVMValueRef ret, LLVMValueRef x, const weir_llvm_map *seen) {
  LLVMValueRef v = weir_llvm_strip_bitcasts(LLVMGetOperand(ret, 0));
  if (nonzero_constant(v) || (x && v == x)) return 1;
  if (!LLVMIsAPHINode(v)) return 0;
  for (unsigned k = 0; k < LLVMCountIncoming(v); ++k) {
    LLVMBasicBlockRef in = LLVMGetIncomingBlock(v, k);
    if (weir_llvm_map_get(seen, LLVMBasicBlockAsValue(in)) == WEIR_LLVM_NONE) continue; /* another path */
    LLVMValueRef value = weir_llvm_strip_bitcasts(LLVMGetIncomingValue(v, k));
    if (!nonzero_constant(value) && !(x && value == x)) return 0;
  }
  return 1;
}

/* Whether every return reachable from `call` returns nonzero. */
static int fails_after(LLVMValueRef call) {
  LLVMBasicBlockRef start = LLVMGetInstructionParent(call);
  LLVMValueRef x = guard(start);
  weir_llvm_map seen = {0};
  LLVMBasicBlockRef work[WALK_MAX];
  size_t n = 0;
  int ok = 1;
  work[n++] = start;
  weir_llvm_map_put(&seen, LLVMBasicBlockAsValue(start), 0);
  for (size_t k = 0; k < n && ok; ++k) { /* the blocks reachable from the call */
    LLVMValueRef term = LLVMGetBasicBlockTerminator(work[k]);
    unsigned succs = term ? LLVMGetNumSuccessors(term) : 0;
    for (unsigned s = 0; s < succs && ok; ++s) {
      LLVMBasicBlockRef next = LLVMGetSuccessor(term, s);
      if (weir_llvm_map_get(&seen, LLVMBasicBlockAsValue(next)) != WEIR_LLVM_NONE) continue;
      if (n == WALK_MAX) ok = 0;
      else weir_llvm_map_put(&seen, LLVMBasicBlockAsValue(next), 0), work[n++] = next;
    }
  }
  for (size_t k = 0; k < n && ok; ++k) {
    LLVMValueRef term = LLVMGetBasicBlockTerminator(work[k]);
    if (term && LLVMIsAReturnInst(term)) ok = LLVMGetNumOperands(term) == 1 && returns_nonzero(term, x, &seen);
  }
  if (seen.failed) ok = 0;
  weir_llvm_map_free(&seen);
  return ok;
}

static int decide(weir_llvm_ctx *ctx, uint32_t proc) {
  LLVMValueRef fn = ctx->fns[proc].fn;
  LLVMTypeKind ret = LLVMGetTypeKind(LLVMGetReturnType(LLVMGlobalGetValueType(fn)));
  if (ret != LLVMPointerTypeKind && ret != LLVMIntegerTypeKind) return 0;
  int any = 0;
  for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(fn); b; b = LLVMGetNextBasicBlock(b))
    for (LLVMValueRef i = LLVMGetFirstInstruction(b); i; i = LLVMGetNextInstruction(i)) {
      /* what the caller's arguments hold: the blocks of its parameters and globals */
      uint64_t frees[2];
      if (!LLVMIsACallInst(i)) continue;
      call_frees(ctx, i, frees);
      if (!frees[0] && !frees[1]) continue;
      if (!fails_after(i)) return 0;
      any = 1;
    }
  return any;
}

int weir_llvm_frees_only_on_failure(weir_llvm_ctx *ctx, uint32_t proc) {
  if (!ctx->fail_free_state) {
    ctx->fail_free_state = calloc(ctx->fn_count ? ctx->fn_count : 1, 1);
    if (!ctx->fail_free_state || !param_frees(ctx)) {
      ctx->failed = 1;
      return 0;
    }
  }
  if (ctx->fail_free_state[proc] == UNKNOWN) ctx->fail_free_state[proc] = decide(ctx, proc) ? YES : NO;
  return ctx->fail_free_state[proc] == YES;
}
