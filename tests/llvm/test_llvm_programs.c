/* The programs of tests/llvm/programs: finding them, compiling them at -O0
 * and -O2, their EXPECT markers, building, solving, comparing findings. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/llvm/test_llvm.h"
#include "weir/ifds.h"
#include "frontends/llvm/analyses/typestate/spec.h"

static int analysis_of(const char *name, weir_llvm_analysis *out) {
  if (strncmp(name, "taint_", 6) == 0) *out = WEIR_LLVM_TAINT;
  else if (strncmp(name, "uninit_", 7) == 0) *out = WEIR_LLVM_UNINIT;
  else if (strncmp(name, "uaf_", 4) == 0) *out = WEIR_LLVM_UAF;
  else if (strncmp(name, "typestate_", 10) == 0) *out = WEIR_LLVM_TYPESTATE;
  else if (strncmp(name, "const_", 6) == 0) *out = WEIR_LLVM_CONST; /* values, not findings: test_const.c */
  else return 0;
  return 1;
}

static int ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), m = strlen(suffix);
  return n > m && strcmp(s + n - m, suffix) == 0;
}

static int by_name(const void *a, const void *b) { return strcmp((const char *)a, (const char *)b); }

/* The .c files of a program folder, sorted. */
static void folder_files(wt_program *p) {
  char dir[1024];
  snprintf(dir, sizeof dir, "%s/%s", WEIR_TEST_PROGRAMS, p->name);
  DIR *d = opendir(dir);
  p->file_count = 0;
  if (!d) return;
  for (struct dirent *e; (e = readdir(d)) != NULL;) {
    size_t length = strlen(e->d_name);
    if (!ends_with(e->d_name, ".c") || length >= WT_NAME) continue;
    if (p->file_count == WT_MAX_FILES) break;
    memcpy(p->files[p->file_count++], e->d_name, length + 1); /* fits: checked above */
  }
  closedir(d);
  qsort(p->files, p->file_count, WT_NAME, by_name);
}

/* A directory entry as a program: NAME.c, or a folder NAME with .c files. */
static int program_of(const char *entry, wt_program *p) {
  memset(p, 0, sizeof *p);
  if (strlen(entry) >= WT_NAME || !analysis_of(entry, &p->analysis)) return 0;
  char path[1024];
  snprintf(path, sizeof path, "%s/%s", WEIR_TEST_PROGRAMS, entry);
  struct stat st;
  if (stat(path, &st) != 0) return 0;
  if (S_ISDIR(st.st_mode)) {
    snprintf(p->name, sizeof p->name, "%s", entry);
    p->is_folder = 1;
    folder_files(p);
    return p->file_count > 0;
  }
  if (!ends_with(entry, ".c")) return 0;
  snprintf(p->name, sizeof p->name, "%.*s", (int)(strlen(entry) - 2), entry);
  snprintf(p->files[0], WT_NAME, "%s", entry);
  p->file_count = 1;
  return 1;
}

static int by_program_name(const void *a, const void *b) {
  return strcmp(((const wt_program *)a)->name, ((const wt_program *)b)->name);
}

size_t wt_programs(wt_program *out, size_t capacity) {
  DIR *d = opendir(WEIR_TEST_PROGRAMS);
  if (!d) return 0;
  size_t count = 0;
  wt_program p;
  for (struct dirent *e; (e = readdir(d)) != NULL;) {
    if (!program_of(e->d_name, &p)) continue;
    if (count < capacity) out[count] = p;
    ++count;
  }
  closedir(d);
  if (count > 0 && capacity > 0) qsort(out, count < capacity ? count : capacity, sizeof *out, by_program_name);
  return count;
}

int wt_program_find(const char *name, wt_program *out) {
  char entry[WT_NAME + 2];
  snprintf(entry, sizeof entry, "%s.c", name);
  return program_of(entry, out) || program_of(name, out);
}

static void source_path(const wt_program *p, size_t k, char *out, size_t capacity) {
  if (p->is_folder) snprintf(out, capacity, "%s/%s/%s", WEIR_TEST_PROGRAMS, p->name, p->files[k]);
  else snprintf(out, capacity, "%s/%s", WEIR_TEST_PROGRAMS, p->files[k]);
}

/* Reads the markers of one line, several per line allowed:
 *   EXPECT[-O0|-O2] weir-RULE [from=NAME]   a finding that must be reported
 *   EXPECT-NOT weir-RULE                    for readers: the line stays clean
 *   KNOWN-FP[-O0|-O2] weir-RULE             a false positive the analysis is known
 *   KNOWN-FN[-O0|-O2] weir-RULE             to report / a real finding it is known
 *                                           to miss (a documented precision limit);
 *                                           either way the line may or may not
 *                                           have the finding. */
