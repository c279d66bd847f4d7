/* The facts of a plugin analysis: one table per declared kind (by value id,
 * location or procedure), numbered through weir_llvm_new_fact so that the
 * legend, pruning and the fact map work as for the built-ins. A fact's
 * fact_info is (kind index, id). */
#include <stdlib.h>
#include <string.h>

#include "frontends/llvm/api/api.h"

static int is_void(LLVMValueRef v) { return LLVMGetTypeKind(LLVMTypeOf(v)) == LLVMVoidTypeKind; }

static int writable(const weir_llvm_ctx *ctx, uint32_t location) {
  uint32_t object = weir_llvm_memory_location(ctx->memory, location).object;
  weir_llvm_object_kind k = weir_llvm_memory_object(ctx->memory, object)->kind;
  return k != WEIR_LLVM_OBJECT_CONSTANT && k != WEIR_LLVM_OBJECT_FUNCTION;
}

static int returns_value(const weir_llvm_ctx *ctx, uint32_t proc) {
  LLVMTypeRef type = LLVMGetReturnType(LLVMGlobalGetValueType(ctx->fns[proc].fn));
  return LLVMGetTypeKind(type) != LLVMVoidTypeKind;
}

/* One kind's table: which elements of its domain get a fact. */
static void number_kind(weir_analysis_ctx *cx, uint32_t kind) {
  weir_llvm_ctx *ctx = cx->ctx;
  const weir_fact_kind *k = &cx->decl->kinds[kind];
  uint32_t n = k->domain == WEIR_FACT_PER_VALUE      ? ctx->value_count
               : k->domain == WEIR_FACT_PER_LOCATION ? weir_llvm_memory_location_count(ctx->memory)
               : k->domain == WEIR_FACT_PER_RETURN   ? ctx->fn_count
                                                     : 0;
  if (k->domain == WEIR_FACT_CUSTOM) return;
  uint32_t *facts = calloc(n ? n : 1, sizeof *facts);
  if (!facts) {
    ctx->failed = 1;
    return;
  }
  cx->facts[kind] = facts;
  for (uint32_t id = 0; id < n; ++id) {
    int has = k->domain == WEIR_FACT_PER_VALUE      ? !is_void(ctx->values[id])
              : k->domain == WEIR_FACT_PER_LOCATION ? !(k->flags & WEIR_FACT_WRITABLE_ONLY) || writable(ctx, id)
                                                    : returns_value(ctx, id);
    if (has) facts[id] = weir_llvm_new_fact(ctx, kind, id);
  }
}

void weir_llvm_api_number(weir_llvm_ctx *ctx) {
  weir_analysis_ctx *cx = ctx->api;
  for (uint32_t kind = 0; kind < cx->decl->kind_count; ++kind) number_kind(cx, kind);
  /* The first FOLLOW (or LIVENESS) value kind's facts die after the value's last use
   * (module/emit.c, module/liveness.c read ctx->fact_a): such a fact says
   * something about the value, and nothing reads the value later. */
  for (uint32_t kind = 0; kind < cx->decl->kind_count; ++kind) {
    const weir_fact_kind *k = &cx->decl->kinds[kind];
    if (k->domain != WEIR_FACT_PER_VALUE || !(k->flags & (WEIR_FACT_FOLLOW | WEIR_FACT_LIVENESS)) || !cx->facts[kind])
      continue;
    memcpy(ctx->fact_a, cx->facts[kind], ctx->value_count * sizeof *ctx->fact_a);
    break;
  }
  if (!cx->decl->number) return;
  cx->numbering = 1;
  cx->decl->number(cx);
  cx->numbering = 0;
}

void weir_llvm_api_describe(weir_llvm_ctx *ctx, uint32_t fact, weir_llvm_text *out) {
  weir_analysis_ctx *cx = ctx->api;
  uint32_t kind = ctx->fact_info.v[2 * (fact - 1)], id = ctx->fact_info.v[2 * (fact - 1) + 1];
  const weir_fact_kind *k = &cx->decl->kinds[kind];
  if (k->domain == WEIR_FACT_PER_VALUE) {
    weir_llvm_describe_value(ctx, k->name, id, out);
  } else if (k->domain == WEIR_FACT_PER_LOCATION) {
    weir_llvm_text_printf(out, "%s ", k->name);
    weir_llvm_memory_describe(ctx->memory, id, out);
  } else if (k->domain == WEIR_FACT_PER_RETURN) {
    size_t length = 0;
    const char *name = LLVMGetValueName2(ctx->fns[id].fn, &length);
    weir_llvm_text_printf(out, "%s of %.*s", k->name, (int)length, name);
  } else {
    weir_llvm_text_printf(out, "%s %s", k->name, id < cx->custom_count ? cx->custom[id] : "?");
  }
}

void weir_llvm_api_facts_free(weir_analysis_ctx *cx) {
  for (uint32_t k = 0; k < WEIR_LLVM_API_MAX_KINDS; ++k) free(cx->facts[k]);
  for (size_t k = 0; k < cx->custom_count; ++k) free(cx->custom[k]);
  free(cx->custom);
}

uint32_t weir_llvm_api_value_fact(const weir_analysis_ctx *cx, uint32_t kind, LLVMValueRef v) {
  if (!v || !cx->facts[kind] || cx->decl->kinds[kind].domain != WEIR_FACT_PER_VALUE) return 0;
  uint32_t vid = weir_llvm_vid(cx->ctx, v);
  return vid == WEIR_LLVM_NONE ? 0 : cx->facts[kind][vid];
}

