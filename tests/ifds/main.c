/* The IFDS host-side suites: loader errors, loading, micro problems with
 * hand-derived results, generated problems. */
#include <check.h>
#include <stdlib.h>
#include "tests/check_run.h"

Suite *ifds_load_error_suite(void);
Suite *ifds_load_suite(void);
Suite *ifds_micro_suite(void);
Suite *ifds_generated_suite(void);

int main(void) {
  SRunner *runner = srunner_create(ifds_load_error_suite());
  srunner_add_suite(runner, ifds_load_suite());
  srunner_add_suite(runner, ifds_micro_suite());
  srunner_add_suite(runner, ifds_generated_suite());
  return weir_check_run(runner);
}
