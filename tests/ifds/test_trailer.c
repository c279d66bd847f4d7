/* The `end EDGES CALLS CALLEES SEEDS` trailer: checked when present, a
 * warning flag (or, strict, an error) when absent, nothing but comments
 * after it; a file cut at a line boundary is caught by it; the writer and
 * the generator write it. */
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/ifds/util.h"
#include "weir/ifds.h"
#include "weir/ifds_gen.h"

#define BODY                                                                          \
  "weir-ifds 1\nfacts 4\nprocs 2\nnodes 6\nproc 0 main 0 2\nproc 1 f 3 5\n"          \
  "edge 0 1 id,0>1\ncall 1 2 id\ncallee 1 1 1>2 2>1\nedge 3 4 id\nedge 4 5 id\n" \
  "seed 0 0\nseed 0 0\n"

static weir_status load(const char *text, int strict, weir_ifds_problem **p) {
  weir_ifds_load_options o = {.strict = strict};
  return weir_ifds_load_memory_ex("t.ifds", text, strlen(text), &o, p);
}

static void refused(const char *text, int strict, const char *message) {
  weir_ifds_problem *p = (weir_ifds_problem *)&p;
  ck_assert_int_eq(load(text, strict, &p), WEIR_ERR_PARSE);
  ck_assert_ptr_null(p);
  ck_assert_str_eq(weir_last_error(), message);
}

START_TEST(present_and_right) {
  weir_ifds_problem *p = NULL;
  ck_assert_int_eq(load(BODY "end 3 1 1 2\n# a comment\n\n", 1, &p), WEIR_OK);
  ck_assert_uint_eq(p->warnings, 0);
  ck_assert_uint_eq(p->seed_count, 1); /* counted before duplicates go */
  weir_ifds_problem_free(p);
  /* no body at all: the trailer closes the proc section */
  const char *empty = "weir-ifds 1\nfacts 1\nprocs 1\nnodes 2\nproc 0 main 0 1\nend 0 0 0 0\n";
  ck_assert_int_eq(load(empty, 1, &p), WEIR_OK);
  ck_assert_uint_eq(p->warnings, WEIR_IFDS_WARN_NO_SEEDS);
  weir_ifds_problem_free(p);
}
END_TEST

START_TEST(present_and_wrong) {
  refused(BODY "end 3 1 2 2\n", 0,
          "t.ifds:14:9: error: end line does not match the file (found `end 3 1 2 2`, expected "
          "`end 3 1 1 2`, the edge, call, callee and seed lines above). Fix: the file was cut or "
          "edited after it was written; regenerate it, or correct the counts if the lines above "
          "are right.");
  refused(BODY "end 3 1 1\n", 0,
          "t.ifds:14:10: error: missing seed count (found end of line, expected seed count). Fix: "
          "complete the line (see docs/ifds-format.md).");
  refused(BODY "end 3 1 1 2 0\n", 0,
          "t.ifds:14:13: error: unexpected extra token (found '0', expected end of line). Fix: "
          "remove the extra token or start a comment with #.");
}
END_TEST

START_TEST(content_after_end) {
  refused(BODY "end 3 1 1 2\nseed 4 0\n", 0,
          "t.ifds:15:1: error: content after the end line (found 'seed', expected only comments "
          "and blank lines after `end`). Fix: remove the line, or the end line if the file goes "
          "on (then correct its counts).");
  refused(BODY "end 3 1 1 2\n  end 3 1 1 2\n", 0,
          "t.ifds:15:3: error: content after the end line (found 'end', expected only comments "
          "and blank lines after `end`). Fix: remove the line, or the end line if the file goes "
          "on (then correct its counts).");
  refused("weir-ifds 1\nfacts 1\nend 0 0 0 0\n", 0,
          "t.ifds:3:1: error: missing header directive (found 'end', expected `procs`). Fix: give "
          "weir-ifds, facts, procs and nodes first, in that order.");
}
END_TEST

