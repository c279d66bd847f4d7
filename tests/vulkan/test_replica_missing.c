/* Built when include/weir/residency.h is absent: the replica suite is empty. */
#include "tests/vulkan/vk_test.h"

Suite *vt_replica_suite(void) { return suite_create("vulkan-replica (no residency API)"); }
