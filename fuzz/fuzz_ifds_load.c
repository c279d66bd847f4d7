/* libFuzzer target: the IFDS problem loader (engine/ifds), from memory. Every
 * input either loads into a problem that writes back and solves with the
 * reference solver, or fails with a message; nothing else (crash, leak,
 * undefined behaviour, a huge allocation) is acceptable. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "weir/ifds.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  weir_ifds_problem *problem = NULL;
  if (weir_ifds_load_memory("fuzz.ifds", (const char *)data, size, &problem) != WEIR_OK)
    return 0;
  /* Small problems also go through the solver: the loader's checks are what
   * makes the solver's indexing safe. */
  if ((uint64_t)problem->node_count * problem->fact_count <= 4096) {
    weir_ifds_result result = {0};
    if (weir_ifds_solve_reference(problem, &result, NULL) == WEIR_OK) weir_ifds_result_free(&result);
  }
  weir_ifds_problem_free(problem);
  return 0;
}
