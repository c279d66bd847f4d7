/* Runs the Vulkan suites: weir_vulkan_tests SUITE (cross, device, replica,
 * nodriver). Exits 77 (CTest SKIP) when Vulkan is unavailable, except for
 * `nodriver`, which expects exactly that. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/vulkan/vk_test.h"
#include "tests/check_run.h"

typedef struct named_suite {
  const char *name;
  Suite *(*make)(void);
} named_suite;

int main(int argc, char **argv) {
  static const named_suite suites[] = {{"cross", vt_cross_suite},
                                       {"device", vt_device_suite},
                                       {"replica", vt_replica_suite},
                                       {"nodriver", vt_nodriver_suite}};
  if (argc != 2) {
    fprintf(stderr, "usage: %s cross|device|replica|nodriver\n", argv[0]);
    return 2;
  }
  const named_suite *chosen = NULL;
  for (size_t i = 0; i < sizeof suites / sizeof suites[0]; ++i)
    if (strcmp(argv[1], suites[i].name) == 0) chosen = &suites[i];
  if (!chosen) {
    fprintf(stderr, "unknown suite \"%s\" (cross, device, replica, nodriver)\n", argv[1]);
    return 2;
  }
  if (strcmp(chosen->name, "nodriver") != 0) {
    /* Open and close in the parent only to learn availability: the tests
     * open their own devices after Check forks. */
    weir_backend *probe = NULL;
    if (weir_backend_open("vulkan", &probe) != WEIR_OK) {
      printf("SKIP vulkan: %s\n", weir_last_error());
      return 77;
    }
    weir_backend_close(probe);
  }
  SRunner *runner = srunner_create(chosen->make());
  return weir_check_run(runner);
}
