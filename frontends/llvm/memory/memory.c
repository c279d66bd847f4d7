/* The public face of the memory model (memory.h): building (generate,
 * solve), numbering the
 * locations of each object contiguously, the queries and the names. */
#include <llvm-c/DebugInfo.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "frontends/llvm/memory/pta.h"

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

typedef struct rank {
  uint32_t object, old;
  int64_t offset;
} rank;

static int cmp_rank(const void *a, const void *b) {
  const rank *x = a, *y = b;
  if (x->object != y->object) return x->object < y->object ? -1 : 1;
  return (x->offset > y->offset) - (x->offset < y->offset);
}

static int cmp_u32(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return (x > y) - (x < y);
}

/* The solver's bitsets become the sorted result arrays under the new
 * numbering: each element is set in a dense scratch bitmap (the words it
 * touched remembered), read back in order. */
static void final_sets(weir_llvm_memory *m, const uint32_t *new_of, uint32_t kept) {
  uint32_t words = kept / 64 + 1;
  uint64_t *dense = calloc(words, sizeof *dense);
  pta_set touched = {0};
  if (!dense) m->failed = 1;
  for (uint32_t k = 0; k < m->node_count && !m->failed; ++k) {
    const pta_bits *set = &m->nodes[k].set;
    touched.n = 0;
    for (uint32_t b = 0; b < set->n; ++b)
      for (uint64_t w = set->word[b]; w; w &= w - 1) {
        uint32_t x = new_of[set->base[b] * 64 + (uint32_t)__builtin_ctzll(w)];
        if (!dense[x / 64]) pta_set_push(m, &touched, x / 64);
        dense[x / 64] |= 1ull << (x % 64);
      }
    if (touched.n > 1) qsort(touched.v, touched.n, sizeof *touched.v, cmp_u32);
    pta_set *pts = &m->nodes[k].pts;
    pts->n = 0;
    if (touched.n) { /* the exact size: sets are many and never grow again */
      uint32_t count = 0;
      for (uint32_t t = 0; t < touched.n; ++t) count += (uint32_t)__builtin_popcountll(dense[touched.v[t]]);
      pta_set_free(pts);
      pts->v = malloc((size_t)count * sizeof *pts->v);
      if (!pts->v) m->failed = 1;
      else pts->cap = count;
    }
    for (uint32_t t = 0; t < touched.n && !m->failed; ++t) {
      for (uint64_t w = dense[touched.v[t]]; w; w &= w - 1)
        pts->v[pts->n++] = touched.v[t] * 64 + (uint32_t)__builtin_ctzll(w);
      dense[touched.v[t]] = 0;
    }
    pta_bits_free(&m->nodes[k].set);
    pta_bits_free(&m->nodes[k].delta);
  }
  free(dense);
  pta_set_free(&touched);
}

/* Renumbers locations in (object, offset) order and rewrites every set;
 * the locations a collapsed object had before it collapsed become its one
 * location. */
static void number_locations(weir_llvm_memory *m) {
  uint32_t n = m->loc_count, kept = 0;
  rank *order = malloc((size_t)(n ? n : 1) * sizeof *order);
  uint32_t *new_of = malloc((size_t)(n ? n : 1) * sizeof *new_of);
  uint32_t *node = malloc((size_t)(n ? n : 1) * sizeof *node);
  if (!order || !new_of || !node) {
    free(order);
    free(new_of);
    free(node);
    m->failed = 1;
    return;
  }
  for (uint32_t k = 0; k < n; ++k) {
    const pta_object *o = &m->objects[m->loc_object[k]];
    if (!o->pub.collapsed || k == o->loc0) order[kept++] = (rank){m->loc_object[k], k, m->loc_offset[k]};
  }
  qsort(order, kept, sizeof *order, cmp_rank);
  for (uint32_t k = 0; k < m->object_count; ++k) m->objects[k].pub.location_count = 0;
  for (uint32_t k = 0; k < kept; ++k) {
    new_of[order[k].old] = k;
    weir_llvm_object *o = &m->objects[order[k].object].pub;
    if (o->location_count++ == 0) o->first_location = k;
  }
  for (uint32_t k = 0; k < n; ++k) {
    const pta_object *o = &m->objects[m->loc_object[k]];
    if (o->pub.collapsed && k != o->loc0) new_of[k] = new_of[o->loc0];
  }
  for (uint32_t k = 0; k < kept; ++k) {
    node[k] = m->loc_node[order[k].old];
    m->loc_object[k] = order[k].object;
    m->loc_offset[k] = order[k].offset;
  }
  m->loc_count = kept;
  free(m->loc_node);
  m->loc_node = node;
  for (uint32_t k = 0; k < m->object_count; ++k) m->objects[k].loc0 = m->objects[k].pub.first_location;
  final_sets(m, new_of, kept);
  free(order);
  free(new_of);
}

