/* Preparing a linked module for the analyses (module.h):
 *   1. strip `optnone` (clang -O0 puts it on every function, and the legacy
 *      pass manager skips such functions, mem2reg included);
 *   2. mem2reg, so that -O0's `store 1, %retval; load; ret` is `ret 1` and
 *      locals are SSA values when the folding looks at them;
 *   3. fold program-constant branches (fold.c), deleting the blocks that
 *      become unreachable; thread branches whose phis decide them
 *      (thread.c), copy small returning blocks whose select a phi decides
 *      (tail.c), and fold again;
 *   4. mem2reg again (an alloca whose non-promotable use was in a deleted
 *      block is promotable now).
 * Nothing else runs: no SROA, SCCP or instcombine, which exploit undefined
 * behaviour (`phi [undef, 5]` must stay for the uninit analysis; mem2reg
 * itself would drop that undef, see promote() for how it is kept).
 * The input is verified first (a broken input is the user's: WEIR_ERR_PARSE)
 * and the result at the end, in debug builds also after every step (broken
 * then is weir's bug: WEIR_ERR_INTERNAL, never a crash further on). */
#include <llvm-c/Analysis.h>
#include <llvm-c/Transforms/Scalar.h>
#include <llvm-c/Transforms/Utils.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "frontends/llvm/module/module.h"
#include "frontends/llvm/util.h"

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* `after` NULL: the input as read. */
static weir_status verify(LLVMModuleRef module, const char *after) {
  char *message = NULL;
  LLVMBool broken = LLVMVerifyModule(module, LLVMReturnStatusAction, &message);
  weir_status s = WEIR_OK;
  if (broken && !after)
    s = weir_fail(WEIR_ERR_PARSE,
                  "analyze: the module does not pass LLVM's verifier: %.400s. Fix: give a module made by "
                  "clang-14 / llvm-link-14, or run opt-14 -verify on it to see what is wrong",
                  message ? message : "no message");
  else if (broken)
    s = weir_fail(WEIR_ERR_INTERNAL,
                  "analyze: the module no longer verifies after %s (a bug in weir): %.400s. Fix: report "
                  "it to the weir developers with the input module (the .ll or .bc files given)",
                  after, message ? message : "no message");
  LLVMDisposeMessage(message);
  return s;
}

/* Between steps only in debug builds: each verification of weir's own
 * module (595 functions) costs about 0.08 s, as much as a step. The input
 * and the result are verified in every build. */
static weir_status verify_step(LLVMModuleRef module, const char *after) {
#ifdef NDEBUG
  (void)module;
  (void)after;
  return WEIR_OK;
#else
  return verify(module, after);
#endif
}

int weir_llvm_calls_named(LLVMValueRef inst, const char *prefix) {
  LLVMValueRef callee = inst && LLVMIsACallInst(inst) ? LLVMGetCalledValue(inst) : NULL;
  size_t length = 0, n = strlen(prefix);
  const char *name = callee && LLVMIsAFunction(callee) ? LLVMGetValueName2(callee, &length) : "";
  return length >= n && strncmp(name, prefix, n) == 0;
}

int weir_llvm_marker_call(LLVMValueRef inst) {
  return weir_llvm_calls_named(inst, "llvm.dbg.") || weir_llvm_calls_named(inst, "llvm.lifetime.");
}

static uint32_t strip_optnone(LLVMModuleRef module) {
  unsigned kind = LLVMGetEnumAttributeKindForName("optnone", 7);
  uint32_t count = 0;
  for (LLVMValueRef fn = LLVMGetFirstFunction(module); fn; fn = LLVMGetNextFunction(fn)) {
    if (!LLVMGetEnumAttributeAtIndex(fn, LLVMAttributeFunctionIndex, kind)) continue;
    LLVMRemoveEnumAttributeAtIndex(fn, LLVMAttributeFunctionIndex, kind);
    count++;
  }
  return count;
}

static uint32_t count_allocas(LLVMModuleRef module) {
  uint32_t count = 0;
  for (LLVMValueRef fn = LLVMGetFirstFunction(module); fn; fn = LLVMGetNextFunction(fn))
    for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(fn); b; b = LLVMGetNextBasicBlock(b))
      for (LLVMValueRef i = LLVMGetFirstInstruction(b); i; i = LLVMGetNextInstruction(i))
        count += LLVMIsAAllocaInst(i) != NULL;
  return count;
}

