/* Private state of the points-to analysis (memory.h is the public face):
 * the constraint graph, the abstract objects and locations, and the
 * helpers the files of this folder share. Nothing here is seen outside
 * frontends/llvm/memory/.
 *
 * Graph: a node per pointer-carrying value (instructions, arguments,
 * globals, constant expressions), per function return, per temporary, and
 * per location (its contents). Points-to sets hold location ids. */
#ifndef WEIR_FRONTENDS_LLVM_MEMORY_PTA_H
#define WEIR_FRONTENDS_LLVM_MEMORY_PTA_H

#include <llvm-c/Core.h>
#include <llvm-c/Target.h>

#include "frontends/llvm/internal.h"
#include "frontends/llvm/memory/memory.h"
#include "frontends/llvm/util.h"

#define PTA_NONE UINT32_MAX
#define PTA_MAX_FIELDS 64u               /* more distinct offsets: collapse */
#define PTA_MAX_TYPED_FIELDS 4096u       /* the same for an object with a known layout */
#define PTA_MAX_UNKNOWN_OFFSET (1u << 20) /* past 1 MiB on an unknown size: collapse */

/* A sorted set (or plain list) of uint32, failure recorded in the model. */
typedef struct pta_set {
  uint32_t *v;
  uint32_t n, cap;
} pta_set;

/* A sparse bitset: sorted 64-bit blocks, base = value / 64 (bits.c). */
typedef struct pta_bits {
  uint32_t *base;
  uint64_t *word;
  uint32_t n, cap;
  uint32_t count; /* elements */
  uint32_t dense; /* every block of the range is present (bits.c) */
} pta_bits;

/* Open-addressing map uint64 -> uint32 (keys != UINT64_MAX). */
typedef struct pta_map {
  uint64_t *keys;
  uint32_t *values;
  size_t cap, count;
} pta_map;

typedef enum pta_kind {
  PTA_LOAD = 0,    /* dst ⊇ *node */
  PTA_STORE = 1,   /* *node ⊇ src */
  PTA_OFFSET = 2,  /* dst ⊇ { field(l, offset, delta) : l in node } */
  PTA_CALL = 3,    /* indirect call through node */
  PTA_MEMCPY = 4   /* contents behind dst ⊇ contents behind src, field by field */
} pta_kind;

typedef struct pta_constraint {
  pta_kind kind;
  uint32_t a, b;   /* load: dst; store: src; offset: dst; memcpy: dst node, src node; call: call index */
  int64_t offset;  /* offset: bytes from constant struct indices; memcpy: bytes copied (INT64_MAX: unknown) */
  int64_t delta;   /* offset: bytes of constant pointer arithmetic (typed objects only) */
  uint32_t rels;   /* memcpy: first of its relative-offset nodes (index into model->rels) or PTA_NONE */
} pta_constraint;

/* A memcpy constraint's node for one relative offset r: it gathers the
 * contents of every source cell r bytes past a pointed source location and
 * feeds the cell r bytes past every pointed destination location. So a
 * copy costs (sources + destinations) x fields edges, not their product. */
typedef struct pta_rel {
  uint32_t offset, node, next;
} pta_rel;

typedef struct pta_node {
  pta_set pts;      /* the result, sorted (filled from `set` after solving) */
  pta_bits set;     /* while solving: the points-to set */
  pta_bits delta;   /* while solving: what arrived since the node was last popped */
  pta_set copy;     /* copy edge targets */
  pta_set complex;  /* constraints whose pointer operand is this node */
  uint32_t rank;    /* topological order from the last cycle elimination (worklist.c) */
  uint8_t queued;
  uint8_t no_functions; /* a typed data pointer: function objects do not flow in (graph.c) */
} pta_node;

/* An indirect or declared call site and the functions it was bound to. */
typedef struct pta_call {
  LLVMValueRef call;
  pta_set defined;   /* resolved defined targets (function object ids) */
  pta_set declared;  /* resolved declarations (function object ids) */
  uint8_t field_refused; /* a function reached the called pointer that its struct field never holds (fieldfns.c) */
} pta_call;

