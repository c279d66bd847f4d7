/* Tagged unions (uninit): a payload read only under the tag that wrote it.
 *
 *     struct json_token { enum json_token_type type; union { double real;
 *                         long long integer; const char *string; }; };
 *     lex_keyword: token.type = T_FALSE; parse(&token);   (no payload)
 *     lex_number:  token.type = T_REAL; token.real = d; parse(&token);
 *     parse:       switch (token->type) { case T_REAL: use(token->real); }
 *
 * The keyword's token reaches the read of `real` path-insensitively, so
 * `token->real` looks unset (OVS's json.c: four findings at -O0 and -O2).
 * A read of field k of a struct S through a pointer p, on a path that
 * tested `p->t == c` for another field t of p, is not checked when every
 * function that stores c into field t of any S also stores into field k
 * (that function builds a c-tagged payload), and no store into field t
 * may write c otherwise (a stored value that is not a constant must be
 * narrower than c: `token.type = ch` with `unsigned char ch` cannot be
 * T_REAL, which is past 255). The writes are not checked for order or
 * path: optimistic, like uninit's other callee rules.
 *
 * The stores of the module into struct fields are collected once (per
 * analysis build) into a table this file owns. */
#include <llvm-c/Core.h>
#include <stdlib.h>

#include "frontends/llvm/internal.h"

enum { GUARD_STEPS = 8, CASES_MAX = 16 };

/* A struct field access `&((S *)base)->field` (up to casts). */
typedef struct field_ref {
  LLVMTypeRef record;
  unsigned field;
  LLVMValueRef base;
} field_ref;

/* One store into a field of a struct: who stores what. */
typedef struct field_store {
  LLVMTypeRef record;
  unsigned field;
  LLVMValueRef function;
  LLVMValueRef value;
} field_store;

struct weir_llvm_tag_table {
  field_store *v;
  size_t n, cap;
};

static int is_zero(LLVMValueRef v) { return LLVMIsAConstantInt(v) && LLVMConstIntGetZExtValue(v) == 0; }

/* Decomposes `pointer` into a field of a struct: `gep S, base, 0, f[, 0...]`
 * (through casts), or a cast of a struct pointer to its first field's type
 * (-O2 reads field 0 as `(i32 *)token`). */
static int field_of(LLVMValueRef pointer, field_ref *out) {
  LLVMValueRef p = weir_llvm_strip_bitcasts(pointer);
  if (LLVMIsAGetElementPtrInst(p) || (LLVMIsAConstantExpr(p) && LLVMGetConstOpcode(p) == LLVMGetElementPtr)) {
    int n = LLVMGetNumOperands(p);
    if (n < 3 || !is_zero(LLVMGetOperand(p, 1)) || !LLVMIsAConstantInt(LLVMGetOperand(p, 2))) return 0;
    for (int k = 3; k < n; ++k)
      if (!is_zero(LLVMGetOperand(p, (unsigned)k))) return 0;
    LLVMTypeRef t = LLVMGetElementType(LLVMTypeOf(LLVMGetOperand(p, 0)));
    if (LLVMGetTypeKind(t) != LLVMStructTypeKind) return 0;
    out->record = t;
    out->field = (unsigned)LLVMConstIntGetZExtValue(LLVMGetOperand(p, 2));
    out->base = weir_llvm_strip_bitcasts(LLVMGetOperand(p, 0));
    return out->field < LLVMCountStructElementTypes(t);
  }
  if (p == pointer || LLVMGetTypeKind(LLVMTypeOf(p)) != LLVMPointerTypeKind) return 0;
  LLVMTypeRef t = LLVMGetElementType(LLVMTypeOf(p));
  if (LLVMGetTypeKind(t) != LLVMStructTypeKind || LLVMCountStructElementTypes(t) == 0) return 0;
  if (LLVMStructGetTypeAtIndex(t, 0) != LLVMGetElementType(LLVMTypeOf(pointer))) return 0;
  out->record = t;
  out->field = 0;
  out->base = p;
  return 1;
}

