/* Queries about the program (include/weir/analysis.h, "the program"):
 * values and functions are LLVMValueRefs behind opaque handles. A NULL
 * handle answers "nothing" (0, NULL, ""), never a crash. */
#include <llvm-c/DebugInfo.h>
#include <llvm-c/Target.h>
#include <stdio.h>
#include <string.h>

#include "frontends/llvm/api/api.h"

weir_ir_kind weir_ir_kind_of(weir_analysis_ctx *cx, const weir_ir_value *h) {
  (void)cx;
  LLVMValueRef v = API_VALUE(h);
  if (!v) return WEIR_IR_OTHER;
  if (LLVMIsAArgument(v)) return WEIR_IR_ARGUMENT;
  if (LLVMIsAFunction(v)) return WEIR_IR_FUNCTION;
  if (LLVMIsAGlobalValue(v)) return WEIR_IR_GLOBAL;
  if (LLVMIsAConstant(v)) return WEIR_IR_CONSTANT;
  if (!LLVMIsAInstruction(v)) return WEIR_IR_OTHER;
  if (LLVMIsAStoreInst(v)) return WEIR_IR_STORE;
  if (LLVMIsALoadInst(v)) return WEIR_IR_LOAD;
  if (LLVMIsACallInst(v) || LLVMIsAInvokeInst(v)) return WEIR_IR_CALL;
  if (LLVMIsAReturnInst(v)) return WEIR_IR_RET;
  if (LLVMIsAPHINode(v)) return WEIR_IR_PHI;
  if (LLVMIsATerminatorInst(v)) return WEIR_IR_BRANCH;
  if (LLVMIsAAllocaInst(v)) return WEIR_IR_ALLOCA;
  if (LLVMIsAGetElementPtrInst(v)) return WEIR_IR_GEP;
  if (LLVMIsACastInst(v)) return WEIR_IR_CAST;
  if (LLVMIsABinaryOperator(v)) return WEIR_IR_BINARY;
  if (LLVMIsACmpInst(v)) return WEIR_IR_COMPARE;
  if (LLVMIsASelectInst(v)) return WEIR_IR_SELECT;
  return WEIR_IR_OTHER;
}

uint32_t weir_ir_operand_count(weir_analysis_ctx *cx, const weir_ir_value *h) {
  (void)cx;
  LLVMValueRef v = API_VALUE(h);
  return v && LLVMIsAUser(v) ? (uint32_t)LLVMGetNumOperands(v) : 0;
}

const weir_ir_value *weir_ir_operand(weir_analysis_ctx *cx, const weir_ir_value *h, uint32_t k) {
  return k < weir_ir_operand_count(cx, h) ? API_HANDLE(LLVMGetOperand(API_VALUE(h), k)) : NULL;
}

static int is_call(LLVMValueRef v) { return v && (LLVMIsACallInst(v) || LLVMIsAInvokeInst(v)); }

uint32_t weir_ir_call_arg_count(weir_analysis_ctx *cx, const weir_ir_value *call) {
  (void)cx;
  return is_call(API_VALUE(call)) ? LLVMGetNumArgOperands(API_VALUE(call)) : 0;
}

const weir_ir_value *weir_ir_call_arg(weir_analysis_ctx *cx, const weir_ir_value *call, uint32_t k) {
  return k < weir_ir_call_arg_count(cx, call) ? API_HANDLE(LLVMGetOperand(API_VALUE(call), k)) : NULL;
}

const char *weir_ir_callee_name(weir_analysis_ctx *cx, const weir_ir_value *call, size_t *length) {
  (void)cx;
  size_t ignored = 0;
  if (!length) length = &ignored;
  *length = 0;
  return is_call(API_VALUE(call)) ? weir_llvm_callee_name(API_VALUE(call), length) : "";
}

uint32_t weir_ir_callee_count(weir_analysis_ctx *cx, const weir_ir_value *call) {
  if (!cx || !is_call(API_VALUE(call))) return 0;
  const uint32_t *procs = NULL;
  return (uint32_t)weir_llvm_call_procs(cx->ctx, API_VALUE(call), &procs);
}

const weir_ir_function *weir_ir_callee(weir_analysis_ctx *cx, const weir_ir_value *call, uint32_t k) {
  if (k >= weir_ir_callee_count(cx, call)) return NULL;
  const uint32_t *procs = NULL;
  weir_llvm_call_procs(cx->ctx, API_VALUE(call), &procs);
  return API_FN_HANDLE(cx->ctx->fns[procs[k]].fn);
}

weir_status weir_ir_position_of(weir_analysis_ctx *cx, const weir_ir_value *inst, weir_ir_position *out) {
  if (!cx || !out || !inst || !LLVMIsAInstruction(API_VALUE(inst)))
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT, "weir_ir_position_of: cx, out or inst is NULL, or inst is not an "
                     "instruction. Fix: pass an instruction a callback got");
  LLVMValueRef v = API_VALUE(inst);
  unsigned dir_length = 0, file_length = 0;
  const char *dir = LLVMGetDebugLocDirectory(v, &dir_length);
  const char *file = LLVMGetDebugLocFilename(v, &file_length);
  out->line = file ? LLVMGetDebugLocLine(v) : 0;
  out->column = file ? LLVMGetDebugLocColumn(v) : 0;
  if (!file || !file_length) snprintf(cx->file, sizeof cx->file, "%s", cx->ctx->out->name);
  else if (file[0] == '/' || !dir || !dir_length) snprintf(cx->file, sizeof cx->file, "%.*s", (int)file_length, file);
  else snprintf(cx->file, sizeof cx->file, "%.*s/%.*s", (int)dir_length, dir, (int)file_length, file);
  out->file = cx->file;
  return WEIR_OK;
}

