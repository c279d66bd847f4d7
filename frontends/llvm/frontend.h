/* weir LLVM frontend: IFDS analyses (taint, uninit, uaf) of LLVM IR modules.
 *
 * The frontend turns one LLVM module (.ll or .bc) into an IFDS problem,
 * built in memory with the builder of weir/ifds.h (which applies the
 * loader's rules, so every problem it builds is validated like a file on
 * disk), next to a legend of what each fact stands for; --emit-ifds writes
 * the problem in the text format (shared/spec/ifds-text-format.md). After a
 * solver ran, the findings are read off the result (which facts hold at
 * which nodes) and printed as compiler-style warnings or written as SARIF.
 * Precision limits and the modelling rules are in frontends/llvm/README.md. */
#ifndef WEIR_FRONTENDS_LLVM_FRONTEND_H
#define WEIR_FRONTENDS_LLVM_FRONTEND_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "weir/ifds.h"

typedef enum weir_llvm_analysis {
  WEIR_LLVM_TAINT = 0,
  WEIR_LLVM_UNINIT = 1,
  WEIR_LLVM_UAF = 2, /* use after free, double free */
  WEIR_LLVM_PLUGIN = 3, /* an analysis written against weir/analysis.h (frontends/llvm/api) */
  WEIR_LLVM_TYPESTATE = 4, /* an IDE typestate problem from a spec (analyses/typestate) */
  WEIR_LLVM_CONST = 5      /* linear constant propagation, an IDE problem (analyses/const, docs/const.md) */
} weir_llvm_analysis;

/* "taint" or "uninit". */
weir_status weir_llvm_analysis_parse(const char *name, weir_llvm_analysis *out);
const char *weir_llvm_analysis_name(weir_llvm_analysis analysis);
/* The id of the analysis' generic rule ("weir-taint", "weir-uninit",
 * "weir-use-after-free"); each finding names its own rule (finding.rule). */
const char *weir_llvm_analysis_rule(weir_llvm_analysis analysis);

/* ---- taint configuration (format in README.md) --------------------------- */
typedef struct weir_llvm_config weir_llvm_config;

/* A configuration holding the documented defaults. */
weir_status weir_llvm_config_new(weir_llvm_config **out);
/* typestate: the spec (borrowed: it must outlive the builds that use it). */
struct weir_ts_spec;
void weir_llvm_config_typestate_spec(weir_llvm_config *config, const struct weir_ts_spec *spec);
/* typestate: loads the spec at `path` (docs/typestate.md); the config owns it. */
weir_status weir_llvm_config_typestate_spec_file(weir_llvm_config *config, const char *path);

/* Adds the directives of a file (a `reset` line drops everything before). */
weir_status weir_llvm_config_load_file(weir_llvm_config *config, const char *path);
/* The same from memory; `name` stands for the file in messages. */
weir_status weir_llvm_config_parse(weir_llvm_config *config, const char *name, const char *text,
                                   size_t length);
void weir_llvm_config_free(weir_llvm_config *config);
/* on = 1: build every fact some flow can generate, also those from which no
 * flow leads to a fact a check looks at (module/emit.c prunes them by
 * default). The findings and code flows are the same; the problem is larger
 * (for solver benchmarks, --emit-ifds, and the test that compares both). */
void weir_llvm_config_keep_all_facts(weir_llvm_config *config, int on);
/* Before the analysis builds its problem, `weir analyze const` runs on the
 * prepared module and every br/switch whose condition it proves constant
 * (a compare of an integer const knows there) loses its dead edge
 * (docs/const.md, "Pruning"). Off by default; ignored by const itself. */
void weir_llvm_config_prune_with_const(weir_llvm_config *config, int on);

/* ---- building a problem ------------------------------------------------- */
typedef struct weir_llvm_problem weir_llvm_problem;

