#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/llvm/test_llvm.h"

int wt_compile(const char *name, int debug, char *out, size_t capacity) {
  snprintf(out, capacity, "%s/%s%s.bc", WEIR_TEST_WORK, name, debug ? "" : ".nodebug");
  char command[2048];
  snprintf(command, sizeof command, "'%s' %s -O0 -emit-llvm -c '%s/%s.c' -o '%s' 2>/dev/null",
           WEIR_TEST_CLANG, debug ? "-g" : "", WEIR_TEST_PROGRAMS, name, out);
  return system(command);
}

size_t wt_expectations(const char *name, wt_expect *out, size_t capacity) {
  char path[1024];
  snprintf(path, sizeof path, "%s/%s.c", WEIR_TEST_PROGRAMS, name);
  FILE *f = fopen(path, "r");
  if (!f) return 0;
  char line[512];
  size_t count = 0;
  for (unsigned number = 1; fgets(line, sizeof line, f); ++number) {
    const char *mark = strstr(line, "EXPECT weir-");
    if (!mark || count == capacity) continue;
    wt_expect *e = &out[count++];
    memset(e, 0, sizeof *e);
    e->line = number;
    sscanf(mark + 7, "%31s", e->rule);
    const char *from = strstr(mark, "from=");
    if (from) sscanf(from + 5, "%63[A-Za-z0-9_]", e->from);
  }
  fclose(f);
  return count;
}

int wt_config_path(const char *name, char *out, size_t capacity) {
  snprintf(out, capacity, "%s/%s.cfg", WEIR_TEST_PROGRAMS, name);
  return access(out, R_OK) == 0;
}

weir_status wt_build(const char *bc, weir_llvm_analysis analysis, const char *config_path,
                     weir_llvm_problem **out) {
  weir_llvm_config *config = NULL;
  WEIR_TRY(weir_llvm_config_new(&config));
  weir_status s = config_path ? weir_llvm_config_load_file(config, config_path) : WEIR_OK;
  if (s == WEIR_OK) s = weir_llvm_build(bc, analysis, config, out);
  weir_llvm_config_free(config);
  return s;
}

weir_status wt_solve(weir_llvm_problem *lp, weir_backend *backend, wt_run *run) {
  memset(run, 0, sizeof *run);
  run->lp = lp;
  WEIR_TRY(weir_llvm_problem_load(lp, &run->problem));
  weir_status s;
  if (backend) {
    weir_ifds_engine_options options;
    memset(&options, 0, sizeof options);
    s = weir_ifds_solve_engine(backend, run->problem, &options, &run->result, NULL);
  } else {
    s = weir_ifds_solve_reference(run->problem, &run->result, NULL);
  }
  if (s == WEIR_OK) s = weir_llvm_findings_collect(lp, run->problem, &run->result, &run->findings);
  return s;
}

void wt_run_free(wt_run *run) {
  weir_llvm_findings_free(&run->findings);
  weir_ifds_result_free(&run->result);
  weir_ifds_problem_free(run->problem);
  memset(run, 0, sizeof *run);
}
