/* Element ranges of array accesses (uninit).
 *
 *     int a[10];
 *     for (i = 0; i < 5; i++) a[i] = i;
 *     for (i = 0; i < 10; i++) use(a[i]);     <- a[5..9] were never written
 *
 * The memory model keeps one location per array cell (per field of a
 * struct element), so a store to one element is a store to "the array".
 * This pass gives the accesses whose elements are known a range, before
 * the problem is built:
 *
 * - the address is base + constant + index * stride over GEPs (struct
 *   fields and constant indices in the constant, at most one variable
 *   index), the base is the object's own alloca or allocation call (so the
 *   range is relative to its start), and the pointer has that one target;
 * - the index is a constant, or an induction variable of a loop whose
 *   bounds are constants: a phi in the loop's header that starts at a
 *   constant and steps by one (+1 or -1), the loop has one exit, a
 *   comparison of the variable (or its next value) with a constant, and
 *   the access runs on every iteration (every cycle through the header
 *   passes its block); `a[i + c]` shifts the range.
 *
 * A store with a range that covers the whole object (its size known: an
 * alloca, or an allocator called with a constant size) or any store
 * without a range is a write of the whole cell, as before. A store with a
 * range that covers less is "partial": it does not clear U of the cell but
 * clears a second fact, U_all ("no element written yet"), made for the
 * cells that have partial stores and a read beyond them. A read with a
 * range is checked against U when the union of the partial stores' byte
 * spans in its cell (anywhere in the module) does not cover it, against
 * U_all otherwise; a read without a range (a pointer that is
 * not the object's own, a library call's read, an index not bounded by
 * constants) is checked against U_all: one written element counts for
 * the whole array, today's rule. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Target.h>

#include "frontends/llvm/internal.h"

#define RANGE_BLOCKS_MAX 4096      /* larger functions: no ranges from loops */
#define RANGE_ELEMENTS_MAX (1 << 24)

enum { ACCESS_WHOLE = 1, ACCESS_PARTIAL = 2, ACCESS_READ = 3 };

typedef struct access_range {
  uint32_t location;
  uint8_t kind;
  uint8_t covered;        /* reads: the partial stores of the cell cover it */
  uint64_t stride, phase; /* bytes: the element's size, the offset in it */
  uint64_t width;         /* bytes accessed per element (stride: all of it) */
  int64_t lo, hi;         /* element indices [lo, hi) */
  int64_t elements;       /* of the object at this stride, 0: unknown */
  int64_t missing;        /* reads not covered: the first element no partial store writes */
} access_range;

typedef struct span {
  int64_t lo, hi; /* bytes [lo, hi) from the object's start */
} span;

#define SPANS_MAX 4096 /* elements of a strided access compared one by one */

struct weir_llvm_ranges {
  weir_llvm_map of;        /* load or store -> index into `records` */
  access_range *records;
  size_t count, cap;
  uint32_t *twin;          /* [locations] U_all fact, 0: the cell has no partial store */
  int failed;
};

/* ---- the control-flow graph of one function, loops by header ----------- */
typedef struct loop_info {
  uint8_t *in;             /* [blocks] */
  int ok;                  /* one exit, by a conditional branch on a compare */
  uint32_t exit_block;
  LLVMValueRef compare;
  int continue_if_true;
} loop_info;

typedef struct fn_cfg {
  LLVMBasicBlockRef *blocks;
  uint32_t count;
  weir_llvm_map index;
  uint32_t *pred_first, *preds; /* CSR */
  uint32_t *stack;
  uint8_t *mark;
  weir_llvm_map loop_of;        /* header -> index into loops */
  loop_info *loops;
  size_t loop_count, loop_cap;
  int opened, usable, failed;
} fn_cfg;

static uint32_t block_id(const fn_cfg *g, LLVMBasicBlockRef b) { return weir_llvm_map_get(&g->index, b); }

static unsigned succ_count(const fn_cfg *g, uint32_t b) {
  LLVMValueRef term = LLVMGetBasicBlockTerminator(g->blocks[b]);
  return term ? LLVMGetNumSuccessors(term) : 0;
}