typedef struct weir_llvm_build_stats {
  uint32_t functions;    /* defined functions = procedures */
  uint32_t declarations; /* declared-only functions (modelled at call sites) */
  uint32_t nodes;        /* ICFG nodes */
  uint32_t bypassed_nodes; /* of those, nodes that only hand every fact on: no edges (module/bypass.c) */
  uint32_t facts;        /* including the zero fact, after pruning (see module/emit.c) */
  uint32_t facts_before_pruning; /* every fact the analysis numbered */
  uint32_t facts_generable;      /* of those, facts some flow can generate (pruning keeps those a check needs) */
  uint32_t memory_objects, memory_locations; /* the memory model (memory/memory.h) */
  uint32_t memory_degraded; /* 1: the points-to safety bound was reached (coarser, still sound) */
  uint64_t memory_pairs;    /* sum of points-to set sizes over all values */
  uint64_t memory_work;     /* elements the points-to solver sent along copy edges */
  uint32_t memory_iterations, memory_merged; /* worklist pops; nodes merged on cycles */
  double seconds_points_to; /* the memory model, part of seconds_build */
  uint32_t edges;        /* intraprocedural edges */
  uint32_t call_sites;   /* call nodes (calls with at least one defined callee) */
  uint32_t callee_lines; /* resolved (call, callee) pairs */
  uint32_t indirect_sites;
  uint32_t indirect_by_points_to; /* indirect sites resolved by the memory model (else by type) */
  uint32_t seeds;
  uint32_t checks;       /* candidate finding sites (sink arguments, loads) */
  uint64_t text_bytes;    /* 0: the problem is built in memory, no text (kept for bench JSON) */
  double seconds_parse;  /* reading the module(s) and linking them */
  double seconds_build;  /* memory model, ICFG, flows and the built problem */
  /* Preparation (frontends/llvm/module/module.h): */
  uint32_t modules;            /* files linked into the analysed module */
  uint32_t optnone_stripped;   /* functions that had optnone */
  uint32_t constant_globals;   /* globals whose loads became their initialiser */
  uint32_t constant_functions; /* functions whose calls became their constant result */
  uint32_t folded_branches;    /* branches / switches on constants made unconditional */
  uint32_t removed_blocks;     /* blocks deleted as unreachable */
  uint32_t threaded_edges;     /* edges threaded past a branch their phis decide */
  uint32_t noreturn_calls;     /* calls of defined functions that never return: their block ends there */
  uint32_t forwarded_loads;    /* loads replaced by the value a dominating store left */
  uint32_t out_slots;          /* locals passed only to out-parameters, made SSA */
  uint32_t promoted;           /* allocas promoted to SSA values (mem2reg) */
  double seconds_prepare;      /* optnone, mem2reg, constant folding, verification */
  /* --prune-with-const (weir_llvm_config_prune_with_const): */
  uint32_t const_pruned_branches; /* br/switch the const analysis made unconditional */
  uint32_t const_pruned_blocks;   /* blocks that became unreachable and were removed */
  double seconds_const_prune;     /* the const problem built and solved, the branches folded */
  /* 1: the const problem did not fit in memory; the module was left as it
   * was and the analysis ran without pruning (const_prune_reason says why) */
  uint32_t const_prune_skipped;
  char const_prune_reason[320];
} weir_llvm_build_stats;

/* Reads FILE (.ll or .bc), prepares it (optnone stripped, program-constant
 * branches folded, mem2reg: frontends/llvm/module/README.md) and builds the
 * problem for `analysis`; `config` may be NULL (defaults; only taint
 * uses it). */
weir_status weir_llvm_build(const char *path, weir_llvm_analysis analysis,
                            const weir_llvm_config *config, weir_llvm_problem **out);
/* Reads several modules and links them into one program first (like
 * llvm-link-14; the problem is named "FIRST (+N more)"). */
weir_status weir_llvm_build_files(const char *const *paths, size_t count, weir_llvm_analysis analysis,
                                  const weir_llvm_config *config, weir_llvm_problem **out);
