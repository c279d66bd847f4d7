/* Entry points of the frontend: read a module, prepare it, build the problem
 * (the built problem's accessors are in problem.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "frontends/llvm/api/api.h"
#include "frontends/llvm/internal.h"
#include "frontends/llvm/module/module.h"

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

weir_status weir_llvm_analysis_parse(const char *name, weir_llvm_analysis *out) {
  if (name && strcmp(name, "taint") == 0) *out = WEIR_LLVM_TAINT;
  else if (name && strcmp(name, "uninit") == 0) *out = WEIR_LLVM_UNINIT;
  else if (name && strcmp(name, "uaf") == 0) *out = WEIR_LLVM_UAF;
  else if (name && strcmp(name, "typestate") == 0) *out = WEIR_LLVM_TYPESTATE;
  else if (name && strcmp(name, "const") == 0) *out = WEIR_LLVM_CONST;
  else
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "analyze: unknown analysis '%s'. Fix: use taint, uninit, uaf, typestate or const",
                     name ? name : "(null)");
  return WEIR_OK;
}

const char *weir_llvm_analysis_name(weir_llvm_analysis analysis) {
  return analysis == WEIR_LLVM_TAINT    ? "taint"
         : analysis == WEIR_LLVM_UNINIT ? "uninit"
         : analysis == WEIR_LLVM_UAF    ? "uaf"
         : analysis == WEIR_LLVM_TYPESTATE ? "typestate"
         : analysis == WEIR_LLVM_CONST ? "const"
                                        : "plugin";
}

const char *weir_llvm_problem_analysis(const weir_llvm_problem *problem) {
  return problem->analysis == WEIR_LLVM_PLUGIN ? problem->plugin_id : weir_llvm_analysis_name(problem->analysis);
}

/* The built-ins still on the internal hooks; taint is written on the
 * analysis API and runs as a built-in plugin (api/load.c). */
static const weir_llvm_hooks *hooks_of(weir_llvm_analysis analysis) {
  if (analysis == WEIR_LLVM_UNINIT) return &weir_llvm_uninit_hooks;
  if (analysis == WEIR_LLVM_UAF) return &weir_llvm_uaf_hooks;
  if (analysis == WEIR_LLVM_TYPESTATE) return &weir_llvm_typestate_hooks;
  if (analysis == WEIR_LLVM_CONST) return &weir_llvm_const_hooks;
  return NULL;
}

/* The memory model first (it resolves indirect calls for the ICFG), then
 * the ICFG, then the problem. Every analysis reads the library table,
 * so the defaults stand in when no configuration was given. */
/* The ICFG and the problem over the memory model, with the hooks of the
 * analysis (a plugin's: the adapter of api/ around them). */
static weir_status build_flows(weir_llvm_ctx *ctx, const weir_llvm_plugin *plugin) {
  weir_status s = plugin ? weir_llvm_api_begin(ctx, plugin) : WEIR_OK;
  if (s == WEIR_OK) s = weir_llvm_icfg_prepare(ctx);
  if (s == WEIR_OK) s = weir_llvm_emit(ctx);
  if (plugin) s = weir_llvm_api_end(ctx, s);
  return s;
}

