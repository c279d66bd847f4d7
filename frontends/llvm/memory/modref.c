/* Mod/ref/allocs summaries: each defined function's own effects (stores,
 * loads, library calls by the table, unknown declarations), then closed
 * over the call graph (direct and resolved indirect calls) by strongly
 * connected components, callees first. Bitsets while computing, sorted
 * arrays in the result. */
#include <stdlib.h>
#include <string.h>

#include "frontends/llvm/memory/pta.h"

typedef struct modref {
  weir_llvm_memory *m;
  uint32_t words, object_words;
  uint64_t *mod, *ref, *alloc; /* [fn_count * words] */
  pta_set *callees;            /* [fn_count] defined callees */
} modref;

static void set_bit(uint64_t *bits, uint32_t k) { bits[k / 64] |= 1ull << (k % 64); }

enum { RANGE_ACCESS = 0, RANGE_FROM = 1, RANGE_WHOLE = 2 };

/* The locations of l's object that an access of `size` bytes at l touches
 * (RANGE_ACCESS), or everything from l on (RANGE_FROM: a library call
 * writing a buffer), or the whole block (RANGE_WHOLE: free). */
static void add_range(const weir_llvm_memory *m, uint64_t *bits, uint32_t l, int range, uint64_t size) {
  const weir_llvm_object *o = &m->objects[m->loc_object[l]].pub;
  int64_t from = range == RANGE_WHOLE ? INT64_MIN : m->loc_offset[l];
  int64_t to = range == RANGE_ACCESS ? m->loc_offset[l] + (int64_t)(size ? size : 1) : INT64_MAX;
  set_bit(bits, l);
  /* the object's locations are numbered in offset order: search the start */
  uint32_t lo = o->first_location, hi = o->first_location + o->location_count, end = hi;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (m->loc_offset[mid] < from) lo = mid + 1;
    else hi = mid;
  }
  for (uint32_t k = lo; k < end && m->loc_offset[k] < to; ++k) set_bit(bits, k);
}

static void add_pointer(const weir_llvm_memory *m, uint64_t *bits, LLVMValueRef pointer, int range, uint64_t size) {
  const uint32_t *locations = NULL;
  size_t n = pta_points_to(m, pointer, &locations);
  for (size_t k = 0; k < n; ++k) add_range(m, bits, locations[k], range, size);
}

/* A call of declaration `fi` at `call`, by the library table. */
static void library_effect(modref *r, uint32_t fn, LLVMValueRef call, uint32_t fi) {
  weir_llvm_memory *m = r->m;
  const weir_llvm_libcall *lib = &m->fn_lib[fi].call;
  uint64_t *mod = r->mod + (size_t)fn * r->words, *ref = r->ref + (size_t)fn * r->words;
  unsigned args = LLVMGetNumArgOperands(call);
  for (unsigned k = 0; k < args; ++k) {
    LLVMValueRef arg = LLVMGetOperand(call, k);
    if (LLVMGetTypeKind(LLVMTypeOf(arg)) != LLVMPointerTypeKind) continue;
    int writes = !lib->known || weir_llvm_mask_has(lib->writes, k) || k == lib->copy_to;
    int reads = lib->known && (weir_llvm_mask_has(lib->reads, k) || k == lib->copy_from);
    if (lib->known && k == lib->frees) add_pointer(m, mod, arg, RANGE_WHOLE, 0);
    if (writes) add_pointer(m, mod, arg, RANGE_FROM, 0);
    if (reads) add_pointer(m, ref, arg, RANGE_FROM, 0);
  }
}

static void call_effect(modref *r, uint32_t fn, LLVMValueRef call) {
  weir_llvm_memory *m = r->m;
  LLVMValueRef callee = weir_llvm_direct_callee(call);
  if (callee) {
    uint32_t fi = pta_fn(m, callee);
    if (fi == PTA_NONE || (pta_is_intrinsic(callee) && !m->fn_lib[fi].call.known)) return;
    if (LLVMIsDeclaration(callee)) library_effect(r, fn, call, fi);
    else pta_set_insert(m, &r->callees[fn], fi);
  } else {
    uint32_t record = weir_llvm_map_get(&m->call_index, call);
    if (record == PTA_NONE) return;
    const pta_call *c = &m->calls[record];
    for (uint32_t k = 0; k < c->defined.n; ++k) pta_set_insert(m, &r->callees[fn], c->defined.v[k]);
    for (uint32_t k = 0; k < c->declared.n; ++k) library_effect(r, fn, call, c->declared.v[k]);
  }
  for (uint32_t tag = 0; tag <= 2; tag += 2) { /* 2: an out-parameter helper's block (outparam.c) */
    uint32_t object = pta_object_find(m, call, tag);
    if (object != PTA_NONE && m->objects[object].pub.kind == WEIR_LLVM_OBJECT_HEAP)
      set_bit(r->alloc + (size_t)fn * r->object_words, object);
  }
}

