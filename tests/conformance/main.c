/* CTest runner of the conformance suite (tools/conformance, the same code as
 * `weir conformance`): conformance_runner SPEC [FILTER].
 * Exits 0 (all passed), 1 (failures) or 77 (backend unavailable: CTest SKIP). */
#include <stdio.h>

#include "tools/conformance/conformance.h"

int main(int argc, char **argv) {
  if (argc < 2 || argc > 3) {
    fprintf(stderr, "usage: %s BACKEND-SPEC [FILTER]\n", argv[0]);
    return 2;
  }
  return weir_conformance_run(argv[1], argc == 3 ? argv[2] : NULL, stdout);
}
