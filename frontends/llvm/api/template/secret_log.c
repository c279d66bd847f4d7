/* secret-log: a sensitive value (from getpass, getenv, or a source named in
 * --config) reaches a log or output function (syslog, printf, fprintf,
 * fwrite, send, puts, ...). The template of an analysis plugin: written
 * only against the installed <weir/analysis.h>; docs/analysis-api.md walks
 * through it. Build: see CMakeLists.txt (or the Makefile: ./libsecret-log.so); run:
 *   weir analyze --analysis plugin:$PWD/build/analyses/libsecret-log.so prog.bc */
#include <stdio.h>
#include <weir/analysis.h>

/* Facts: S(v) "value v is secret (or points to secret data)", M(l) "memory
 * location l holds secret data", R(f) "f returns a secret value". The
 * frontend moves S through casts, arithmetic, phis, calls and returns
 * (FOLLOW), and M into and out of callees; we add what memory and the
 * library do. */
enum { S = 0, M = 1, R = 2 };
static const weir_fact_kind kinds[] = {
    {"secret value", WEIR_FACT_PER_VALUE, WEIR_FACT_FOLLOW, R},
    {"secret memory", WEIR_FACT_PER_LOCATION, WEIR_FACT_FOLLOW | WEIR_FACT_WRITABLE_ONLY, WEIR_ANALYSIS_NO_KIND},
    {"secret return", WEIR_FACT_PER_RETURN, 0, WEIR_ANALYSIS_NO_KIND},
};

static const weir_analysis_rule rules[] = {{
    "secret-to-output", "SensitiveDataToOutput", "532", WEIR_SEVERITY_WARNING, "5.5",
    "A sensitive value reaches a log or output function",
    "A password or environment value is written to a log, a terminal or the network. Do not log "
    "secrets: print a fixed placeholder, or name the function that masks them as `sanitizer NAME` "
    "in the --config file.",
}};

/* Sources, sinks and copies, in the --config format (the user's --config adds to it). */
static const char library[] =
    "source getpass ret\nsource getenv ret\nsource secure_getenv ret\n"
    "sink syslog arg1+\nsink printf arg0+\nsink fprintf arg1+\nsink fwrite arg0\nsink send arg1\n"
    "sink puts arg0\nsink fputs arg0\nsink write arg1\n"
    "transfer strcpy arg1 arg0\ntransfer strncpy arg1 arg0\ntransfer strcat arg1 arg0\n"
    "transfer memcpy arg1 arg0\ntransfer llvm.memcpy* arg1 arg0\ntransfer sprintf arg1+ arg0\n"
    "transfer snprintf arg2+ arg0\n";

/* The memory `pointer` may point to; none through a vague pointer (a
 * container's void *: writing or reporting through it helps nobody). */
static size_t targets(weir_analysis_ctx *cx, const weir_ir_value *pointer, const weir_mem_location **locs) {
  size_t n = weir_mem_points_to(cx, pointer, locs);
  return weir_mem_is_vague(cx, pointer) ? 0 : n;
}

/* `from` flows into the memory behind `pointer` (generate: it becomes
 * secret; a pair from fact 0, "no fact", is ignored, never a generation). */
static void into_memory(weir_analysis_ctx *cx, const weir_ir_value *pointer, weir_fact from, int generate,
                        weir_flow *flow) {
  const weir_mem_location *locs;
  size_t n = targets(cx, pointer, &locs);
  for (size_t k = 0; k < n; ++k) {
    weir_fact to = weir_analysis_location_fact(cx, M, locs[k]);
    if (generate) weir_flow_gen(flow, to);
    else weir_flow_pair(flow, from, to);
  }
}

/* Every fact that makes `v` secret (its own, its memory's) flows into `to`. */
static void secret_of(weir_analysis_ctx *cx, const weir_ir_value *v, weir_fact to, weir_flow *flow) {
  const weir_mem_location *locs;
  size_t n = targets(cx, v, &locs);
  weir_flow_pair(flow, weir_analysis_value_fact(cx, S, v), to);
  for (size_t k = 0; k < n; ++k) weir_flow_pair(flow, weir_analysis_location_fact(cx, M, locs[k]), to);
}

static void store(weir_analysis_ctx *cx, const weir_ir_value *inst, weir_flow *flow) {
  const weir_ir_value *value = weir_ir_operand(cx, inst, 0), *pointer = weir_ir_operand(cx, inst, 1);
  const weir_mem_location *locs;
  size_t n = targets(cx, pointer, &locs);
  /* One target that a store overwrites whole: the old contents are gone. */
  if (n == 1 && weir_mem_strong(cx, locs[0])) weir_flow_kill(flow, weir_analysis_location_fact(cx, M, locs[0]));
  into_memory(cx, pointer, weir_analysis_value_fact(cx, S, value), 0, flow);
}

