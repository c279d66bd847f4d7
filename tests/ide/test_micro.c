/* Micro problems whose values were worked out by hand (the derivation is in
 * the comments): both families, straight lines, a summary reused by two
 * callers, recursion, a loop, and the typestate of a file closed twice. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/ide/util.h"

static void check_rows(const char *problem, const char *want) {
  char *got = ide_test_solve_text(problem);
  ck_assert_msg(strcmp(got, want) == 0, "got:\n%s\nwant:\n%s", got, want);
  free(got);
}

/* x = 3; y = 2x + 1; x = x - 10. */
START_TEST(linear_straight_line) {
  check_rows("weir-ide 1\nfamily linear\nfacts 3\nprocs 1\nnodes 4\nproc 0 main 0 3\n"
             "edge 0 1 id,0>1 0>1=c3\n"
             "edge 1 2 id,1>2 1>2=2*x+1\n"
             "edge 2 3 id 1>1=x-10\n"
             "seed 0 0 bot\nend 3 0 0 1\n",
             "0 0 bot\n"
             "1 0 bot\n1 1 3\n"
             "2 0 bot\n2 1 3\n2 2 7\n"
             "3 0 bot\n3 1 -7\n3 2 7\n");
}
END_TEST

/* a = 1; b = f(a); c = 10; d = f(c);  f(p) { return p + 1; }
 * f is entered with p = 1 and p = 10, so p is ⊥ inside f; but the jump
 * function of f's exit is the identity, the summary p + 1 is applied per
 * call site: b = 2, d = 11. */
START_TEST(linear_summary_two_callers) {
  check_rows("weir-ide 1\nfamily linear\nfacts 6\nprocs 2\nnodes 8\n"
             "proc 0 main 0 5\nproc 1 f 6 7\n"
             "edge 0 1 id,0>1 0>1=c1\n"
             "call 1 2 id,-2\ncallee 1 1 1>5 5>2 - 5>2=x+1\n"
             "edge 2 3 id,0>3 0>3=c10\n"
             "call 3 4 id,-4\ncallee 3 1 3>5 5>4 - 5>4=x+1\n"
             "edge 4 5 id\nedge 6 7 id\n"
             "seed 0 0 bot\nend 4 2 2 1\n",
             "0 0 bot\n"
             "1 0 bot\n1 1 1\n"
             "2 0 bot\n2 1 1\n2 2 2\n"
             "3 0 bot\n3 1 1\n3 2 2\n3 3 10\n"
             "4 0 bot\n4 1 1\n4 2 2\n4 3 10\n4 4 11\n"
             "5 0 bot\n5 1 1\n5 2 2\n5 3 10\n5 4 11\n"
             "6 0 bot\n6 5 bot\n"
             "7 0 bot\n7 5 bot\n");
}
END_TEST

/* x = 4; (y, w) = g(x, x);  g(p, s) { if (*) return (p, s); return g(p + 1, s); }
 * p's jump function at g's exit merges id and x+1 (from the recursive
 * call): ⊥, so y = ⊥ and p = ⊥ in g; s comes back unchanged along every
 * path: its jump function stays the identity, w = 4 and s = 4 in g. */
START_TEST(linear_recursion) {
  check_rows("weir-ide 1\nfamily linear\nfacts 6\nprocs 2\nnodes 8\n"
             "proc 0 main 0 3\nproc 1 g 4 7\n"
             "edge 0 1 id,0>1 0>1=c4\n"
             "call 1 2 id,-2,-5\ncallee 1 1 1>3,1>4 3>2,4>5\n"
             "edge 2 3 id\n"
             "edge 4 5 id\nedge 4 7 id\n"
             "call 5 6 id,-3,-4\ncallee 5 1 3>3,4>4 3>3,4>4 3>3=x+1\n"
             "edge 6 7 id\n"
             "seed 0 0 bot\nend 5 2 2 1\n",
             "0 0 bot\n"
             "1 0 bot\n1 1 4\n"
             "2 0 bot\n2 1 4\n2 2 bot\n2 5 4\n"
             "3 0 bot\n3 1 4\n3 2 bot\n3 5 4\n"
             "4 0 bot\n4 3 bot\n4 4 4\n"
             "5 0 bot\n5 3 bot\n5 4 4\n"
             "6 0 bot\n6 3 bot\n6 4 4\n"
             "7 0 bot\n7 3 bot\n7 4 4\n");
}
END_TEST