static uint32_t succ(const fn_cfg *g, uint32_t b, unsigned k) {
  return block_id(g, LLVMGetSuccessor(LLVMGetBasicBlockTerminator(g->blocks[b]), k));
}

static int cfg_open(fn_cfg *g, LLVMValueRef fn) {
  g->opened = 1;
  g->count = LLVMCountBasicBlocks(fn);
  if (g->count == 0 || g->count > RANGE_BLOCKS_MAX) return 0;
  g->blocks = calloc(g->count, sizeof *g->blocks);
  g->pred_first = calloc(g->count + 1, sizeof *g->pred_first);
  g->stack = calloc(g->count, sizeof *g->stack);
  g->mark = calloc(g->count, 1);
  if (!g->blocks || !g->pred_first || !g->stack || !g->mark) return g->failed = 1, 0;
  LLVMGetBasicBlocks(fn, g->blocks);
  for (uint32_t b = 0; b < g->count; ++b) weir_llvm_map_put(&g->index, g->blocks[b], b);
  if (g->index.failed) return g->failed = 1, 0;
  size_t edges = 0;
  for (uint32_t b = 0; b < g->count; ++b)
    for (unsigned k = 0; k < succ_count(g, b); ++k) {
      uint32_t s = succ(g, b, k);
      if (s != WEIR_LLVM_NONE) g->pred_first[s + 1]++, edges++;
    }
  for (uint32_t b = 0; b < g->count; ++b) g->pred_first[b + 1] += g->pred_first[b];
  g->preds = calloc(edges ? edges : 1, sizeof *g->preds);
  uint32_t *fill = calloc(g->count, sizeof *fill);
  if (!g->preds || !fill) return free(fill), g->failed = 1, 0;
  for (uint32_t b = 0; b < g->count; ++b)
    for (unsigned k = 0; k < succ_count(g, b); ++k) {
      uint32_t s = succ(g, b, k);
      if (s != WEIR_LLVM_NONE) g->preds[g->pred_first[s] + fill[s]++] = b;
    }
  free(fill);
  return g->usable = 1;
}

static void cfg_close(fn_cfg *g) {
  for (size_t k = 0; k < g->loop_count; ++k) free(g->loops[k].in);
  free(g->loops);
  weir_llvm_map_free(&g->loop_of);
  weir_llvm_map_free(&g->index);
  free(g->blocks);
  free(g->pred_first);
  free(g->preds);
  free(g->stack);
  free(g->mark);
  memset(g, 0, sizeof *g);
}

/* Marks `bit` on what `from` reaches (forward) or what reaches it, never
 * entering `avoid` (NONE: no block avoided). */
static void walk(fn_cfg *g, uint32_t from, uint8_t bit, int backward, uint32_t avoid) {
  size_t top = 0;
  g->mark[from] |= bit;
  g->stack[top++] = from;
  while (top) {
    uint32_t b = g->stack[--top];
    unsigned n = backward ? g->pred_first[b + 1] - g->pred_first[b] : succ_count(g, b);
    for (unsigned k = 0; k < n; ++k) {
      uint32_t s = backward ? g->preds[g->pred_first[b] + k] : succ(g, b, k);
      if (s == WEIR_LLVM_NONE || s == avoid || (g->mark[s] & bit)) continue;
      g->mark[s] |= bit;
      g->stack[top++] = s;
    }
  }
}

/* The natural loop whose header is `h`: its latches are the predecessors
 * that h dominates (the entry block does not reach them without passing
 * h), its blocks h and those that reach a latch without passing h (an
 * inner loop's blocks only, not the loop around it); and its one exit. */