static void local_effects(modref *r, uint32_t fn) {
  weir_llvm_memory *m = r->m;
  uint64_t *mod = r->mod + (size_t)fn * r->words, *ref = r->ref + (size_t)fn * r->words;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(m->fns[fn]); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef inst = LLVMGetFirstInstruction(bb); inst; inst = LLVMGetNextInstruction(inst)) {
      switch (LLVMGetInstructionOpcode(inst)) {
      case LLVMStore: {
        LLVMTypeRef type = LLVMTypeOf(LLVMGetOperand(inst, 0));
        add_pointer(m, mod, LLVMGetOperand(inst, 1), RANGE_ACCESS, LLVMStoreSizeOfType(m->layout, type));
        break;
      }
      case LLVMLoad:
        add_pointer(m, ref, LLVMGetOperand(inst, 0), RANGE_ACCESS, LLVMStoreSizeOfType(m->layout, LLVMTypeOf(inst)));
        break;
      case LLVMAtomicRMW:
      case LLVMAtomicCmpXchg: {
        LLVMTypeRef type = LLVMTypeOf(LLVMGetOperand(inst, 1));
        add_pointer(m, mod, LLVMGetOperand(inst, 0), RANGE_ACCESS, LLVMStoreSizeOfType(m->layout, type));
        add_pointer(m, ref, LLVMGetOperand(inst, 0), RANGE_ACCESS, LLVMStoreSizeOfType(m->layout, type));
        break;
      }
      case LLVMCall: call_effect(r, fn, inst); break;
      default: break;
      }
    }
}

/* ---- closing over the call graph -------------------------------------------- */

typedef struct tarjan {
  uint32_t *index, *low, *stack, *frame_fn, *frame_edge;
  uint8_t *on_stack;
  uint32_t next, depth, frames;
} tarjan;

static void merge(modref *r, uint32_t into, uint32_t from) {
  for (uint32_t w = 0; w < r->words; ++w) {
    r->mod[(size_t)into * r->words + w] |= r->mod[(size_t)from * r->words + w];
    r->ref[(size_t)into * r->words + w] |= r->ref[(size_t)from * r->words + w];
  }
  for (uint32_t w = 0; w < r->object_words; ++w)
    r->alloc[(size_t)into * r->object_words + w] |= r->alloc[(size_t)from * r->object_words + w];
}

/* A component is complete: its first member (root) gathers the members
 * and every callee outside (already complete), then the members copy it. */
static void close_component(modref *r, tarjan *t, uint32_t root) {
  uint32_t bottom = t->depth;
  while (t->stack[bottom - 1] != root) --bottom;
  --bottom;
  for (uint32_t k = bottom; k < t->depth; ++k) {
    uint32_t member = t->stack[k];
    if (member != root) merge(r, root, member);
    for (uint32_t c = 0; c < r->callees[member].n; ++c) {
      uint32_t callee = r->callees[member].v[c];
      if (!t->on_stack[callee]) merge(r, root, callee);
    }
  }
  for (uint32_t k = bottom; k < t->depth; ++k) {
    uint32_t member = t->stack[k];
    t->on_stack[member] = 0;
    if (member != root) merge(r, member, root);
  }
  t->depth = bottom;
}