/* i = 0; j = 5; while (*) i = i + 1;  i meets 0 and 1 at the loop head
 * (⊥); j stays 5. The zero fact starts at ⊤ here and stays ⊤. */
START_TEST(linear_loop) {
  check_rows("weir-ide 1\nfamily linear\nfacts 3\nprocs 1\nnodes 4\nproc 0 main 0 3\n"
             "edge 0 1 id,0>1,0>2 0>1=c0,0>2=c5\n"
             "edge 1 2 id 1>1=x+1\n"
             "edge 2 1 id\n"
             "edge 1 3 id\n"
             "seed 0 0 top\nend 4 0 0 1\n",
             "0 0 top\n"
             "1 0 top\n1 1 bot\n1 2 5\n"
             "2 0 top\n2 1 bot\n2 2 5\n"
             "3 0 top\n3 1 bot\n3 2 5\n");
}
END_TEST

/* f = fopen(); if (*) fclose(f); fclose(f); fclose(f);
 * after the branch: {opened|closed}; the next close: {closed|error};
 * the last: {error} (error stays error: rows not given are the identity). */
START_TEST(typestate_double_close) {
  check_rows("weir-ide 1\nfamily typestate 4\n"
             "state 0 init\nstate 1 opened\nstate 2 closed\nstate 3 error\n"
             "facts 2\nprocs 1\nnodes 7\nproc 0 main 0 6\n"
             "edge 0 1 id,0>1 0>1=*>opened\n"
             "edge 1 2 id 1>1=opened>closed;closed>error\n"
             "edge 1 3 id\nedge 2 4 id\nedge 3 4 id\n"
             "edge 4 5 id 1>1=opened>closed;closed>error\n"
             "edge 5 6 id 1>1=opened>closed;closed>error\n"
             "seed 0 0 {init}\nend 7 0 0 1\n",
             "0 0 {init}\n"
             "1 0 {init}\n1 1 {opened}\n"
             "2 0 {init}\n2 1 {closed}\n"
             "3 0 {init}\n3 1 {opened}\n"
             "4 0 {init}\n4 1 {opened|closed}\n"
             "5 0 {init}\n5 1 {closed|error}\n"
             "6 0 {init}\n6 1 {error}\n");
}
END_TEST

/* examples/files.ide: close(f) twice through one procedure. The summary of
 * close (opened>closed;closed>error) applies per call: {closed}, then
 * {error}; inside close, h is {opened|closed} (both entries). */
START_TEST(typestate_close_twice_through_a_call) {
  size_t n = 0;
  FILE *f = fopen(WEIR_IDE_EXAMPLES_DIR "/files.ide", "rb");
  ck_assert_ptr_nonnull(f);
  char text[4096];
  n = fread(text, 1, sizeof text - 1, f);
  fclose(f);
  text[n] = 0;
  check_rows(text,
             "0 0 {init}\n"
             "1 0 {init}\n1 1 {opened}\n"
             "2 0 {init}\n2 1 {closed}\n"
             "3 0 {init}\n3 1 {closed}\n"
             "4 0 {init}\n4 1 {error}\n"
             "5 0 {init}\n5 2 {opened|closed}\n"
             "6 0 {init}\n6 2 {closed|error}\n");
}
END_TEST

/* Seeds: a repeated seed merges its values (3 and 3: 3; then 4: ⊥), a seed
 * at a node that is not a start holds there with its value. */
START_TEST(seeds_merge) {
  check_rows("weir-ide 1\nfamily linear\nfacts 2\nprocs 1\nnodes 3\nproc 0 main 0 2\n"
             "edge 0 1 id\nedge 1 2 id 1>1=x+1\n"
             "seed 1 1 3\nseed 1 1 3\nseed 0 0 7\n",
             "0 0 7\n1 0 7\n1 1 3\n2 0 7\n2 1 4\n");
  check_rows("weir-ide 1\nfamily linear\nfacts 2\nprocs 1\nnodes 3\nproc 0 main 0 2\n"
             "edge 0 1 id\nedge 1 2 id 1>1=x+1\n"
             "seed 1 1 3\nseed 1 1 4\nseed 0 0 7\n",
             "0 0 7\n1 0 7\n1 1 bot\n2 0 7\n2 1 bot\n");
}
END_TEST

