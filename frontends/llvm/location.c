/* Source locations of instructions (debug info from -g, else function and
 * instruction index) and the records findings are later built from. */
#include <stdlib.h>
#include <string.h>

#include <llvm-c/DebugInfo.h>

#include "frontends/llvm/internal.h"

#define WEIR_LLVM_TEXT_MAX 96

static int grow(void **array, size_t *cap, size_t count, size_t size) {
  if (count < *cap) return 1;
  size_t next = *cap ? *cap * 2 : 64;
  void *p = realloc(*array, next * size);
  if (!p) return 0;
  *array = p;
  *cap = next;
  return 1;
}

/* Instructions are numbered consecutively per function (icfg.c), so the
 * index is the distance to the function's first instruction. */
static uint32_t instruction_index(const weir_llvm_ctx *ctx, LLVMValueRef inst) {
  LLVMValueRef f = LLVMGetBasicBlockParent(LLVMGetInstructionParent(inst));
  uint32_t first = weir_llvm_vid(ctx, LLVMGetFirstInstruction(LLVMGetEntryBasicBlock(f)));
  uint32_t vid = weir_llvm_vid(ctx, inst);
  return first == WEIR_LLVM_NONE || vid == WEIR_LLVM_NONE ? 0 : vid - first + 1;
}

/* The printed instruction, trimmed, one line, at most WEIR_LLVM_TEXT_MAX bytes. */
static char *instruction_text(LLVMValueRef inst, int *failed) {
  char *printed = LLVMPrintValueToString(inst);
  const char *s = printed ? printed : "";
  while (*s == ' ') ++s;
  size_t length = strcspn(s, "\n");
  const char *dbg = strstr(s, ", !dbg");
  if (dbg && (size_t)(dbg - s) < length) length = (size_t)(dbg - s);
  int cut = length > WEIR_LLVM_TEXT_MAX;
  char *copy = weir_llvm_strndup(s, cut ? WEIR_LLVM_TEXT_MAX : length, failed);
  if (copy && cut) memcpy(copy + WEIR_LLVM_TEXT_MAX - 3, "...", 3);
  LLVMDisposeMessage(printed);
  return copy;
}

/* The file as the compiler was given it (like a compiler diagnostic): a
 * relative name stays relative to where clang ran, which is what SARIF
 * viewers resolve against the source root. */
static char *location_file(const weir_llvm_ctx *ctx, LLVMValueRef inst, int *failed) {
  unsigned length = 0;
  const char *file = LLVMGetDebugLocFilename(inst, &length);
  if (!file || !length) return weir_llvm_strndup(ctx->out->name, strlen(ctx->out->name), failed);
  return weir_llvm_strndup(file, length, failed);
}

uint32_t weir_llvm_add_loc(weir_llvm_ctx *ctx, LLVMValueRef inst) {
  weir_llvm_problem *out = ctx->out;
  if (!grow((void **)&out->locs, &out->loc_cap, out->loc_count, sizeof *out->locs)) {
    out->failed = 1;
    return 0;
  }
  weir_llvm_loc *loc = &out->locs[out->loc_count];
  memset(loc, 0, sizeof *loc);
  LLVMValueRef f = LLVMGetBasicBlockParent(LLVMGetInstructionParent(inst));
  size_t name_length = 0;
  const char *name = LLVMGetValueName2(f, &name_length);
  loc->function = weir_llvm_strndup(name, name_length, &out->failed);
  loc->file = location_file(ctx, inst, &out->failed);
  if (LLVMInstructionGetDebugLoc(inst)) {
    loc->line = LLVMGetDebugLocLine(inst);
    loc->column = LLVMGetDebugLocColumn(inst);
  }
  loc->instruction = instruction_index(ctx, inst);
  /* The printed instruction only stands in for a missing line number. */
  if (loc->line == 0) loc->text = instruction_text(inst, &out->failed);
  return (uint32_t)out->loc_count++;
}

/* The variable's name from its llvm.dbg.declare (DILocalVariable operand 1 is
 * the name), else the IR name, else "%vid". */
void weir_llvm_slot_name(const weir_llvm_ctx *ctx, LLVMValueRef alloca, weir_llvm_text *out) {
  LLVMValueRef wrapped = LLVMMetadataAsValue(LLVMGetTypeContext(LLVMTypeOf(alloca)),
                                             LLVMValueAsMetadata(alloca));
  for (LLVMUseRef u = LLVMGetFirstUse(wrapped); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    size_t length = 0;
    const char *callee = LLVMIsACallInst(user) ? weir_llvm_callee_name(user, &length) : "";
    if (length != 16 || strncmp(callee, "llvm.dbg.declare", 16) != 0) continue;
    LLVMValueRef var = LLVMGetOperand(user, 1);
    if (!var || LLVMGetMDNodeNumOperands(var) < 2) continue;
    LLVMValueRef ops[8] = {0};
    if (LLVMGetMDNodeNumOperands(var) > 8) continue;
    LLVMGetMDNodeOperands(var, ops);
    unsigned name_length = 0;
    const char *name = ops[1] ? LLVMGetMDString(ops[1], &name_length) : NULL;
    if (name && name_length) {
      weir_llvm_text_put(out, name, name_length);
      return;
    }
  }
  size_t length = 0;
  const char *name = LLVMGetValueName2(alloca, &length);
  if (length) weir_llvm_text_put(out, name, length);
  else weir_llvm_text_printf(out, "%%slot%u", weir_llvm_vid(ctx, alloca));
}

void weir_llvm_add_check(weir_llvm_ctx *ctx, uint32_t node, const uint32_t *facts, size_t count,
                         LLVMValueRef inst, const char *message) {
  weir_llvm_problem *out = ctx->out;
  if (count == 0) return;
  if (!grow((void **)&out->checks, &out->check_cap, out->check_count, sizeof *out->checks)) {
    out->failed = 1;
    return;
  }
  weir_llvm_check *check = &out->checks[out->check_count];
  check->node = node;
  check->fact_first = (uint32_t)out->check_facts.n;
  check->fact_count = (uint32_t)count;
  for (size_t k = 0; k < count; ++k) weir_llvm_vec_push(&out->check_facts, facts[k]);
  check->loc = weir_llvm_add_loc(ctx, inst);
  check->message = weir_llvm_strndup(message, strlen(message), &out->failed);
  out->check_count++;
}

void weir_llvm_add_source(weir_llvm_ctx *ctx, uint32_t node, LLVMValueRef inst, const char *name,
                          size_t name_length) {
  weir_llvm_problem *out = ctx->out;
  if (!grow((void **)&out->sources, &out->source_cap, out->source_count, sizeof *out->sources)) {
    out->failed = 1;
    return;
  }
  weir_llvm_source *source = &out->sources[out->source_count];
  source->node = node;
  source->loc = weir_llvm_add_loc(ctx, inst);
  source->name = weir_llvm_strndup(name, name_length, &out->failed);
  out->source_count++;
}