/* ---- mem2reg that keeps undef ---------------------------------------------
 * LLVM's mem2reg simplifies the phis it creates and in doing so drops undef
 * inputs: `int x; if (c) x = 1; use(x);` becomes use(1), and the uninit
 * analysis would lose the path on which x is uninitialised. So before it
 * runs, every alloca it will promote gets, right after itself, a store of an
 * opaque value (a call of a declared marker function `weir.uninit.N`, one
 * per type): the phi is then [marker, 1], which nothing simplifies. After it
 * ran, every marker becomes undef and the markers go: [undef, 1]. */

typedef struct markers {
  weir_llvm_map index; /* type -> position in fns */
  LLVMValueRef *fns;   /* weir.uninit.N, returning types[N] */
  LLVMTypeRef *types;
  size_t count, cap;
  int failed;
} markers;

/* What LLVM 14's isAllocaPromotable accepts, restricted to loads and stores
 * of the allocated type (anything else stays a memory slot, with no marker). */
static int promotable(LLVMValueRef alloca) {
  LLVMTypeRef type = LLVMGetAllocatedType(alloca);
  for (LLVMUseRef u = LLVMGetFirstUse(alloca); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (LLVMIsALoadInst(user)) {
      if (LLVMGetVolatile(user) || LLVMTypeOf(user) != type) return 0;
    } else if (LLVMIsAStoreInst(user)) {
      LLVMValueRef value = LLVMGetOperand(user, 0);
      if (LLVMGetVolatile(user) || value == alloca || LLVMTypeOf(value) != type) return 0;
    } else {
      return 0;
    }
  }
  return 1;
}

static LLVMValueRef marker_for(LLVMModuleRef module, markers *m, LLVMTypeRef type) {
  uint32_t k = weir_llvm_map_get(&m->index, type);
  if (k != UINT32_MAX) return m->fns[k];
  if (m->count == m->cap) {
    size_t cap = m->cap ? m->cap * 2 : 32;
    LLVMValueRef *fns = realloc(m->fns, cap * sizeof *fns);
    if (fns) m->fns = fns;
    LLVMTypeRef *types = realloc(m->types, cap * sizeof *types);
    if (types) m->types = types;
    if (!fns || !types) {
      m->failed = 1;
      return NULL;
    }
    m->cap = cap;
  }
  char name[40];
  snprintf(name, sizeof name, "weir.uninit.%zu", m->count);
  LLVMValueRef fn = LLVMAddFunction(module, name, LLVMFunctionType(type, NULL, 0, 0));
  weir_llvm_map_put(&m->index, type, (uint32_t)m->count);
  m->types[m->count] = type;
  m->fns[m->count++] = fn;
  m->failed |= m->index.failed;
  return fn;
}

static void insert_markers(LLVMModuleRef module, LLVMBuilderRef builder, markers *m) {
  for (LLVMValueRef fn = LLVMGetFirstFunction(module); fn; fn = LLVMGetNextFunction(fn)) {
    if (!LLVMCountBasicBlocks(fn)) continue;
    /* mem2reg promotes the allocas of the entry block only. */
    LLVMValueRef next = NULL;
    for (LLVMValueRef i = LLVMGetFirstInstruction(LLVMGetEntryBasicBlock(fn)); i; i = next) {
      next = LLVMGetNextInstruction(i);
      if (!LLVMIsAAllocaInst(i) || !LLVMGetFirstUse(i) || !promotable(i)) continue;
      LLVMValueRef marker = marker_for(module, m, LLVMGetAllocatedType(i));
      if (!marker || !next) continue;
      LLVMPositionBuilderBefore(builder, next);
      LLVMValueRef value = LLVMBuildCall2(builder, LLVMGlobalGetValueType(marker), marker, NULL, 0, "");
      LLVMBuildStore(builder, value, i);
    }
  }
}

/* Every marker value becomes undef; a store of one into a slot that was not
 * promoted after all goes (the slot is uninitialised, as before). */
static void remove_markers(markers *m) {
  for (size_t k = 0; k < m->count; ++k) {
    LLVMValueRef fn = m->fns[k];
    LLVMValueRef undef = LLVMGetUndef(m->types[k]);
    for (LLVMUseRef u = LLVMGetFirstUse(fn); u; u = LLVMGetFirstUse(fn)) {
      LLVMValueRef call = LLVMGetUser(u);
      for (LLVMUseRef c = LLVMGetFirstUse(call); c; c = LLVMGetFirstUse(call)) {
        LLVMValueRef user = LLVMGetUser(c);
        if (LLVMIsAStoreInst(user) && LLVMGetOperand(user, 0) == call) LLVMInstructionEraseFromParent(user);
        else LLVMReplaceAllUsesWith(call, undef);
      }
      LLVMInstructionEraseFromParent(call);
    }
    LLVMDeleteFunction(fn);
  }
  free(m->fns);
  free(m->types);
  weir_llvm_map_free(&m->index);
}

