/* One malformed text per message of the IDE format (cases.inc), each
 * asserting the exact message, that nothing is returned, and (under ASan)
 * that nothing leaks; the IFDS loader refusing an IDE file; plain IFDS
 * files loading as before. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "weir/ide.h"

typedef struct bad_case {
  const char *rule, *text, *message;
} bad_case;

#define CASE(rule, text, message) {#rule, text, message},
static const bad_case cases[] = {
#include "tests/ide/cases.inc"
};
#define CASE_COUNT (sizeof cases / sizeof cases[0])

START_TEST(malformed_text) {
  const bad_case *c = &cases[_i];
  weir_ide_problem *p = (weir_ide_problem *)&p; /* must be reset to NULL */
  weir_status s = weir_ide_load_memory("bad.ide", c->text, strlen(c->text), &p);
  ck_assert_msg(s == WEIR_ERR_PARSE, "rule %s: status %d", c->rule, (int)s);
  ck_assert_ptr_null(p);
  ck_assert_msg(strcmp(weir_last_error(), c->message) == 0, "rule %s:\n got  %s\n want %s", c->rule,
                weir_last_error(), c->message);
}
END_TEST

START_TEST(ifds_loader_refuses_ide_file) {
  const char *text = "# an IDE file\nweir-ide 1\nfamily linear\n";
  weir_ifds_problem *p = NULL;
  ck_assert_int_eq(weir_ifds_load_memory("x.ide", text, strlen(text), &p), WEIR_ERR_PARSE);
  ck_assert_ptr_null(p);
  ck_assert_str_eq(weir_last_error(),
                   "x.ide:2:1: error: an IDE problem, not an IFDS problem (found 'weir-ide', "
                   "expected `weir-ifds 1`). Fix: solve it as IDE (weir ide, weir_ide_load_file; "
                   "see docs/ide-format.md).");
}
END_TEST

/* The IFDS part of an IDE file is the IFDS problem: the same text without
 * the IDE additions loads to the same arrays. */
START_TEST(ifds_part_is_the_ifds_problem) {
  const char *ide = "weir-ide 1\nfamily linear\nfacts 3\nprocs 1\nnodes 3\nproc 0 main 0 2\n"
                    "edge 0 1 id,0>1 0>1=c3\nedge 1 2 id,1>2 1>2=2*x\nseed 0 0 bot\nend 2 0 0 1\n";
  const char *ifds = "weir-ifds 1\nfacts 3\nprocs 1\nnodes 3\nproc 0 main 0 2\n"
                     "edge 0 1 id,0>1\nedge 1 2 id,1>2\nseed 0 0\nend 2 0 0 1\n";
  weir_ide_problem *a = NULL;
  weir_ifds_problem *b = NULL;
  ck_assert_int_eq(weir_ide_load_memory("a", ide, strlen(ide), &a), WEIR_OK);
  ck_assert_int_eq(weir_ifds_load_memory("b", ifds, strlen(ifds), &b), WEIR_OK);
  char *ta = NULL, *tb = NULL;
  size_t na = 0, nb = 0;
  FILE *fa = open_memstream(&ta, &na), *fb = open_memstream(&tb, &nb);
  ck_assert_int_eq(weir_ifds_write_problem(a->ifds, fa), WEIR_OK);
  ck_assert_int_eq(weir_ifds_write_problem(b, fb), WEIR_OK);
  fclose(fa);
  fclose(fb);
  ck_assert_str_eq(ta, tb);
  ck_assert_uint_eq(a->ann_count, 2);
  ck_assert_uint_eq(a->fn_count, 3); /* identity, c3, 2*x */
  free(ta);
  free(tb);
  weir_ide_problem_free(a);
  weir_ifds_problem_free(b);
}
END_TEST

static char *text_of(const weir_ide_problem *p) {
  char *text = NULL;
  size_t size = 0;
  FILE *f = open_memstream(&text, &size);
  ck_assert_int_eq(weir_ide_write_problem(p, f), WEIR_OK);
  fclose(f);
  return text;
}