typedef struct pta_object {
  weir_llvm_object pub;
  LLVMTypeRef type;      /* layout: allocated / value type, or the type a block is cast to; else NULL */
  uint64_t type_size;    /* its size: offsets wrap modulo it */
  uint64_t fam_at, fam_size; /* a trailing flexible array member: its offset and element size (0: none) */
  uint32_t loc0;         /* location at offset 0 */
  uint32_t field_count;  /* distinct offsets */
  pta_set locs;          /* locations */
  pta_set watchers;      /* memcpy watchers: index pairs into model->watch */
} pta_object;

/* Per declaration / allocator: the library model, looked up once. */
typedef struct pta_lib {
  weir_llvm_libcall call;
  int wrapper; /* a defined allocation wrapper */
  /* an out-parameter allocation helper (outparam.c): the parameter whose
   * cell gets the new block, or PTA_NONE; the value it stores there; the
   * allocator kind; whether the call copies the caller's old block */
  uint32_t out_param;
  LLVMValueRef out_value;
  uint8_t out_kind, out_copy;
} pta_lib;

struct weir_llvm_memory {
  LLVMModuleRef module;
  LLVMTargetDataRef layout;
  unsigned pointer_bits;
  int failed;     /* out of memory somewhere: the build fails */

  /* objects, and their locations (object, offset) */
  pta_object *objects;
  uint32_t object_count, object_cap;
  pta_map object_key; /* site * 4 + tag -> object */

  uint32_t *loc_object, *loc_node;
  int64_t *loc_offset;
  uint32_t loc_count, loc_cap;
  pta_map loc_key;    /* object << 32 | offset -> location */
  pta_map field_key;  /* typed object << 32 | wrapped offset -> location of its field */
  pta_set new_locs;   /* created since the solver last looked (memcpy watchers) */

  pta_node *nodes;
  uint32_t *rep;      /* union-find: the node a merged cycle member became */
  uint32_t node_count, node_cap;
  size_t next_cycle_check; /* edge count at which cycles are looked for again */
  weir_llvm_map value_node;
  pta_map edge_key;   /* src << 32 | dst: copy edges already present */
  pta_map watch_key;  /* src location << 32 | memcpy constraint: sources already watched */
  pta_set watch;      /* pairs: base offset (as uint32), memcpy constraint */
  pta_rel *rels;      /* memcpy relative-offset nodes, linked per constraint */
  uint32_t rel_count, rel_cap;
  pta_map rel_key;    /* constraint << 32 | relative offset -> index into rels */

  pta_constraint *cons;
  uint32_t con_count, con_cap;
  uint32_t constraint_stat;

  pta_call *calls;
  uint32_t call_count, call_cap;
  weir_llvm_map call_index; /* call instruction -> pta_call */

  weir_llvm_map fn_index;   /* function -> index into fn_* */
  LLVMValueRef *fns;
  uint32_t *fn_ret;         /* return node per defined function  */
  pta_lib *fn_lib;
  uint8_t *fn_called;       /* some call in the module reaches it */
  uint8_t *fn_params_external;
  uint32_t fn_count;

  uint32_t argv_array, argv_strings; /* objects, or PTA_NONE */
  weir_llvm_map out_skip;   /* instructions of out-parameter helpers not generated (outparam.c) */
  struct pta_field_table *field_fns; /* functions put into struct fields (fieldfns.c), while solving */

  pta_set wave_now, wave_next; /* worklist heaps by rank (worklist.c) */
  uint64_t work_done;       /* elements sent along edges so far: the solver's budget counts them */
  uint32_t wave_rank;       /* rank of the node popped last */
  pta_bits added;           /* scratch: what a union added */
  pta_bits incoming;        /* scratch: a sorted array as a bitset */
  pta_bits filtered;        /* scratch: a delta without function objects */
  pta_bits function_locs;   /* the locations of function objects */
  pta_set work;             /* scratch: a popped delta as a sorted array */

  /* results, after finalize */
  uint32_t *fn_mod_first, *fn_mod_count, *fn_ref_first, *fn_ref_count;
  uint32_t *fn_alloc_first, *fn_alloc_count;
  pta_set summaries;        /* the mod/ref/alloc arrays, back to back */
  LLVMValueRef *callee_values; /* resolved callees per call, back to back */
  uint32_t *call_callee_first, *call_callee_count;
  weir_llvm_memory_stats stats;
  const weir_llvm_config *config;
};