static weir_status build_module(weir_llvm_problem *problem, LLVMModuleRef module,
                                weir_llvm_analysis analysis, const weir_llvm_config *config,
                                const weir_llvm_plugin *plugin) {
  weir_llvm_config *defaults = NULL;
  if (analysis == WEIR_LLVM_TYPESTATE && !plugin && (!config || !config->typestate))
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT, "analyze typestate: no spec. Fix: pass --spec FILE "
                     "(share/weir/typestate/*.spec, docs/typestate.md)");
  if (!plugin && !hooks_of(analysis))
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT, "analyze %s: no built-in plugin given for an analysis written on "
                     "the analysis API. Fix: build through weir_llvm_build_files, which registers it",
                     weir_llvm_analysis_name(analysis));
  if (!config) {
    WEIR_TRY(weir_llvm_config_new(&defaults));
    config = defaults;
  }
  weir_status s = WEIR_OK;
  if (config->prune_with_const && analysis != WEIR_LLVM_CONST) { /* analyses/const/prune.c */
    double t0 = now();
    s = weir_llvm_const_prune(module, config, &problem->stats);
    problem->stats.seconds_const_prune = now() - t0;
    if (s == WEIR_ERR_OUT_OF_MEMORY && problem->stats.const_prune_skipped) { /* module untouched: go on */
      snprintf(problem->stats.const_prune_reason, sizeof problem->stats.const_prune_reason, "%s", weir_last_error());
      s = WEIR_OK;
    }
    if (s != WEIR_OK) {
      weir_llvm_config_free(defaults);
      return s;
    }
  }
  weir_llvm_memory *memory = NULL;
  s = weir_llvm_memory_build(module, config, &memory);
  if (s == WEIR_OK) {
    const weir_llvm_memory_stats *ms = weir_llvm_memory_get_stats(memory);
    problem->stats.seconds_points_to = ms->seconds;
    problem->stats.memory_objects = ms->objects;
    problem->stats.memory_locations = ms->locations;
    problem->stats.memory_degraded = ms->degraded;
    problem->stats.memory_pairs = ms->points_to_pairs;
    problem->stats.memory_work = ms->work;
    problem->stats.memory_iterations = ms->iterations;
    problem->stats.memory_merged = ms->merged;
    weir_llvm_ctx ctx = {.module = module, .memory = memory, .analysis = analysis, .config = config,
                         .out = problem, .hooks = plugin ? &weir_llvm_api_hooks : hooks_of(analysis),
                         .names = analysis == WEIR_LLVM_TAINT ? config : NULL};
    s = build_flows(&ctx, plugin);
    weir_llvm_ctx_free(&ctx);
  }
  weir_llvm_memory_free(memory);
  weir_llvm_config_free(defaults);
  return s;
}

/* What to read: files (paths, count) or one module in memory (name, data). */
typedef struct build_input {
  const char *const *paths;
  size_t count;
  const char *name, *data;
  size_t length;
} build_input;

static void copy_prepare_stats(weir_llvm_build_stats *b, const weir_llvm_prepare_stats *p) {
  b->modules = p->modules;
  b->optnone_stripped = p->optnone_stripped;
  b->constant_globals = p->constant_globals;
  b->constant_functions = p->constant_functions;
  b->folded_branches = p->folded_branches;
  b->removed_blocks = p->removed_blocks;
  b->threaded_edges = p->threaded_edges;
  b->noreturn_calls = p->noreturn_calls;
  b->forwarded_loads = p->forwarded_loads;
  b->out_slots = p->out_slots;
  b->promoted = p->promoted;
  b->seconds_prepare = p->seconds;
}

/* Reads and links the input into one module and prepares it for the
 * analyses (frontends/llvm/module/). */
static weir_status read_prepared(LLVMContextRef context, const build_input *in, weir_llvm_build_stats *stats,
                                 LLVMModuleRef *module) {
  double t0 = now();
  weir_status s = in->paths ? weir_llvm_module_read(context, in->paths, in->count, module)
                            : weir_llvm_module_read_memory(context, in->name, in->data, in->length, module);
  if (s != WEIR_OK) return s;
  stats->seconds_parse = now() - t0;
  weir_llvm_prepare_stats prepared = {.modules = in->paths ? (uint32_t)in->count : 1};
  s = weir_llvm_module_prepare(*module, &prepared);
  copy_prepare_stats(stats, &prepared);
  if (s != WEIR_OK) {
    LLVMDisposeModule(*module);
    *module = NULL;
  }
  return s;
}

