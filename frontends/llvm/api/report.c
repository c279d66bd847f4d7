/* Where a plugin's findings are (checks and sources, recorded exactly as the
 * built-ins record theirs: report/location.c), its rules as the problem's
 * own (report/rules.c reads them), and its library table. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontends/llvm/api/api.h"
#include "frontends/llvm/report/report.h"

/* The node of an instruction the check callback may name, or NONE. */
static uint32_t node_of(weir_analysis_ctx *cx, const weir_ir_value *inst, const char *call) {
  if (!cx->checking) {
    weir_llvm_api_misuse(cx, "%s outside the check callback. Fix: record findings and sources in "
                         "weir_analysis.check", call);
    return WEIR_LLVM_NONE;
  }
  uint32_t vid = inst ? weir_llvm_vid(cx->ctx, API_VALUE(inst)) : WEIR_LLVM_NONE;
  uint32_t node = vid == WEIR_LLVM_NONE || !LLVMIsAInstruction(API_VALUE(inst)) ? WEIR_LLVM_NONE : cx->ctx->node_of[vid];
  if (node == WEIR_LLVM_NONE)
    weir_llvm_api_misuse(cx, "%s: the value is not an instruction of a defined function. Fix: pass the "
                         "instruction the check callback got (or another one of the program)", call);
  return node;
}

weir_status weir_analysis_report(weir_analysis_ctx *cx, const weir_ir_value *inst, uint32_t rule,
                                 const weir_fact *facts, size_t count, const char *message) {
  if (!cx)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT, "weir_analysis_report: cx is NULL. Fix: pass the context the "
                     "check callback got");
  if ((!facts && count) || !message)
    return weir_llvm_api_misuse(cx, "weir_analysis_report: %s. Fix: pass the facts (count of them, or NULL and "
                                "0) and a message", !message ? "message is NULL" : "facts is NULL with a count");
  uint32_t node = node_of(cx, inst, "weir_analysis_report");
  if (node == WEIR_LLVM_NONE) return cx->error;
  if (rule >= cx->decl->rule_count)
    return weir_llvm_api_misuse(cx, "weir_analysis_report: rule %u, but %u rules are declared. Fix: pass the "
                                "index of one of weir_analysis.rules", rule, cx->decl->rule_count);
  for (size_t k = 0; k < count; ++k)
    if (facts[k] >= cx->ctx->fact_count)
      return weir_llvm_api_misuse(cx, "weir_analysis_report: fact %u, but the analysis has %u facts. Fix: pass "
                                  "facts that weir_analysis_*_fact gave", facts[k], cx->ctx->fact_count);
  weir_llvm_add_rule_check(cx->ctx, (weir_llvm_finding_rule)rule, node, facts, count, API_VALUE(inst), message);
  return WEIR_OK;
}

weir_status weir_analysis_source(weir_analysis_ctx *cx, const weir_ir_value *inst, const char *name) {
  if (!cx)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT, "weir_analysis_source: cx is NULL. Fix: pass the context the "
                     "check callback got");
  if (!name)
    return weir_llvm_api_misuse(cx, "weir_analysis_source: name is NULL. Fix: name the source (\"getpass\")");
  uint32_t node = node_of(cx, inst, "weir_analysis_source");
  if (node == WEIR_LLVM_NONE) return cx->error;
  weir_llvm_add_source(cx->ctx, node, API_VALUE(inst), name, strlen(name));
  return WEIR_OK;
}

weir_status weir_analysis_entry_source(weir_analysis_ctx *cx, const weir_ir_function *fn, const char *name) {
  if (!cx)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT, "weir_analysis_entry_source: cx is NULL. Fix: pass the context the "
                     "check callback got");
  if (!name)
    return weir_llvm_api_misuse(cx, "weir_analysis_entry_source: name is NULL. Fix: name the source (\"argv\")");
  if (!cx->checking)
    return weir_llvm_api_misuse(cx, "weir_analysis_entry_source('%s') outside the check callback. Fix: record "
                                "sources in weir_analysis.check", name);
  uint32_t proc = fn ? weir_llvm_map_get(&cx->ctx->fn_index, API_FN(fn)) : WEIR_LLVM_NONE;
  if (proc == WEIR_LLVM_NONE)
    return weir_llvm_api_misuse(cx, "weir_analysis_entry_source('%s'): not a defined function. Fix: pass a "
                                "function of the program with a body", name);
  LLVMValueRef first = LLVMGetFirstInstruction(LLVMGetEntryBasicBlock(API_FN(fn)));
  weir_llvm_add_source(cx->ctx, cx->ctx->fns[proc].first, first, name, strlen(name));
  return WEIR_OK;
}

static int selects(const weir_llvm_rule *rule, uint32_t arg) {
  if (arg == WEIR_LIBRARY_RET) return rule->arg == WEIR_LLVM_ARG_RET;
  return rule->arg != WEIR_LLVM_ARG_RET && (rule->from_on ? arg >= rule->arg : arg == rule->arg);
}

