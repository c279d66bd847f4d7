/* The memory model of the LLVM frontend: a whole-module, inclusion-based
 * (Andersen-style) points-to analysis, computed once per module before the
 * supergraph is built, then queried by every analysis (taint, uninit, uaf)
 * and by the ICFG (indirect call targets). Like LLVM's own analyses: computed
 * once, read many times, no LLVM object is changed.
 *
 * Abstract objects: one per alloca, global variable, heap allocation site
 * (a call of an allocator in the library table, or of a defined allocation
 * wrapper: a function that returns what an allocator returned), string
 * literal / constant data, function (for function pointers), and EXTERNAL
 * memory (what an unmodelled declaration returns, main's argv array and
 * strings, what a pointer parameter of an entry function points to).
 *
 * Locations: an object is split into fields by byte offset (constant struct
 * indices of GEPs, computed with the module's data layout); array indices
 * are ignored (an array is one element) and so is the first, pointer-level,
 * GEP index (pointer arithmetic stays inside the block). Every object has
 * its location at offset 0. An object whose offsets cannot be followed
 * (offsets past its size, too many distinct offsets) is collapsed to one
 * location. After solving, the locations of each object are numbered
 * contiguously in offset order.
 *
 * Every query returns sorted ids; the arrays stay owned by the model. */
#ifndef WEIR_FRONTENDS_LLVM_MEMORY_H
#define WEIR_FRONTENDS_LLVM_MEMORY_H

#include <llvm-c/Core.h>
#include <stddef.h>
#include <stdint.h>

#include "weir/status.h"

struct weir_llvm_config;
struct weir_llvm_text;

typedef struct weir_llvm_memory weir_llvm_memory;

typedef enum weir_llvm_object_kind {
  WEIR_LLVM_OBJECT_STACK = 0,    /* alloca (site: the alloca) */
  WEIR_LLVM_OBJECT_GLOBAL = 1,   /* global variable (site: the global) */
  WEIR_LLVM_OBJECT_HEAP = 2,     /* allocation site (site: the call) */
  WEIR_LLVM_OBJECT_CONSTANT = 3, /* string literal / constant global data (site: the global) */
  WEIR_LLVM_OBJECT_FUNCTION = 4, /* a function whose address is taken (site: the function) */
  WEIR_LLVM_OBJECT_EXTERNAL = 5  /* memory made outside the module (site: call, argument, or NULL) */
} weir_llvm_object_kind;

typedef struct weir_llvm_object {
  weir_llvm_object_kind kind;
  LLVMValueRef site;      /* see the kinds above; NULL only for argv objects */
  LLVMValueRef function;  /* the function containing the site (stack, heap, external call) or NULL */
  uint32_t first_location, location_count; /* contiguous, offset order */
  uint64_t size;          /* bytes when known (alloca, global), else 0 */
  uint8_t is_array;       /* array type, heap, or collapsed: one location stands for many cells */
  uint8_t collapsed;      /* offsets could not be followed: one location for the whole object */
  uint8_t alloc_kind;     /* heap: WEIR_LLVM_ALLOC_* of the allocator (library table) */
  char name[95];          /* source-level name for messages: "buf", "heap block from malloc", "argv[]" */
} weir_llvm_object;

typedef struct weir_llvm_location_info {
  uint32_t object;
  uint32_t offset; /* bytes from the start of the object */
} weir_llvm_location_info;

typedef struct weir_llvm_memory_stats {
  uint32_t objects, locations;
  uint32_t constraints;      /* address-of, copy, load, store, offset constraints generated */
  uint32_t pointers;         /* values with a non-empty points-to set */
  uint32_t indirect_calls, indirect_resolved; /* call sites; those with at least one target */
  uint64_t points_to_pairs;  /* sum of points-to set sizes over all values */
  uint32_t iterations;       /* worklist pops */
  uint64_t work;             /* elements sent along copy edges (difference propagation) */
  uint32_t cycle_passes;     /* Tarjan passes over the copy graph */
  uint32_t merged;           /* nodes merged into another one on a cycle */
  uint32_t degraded;         /* 1: the work budget ran out and large points-to sets were unified
                                (Steensgaard-style): still sound, less precise (memory/README.md) */
  double seconds;
} weir_llvm_memory_stats;

/* Computes the model of `module` (after the frontend prepared it). `config`
 * supplies the library table (allocators, frees, functions that return an
 * argument, copies, writes); NULL means the defaults. */
weir_status weir_llvm_memory_build(LLVMModuleRef module, const struct weir_llvm_config *config,
                                   weir_llvm_memory **out);
void weir_llvm_memory_free(weir_llvm_memory *memory);
const weir_llvm_memory_stats *weir_llvm_memory_get_stats(const weir_llvm_memory *memory);

uint32_t weir_llvm_memory_object_count(const weir_llvm_memory *memory);
uint32_t weir_llvm_memory_location_count(const weir_llvm_memory *memory);
const weir_llvm_object *weir_llvm_memory_object(const weir_llvm_memory *memory, uint32_t object);
weir_llvm_location_info weir_llvm_memory_location(const weir_llvm_memory *memory, uint32_t location);
/* The location of `object` at exactly `offset`, or UINT32_MAX. */
uint32_t weir_llvm_memory_location_at(const weir_llvm_memory *memory, uint32_t object, uint32_t offset);
/* The byte offset a GEP adds as the model counts it (struct fields;
 * array indices and an aggregate's first index stay in the cell) and
 * `delta`, a constant step over scalar elements (pointer arithmetic). */
