/* The edge functions of const (linear constant propagation, weir/ide.h's
 * WEIR_IDE_LINEAR family): what an instruction does to an integer as a
 * function λx.a·x+b, and the problem's table of distinct functions (an
 * open-addressing hash: a program has thousands of distinct constants). */
#include <stdlib.h>
#include <string.h>

#include "frontends/llvm/analyses/const/const.h"

weir_ide_fn weir_llvm_const_bottom(void) {
  weir_ide_fn f = weir_ide_fn_top(WEIR_IDE_LINEAR);
  f.u.linear.kind = WEIR_IDE_LIN_BOT;
  return f;
}

/* Whether the arithmetic of `inst` (width `bits`) cannot leave the signed
 * range of its type: 64-bit arithmetic wraps as the family does; a
 * narrower one must carry nsw (signed overflow is undefined in C), so the
 * result is the sign-extended value every value of const is kept as. */
static int exact_width(LLVMValueRef inst, unsigned bits) {
  if (bits == 64) return 1;
  /* LLVM 14's C API has no LLVMGetNSW: the flag is read from the
   * instruction's text (`%x = add nsw i32 %a, 1`; a name has no blanks). */
  char *text = LLVMPrintValueToString(inst);
  const char *eq = text ? strstr(text, " = ") : NULL;
  const char *flag = eq ? strstr(eq, " nsw ") : NULL;
  const char *type = eq ? strstr(eq, " i") : NULL;
  int nsw = flag && type && flag < type;
  LLVMDisposeMessage(text);
  return nsw;
}

int weir_llvm_const_int_value(LLVMValueRef v, int64_t *out) {
  if (!v || !LLVMIsAConstantInt(v)) return 0;
  unsigned bits = LLVMGetIntTypeWidth(LLVMTypeOf(v));
  if (bits > 64) return 0;
  *out = bits == 1 ? (int64_t)LLVMConstIntGetZExtValue(v) : LLVMConstIntGetSExtValue(v);
  return 1;
}

int weir_llvm_const_affine(LLVMValueRef inst, LLVMValueRef *operand, int64_t *a, int64_t *b) {
  LLVMOpcode op = LLVMGetInstructionOpcode(inst);
  if (op != LLVMAdd && op != LLVMSub && op != LLVMMul && op != LLVMShl) return 0;
  unsigned bits = LLVMGetIntTypeWidth(LLVMTypeOf(inst));
  if (bits > 64 || !exact_width(inst, bits)) return 0;
  LLVMValueRef x = LLVMGetOperand(inst, 0), y = LLVMGetOperand(inst, 1);
  int64_t c = 0;
  int right = weir_llvm_const_int_value(y, &c); /* x op c */
  if (!right && !(op == LLVMAdd || op == LLVMMul || op == LLVMSub)) return 0;
  if (!right) {
    if (!weir_llvm_const_int_value(x, &c)) return 0; /* c op y */
    *operand = y;
    if (op == LLVMAdd) *a = 1, *b = c;
    else if (op == LLVMMul) *a = c, *b = 0;
    else *a = -1, *b = c; /* c - y */
    return 1;
  }
  *operand = x;
  if (op == LLVMAdd) *a = 1, *b = c;
  else if (op == LLVMSub) *a = 1, *b = (int64_t)(0 - (uint64_t)c);
  else if (op == LLVMMul) *a = c, *b = 0;
  else if (c >= 0 && c < 63) *a = (int64_t)((uint64_t)1 << c), *b = 0;
  else return 0;
  return 1;
}

/* ---- the table ---------------------------------------------------------- */

static uint64_t fn_hash(const weir_ide_fn *f) {
  uint64_t h = f->u.linear.kind * 0x9E3779B97F4A7C15ull;
  h ^= (uint64_t)f->u.linear.a * 0xC2B2AE3D27D4EB4Full;
  h ^= (uint64_t)f->u.linear.b * 0x165667B19E3779F9ull;
  return h ^ (h >> 29);
}

static int grow_slots(weir_llvm_const_state *s) {
  uint32_t cap = s->slot_cap ? s->slot_cap * 2 : 256;
  uint32_t *slots = malloc(cap * sizeof *slots);
  if (!slots) return 0;
  for (uint32_t k = 0; k < cap; ++k) slots[k] = UINT32_MAX;
  for (uint32_t k = 0; k < s->slot_cap; ++k) {
    uint32_t i = s->slots[k];
    if (i == UINT32_MAX) continue;
    uint32_t at = (uint32_t)(fn_hash(&s->fns[i]) & (cap - 1));
    while (slots[at] != UINT32_MAX) at = (at + 1) & (cap - 1);
    slots[at] = i;
  }
  free(s->slots);
  s->slots = slots;
  s->slot_cap = cap;
  return 1;
}

uint32_t weir_llvm_const_intern(weir_llvm_ctx *ctx, const weir_ide_fn *fn) {
  weir_llvm_const_state *s = ctx->cst;
  weir_llvm_problem *out = ctx->out;
  if (!s || ((out->ts_fn_count + 1) * 2 > s->slot_cap && !grow_slots(s))) return ctx->failed = 1, 0;
  uint32_t at = (uint32_t)(fn_hash(fn) & (s->slot_cap - 1));
  for (; s->slots[at] != UINT32_MAX; at = (at + 1) & (s->slot_cap - 1))
    if (weir_ide_fn_equal(&out->ts_fns[s->slots[at]], fn)) return s->slots[at];
  if (out->ts_fn_count == s->fn_cap) {
    uint32_t cap = s->fn_cap ? s->fn_cap * 2 : 64;
    weir_ide_fn *grown = realloc(out->ts_fns, cap * sizeof *grown);
    if (!grown) return ctx->failed = 1, 0;
    out->ts_fns = grown;
    s->fn_cap = cap;
  }
  s->fns = out->ts_fns;
  out->ts_fns[out->ts_fn_count] = *fn;
  s->slots[at] = out->ts_fn_count;
  return out->ts_fn_count++;
}

/* A pair (from -> to) carrying `fn`; a pair already given a function in
 * this flow gets the merge of both (a select of one value twice, a store
 * whose span covers a location it also targets). */
void weir_llvm_const_pair(weir_llvm_ctx *ctx, weir_llvm_flow *flow, uint32_t from, uint32_t to,
                          const weir_ide_fn *fn) {
  if (!to || (from == 0 && to == 0)) return;
  if (from != to) {
    if (from == 0) weir_llvm_flow_gen(flow, to);
    else weir_llvm_flow_pair(flow, from, to);
  } else if (!flow->identity) {
    weir_llvm_flow_pair(flow, from, to);
  }
  for (size_t k = 0; k + 2 < flow->fns.n; k += 3) {
    if (flow->fns.v[k] != from || flow->fns.v[k + 1] != to) continue;
    weir_ide_fn joined = weir_ide_fn_join(&ctx->out->ts_fns[flow->fns.v[k + 2]], fn);
    flow->fns.v[k + 2] = weir_llvm_const_intern(ctx, &joined);
    return;
  }
  /* Identities are listed too (function 0), so that a second function
   * for the pair merges with them; the builder drops listed identities. */
  weir_llvm_vec_push(&flow->fns, from);
  weir_llvm_vec_push(&flow->fns, to);
  weir_llvm_vec_push(&flow->fns, weir_llvm_const_intern(ctx, fn));
}
