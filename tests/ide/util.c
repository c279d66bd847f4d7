/* Helpers of the IDE tests (util.h). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/ide/engine_check.h"
#include "tests/ide/util.h"

char *ide_test_rows(const weir_ide_problem *p, const weir_ide_result *r) {
  char *text = NULL;
  size_t size = 0;
  FILE *f = open_memstream(&text, &size);
  ck_assert_ptr_nonnull(f);
  char value[WEIR_IDE_VALUE_TEXT_MAX];
  for (uint64_t i = 0; i < r->hold_count; ++i) {
    weir_ide_format_value(p, &r->value[i], value, sizeof value);
    fprintf(f, "%u %u %s\n", r->hold_node[i], r->hold_fact[i], value);
  }
  fclose(f);
  return text;
}

char *ide_test_solve_text_on(const char *text, const char *engine_backends) {
  weir_ide_problem *p = NULL;
  weir_status s = weir_ide_load_memory("micro.ide", text, strlen(text), &p);
  ck_assert_msg(s == WEIR_OK, "load: %s", weir_last_error());
  weir_ide_result r;
  s = weir_ide_solve_reference(p, &r, NULL);
  ck_assert_msg(s == WEIR_OK, "solve: %s", weir_last_error());
  char *rows = ide_test_rows(p, &r);
  weir_ide_result_free(&r);
  /* Every micro problem checks the resident engine too (cpu, and vulkan where
   * it opens): the same result file, byte for byte. */
  ide_engine_check_here(p, engine_backends, "micro problem");
  weir_ide_problem_free(p);
  return rows;
}

char *ide_test_solve_text(const char *text) { return ide_test_solve_text_on(text, NULL); }