/* The legacy function pass manager of LLVM-C 14 with mem2reg only. */
static weir_status promote(LLVMModuleRef module) {
  LLVMBuilderRef builder = LLVMCreateBuilderInContext(LLVMGetModuleContext(module));
  LLVMPassManagerRef fpm = LLVMCreateFunctionPassManagerForModule(module);
  if (!fpm || !builder) {
    if (fpm) LLVMDisposePassManager(fpm);
    if (builder) LLVMDisposeBuilder(builder);
    return weir_fail(WEIR_ERR_OUT_OF_MEMORY, "analyze: no memory for LLVM's pass manager. Fix: free memory");
  }
  markers m;
  memset(&m, 0, sizeof m);
  insert_markers(module, builder, &m);
  LLVMAddPromoteMemoryToRegisterPass(fpm);
  LLVMInitializeFunctionPassManager(fpm);
  for (LLVMValueRef fn = LLVMGetFirstFunction(module); fn; fn = LLVMGetNextFunction(fn))
    if (LLVMCountBasicBlocks(fn)) LLVMRunFunctionPassManager(fpm, fn);
  LLVMFinalizeFunctionPassManager(fpm);
  LLVMDisposePassManager(fpm);
  int failed = m.failed; /* the allocas without a marker were promoted the plain way: report it */
  remove_markers(&m);
  LLVMDisposeBuilder(builder);
  if (failed)
    return weir_fail(WEIR_ERR_OUT_OF_MEMORY, "analyze: no memory while promoting allocas (mem2reg). Fix: "
                     "free memory or analyse fewer modules");
  return WEIR_OK;
}

/* Loop rotation turns `for (i = 0; i < 4; i++) a[i] = v;` into a guarded
 * do-while whose guard `0 < 4` folds away: the path that skips a loop that
 * always runs is gone, and an array the loop fills is not reported as read
 * uninitialised after it. Rotation is a plain CFG rewrite (no use of
 * undefined behaviour). */
static weir_status rotate_loops(LLVMModuleRef module) {
  LLVMPassManagerRef fpm = LLVMCreateFunctionPassManagerForModule(module);
  if (!fpm) return weir_fail(WEIR_ERR_OUT_OF_MEMORY, "analyze: no memory for LLVM's pass manager. Fix: free memory");
  LLVMAddLoopRotatePass(fpm);
  LLVMInitializeFunctionPassManager(fpm);
  for (LLVMValueRef fn = LLVMGetFirstFunction(module); fn; fn = LLVMGetNextFunction(fn))
    if (LLVMCountBasicBlocks(fn)) LLVMRunFunctionPassManager(fpm, fn);
  LLVMFinalizeFunctionPassManager(fpm);
  LLVMDisposePassManager(fpm);
  return WEIR_OK;
}

weir_status weir_llvm_module_prepare(LLVMModuleRef module, weir_llvm_prepare_stats *stats) {
  weir_llvm_prepare_stats local;
  memset(&local, 0, sizeof local);
  if (stats) local.modules = stats->modules;
  if (!module)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT, "analyze: no module to prepare (NULL). Fix: read one first");
  double t0 = now();
  WEIR_TRY(verify(module, NULL));
  local.optnone_stripped = strip_optnone(module);
  uint32_t allocas = count_allocas(module);
  WEIR_TRY(promote(module));
  WEIR_TRY(verify_step(module, "mem2reg"));
  WEIR_TRY(weir_llvm_split_out_slots(module, &local));
  WEIR_TRY(verify_step(module, "splitting out-parameter slots"));
  WEIR_TRY(promote(module));
  WEIR_TRY(weir_llvm_forward_stores(module, &local));
  WEIR_TRY(verify_step(module, "forwarding stores to loads"));
  WEIR_TRY(weir_llvm_fold_module(module, &local));
  WEIR_TRY(verify_step(module, "folding constant branches"));
  WEIR_TRY(weir_llvm_thread_module(module, &local));
  WEIR_TRY(verify_step(module, "threading branches"));
  WEIR_TRY(weir_llvm_copy_tails(module, &local));
  WEIR_TRY(verify_step(module, "copying returning blocks"));
  if (local.threaded_edges) {
    WEIR_TRY(weir_llvm_fold_module(module, &local));
    WEIR_TRY(verify_step(module, "folding after threading"));
  }
  WEIR_TRY(promote(module));
  WEIR_TRY(rotate_loops(module));
  WEIR_TRY(verify(module, "preparing it (optnone, mem2reg, constant folding, loop rotation)"));
  local.promoted = allocas - count_allocas(module);
  local.seconds = now() - t0;
  if (stats) *stats = local;
  return WEIR_OK;
}