static size_t line_markers(const char *file, unsigned number, const char *line, int level,
                           wt_expect *out, size_t capacity) {
  static const char *const kinds[] = {"EXPECT", "KNOWN-FP", "KNOWN-FN"};
  size_t count = 0;
  for (int kind = 0; kind < 3; ++kind) {
    size_t klen = strlen(kinds[kind]);
    for (const char *mark = strstr(line, kinds[kind]); mark; mark = strstr(mark + klen, kinds[kind])) {
      const char *rest = mark + klen;
      int only = -1;
      if (strncmp(rest, "-NOT", 4) == 0) continue;
      if (strncmp(rest, "-O0", 3) == 0) only = 0, rest += 3;
      else if (strncmp(rest, "-O2", 3) == 0) only = 2, rest += 3;
      if (*rest != ' ' || strncmp(rest + 1, "weir-", 5) != 0) continue;
      if (only >= 0 && only != level) continue;
      if (count == capacity) break;
      wt_expect *e = &out[count++];
      memset(e, 0, sizeof *e);
      snprintf(e->file, sizeof e->file, "%s", file);
      e->line = number;
      e->level = only;
      e->known = kind; /* 0: required; 1: known false positive; 2: known false negative */
      sscanf(rest + 1, "%47[a-z-]", e->rule);
      const char *next = strpbrk(rest + 1, "EK");
      while (next && strncmp(next, "EXPECT", 6) != 0 && strncmp(next, "KNOWN-", 6) != 0)
        next = strpbrk(next + 1, "EK");
      const char *from = strstr(rest, "from=");
      if (from && (!next || from < next)) sscanf(from + 5, "%63[A-Za-z0-9_]", e->from);
    }
  }
  return count;
}

size_t wt_expectations(const wt_program *p, int level, wt_expect *out, size_t capacity) {
  size_t count = 0;
  for (size_t k = 0; k < p->file_count; ++k) {
    char path[1024];
    source_path(p, k, path, sizeof path);
    FILE *f = fopen(path, "r");
    if (!f) continue;
    char line[1024];
    for (unsigned number = 1; fgets(line, sizeof line, f); ++number)
      count += line_markers(p->files[k], number, line, level, out + count, capacity - count);
    fclose(f);
  }
  return count;
}

/* Both levels of every file in one shell, the compilers running side by
 * side (the programs are small: clang's start-up dominates). Without
 * LD_PRELOAD: the sanitizer build's Vulkan tests preload lavapipe (an LLVM
 * of its own), which doubled every clang's start-up. */
int wt_compile(const wt_program *p, int debug, char paths[2][WT_MAX_FILES][1024]) {
  char command[16384];
  size_t used = (size_t)snprintf(command, sizeof command, "set -e; unset LD_PRELOAD; ");
  for (int l = 0; l < 2; ++l) {
    for (size_t k = 0; k < p->file_count; ++k) {
      char src[1024], stem[WT_NAME];
      source_path(p, k, src, sizeof src);
      snprintf(stem, sizeof stem, "%.*s", (int)(strlen(p->files[k]) - 2), p->files[k]);
      snprintf(paths[l][k], 1024, "%s/%s%s%s.O%d%s.bc", WEIR_TEST_WORK, p->name, p->is_folder ? "." : "",
               p->is_folder ? stem : "", l ? 2 : 0, debug ? "" : ".nodebug");
      used += (size_t)snprintf(command + used, sizeof command - used,
                               "'%s' %s -O%d -w -emit-llvm -c '%s' -o '%s' & p%d_%zu=$!; ", WEIR_TEST_CLANG,
                               debug ? "-g" : "", l ? 2 : 0, src, paths[l][k], l, k);
      if (used >= sizeof command) return -1;
    }
  }
  for (int l = 0; l < 2; ++l)
    for (size_t k = 0; k < p->file_count; ++k)
      used += (size_t)snprintf(command + used, sizeof command - used, "wait $p%d_%zu; ", l, k);
  if (used >= sizeof command) return -1;
  return system(command);
}

int wt_config_path(const char *name, char *out, size_t capacity) {
  snprintf(out, capacity, "%s/%s.cfg", WEIR_TEST_PROGRAMS, name);
  return access(out, R_OK) == 0;
}