static void loop_find(fn_cfg *g, uint32_t h, loop_info *l) {
  l->in = calloc(g->count, 1);
  if (!l->in) {
    g->failed = 1;
    return;
  }
  memset(g->mark, 0, g->count);
  if (h != 0) walk(g, 0, 1, 0, h); /* bit 1: reached from the entry without h */
  int latches = 0;
  for (uint32_t k = g->pred_first[h]; k < g->pred_first[h + 1]; ++k) {
    uint32_t p = g->preds[k];
    if (g->mark[p] & 1) continue; /* a way in, not a way back */
    latches++;
    if (p != h && !(g->mark[p] & 2)) walk(g, p, 2, 1, h);
  }
  if (!latches) return;
  for (uint32_t b = 0; b < g->count; ++b) l->in[b] = b == h || (g->mark[b] & 2);
  uint32_t exits = 0;
  for (uint32_t b = 0; b < g->count; ++b) {
    if (!l->in[b]) continue;
    for (unsigned k = 0; k < succ_count(g, b); ++k) {
      uint32_t s = succ(g, b, k);
      if (s == WEIR_LLVM_NONE || !l->in[s]) {
        exits++;
        l->exit_block = b;
      }
    }
  }
  if (exits != 1) return;
  LLVMValueRef term = LLVMGetBasicBlockTerminator(g->blocks[l->exit_block]);
  if (!LLVMIsABranchInst(term) || !LLVMIsConditional(term) || !LLVMIsAICmpInst(LLVMGetCondition(term))) return;
  uint32_t s0 = block_id(g, LLVMGetSuccessor(term, 0));
  l->compare = LLVMGetCondition(term);
  l->continue_if_true = s0 != WEIR_LLVM_NONE && l->in[s0];
  l->ok = 1;
}

static const loop_info *loop_of(fn_cfg *g, uint32_t h) {
  uint32_t k = weir_llvm_map_get(&g->loop_of, g->blocks[h]);
  if (k != WEIR_LLVM_NONE) return &g->loops[k];
  if (g->loop_count == g->loop_cap) {
    size_t cap = g->loop_cap ? 2 * g->loop_cap : 8;
    loop_info *grown = realloc(g->loops, cap * sizeof *grown);
    if (!grown) return g->failed = 1, NULL;
    g->loops = grown, g->loop_cap = cap;
  }
  loop_info *l = &g->loops[g->loop_count];
  memset(l, 0, sizeof *l);
  loop_find(g, h, l);
  weir_llvm_map_put(&g->loop_of, g->blocks[h], (uint32_t)g->loop_count++);
  if (g->loop_of.failed) g->failed = 1;
  return l;
}

/* ---- the values an index takes ------------------------------------------ */
static LLVMValueRef strip_extensions(LLVMValueRef v) {
  while (v && (LLVMIsASExtInst(v) || LLVMIsAZExtInst(v))) v = LLVMGetOperand(v, 0);
  return v;
}

/* Constants beyond +-2^40 take no part: every sum and product of the
 * pass then stays far inside int64_t. */
#define RANGE_CONSTANT_MAX ((int64_t)1 << 40)

static int constant_int(LLVMValueRef v, int64_t *out) {
  if (!v || !LLVMIsAConstantInt(v) || LLVMGetIntTypeWidth(LLVMTypeOf(v)) > 64) return 0;
  *out = LLVMConstIntGetSExtValue(v);
  return *out >= -RANGE_CONSTANT_MAX && *out <= RANGE_CONSTANT_MAX;
}

/* `next` = `phi` + step, step +1 or -1. */
static int step_of(LLVMValueRef next, LLVMValueRef phi, int64_t *step) {
  if (!LLVMIsAInstruction(next)) return 0;
  LLVMOpcode op = LLVMGetInstructionOpcode(next);
  if (op != LLVMAdd && op != LLVMSub) return 0;
  int64_t c = 0;
  LLVMValueRef a = LLVMGetOperand(next, 0), b = LLVMGetOperand(next, 1);
  if (a == phi && constant_int(b, &c)) *step = op == LLVMAdd ? c : -c;
  else if (op == LLVMAdd && b == phi && constant_int(a, &c)) *step = c;
  else return 0;
  return *step == 1 || *step == -1;
}

static LLVMIntPredicate swapped(LLVMIntPredicate p) {
  switch (p) {
  case LLVMIntSLT: return LLVMIntSGT;
  case LLVMIntSGT: return LLVMIntSLT;
  case LLVMIntSLE: return LLVMIntSGE;
  case LLVMIntSGE: return LLVMIntSLE;
  case LLVMIntULT: return LLVMIntUGT;
  case LLVMIntUGT: return LLVMIntULT;
  case LLVMIntULE: return LLVMIntUGE;
  case LLVMIntUGE: return LLVMIntULE;
  default: return p;
  }
}