void weir_llvm_memory_gep_offset(const weir_llvm_memory *memory, LLVMValueRef gep, int64_t *offset,
                                 int64_t *delta);
/* The bytes a memory function called as `fn` at `call` copies or fills,
 * when the call gives them as a constant (`memcpy(&u, &e->uuid, sizeof u)`,
 * `memset(&p.t, 0, 16)`, bzero, their _chk and llvm. forms), else -1. */
int64_t weir_llvm_memory_call_length(LLVMValueRef call, LLVMValueRef fn);
/* The object of an alloca, global, or allocation call; UINT32_MAX if none. */
uint32_t weir_llvm_memory_object_of_site(const weir_llvm_memory *memory, LLVMValueRef site);
/* The layout an object is used with (its allocated type, the type a heap
 * block is cast to, or the record debug info gives it), NULL when unknown. */
LLVMTypeRef weir_llvm_memory_object_layout(const weir_llvm_memory *memory, uint32_t object);

/* Locations `pointer` may point to (any value: instruction, argument,
 * global, constant expression). Empty for non-pointers and unknown ones. */
size_t weir_llvm_memory_points_to(const weir_llvm_memory *memory, LLVMValueRef pointer,
                                  const uint32_t **locations);
/* Locations the contents of `location` may point to (pointers stored there). */
size_t weir_llvm_memory_contents(const weir_llvm_memory *memory, uint32_t location,
                                 const uint32_t **locations);

/* Defined functions an indirect call may reach, by the points-to set of the
 * called value (functions whose parameter count fits the call). Empty when
 * the set holds no function: the caller then falls back to the type rule. */
size_t weir_llvm_memory_callees(const weir_llvm_memory *memory, LLVMValueRef call,
                                const LLVMValueRef **functions);

/* Whether the memory model refused a function that reached an indirect
 * call's pointer because the struct field it is loaded from never holds
 * it (fieldfns.c): with no callee left, the call calls nothing of the
 * program, and the ICFG must not fall back to every function of its type. */
int weir_llvm_memory_call_refused(const weir_llvm_memory *m, LLVMValueRef call);

/* Mod/ref summaries of a defined function, transitive over everything it may
 * call (direct, resolved indirect, library calls by the table):
 *   mod: locations it may write (stores, library writes and copies, pointer
 *        arguments of unmodelled declarations, the block a free-like call
 *        releases);
 *   ref: locations it may read (loads, library reads);
 *   allocs: heap objects allocated in it or its callees (object ids). */
size_t weir_llvm_memory_mod(const weir_llvm_memory *memory, LLVMValueRef function,
                            const uint32_t **locations);
size_t weir_llvm_memory_ref(const weir_llvm_memory *memory, LLVMValueRef function,
                            const uint32_t **locations);
size_t weir_llvm_memory_allocs(const weir_llvm_memory *memory, LLVMValueRef function,
                               const uint32_t **objects);

/* main's argv: the array of pointers and the strings they point to (each
 * UINT32_MAX when the module has no main with an argv parameter). */
void weir_llvm_memory_argv(const weir_llvm_memory *memory, uint32_t *array_location,
                           uint32_t *strings_location);

/* The DILocalVariable (as a metadata value) of the variable that `alloca`
 * holds, from llvm.dbg.declare or, at -O2, the dbg.value of a load of the
 * whole slot; NULL when debug info does not say (names.c). */
LLVMValueRef weir_llvm_alloca_variable(LLVMValueRef alloca);
/* Whether an alloca is C's alloca() or a VLA rather than a declared
 * variable: a count other than the constant 1, or outside the entry block. */
int weir_llvm_dynamic_alloca(LLVMValueRef alloca);
/* Whether an instruction is a value the optimiser made rather than a
 * source variable: its function has debug info and no llvm.dbg.value
 * describes it (a loop unroller's remainder phi). 0 without debug info. */
int weir_llvm_compiler_temporary(LLVMValueRef value);
/* The source variable an SSA value holds (llvm.dbg.value): appends its
 * name to `name` and sets `line` (may be NULL) to its declaration's line;
 * 0 when debug info names none. */
int weir_llvm_value_variable(LLVMValueRef value, struct weir_llvm_text *name, unsigned *line);

/* Appends the name of a location in C words, from debug info (names.c):
 * "buf", "s.len", "a.in[2]", "len of the block from malloc in f at x.c:12",
 * "argv strings"; an offset ("s.+8") where debug info says nothing. */
void weir_llvm_memory_describe(const weir_llvm_memory *memory, uint32_t location,
                               struct weir_llvm_text *out);
/* The same for the whole object the location is in ("the block from malloc
 * in f at x.c:12", "v"). */
void weir_llvm_memory_describe_object(const weir_llvm_memory *memory, uint32_t location,
                                      struct weir_llvm_text *out);
/* Appends the memory that `pointer` points to as the source wrote it:
 * "p->next->len", "*p", "buf[]", "v.b"; for a call's argument the pointer
 * as passed ("line", "buf", "&v.b" is "v.b"). Returns 0 (nothing appended)
 * when the pointer does not start from a variable the debug info names. */
/* Appends the C name of an SSA value: the variable a dbg.value says holds
 * it, or the memory a load reads ("s->len"); 0 when debug info says none. */
int weir_llvm_memory_value_name(const weir_llvm_memory *memory, LLVMValueRef value, struct weir_llvm_text *out);
int weir_llvm_memory_access_name(const weir_llvm_memory *memory, LLVMValueRef pointer, int as_argument,
                                 struct weir_llvm_text *out);

#endif