static void table_push(weir_llvm_ctx *ctx, struct weir_llvm_tag_table *t, const field_store *s) {
  if (t->n == t->cap) {
    size_t cap = t->cap ? t->cap * 2 : 256;
    field_store *grown = realloc(t->v, cap * sizeof *grown);
    if (!grown) {
      ctx->failed = 1;
      return;
    }
    t->v = grown;
    t->cap = cap;
  }
  t->v[t->n++] = *s;
}

static struct weir_llvm_tag_table *table(weir_llvm_ctx *ctx) {
  if (ctx->tags) return ctx->tags;
  struct weir_llvm_tag_table *t = calloc(1, sizeof *t);
  if (!t) {
    ctx->failed = 1;
    return NULL;
  }
  for (LLVMValueRef fn = LLVMGetFirstFunction(ctx->module); fn; fn = LLVMGetNextFunction(fn))
    for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(fn); b; b = LLVMGetNextBasicBlock(b))
      for (LLVMValueRef i = LLVMGetFirstInstruction(b); i; i = LLVMGetNextInstruction(i)) {
        field_ref f;
        if (!LLVMIsAStoreInst(i) || !field_of(LLVMGetOperand(i, 1), &f)) continue;
        field_store s = {f.record, f.field, fn, LLVMGetOperand(i, 0)};
        table_push(ctx, t, &s);
      }
  ctx->tags = t;
  return t;
}

void weir_llvm_tags_free(weir_llvm_ctx *ctx) {
  if (!ctx->tags) return;
  free(ctx->tags->v);
  free(ctx->tags);
  ctx->tags = NULL;
}

/* Whether a stored tag value may be `c`: 0 no, 1 yes (one of the
 * constants it picks from: a constant, a select or phi of them), 2 not
 * known. A zero-extended narrower integer cannot be a `c` past its width. */
enum { CANNOT = 0, CONSTANT_C = 1, UNKNOWN_VALUE = 2 };
static int may_be(LLVMValueRef value, unsigned long long c, int depth) {
  if (LLVMIsAConstantInt(value)) return LLVMConstIntGetZExtValue(value) == c ? CONSTANT_C : CANNOT;
  if (LLVMIsAZExtInst(value)) {
    unsigned bits = LLVMGetIntTypeWidth(LLVMTypeOf(LLVMGetOperand(value, 0)));
    return bits < 64 && c >= (1ull << bits) ? CANNOT : UNKNOWN_VALUE;
  }
  if (depth >= 4) return UNKNOWN_VALUE;
  int result = CANNOT;
  if (LLVMIsASelectInst(value)) {
    for (unsigned k = 1; k <= 2; ++k) {
      int r = may_be(LLVMGetOperand(value, k), c, depth + 1);
      result = r > result ? r : result;
    }
    return result;
  }
  if (LLVMIsAPHINode(value)) {
    for (unsigned k = 0, n = LLVMCountIncoming(value); k < n; ++k) {
      int r = may_be(LLVMGetIncomingValue(value, k), c, depth + 1);
      result = r > result ? r : result;
    }
    return result;
  }
  return UNKNOWN_VALUE;
}

/* Whether every function storing a value that may be `c` into field `tag`
 * of `record` stores into field `payload` too. */
static int tag_builds_payload(weir_llvm_ctx *ctx, LLVMTypeRef record, unsigned tag, unsigned payload,
                              unsigned long long c) {
  struct weir_llvm_tag_table *t = table(ctx);
  if (!t) return 0;
  int writers = 0;
  for (size_t k = 0; k < t->n; ++k) {
    const field_store *s = &t->v[k];
    if (s->record != record || s->field != tag) continue;
    int may = may_be(s->value, c, 0);
    if (may == CANNOT) continue;
    if (may == UNKNOWN_VALUE) return 0; /* a computed tag that may be c */
    int fills = 0;
    for (size_t j = 0; j < t->n && !fills; ++j)
      fills = t->v[j].record == record && t->v[j].field == payload && t->v[j].function == s->function;
    if (!fills) return 0;
    ++writers;
  }
  return writers > 0;
}

