/* A test-local generator of random IDE problems (gen.c), built through the
 * public builder: small procedures with branches, loops, calls (recursion
 * included), random flow functions and random edge functions on about half
 * of their pairs. The same seed gives the same problem. */
#ifndef WEIR_TESTS_IDE_GEN_H
#define WEIR_TESTS_IDE_GEN_H

#include <stdint.h>

#include "weir/ide.h"

weir_ide_problem *ide_test_generate(weir_ide_family family, uint64_t seed);

#endif