/* Drops what only the solver needed. */
static void drop_solver_state(weir_llvm_memory *m) {
  pta_field_table_free(m);
  for (uint32_t k = 0; k < m->node_count; ++k) {
    pta_bits_free(&m->nodes[k].set);
    pta_bits_free(&m->nodes[k].delta);
    pta_set_free(&m->nodes[k].copy);
    pta_set_free(&m->nodes[k].complex);
  }
  for (uint32_t k = 0; k < m->object_count; ++k) {
    pta_set_free(&m->objects[k].locs);
    pta_set_free(&m->objects[k].watchers);
  }
  free(m->cons);
  m->cons = NULL;
  m->con_count = m->con_cap = 0;
  pta_map_free(&m->edge_key);
  pta_map_free(&m->watch_key);
  pta_map_free(&m->rel_key);
  free(m->rels);
  m->rels = NULL;
  m->rel_count = m->rel_cap = 0;
  pta_map_free(&m->loc_key);
  pta_map_free(&m->field_key);
  pta_set_free(&m->watch);
  pta_set_free(&m->wave_now);
  pta_set_free(&m->wave_next);
  pta_set_free(&m->new_locs);
  pta_bits_free(&m->added);
  pta_bits_free(&m->incoming);
  pta_bits_free(&m->filtered);
  pta_bits_free(&m->function_locs);
  pta_set_free(&m->work);
}

static void callees_and_stats(weir_llvm_memory *m) {
  uint32_t total = 0;
  for (uint32_t k = 0; k < m->call_count; ++k) total += m->calls[k].defined.n;
  m->callee_values = malloc((size_t)(total ? total : 1) * sizeof *m->callee_values);
  m->call_callee_first = malloc((size_t)(m->call_count ? m->call_count : 1) * sizeof(uint32_t));
  m->call_callee_count = malloc((size_t)(m->call_count ? m->call_count : 1) * sizeof(uint32_t));
  if (!m->callee_values || !m->call_callee_first || !m->call_callee_count) {
    m->failed = 1;
    return;
  }
  weir_llvm_memory_stats *s = &m->stats;
  uint32_t at = 0;
  for (uint32_t k = 0; k < m->call_count; ++k) {
    m->call_callee_first[k] = at;
    m->call_callee_count[k] = m->calls[k].defined.n;
    for (uint32_t j = 0; j < m->calls[k].defined.n; ++j) m->callee_values[at++] = m->fns[m->calls[k].defined.v[j]];
    s->indirect_resolved += m->calls[k].defined.n > 0;
  }
  s->indirect_calls = m->call_count;
  s->objects = m->object_count;
  s->locations = m->loc_count;
  s->constraints = m->constraint_stat;
  s->work = m->work_done;
  for (size_t k = 0; k < m->value_node.cap; ++k) {
    if (!m->value_node.keys[k]) continue;
    uint32_t n = m->nodes[m->rep[m->value_node.values[k]]].pts.n;
    s->pointers += n > 0;
    s->points_to_pairs += n;
  }
}

static void solve(weir_llvm_memory *m) {
  pta_graph_reset(m);
  pta_generate(m);
  /* parameters of functions no call reaches are known only once calls
   * through pointers are resolved */
  do pta_solve(m);
  while (!m->failed && pta_unreached_parameters(m) > 0);
  for (uint32_t k = 0; k < m->node_count; ++k) {
    m->rep[k] = pta_find(m, k); /* queries read rep[] once */
    if (m->rep[k] != k) { /* merged: the representative has its set */
      pta_bits_free(&m->nodes[k].set);
      pta_bits_free(&m->nodes[k].delta);
    }
  }
}