/* Tokens of many pairs (the loader's pair lookups and repeated-pair check,
 * the solver's flow and edge-function lookups are binary searches or
 * hashes): node 1 gets fact i = i from one token of F - 1 pairs 0>i=cI,
 * given in descending order; edge 1 2 keeps every fact but 3 and F - 1
 * (`id,-3,-LAST`) and doubles each one it keeps (one function per kept
 * fact, again descending). A repeated pair far into a large token is found
 * at its own column. */
#define BIG_FACTS 20001u

START_TEST(large_token) {
  char *text = malloc(BIG_FACTS * 48 + 4096), *at = text;
  at += sprintf(at, "weir-ide 1\nfamily linear\nfacts %u\nprocs 1\nnodes 3\nproc 0 m 0 2\nedge 0 1 id",
                BIG_FACTS);
  for (unsigned i = 1; i < BIG_FACTS; ++i) at += sprintf(at, ",0>%u", i);
  for (unsigned i = BIG_FACTS - 1; i >= 1; --i)
    at += sprintf(at, i == BIG_FACTS - 1 ? " 0>%u=c%u" : ",0>%u=c%u", i, i);
  at += sprintf(at, "\nedge 1 2 id,-3,-%u", BIG_FACTS - 1);
  int first = 1;
  for (unsigned i = BIG_FACTS - 2; i >= 1; --i) {
    if (i == 3) continue;
    at += sprintf(at, first ? " %u>%u=2*x+0" : ",%u>%u=2*x+0", i, i);
    first = 0;
  }
  at += sprintf(at, "\nseed 0 0 bot\nend 2 0 0 1\n");
  /* The engine on cpu only: on lavapipe phase 0 (the IFDS engine) refuses
   * this one 20,000-pair flow, its loop budget spent even split over 64
   * passes (the IFDS engine's documented limit), after a minute of trying. */
  char *got = ide_test_solve_text_on(text, "cpu");
  char *want = malloc(BIG_FACTS * 64 + 64), *w = want;
  w += sprintf(w, "0 0 bot\n1 0 bot\n");
  for (unsigned i = 1; i < BIG_FACTS; ++i) w += sprintf(w, "1 %u %u\n", i, i);
  w += sprintf(w, "2 0 bot\n");
  for (unsigned i = 1; i < BIG_FACTS - 1; ++i)
    if (i != 3) w += sprintf(w, "2 %u %u\n", i, 2 * i);
  ck_assert_msg(strcmp(got, want) == 0, "the rows differ (%zu bytes, want %zu)", strlen(got),
                strlen(want));
  free(got);
  free(want);

  /* The same problem with pair 1>1 given a second time at the token's end. */
  at = strstr(text, "\nseed");
  char *tail = strdup(at);
  at += sprintf(at, ",1>1=c7");
  strcpy(at, tail);
  free(tail);
  weir_ide_problem *p = NULL;
  ck_assert_int_eq(weir_ide_load_memory("big.ide", text, strlen(text), &p), WEIR_ERR_PARSE);
  ck_assert_ptr_null(p);
  ck_assert_ptr_nonnull(strstr(weir_last_error(), "big.ide:8:"));
  ck_assert_ptr_nonnull(strstr(weir_last_error(), "repeated edge function for a pair (found pair "
                                                  "1>1 a second time"));
  /* ... and at the column of that item (the line's length less its 6 bytes). */
  const char *line8 = strstr(text, "\nedge 1 2") + 1;
  size_t column = (size_t)(strchr(line8, '\n') - line8) - 6 + 1;
  char where[32];
  snprintf(where, sizeof where, "big.ide:8:%zu:", column);
  ck_assert_msg(strncmp(weir_last_error(), where, strlen(where)) == 0, "%s", weir_last_error());
  free(text);
}
END_TEST

Suite *ide_micro_suite(void) {
  Suite *s = suite_create("ide_micro");
  TCase *t = tcase_create("micro");
  tcase_set_timeout(t, 120); /* each problem also solved by the engine on cpu and lavapipe */
  tcase_add_test(t, linear_straight_line);
  tcase_add_test(t, linear_summary_two_callers);
  tcase_add_test(t, linear_recursion);
  tcase_add_test(t, linear_loop);
  tcase_add_test(t, typestate_double_close);
  tcase_add_test(t, typestate_close_twice_through_a_call);
  tcase_add_test(t, seeds_merge);
  tcase_add_test(t, large_token);
  suite_add_tcase(s, t);
  return s;
}
