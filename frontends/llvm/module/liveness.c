/* Block-level liveness of the SSA values that carry a fact, so that their
 * facts die on the edge after which nothing reads them. Without it, the
 * identity flow carries every value fact that ever held to the end of its
 * function: (values) x (nodes) path edges on the long functions of real
 * programs (packet decoders, interpreters).
 *
 * Per function, classic backward liveness over blocks (bitsets): a phi's
 * incoming value is live at the end of the predecessor it comes from. On
 * the edge P -> S the facts of the values that may hold at the end of P
 * (live into P, or defined in P) but are not live into S are killed.
 * Values used only inside their own block already die at their last use
 * (emit.c); they are left out here. */
#include <stdlib.h>
#include <string.h>

#include "frontends/llvm/module/liveness.h"

typedef uint64_t word;
#define WORD_BITS 64

static size_t words_for(size_t bits) { return (bits + WORD_BITS - 1) / WORD_BITS; }
static void set_bit(word *row, uint32_t i) { row[i / WORD_BITS] |= (word)1 << (i % WORD_BITS); }
static int has_bit(const word *row, uint32_t i) { return (row[i / WORD_BITS] >> (i % WORD_BITS)) & 1; }

void weir_llvm_liveness_free(weir_llvm_liveness *lv) {
  free(lv->live_in);
  free(lv->defs);
  free(lv->values);
  weir_llvm_map_free(&lv->block_index);
  weir_llvm_map_free(&lv->value_index);
  memset(lv, 0, sizeof *lv);
}

/* A value tracked here: an instruction or argument of `fn` with a fact whose
 * uses are not all in its own defining block. */
static int tracked(const weir_llvm_ctx *ctx, LLVMValueRef v) {
  uint32_t vid = weir_llvm_vid(ctx, v);
  if (vid == WEIR_LLVM_NONE || !ctx->fact_a[vid]) return 0;
  if (LLVMIsAArgument(v)) return 1;
  LLVMBasicBlockRef home = LLVMGetInstructionParent(v);
  for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (!LLVMIsAInstruction(user) || LLVMIsAPHINode(user) || LLVMGetInstructionParent(user) != home) return 1;
  }
  return 0;
}

static uint32_t index_of(const weir_llvm_liveness *lv, LLVMValueRef v) {
  return weir_llvm_map_get(&lv->value_index, v);
}

/* Uses and phi uses of block b (into `use` and the per-predecessor rows). */
static void scan_block(weir_llvm_liveness *lv, LLVMBasicBlockRef b, word *use, word *def) {
  for (LLVMValueRef i = LLVMGetFirstInstruction(b); i; i = LLVMGetNextInstruction(i)) {
    if (!LLVMIsAPHINode(i)) {
      for (int k = 0; k < LLVMGetNumOperands(i); ++k) {
        uint32_t x = index_of(lv, LLVMGetOperand(i, k));
        if (x != WEIR_LLVM_NONE && !has_bit(def, x)) set_bit(use, x);
      }
    }
    uint32_t x = index_of(lv, i);
    if (x != WEIR_LLVM_NONE) set_bit(def, x);
  }
}

/* Values a phi of `succ` takes from `pred`. */
static void phi_uses(const weir_llvm_liveness *lv, LLVMBasicBlockRef pred, LLVMBasicBlockRef succ, word *row) {
  for (LLVMValueRef phi = LLVMGetFirstInstruction(succ); phi && LLVMIsAPHINode(phi); phi = LLVMGetNextInstruction(phi))
    for (unsigned k = 0; k < LLVMCountIncoming(phi); ++k)
      if (LLVMGetIncomingBlock(phi, k) == pred) {
        uint32_t x = index_of(lv, LLVMGetIncomingValue(phi, k));
        if (x != WEIR_LLVM_NONE) set_bit(row, x);
      }
}

static weir_status number(const weir_llvm_ctx *ctx, weir_llvm_liveness *lv, LLVMValueRef fn) {
  size_t values = 0, cap = 64;
  lv->values = malloc(cap * sizeof *lv->values);
  if (!lv->values) return weir_fail(WEIR_ERR_OUT_OF_MEMORY, "analyze: no memory for liveness. Fix: free memory");
  for (LLVMValueRef a = LLVMGetFirstParam(fn); a; a = LLVMGetNextParam(a))
    if (tracked(ctx, a)) {
      if (values == cap) {
        LLVMValueRef *grown = realloc(lv->values, (cap *= 2) * sizeof *grown);
        if (!grown) return weir_fail(WEIR_ERR_OUT_OF_MEMORY, "analyze: no memory for liveness. Fix: free memory");
        lv->values = grown;
      }
      weir_llvm_map_put(&lv->value_index, a, (uint32_t)values);
      lv->values[values++] = a;
    }
  uint32_t blocks = 0;
  for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(fn); b; b = LLVMGetNextBasicBlock(b)) {
    weir_llvm_map_put(&lv->block_index, b, blocks++);
    for (LLVMValueRef i = LLVMGetFirstInstruction(b); i; i = LLVMGetNextInstruction(i)) {
      if (!tracked(ctx, i)) continue;
      if (values == cap) {
        LLVMValueRef *grown = realloc(lv->values, (cap *= 2) * sizeof *grown);
        if (!grown) return weir_fail(WEIR_ERR_OUT_OF_MEMORY, "analyze: no memory for liveness. Fix: free memory");
        lv->values = grown;
      }
      weir_llvm_map_put(&lv->value_index, i, (uint32_t)values);
      lv->values[values++] = i;
    }
  }
  lv->value_count = (uint32_t)values;
  lv->block_count = blocks;
  if (lv->value_index.failed || lv->block_index.failed)
    return weir_fail(WEIR_ERR_OUT_OF_MEMORY, "analyze: no memory for liveness. Fix: free memory");
  return WEIR_OK;
}

