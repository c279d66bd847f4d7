/* A second, naive IDE solver for the cross-check (naive.c): dense tables
 * over every (d1, n, d2) and rounds over all of them until nothing changes,
 * with the rules of docs/ide-format.md read straight off the problem's
 * arrays. Nothing is shared with engine/ide/reference.c but the algebra
 * (fn.h, tested on its own in test_algebra.c). */
#ifndef WEIR_TESTS_IDE_NAIVE_H
#define WEIR_TESTS_IDE_NAIVE_H

#include "weir/ide.h"

/* "n d VALUE\n" per (node, fact) that holds, sorted (caller frees);
 * *path_edges: how many (d1, n, d2) were reached. */
char *ide_test_naive_rows(const weir_ide_problem *p, uint64_t *path_edges);

#endif