static LLVMIntPredicate inverse(LLVMIntPredicate p) {
  switch (p) {
  case LLVMIntEQ: return LLVMIntNE;
  case LLVMIntNE: return LLVMIntEQ;
  case LLVMIntSLT: return LLVMIntSGE;
  case LLVMIntSGE: return LLVMIntSLT;
  case LLVMIntSGT: return LLVMIntSLE;
  case LLVMIntSLE: return LLVMIntSGT;
  case LLVMIntULT: return LLVMIntUGE;
  case LLVMIntUGE: return LLVMIntULT;
  case LLVMIntUGT: return LLVMIntULE;
  default: return LLVMIntUGT; /* ULE */
  }
}

static int is_unsigned(LLVMIntPredicate p) {
  return p == LLVMIntULT || p == LLVMIntULE || p == LLVMIntUGT || p == LLVMIntUGE;
}

/* [lo, hi) of a variable that starts at `start`, steps by `step` and goes
 * on while `pred bound` holds of it (or of its next value: the same set). */
static int bounded(int64_t start, int64_t step, LLVMIntPredicate pred, int64_t bound, int64_t *lo, int64_t *hi) {
  if (is_unsigned(pred) && (start < 0 || bound < 0)) return 0;
  if (step == 1) {
    *lo = start;
    if (pred == LLVMIntSLT || pred == LLVMIntULT || (pred == LLVMIntNE && start <= bound)) *hi = bound;
    else if (pred == LLVMIntSLE || pred == LLVMIntULE) *hi = bound + 1;
    else return 0;
  } else {
    *hi = start + 1;
    if (pred == LLVMIntSGT || pred == LLVMIntUGT || (pred == LLVMIntNE && start >= bound)) *lo = bound + 1;
    else if (pred == LLVMIntSGE || pred == LLVMIntUGE) *lo = bound;
    else return 0;
  }
  return *lo < *hi && *hi - *lo <= RANGE_ELEMENTS_MAX;
}

/* Whether every cycle through header `h` passes block `x`: with x taken
 * out, h's successors inside the loop do not lead back to h. */
static int every_iteration(fn_cfg *g, const loop_info *l, uint32_t h, uint32_t x) {
  if (x == h) return 1;
  for (uint32_t b = 0; b < g->count; ++b) g->mark[b] = !l->in[b] || b == x; /* never entered */
  for (unsigned k = 0; k < succ_count(g, h); ++k) {
    uint32_t s = succ(g, h, k);
    if (s != WEIR_LLVM_NONE && !g->mark[s]) walk(g, s, 1, 0, x);
  }
  return !g->mark[h];
}

/* The values of the phi `v` when block `x` runs: an induction variable. */
static int induction_range(fn_cfg *g, LLVMValueRef v, uint32_t x, int64_t *lo, int64_t *hi) {
  if (!g->usable || LLVMCountIncoming(v) != 2) return 0;
  uint32_t h = block_id(g, LLVMGetInstructionParent(v));
  if (h == WEIR_LLVM_NONE) return 0;
  const loop_info *l = loop_of(g, h);
  if (!l || !l->ok || !l->in[x]) return 0;
  int64_t start = 0, step = 0;
  LLVMValueRef next = NULL;
  for (unsigned k = 0; k < 2; ++k) {
    uint32_t from = block_id(g, LLVMGetIncomingBlock(v, k));
    if (from == WEIR_LLVM_NONE) return 0;
    if (l->in[from]) next = LLVMGetIncomingValue(v, k);
    else if (!constant_int(LLVMGetIncomingValue(v, k), &start)) return 0;
  }
  if (!next || !step_of(next, v, &step)) return 0;
  LLVMValueRef a = strip_extensions(LLVMGetOperand(l->compare, 0)), b = strip_extensions(LLVMGetOperand(l->compare, 1));
  LLVMIntPredicate pred = LLVMGetICmpPredicate(l->compare);
  int64_t bound = 0;
  if (constant_int(a, &bound)) {
    LLVMValueRef t = a;
    a = b, b = t, pred = swapped(pred);
  } else if (!constant_int(b, &bound)) {
    return 0;
  }
  if (!l->continue_if_true) pred = inverse(pred);
  if (a == v) {
    /* tested before the body: in the header, the access after it */
    if (l->exit_block != h || x == h) return 0;
  } else if (a == next) {
    /* tested after the body: on the latch */
    int latch = 0;
    for (unsigned k = 0; k < succ_count(g, l->exit_block); ++k) latch |= succ(g, l->exit_block, k) == h;
    if (!latch) return 0;
  } else {
    return 0;
  }
  return every_iteration(g, l, h, x) && bounded(start, step, pred, bound, lo, hi);
}

