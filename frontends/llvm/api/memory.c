/* The memory model through the API (include/weir/analysis.h, "the memory
 * model"): memory/memory.h and the shared queries of analyses/common.c,
 * with ids checked against the model's counts. */
#include <stdio.h>
#include <string.h>

#include "frontends/llvm/api/api.h"

static int location_ok(weir_analysis_ctx *cx, weir_mem_location location) {
  return cx && location < cx->locations;
}

static int object_ok(weir_analysis_ctx *cx, weir_mem_object object) {
  return cx && object < weir_llvm_memory_object_count(cx->ctx->memory);
}

size_t weir_mem_points_to(weir_analysis_ctx *cx, const weir_ir_value *pointer, const weir_mem_location **out) {
  static const weir_mem_location none[1] = {0};
  if (out) *out = none;
  if (!cx || !pointer || !out) return 0;
  return weir_llvm_pts(cx->ctx, API_VALUE(pointer), out);
}

size_t weir_mem_contents(weir_analysis_ctx *cx, weir_mem_location location, const weir_mem_location **out) {
  static const weir_mem_location none[1] = {0};
  if (out) *out = none;
  if (!location_ok(cx, location) || !out) return 0;
  return weir_llvm_memory_contents(cx->ctx->memory, location, out);
}

int weir_mem_is_vague(weir_analysis_ctx *cx, const weir_ir_value *pointer) {
  return cx && pointer && weir_llvm_pts_vague(cx->ctx, API_VALUE(pointer));
}

weir_mem_object weir_mem_object_of(weir_analysis_ctx *cx, weir_mem_location location) {
  return location_ok(cx, location) ? weir_llvm_memory_location(cx->ctx->memory, location).object : WEIR_MEM_NONE;
}

uint32_t weir_mem_offset(weir_analysis_ctx *cx, weir_mem_location location) {
  return location_ok(cx, location) ? weir_llvm_memory_location(cx->ctx->memory, location).offset : 0;
}

weir_mem_kind weir_mem_object_kind(weir_analysis_ctx *cx, weir_mem_object object) {
  if (!object_ok(cx, object)) return WEIR_MEM_EXTERNAL;
  /* The two enums list the kinds in the same order (memory/memory.h). */
  return (weir_mem_kind)weir_llvm_memory_object(cx->ctx->memory, object)->kind;
}

void weir_mem_object_locations(weir_analysis_ctx *cx, weir_mem_object object, weir_mem_location *first,
                               uint32_t *count) {
  if (first) *first = WEIR_MEM_NONE;
  if (count) *count = 0;
  if (!object_ok(cx, object) || !first || !count) return;
  const weir_llvm_object *o = weir_llvm_memory_object(cx->ctx->memory, object);
  *first = o->first_location;
  *count = o->location_count;
}

const weir_ir_value *weir_mem_object_site(weir_analysis_ctx *cx, weir_mem_object object) {
  return object_ok(cx, object) ? API_HANDLE(weir_llvm_memory_object(cx->ctx->memory, object)->site) : NULL;
}

weir_mem_object weir_mem_allocated_object(weir_analysis_ctx *cx, const weir_ir_value *call) {
  if (!cx || !call || !LLVMIsACallInst(API_VALUE(call))) return WEIR_MEM_NONE;
  return weir_llvm_allocated_object(cx->ctx, API_VALUE(call));
}

int weir_mem_strong(weir_analysis_ctx *cx, weir_mem_location location) {
  return location_ok(cx, location) && weir_llvm_strong_target(cx->ctx, location);
}

static size_t summary(weir_analysis_ctx *cx, const weir_ir_function *fn, const weir_mem_location **out, int mod) {
  static const weir_mem_location none[1] = {0};
  if (out) *out = none;
  if (!cx || !fn || !out || LLVMIsDeclaration(API_FN(fn))) return 0;
  return mod ? weir_llvm_memory_mod(cx->ctx->memory, API_FN(fn), out)
             : weir_llvm_memory_ref(cx->ctx->memory, API_FN(fn), out);
}

size_t weir_mem_mod(weir_analysis_ctx *cx, const weir_ir_function *fn, const weir_mem_location **out) {
  return summary(cx, fn, out, 1);
}

size_t weir_mem_ref(weir_analysis_ctx *cx, const weir_ir_function *fn, const weir_mem_location **out) {
  return summary(cx, fn, out, 0);
}

