/* Helpers of the collectives conformance suite: member chunks filled with a
 * pattern that says whose byte it is, and agreed comparisons. */
#ifndef WEIR_TESTS_COLLECTIVES_UTIL_H
#define WEIR_TESTS_COLLECTIVES_UTIL_H

#include "tests/collectives/fixture.h"

/* Byte `index` of rank `rank`'s chunk with salt `salt` (before any collective). */
unsigned char coll_pattern(uint32_t rank, uint64_t index, uint32_t salt);
/* A chunk of `bytes` on local member i, filled with coll_pattern(rank, ., salt). */
weir_chunk *coll_chunk(const coll_fixture *f, uint32_t i, uint64_t bytes, uint32_t salt);
/* The pattern a chunk was filled with (malloc'd), for building expectations. */
unsigned char *coll_expected(uint32_t rank, uint64_t bytes, uint32_t salt);
/* Compares the chunk's bytes with `expected`; agreed across ranks (fails the
 * test on every rank if it differs on any). Frees `expected`. */
void coll_check_chunk(const coll_fixture *f, weir_chunk *chunk, unsigned char *expected,
                      const char *what);
void coll_release(weir_chunk **chunks, uint32_t count);

#endif
