/* --prune-with-const: const decides branches before another analysis
 * builds its problem. A br whose condition is a compare of integers const
 * proves constant there (or such an integer through casts), or a switch on
 * one, gets a constant condition; module/fold.c then drops the dead edge
 * and the blocks only it reached. The values are merged over every calling
 * context, so a branch decided here goes the same way on every path. */
#include <stdlib.h>
#include <string.h>

#include "frontends/llvm/analyses/const/const.h"
#include "frontends/llvm/module/module.h"

/* The decided terminators and their new conditions. */
typedef struct decisions {
  LLVMValueRef *term, *cond;
  size_t n, cap;
  int failed;
} decisions;

static void add_decision(decisions *d, LLVMValueRef term, LLVMValueRef cond) {
  if (d->n == d->cap) {
    size_t cap = d->cap ? d->cap * 2 : 64;
    LLVMValueRef *t = realloc(d->term, cap * sizeof *t);
    if (t) d->term = t;
    LLVMValueRef *c = t ? realloc(d->cond, cap * sizeof *c) : NULL;
    if (c) d->cond = c;
    if (!t || !c) return (void)(d->failed = 1);
    d->cap = cap;
  }
  d->term[d->n] = term;
  d->cond[d->n++] = cond;
}

/* The constant of operand k of `user`: an LLVM constant, or the value a
 * recorded use found (through the casts between it and its integer). */
static int operand_value(const weir_llvm_problem *p, const weir_llvm_const_values *values, const weir_llvm_map *first,
                         LLVMValueRef user, uint32_t k, int64_t *out) {
  LLVMValueRef v = LLVMGetOperand(user, k);
  if (weir_llvm_const_int_value(v, out)) return 1;
  uint32_t c = weir_llvm_map_get(first, user);
  for (; c != UINT32_MAX && c < p->check_count && p->checks[c].user == user; ++c) {
    if (p->checks[c].operand != k) continue;
    const weir_llvm_const_use *u = &values->uses[c];
    if (u->kind != WEIR_LLVM_CONST_VALUE) return 0;
    return weir_llvm_const_through_casts(v, weir_llvm_const_strip_casts(v), u->value, out);
  }
  return 0;
}

static int compare(LLVMIntPredicate pred, int64_t a, int64_t b, uint32_t bits) {
  uint64_t mask = bits >= 64 ? UINT64_MAX : (((uint64_t)1 << bits) - 1);
  uint64_t ua = (uint64_t)a & mask, ub = (uint64_t)b & mask;
  int64_t sa = weir_llvm_const_normalize(a, bits == 1 ? 2 : bits), sb = weir_llvm_const_normalize(b, bits == 1 ? 2 : bits);
  switch (pred) {
  case LLVMIntEQ: return ua == ub;
  case LLVMIntNE: return ua != ub;
  case LLVMIntUGT: return ua > ub;
  case LLVMIntUGE: return ua >= ub;
  case LLVMIntULT: return ua < ub;
  case LLVMIntULE: return ua <= ub;
  case LLVMIntSGT: return sa > sb;
  case LLVMIntSGE: return sa >= sb;
  case LLVMIntSLT: return sa < sb;
  default: return sa <= sb;
  }
}

/* The constant condition of `term`, or 0 when const does not decide it. */
static LLVMValueRef decided(const weir_llvm_problem *p, const weir_llvm_const_values *values,
                            const weir_llvm_map *first, LLVMValueRef term) {
  int64_t a = 0, b = 0;
  if (LLVMIsASwitchInst(term)) {
    if (!operand_value(p, values, first, term, 0, &a)) return NULL;
    return LLVMConstInt(LLVMTypeOf(LLVMGetCondition(term)), (unsigned long long)a, 1);
  }
  if (!LLVMIsABranchInst(term) || !LLVMIsConditional(term)) return NULL;
  LLVMValueRef cond = LLVMGetCondition(term);
  LLVMTypeRef i1 = LLVMTypeOf(cond);
  if (!LLVMIsAICmpInst(cond)) return operand_value(p, values, first, term, 0, &a) ? LLVMConstInt(i1, a & 1, 0) : NULL;
  if (!operand_value(p, values, first, cond, 0, &a) || !operand_value(p, values, first, cond, 1, &b)) return NULL;
  uint32_t bits = LLVMGetIntTypeWidth(LLVMTypeOf(LLVMGetOperand(cond, 0)));
  return LLVMConstInt(i1, (unsigned long long)compare(LLVMGetICmpPredicate(cond), a, b, bits), 0);
}

