/* The IFDS host-side suites: loader errors, loading, micro problems with
 * hand-derived results, generated problems, the builder, the `end` trailer,
 * the parallel loader against the serial one. */
#include <check.h>
#include <stdlib.h>
#include "tests/check_run.h"

Suite *ifds_load_error_suite(void);
Suite *ifds_load_suite(void);
Suite *ifds_micro_suite(void);
Suite *ifds_generated_suite(void);
Suite *ifds_builder_suite(void);
Suite *ifds_trailer_suite(void);
Suite *ifds_load_parallel_suite(void);

int main(void) {
  SRunner *runner = srunner_create(ifds_load_error_suite());
  srunner_add_suite(runner, ifds_load_suite());
  srunner_add_suite(runner, ifds_micro_suite());
  srunner_add_suite(runner, ifds_generated_suite());
  srunner_add_suite(runner, ifds_builder_suite());
  srunner_add_suite(runner, ifds_trailer_suite());
  srunner_add_suite(runner, ifds_load_parallel_suite());
  return weir_check_run(runner);
}