static int index_range(fn_cfg *g, LLVMValueRef function, LLVMValueRef index, LLVMBasicBlockRef bb, int64_t *lo,
                       int64_t *hi) {
  index = strip_extensions(index);
  int64_t c = 0;
  if (constant_int(index, &c)) return *lo = c, *hi = c + 1, 1;
  int64_t shift = 0;
  if (LLVMIsAInstruction(index) && LLVMGetInstructionOpcode(index) == LLVMAdd) {
    LLVMValueRef a = LLVMGetOperand(index, 0), b = LLVMGetOperand(index, 1);
    if (constant_int(b, &shift)) index = strip_extensions(a);
    else if (constant_int(a, &shift)) index = strip_extensions(b);
    else return 0;
  }
  if (!LLVMIsAPHINode(index)) return 0;
  if (!g->opened) cfg_open(g, function); /* only functions with such an index pay for it */
  uint32_t x = g->usable ? block_id(g, bb) : WEIR_LLVM_NONE;
  if (x == WEIR_LLVM_NONE || !induction_range(g, index, x, lo, hi)) return 0;
  *lo += shift, *hi += shift;
  return 1;
}

/* ---- the address of an access ------------------------------------------- */
typedef struct address {
  int64_t constant;                /* bytes */
  uint64_t stride, inner_stride;   /* the variable index's, the access-side GEP's innermost */
  int variable;
  int64_t lo, hi;
} address;

/* One GEP's contribution. */
static int gep_walk(LLVMTargetDataRef dl, fn_cfg *g, LLVMValueRef function, LLVMValueRef gep, LLVMBasicBlockRef bb,
                    int first, address *a) {
  LLVMTypeRef type = LLVMGetGEPSourceElementType(gep);
  unsigned indices = LLVMGetNumIndices(gep);
  for (unsigned k = 0; k < indices; ++k) {
    LLVMValueRef index = LLVMGetOperand(gep, k + 1);
    int64_t c = 0;
    if (k > 0 && LLVMGetTypeKind(type) == LLVMStructTypeKind) {
      if (!constant_int(index, &c) || c < 0 || (unsigned)c >= LLVMCountStructElementTypes(type)) return 0;
      a->constant += (int64_t)LLVMOffsetOfElement(dl, type, (unsigned)c);
      if (a->constant > RANGE_CONSTANT_MAX) return 0;
      type = LLVMStructGetTypeAtIndex(type, (unsigned)c);
      continue;
    }
    if (k > 0) {
      if (LLVMGetTypeKind(type) != LLVMArrayTypeKind) return 0;
      type = LLVMGetElementType(type);
    }
    if (!LLVMTypeIsSized(type)) return 0;
    uint64_t stride = LLVMABISizeOfType(dl, type);
    if (stride == 0 || stride > (1u << 20)) return 0; /* elements of a megabyte or more: no ranges */
    if (first) a->inner_stride = stride;
    if (constant_int(index, &c)) {
      a->constant += c * (int64_t)stride;
      if (a->constant < -RANGE_CONSTANT_MAX || a->constant > RANGE_CONSTANT_MAX) return 0;
    } else {
      if (a->variable || !index_range(g, function, index, bb, &a->lo, &a->hi)) return 0;
      a->variable = 1, a->stride = stride;
    }
  }
  return 1;
}

/* The object's size in bytes when the site says it: an alloca (times its
 * constant count), an allocator called with one constant argument. */