/* Builds const on the module (only the uses branches decide on), solves it
 * and collects the decided terminators with their conditions. */
static weir_status decide(LLVMModuleRef module, const weir_llvm_config *config, decisions *d) {
  weir_llvm_config own = *config; /* borrowed rules; only the flags differ */
  own.prune_with_const = 0;
  own.const_branches_only = 1;
  weir_llvm_problem *problem = calloc(1, sizeof *problem);
  if (!problem) return weir_fail(WEIR_ERR_OUT_OF_MEMORY, "analyze: no memory for the const problem. Fix: free memory");
  problem->analysis = WEIR_LLVM_CONST;
  snprintf(problem->name, sizeof problem->name, "const (pruning)");
  weir_llvm_memory *memory = NULL;
  weir_status s = weir_llvm_memory_build(module, &own, &memory);
  if (s == WEIR_OK) {
    weir_llvm_ctx ctx = {.module = module, .memory = memory, .analysis = WEIR_LLVM_CONST, .config = &own,
                         .out = problem, .hooks = &weir_llvm_const_hooks};
    s = weir_llvm_icfg_prepare(&ctx);
    if (s == WEIR_OK) s = weir_llvm_emit(&ctx);
    weir_llvm_ctx_free(&ctx);
  }
  weir_llvm_const_values values = {0};
  if (s == WEIR_OK) s = weir_llvm_const_solve(problem, NULL, &values, NULL);
  weir_llvm_map first = {0};
  for (size_t c = problem->check_count; s == WEIR_OK && c-- > 0;) weir_llvm_map_put(&first, problem->checks[c].user, (uint32_t)c);
  for (LLVMValueRef fn = LLVMGetFirstFunction(module); fn && s == WEIR_OK; fn = LLVMGetNextFunction(fn))
    for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(fn); b; b = LLVMGetNextBasicBlock(b)) {
      LLVMValueRef term = LLVMGetBasicBlockTerminator(b);
      LLVMValueRef cond = term ? decided(problem, &values, &first, term) : NULL;
      if (!cond) continue;
      add_decision(d, term, cond);
    }
  if (s == WEIR_OK && (first.failed || d->failed))
    s = weir_fail(WEIR_ERR_OUT_OF_MEMORY, "analyze: no memory for the branches const decides. Fix: free memory");
  weir_llvm_map_free(&first);
  weir_llvm_const_values_free(&values);
  weir_llvm_problem_free(problem);
  weir_llvm_memory_free(memory);
  return s;
}

weir_status weir_llvm_const_prune(LLVMModuleRef module, const weir_llvm_config *config, weir_llvm_build_stats *stats) {
  decisions d = {0};
  weir_status s = decide(module, config, &d);
  /* The const problem of a big program may not fit the serial solver
   * (ovsdb-server -O0: past 33 M jump functions): nothing was changed yet,
   * so the caller may analyse the module unpruned. */
  stats->const_prune_skipped = s == WEIR_ERR_OUT_OF_MEMORY;
  for (size_t k = 0; s == WEIR_OK && k < d.n; ++k) LLVMSetOperand(d.term[k], 0, d.cond[k]);
  weir_llvm_prepare_stats folded = {0};
  if (s == WEIR_OK && d.n) s = weir_llvm_fold_module(module, &folded);
  if (s == WEIR_OK) stats->const_pruned_branches += (uint32_t)d.n;
  stats->const_pruned_blocks += folded.removed_blocks;
  free(d.term);
  free(d.cond);
  return s;
}
