/* What an IDE problem adds to its IFDS graph, as collected by either front
 * end (the text loader, load.c, and the public builder, builder.c): the
 * family and state names, the interned edge functions, the pairs that carry
 * them and the seeds' values. ide_parts_finish maps the pairs onto the
 * elements of the built IFDS problem. */
#ifndef WEIR_ENGINE_IDE_PARTS_H
#define WEIR_ENGINE_IDE_PARTS_H

#include "engine/ifds/builder.h"
#include "engine/ifds/internal.h"
#include "weir/ide.h"

/* A flow function's arrays, from the loader's table or a built problem. */
typedef struct ide_flow_view {
  const uint32_t *identity, *kill_offset, *kill_fact, *pair_offset, *pair_from, *pair_to;
} ide_flow_view;

ide_flow_view ide_flow_view_of_table(const ifds_flow_table *t);
ide_flow_view ide_flow_view_of_flows(const weir_ifds_flows *f);
/* Whether d2 is in f(d1) (the implied 0 -> 0 included). */
int ide_flow_has_pair(const ide_flow_view *v, uint32_t f, uint32_t d1, uint32_t d2);

typedef struct ide_parts {
  uint32_t family, states;
  char *state_name[WEIR_IDE_MAX_STATES]; /* NULL: not named yet */

  /* Interned functions (0: the identity); slots hold index + 1. */
  weir_ide_fn *fns;
  size_t fn_count, fn_cap;
  uint32_t *fn_slots;
  size_t fn_slot_cap;

  /* Pairs with a function, in the order given (weir_ide_site kinds). */
  ifds_vec ann_site, ann_a, ann_b, ann_d1, ann_d2, ann_fn, ann_tag;
  /* Seeds' values, in the order given. */
  ifds_vec seed_node, seed_fact;
  weir_ide_value *seed_value;
  size_t seed_cap;
} ide_parts;

weir_status ide_parts_init(ide_parts *p, uint32_t family, uint32_t states);
void ide_parts_release(ide_parts *p);

/* Interns a function (already checked to be canonical for the family). */
weir_status ide_parts_fn(ide_parts *p, const weir_ide_fn *fn, uint32_t *index);
weir_status ide_parts_pair(ide_parts *p, uint32_t site, uint32_t a, uint32_t b, uint32_t d1,
                           uint32_t d2, uint32_t fn, uint32_t tag);
weir_status ide_parts_seed(ide_parts *p, uint32_t node, uint32_t fact, weir_ide_value value);

/* How a front end words a pair that cannot be placed (the builder; the
 * loader checks every pair on its line and never gets here). */
typedef weir_status (*ide_pair_report)(const ide_parts *p, size_t record, const char *what,
                                       const char *found, const char *expected, const char *fix);

/* Builds the IDE problem around `ifds` (taken over: freed on failure). */
weir_status ide_parts_finish(ide_parts *p, weir_ifds_problem *ifds, ide_pair_report report,
                             weir_ide_problem **out);

/* A state name: 1..64 letters, digits and '_', not starting with a digit,
 * not a word of the function syntax (id, top, bot). 1 when fine. The bound
 * keeps a function's text (32 rows of 32 names) within IDE_FN_TEXT_MAX. */
#define IDE_STATE_NAME_MAX 64
#define IDE_FN_TEXT_MAX (WEIR_IDE_MAX_STATES * (IDE_STATE_NAME_MAX + 2) * (WEIR_IDE_MAX_STATES + 1) + 64)
int ide_state_name_ok(const char *name, size_t length);

#endif