/* The same from LLVM IR in memory (text or bitcode); `name` names it. */
weir_status weir_llvm_build_memory(const char *name, const char *data, size_t length,
                                   weir_llvm_analysis analysis, const weir_llvm_config *config,
                                   weir_llvm_problem **out);
void weir_llvm_problem_free(weir_llvm_problem *problem);

const weir_llvm_build_stats *weir_llvm_problem_stats(const weir_llvm_problem *problem);
/* The built problem, owned by `problem` (valid until weir_llvm_problem_free). */
const weir_ifds_problem *weir_llvm_problem_ifds(const weir_llvm_problem *problem);
/* A copy of the built problem that the caller owns (weir_ifds_problem_free):
 * every solver run may have and free its own. */
/* typestate: solves the IDE problem with the reference solver (backend
 * NULL) or the resident IDE engine on `backend` (the same result), keeps the
 * facts of each check whose states allow its error, and gives the holds as
 * an IFDS result for weir_llvm_findings_collect. */
weir_status weir_llvm_typestate_solve(weir_llvm_problem *problem, weir_backend *backend, weir_ifds_result *out);

/* ---- const (analyses/const, docs/const.md) ---- */
/* One use of an integer (a compare's operand, a switch's or branch's
 * condition, a call's argument) and what const found it to be there. */
typedef enum weir_llvm_const_kind {
  WEIR_LLVM_CONST_UNREACHED = 0, /* no path reaches the use (IDE value top) */
  WEIR_LLVM_CONST_VALUE = 1,     /* the same constant on every path: `value` */
  WEIR_LLVM_CONST_VARIES = 2     /* not a constant (IDE value bottom) */
} weir_llvm_const_kind;

typedef struct weir_llvm_const_use {
  weir_llvm_const_kind kind;
  int64_t value;       /* VALUE: as the use's C type reads it (sign-extended from its width; i1: 0 or 1) */
  uint32_t bits;       /* the integer's width in the IR */
  const char *use;     /* "compare", "switch", "branch" or "argument" */
  const char *name;    /* the C expression from debug info ("s->len", "flag"), "" when none */
  const char *function, *file; /* file "" without debug info */
  uint32_t line, column;
} weir_llvm_const_use;

typedef struct weir_llvm_const_values {
  weir_llvm_const_use *uses;
  size_t count;
  size_t constant;  /* uses of kind VALUE */
  size_t unreached; /* uses of kind UNREACHED */
  uint64_t path_edges, jump_updates;
  uint32_t facts;
  int local_memory; /* 1: locations were kept within functions (the memory budget, docs/const.md) */
} weir_llvm_const_values;

/* Solves a const problem with the IDE reference solver (backend NULL) or the
 * resident IDE engine on `backend` (the same values) and reads the value
 * of every recorded use (problem built with WEIR_LLVM_CONST). The problem's
 * checks are consumed (const has no findings): *result is an empty IFDS
 * result for the common report path. Free *out with weir_llvm_const_values_free. */
weir_status weir_llvm_const_solve(weir_llvm_problem *problem, weir_backend *backend, weir_llvm_const_values *out,
                                  weir_ifds_result *result);
void weir_llvm_const_values_free(weir_llvm_const_values *values);
/* The uses found constant, as JSON (docs/const.md gives the schema), with
 * the counts; paths relative to `root` (NULL: as the debug info has them). */
weir_status weir_llvm_const_write_json(const weir_llvm_problem *problem, const weir_llvm_const_values *values,
                                       const char *root, FILE *out);
weir_status weir_llvm_problem_load(const weir_llvm_problem *problem, weir_ifds_problem **out);
/* What fact `fact` stands for ("zero", "taint value v5 in main"; not NUL
 * terminated), or NULL for a fact the problem does not have. */
const char *weir_llvm_problem_fact_name(const weir_llvm_problem *problem, uint32_t fact, size_t *length);
/* The problem in the text format (--emit-ifds): a comment block (the
 * analysis, the input, pruning, the fact legend `# fact N WHAT`), then
 * weir_ifds_write_problem's text, which ends with the `end` trailer. */
