/* libFuzzer target: the IDE problem loader (engine/ide over engine/ifds),
 * from memory. Every input either loads into a problem that writes back,
 * loads again to the same text, and solves with the reference solver, or
 * fails with a message; nothing else (crash, leak, undefined behaviour) is
 * acceptable. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "weir/ide.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The canonical text of p (NULL if it cannot be written). */
static char *text_of(const weir_ide_problem *p, size_t *size) {
  char *text = NULL;
  FILE *f = open_memstream(&text, size);
  if (!f) return NULL;
  weir_status s = weir_ide_write_problem(p, f);
  fclose(f);
  if (s == WEIR_OK) return text;
  free(text);
  return NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  weir_ide_problem *p = NULL;
  if (weir_ide_load_memory("fuzz.ide", (const char *)data, size, &p) != WEIR_OK) return 0;
  size_t n = 0, m = 0;
  char *first = text_of(p, &n);
  weir_ide_problem *q = NULL;
  if (!first || weir_ide_load_memory("again.ide", first, n, &q) != WEIR_OK) abort();
  char *second = text_of(q, &m);
  if (!second || m != n || memcmp(first, second, n) != 0) abort(); /* the writer's promise */
  if ((uint64_t)p->ifds->node_count * p->ifds->fact_count <= 4096) {
    weir_ide_result r;
    if (weir_ide_solve_reference(p, &r, NULL) == WEIR_OK) weir_ide_result_free(&r);
  }
  free(first);
  free(second);
  weir_ide_problem_free(q);
  weir_ide_problem_free(p);
  return 0;
}