static uint64_t site_size(LLVMTargetDataRef dl, LLVMValueRef site) {
  int64_t n = 0;
  if (LLVMIsAAllocaInst(site)) {
    LLVMTypeRef type = LLVMGetAllocatedType(site);
    if (!LLVMTypeIsSized(type) || !constant_int(LLVMGetOperand(site, 0), &n) || n <= 0) return 0;
    uint64_t size = LLVMABISizeOfType(dl, type);
    return size <= ((uint64_t)1 << 20) ? size * (uint64_t)n : 0; /* at most 2^60 */
  }
  if (LLVMIsACallInst(site) && LLVMGetNumArgOperands(site) == 1 && constant_int(LLVMGetOperand(site, 0), &n))
    return n > 0 ? (uint64_t)n : 0;
  return 0;
}

/* The range of the access `inst` (a load or store of `size` bytes through
 * `pointer`) in block `x`, or 0. */
static int access_of(weir_llvm_ctx *ctx, fn_cfg *g, LLVMValueRef function, LLVMValueRef pointer, uint64_t size,
                     LLVMBasicBlockRef bb, access_range *r) {
  const uint32_t *locs = NULL;
  if (weir_llvm_pts(ctx, pointer, &locs) != 1 || !ctx->loc_fact[locs[0]]) return 0;
  weir_llvm_location_info info = weir_llvm_memory_location(ctx->memory, locs[0]);
  const weir_llvm_object *o = weir_llvm_memory_object(ctx->memory, info.object);
  if ((o->kind != WEIR_LLVM_OBJECT_STACK && o->kind != WEIR_LLVM_OBJECT_HEAP) || !o->site) return 0;
  LLVMTargetDataRef dl = LLVMGetModuleDataLayout(ctx->module);
  address a = {0};
  int walked = 0;
  LLVMValueRef p = weir_llvm_strip_bitcasts(pointer);
  for (int depth = 0; depth < 8 && p && LLVMIsAGetElementPtrInst(p); ++depth) {
    if (!gep_walk(dl, g, function, p, bb, depth == 0, &a)) return 0;
    walked = 1;
    p = weir_llvm_strip_bitcasts(LLVMGetOperand(p, 0));
  }
  if (p != o->site) return 0; /* not relative to the object's start */
  /* no GEP: element 0 of what the access reads or writes */
  uint64_t stride = a.variable ? a.stride : walked ? a.inner_stride : size;
  if (!stride || a.constant < 0) return 0;
  int64_t first = a.constant / (int64_t)stride;
  uint64_t phase = (uint64_t)a.constant % stride;
  int64_t extra = 0; /* a vector store covers several elements */
  if (size > stride - phase) {
    if (phase != 0 || size % stride != 0) return 0;
    extra = (int64_t)(size / stride) - 1;
  }
  r->location = locs[0];
  r->stride = stride, r->phase = phase;
  r->width = extra ? stride : size;
  r->lo = (a.variable ? a.lo : 0) + first;
  r->hi = (a.variable ? a.hi : 1) + first + extra;
  uint64_t bytes = site_size(dl, o->site);
  r->elements = bytes && bytes % stride == 0 ? (int64_t)(bytes / stride) : 0;
  return r->lo >= 0;
}

/* ---- the pass ---------------------------------------------------------- */
static void record(weir_llvm_ranges *rs, LLVMValueRef inst, const access_range *r) {
  if (rs->count == rs->cap) {
    size_t cap = rs->cap ? 2 * rs->cap : 64;
    access_range *grown = realloc(rs->records, cap * sizeof *grown);
    if (!grown) {
      rs->failed = 1;
      return;
    }
    rs->records = grown, rs->cap = cap;
  }
  rs->records[rs->count] = *r;
  weir_llvm_map_put(&rs->of, inst, (uint32_t)rs->count++);
  if (rs->of.failed) rs->failed = 1;
}