/* ---- sets.c ---------------------------------------------------------------- */
void pta_set_push(weir_llvm_memory *m, pta_set *s, uint32_t value);
/* Inserts into a sorted set; 1 when it was new. */
int pta_set_insert(weir_llvm_memory *m, pta_set *s, uint32_t value);
void pta_set_sort_unique(pta_set *s);
void pta_set_free(pta_set *s);

/* ---- bits.c ------------------------------------------------------------------ */
/* Inserts one value; 1 when it was new. */
int pta_bits_add(weir_llvm_memory *m, pta_bits *s, uint32_t value);
void pta_bits_clear(pta_bits *s);
void pta_bits_from_sorted(weir_llvm_memory *m, pta_bits *s, const uint32_t *v, uint32_t n);
void pta_bits_to_sorted(weir_llvm_memory *m, const pta_bits *s, pta_set *out);
/* to ∪= from; the new elements go to `added` (when not NULL, in order).
 * Returns how many were new. */
uint32_t pta_bits_union(weir_llvm_memory *m, pta_bits *to, const pta_bits *from, pta_bits *added);
/* out = a \ b */
void pta_bits_diff(weir_llvm_memory *m, pta_bits *out, const pta_bits *a, const pta_bits *b);
/* Whether a and b share an element. */
int pta_bits_meet(const pta_bits *a, const pta_bits *b);
void pta_bits_free(pta_bits *s);

uint32_t pta_map_get(const pta_map *map, uint64_t key);
void pta_map_put(weir_llvm_memory *m, pta_map *map, uint64_t key, uint32_t value);
void pta_map_free(pta_map *map);

/* ---- objects.c ---------------------------------------------------------------- */
/* The object of `site` (tag distinguishes two objects of one site), made on
 * first use; PTA_NONE when out of memory. */
uint32_t pta_object_get(weir_llvm_memory *m, LLVMValueRef site, uint32_t tag, weir_llvm_object_kind kind,
                    LLVMValueRef function, LLVMTypeRef type);
uint32_t pta_object_find(const weir_llvm_memory *m, LLVMValueRef site, uint32_t tag);
/* The location of object at offset (wrapped, normalised to a field start
 * for typed objects, collapsed when the object cannot be followed). */
uint32_t pta_location(weir_llvm_memory *m, uint32_t object, int64_t offset);
/* field(l, offset, delta): the location `offset` bytes of struct indices
 * and `delta` bytes of pointer arithmetic past location l. */
uint32_t pta_field(weir_llvm_memory *m, uint32_t location, int64_t offset, int64_t delta);
void pta_object_name(weir_llvm_memory *m, uint32_t object, const char *prefix, LLVMValueRef value);
int pta_can_hold_pointer(const weir_llvm_memory *m, LLVMTypeRef type);
/* Offsets inside `type` where a pointer may be kept (up to capacity). */
uint32_t pta_pointer_fields(const weir_llvm_memory *m, LLVMTypeRef type, uint64_t *out, uint32_t capacity);
uint64_t pta_type_size(const weir_llvm_memory *m, LLVMTypeRef type);
/* Whether an indirect call that loads its target from field k of a struct
 * T may bind function `fi`: every function put into such a field is known
 * and fi is one of them, or nothing is known (fieldfns.c). */
int pta_field_allows(weir_llvm_memory *m, LLVMValueRef call, uint32_t fi);
void pta_field_table_free(weir_llvm_memory *m);
/* The debug-info record name of a global's declared type, or NULL (names.c). */
const char *pta_global_record_name(LLVMValueRef global, size_t *length);
/* The layout a heap block or external memory is used with, or NULL. */
LLVMTypeRef pta_layout_of(const weir_llvm_memory *m, LLVMValueRef value);
/* names.c: the largest record a pointer variable holding `value` points to
 * by llvm.dbg.value, as the LLVM struct type of the same size, or NULL. */
LLVMTypeRef pta_debug_layout(const weir_llvm_memory *m, LLVMValueRef value);
/* Empties locations and makes every object's offset 0 again. */
void pta_locations_reset(weir_llvm_memory *m);

/* ---- graph.c ---------------------------------------------------------------- */
void pta_graph_reset(weir_llvm_memory *m);
uint32_t pta_node_new(weir_llvm_memory *m);
/* The node of a value (instruction, argument, constant); PTA_NONE when the
 * value cannot carry a pointer (null, integers constants, metadata). */
