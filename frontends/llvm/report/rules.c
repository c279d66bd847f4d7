/* The rules findings belong to: ids, CWE, severities and the texts SARIF
 * viewers show (short and full description, help: what it means and how to
 * fix it), and the CWE entry each relates to (its SARIF taxon: a Pascal
 * name and MITRE's title). security-severity is a CVSS-like score that
 * GitHub code scanning maps to critical (>= 9.0), high (>= 7.0), medium and
 * low. What GitHub shows from each field: report/README.md. */
#include <string.h>

#include "frontends/llvm/report/report.h"

static const weir_llvm_rule_info rules[WEIR_LLVM_RULE_COUNT] = {
    [WEIR_LLVM_RULE_COMMAND_INJECTION] = {
        "weir-taint-command-injection", "CommandInjection", "78", "error", "9.8",
        "Untrusted data reaches a command that a shell or exec runs",
        "Data from an untrusted source (input, environment, network, files) flows without "
        "sanitization into the command or an argument of system, popen or the exec family. An "
        "attacker who controls that data can run commands of their choice (CWE-78).",
        "Untrusted data becomes part of a command line. Do not build commands from input: call "
        "the program directly with execv and a fixed argument vector, validate the input against "
        "a strict allow-list, or quote it for the shell with a function you name as a sanitizer "
        "in --config. The code flow shows where the data comes from.",
        "## Command injection (CWE-78)\n\nUntrusted data flows into a command run by `system`, "
        "`popen` or the `exec` family.\n\n**Fix:** avoid the shell: run the program with `execv` "
        "and a fixed argument vector; validate input against an allow-list; or quote it with a "
        "function declared as `sanitizer NAME` in the `--config` file. Follow the code flow from "
        "the source to the call.",
        "OsCommandInjection", "Improper Neutralization of Special Elements used in an OS Command ('OS Command Injection')",
    },
    [WEIR_LLVM_RULE_FORMAT_STRING] = {
        "weir-taint-format-string", "UncontrolledFormatString", "134", "error", "9.3",
        "Untrusted data is used as a printf-style format string",
        "Data from an untrusted source flows into the format argument of a printf-family "
        "function. Conversions such as %n and %s in that data read or write memory the program "
        "did not intend to expose (CWE-134).",
        "The format argument of a printf-family call comes from untrusted data. Use a constant "
        "format and pass the data as an argument: printf(\"%s\", data) instead of printf(data).",
        "## Uncontrolled format string (CWE-134)\n\nUntrusted data is the format argument of a "
        "`printf`-family call.\n\n**Fix:** use a constant format: `printf(\"%s\", data)` instead "
        "of `printf(data)`.",
        "UseOfExternallyControlledFormatString", "Use of Externally-Controlled Format String",
    },
    [WEIR_LLVM_RULE_TAINT] = {
        "weir-taint", "TaintedDataReachesSink", "20", "warning", "7.5",
        "Untrusted data reaches a configured sink",
        "Data from an untrusted source flows without sanitization into an argument of a function "
        "configured as a sink (--config `sink NAME argN`). Whether this is exploitable depends on "
        "what the sink does with it (CWE-20, improper input validation).",
        "Untrusted data reaches a function configured as a sink. Validate or sanitize the data "
        "before the call; a function that does so can be named with `sanitizer NAME` in the "
        "--config file so that data passing through it is clean.",
        "## Tainted data reaches a sink (CWE-20)\n\nUntrusted data flows into a configured "
        "sink.\n\n**Fix:** validate or sanitize it before the call; name the sanitizer with "
        "`sanitizer NAME` in `--config`.",
        "ImproperInputValidation", "Improper Input Validation",
    },
    [WEIR_LLVM_RULE_UNINIT] = {
        "weir-uninit", "UninitializedRead", "457", "warning", "7.5",
        "Memory may be read before it is initialized",
        "A variable, array or heap block is read on some path before anything was stored into "
        "it. Its value is indeterminate: the program may behave differently from run to run and "
        "may leak earlier contents of the stack or heap (CWE-457, CWE-908).",
        "A read may see uninitialized memory. Initialize the variable where it is declared "
        "(int x = 0;, char buf[N] = {0};), use calloc instead of malloc, or make sure every path "
        "to the read stores a value first. The code flow starts where the memory is allocated.",
        "## Use of uninitialized memory (CWE-457)\n\nA read may happen before any store on some "
        "path.\n\n**Fix:** initialize at the declaration (`int x = 0;`), use `calloc`, or store "
        "on every path before the read. The code flow starts at the allocation.",
        "UseOfUninitializedVariable", "Use of Uninitialized Variable",
    },
    [WEIR_LLVM_RULE_USE_AFTER_FREE] = {
        "weir-use-after-free", "UseAfterFree", "416", "error", "8.8",
        "Memory is used after it was freed",
        "A heap block is read, written or passed to a function after free released it (through "
        "the same pointer or an alias). The allocator may already have reused the memory, so the "
        "program reads or corrupts other data; attackers use this to take control (CWE-416).",
        "Memory is used after free. Do not keep pointers past the free: set them to NULL right "
        "after free(p), free the block only when its last user is done, and check ownership when "
        "a pointer is shared. The code flow starts at the free.",
        "## Use after free (CWE-416)\n\nA heap block is used after `free`.\n\n**Fix:** free only "
        "after the last use, set the pointer (and its aliases) to `NULL` after `free`, and make "
        "ownership explicit. The code flow starts at the `free`.",
        "UseAfterFree", "Use After Free",
    },
    [WEIR_LLVM_RULE_DOUBLE_FREE] = {
        "weir-double-free", "DoubleFree", "415", "error", "8.8",
        "Memory is freed twice",
        "A heap block that was already freed is freed again (through the same pointer or an "
        "alias). This corrupts the allocator's state and can be exploited to write memory "
        "(CWE-415).",
        "A block is freed twice. Free each block exactly once: set the pointer to NULL after "
        "free(p) (free(NULL) does nothing) and decide which owner frees shared blocks. The code "
        "flow starts at the first free.",
        "## Double free (CWE-415)\n\nA heap block is freed twice.\n\n**Fix:** free each block "
        "once; set the pointer to `NULL` after `free`; give shared blocks one owner. The code "
        "flow starts at the first `free`.",
        "DoubleFree", "Double Free",
    },
};