weir_status weir_llvm_memory_build(LLVMModuleRef module, const struct weir_llvm_config *config,
                                   weir_llvm_memory **out) {
  if (out) *out = NULL;
  if (!out || !module)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "memory model: module (%p) or out (%p) is NULL. Fix: pass a parsed module and a result pointer",
                     (void *)module, (void *)out);
  *out = NULL;
  double t0 = now();
  weir_llvm_memory *m = calloc(1, sizeof *m);
  if (!m) return weir_fail(WEIR_ERR_OUT_OF_MEMORY, "memory model: no memory for the model. Fix: free memory");
  m->module = module;
  m->argv_array = m->argv_strings = PTA_NONE;
  const char *layout = LLVMGetDataLayoutStr(module);
  m->layout = LLVMCreateTargetData(layout ? layout : "");
  m->pointer_bits = LLVMPointerSize(m->layout) * 8;
  weir_llvm_config *defaults = NULL;
  if (!config) {
    /* one default table for every lookup, instead of one per lookup */
    weir_status s = weir_llvm_config_new(&defaults);
    if (s != WEIR_OK) {
      weir_llvm_memory_free(m);
      return weir_fail_context(s, "memory model: the default library table");
    }
    config = defaults;
  }
  m->config = config;
  pta_functions_prepare(m);
  if (!m->failed) solve(m);
  if (!m->failed) number_locations(m);
  if (!m->failed) callees_and_stats(m);
  drop_solver_state(m);
  if (!m->failed) pta_modref(m);
  m->config = NULL;
  weir_llvm_config_free(defaults);
  if (m->failed) {
    weir_llvm_memory_free(m);
    return weir_fail(WEIR_ERR_OUT_OF_MEMORY,
                     "memory model: out of memory while solving the points-to sets. Fix: free memory or "
                     "analyse a smaller module");
  }
  m->stats.seconds = now() - t0;
  *out = m;
  return WEIR_OK;
}

void weir_llvm_memory_free(weir_llvm_memory *m) {
  if (!m) return;
  drop_solver_state(m);
  for (uint32_t k = 0; k < m->node_count; ++k) pta_set_free(&m->nodes[k].pts);
  free(m->nodes);
  free(m->rep);
  for (uint32_t k = 0; k < m->call_count; ++k) {
    pta_set_free(&m->calls[k].defined);
    pta_set_free(&m->calls[k].declared);
  }
  free(m->calls);
  weir_llvm_map_free(&m->call_index);
  weir_llvm_map_free(&m->value_node);
  weir_llvm_map_free(&m->fn_index);
  weir_llvm_map_free(&m->out_skip);
  free(m->objects);
  pta_map_free(&m->object_key);
  free(m->loc_object);
  free(m->loc_node);
  free(m->loc_offset);
  free(m->fns);
  free(m->fn_ret);
  free(m->fn_lib);
  free(m->fn_called);
  free(m->fn_params_external);
  free(m->fn_mod_first);
  free(m->fn_mod_count);
  free(m->fn_ref_first);
  free(m->fn_ref_count);
  free(m->fn_alloc_first);
  free(m->fn_alloc_count);
  pta_set_free(&m->summaries);
  free(m->callee_values);
  free(m->call_callee_first);
  free(m->call_callee_count);
  if (m->layout) LLVMDisposeTargetData(m->layout);
  free(m);
}

/* ---- queries ---------------------------------------------------------------- */

const weir_llvm_memory_stats *weir_llvm_memory_get_stats(const weir_llvm_memory *m) { return &m->stats; }
uint32_t weir_llvm_memory_object_count(const weir_llvm_memory *m) { return m->object_count; }
uint32_t weir_llvm_memory_location_count(const weir_llvm_memory *m) { return m->loc_count; }

const weir_llvm_object *weir_llvm_memory_object(const weir_llvm_memory *m, uint32_t object) {
  return object < m->object_count ? &m->objects[object].pub : NULL;
}

weir_llvm_location_info weir_llvm_memory_location(const weir_llvm_memory *m, uint32_t location) {
  weir_llvm_location_info info = {UINT32_MAX, 0};
  if (location < m->loc_count) info = (weir_llvm_location_info){m->loc_object[location], (uint32_t)m->loc_offset[location]};
  return info;
}