/* What the writer makes of a problem loads back and writes the same. */
static void written_loads_back(const weir_ide_problem *p, int round) {
  char *first = text_of(p);
  weir_ide_problem *q = NULL;
  ck_assert_msg(weir_ide_load_memory("w.ide", first, strlen(first), &q) == WEIR_OK,
                "round %d: %s\n%s", round, weir_last_error(), first);
  char *second = text_of(q);
  ck_assert_str_eq(first, second);
  free(first);
  free(second);
  weir_ide_problem_free(q);
}

/* Random damage to valid IDE texts (bytes changed, dropped, duplicated, a
 * cut) never crashes the loader: it loads, or fails with a FILE:LINE:COL
 * message that ends with a Fix; what loads writes back to a text that
 * loads to the same text. Deterministic; ASan runs check memory. */
START_TEST(mutations_are_refused_cleanly) {
  static const char *const bases[] = {
      "weir-ide 1\nfamily linear\nfacts 4\nprocs 2\nnodes 6\nproc 0 main 0 3\nproc 1 f 4 5\n"
      "edge 0 1 id,0>1 0>1=c5\ncall 1 2 id,-2 -\ncallee 1 1 1>3 3>2 - 3>2=2*x\n"
      "edge 2 3 id,1>3 1>3=x+1\nedge 4 5 id\nseed 0 0 bot\nend 3 1 1 1\n",
      "weir-ide 1\nfamily typestate 3\nstate 0 init\nstate 1 open\nstate 2 shut\nfacts 2\n"
      "procs 1\nnodes 3\nproc 0 main 0 2\nedge 0 1 id,0>1 0>1=*>open\n"
      "edge 1 2 id 1>1=open>shut;shut>init|shut\nseed 0 0 {init}\nend 2 0 0 1\n"};
  uint64_t state = 99;
  char text[1024];
  for (int round = 0; round < 4000; ++round) {
    const char *base = bases[round % 2];
    size_t n = strlen(base);
    memcpy(text, base, n + 1);
    for (int k = 0; k < 1 + round % 3 && n > 0; ++k) {
      state = state * 6364136223846793005ull + 1442695040888963407ull;
      size_t at = (size_t)(state >> 33) % n;
      unsigned op = (unsigned)(state >> 20) % 4u;
      if (op == 0) text[at] = "0123456789>=,;|*{}-x c#\n"[(state >> 40) % 24];
      else if (op == 1 && n > 1) memmove(text + at, text + at + 1, n - at), --n;
      else if (op == 2 && n + 1 < sizeof text) memmove(text + at + 1, text + at, n - at + 1), ++n;
      else n = at, text[n] = 0;
    }
    weir_ide_problem *p = NULL;
    weir_status s = weir_ide_load_memory("m.ide", text, n, &p);
    if (s == WEIR_OK) {
      weir_ide_result r;
      ck_assert_int_eq(weir_ide_solve_reference(p, &r, NULL), WEIR_OK);
      weir_ide_result_free(&r);
      written_loads_back(p, round);
      weir_ide_problem_free(p);
      continue;
    }
    ck_assert_ptr_null(p);
    const char *m = weir_last_error();
    ck_assert_msg(strncmp(m, "m.ide:", 6) == 0 && strstr(m, ": error: ") && strstr(m, "Fix: "),
                  "round %d: %s", round, m);
  }
}
END_TEST

Suite *ide_error_suite(void) {
  Suite *s = suite_create("ide_errors");
  TCase *t = tcase_create("errors");
  tcase_add_loop_test(t, malformed_text, 0, (int)CASE_COUNT);
  tcase_add_test(t, ifds_loader_refuses_ide_file);
  tcase_add_test(t, ifds_part_is_the_ifds_problem);
  tcase_add_test(t, mutations_are_refused_cleanly);
  suite_add_tcase(s, t);
  return s;
}
