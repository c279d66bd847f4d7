/* The collectives conformance suite on local groups (stream transport, and a
 * transport without collectives of its own), and the group suite. */
#include <dlfcn.h>
#include <stdlib.h>

#include "tests/collectives/fixture.h"

Suite *group_suite(void);

int main(void) {
#if defined(__SANITIZE_ADDRESS__)
  /* Keep lavapipe mapped so LeakSanitizer can name (and tests/lsan.supp
   * suppress) Mesa's leftovers; see tests/residency/main.c. */
  (void)dlopen("libvulkan_lvp.so", RTLD_NOW | RTLD_NODELETE);
#endif
  SRunner *runner = srunner_create(collectives_suite("collectives.local"));
  srunner_add_suite(runner, group_suite());
  srunner_run_all(runner, CK_NORMAL);
  int failed = srunner_ntests_failed(runner);
  srunner_free(runner);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