static weir_status build_from(const build_input *in, weir_llvm_analysis analysis, const weir_llvm_config *config,
                              const weir_llvm_plugin *plugin, weir_llvm_problem **out) {
  *out = NULL;
  weir_llvm_problem *problem = calloc(1, sizeof *problem);
  LLVMContextRef context = LLVMContextCreate();
  if (!problem || !context) {
    free(problem);
    if (context) LLVMContextDispose(context);
    return weir_fail(WEIR_ERR_OUT_OF_MEMORY, "analyze %s: no memory. Fix: free memory",
                     in->paths ? in->paths[0] : in->name);
  }
  problem->analysis = plugin ? WEIR_LLVM_PLUGIN : analysis;
  if (!in->paths) snprintf(problem->name, sizeof problem->name, "%s", in->name);
  else if (in->count == 1) snprintf(problem->name, sizeof problem->name, "%s", in->paths[0]);
  else snprintf(problem->name, sizeof problem->name, "%s (+%zu more)", in->paths[0], in->count - 1);
  LLVMModuleRef module = NULL;
  weir_llvm_plugin *builtin = NULL; /* a built-in written on the API (api/load.c) */
  weir_status s = read_prepared(context, in, &problem->stats, &module);
  if (s == WEIR_OK && !plugin) s = weir_llvm_plugin_builtin(analysis, &builtin);
  if (s == WEIR_OK) {
    double t1 = now();
    s = build_module(problem, module, problem->analysis, config, plugin ? plugin : builtin);
    problem->stats.seconds_build = now() - t1;
    LLVMDisposeModule(module);
  } else if (module) {
    LLVMDisposeModule(module);
  }
  weir_llvm_plugin_close(builtin);
  LLVMContextDispose(context);
  if (s != WEIR_OK) {
    weir_llvm_problem_free(problem);
    return s;
  }
  *out = problem;
  return WEIR_OK;
}

weir_status weir_llvm_build_files(const char *const *paths, size_t count, weir_llvm_analysis analysis,
                                  const weir_llvm_config *config, weir_llvm_problem **out) {
  if (out) *out = NULL;
  if (!paths || count == 0 || !out)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "analyze: no files (paths NULL or count 0) or out is NULL. Fix: give at least one "
                     ".ll or .bc file");
  if (analysis == WEIR_LLVM_PLUGIN)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT, "analyze: WEIR_LLVM_PLUGIN without a plugin. Fix: call "
                     "weir_llvm_build_plugin_files with the weir_llvm_plugin");
  build_input in = {.paths = paths, .count = count};
  return build_from(&in, analysis, config, NULL, out);
}

weir_status weir_llvm_build(const char *path, weir_llvm_analysis analysis, const weir_llvm_config *config,
                            weir_llvm_problem **out) {
  if (out) *out = NULL;
  if (!path || !out)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT, "analyze: path or out is NULL. Fix: pass both");
  return weir_llvm_build_files(&path, 1, analysis, config, out);
}

weir_status weir_llvm_build_memory(const char *name, const char *data, size_t length,
                                   weir_llvm_analysis analysis, const weir_llvm_config *config,
                                   weir_llvm_problem **out) {
  if (out) *out = NULL;
  if (!name || !data || !out)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT, "analyze: name, data or out is NULL. Fix: pass all three");
  if (analysis == WEIR_LLVM_PLUGIN)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT, "analyze: WEIR_LLVM_PLUGIN without a plugin. Fix: call "
                     "weir_llvm_build_plugin_memory with the weir_llvm_plugin");
  build_input in = {.name = name, .data = data, .length = length};
  return build_from(&in, analysis, config, NULL, out);
}

weir_status weir_llvm_build_plugin_files(const char *const *paths, size_t count, const weir_llvm_plugin *plugin,
                                         const weir_llvm_config *config, weir_llvm_problem **out) {
  if (out) *out = NULL;
  if (!paths || count == 0 || !plugin || !out)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT, "analyze: no files (paths NULL or count 0), no plugin or out is "
                     "NULL. Fix: give at least one .ll or .bc file and an opened plugin");
  build_input in = {.paths = paths, .count = count};
  return build_from(&in, WEIR_LLVM_PLUGIN, config, plugin, out);
}

weir_status weir_llvm_build_plugin_memory(const char *name, const char *data, size_t length,
                                          const weir_llvm_plugin *plugin, const weir_llvm_config *config,
                                          weir_llvm_problem **out) {
  if (out) *out = NULL;
  if (!name || !data || !plugin || !out)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT, "analyze: name, data, plugin or out is NULL. Fix: pass all four");
  build_input in = {.name = name, .data = data, .length = length};
  return build_from(&in, WEIR_LLVM_PLUGIN, config, plugin, out);
}
