#include "tests/ifds/util.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>

char *ifds_test_read_file(const char *path, size_t *length) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  rewind(f);
  char *text = malloc((size_t)n + 1);
  if (text && fread(text, 1, (size_t)n, f) != (size_t)n) {
    free(text);
    text = NULL;
  }
  fclose(f);
  if (text) text[n] = '\0';
  if (length) *length = (size_t)n;
  return text;
}

char *ifds_test_result_text(const weir_ifds_result *result) {
  char *text = NULL;
  size_t length = 0;
  FILE *f = open_memstream(&text, &length);
  ck_assert_ptr_nonnull(f);
  ck_assert_int_eq(weir_ifds_write_result(result, f), WEIR_OK);
  fclose(f);
  return text;
}

char *ifds_test_problem_text(const weir_ifds_problem *problem) {
  char *text = NULL;
  size_t length = 0;
  FILE *f = open_memstream(&text, &length);
  ck_assert_ptr_nonnull(f);
  ck_assert_int_eq(weir_ifds_write_problem(problem, f), WEIR_OK);
  fclose(f);
  return text;
}

char *ifds_test_solve_text(const weir_ifds_problem *problem, weir_ifds_stats *stats) {
  weir_ifds_result result;
  ck_assert_int_eq(weir_ifds_solve_reference(problem, &result, stats), WEIR_OK);
  char *text = ifds_test_result_text(&result);
  weir_ifds_result_free(&result);
  return text;
}