const weir_llvm_rule_info *weir_llvm_rule_info_of(weir_llvm_finding_rule rule) {
  return (unsigned)rule < WEIR_LLVM_RULE_COUNT ? &rules[rule] : &rules[WEIR_LLVM_RULE_TAINT];
}

size_t weir_llvm_rules_of(weir_llvm_analysis analysis, weir_llvm_finding_rule out[WEIR_LLVM_RULE_COUNT]) {
  size_t n = 0;
  if (analysis == WEIR_LLVM_TAINT) {
    out[n++] = WEIR_LLVM_RULE_COMMAND_INJECTION;
    out[n++] = WEIR_LLVM_RULE_FORMAT_STRING;
    out[n++] = WEIR_LLVM_RULE_TAINT;
  } else if (analysis == WEIR_LLVM_UNINIT) {
    out[n++] = WEIR_LLVM_RULE_UNINIT;
  } else {
    out[n++] = WEIR_LLVM_RULE_USE_AFTER_FREE;
    out[n++] = WEIR_LLVM_RULE_DOUBLE_FREE;
  }
  return n;
}

const char *weir_llvm_analysis_rule(weir_llvm_analysis analysis) {
  if (analysis == WEIR_LLVM_UNINIT) return rules[WEIR_LLVM_RULE_UNINIT].id;
  if (analysis == WEIR_LLVM_UAF) return rules[WEIR_LLVM_RULE_USE_AFTER_FREE].id;
  return rules[WEIR_LLVM_RULE_TAINT].id;
}

const weir_llvm_rule_info *weir_llvm_problem_rule(const weir_llvm_problem *problem, weir_llvm_finding_rule rule) {
  if (problem->plugin_rules)
    return (size_t)rule < problem->plugin_rule_count ? &problem->plugin_rules[rule] : &problem->plugin_rules[0];
  return weir_llvm_rule_info_of(rule);
}

size_t weir_llvm_problem_rules(const weir_llvm_problem *problem, const weir_llvm_rule_info **out, size_t capacity) {
  size_t n = 0;
  if (problem->plugin_rules) {
    for (size_t r = 0; r < problem->plugin_rule_count && n < capacity; ++r) out[n++] = &problem->plugin_rules[r];
    return n;
  }
  weir_llvm_finding_rule own[WEIR_LLVM_RULE_COUNT];
  size_t count = weir_llvm_rules_of(problem->analysis, own);
  for (size_t r = 0; r < count && n < capacity; ++r) out[n++] = &rules[own[r]];
  return n;
}

const weir_llvm_rule_info *weir_llvm_problem_rule_by_id(const weir_llvm_problem *problem, const char *id) {
  for (size_t r = 0; r < problem->plugin_rule_count; ++r)
    if (strcmp(problem->plugin_rules[r].id, id) == 0) return &problem->plugin_rules[r];
  for (size_t r = 0; r < WEIR_LLVM_RULE_COUNT; ++r)
    if (strcmp(rules[r].id, id) == 0) return &rules[r];
  return NULL;
}