weir_status weir_llvm_problem_write_stream(const weir_llvm_problem *problem, FILE *out);
/* The same into a new file at `path`. */
weir_status weir_llvm_problem_write(const weir_llvm_problem *problem, const char *path);

/* ---- analysis plugins (frontends/llvm/api, include/weir/analysis.h) -------- */
typedef struct weir_llvm_plugin weir_llvm_plugin;
struct weir_analysis;

/* Opens an analysis plugin: "plugin:PATH" (a file; one without a '/' is in
 * the current directory), or an id: the one library named for it
 * (libID.so, libweir_ID.so, ID.so) in a directory on WEIR_ANALYSIS_PATH,
 * without loading any other. Refuses (with a Fix) a missing file, a library
 * without weir_analysis_register, another ABI version, an id that is a
 * built-in's or not the one asked for, two libraries named for the id, and
 * a declaration with missing or bad fields. An id nothing is named for is
 * WEIR_ERR_INVALID_ARGUMENT with a message that lists the known analyses
 * (only then is every library on the path loaded). */
weir_status weir_llvm_plugin_open(const char *spec, weir_llvm_plugin **out);
/* The same; *unknown (may be NULL) is 1 when the failure is that nothing
 * provides the id (no library is named for it or declares it). */
weir_status weir_llvm_plugin_lookup(const char *spec, weir_llvm_plugin **out, int *unknown);
/* The same for a declaration compiled into the program (tests; no library). */
weir_status weir_llvm_plugin_from(const struct weir_analysis *analysis, weir_llvm_plugin **out);
/* Adds the directives of a --config file to the plugin's library table. */
weir_status weir_llvm_plugin_config_file(weir_llvm_plugin *plugin, const char *path);
/* The declared id ("secret-log"). */
const char *weir_llvm_plugin_id(const weir_llvm_plugin *plugin);
/* "id1, id2" of the plugins on WEIR_ANALYSIS_PATH (at most `size` bytes, "" for none). */
void weir_llvm_plugin_path_ids(char *out, size_t size);
/* Closes the library; problems built with it stay valid. NULL is fine. */
void weir_llvm_plugin_close(weir_llvm_plugin *plugin);
/* weir_llvm_build_files for a plugin analysis (`config`: the memory model's
 * library table, NULL for the defaults). */
weir_status weir_llvm_build_plugin_files(const char *const *paths, size_t count, const weir_llvm_plugin *plugin,
                                         const weir_llvm_config *config, weir_llvm_problem **out);
/* The same from LLVM IR in memory. */
weir_status weir_llvm_build_plugin_memory(const char *name, const char *data, size_t length,
                                          const weir_llvm_plugin *plugin, const weir_llvm_config *config,
                                          weir_llvm_problem **out);
/* The analysis a problem was built for: "taint", "uninit", "uaf" or the plugin's id. */
const char *weir_llvm_problem_analysis(const weir_llvm_problem *problem);

/* ---- findings ------------------------------------------------------------ */
typedef struct weir_llvm_source_location {
  const char *file;     /* source file from debug info, absolute when the debug info names
                         * its directory (else as clang was given it), or the module path */
  uint32_t line, column; /* 0 when there is no debug info */
  const char *function;
  uint32_t instruction; /* 1-based index of the instruction in its function (0: entry/exit) */
  const char *text;     /* the instruction, printed (shortened), when there is no line */
} weir_llvm_location;

typedef enum weir_llvm_step_kind {
  WEIR_LLVM_STEP_SOURCE = 0, /* where the fact is generated (source call, allocation, free) */
  WEIR_LLVM_STEP_FLOW = 1,   /* the fact moves to another value or location */
  WEIR_LLVM_STEP_CALL = 2,   /* into a callee (the step is at the callee's entry) */
  WEIR_LLVM_STEP_RETURN = 3, /* back from a callee (at the call) */
  WEIR_LLVM_STEP_SINK = 4    /* the finding */
} weir_llvm_step_kind;

