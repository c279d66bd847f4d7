/* Runs the residency suites: all, or the one named by argv[1]. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

#include "tests/residency/util.h"

typedef struct named_suite {
  const char *name;
  Suite *(*make)(void);
} named_suite;

/* Under AddressSanitizer, keep Mesa's lavapipe loaded for the whole run: the
 * Vulkan loader unloads it when an instance is destroyed, and LeakSanitizer
 * then reports the driver's own leftovers as "<unknown module>", which the
 * suppressions in tests/lsan.supp (by library name) cannot match. Pinned, they
 * are attributed to libvulkan_lvp.so and suppressed. Without lavapipe this is
 * a no-op. */
static void pin_lavapipe_for_leak_reports(void) {
#if defined(__SANITIZE_ADDRESS__)
  (void)dlopen("libvulkan_lvp.so", RTLD_NOW | RTLD_NODELETE);
#endif
}

int main(int argc, char **argv) {
  pin_lavapipe_for_leak_reports();
  static const named_suite suites[] = {{"chunk", chunk_suite},
                                       {"replica", replica_suite},
                                       {"partition", partition_suite},
                                       {"transport", transport_suite},
                                       {"dlpack", dlpack_suite}};
  SRunner *runner = NULL;
  for (size_t i = 0; i < sizeof suites / sizeof suites[0]; ++i) {
    if (argc > 1 && strcmp(argv[1], suites[i].name) != 0) continue;
    if (!runner) runner = srunner_create(suites[i].make());
    else srunner_add_suite(runner, suites[i].make());
  }
  if (!runner) {
    fprintf(stderr, "unknown suite \"%s\" (chunk, replica, partition, transport, dlpack)\n", argv[1]);
    return 2;
  }
  srunner_run_all(runner, CK_NORMAL);
  int failed = srunner_ntests_failed(runner);
  srunner_free(runner);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