uint32_t weir_llvm_memory_location_at(const weir_llvm_memory *m, uint32_t object, uint32_t offset) {
  if (object >= m->object_count) return UINT32_MAX;
  const weir_llvm_object *o = &m->objects[object].pub;
  if (o->collapsed) return o->first_location; /* one location stands for every offset */
  uint32_t lo = o->first_location, hi = o->first_location + o->location_count;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (m->loc_offset[mid] < (int64_t)offset) lo = mid + 1;
    else hi = mid;
  }
  return lo < o->first_location + o->location_count && m->loc_offset[lo] == (int64_t)offset ? lo : UINT32_MAX;
}

LLVMTypeRef weir_llvm_memory_object_layout(const weir_llvm_memory *m, uint32_t object) {
  return object < m->object_count ? m->objects[object].type : NULL;
}

uint32_t weir_llvm_memory_object_of_site(const weir_llvm_memory *m, LLVMValueRef site) {
  return site ? pta_object_find(m, site, 0) : UINT32_MAX;
}

size_t pta_points_to(const weir_llvm_memory *m, LLVMValueRef pointer, const uint32_t **locations) {
  uint32_t node = weir_llvm_map_get(&m->value_node, pointer);
  if (node == PTA_NONE) {
    *locations = NULL;
    return 0;
  }
  node = m->rep[node];
  *locations = m->nodes[node].pts.v;
  return m->nodes[node].pts.n;
}

size_t weir_llvm_memory_points_to(const weir_llvm_memory *m, LLVMValueRef pointer, const uint32_t **locations) {
  *locations = NULL;
  if (!pointer) return 0;
  LLVMTypeRef type = LLVMTypeOf(pointer);
  if (LLVMGetTypeKind(type) == LLVMVectorTypeKind) type = LLVMGetElementType(type);
  if (LLVMGetTypeKind(type) != LLVMPointerTypeKind) return 0;
  return pta_points_to(m, pointer, locations);
}

size_t weir_llvm_memory_contents(const weir_llvm_memory *m, uint32_t location, const uint32_t **locations) {
  *locations = NULL;
  if (location >= m->loc_count) return 0;
  uint32_t node = m->rep[m->loc_node[location]];
  *locations = m->nodes[node].pts.v;
  return m->nodes[node].pts.n;
}

size_t weir_llvm_memory_callees(const weir_llvm_memory *m, LLVMValueRef call, const LLVMValueRef **functions) {
  *functions = NULL;
  uint32_t record = call ? weir_llvm_map_get(&m->call_index, call) : PTA_NONE;
  if (record == PTA_NONE) return 0;
  *functions = m->callee_values + m->call_callee_first[record];
  return m->call_callee_count[record];
}

int weir_llvm_memory_call_refused(const weir_llvm_memory *m, LLVMValueRef call) {
  uint32_t record = call ? weir_llvm_map_get(&m->call_index, call) : PTA_NONE;
  return record != PTA_NONE && m->calls[record].field_refused;
}

static size_t summary(const weir_llvm_memory *m, LLVMValueRef fn, const uint32_t *first, const uint32_t *count,
                      const uint32_t **out) {
  *out = NULL;
  uint32_t fi = fn && first ? pta_fn(m, fn) : PTA_NONE;
  if (fi == PTA_NONE) return 0;
  *out = m->summaries.v + first[fi];
  return count[fi];
}

size_t weir_llvm_memory_mod(const weir_llvm_memory *m, LLVMValueRef fn, const uint32_t **locations) {
  return summary(m, fn, m->fn_mod_first, m->fn_mod_count, locations);
}

size_t weir_llvm_memory_ref(const weir_llvm_memory *m, LLVMValueRef fn, const uint32_t **locations) {
  return summary(m, fn, m->fn_ref_first, m->fn_ref_count, locations);
}

size_t weir_llvm_memory_allocs(const weir_llvm_memory *m, LLVMValueRef fn, const uint32_t **objects) {
  return summary(m, fn, m->fn_alloc_first, m->fn_alloc_count, objects);
}

void weir_llvm_memory_argv(const weir_llvm_memory *m, uint32_t *array_location, uint32_t *strings_location) {
  *array_location = m->argv_array == PTA_NONE ? UINT32_MAX : m->objects[m->argv_array].pub.first_location;
  *strings_location = m->argv_strings == PTA_NONE ? UINT32_MAX : m->objects[m->argv_strings].pub.first_location;
}


void weir_llvm_memory_gep_offset(const weir_llvm_memory *m, LLVMValueRef gep, int64_t *offset, int64_t *delta) {
  pta_gep_offsets(m, gep, offset, delta);
}
