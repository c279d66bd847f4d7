/* Internals of frontends/llvm/report/: the rule table, the source positions
 * of nodes, the witness search, code flows, paths relative to the source
 * root and fingerprints. What the room owns is in report/README.md. */
#ifndef WEIR_FRONTENDS_LLVM_REPORT_REPORT_H
#define WEIR_FRONTENDS_LLVM_REPORT_REPORT_H

#include "frontends/llvm/internal.h"

/* ---- rules (rules.c) ------------------------------------------------------ */
typedef struct weir_llvm_rule_info {
  const char *id;                /* "weir-taint-command-injection" */
  const char *name;              /* "CommandInjection" (SARIF reportingDescriptor.name) */
  const char *cwe;               /* "78" */
  const char *level;             /* SARIF default level: "error" or "warning" */
  const char *security_severity; /* CVSS-like score as a string: "9.8" */
  const char *short_description;
  const char *full_description;
  const char *help_text;         /* what it means, how to fix (plain text) */
  const char *help_markdown;     /* the same in Markdown */
  const char *cwe_name;          /* the CWE taxon's SARIF name, a Pascal identifier: "OsCommandInjection" */
  const char *cwe_title;         /* MITRE's title of the CWE entry (the taxon's shortDescription) */
} weir_llvm_rule_info;

/* The rule's texts; an id out of range yields the generic taint rule. */
const weir_llvm_rule_info *weir_llvm_rule_info_of(weir_llvm_finding_rule rule);
/* The rules an analysis can report, in SARIF order (ruleIndex); returns the count. */
size_t weir_llvm_rules_of(weir_llvm_analysis analysis, weir_llvm_finding_rule out[WEIR_LLVM_RULE_COUNT]);
/* A check's rule as the problem knows it: a plugin's own rules (index), else
 * the built-in table. */
const weir_llvm_rule_info *weir_llvm_problem_rule(const weir_llvm_problem *problem, weir_llvm_finding_rule rule);
/* Every rule the problem can report (a plugin's, or the built-in table's
 * for the analysis), in SARIF order; at most `capacity`; returns the count. */
#define WEIR_LLVM_RULES_MAX 32
size_t weir_llvm_problem_rules(const weir_llvm_problem *problem, const weir_llvm_rule_info **out, size_t capacity);
/* The rule whose id is `id` among the problem's, or NULL. */
const weir_llvm_rule_info *weir_llvm_problem_rule_by_id(const weir_llvm_problem *problem, const char *id);

/* ---- node positions (location.c) ------------------------------------------ */
/* The source position of a node: the instruction's debug location (start
 * node: the function's line; return site: the call's), the function and the
 * instruction index. Returns 0 (and the module as file) when nothing was
 * noted for the node. `text` is always NULL. */
int weir_llvm_node_position(const weir_llvm_problem *problem, uint32_t node, weir_llvm_location *out);

/* ---- witness paths (witness.c) -------------------------------------------- */
/* Built once per result, then asked per finding. */
typedef struct weir_llvm_witness weir_llvm_witness;
weir_status weir_llvm_witness_new(const weir_llvm_problem *problem, const weir_ifds_problem *loaded,
                                  const weir_ifds_result *result, weir_llvm_witness **out);
/* The nearest recorded source whose generation reaches (node, fact), or
 * WEIR_LLVM_NONE. `path` (may be NULL) receives node, fact pairs from the
 * source (its fact is the one it generates) to (node, fact). */
uint32_t weir_llvm_witness_path(weir_llvm_witness *witness, uint32_t node, uint32_t fact,
                                weir_llvm_vec *path);
/* The distinct recorded sources that reach (node, fact), nearest first, at
 * most `max` (<= WEIR_LLVM_WITNESS_SOURCES_MAX) into sources[], each one's
 * path into paths[k] when paths is not NULL; returns how many. */
#define WEIR_LLVM_WITNESS_SOURCES_MAX 16
size_t weir_llvm_witness_sources(weir_llvm_witness *witness, uint32_t node, uint32_t fact, size_t max,
                                 uint32_t *sources, weir_llvm_vec *paths);
void weir_llvm_witness_free(weir_llvm_witness *witness);

/* ---- code flows (codeflow.c) ---------------------------------------------- */
typedef struct weir_llvm_codeflow weir_llvm_codeflow;
weir_status weir_llvm_codeflow_new(const weir_llvm_problem *problem, const weir_ifds_problem *loaded,
                                   weir_llvm_codeflow **out);
/* Turns a witness path into the steps of `finding` (source first, sink
 * last): steps on the same line collapse, calls and returns stay, at most
 * WEIR_LLVM_STEP_MAX steps. Sets finding->steps/step_count (owned by it). */
weir_status weir_llvm_codeflow_steps(weir_llvm_codeflow *flow, const weir_llvm_vec *path,
                                     weir_llvm_finding *finding);
void weir_llvm_codeflow_free(weir_llvm_codeflow *flow);
#define WEIR_LLVM_STEP_MAX 64

/* ---- paths relative to the source root (paths.c) -------------------------- */
/* The absolute, lexically normal form of `dir` joined with `path` ("." and
 * ".." segments and doubled slashes removed); `path` stays as it is when
 * absolute; `dir` NULL or "" means the current directory. */
char *weir_llvm_path_join(const char *dir, const char *path);
/* Writes `file` relative to `root` (absolute, normalised) when it lies
 * inside, else its absolute form; returns 1 when inside. */
int weir_llvm_path_relative(const char *root, const char *file, weir_llvm_text *out);
/* The root findings are written against: findings->source_root or the
 * current directory (allocated; NULL when out of memory). */
char *weir_llvm_report_root(const weir_llvm_findings *findings);

/* ---- fingerprints (fingerprint.c) ----------------------------------------- */
/* A hash that survives line shifts: rule, file relative to the root,
 * function and message (16 hex digits). */
void weir_llvm_fingerprint(const weir_llvm_finding *finding, const char *relative_file, char out[17]);
/* Sets finding->fingerprint ("HASH:N", N-th finding with that hash in
 * source order) for every finding, relative to the report root. */
weir_status weir_llvm_findings_fingerprints(weir_llvm_findings *findings);
#define WEIR_LLVM_FINGERPRINT_KEY "weirFindingHash/v2"

/* ---- SARIF limits (sarif.c) ------------------------------------------------ */
/* Code flows per result (one per source); the rest are counted in the
 * result's properties (weir/codeFlowsOmitted). Related locations: all. */
#define WEIR_LLVM_SARIF_FLOWS_MAX 8
/* The tool's informationUri (and rules' helpUri base): configure with
 * -DWEIR_SARIF_INFORMATION_URI=...; the default is a placeholder under the
 * reserved .invalid domain (RFC 2606) until the project has a public URL. */
#ifndef WEIR_SARIF_INFORMATION_URI
#define WEIR_SARIF_INFORMATION_URI "https://weir.invalid/docs/analyze"
#endif

#endif
