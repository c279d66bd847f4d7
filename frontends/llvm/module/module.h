/* The stage before the analyses: reading one or more LLVM 14 modules (.ll or
 * .bc), linking them into one whole program, and preparing that program
 * (optnone stripped, program-constant branches folded, allocas promoted to
 * SSA by mem2reg). load.c reads and links, prepare.c runs the steps and
 * verifies the module after each, fold.c is the constant folding.
 * See frontends/llvm/module/README.md. */
#ifndef WEIR_FRONTENDS_LLVM_MODULE_MODULE_H
#define WEIR_FRONTENDS_LLVM_MODULE_MODULE_H

#include <llvm-c/Core.h>
#include <stddef.h>
#include <stdint.h>

#include "weir/status.h"

/* Reads one or more modules (.ll or .bc, LLVM 14) and links them into the first
 * (LLVMLinkModules2), in `context`. Errors name the file and say how to fix it. */
weir_status weir_llvm_module_read(LLVMContextRef context, const char *const *paths, size_t count,
                                  LLVMModuleRef *out);
/* The same from memory (one module; `name` for messages). */
weir_status weir_llvm_module_read_memory(LLVMContextRef context, const char *name, const char *data,
                                         size_t length, LLVMModuleRef *out);

typedef struct weir_llvm_prepare_stats {
  uint32_t modules;            /* linked */
  uint32_t optnone_stripped;   /* functions that had optnone */
  uint32_t constant_globals;   /* globals whose loads were replaced by their initialiser */
  uint32_t constant_functions; /* functions that always return the same constant */
  uint32_t folded_branches;    /* conditional branches / switches made unconditional */
  uint32_t removed_blocks;     /* blocks unreachable after folding */
  uint32_t threaded_edges;     /* edges sent past a branch their phi values decide (thread.c) */
  uint32_t noreturn_calls;     /* calls of defined functions with no `ret` whose block now ends there */
  uint32_t forwarded_loads;    /* loads replaced by the value a dominating store left (forward.c) */
  uint32_t out_slots;          /* locals passed only to out-parameters, made promotable (outslot.c) */
  uint32_t promoted;           /* allocas promoted to SSA by mem2reg */
  double seconds;
} weir_llvm_prepare_stats;

/* Prepares a module for the analyses: strips optnone, promotes allocas
 * (mem2reg), folds program-constant branches and deletes the blocks that
 * become unreachable, promotes again; the module is verified before and
 * after each step. Fills every field of `stats` (may be NULL) except
 * `modules`, which the caller sets from what it read. */
weir_status weir_llvm_module_prepare(LLVMModuleRef module, weir_llvm_prepare_stats *stats);

/* ---- internals shared by load.c, prepare.c and fold.c ---------------------- */

/* Whether `inst` is a call of a function whose name starts with `prefix`
 * ("llvm.lifetime."); 0 for anything else (prepare.c). */
int weir_llvm_calls_named(LLVMValueRef inst, const char *prefix);
/* A call of llvm.dbg.* or llvm.lifetime.*: a marker, which reads and
 * writes no memory of the program. */
int weir_llvm_marker_call(LLVMValueRef inst);

/* Memory that parsing `bytes` of IR needs, by the measured factors in
 * load.c (bitcode or text). */
uint64_t weir_llvm_module_parse_estimate(uint64_t bytes, int bitcode);

/* The folding of prepare step 2 (fold.c): loads of constant globals, results
 * of calls of constant-returning functions, the instructions that become
 * constant, branches and switches on constants, unreachable blocks. Adds to
 * the constant_globals, constant_functions, folded_branches and
 * removed_blocks counters. */
weir_status weir_llvm_fold_module(LLVMModuleRef module, weir_llvm_prepare_stats *stats);

/* Rebuilds every phi of `block` without `drop` of its entries from `pred`
 * (UINT32_MAX: all of them): fold.c, used by thread.c. */
weir_status weir_llvm_drop_incoming(LLVMBuilderRef builder, LLVMBasicBlockRef block, LLVMBasicBlockRef pred,
                                    uint32_t drop);

/* Jump threading (thread.c): each edge into a block of phis whose branch
 * the edge's phi values decide goes straight to the successor taken; adds
 * to `threaded_edges`. Leaves blocks unreachable: fold afterwards. */
weir_status weir_llvm_thread_module(LLVMModuleRef module, weir_llvm_prepare_stats *stats);

/* Store-to-load forwarding (forward.c): a load whose address a store on
 * its dominating single-predecessor walk wrote, with nothing on the way that
 * may write it, becomes the stored value; adds to `forwarded_loads`. */
weir_status weir_llvm_forward_stores(LLVMModuleRef module, weir_llvm_prepare_stats *stats);

/* Out-parameter slots (outslot.c): a local whose address only goes to
 * defined callees that write it whole first (and only load and store
 * through it) gets a slot of its own per call, copied back after it, so
 * the next mem2reg promotes it; adds to `out_slots`. */
weir_status weir_llvm_split_out_slots(LLVMModuleRef module, weir_llvm_prepare_stats *stats);

/* Tail copies (tail.c): a small returning block whose select a phi decides
 * gets a copy per deciding predecessor, with the select folded and what
 * only it used removed; adds to `threaded_edges`. Fold afterwards. */
weir_status weir_llvm_copy_tails(LLVMModuleRef module, weir_llvm_prepare_stats *stats);

#endif