int weir_mem_call_may_touch(weir_analysis_ctx *cx, const weir_ir_value *call, weir_mem_location location) {
  if (!location_ok(cx, location) || !call) return 0;
  LLVMValueRef c = API_VALUE(call);
  if (c != cx->reach_call) {
    if (!LLVMIsACallInst(c)) return 0;
    cx->reach = weir_llvm_call_reach(cx->ctx, c);
    /* an unnumbered call's reach is scratch that the next one overwrites */
    cx->reach_call = weir_llvm_vid(cx->ctx, c) != WEIR_LLVM_NONE ? c : NULL;
  }
  return weir_llvm_call_may_touch(cx->ctx, c, cx->reach, location);
}

void weir_mem_argv(weir_analysis_ctx *cx, weir_mem_location *array, weir_mem_location *strings) {
  uint32_t a = WEIR_MEM_NONE, s = WEIR_MEM_NONE;
  if (cx) weir_llvm_memory_argv(cx->ctx->memory, &a, &s);
  if (array) *array = a;
  if (strings) *strings = s;
}

size_t weir_mem_describe(weir_analysis_ctx *cx, weir_mem_location location, char *out, size_t size) {
  if (out && size) out[0] = 0;
  if (!location_ok(cx, location)) return 0;
  weir_llvm_text text = {0};
  weir_llvm_memory_describe(cx->ctx->memory, location, &text);
  size_t n = text.failed ? 0 : text.n;
  if (out && size) snprintf(out, size, "%.*s", (int)n, text.p ? text.p : "");
  weir_llvm_text_free(&text);
  return n;
}

/* ---- 1.1 ------------------------------------------------------------------ */

uint32_t weir_mem_location_count(weir_analysis_ctx *cx) {
  return cx ? weir_llvm_memory_location_count(cx->ctx->memory) : 0;
}

weir_mem_object weir_mem_object_of_site(weir_analysis_ctx *cx, const weir_ir_value *site) {
  return cx && site ? weir_llvm_memory_object_of_site(cx->ctx->memory, API_VALUE(site)) : WEIR_MEM_NONE;
}

void weir_mem_block(weir_analysis_ctx *cx, weir_mem_location location, weir_mem_location *end) {
  if (!end) return;
  *end = location;
  if (!location_ok(cx, location)) return;
  uint32_t first;
  weir_llvm_block(cx->ctx, location, &first, end);
}

size_t weir_mem_points_to_deep(weir_analysis_ctx *cx, const weir_ir_value *pointer, int depth,
                               const weir_mem_location **out) {
  static const weir_mem_location none[1] = {0};
  if (out) *out = none;
  if (!cx || !pointer || !out) return 0;
  weir_llvm_pts_deep(cx->ctx, API_VALUE(pointer), depth < 0 ? 0 : depth, &cx->deep);
  if (cx->deep.failed) {
    weir_llvm_api_failure(cx, WEIR_ERR_OUT_OF_MEMORY, "weir_mem_points_to_deep: no memory for %zu locations. "
                          "Fix: free memory", cx->deep.n);
    return 0;
  }
  *out = cx->deep.n ? cx->deep.v : none;
  return cx->deep.n;
}

size_t weir_mem_call_mod(weir_analysis_ctx *cx, const weir_ir_value *call, const weir_mem_location **out) {
  static const weir_mem_location none[1] = {0};
  if (out) *out = none;
  if (!cx || !call || !out || !LLVMIsACallInst(API_VALUE(call))) return 0;
  const weir_llvm_vec *mod = weir_llvm_callee_mod(cx->ctx, API_VALUE(call));
  *out = mod->n ? mod->v : none;
  return mod->n;
}

void weir_mem_library_call(weir_analysis_ctx *cx, const weir_ir_value *call, weir_mem_call_info *out) {
  if (!out) return;
  *out = (weir_mem_call_info){0, 0, UINT32_MAX, UINT32_MAX, UINT32_MAX, UINT32_MAX, UINT32_MAX, 0, 0};
  if (!cx || !call || !LLVMIsACallInst(API_VALUE(call))) return;
  const weir_llvm_libcall *m = weir_llvm_call_model(cx->ctx, API_VALUE(call));
  *out = (weir_mem_call_info){(uint32_t)m->known, m->alloc, m->alloc_from, m->frees, m->returns_arg, m->copy_from,
                              m->copy_to, m->writes, m->reads};
}