int weir_ir_is_pointer(weir_analysis_ctx *cx, const weir_ir_value *v) {
  (void)cx;
  return v && weir_llvm_is_pointer(API_VALUE(v));
}

uint64_t weir_ir_type_size(weir_analysis_ctx *cx, const weir_ir_value *v) {
  if (!cx || !v) return 0;
  LLVMTypeRef type = LLVMTypeOf(API_VALUE(v));
  if (!LLVMTypeIsSized(type)) return 0;
  return LLVMABISizeOfType(LLVMGetModuleDataLayout(cx->ctx->module), type);
}

int weir_ir_constant_int(weir_analysis_ctx *cx, const weir_ir_value *v, int64_t *out) {
  (void)cx;
  if (!v || !out || !LLVMIsAConstantInt(API_VALUE(v))) return 0;
  *out = LLVMConstIntGetSExtValue(API_VALUE(v));
  return 1;
}

const weir_ir_function *weir_ir_function_of(weir_analysis_ctx *cx, const weir_ir_value *h) {
  (void)cx;
  LLVMValueRef v = API_VALUE(h);
  if (!v) return NULL;
  if (LLVMIsAArgument(v)) return API_FN_HANDLE(LLVMGetParamParent(v));
  if (LLVMIsAInstruction(v)) return API_FN_HANDLE(LLVMGetBasicBlockParent(LLVMGetInstructionParent(v)));
  return NULL;
}

const char *weir_ir_function_name(weir_analysis_ctx *cx, const weir_ir_function *fn, size_t *length) {
  (void)cx;
  size_t ignored = 0;
  if (!length) length = &ignored;
  *length = 0;
  return fn ? LLVMGetValueName2(API_FN(fn), length) : "";
}

uint32_t weir_ir_param_count(weir_analysis_ctx *cx, const weir_ir_function *fn) {
  (void)cx;
  return fn ? LLVMCountParams(API_FN(fn)) : 0;
}

const weir_ir_value *weir_ir_param(weir_analysis_ctx *cx, const weir_ir_function *fn, uint32_t k) {
  return k < weir_ir_param_count(cx, fn) ? API_HANDLE(LLVMGetParam(API_FN(fn), k)) : NULL;
}

int weir_ir_function_is_defined(weir_analysis_ctx *cx, const weir_ir_function *fn) {
  (void)cx;
  return fn && !LLVMIsDeclaration(API_FN(fn));
}

/* ---- 1.1 ------------------------------------------------------------------ */

uint32_t weir_ir_value_count(weir_analysis_ctx *cx) { return cx ? cx->ctx->value_count : 0; }

const weir_ir_value *weir_ir_value_at(weir_analysis_ctx *cx, uint32_t k) {
  return cx && k < cx->ctx->value_count ? API_HANDLE(cx->ctx->values[k]) : NULL;
}

uint32_t weir_ir_function_count(weir_analysis_ctx *cx) { return cx ? cx->ctx->fn_count : 0; }

const weir_ir_function *weir_ir_function_at(weir_analysis_ctx *cx, uint32_t k) {
  return cx && k < cx->ctx->fn_count ? API_FN_HANDLE(cx->ctx->fns[k].fn) : NULL;
}

uint32_t weir_ir_function_index(weir_analysis_ctx *cx, const weir_ir_function *fn) {
  return cx && fn ? weir_llvm_map_get(&cx->ctx->fn_index, API_FN(fn)) : UINT32_MAX;
}

int weir_ir_function_is_variadic(weir_analysis_ctx *cx, const weir_ir_function *fn) {
  (void)cx;
  return fn && LLVMIsAFunction(API_FN(fn)) && LLVMIsFunctionVarArg(LLVMGlobalGetValueType(API_FN(fn)));
}

const weir_ir_value *weir_ir_first_instruction(weir_analysis_ctx *cx, const weir_ir_function *fn) {
  (void)cx;
  if (!fn || !LLVMIsAFunction(API_FN(fn)) || LLVMIsDeclaration(API_FN(fn))) return NULL;
  return API_HANDLE(LLVMGetFirstInstruction(LLVMGetEntryBasicBlock(API_FN(fn))));
}

int weir_ir_call_is_library(weir_analysis_ctx *cx, const weir_ir_value *call) {
  return cx && is_call(API_VALUE(call)) && weir_llvm_classify_call(cx->ctx, API_VALUE(call)) == WEIR_LLVM_CALL_EXTERNAL;
}

int weir_ir_pointee_is_struct(weir_analysis_ctx *cx, const weir_ir_value *v) {
  (void)cx;
  return v && weir_llvm_is_pointer(API_VALUE(v)) &&
         LLVMGetTypeKind(LLVMGetElementType(LLVMTypeOf(API_VALUE(v)))) == LLVMStructTypeKind;
}

int weir_ir_points_to_struct(weir_analysis_ctx *cx, const weir_ir_value *v) {
  (void)cx;
  return v && weir_llvm_points_to_struct(API_VALUE(v));
}
