/* Helpers of the LLVM frontend tests: finding the C programs, compiling them
 * at test time (-O0 and -O2), reading their expected findings, building and
 * solving them on every solver, and comparing findings with the markers. */
#ifndef WEIR_TESTS_LLVM_TEST_LLVM_H
#define WEIR_TESTS_LLVM_TEST_LLVM_H

#include <stddef.h>
#include <stdio.h>

#include "frontends/llvm/frontend.h"

#define WT_MAX_FILES 8
#define WT_NAME 64

/* One program of tests/llvm/programs: NAME.c, or a folder NAME/ whose .c
 * files are compiled separately and linked by the frontend. The analysis
 * comes from the name's prefix: taint_, uninit_, uaf_. */
typedef struct wt_program {
  char name[WT_NAME];
  weir_llvm_analysis analysis;
  int is_folder;
  size_t file_count;
  char files[WT_MAX_FILES][WT_NAME]; /* file names: NAME.c, or the folder's *.c, sorted */
} wt_program;

/* Every program of the folder, sorted by name (at most `capacity`); the
 * count found (more than capacity means the table is too small). */
size_t wt_programs(wt_program *out, size_t capacity);
/* The program called NAME; 0 when there is none. */
int wt_program_find(const char *name, wt_program *out);

/* One expected finding: `EXPECT RULE [from=NAME]` on a line; `EXPECT-O0` /
 * `EXPECT-O2` hold at that level only. `EXPECT-NOT` is for readers.
 * `KNOWN-FP` / `KNOWN-FN` mark documented precision limits (allowed, not
 * required; see test_llvm_programs.c). */
typedef struct wt_expect {
  char file[WT_NAME]; /* the file holding the marker */
  unsigned line;
  char rule[48];      /* matches a rule id equal to it or starting with it + '-' */
  char from[64];      /* taint: the source's callee name, "" when not given */
  int level;          /* -1: every level, else 0 or 2 */
  int known;          /* 0: EXPECT (required); 1: KNOWN-FP, 2: KNOWN-FN (allowed, not required) */
} wt_expect;

/* The markers of every file of `p` that hold at optimisation `level`. */
size_t wt_expectations(const wt_program *p, int level, wt_expect *out, size_t capacity);

/* Compiles every file of `p` at -O0 and -O2 (with -g unless !debug) into
 * work/; the bitcode paths of level L go to paths[L == 2][k]. 0 on success. */
int wt_compile(const wt_program *p, int debug, char paths[2][WT_MAX_FILES][1024]);
/* programs/NAME.cfg when it exists (into out), else returns 0. */
int wt_config_path(const char *name, char *out, size_t capacity);

/* The frontend on the compiled files of one level (several files: linked);
 * `config_path` may be NULL. */
weir_status wt_build(const wt_program *p, char paths[WT_MAX_FILES][1024], const char *config_path,
                     weir_llvm_problem **out);
/* The same with every generable fact kept (all_facts = 1: no demand
 * pruning, weir_llvm_config_keep_all_facts). */
weir_status wt_build_all_facts(const wt_program *p, char paths[WT_MAX_FILES][1024], const char *config_path,
                               int all_facts, weir_llvm_problem **out);

/* One full analysis: load, solve (backend NULL: reference), findings. */
typedef struct wt_run {
  weir_llvm_problem *lp;
  weir_ifds_problem *problem;
  weir_ifds_result result;
  weir_llvm_findings findings;
} wt_run;

weir_status wt_solve(weir_llvm_problem *lp, weir_backend *backend, wt_run *run);
void wt_run_free(wt_run *run);

/* Compares findings with the markers: each finding must match a marker of
 * its file and line (rule by prefix, `from` when given) and each marker a
 * finding. Prints the missing and unexpected ones, each line prefixed by
 * `what` (program, level, solver); returns how many there were. */
size_t wt_compare(const wt_program *p, const wt_expect *expect, size_t count,
                  const weir_llvm_findings *findings, const char *what, FILE *out);

#endif