static void scan_function(weir_llvm_ctx *ctx, weir_llvm_ranges *rs, LLVMValueRef fn) {
  fn_cfg g = {0};
  LLVMTargetDataRef dl = LLVMGetModuleDataLayout(ctx->module);
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb)) {
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
      int is_store = LLVMIsAStoreInst(i) != NULL;
      if (!is_store && !LLVMIsALoadInst(i)) continue;
      LLVMTypeRef type = LLVMTypeOf(is_store ? LLVMGetOperand(i, 0) : i);
      if (!LLVMTypeIsSized(type)) continue;
      access_range r = {0};
      if (!access_of(ctx, &g, fn, LLVMGetOperand(i, is_store ? 1 : 0), LLVMStoreSizeOfType(dl, type), bb, &r))
        continue;
      if (!is_store) r.kind = ACCESS_READ;
      else r.kind = r.elements && r.lo <= 0 && r.hi >= r.elements && r.phase < r.stride ? ACCESS_WHOLE : ACCESS_PARTIAL;
      record(rs, i, &r);
    }
  }
  if (g.failed) rs->failed = 1;
  cfg_close(&g);
}

static int by_location(const void *pa, const void *pb) {
  const access_range *a = *(const access_range *const *)pa, *b = *(const access_range *const *)pb;
  return a->location < b->location ? -1 : a->location > b->location;
}

static int by_start(const void *pa, const void *pb) {
  const span *a = pa, *b = pb;
  return a->lo < b->lo ? -1 : a->lo > b->lo;
}

static int dense(const access_range *r) { return r->width == r->stride; }

/* The bytes of element `e` an access touches. */
static span element_span(const access_range *r, int64_t e) {
  span s = {e * (int64_t)r->stride + (int64_t)r->phase, 0};
  s.hi = s.lo + (int64_t)r->width;
  return s;
}

/* The merged byte spans the partial stores of one cell write; 0 when one
 * of them has too many separate spans to list (today's rule then). */
static int cell_spans(access_range *const *stores, size_t n, span **out, size_t *count) {
  size_t total = 0;
  for (size_t k = 0; k < n; ++k) {
    int64_t spans = dense(stores[k]) ? 1 : stores[k]->hi - stores[k]->lo;
    if (spans > SPANS_MAX) return 0;
    total += (size_t)spans;
  }
  span *v = calloc(total ? total : 1, sizeof *v);
  if (!v) return -1;
  size_t m = 0;
  for (size_t k = 0; k < n; ++k) {
    const access_range *r = stores[k];
    if (dense(r)) {
      v[m].lo = element_span(r, r->lo).lo, v[m++].hi = element_span(r, r->hi - 1).hi;
    } else {
      for (int64_t e = r->lo; e < r->hi; ++e) v[m++] = element_span(r, e);
    }
  }
  qsort(v, m, sizeof *v, by_start);
  size_t w = 0;
  for (size_t k = 0; k < m; ++k) {
    if (w && v[k].lo <= v[w - 1].hi) {
      if (v[k].hi > v[w - 1].hi) v[w - 1].hi = v[k].hi;
    } else {
      v[w++] = v[k];
    }
  }
  *out = v, *count = w;
  return 1;
}

/* Whether the merged spans hold all of [lo, hi). */
static int holds(const span *v, size_t n, span want) {
  size_t a = 0, b = n;
  while (a < b) { /* the last span starting at or before want.lo */
    size_t mid = a + (b - a) / 2;
    if (v[mid].lo <= want.lo) a = mid + 1;
    else b = mid;
  }
  return a > 0 && v[a - 1].hi >= want.hi;
}

/* Sets the read's `covered` (and `missing`) from its cell's spans. */
static void check_read(access_range *r, const span *v, size_t n) {
  r->covered = 1;
  if (dense(r)) {
    span want = {element_span(r, r->lo).lo, element_span(r, r->hi - 1).hi};
    if (holds(v, n, want)) return;
    int64_t at = want.lo; /* the first byte no span holds */
    for (size_t k = 0; k < n; ++k)
      if (v[k].lo <= at && v[k].hi > at) at = v[k].hi;
    r->covered = 0, r->missing = (at - (int64_t)r->phase) / (int64_t)r->stride;
    return;
  }
  if (r->hi - r->lo > SPANS_MAX) return;
  for (int64_t e = r->lo; e < r->hi; ++e)
    if (!holds(v, n, element_span(r, e))) {
      r->covered = 0, r->missing = e;
      return;
    }
}

