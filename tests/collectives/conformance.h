/* The parts of the collectives conformance suite (one file each). */
#ifndef WEIR_TESTS_COLLECTIVES_CONFORMANCE_H
#define WEIR_TESTS_COLLECTIVES_CONFORMANCE_H

#include <check.h>
#include <stdlib.h>

void conformance_add_move(TCase *tc);
void conformance_add_reduce(TCase *tc);
void conformance_add_errors(TCase *tc);

#endif