/* Absent: loads with the flag; strict: an error that gives the line to add. */
START_TEST(absent) {
  weir_ifds_problem *p = NULL;
  ck_assert_int_eq(load(BODY, 0, &p), WEIR_OK);
  ck_assert_uint_eq(p->warnings, WEIR_IFDS_WARN_NO_END_LINE);
  ck_assert_ptr_nonnull(strstr(weir_ifds_warning_text(WEIR_IFDS_WARN_NO_END_LINE), "no `end` line"));
  weir_ifds_problem_free(p);
  refused(BODY, 1,
          "t.ifds:14:1: error: missing end line (found end of file, expected `end 3 1 1 2` after "
          "the last line). Fix: the file may be truncated: regenerate it; if it is complete, add "
          "the end line (loads that are not strict accept the file with a warning).");
  /* weir_ifds_load_memory is not strict */
  ck_assert_int_eq(weir_ifds_load_memory("t.ifds", BODY, strlen(BODY), &p), WEIR_OK);
  ck_assert_uint_eq(p->warnings, WEIR_IFDS_WARN_NO_END_LINE);
  weir_ifds_problem_free(p);
}
END_TEST

/* A written problem cut at every line boundary: each cut is refused, or
 * (before the trailer... never) loads unflagged. Cut at a boundary and
 * loaded non-strict, it is flagged; strict, refused. */
START_TEST(truncation_is_detected) {
  weir_ifds_gen_options o = {.preset = WEIR_IFDS_PRESET_REALISTIC, .procs = 30, .seed = 4};
  weir_ifds_problem *g = NULL;
  ck_assert_int_eq(weir_ifds_generate_problem(&o, &g), WEIR_OK);
  char *text = ifds_test_problem_text(g);
  weir_ifds_problem_free(g);
  size_t n = strlen(text), cuts = 0;
  for (size_t at = 0; at + 1 < n; ++at) {
    if (text[at] != '\n') continue;
    weir_ifds_problem *p = NULL;
    weir_ifds_load_options strict = {.strict = 1};
    ck_assert_int_ne(weir_ifds_load_memory_ex("cut.ifds", text, at + 1, &strict, &p), WEIR_OK);
    ck_assert_ptr_null(p);
    if (weir_ifds_load_memory("cut.ifds", text, at + 1, &p) == WEIR_OK) {
      ck_assert_uint_ne(p->warnings & WEIR_IFDS_WARN_NO_END_LINE, 0);
      weir_ifds_problem_free(p);
    }
    ++cuts;
  }
  ck_assert_uint_gt(cuts, 100);
  weir_ifds_problem *p = NULL;
  ck_assert_int_eq(weir_ifds_load_memory_ex("whole.ifds", text, n, &(weir_ifds_load_options){1}, &p),
                   WEIR_OK);
  ck_assert_uint_eq(p->warnings, 0);
  weir_ifds_problem_free(p);
  free(text);
}
END_TEST

/* The same through a file (mapped) and through a pipe (read in chunks). */
START_TEST(file_and_pipe) {
  char path[64];
  snprintf(path, sizeof path, "/tmp/weir-trailer-%d.ifds", (int)getpid());
  FILE *f = fopen(path, "wb");
  ck_assert_ptr_nonnull(f);
  fputs(BODY "end 3 1 1 2\n", f);
  fclose(f);
  weir_ifds_problem *p = NULL;
  weir_ifds_load_options strict = {.strict = 1};
  ck_assert_msg(weir_ifds_load_file_ex(path, &strict, &p) == WEIR_OK, "%s", weir_last_error());
  ck_assert_uint_eq(p->source_bytes, strlen(BODY "end 3 1 1 2\n"));
  weir_ifds_problem_free(p);
  char cmd[160];
  snprintf(cmd, sizeof cmd, "head -n 13 %s > %s.cut", path, path);
  ck_assert_int_eq(system(cmd), 0);
  snprintf(cmd, sizeof cmd, "%s.cut", path);
  ck_assert_int_eq(weir_ifds_load_file_ex(cmd, &strict, &p), WEIR_ERR_PARSE);
  ck_assert_ptr_nonnull(strstr(weir_last_error(), ".cut:14:1: error: missing end line"));
  unlink(cmd);
  /* a pipe: /dev/stdin of a child is not mappable; use a FIFO-free route */
  int fds[2];
  ck_assert_int_eq(pipe(fds), 0);
  const char *piped = BODY "end 3 1 1 2\n";
  ck_assert_int_eq(write(fds[1], piped, strlen(piped)), (int)strlen(piped));
  close(fds[1]);
  char dev[32];
  snprintf(dev, sizeof dev, "/dev/fd/%d", fds[0]);
  ck_assert_msg(weir_ifds_load_file_ex(dev, &strict, &p) == WEIR_OK, "%s", weir_last_error());
  ck_assert_uint_eq(p->warnings, 0);
  ck_assert_uint_eq(p->source_bytes, strlen(piped));
  weir_ifds_problem_free(p);
  close(fds[0]);
  unlink(path);
}
END_TEST