static void load(weir_analysis_ctx *cx, const weir_ir_value *inst, weir_flow *flow) {
  const weir_ir_value *pointer = weir_ir_operand(cx, inst, 0);
  const weir_mem_location *locs;
  size_t n = weir_mem_points_to(cx, pointer, &locs);
  weir_fact result = weir_analysis_value_fact(cx, S, inst);
  for (size_t k = 0; k < n; ++k) weir_flow_pair(flow, weir_analysis_location_fact(cx, M, locs[k]), result);
}

/* A declaration: sanitizers clean, sources make secrets, transfers copy
 * them; any other function's result is secret when an argument is. */
static void call_library(weir_analysis_ctx *cx, const weir_ir_value *call, weir_flow *flow) {
  uint32_t args = weir_ir_call_arg_count(cx, call), to = 0;
  weir_fact result = weir_analysis_value_fact(cx, S, call);
  if (weir_analysis_library(cx, call, WEIR_LIBRARY_SANITIZER, 0, NULL)) {
    for (uint32_t k = 0; k < args; ++k) {
      const weir_mem_location *locs;
      size_t n = targets(cx, weir_ir_call_arg(cx, call, k), &locs);
      for (size_t j = 0; j < n; ++j) weir_flow_kill(flow, weir_analysis_location_fact(cx, M, locs[j]));
    }
    return;
  }
  if (weir_analysis_library(cx, call, WEIR_LIBRARY_SOURCE, WEIR_LIBRARY_RET, NULL)) weir_flow_gen(flow, result);
  for (uint32_t k = 0; k < args; ++k) {
    const weir_ir_value *arg = weir_ir_call_arg(cx, call, k);
    if (weir_analysis_library(cx, call, WEIR_LIBRARY_SOURCE, k, NULL)) into_memory(cx, arg, 0, 1, flow);
    if (weir_analysis_library(cx, call, WEIR_LIBRARY_TRANSFER, k, &to) && to < args) {
      const weir_mem_location *locs;
      size_t n = targets(cx, arg, &locs);
      const weir_ir_value *dst = weir_ir_call_arg(cx, call, to);
      into_memory(cx, dst, weir_analysis_value_fact(cx, S, arg), 0, flow);
      for (size_t j = 0; j < n; ++j) into_memory(cx, dst, weir_analysis_location_fact(cx, M, locs[j]), 0, flow);
    }
    secret_of(cx, arg, result, flow);
  }
}

/* Sources start code flows; a sink's argument is a finding when it, or
 * the memory it points to, is secret. */
static void check(weir_analysis_ctx *cx, const weir_ir_value *inst) {
  if (weir_ir_kind_of(cx, inst) != WEIR_IR_CALL || weir_ir_callee_count(cx, inst)) return;
  size_t length = 0;
  const char *name = weir_ir_callee_name(cx, inst, &length);
  uint32_t args = weir_ir_call_arg_count(cx, inst);
  char text[160];
  snprintf(text, sizeof text, "%.*s", (int)(length < 96 ? length : 96), name);
  int source = weir_analysis_library(cx, inst, WEIR_LIBRARY_SOURCE, WEIR_LIBRARY_RET, NULL);
  for (uint32_t k = 0; k < args && !source; ++k) source = weir_analysis_library(cx, inst, WEIR_LIBRARY_SOURCE, k, NULL);
  if (source) weir_analysis_source(cx, inst, text);
  for (uint32_t k = 0; k < args; ++k) {
    if (!weir_analysis_library(cx, inst, WEIR_LIBRARY_SINK, k, NULL)) continue;
    const weir_ir_value *arg = weir_ir_call_arg(cx, inst, k);
    weir_fact facts[17];
    size_t count = 0;
    const weir_mem_location *locs;
    size_t n = targets(cx, arg, &locs);
    if (weir_analysis_value_fact(cx, S, arg)) facts[count++] = weir_analysis_value_fact(cx, S, arg);
    for (size_t j = 0; j < n && count < 17; ++j)
      if (weir_analysis_location_fact(cx, M, locs[j])) facts[count++] = weir_analysis_location_fact(cx, M, locs[j]);
    char message[256];
    snprintf(message, sizeof message, "sensitive data reaches argument %u of '%s'", k + 1, text);
    if (count) weir_analysis_report(cx, inst, 0, facts, count, message);
  }
}

static const weir_analysis secret_log = {
    .abi_version = WEIR_ANALYSIS_ABI_VERSION,
    .id = "secret-log",
    .version = "1.0",
    .description = "sensitive values (getpass, getenv) reaching log and output functions",
    .source_label = "secret from",
    .kinds = kinds, .kind_count = 3,
    .rules = rules, .rule_count = 1,
    .library_rules = library,
    .store = store, .load = load, .call_library = call_library, .check = check,
};

/* The one symbol weir-analyze looks for. */
__attribute__((visibility("default"))) const weir_analysis *weir_analysis_register(void) { return &secret_log; }
