/* The collectives conformance suite over the NCCL transport. Skipped (77)
 * with the reason when no CUDA backend opens or NCCL cannot be loaded
 * (WEIR_ERR_UNAVAILABLE): a run that tested nothing must not read as a pass.
 * Any other failure to set up (NCCL present but failing) is a failure.
 * `--probe` only does that check (0: available), for bench/gpu-check.sh. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/check_run.h"
#include "tests/collectives/fixture.h"
#include "weir/nccl.h"

int main(int argc, char **argv) {
  weir_backend *b = NULL;
  weir_transport *t = NULL;
  weir_status s = weir_backend_open("cuda:0", &b);
  if (s == WEIR_OK) s = weir_nccl_transport_create(&b, 1, NULL, &t);
  if (s != WEIR_OK) {
    printf("%s: %s\n", s == WEIR_ERR_UNAVAILABLE ? "skipped" : "FAIL", weir_last_error());
    weir_backend_close(b);
    return s == WEIR_ERR_UNAVAILABLE ? 77 : 1;
  }
  printf("NCCL %d (%s)\n", weir_nccl_transport_version(t),
         getenv("WEIR_NCCL_LIBRARY") ? getenv("WEIR_NCCL_LIBRARY") : "libnccl.so.2");
  weir_transport_destroy(t);
  weir_backend_close(b);
  if (argc > 1 && strcmp(argv[1], "--probe") == 0) return 0;
  return weir_check_run(srunner_create(collectives_suite("collectives.nccl")));
}
