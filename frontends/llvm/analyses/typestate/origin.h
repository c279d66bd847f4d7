/* Where typestate resources can be (origin.c): a flow-insensitive pass over
 * the module that follows each creating call's result ("site") through SSA
 * copies, phis, selects, casts, stores and loads (the memory model's
 * points-to sets), block copies, arguments and returns. It decides which
 * values, locations and returns get a fact at all (the demand filter: a
 * value no resource reaches has none), which facts stand for the same
 * resource (aliases), which functions a resource's facts must go through,
 * and whether a resource escapes the function that made it (leaks). */
#ifndef WEIR_FRONTENDS_LLVM_TYPESTATE_ORIGIN_H
#define WEIR_FRONTENDS_LLVM_TYPESTATE_ORIGIN_H

#include "frontends/llvm/internal.h"

typedef struct weir_ts_state {
  uint32_t site_count;
  LLVMValueRef *site_call;   /* [site_count] the creating call (value specs) */
  uint32_t *site_fact;       /* [site_count] S(site): "the resource made there" (leak specs), 0: none */
  weir_llvm_vec *value;      /* [value_count] sorted sites whose resource the value may be */
  weir_llvm_vec *location;   /* [locations] sorted sites whose resource the location may hold */
  weir_llvm_vec *ret;        /* [fn_count] sorted sites a function may return */
  uint8_t *relevant;         /* [fn_count] 1: it or a callee makes a spec call on a resource */
  uint8_t *escapes;          /* [site_count] 3: closed together with other sites; 2: to an unknown callee; 1: out of its function */
  weir_llvm_vec *proc_values;/* [fn_count] the values of the function that have a fact */
  weir_llvm_vec fact_locations; /* locations that have a fact of their own, and one shared one, sorted */
  /* The places vague pointers (weir_llvm_pts_vague: a container's void *)
   * may point to share one origin set and one fact, as taint's do: a store
   * through such a pointer reaches one set, not hundreds. Never killed. */
  uint8_t *shared;           /* [locations] */
  weir_llvm_vec shared_origin;
  uint32_t passes;           /* passes the origin fixed point took */
} weir_ts_state;

/* Whether `name` (length) is named by a spec entry (any kind). */
int weir_ts_spec_names(const struct weir_ts_spec *spec, const char *name, size_t length);
/* Computes ctx->ts (value specs: origins; memory specs: the locations the
 * spec calls' arguments may point to). Sets ctx->failed on out of memory. */
void weir_ts_origins(weir_llvm_ctx *ctx);
/* Relevance of functions and escapes of sites, once facts are numbered. */
void weir_ts_relevance(weir_llvm_ctx *ctx);
/* The origin set of a location (the shared one for a vague pointer's target). */
const weir_llvm_vec *weir_ts_location_origin(const weir_llvm_ctx *ctx, uint32_t location);
/* The origin set of a value (empty for constants). */
const weir_llvm_vec *weir_ts_value_origin(const weir_llvm_ctx *ctx, LLVMValueRef v);
void weir_ts_state_free(weir_llvm_ctx *ctx);

#endif