weir_status wt_build(const wt_program *p, char paths[WT_MAX_FILES][1024], const char *config_path,
                     weir_llvm_problem **out) {
  return wt_build_all_facts(p, paths, config_path, 0, out);
}

weir_status wt_build_all_facts(const wt_program *p, char paths[WT_MAX_FILES][1024], const char *config_path,
                               int all_facts, weir_llvm_problem **out) {
  weir_llvm_config *config = NULL;
  WEIR_TRY(weir_llvm_config_new(&config));
  weir_llvm_config_keep_all_facts(config, all_facts);
  weir_status s = config_path ? weir_llvm_config_load_file(config, config_path) : WEIR_OK;
  /* typestate_NAME[_more].c uses share/weir/typestate/NAME.spec */
  weir_ts_spec *spec = NULL;
  if (s == WEIR_OK && p->analysis == WEIR_LLVM_TYPESTATE) {
    char path[1200];
    snprintf(path, sizeof path, "%s/../../../share/weir/typestate/%.*s.spec", WEIR_TEST_PROGRAMS,
             (int)strcspn(p->name + 10, "._"), p->name + 10);
    s = weir_ts_spec_load(path, &spec);
    weir_llvm_config_typestate_spec(config, spec);
  }
  if (s == WEIR_OK && p->file_count == 1) {
    s = weir_llvm_build(paths[0], p->analysis, config, out);
  } else if (s == WEIR_OK) {
    const char *list[WT_MAX_FILES];
    for (size_t k = 0; k < p->file_count; ++k) list[k] = paths[k];
    s = weir_llvm_build_files(list, p->file_count, p->analysis, config, out);
  }
  weir_llvm_config_free(config);
  weir_ts_spec_free(spec);
  return s;
}

weir_status wt_solve(weir_llvm_problem *lp, weir_backend *backend, wt_run *run) {
  memset(run, 0, sizeof *run);
  run->lp = lp;
  WEIR_TRY(weir_llvm_problem_load(lp, &run->problem));
  weir_status s;
  if (strcmp(weir_llvm_problem_analysis(lp), "typestate") == 0) {
    s = weir_llvm_typestate_solve(lp, backend, &run->result); /* the IDE engine when a backend is given */
  } else if (backend) {
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

/* ---- comparing findings with markers -------------------------------------- */

static const char *base_name(const char *path) {
  const char *slash = path ? strrchr(path, '/') : NULL;
  return slash ? slash + 1 : (path ? path : "");
}

/* `weir-taint` matches weir-taint and weir-taint-format-string, not
 * weir-taintx. */
static int rule_matches(const char *marker, const char *rule) {
  size_t n = strlen(marker);
  return rule && strncmp(rule, marker, n) == 0 && (rule[n] == '\0' || rule[n] == '-');
}

static int matches(const wt_expect *e, const weir_llvm_finding *f) {
  if (f->where.line != e->line || strcmp(base_name(f->where.file), e->file) != 0) return 0;
  if (!rule_matches(e->rule, f->rule)) return 0;
  if (!e->from[0]) return 1;
  return f->has_source && f->source_name && strcmp(f->source_name, e->from) == 0;
}

static void print_finding(FILE *out, const char *what, const weir_llvm_finding *f) {
  fprintf(out, "  %s: unexpected %s:%u %s%s%s  (%s: %s)\n", what, base_name(f->where.file), f->where.line,
          f->rule ? f->rule : "?", f->has_source ? " from=" : "", f->has_source ? f->source_name : "",
          f->where.function ? f->where.function : "?", f->message ? f->message : "");
}

size_t wt_compare(const wt_program *p, const wt_expect *expect, size_t count,
                  const weir_llvm_findings *findings, const char *what, FILE *out) {
  (void)p;
  size_t wrong = 0;
  for (size_t e = 0; e < count; ++e) {
    int found = 0;
    for (size_t k = 0; k < findings->count && !found; ++k) found = matches(&expect[e], &findings->items[k]);
    if (found || expect[e].known) continue; /* a known limit may come and go */
    ++wrong;
    fprintf(out, "  %s: missing %s:%u %s%s%s\n", what, expect[e].file, expect[e].line, expect[e].rule,
            expect[e].from[0] ? " from=" : "", expect[e].from);
  }
  for (size_t k = 0; k < findings->count; ++k) {
    int found = 0;
    for (size_t e = 0; e < count && !found; ++e) found = matches(&expect[e], &findings->items[k]);
    if (found) continue;
    ++wrong;
    print_finding(out, what, &findings->items[k]);
  }
  return wrong;
}
