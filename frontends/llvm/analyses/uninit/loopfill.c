/* Arrays filled by a loop (uninit).
 *
 *     int update[NUM_LEVELS];
 *     for (i = level; i >= 0; i--) update[i] = ...;
 *     ... update[i] ...
 *
 * IFDS follows the path that leaves the loop before its first iteration,
 * where `update` is still unset: a false finding at every such read
 * (ocamlrun: skip lists, bigarray indices, random seeds, gather arrays).
 * The memory model keeps one cell per array, and the analysis already lets
 * one written element stand for all; this rule does the same for the
 * zero-iteration path: on the edge that leaves a loop (a conditional branch
 * one of whose successors leads back to the branch, the other not) or
 * skips one (the other successor's side, which this edge does not reach,
 * holds a cycle: a rotated loop's guard, or an `if` around a loop), the
 * arrays stored into (array cells a store updates strongly, as uninit's
 * stores do) in the blocks only the other side reaches count as written,
 * and so do the cells of an element such a block hands to a defined
 * function that may write them. Optimistic when the loop really may run
 * zero times, or the `if` is not taken, and the array is read after. */
#include <llvm-c/Target.h>
#include <stdlib.h>
#include <string.h>

#include "frontends/llvm/internal.h"

#define BLOCKS_MAX 4096 /* functions with more blocks keep the plain rule */

typedef struct cfg {
  LLVMBasicBlockRef *blocks;
  unsigned count;
  weir_llvm_map index;
  uint8_t *mark;
  uint32_t *stack;
} cfg;

static int cfg_open(cfg *g, LLVMValueRef fn) {
  g->count = LLVMCountBasicBlocks(fn);
  if (g->count == 0 || g->count > BLOCKS_MAX) return 0;
  g->blocks = calloc(g->count, sizeof *g->blocks);
  g->mark = calloc(g->count, 1);
  g->stack = calloc(g->count, sizeof *g->stack);
  if (!g->blocks || !g->mark || !g->stack) return 0;
  LLVMGetBasicBlocks(fn, g->blocks);
  for (unsigned b = 0; b < g->count; ++b) weir_llvm_map_put(&g->index, g->blocks[b], b);
  return !g->index.failed;
}

static void cfg_close(cfg *g) {
  free(g->blocks);
  free(g->mark);
  free(g->stack);
  weir_llvm_map_free(&g->index);
}

/* Marks (bit `bit`) the blocks reachable from `from` without passing
 * through `stop` (marked when reached, not gone through); forward only. */
static void reach(cfg *g, uint32_t from, uint8_t bit, uint32_t stop) {
  size_t top = 0;
  g->stack[top++] = from;
  g->mark[from] |= bit;
  while (top) {
    uint32_t b = g->stack[--top];
    if (b == stop) continue;
    LLVMValueRef term = LLVMGetBasicBlockTerminator(g->blocks[b]);
    unsigned n = term ? LLVMGetNumSuccessors(term) : 0;
    for (unsigned k = 0; k < n; ++k) {
      uint32_t s = weir_llvm_map_get(&g->index, LLVMGetSuccessor(term, k));
      if (s != WEIR_LLVM_NONE && !(g->mark[s] & bit)) {
        g->mark[s] |= bit;
        g->stack[top++] = s;
      }
    }
  }
}

#define REGION_MAX 256

/* Whether the blocks marked `bit` hold a cycle among themselves. */
static int has_cycle(cfg *g, uint8_t bit) {
  unsigned region = 0;
  for (unsigned b = 0; b < g->count; ++b) region += (g->mark[b] & bit) != 0;
  if (region > REGION_MAX) return 0;
  for (unsigned b = 0; b < g->count; ++b) {
    if (!(g->mark[b] & bit)) continue;
    /* DFS inside the region from b's successors (bit 8: seen), back to b? */
    for (unsigned k = 0; k < g->count; ++k) g->mark[k] &= (uint8_t)~8;
    size_t top = 0;
    g->stack[top++] = b;
    while (top) {
      uint32_t x = g->stack[--top];
      LLVMValueRef term = LLVMGetBasicBlockTerminator(g->blocks[x]);
      unsigned n = term ? LLVMGetNumSuccessors(term) : 0;
      for (unsigned k = 0; k < n; ++k) {
        uint32_t s = weir_llvm_map_get(&g->index, LLVMGetSuccessor(term, k));
        if (s == WEIR_LLVM_NONE || !(g->mark[s] & bit) || (g->mark[s] & 8)) continue;
        if (s == b) return 1;
        g->mark[s] |= 8;
        g->stack[top++] = s;
      }
    }
  }
  return 0;
}