/* A kind index of the domain asked for, else a misuse. */
static int kind_ok(weir_analysis_ctx *cx, uint32_t kind, weir_fact_domain domain, const char *call) {
  if (!cx) return 0;
  if (kind < cx->decl->kind_count && cx->decl->kinds[kind].domain == domain) return 1;
  weir_llvm_api_misuse(cx, "%s(kind %u): the analysis declares %u kinds and kind %u is %s. Fix: pass the index "
                       "of a kind of the domain this call is for", call, kind, cx->decl->kind_count, kind,
                       kind < cx->decl->kind_count ? "of another domain" : "not one of them");
  return 0;
}

weir_fact weir_analysis_value_fact(weir_analysis_ctx *cx, uint32_t kind, const weir_ir_value *v) {
  if (!kind_ok(cx, kind, WEIR_FACT_PER_VALUE, "weir_analysis_value_fact")) return 0;
  return weir_llvm_api_value_fact(cx, kind, API_VALUE(v));
}

weir_fact weir_analysis_location_fact(weir_analysis_ctx *cx, uint32_t kind, weir_mem_location location) {
  /* the common case first: the built-in taint asks millions of times */
  if (cx && kind < cx->decl->kind_count && cx->decl->kinds[kind].domain == WEIR_FACT_PER_LOCATION &&
      cx->facts[kind] && location < cx->locations)
    return cx->facts[kind][location];
  if (!kind_ok(cx, kind, WEIR_FACT_PER_LOCATION, "weir_analysis_location_fact") || !cx->facts[kind]) return 0;
  if (location >= weir_llvm_memory_location_count(cx->ctx->memory)) {
    if (location != WEIR_MEM_NONE)
      weir_llvm_api_misuse(cx, "weir_analysis_location_fact: location %u of %u. Fix: pass a location the memory "
                           "queries gave", location, weir_llvm_memory_location_count(cx->ctx->memory));
    return 0;
  }
  return cx->facts[kind][location];
}

weir_fact weir_analysis_return_fact(weir_analysis_ctx *cx, uint32_t kind, const weir_ir_function *fn) {
  if (!kind_ok(cx, kind, WEIR_FACT_PER_RETURN, "weir_analysis_return_fact") || !cx->facts[kind] || !fn) return 0;
  uint32_t proc = weir_llvm_map_get(&cx->ctx->fn_index, API_FN(fn));
  return proc == WEIR_LLVM_NONE ? 0 : cx->facts[kind][proc];
}

weir_status weir_analysis_new_fact(weir_analysis_ctx *cx, uint32_t kind, const char *name, weir_fact *out) {
  if (out) *out = 0;
  if (!cx)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT, "weir_analysis_new_fact: cx is NULL. Fix: pass the context the "
                     "number callback got");
  if (!out || !name)
    return weir_llvm_api_misuse(cx, "weir_analysis_new_fact: %s is NULL. Fix: pass a name and where to put the "
                                "fact", !name ? "name" : "out");
  if (!cx->numbering)
    return weir_llvm_api_misuse(cx, "weir_analysis_new_fact('%s') outside the number callback. Fix: make custom "
                                "facts in weir_analysis.number", name);
  if (!kind_ok(cx, kind, WEIR_FACT_CUSTOM, "weir_analysis_new_fact")) return cx->error;
  if (cx->custom_count == cx->custom_cap) {
    size_t cap = cx->custom_cap ? 2 * cx->custom_cap : 16;
    char **grown = realloc(cx->custom, cap * sizeof *grown);
    if (!grown)
      return weir_llvm_api_failure(cx, WEIR_ERR_OUT_OF_MEMORY, "weir_analysis_new_fact: no memory for %zu custom "
                                   "facts. Fix: free memory, or make fewer facts", cap);
    cx->custom = grown, cx->custom_cap = cap;
  }
  char *copy = strdup(name);
  if (!copy)
    return weir_llvm_api_failure(cx, WEIR_ERR_OUT_OF_MEMORY, "weir_analysis_new_fact: no memory for the name of "
                                 "custom fact %zu. Fix: free memory", cx->custom_count);
  cx->custom[cx->custom_count] = copy;
  *out = weir_llvm_new_fact(cx->ctx, kind, (uint32_t)cx->custom_count++);
  return WEIR_OK;
}

void *weir_analysis_state(weir_analysis_ctx *cx) { return cx ? cx->state : NULL; }

weir_status weir_analysis_share_location_fact(weir_analysis_ctx *cx, uint32_t kind, weir_mem_location location,
                                              weir_fact fact) {
  if (!cx)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT, "weir_analysis_share_location_fact: cx is NULL. Fix: pass the "
                     "context the number callback got");
  if (!cx->numbering)
    return weir_llvm_api_misuse(cx, "weir_analysis_share_location_fact(location %u) outside the number callback. "
                                "Fix: share facts in weir_analysis.number", location);
  if (!kind_ok(cx, kind, WEIR_FACT_PER_LOCATION, "weir_analysis_share_location_fact")) return cx->error;
  uint32_t locations = weir_llvm_memory_location_count(cx->ctx->memory);
  if (location >= locations || fact == 0 || fact >= cx->ctx->fact_count || !cx->facts[kind])
    return weir_llvm_api_misuse(cx, "weir_analysis_share_location_fact: location %u of %u, fact %u of %u. Fix: "
                                "pass a location the memory queries gave and a fact weir_analysis_new_fact made",
                                location, locations, fact, cx->ctx->fact_count);
  cx->facts[kind][location] = fact;
  return WEIR_OK;
}

const weir_fact *weir_analysis_location_facts(weir_analysis_ctx *cx, uint32_t kind, uint32_t *count) {
  if (count) *count = 0;
  if (!kind_ok(cx, kind, WEIR_FACT_PER_LOCATION, "weir_analysis_location_facts") || !cx->facts[kind]) return NULL;
  if (count) *count = cx->locations;
  return cx->facts[kind];
}