static void classify(weir_llvm_ctx *ctx, weir_llvm_ranges *rs, uint32_t fact_kind) {
  access_range **stores = calloc(rs->count ? rs->count : 1, sizeof *stores);
  access_range **reads = calloc(rs->count ? rs->count : 1, sizeof *reads);
  if (!stores || !reads) {
    free(stores), free(reads);
    rs->failed = 1;
    return;
  }
  size_t n = 0, m = 0;
  for (size_t k = 0; k < rs->count; ++k) {
    if (rs->records[k].kind == ACCESS_PARTIAL) stores[n++] = &rs->records[k];
    else if (rs->records[k].kind == ACCESS_READ) reads[m++] = &rs->records[k];
  }
  qsort(stores, n, sizeof *stores, by_location);
  qsort(reads, m, sizeof *reads, by_location);
  for (size_t a = 0, b = 0, first = 0; first < n; first = a) {
    uint32_t l = stores[first]->location;
    while (a < n && stores[a]->location == l) ++a;
    while (b < m && reads[b]->location < l) ++b;
    span *v = NULL;
    size_t spans = 0;
    int listed = b < m && reads[b]->location == l ? cell_spans(stores + first, a - first, &v, &spans) : 0, uncovered = 0;
    if (listed < 0) rs->failed = 1;
    for (; b < m && reads[b]->location == l; ++b) {
      if (listed > 0) check_read(reads[b], v, spans);
      else reads[b]->covered = 1;
      uncovered |= !reads[b]->covered;
    }
    free(v);
    /* Only a read beyond the partial stores ever checks U apart from
     * U_all: without one the cell needs no second fact, and its partial
     * stores clear U as any store does (the same findings, fewer facts). */
    if (uncovered) rs->twin[l] = weir_llvm_new_fact(ctx, fact_kind, l);
  }
  free(stores);
  free(reads);
}

void weir_llvm_ranges_build(weir_llvm_ctx *ctx, uint32_t fact_kind) {
  weir_llvm_ranges *rs = calloc(1, sizeof *rs);
  uint32_t locations = weir_llvm_memory_location_count(ctx->memory);
  if (rs) rs->twin = calloc(locations ? locations : 1, sizeof *rs->twin);
  if (!rs || !rs->twin) {
    free(rs);
    ctx->failed = 1;
    return;
  }
  ctx->ranges = rs;
  for (uint32_t p = 0; p < ctx->fn_count; ++p) scan_function(ctx, rs, ctx->fns[p].fn);
  if (!rs->failed) classify(ctx, rs, fact_kind);
  if (rs->failed) ctx->failed = 1;
}

void weir_llvm_ranges_free(weir_llvm_ctx *ctx) {
  weir_llvm_ranges *rs = ctx->ranges;
  if (!rs) return;
  weir_llvm_map_free(&rs->of);
  free(rs->records);
  free(rs->twin);
  free(rs);
  ctx->ranges = NULL;
}

uint32_t weir_llvm_ranges_twin(const weir_llvm_ctx *ctx, uint32_t location) {
  return ctx->ranges ? ctx->ranges->twin[location] : 0;
}

static const access_range *record_of(const weir_llvm_ctx *ctx, LLVMValueRef inst) {
  if (!ctx->ranges) return NULL;
  uint32_t k = weir_llvm_map_get(&ctx->ranges->of, inst);
  return k == WEIR_LLVM_NONE ? NULL : &ctx->ranges->records[k];
}

int weir_llvm_ranges_partial_store(const weir_llvm_ctx *ctx, LLVMValueRef store) {
  const access_range *r = record_of(ctx, store);
  return r && r->kind == ACCESS_PARTIAL && ctx->ranges->twin[r->location];
}

int weir_llvm_ranges_uncovered_read(const weir_llvm_ctx *ctx, LLVMValueRef load, uint32_t location,
                                    weir_llvm_text *note) {
  const access_range *r = record_of(ctx, load);
  if (!r || r->kind != ACCESS_READ || r->location != location || r->covered || !ctx->ranges->twin[location])
    return 0;
  if (note && r->hi - r->lo == 1)
    weir_llvm_text_printf(note, "element %lld is never written", (long long)r->lo);
  else if (note)
    weir_llvm_text_printf(note, "this reads elements %lld to %lld; element %lld is never written", (long long)r->lo,
                          (long long)(r->hi - 1), (long long)r->missing);
  return 1;
}
