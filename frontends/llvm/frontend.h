/* weir LLVM frontend: IFDS analyses (taint, uninit) of LLVM IR modules.
 *
 * The frontend turns one LLVM module (.ll or .bc) into the TEXT of an IFDS
 * problem (shared/spec/ifds-text-format.md) and then loads that text with
 * weir_ifds_load_memory, so every problem it builds is validated by the same
 * loader as a file on disk; --emit-ifds writes exactly this text. After a
 * solver ran, the findings are read off the result (which facts hold at
 * which nodes) and printed as compiler-style warnings or written as SARIF.
 * Precision limits and the modelling rules are in frontends/llvm/README.md. */
#ifndef WEIR_FRONTENDS_LLVM_FRONTEND_H
#define WEIR_FRONTENDS_LLVM_FRONTEND_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "weir/ifds.h"

typedef enum weir_llvm_analysis { WEIR_LLVM_TAINT = 0, WEIR_LLVM_UNINIT = 1 } weir_llvm_analysis;

/* "taint" or "uninit". */
weir_status weir_llvm_analysis_parse(const char *name, weir_llvm_analysis *out);
const char *weir_llvm_analysis_name(weir_llvm_analysis analysis);
/* The rule id of the analysis' findings: "weir-taint", "weir-uninit". */
const char *weir_llvm_rule_id(weir_llvm_analysis analysis);

/* ---- taint configuration (format in README.md) --------------------------- */
typedef struct weir_llvm_config weir_llvm_config;

/* A configuration holding the documented defaults. */
weir_status weir_llvm_config_new(weir_llvm_config **out);
/* Adds the directives of a file (a `reset` line drops everything before). */
weir_status weir_llvm_config_load_file(weir_llvm_config *config, const char *path);
/* The same from memory; `name` stands for the file in messages. */
weir_status weir_llvm_config_parse(weir_llvm_config *config, const char *name, const char *text,
                                   size_t length);
void weir_llvm_config_free(weir_llvm_config *config);

/* ---- building a problem ------------------------------------------------- */
typedef struct weir_llvm_problem weir_llvm_problem;

typedef struct weir_llvm_build_stats {
  uint32_t functions;    /* defined functions = procedures */
  uint32_t declarations; /* declared-only functions (modelled at call sites) */
  uint32_t nodes;        /* ICFG nodes */
  uint32_t facts;        /* including the zero fact */
  uint32_t edges;        /* intraprocedural edges */
  uint32_t call_sites;   /* call nodes (calls with at least one defined callee) */
  uint32_t callee_lines; /* resolved (call, callee) pairs */
  uint32_t indirect_sites;
  uint32_t seeds;
  uint32_t checks;       /* candidate finding sites (sink arguments, loads) */
  uint64_t text_bytes;
  double seconds_parse;  /* reading the module */
  double seconds_build;  /* ICFG, flows and text */
} weir_llvm_build_stats;

/* Reads FILE (.ll or .bc) and builds the problem text for `analysis`;
 * `config` may be NULL (defaults; only taint uses it). */
weir_status weir_llvm_build(const char *path, weir_llvm_analysis analysis,
                            const weir_llvm_config *config, weir_llvm_problem **out);
/* The same from LLVM IR in memory (text or bitcode); `name` names it. */
weir_status weir_llvm_build_memory(const char *name, const char *data, size_t length,
                                   weir_llvm_analysis analysis, const weir_llvm_config *config,
                                   weir_llvm_problem **out);
void weir_llvm_problem_free(weir_llvm_problem *problem);

const char *weir_llvm_problem_text(const weir_llvm_problem *problem, size_t *length);
const weir_llvm_build_stats *weir_llvm_problem_stats(const weir_llvm_problem *problem);
/* Loads the text with weir_ifds_load_memory (the validation of every problem). */
weir_status weir_llvm_problem_load(const weir_llvm_problem *problem, weir_ifds_problem **out);
/* Writes the text to a file (--emit-ifds). */
weir_status weir_llvm_problem_write(const weir_llvm_problem *problem, const char *path);

/* ---- findings ------------------------------------------------------------ */
typedef struct weir_llvm_location {
  const char *file;     /* source file from debug info, or the module path */
  uint32_t line, column; /* 0 when there is no debug info */
  const char *function;
  uint32_t instruction; /* 1-based index of the instruction in its function */
  const char *text;     /* the instruction, printed (shortened) */
} weir_llvm_location;

typedef struct weir_llvm_finding {
  const char *message;
  weir_llvm_location where;
  int has_source;       /* taint: a source that reaches this sink was found */
  weir_llvm_location source;
  const char *source_name;
  uint32_t node, fact;  /* the IFDS pair that made it a finding */
} weir_llvm_finding;

typedef struct weir_llvm_findings {
  size_t count;
  weir_llvm_finding *items; /* strings point into the weir_llvm_problem */
} weir_llvm_findings;

/* Reads the findings off a solver's result for the problem `loaded` that was
 * loaded from `problem`'s text. */
weir_status weir_llvm_findings_collect(const weir_llvm_problem *problem,
                                       const weir_ifds_problem *loaded,
                                       const weir_ifds_result *result,
                                       weir_llvm_findings *out);
void weir_llvm_findings_free(weir_llvm_findings *findings);

/* One line per finding: "file:line:col: warning: MESSAGE [weir-taint]". */
void weir_llvm_findings_print(const weir_llvm_problem *problem,
                              const weir_llvm_findings *findings, FILE *out);
/* SARIF 2.1.0: tool, rules, results with locations (taint: the source as a
 * related location). */
weir_status weir_llvm_write_sarif(const weir_llvm_problem *problem,
                                  const weir_llvm_findings *findings, const char *path);
weir_status weir_llvm_write_sarif_stream(const weir_llvm_problem *problem,
                                         const weir_llvm_findings *findings, FILE *out);

#endif