/* Whether `from` (marked 4) leads back to `h` through blocks marked 4 only:
 * the loop side of a loop's exit comes back to its branch on its own, an
 * `if` inside a loop only through the outer loop, which the other side
 * shares. */
static int region_returns(cfg *g, uint32_t from, uint32_t h) {
  if (!(g->mark[from] & 4)) return 0;
  for (unsigned k = 0; k < g->count; ++k) g->mark[k] &= (uint8_t)~8;
  size_t top = 0;
  g->stack[top++] = from;
  g->mark[from] |= 8;
  while (top) {
    uint32_t x = g->stack[--top];
    LLVMValueRef term = LLVMGetBasicBlockTerminator(g->blocks[x]);
    for (unsigned k = 0, n = term ? LLVMGetNumSuccessors(term) : 0; k < n; ++k) {
      uint32_t s = weir_llvm_map_get(&g->index, LLVMGetSuccessor(term, k));
      if (s == h) return 1;
      if (s == WEIR_LLVM_NONE || !(g->mark[s] & 4) || (g->mark[s] & 8)) continue;
      g->mark[s] |= 8;
      g->stack[top++] = s;
    }
  }
  return 0;
}

/* The place an instruction fills and how many bytes: a store (0: its own
 * cell), or memcpy/memmove/memset/bzero of a constant length (`v[i] =
 * (struct place){...}` and `v[i] = other` are a memcpy at -O0). NULL when
 * it fills nothing. */
static LLVMValueRef filled_place(LLVMValueRef i, int64_t *bytes) {
  *bytes = 0;
  if (LLVMIsAStoreInst(i)) return LLVMGetOperand(i, 1);
  if (!LLVMIsACallInst(i)) return NULL;
  LLVMValueRef fn = LLVMGetCalledValue(i);
  if (!fn || !LLVMIsAFunction(fn)) return NULL;
  *bytes = weir_llvm_memory_call_length(i, fn);
  return *bytes > 0 ? LLVMGetOperand(i, 0) : NULL;
}

/* Whether one of the defined callees `procs` may write `location`. */
static int callee_writes(const weir_llvm_ctx *ctx, const uint32_t *procs, size_t callees, uint32_t location) {
  for (size_t p = 0; p < callees; ++p) {
    const uint32_t *mod = NULL;
    size_t m = weir_llvm_memory_mod(ctx->memory, ctx->fns[procs[p]].fn, &mod);
    weir_llvm_vec sorted = {(uint32_t *)mod, m, m, 0};
    if (weir_llvm_vec_contains(&sorted, location)) return 1;
  }
  return 0;
}

/* A call in the loop that hands a defined function one array element
 * (`for (..) datum_init(&row->fields[i])`) fills the cells of that element
 * the callee may write, as the loop's own stores would (uninit counts a
 * callee that may write a location as writing it). */
static void kill_called_fills(weir_llvm_ctx *ctx, LLVMValueRef call, weir_llvm_flow *flow) {
  const uint32_t *procs = NULL;
  size_t callees = weir_llvm_call_procs(ctx, call, &procs);
  if (!callees) return;
  for (unsigned a = 0, args = LLVMGetNumArgOperands(call); a < args; ++a) {
    LLVMValueRef arg = LLVMGetOperand(call, a);
    if (!weir_llvm_is_pointer(arg)) continue;
    const uint32_t *locs = NULL;
    size_t n = weir_llvm_pts(ctx, arg, &locs);
    if (!n || !weir_llvm_uninit_strong_store(ctx, arg, locs, n)) continue;
    LLVMTypeRef pointee = LLVMGetElementType(LLVMTypeOf(arg));
    uint64_t bytes = LLVMTypeIsSized(pointee) ? LLVMABISizeOfType(LLVMGetModuleDataLayout(ctx->module), pointee) : 1;
    for (size_t k = 0; k < n; ++k) {
      const weir_llvm_object *o =
          weir_llvm_memory_object(ctx->memory, weir_llvm_memory_location(ctx->memory, locs[k]).object);
      if (!o->is_array) continue;
      for (uint32_t l = locs[k], end = weir_llvm_block_span(ctx, locs[k], bytes); l < end; ++l) {
        if (!ctx->loc_fact[l] || !callee_writes(ctx, procs, callees, l)) continue;
        weir_llvm_flow_kill(flow, weir_llvm_ranges_twin(ctx, l));
        weir_llvm_flow_kill(flow, ctx->loc_fact[l]);
      }
    }
  }
}