uint32_t pta_value(weir_llvm_memory *m, LLVMValueRef value);
void pta_addr(weir_llvm_memory *m, uint32_t node, uint32_t location);
void pta_copy(weir_llvm_memory *m, uint32_t from, uint32_t to);
void pta_complex(weir_llvm_memory *m, pta_kind kind, uint32_t node, uint32_t a, uint32_t b, int64_t offset,
                 int64_t delta);
/* ---- worklist.c ---------------------------------------------------------------- */
void pta_push(weir_llvm_memory *m, uint32_t node);
/* The next node to visit, or PTA_NONE when none is left. */
uint32_t pta_pop(weir_llvm_memory *m);
void pta_worklist_reorder(weir_llvm_memory *m);
/* Contents behind dst ⊇ contents behind src, field by field (memcpy). */
void pta_memcpy(weir_llvm_memory *m, uint32_t dst, uint32_t src, int64_t length);
/* to ∪= v[0..n) (sorted); the new part goes to to's delta and to is queued. */
void pta_propagate(weir_llvm_memory *m, uint32_t to, const uint32_t *v, uint32_t n);
void pta_propagate_bits(weir_llvm_memory *m, uint32_t to, const pta_bits *from);
/* The GEP's constant byte offsets: struct indices into *offset, constant
 * scalar pointer arithmetic into *delta. */
void pta_gep_offsets(const weir_llvm_memory *m, LLVMValueRef gep, int64_t *offset, int64_t *delta);

/* ---- calls.c ---------------------------------------------------------------- */
uint32_t pta_fn(const weir_llvm_memory *m, LLVMValueRef fn);
void pta_functions_prepare(weir_llvm_memory *m);
void pta_call_site(weir_llvm_memory *m, LLVMValueRef call);
/* Binds the call to target `fn` (from the solver, for indirect calls). */
void pta_bind(weir_llvm_memory *m, uint32_t call_index, LLVMValueRef fn);
int pta_is_intrinsic(LLVMValueRef fn);

/* Whether `v` is only ever an allocator's (or a wrapper's) new block or
 * null, at least once a new block; *kind: the allocator's kind. */
int pta_new_block(const weir_llvm_memory *m, LLVMValueRef v, uint8_t *kind);

/* ---- outparam.c --------------------------------------------------------------- */
/* Finds the out-parameter allocation helpers (after the wrappers). */
void pta_find_out_helpers(weir_llvm_memory *m);
/* Whether the helpers' store (or realloc copy) `inst` is left out. */
int pta_out_skipped(const weir_llvm_memory *m, LLVMValueRef inst);
/* A call of helper `fn` (index fi): its own block into the argument's cell. */
void pta_out_call(weir_llvm_memory *m, LLVMValueRef call, LLVMValueRef fn, uint32_t fi);

/* ---- constraints.c ---------------------------------------------------------- */
void pta_generate(weir_llvm_memory *m);
/* Gives the pointer parameters of unreached functions their external
 * objects; returns how many were added. */
uint32_t pta_unreached_parameters(weir_llvm_memory *m);

/* ---- cycles.c ---------------------------------------------------------------- */
uint32_t pta_find(weir_llvm_memory *m, uint32_t node);
void pta_collapse_cycles(weir_llvm_memory *m);
/* Merges nodes[0..n) into one (sound: the merged set holds all of theirs);
 * the representative is queued to pass its whole set on again. */
void pta_unify(weir_llvm_memory *m, const uint32_t *nodes, uint32_t n);

/* ---- solve.c ---------------------------------------------------------------- */
void pta_solve(weir_llvm_memory *m);
/* Applies constraint `con` (attached to `node`) to the locations given. */
void pta_apply(weir_llvm_memory *m, uint32_t con, uint32_t node, const uint32_t *locations, uint32_t n);

/* ---- memory.c ---------------------------------------------------------------- */
/* The final points-to set of any value (no type filter). */
size_t pta_points_to(const weir_llvm_memory *m, LLVMValueRef pointer, const uint32_t **locations);

/* ---- modref.c --------------------------------------------------------------- */
void pta_modref(weir_llvm_memory *m);

#endif