/* A mapped file is parsed in 16 MiB windows: a line longer than a window,
 * and a cut last line after it, keep their line and column. */
START_TEST(line_longer_than_a_window) {
  size_t pad = 17u << 20;
  const char *head = BODY "# ", *tail = "\nedge 4 5 idd\nseed 0 0";
  size_t hl = strlen(head), tl = strlen(tail);
  char *text = malloc(hl + pad + tl), path[64];
  ck_assert_ptr_nonnull(text);
  memcpy(text, head, hl);
  memset(text + hl, 'x', pad);
  memcpy(text + hl + pad, tail, tl);
  snprintf(path, sizeof path, "/tmp/weir-window-%d.ifds", (int)getpid());
  FILE *f = fopen(path, "wb");
  ck_assert_ptr_nonnull(f);
  ck_assert_uint_eq(fwrite(text, 1, hl + pad + tl, f), hl + pad + tl);
  fclose(f);
  weir_ifds_problem *p = NULL;
  ck_assert_int_eq(weir_ifds_load_file(path, &p), WEIR_ERR_PARSE);
  ck_assert_ptr_nonnull(strstr(weir_last_error(), ":15:10: error: unknown flow term (found 'idd'"));
  f = fopen(path, "wb"); /* now only the last line is wrong: cut */
  memcpy(text + hl + pad, "\nedge 4 3 id#\nseed 0 0", tl); /* same length */
  ck_assert_uint_eq(fwrite(text, 1, hl + pad + tl, f), hl + pad + tl);
  fclose(f);
  ck_assert_int_eq(weir_ifds_load_file(path, &p), WEIR_ERR_PARSE);
  ck_assert_ptr_nonnull(strstr(weir_last_error(), ":16:9: error: truncated last line"));
  free(text);
  unlink(path);
}
END_TEST

START_TEST(writers_write_it) {
  weir_ifds_gen_options o = {.preset = WEIR_IFDS_PRESET_CHAIN, .procs = 3, .seed = 1};
  char *text = NULL;
  size_t length = 0;
  FILE *f = open_memstream(&text, &length);
  ck_assert_int_eq(weir_ifds_generate(&o, f), WEIR_OK);
  fclose(f);
  ck_assert_ptr_nonnull(strstr(text, "\nend "));
  weir_ifds_problem *p = NULL;
  ck_assert_int_eq(weir_ifds_load_memory_ex("gen.ifds", text, length, &(weir_ifds_load_options){1}, &p),
                   WEIR_OK);
  ck_assert_uint_eq(p->warnings, 0);
  weir_ifds_problem_free(p);
  free(text);
}
END_TEST

Suite *ifds_trailer_suite(void);
Suite *ifds_trailer_suite(void) {
  Suite *s = suite_create("ifds-trailer");
  TCase *t = tcase_create("end");
  tcase_set_timeout(t, 60);
  tcase_add_test(t, present_and_right);
  tcase_add_test(t, present_and_wrong);
  tcase_add_test(t, content_after_end);
  tcase_add_test(t, absent);
  tcase_add_test(t, truncation_is_detected);
  tcase_add_test(t, file_and_pipe);
  tcase_add_test(t, line_longer_than_a_window);
  tcase_add_test(t, writers_write_it);
  suite_add_tcase(s, t);
  return s;
}