/* Whether `tested` is a load of another field of the payload's record
 * through the same base (also a phi of such loads: -O2 merges the loads
 * of two paths that test the tag alike); the field goes to *tag. */
static int loads_tag(LLVMValueRef tested, const field_ref *payload, field_ref *tag) {
  if (tested && LLVMIsAZExtInst(tested)) tested = LLVMGetOperand(tested, 0);
  if (tested && LLVMIsAPHINode(tested)) {
    unsigned n = LLVMCountIncoming(tested);
    for (unsigned k = 0; k < n; ++k) {
      LLVMValueRef in = LLVMGetIncomingValue(tested, k);
      if (LLVMIsAPHINode(in) || !loads_tag(in, payload, tag)) return 0;
    }
    return n > 0;
  }
  return tested && LLVMIsALoadInst(tested) && field_of(LLVMGetOperand(tested, 0), tag) &&
         tag->record == payload->record && tag->base == payload->base && tag->field != payload->field;
}

/* The tag values the path into `block` tested on field `tag` of `base`
 * (`switch (p->type) case c:` or `if (p->type == c)`), found by walking
 * single predecessors up to GUARD_STEPS blocks; 0 when none. */
static size_t guard_values(LLVMBasicBlockRef block, const field_ref *payload, field_ref *tag,
                           unsigned long long *values) {
  for (int step = 0; step < GUARD_STEPS; ++step) {
    LLVMBasicBlockRef pred = weir_llvm_only_pred(block);
    if (!pred) return 0;
    LLVMValueRef term = LLVMGetBasicBlockTerminator(pred);
    LLVMValueRef tested = NULL;
    size_t count = 0;
    if (LLVMIsASwitchInst(term) && LLVMGetSwitchDefaultDest(term) != block) {
      tested = LLVMGetOperand(term, 0);
      /* operands: condition, default, then (value, destination) pairs */
      for (unsigned k = 2; k + 1 < (unsigned)LLVMGetNumOperands(term) && count < CASES_MAX; k += 2)
        if (LLVMValueAsBasicBlock(LLVMGetOperand(term, k + 1)) == block)
          values[count++] = LLVMConstIntGetZExtValue(LLVMGetOperand(term, k));
    } else if (LLVMIsABranchInst(term) && LLVMIsConditional(term) && LLVMIsAICmpInst(LLVMGetCondition(term))) {
      LLVMValueRef cmp = LLVMGetCondition(term);
      LLVMIntPredicate p = LLVMGetICmpPredicate(cmp);
      LLVMBasicBlockRef taken = LLVMGetSuccessor(term, p == LLVMIntEQ ? 0 : 1);
      if ((p == LLVMIntEQ || p == LLVMIntNE) && taken == block && LLVMIsAConstantInt(LLVMGetOperand(cmp, 1))) {
        tested = LLVMGetOperand(cmp, 0);
        values[count++] = LLVMConstIntGetZExtValue(LLVMGetOperand(cmp, 1));
      }
    }
    if (count && loads_tag(tested, payload, tag)) return count;
    block = pred;
  }
  return 0;
}

int weir_llvm_tag_guarded_read(weir_llvm_ctx *ctx, LLVMValueRef inst, LLVMValueRef pointer) {
  field_ref payload, tag;
  if (!LLVMIsAInstruction(inst) || !field_of(pointer, &payload)) return 0;
  unsigned long long values[CASES_MAX];
  size_t n = guard_values(LLVMGetInstructionParent(inst), &payload, &tag, values);
  for (size_t k = 0; k < n; ++k)
    if (!tag_builds_payload(ctx, payload.record, tag.field, payload.field, values[k])) return 0;
  return n > 0;
}