int weir_analysis_library(weir_analysis_ctx *cx, const weir_ir_value *call, weir_library_kind kind, uint32_t arg,
                          uint32_t *to) {
  if (!cx || !call || (unsigned)kind > (unsigned)WEIR_LIBRARY_TRANSFER) return 0;
  LLVMValueRef c = API_VALUE(call);
  if (!LLVMIsACallInst(c) && !LLVMIsAInvokeInst(c)) return 0;
  size_t length = 0;
  const char *name = weir_llvm_callee_name(c, &length);
  const weir_llvm_rule *rules[16];
  size_t n = weir_llvm_config_find(cx->table, (weir_llvm_rule_kind)kind, name, length, rules, 16);
  for (size_t r = 0; r < n; ++r) {
    if (kind != WEIR_LIBRARY_SANITIZER && !selects(rules[r], arg)) continue;
    if (to) *to = rules[r]->to_arg % 256;
    return rules[r]->deep ? 2 : 1;
  }
  return 0;
}

size_t weir_analysis_library_rules(weir_analysis_ctx *cx, const weir_ir_value *call, weir_library_kind kind,
                                   weir_library_rule *out, size_t capacity) {
  if (!cx || !call || (!out && capacity) || (unsigned)kind > (unsigned)WEIR_LIBRARY_TRANSFER) return 0;
  LLVMValueRef c = API_VALUE(call);
  if (!LLVMIsACallInst(c) && !LLVMIsAInvokeInst(c)) return 0;
  size_t length = 0;
  const char *name = weir_llvm_callee_name(c, &length);
  const weir_llvm_rule *rules[16];
  size_t n = weir_llvm_config_find(cx->table, (weir_llvm_rule_kind)kind, name, length, rules, 16);
  if (n > capacity) n = capacity;
  for (size_t r = 0; r < n; ++r) {
    const weir_llvm_rule *rule = rules[r];
    int transfer = kind == WEIR_LIBRARY_TRANSFER;
    out[r] = (weir_library_rule){rule->arg == WEIR_LLVM_ARG_RET ? WEIR_LIBRARY_RET : rule->arg, rule->from_on != 0,
                                 transfer ? rule->to_arg % 256 : 0, transfer && rule->to_arg >= 256,
                                 rule->deep != 0, kind == WEIR_LIBRARY_SINK ? rule->to_arg : 0};
  }
  return n;
}

/* ---- rules ---------------------------------------------------------------- */

static const char *copy(const char *text, int *failed) {
  char *c = strdup(text ? text : "");
  if (!c) *failed = 1;
  return c;
}

static void copy_rule(weir_llvm_rule_info *info, const weir_analysis_rule *r, int *failed) {
  static const char *const levels[] = {"error", "warning", "note"};
  static const char *const scores[] = {"7.0", "5.0", "2.0"};
  char cwe_name[32] = "", cwe_title[32] = "";
  if (r->cwe) {
    snprintf(cwe_name, sizeof cwe_name, "CWE%.20s", r->cwe);
    snprintf(cwe_title, sizeof cwe_title, "CWE-%.20s", r->cwe);
  }
  const char *help = r->help ? r->help : r->short_description;
  info->id = copy(r->id, failed);
  info->name = copy(r->name, failed);
  info->cwe = copy(r->cwe, failed);
  info->level = copy(levels[r->severity], failed);
  info->security_severity = copy(r->security_severity ? r->security_severity : scores[r->severity], failed);
  info->short_description = copy(r->short_description, failed);
  info->full_description = copy(help, failed);
  info->help_text = copy(help, failed);
  info->help_markdown = copy(help, failed);
  info->cwe_name = copy(cwe_name, failed);
  info->cwe_title = copy(cwe_title, failed);
}

weir_status weir_llvm_api_copy_rules(weir_llvm_problem *problem, const weir_analysis *decl) {
  problem->plugin_rules = calloc(decl->rule_count, sizeof *problem->plugin_rules);
  if (!problem->plugin_rules) return weir_fail(WEIR_ERR_OUT_OF_MEMORY, "analysis: no memory for rules. Fix: free memory");
  problem->plugin_rule_count = decl->rule_count;
  int failed = 0;
  for (uint32_t r = 0; r < decl->rule_count; ++r) copy_rule(&problem->plugin_rules[r], &decl->rules[r], &failed);
  return failed ? weir_fail(WEIR_ERR_OUT_OF_MEMORY, "analysis: no memory for rules. Fix: free memory") : WEIR_OK;
}

void weir_llvm_api_free_rules(weir_llvm_problem *problem) {
  for (size_t r = 0; r < problem->plugin_rule_count; ++r) {
    weir_llvm_rule_info *info = &problem->plugin_rules[r];
    const char *fields[] = {info->id, info->name, info->cwe, info->level, info->security_severity,
                            info->short_description, info->full_description, info->help_text,
                            info->help_markdown, info->cwe_name, info->cwe_title};
    for (size_t k = 0; k < sizeof fields / sizeof fields[0]; ++k) free((void *)fields[k]);
  }
  free(problem->plugin_rules);
  problem->plugin_rules = NULL;
  problem->plugin_rule_count = 0;
}
