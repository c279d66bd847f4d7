/* Which integers may ever be a constant: a flow-insensitive pass over the
 * module before the facts are numbered. A value, location or return that
 * no constant can reach (the result of a library call, a parameter of a
 * callback, a field only ever filled by read()) is ⊥ wherever it holds, so
 * it gets no fact: its readers take ⊥ directly and its uses are not
 * recorded. On real programs most integers are of that kind (btmon -O0:
 * 10,343 facts after demand pruning without this pass, 6,383 with it),
 * and each fact is path edges on every node it lives through. */
#include <stdlib.h>

#include "frontends/llvm/analyses/const/const.h"

typedef struct marks {
  uint8_t *value;    /* [value_count] */
  uint8_t *location; /* [locations] */
  uint8_t *ret;      /* [fn_count] */
  int changed;
} marks;

static int is_int(LLVMValueRef v) {
  LLVMTypeRef t = LLVMTypeOf(v);
  return LLVMGetTypeKind(t) == LLVMIntegerTypeKind && LLVMGetIntTypeWidth(t) <= 64;
}

/* Whether `v` may be a constant: an integer constant, or a marked value. */
static int may(const weir_llvm_ctx *ctx, const marks *m, LLVMValueRef v) {
  int64_t c = 0;
  if (weir_llvm_const_int_value(v, &c)) return 1;
  uint32_t vid = weir_llvm_vid(ctx, v);
  return vid != WEIR_LLVM_NONE && m->value[vid];
}

static void mark(uint8_t *slot, marks *m) {
  if (*slot) return;
  *slot = 1;
  m->changed = 1;
}

static void mark_value(const weir_llvm_ctx *ctx, marks *m, LLVMValueRef v) {
  uint32_t vid = weir_llvm_vid(ctx, v);
  if (vid != WEIR_LLVM_NONE) mark(&m->value[vid], m);
}

/* What one instruction may make a constant. */
static void visit(weir_llvm_ctx *ctx, marks *m, LLVMValueRef i) {
  LLVMOpcode op = LLVMGetInstructionOpcode(i);
  LLVMValueRef x = NULL;
  int64_t a = 0, b = 0;
  const uint32_t *locs = NULL;
  if (LLVMIsAStoreInst(i)) {
    if (!is_int(LLVMGetOperand(i, 0)) || !may(ctx, m, LLVMGetOperand(i, 0))) return;
    size_t n = weir_llvm_pts(ctx, LLVMGetOperand(i, 1), &locs);
    for (size_t k = 0; k < n; ++k) mark(&m->location[locs[k]], m);
  } else if (!is_int(i)) {
    /* a call's int arguments are handled below */
  } else if (LLVMIsALoadInst(i) && !LLVMGetVolatile(i)) {
    size_t n = weir_llvm_pts(ctx, LLVMGetOperand(i, 0), &locs);
    for (size_t k = 0; k < n; ++k)
      if (m->location[locs[k]]) mark_value(ctx, m, i);
  } else if (weir_llvm_const_affine(i, &x, &a, &b)) {
    if (may(ctx, m, x)) mark_value(ctx, m, i);
  } else if (op == LLVMSExt || op == LLVMFreeze ||
             (op == LLVMZExt && LLVMGetIntTypeWidth(LLVMTypeOf(LLVMGetOperand(i, 0))) == 1)) {
    if (may(ctx, m, LLVMGetOperand(i, 0))) mark_value(ctx, m, i);
  } else if (LLVMIsASelectInst(i)) {
    if (may(ctx, m, LLVMGetOperand(i, 1)) || may(ctx, m, LLVMGetOperand(i, 2))) mark_value(ctx, m, i);
  } else if (LLVMIsAPHINode(i)) {
    for (unsigned k = 0; k < LLVMCountIncoming(i); ++k)
      if (may(ctx, m, LLVMGetIncomingValue(i, k))) mark_value(ctx, m, i);
  }
  if (LLVMIsAReturnInst(i) && LLVMGetNumOperands(i) == 1 && is_int(LLVMGetOperand(i, 0)) &&
      may(ctx, m, LLVMGetOperand(i, 0))) {
    uint32_t proc = weir_llvm_map_get(&ctx->fn_index, LLVMGetBasicBlockParent(LLVMGetInstructionParent(i)));
    if (proc != WEIR_LLVM_NONE) mark(&m->ret[proc], m);
  }
  if (!LLVMIsACallInst(i) || weir_llvm_classify_call(ctx, i) != WEIR_LLVM_CALL_NODE) return;
  const uint32_t *procs = NULL;
  size_t n = weir_llvm_call_procs(ctx, i, &procs);
  uint32_t args = LLVMGetNumArgOperands(i);
  for (size_t k = 0; k < n; ++k) {
    if (is_int(i) && m->ret[procs[k]]) mark_value(ctx, m, i);
    uint32_t j = 0;
    for (LLVMValueRef p = LLVMGetFirstParam(ctx->fns[procs[k]].fn); p && j < args; p = LLVMGetNextParam(p), ++j)
      if (is_int(p) && may(ctx, m, LLVMGetOperand(i, j))) mark_value(ctx, m, p);
  }
}

/* Globals with a constant initialiser start constant in a program. */
static void mark_initial(weir_llvm_ctx *ctx, marks *m, uint32_t locations) {
  for (uint32_t l = 0; l < locations; ++l) {
    weir_llvm_location_info info = weir_llvm_memory_location(ctx->memory, l);
    const weir_llvm_object *o = weir_llvm_memory_object(ctx->memory, info.object);
    if (o->kind == WEIR_LLVM_OBJECT_GLOBAL && weir_llvm_const_initial(ctx, l, NULL)) m->location[l] = 1;
  }
}

int weir_llvm_const_maybe(weir_llvm_ctx *ctx, uint8_t **value, uint8_t **location, uint8_t **ret) {
  uint32_t locations = weir_llvm_memory_location_count(ctx->memory);
  marks m = {calloc(ctx->value_count + 1, 1), calloc(locations + 1, 1), calloc(ctx->fn_count + 1, 1), 1};
  if (!m.value || !m.location || !m.ret) {
    free(m.value), free(m.location), free(m.ret);
    return 0;
  }
  if (ctx->cst->has_main) mark_initial(ctx, &m, locations);
  /* Until nothing changes: each round marks at least one more slot. */
  while (m.changed) {
    m.changed = 0;
    for (uint32_t p = 0; p < ctx->fn_count; ++p)
      for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(ctx->fns[p].fn); b; b = LLVMGetNextBasicBlock(b))
        for (LLVMValueRef i = LLVMGetFirstInstruction(b); i; i = LLVMGetNextInstruction(i)) visit(ctx, &m, i);
  }
  *value = m.value, *location = m.location, *ret = m.ret;
  return 1;
}