/* One step of a finding's code flow (SARIF threadFlow location). */
typedef struct weir_llvm_step {
  weir_llvm_step_kind kind;
  weir_llvm_location where;
  uint32_t node, fact;
  uint32_t depth;       /* call nesting relative to the source (never below 0) */
  char message[192];
} weir_llvm_step;

/* One source of a finding: a recorded source (taint source call,
 * allocation, free) that reaches the sink, with its own code flow. */
typedef struct weir_llvm_finding_source {
  const char *name;     /* "fgets", "malloc", the variable of an alloca */
  weir_llvm_location where;
  const char *message;  /* the message of the check it reaches (names the location read) */
  uint32_t node, fact;  /* the IFDS pair at the sink that this source reaches */
  uint32_t confidence;  /* 0..100 for this source's evidence (README: Confidence) */
  weir_llvm_step *steps; /* its code flow, source first (owned here) */
  size_t step_count;
} weir_llvm_finding_source;

typedef enum weir_llvm_baseline_state {
  WEIR_LLVM_BASELINE_NONE = 0,     /* no --baseline given */
  WEIR_LLVM_BASELINE_NEW = 1,      /* its fingerprint is not in the baseline */
  WEIR_LLVM_BASELINE_UNCHANGED = 2 /* it is: not printed, not counted by --fail-on-findings */
} weir_llvm_baseline_state;

/* One finding per (rule, sink file:line:col): every check of that rule at
 * that place (several IR instructions of one expression, several objects a
 * pointer may point to, several sources) is merged into it; checks marked
 * per_source (uninit) then merge per (rule, source, what), the nearest
 * use kept and the others in `other_uses`. */
typedef struct weir_llvm_finding {
  const char *rule;     /* "weir-taint-command-injection", "weir-uninit", ... */
  const char *message;  /* the first source's check (sources sorted: see findings.c) */
  weir_llvm_location where;
  int has_source;       /* a recorded source (taint source, allocation, free) reaches it */
  weir_llvm_location source;   /* = sources[0].where */
  const char *source_name;     /* = sources[0].name */
  uint32_t node, fact;  /* the IFDS pair that made it a finding (fact 0: node reachable) */
  weir_llvm_step *steps; /* = sources[0].steps: the first code flow; NULL when no source was found */
  size_t step_count;
  size_t source_count;  /* distinct sources (0 when none reached it) */
  weir_llvm_finding_source *sources; /* [source_count], owned */
  uint32_t confidence;  /* 0..100: the best of its sources (README: Confidence) */
  uint32_t targets;     /* objects the pointer at the sink may point to (1: must-alias; 0: a value) */
  int weak;             /* the memory read is a summary (array, heap block): no strong update */
  int suppressed;       /* an in-source `weir: ignore` comment covers it (weir_llvm_findings_suppress) */
  unsigned suppressed_line; /* the line of that comment */
  int baseline;         /* weir_llvm_baseline_state */
  char fingerprint[40]; /* partialFingerprints weirFindingHash/v2: 16 hex digits ":N" */
  int per_source;       /* one finding per (rule, source, what): other uses of the same source merge in */
  uint32_t what;        /* what is read (weir_llvm_check.what) */
  weir_llvm_location *other_uses; /* [other_use_count], owned: those other uses, in source order */
  size_t other_use_count;
} weir_llvm_finding;

typedef struct weir_llvm_findings {
  size_t count;
  weir_llvm_finding *items; /* strings point into the weir_llvm_problem */
  char *source_root;        /* absolute; NULL: the current directory (weir_llvm_findings_set_root) */
  const char *analysis;     /* the problem's analysis ("uaf", a plugin's id): `weir: ignore[ANALYSIS]` */
  size_t below_confidence;  /* dropped by weir_llvm_findings_min_confidence */
  size_t baseline_count;    /* fingerprints the baseline held (weir_llvm_findings_baseline) */
  size_t baseline_absent;   /* of those, how many no finding has any more (fixed) */
} weir_llvm_findings;

