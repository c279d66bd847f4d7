/* weir_ide_write_problem: what it writes loads to the same problem (the
 * same text when written again, the same values when solved), for the
 * examples, edge cases of the syntax, and generated problems. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/ide/gen.h"
#include "tests/ide/util.h"

static char *text_of(const weir_ide_problem *p) {
  char *text = NULL;
  size_t size = 0;
  FILE *f = open_memstream(&text, &size);
  ck_assert_msg(weir_ide_write_problem(p, f) == WEIR_OK, "%s", weir_last_error());
  fclose(f);
  return text;
}

static char *rows_of(const weir_ide_problem *p) {
  weir_ide_result r;
  ck_assert_int_eq(weir_ide_solve_reference(p, &r, NULL), WEIR_OK);
  char *rows = ide_test_rows(p, &r);
  weir_ide_result_free(&r);
  return rows;
}

/* Writes p, loads it back, writes that: same text, same rows. */
static void round_trip(const weir_ide_problem *p) {
  char *first = text_of(p);
  weir_ide_problem *q = NULL;
  ck_assert_msg(weir_ide_load_memory("written.ide", first, strlen(first), &q) == WEIR_OK,
                "%s\n%s", weir_last_error(), first);
  char *second = text_of(q), *a = rows_of(p), *b = rows_of(q);
  ck_assert_str_eq(first, second);
  ck_assert_str_eq(a, b);
  free(first);
  free(second);
  free(a);
  free(b);
  weir_ide_problem_free(q);
}

static void round_trip_text(const char *text) {
  weir_ide_problem *p = NULL;
  ck_assert_msg(weir_ide_load_memory("t.ide", text, strlen(text), &p) == WEIR_OK, "%s",
                weir_last_error());
  round_trip(p);
  weir_ide_problem_free(p);
}

START_TEST(examples_round_trip) {
  const char *names[] = {WEIR_IDE_EXAMPLES_DIR "/lcp.ide", WEIR_IDE_EXAMPLES_DIR "/files.ide"};
  for (int i = 0; i < 2; ++i) {
    weir_ide_problem *p = NULL;
    ck_assert_int_eq(weir_ide_load_file(names[i], &p), WEIR_OK);
    round_trip(p);
    weir_ide_problem_free(p);
  }
}
END_TEST

/* The canonical spelling of each kind of function and value. */
START_TEST(canonical_text) {
  const char *text =
      "weir-ide 1\nfamily linear\nfacts 3\nprocs 2\nnodes 5\nproc 0 main 0 2\nproc 1 f 3 4\n"
      "edge 0 1 id,0>1,0>2 0>1=c-3,0>2=x-9223372036854775808,1>1=-x,2>2=top\n"
      "call 1 2 id 1>1=bot\ncallee 1 1 1>2 2>1 - 2>1=0*x+7\nedge 3 4 id 2>2=x\n"
      "seed 0 0 -9223372036854775808\nseed 0 1 top\n";
  weir_ide_problem *p = NULL;
  ck_assert_int_eq(weir_ide_load_memory("t.ide", text, strlen(text), &p), WEIR_OK);
  char *written = text_of(p);
  ck_assert_str_eq(written,
                   "weir-ide 1\nfamily linear\nfacts 3\nprocs 2\nnodes 5\nproc 0 main 0 2\n"
                   "proc 1 f 3 4\n"
                   "edge 0 1 id,0>1,0>2 0>1=c-3,0>2=1*x-9223372036854775808,1>1=-1*x+0,2>2=top\n"
                   "edge 3 4 id\n"
                   "call 1 2 id 1>1=bot\ncallee 1 1 1>2 2>1 - 2>1=0*x+7\n"
                   "seed 0 0 -9223372036854775808\nseed 0 1 top\nend 2 1 1 2\n");
  free(written);
  round_trip(p);
  weir_ide_problem_free(p);
  /* typestate: rows that differ from the identity, sets by name; a 64-byte name */
  round_trip_text("weir-ide 1\nfamily typestate 3\nstate 0 a\nstate 2 "
                  "c123456789012345678901234567890123456789012345678901234567890123\n"
                  "state 1 b\nfacts 2\nprocs 1\nnodes 3\nproc 0 main 0 2\n"
                  "edge 0 1 id,0>1 0>1=*>b,1>1=top\n"
                  "edge 1 2 id 1>1=b>{};a>a|b,0>0=id\nseed 0 0 {a|b}\nseed 1 1 {}\n");
}
END_TEST

START_TEST(generated_round_trip) {
  for (uint64_t seed = 1; seed <= 150; ++seed) {
    weir_ide_family family = seed % 2 ? WEIR_IDE_LINEAR : WEIR_IDE_TYPESTATE;
    weir_ide_problem *p = ide_test_generate(family, seed);
    round_trip(p);
    weir_ide_problem_free(p);
  }
}
END_TEST

/* A typestate function with `gen` (the builder allows it) cannot be written:
 * refused before a byte is written (not a complete-looking file without that
 * pair, then the error). */
START_TEST(gen_cannot_be_written) {
  weir_ide_builder *b = NULL;
  ck_assert_int_eq(weir_ide_builder_create(WEIR_IDE_TYPESTATE, 2, 2, 1, 2, &b), WEIR_OK);
  weir_ifds_builder *g = weir_ide_builder_ifds(b);
  uint32_t id;
  ck_assert_int_eq(weir_ifds_builder_proc(g, 0, 0, 1, "main"), WEIR_OK);
  ck_assert_int_eq(weir_ifds_builder_flow(g, 1, NULL, 0, NULL, 0, &id), WEIR_OK);
  ck_assert_int_eq(weir_ifds_builder_edge(g, 0, 1, id), WEIR_OK);
  weir_ide_fn f = weir_ide_fn_identity(WEIR_IDE_TYPESTATE, 2);
  f.u.typestate.gen = 2;
  ck_assert_int_eq(weir_ide_builder_pair_fn(b, WEIR_IDE_SITE_EDGE, 0, 1, 0, 0, &f), WEIR_OK);
  weir_ide_problem *p = NULL;
  ck_assert_int_eq(weir_ide_builder_build(b, &p), WEIR_OK);
  weir_ide_builder_free(b);
  FILE *f2 = tmpfile();
  ck_assert_ptr_nonnull(f2);
  ck_assert_int_eq(weir_ide_write_problem(p, f2), WEIR_ERR_UNSUPPORTED);
  ck_assert_ptr_nonnull(strstr(weir_last_error(), "has a `gen` set"));
  ck_assert_ptr_nonnull(strstr(weir_last_error(), "nothing was written"));
  fflush(f2);
  ck_assert_int_eq(ftell(f2), 0);
  fclose(f2);
  weir_ide_problem_free(p);
}
END_TEST

Suite *ide_write_suite(void) {
  Suite *s = suite_create("ide_write");
  TCase *t = tcase_create("write");
  tcase_set_timeout(t, 60);
  tcase_add_test(t, examples_round_trip);
  tcase_add_test(t, canonical_text);
  tcase_add_test(t, generated_round_trip);
  tcase_add_test(t, gen_cannot_be_written);
  suite_add_tcase(s, t);
  return s;
}