weir_status weir_llvm_liveness_compute(const weir_llvm_ctx *ctx, LLVMValueRef fn, weir_llvm_liveness *lv) {
  memset(lv, 0, sizeof *lv);
  WEIR_TRY(number(ctx, lv, fn));
  if (lv->value_count == 0) return WEIR_OK;
  size_t w = words_for(lv->value_count), rows = lv->block_count;
  lv->words = w;
  lv->live_in = calloc(rows * w, sizeof *lv->live_in);
  lv->defs = calloc(rows * w, sizeof *lv->defs);
  word *use = calloc(rows * w, sizeof *use), *out = calloc(w, sizeof *out);
  LLVMBasicBlockRef *order = malloc(rows * sizeof *order);
  if (!lv->live_in || !lv->defs || !use || !out || !order) {
    free(use), free(out), free(order);
    return weir_fail(WEIR_ERR_OUT_OF_MEMORY, "analyze: no memory for liveness (%zu blocks). Fix: free memory", rows);
  }
  size_t k = 0;
  for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(fn); b; b = LLVMGetNextBasicBlock(b), ++k) {
    order[k] = b;
    scan_block(lv, b, use + k * w, lv->defs + k * w);
  }
  for (LLVMValueRef a = LLVMGetFirstParam(fn); a; a = LLVMGetNextParam(a)) { /* defined at entry */
    uint32_t x = index_of(lv, a);
    if (x != WEIR_LLVM_NONE) set_bit(lv->defs, x);
  }
  for (int changed = 1; changed;) {
    changed = 0;
    for (size_t r = rows; r-- > 0;) {
      memset(out, 0, w * sizeof *out);
      LLVMValueRef term = LLVMGetBasicBlockTerminator(order[r]);
      unsigned succs = term ? LLVMGetNumSuccessors(term) : 0;
      for (unsigned s = 0; s < succs; ++s) {
        LLVMBasicBlockRef succ = LLVMGetSuccessor(term, s);
        uint32_t si = weir_llvm_map_get(&lv->block_index, succ);
        for (size_t j = 0; j < w; ++j) out[j] |= lv->live_in[si * w + j];
        phi_uses(lv, order[r], succ, out);
      }
      word *in = lv->live_in + r * w;
      for (size_t j = 0; j < w; ++j) {
        word next = use[r * w + j] | (out[j] & ~lv->defs[r * w + j]);
        if (next != in[j]) in[j] = next, changed = 1;
      }
    }
  }
  free(use), free(out), free(order);
  return WEIR_OK;
}

void weir_llvm_liveness_edge(const weir_llvm_ctx *ctx, const weir_llvm_liveness *lv, LLVMBasicBlockRef pred,
                             LLVMBasicBlockRef succ, weir_llvm_flow *flow) {
  if (!lv->live_in || lv->value_count == 0) return;
  uint32_t p = weir_llvm_map_get(&lv->block_index, pred), s = weir_llvm_map_get(&lv->block_index, succ);
  if (p == WEIR_LLVM_NONE || s == WEIR_LLVM_NONE) return;
  size_t w = lv->words;
  const word *in_p = lv->live_in + p * w, *def_p = lv->defs + p * w, *in_s = lv->live_in + s * w;
  for (size_t j = 0; j < w; ++j) {
    word holding = in_p[j] | def_p[j], dead = holding & ~in_s[j];
    while (dead) {
      unsigned bit = (unsigned)__builtin_ctzll(dead);
      dead &= dead - 1;
      LLVMValueRef v = lv->values[j * WORD_BITS + bit];
      /* a phi of succ takes it on this edge: it is read there */
      int taken = 0;
      for (LLVMValueRef phi = LLVMGetFirstInstruction(succ); phi && LLVMIsAPHINode(phi) && !taken;
           phi = LLVMGetNextInstruction(phi))
        for (unsigned k = 0; k < LLVMCountIncoming(phi) && !taken; ++k)
          taken = LLVMGetIncomingBlock(phi, k) == pred && LLVMGetIncomingValue(phi, k) == v;
      if (!taken) weir_llvm_flow_kill(flow, ctx->fact_a[weir_llvm_vid(ctx, v)]);
    }
  }
}
