/* Entry points of the frontend: read a module, build the problem text, load
 * it through weir_ifds_load_memory, write it for --emit-ifds. */
#include <llvm-c/IRReader.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "frontends/llvm/internal.h"

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

weir_status weir_llvm_analysis_parse(const char *name, weir_llvm_analysis *out) {
  if (name && strcmp(name, "taint") == 0) *out = WEIR_LLVM_TAINT;
  else if (name && strcmp(name, "uninit") == 0) *out = WEIR_LLVM_UNINIT;
  else
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT, "analyze: unknown analysis '%s'. Fix: use taint or uninit",
                     name ? name : "(null)");
  return WEIR_OK;
}

const char *weir_llvm_analysis_name(weir_llvm_analysis analysis) {
  return analysis == WEIR_LLVM_TAINT ? "taint" : "uninit";
}

const char *weir_llvm_rule_id(weir_llvm_analysis analysis) {
  return analysis == WEIR_LLVM_TAINT ? "weir-taint" : "weir-uninit";
}

static weir_status build_module(weir_llvm_problem *problem, LLVMModuleRef module,
                                weir_llvm_analysis analysis, const weir_llvm_config *config) {
  weir_llvm_config *defaults = NULL;
  if (analysis == WEIR_LLVM_TAINT && !config) {
    WEIR_TRY(weir_llvm_config_new(&defaults));
    config = defaults;
  }
  weir_llvm_ctx ctx = {.module = module, .analysis = analysis, .config = config, .out = problem,
                       .hooks = analysis == WEIR_LLVM_TAINT ? &weir_llvm_taint_hooks : &weir_llvm_uninit_hooks};
  weir_status s = weir_llvm_icfg_prepare(&ctx);
  if (s == WEIR_OK) s = weir_llvm_emit(&ctx);
  weir_llvm_ctx_free(&ctx);
  weir_llvm_config_free(defaults);
  return s;
}

/* Takes ownership of `buffer` (LLVMParseIRInContext does). */
static weir_status build_buffer(const char *name, LLVMMemoryBufferRef buffer, weir_llvm_analysis analysis,
                                const weir_llvm_config *config, weir_llvm_problem **out) {
  *out = NULL;
  double t0 = now();
  weir_llvm_problem *problem = calloc(1, sizeof *problem);
  LLVMContextRef context = LLVMContextCreate();
  if (!problem || !context) {
    free(problem);
    LLVMDisposeMemoryBuffer(buffer);
    if (context) LLVMContextDispose(context);
    return weir_fail(WEIR_ERR_OUT_OF_MEMORY, "analyze %s: no memory. Fix: free memory", name);
  }
  problem->analysis = analysis;
  snprintf(problem->name, sizeof problem->name, "%s", name);
  LLVMModuleRef module = NULL;
  char *error = NULL;
  weir_status s = WEIR_OK;
  if (LLVMParseIRInContext(context, buffer, &module, &error)) {
    s = weir_fail(WEIR_ERR_PARSE,
                  "analyze %s: not a readable LLVM 14 module: %s. Fix: give a .ll or .bc made by "
                  "clang-14 -g -O0 -emit-llvm (link several with llvm-link-14)",
                  name, error ? error : "unknown error");
    LLVMDisposeMessage(error);
  } else {
    double t1 = now();
    problem->stats.seconds_parse = t1 - t0;
    s = build_module(problem, module, analysis, config);
    problem->stats.seconds_build = now() - t1;
    LLVMDisposeModule(module);
  }
  LLVMContextDispose(context);
  if (s != WEIR_OK) {
    weir_llvm_problem_free(problem);
    return s;
  }
  *out = problem;
  return WEIR_OK;
}

weir_status weir_llvm_build(const char *path, weir_llvm_analysis analysis, const weir_llvm_config *config,
                            weir_llvm_problem **out) {
  LLVMMemoryBufferRef buffer = NULL;
  char *error = NULL;
  if (out) *out = NULL;
  if (!path || !out)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT, "analyze: path or out is NULL. Fix: pass both");
  if (LLVMCreateMemoryBufferWithContentsOfFile(path, &buffer, &error)) {
    weir_status s = weir_fail(WEIR_ERR_IO, "analyze: cannot read '%s': %s. Fix: check the path", path,
                              error ? error : "unknown error");
    LLVMDisposeMessage(error);
    return s;
  }
  return build_buffer(path, buffer, analysis, config, out);
}

weir_status weir_llvm_build_memory(const char *name, const char *data, size_t length,
                                   weir_llvm_analysis analysis, const weir_llvm_config *config,
                                   weir_llvm_problem **out) {
  if (out) *out = NULL;
  if (!name || !data || !out)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT, "analyze: name, data or out is NULL. Fix: pass all three");
  LLVMMemoryBufferRef buffer = LLVMCreateMemoryBufferWithMemoryRangeCopy(data, length, name);
  if (!buffer) return weir_fail(WEIR_ERR_OUT_OF_MEMORY, "analyze %s: no memory for %zu bytes. Fix: free memory", name, length);
  return build_buffer(name, buffer, analysis, config, out);
}

void weir_llvm_problem_free(weir_llvm_problem *problem) {
  if (!problem) return;
  for (size_t k = 0; k < problem->loc_count; ++k) {
    free(problem->locs[k].file);
    free(problem->locs[k].function);
    free(problem->locs[k].text);
  }
  for (size_t k = 0; k < problem->check_count; ++k) free(problem->checks[k].message);
  for (size_t k = 0; k < problem->source_count; ++k) free(problem->sources[k].name);
  free(problem->locs);
  free(problem->checks);
  free(problem->sources);
  weir_llvm_vec_free(&problem->check_facts);
  weir_llvm_text_free(&problem->text);
  free(problem);
}

const char *weir_llvm_problem_text(const weir_llvm_problem *problem, size_t *length) {
  if (length) *length = problem->text.n;
  return problem->text.p;
}

const weir_llvm_build_stats *weir_llvm_problem_stats(const weir_llvm_problem *problem) {
  return &problem->stats;
}

weir_status weir_llvm_problem_load(const weir_llvm_problem *problem, weir_ifds_problem **out) {
  char name[600];
  snprintf(name, sizeof name, "%s (%s problem)", problem->name, weir_llvm_analysis_name(problem->analysis));
  weir_status s = weir_ifds_load_memory(name, problem->text.p, problem->text.n, out);
  if (s != WEIR_OK)
    return weir_fail_context(s, "analyze: the frontend built a problem the loader refuses (a bug in "
                                "frontends/llvm; --emit-ifds writes it for a report)");
  return WEIR_OK;
}

weir_status weir_llvm_problem_write(const weir_llvm_problem *problem, const char *path) {
  FILE *f = fopen(path, "wb");
  if (!f) return weir_fail(WEIR_ERR_IO, "analyze: cannot create '%s'. Fix: check the --emit-ifds path", path);
  size_t wrote = fwrite(problem->text.p, 1, problem->text.n, f);
  int bad = wrote != problem->text.n;
  bad |= fclose(f) != 0;
  if (bad)
    return weir_fail(WEIR_ERR_IO, "analyze: writing %zu bytes to '%s' failed. Fix: check the disk space",
                     problem->text.n, path);
  return WEIR_OK;
}
