/* The resident IDE engine's host side (weir_ide_solve_engine; design in
 * README.md): phase 0 is the IFDS engine (its path-edge log), the rules
 * join that log once (engine_rules.c), phase 1 runs on the device
 * (engine.c, programs/ide), phase 2 is the reference's values.c over the
 * downloaded jump functions. */
#ifndef WEIR_ENGINE_IDE_ENGINE_H
#define WEIR_ENGINE_IDE_ENGINE_H

#include "engine/ide/solver.h"
#include "engine/ifds/engine/engine.h"

/* The rule relation of phase 1, grouped by target path edge (CSR). */
typedef struct ide_rules {
  uint64_t targets;  /* E */
  uint64_t count;    /* R */
  uint32_t *offset;  /* [E + 1] */
  uint32_t *words;   /* [4 * R]: {src1, src2, f1, f2} (programs/ide/ide_layout.h) */
  uint32_t fn_total; /* the problem's functions, then one constant per seed */
  uint32_t words_per_fn;
  uint32_t *fn_words; /* [fn_total * words_per_fn] */
  /* The same relation by source: the targets with a rule reading path
   * edge s, each once per s (phase 1's worklist follows it). */
  uint64_t dep_count; /* D */
  uint32_t *dep_offset; /* [E + 1] */
  uint32_t *deps;       /* [D] */
} ide_rules;

/* Fills s's path-edge structures (nf_*, pe_*, end summaries: the reference's
 * own, so that phase 2 runs on them) from phase 0's path edges, in log
 * order: path edge i is index i. */
weir_status ide_engine_index(ide_solver *s, const ifds_path_edges *edges);
/* The rules of every path edge's step (the reference's rules, each instance
 * once) and the function table. */
weir_status ide_engine_rules(const ide_solver *s, ide_rules *out);
void ide_rules_free(ide_rules *r);
/* Words per function slot of a problem (ide_layout.h). */
uint32_t ide_engine_words(const weir_ide_problem *p);

#endif