/* Reads the findings off a solver's result for the problem `loaded` that was
 * built by `problem` (or a copy of it: weir_llvm_problem_load): one per
 * (rule, sink location), in source order, each with its sources and their
 * code flows, a confidence and a fingerprint. */
weir_status weir_llvm_findings_collect(const weir_llvm_problem *problem,
                                       const weir_ifds_problem *loaded,
                                       const weir_ifds_result *result,
                                       weir_llvm_findings *out);
/* Paths are printed and written relative to DIR (NULL: the current
 * directory); a DIR that is not a directory is refused. Fingerprints are
 * computed again (they hold the path relative to the root). */
weir_status weir_llvm_findings_set_root(weir_llvm_findings *findings, const char *dir);
void weir_llvm_findings_free(weir_llvm_findings *findings);

/* ---- triage (report/triage.c, report/baseline.c) ------------------------- */
/* Confidence levels (README: Confidence): high >= 70, medium >= 40, low. */
#define WEIR_LLVM_CONFIDENCE_HIGH 70u
#define WEIR_LLVM_CONFIDENCE_MEDIUM 40u
/* "high", "medium" or "low" for a score. */
const char *weir_llvm_confidence_level(uint32_t confidence);
/* "high", "medium", "low" or a number 0..100 into a minimum score. */
weir_status weir_llvm_confidence_parse(const char *text, uint32_t *out);
/* Drops the findings whose confidence is below `minimum` (counted in
 * findings->below_confidence). */
void weir_llvm_findings_min_confidence(weir_llvm_findings *findings, uint32_t minimum);
/* Marks the findings an in-source comment suppresses: `weir: ignore` (every
 * rule) or `weir: ignore[uninit, weir-double-free]` (analysis names, rule
 * ids, rule ids without "weir-") on the finding's line or the line above.
 * Source files are read at their debug-info path, else below the source
 * root; a file that cannot be read suppresses nothing. */
weir_status weir_llvm_findings_suppress(weir_llvm_findings *findings);
/* Reads the weirFindingHash/v2 fingerprints of an earlier weir SARIF file
 * and marks each finding new or unchanged. A file that is not JSON, not
 * SARIF or not written by weir is refused (WEIR_ERR_INVALID_ARGUMENT). */
weir_status weir_llvm_findings_baseline(weir_llvm_findings *findings, const char *path);
/* The same from memory; `name` stands for the file in messages. */
weir_status weir_llvm_findings_baseline_text(weir_llvm_findings *findings, const char *name, const char *text,
                                             size_t length);
/* Findings printed and counted by --fail-on-findings: neither suppressed
 * nor unchanged since the baseline. */
size_t weir_llvm_findings_reported(const weir_llvm_findings *findings);
/* The summary by rule and by file (paths relative to the root), a few lines. */
void weir_llvm_findings_summary(const weir_llvm_findings *findings, FILE *out);

/* One line per reported finding: "file:line:col: warning: MESSAGE (source: 'fgets' at
 * file:line:col, and 2 more sources) [weir-taint-command-injection]", file relative
 * to the source root; suppressed and unchanged findings are not printed. */
void weir_llvm_findings_print(const weir_llvm_problem *problem,
                              const weir_llvm_findings *findings, FILE *out);
/* SARIF 2.1.0: tool with the analysis' rules (descriptions, help, CWE tags,
 * security-severity), results with locations relative to %SRCROOT%, code
 * flows, the source as a related location and partial fingerprints. */
weir_status weir_llvm_write_sarif(const weir_llvm_problem *problem,
                                  const weir_llvm_findings *findings, const char *path);
weir_status weir_llvm_write_sarif_stream(const weir_llvm_problem *problem,
                                         const weir_llvm_findings *findings, FILE *out);

#endif