/* Kills U of the array cells that stores and memory fills in the marked
 * blocks write. */
static void kill_filled(weir_llvm_ctx *ctx, cfg *g, uint8_t bit, weir_llvm_flow *flow) {
  for (unsigned b = 0; b < g->count; ++b) {
    if (!(g->mark[b] & bit)) continue;
    for (LLVMValueRef i = LLVMGetFirstInstruction(g->blocks[b]); i; i = LLVMGetNextInstruction(i)) {
      int64_t bytes = 0;
      LLVMValueRef place = filled_place(i, &bytes);
      if (!place && LLVMIsACallInst(i)) kill_called_fills(ctx, i, flow);
      if (!place) continue;
      const uint32_t *locs = NULL;
      size_t n = weir_llvm_pts(ctx, place, &locs);
      if (!n || !weir_llvm_uninit_strong_store(ctx, place, locs, n)) continue;
      int partial = LLVMIsAStoreInst(i) && weir_llvm_ranges_partial_store(ctx, i);
      for (size_t k = 0; k < n; ++k) {
        const weir_llvm_object *o =
            weir_llvm_memory_object(ctx->memory, weir_llvm_memory_location(ctx->memory, locs[k]).object);
        if (!o->is_array) continue;
        /* a fill covers the cells from its place on, through its length */
        for (uint32_t l = locs[k], end = weir_llvm_block_span(ctx, locs[k], (uint64_t)bytes); l < end; ++l) {
          if (!ctx->loc_fact[l]) continue;
          /* a store of part of the array (ranges.c) clears U_all only */
          weir_llvm_flow_kill(flow, weir_llvm_ranges_twin(ctx, l));
          if (!partial) weir_llvm_flow_kill(flow, ctx->loc_fact[l]);
        }
      }
    }
  }
}

void weir_llvm_loop_exit_fills(weir_llvm_ctx *ctx, LLVMValueRef term, LLVMBasicBlockRef succ, weir_llvm_flow *flow) {
  if (!LLVMIsABranchInst(term) || !LLVMIsConditional(term)) return;
  LLVMBasicBlockRef here = LLVMGetInstructionParent(term);
  LLVMBasicBlockRef other = LLVMGetSuccessor(term, 0) == succ ? LLVMGetSuccessor(term, 1) : LLVMGetSuccessor(term, 0);
  if (other == succ) return;
  cfg g = {0};
  if (cfg_open(&g, LLVMGetBasicBlockParent(here))) {
    uint32_t h = weir_llvm_map_get(&g.index, here);
    uint32_t in = weir_llvm_map_get(&g.index, other), out = weir_llvm_map_get(&g.index, succ);
    if (h != WEIR_LLVM_NONE && in != WEIR_LLVM_NONE && out != WEIR_LLVM_NONE) {
      /* Each side up to this branch: inside an outer loop both sides come
       * back here, and only what one side reaches before that is its own
       * (readelf's file tables, filled per compilation unit). */
      reach(&g, in, 1, h);  /* bit 1: what the loop side reaches */
      reach(&g, out, 2, h); /* bit 2: what the exit side reaches */
      /* The blocks only the other side reaches: the loop, when `succ`
       * leaves a loop (the other side comes back here) or skips one (a
       * rotated loop's guard: the other side holds a cycle). */
      for (unsigned b = 0; b < g.count; ++b) g.mark[b] = b != h && (g.mark[b] & 1) && !(g.mark[b] & 2) ? 4 : 0;
      int loop = region_returns(&g, in, h);
      if (loop || has_cycle(&g, 4)) kill_filled(ctx, &g, 4, flow);
    }
  } else if (g.count && g.count <= BLOCKS_MAX) {
    ctx->failed = 1;
  }
  cfg_close(&g);
}
