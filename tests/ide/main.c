/* The IDE host-side suites: the edge-function algebra, micro problems with
 * hand-derived values, the format's errors, the builder, and generated
 * problems cross-checked with a naive solver, and the resident engine
 * against the reference (test_engine.c; the micro problems through util.c). */
#include <check.h>
#include <stdlib.h>
#include "tests/check_run.h"

Suite *ide_algebra_suite(void);
Suite *ide_micro_suite(void);
Suite *ide_error_suite(void);
Suite *ide_builder_suite(void);
Suite *ide_generated_suite(void);
Suite *ide_write_suite(void);
Suite *ide_engine_suite(void);

int main(void) {
  SRunner *runner = srunner_create(ide_algebra_suite());
  srunner_add_suite(runner, ide_micro_suite());
  srunner_add_suite(runner, ide_error_suite());
  srunner_add_suite(runner, ide_builder_suite());
  srunner_add_suite(runner, ide_generated_suite());
  srunner_add_suite(runner, ide_write_suite());
  srunner_add_suite(runner, ide_engine_suite());
  return weir_check_run(runner);
}
