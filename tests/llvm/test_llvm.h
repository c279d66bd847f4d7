/* Helpers of the LLVM frontend tests: compiling the C programs at test time,
 * reading their expected findings, and running every available solver. */
#ifndef WEIR_TESTS_LLVM_TEST_LLVM_H
#define WEIR_TESTS_LLVM_TEST_LLVM_H

#include <stddef.h>

#include "frontends/llvm/frontend.h"

typedef struct wt_expect {
  char rule[32];   /* weir-taint / weir-uninit */
  unsigned line;
  char from[64];   /* taint: the source's callee name, "" when not given */
} wt_expect;

/* Compiles programs/NAME.c to work/NAME[.nodebug].bc with clang-14 -O0
 * -emit-llvm (and -g when debug); 0 on success. */
int wt_compile(const char *name, int debug, char *out, size_t capacity);
/* Reads the `EXPECT weir-RULE [from=NAME]` markers of programs/NAME.c. */
size_t wt_expectations(const char *name, wt_expect *out, size_t capacity);
/* programs/NAME.cfg when it exists (into out), else returns 0. */
int wt_config_path(const char *name, char *out, size_t capacity);

/* One full analysis: frontend, load, solve (backend NULL: reference), findings. */
typedef struct wt_run {
  weir_llvm_problem *lp;
  weir_ifds_problem *problem;
  weir_ifds_result result;
  weir_llvm_findings findings;
} wt_run;

weir_status wt_build(const char *bc, weir_llvm_analysis analysis, const char *config_path,
                     weir_llvm_problem **out);
/* Loads lp's text and solves it with the reference solver (backend NULL) or
 * the engine on `backend`. */
weir_status wt_solve(weir_llvm_problem *lp, weir_backend *backend, wt_run *run);
void wt_run_free(wt_run *run);

#endif
