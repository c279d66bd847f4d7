/* The collectives conformance suite: the same tests for every fixture. */
#include "tests/collectives/conformance.h"
#include "tests/collectives/fixture.h"

Suite *collectives_suite(const char *name) {
  Suite *suite = suite_create(name);
  TCase *tc = tcase_create("collectives");
  tcase_set_timeout(tc, 60);
  conformance_add_move(tc);
  conformance_add_reduce(tc);
  conformance_add_errors(tc);
  suite_add_tcase(suite, tc);
  return suite;
}