static void strong_components(modref *r, tarjan *t, uint32_t start) {
  t->frames = 0;
  t->frame_fn[t->frames] = start;
  t->frame_edge[t->frames++] = 0;
  t->index[start] = t->low[start] = t->next++;
  t->stack[t->depth++] = start;
  t->on_stack[start] = 1;
  while (t->frames) {
    uint32_t fn = t->frame_fn[t->frames - 1], *edge = &t->frame_edge[t->frames - 1];
    if (*edge < r->callees[fn].n) {
      uint32_t callee = r->callees[fn].v[(*edge)++];
      if (t->index[callee] == PTA_NONE) {
        t->index[callee] = t->low[callee] = t->next++;
        t->stack[t->depth++] = callee;
        t->on_stack[callee] = 1;
        t->frame_fn[t->frames] = callee;
        t->frame_edge[t->frames++] = 0;
      } else if (t->on_stack[callee] && t->index[callee] < t->low[fn]) {
        t->low[fn] = t->index[callee];
      }
      continue;
    }
    if (t->low[fn] == t->index[fn]) close_component(r, t, fn);
    if (--t->frames) {
      uint32_t parent = t->frame_fn[t->frames - 1];
      if (t->low[fn] < t->low[parent]) t->low[parent] = t->low[fn];
    }
  }
}

/* ---- results -------------------------------------------------------------------- */

static void to_arrays(weir_llvm_memory *m, const uint64_t *bits, uint32_t words, uint32_t *first, uint32_t *count) {
  for (uint32_t fn = 0; fn < m->fn_count; ++fn) {
    first[fn] = m->summaries.n;
    const uint64_t *b = bits + (size_t)fn * words;
    for (uint32_t w = 0; w < words; ++w)
      for (uint64_t x = b[w]; x; x &= x - 1) pta_set_push(m, &m->summaries, w * 64 + (uint32_t)__builtin_ctzll(x));
    count[fn] = m->summaries.n - first[fn];
  }
}

void pta_modref(weir_llvm_memory *m) {
  uint32_t n = m->fn_count ? m->fn_count : 1;
  modref r = {m, (m->loc_count + 63) / 64 + 1, (m->object_count + 63) / 64 + 1, NULL, NULL, NULL, NULL};
  r.mod = calloc((size_t)n * r.words, sizeof(uint64_t));
  r.ref = calloc((size_t)n * r.words, sizeof(uint64_t));
  r.alloc = calloc((size_t)n * r.object_words, sizeof(uint64_t));
  r.callees = calloc(n, sizeof *r.callees);
  tarjan t = {0};
  t.index = malloc(n * sizeof(uint32_t));
  t.low = malloc(n * sizeof(uint32_t));
  t.stack = malloc(n * sizeof(uint32_t));
  t.frame_fn = malloc(n * sizeof(uint32_t));
  t.frame_edge = malloc(n * sizeof(uint32_t));
  t.on_stack = calloc(n, 1);
  uint32_t **firsts[] = {&m->fn_mod_first, &m->fn_mod_count, &m->fn_ref_first, &m->fn_ref_count,
                         &m->fn_alloc_first, &m->fn_alloc_count};
  int ok = r.mod && r.ref && r.alloc && r.callees && t.index && t.low && t.stack && t.frame_fn && t.frame_edge &&
           t.on_stack;
  for (int k = 0; k < 6; ++k) ok = ok && (*firsts[k] = calloc(n, sizeof(uint32_t))) != NULL;
  if (ok) {
    for (uint32_t fn = 0; fn < m->fn_count; ++fn)
      if (!LLVMIsDeclaration(m->fns[fn])) local_effects(&r, fn);
    memset(t.index, 0xff, n * sizeof(uint32_t));
    for (uint32_t fn = 0; fn < m->fn_count; ++fn)
      if (t.index[fn] == PTA_NONE) strong_components(&r, &t, fn);
    to_arrays(m, r.mod, r.words, m->fn_mod_first, m->fn_mod_count);
    to_arrays(m, r.ref, r.words, m->fn_ref_first, m->fn_ref_count);
    to_arrays(m, r.alloc, r.object_words, m->fn_alloc_first, m->fn_alloc_count);
  } else {
    m->failed = 1;
  }
  for (uint32_t fn = 0; r.callees && fn < m->fn_count; ++fn) pta_set_free(&r.callees[fn]);
  free(r.mod);
  free(r.ref);
  free(r.alloc);
  free(r.callees);
  free(t.index);
  free(t.low);
  free(t.stack);
  free(t.frame_fn);
  free(t.frame_edge);
  free(t.on_stack);
}
