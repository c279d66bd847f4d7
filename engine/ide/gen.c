/* Generated IDE problems: a generated IFDS problem (weir/ifds_gen.h, any
 * preset) with edge functions drawn for some of its pairs and values for its
 * seeds, from the same seed. Linear: constants on generated facts, x+1, 2x,
 * -x, x-1 on facts that flow to themselves (loops then make values ⊥), now
 * and then ⊤ or ⊥; typestate: rows over the states s0..sS-1 on about a third
 * of the pairs. The same options give the same bytes. */
#include <stdlib.h>

#include "engine/ide/fn.h"
#include "engine/ide/parts.h"
#include "weir/ifds_gen.h"

typedef struct ide_gen {
  uint64_t rng;
  uint32_t family, states, facts;
  ide_parts parts;
} ide_gen;

static uint32_t below(ide_gen *g, uint32_t n) {
  g->rng += 0x9e3779b97f4a7c15ull;
  return n ? (uint32_t)(ifds_mix64(g->rng) % n) : 0;
}

/* d1 == 0: a generated fact, which gets a constant. */
static weir_ide_fn linear_fn(ide_gen *g, uint32_t d1) {
  uint32_t r = below(g, 100);
  if (r < 2) return ide_lin(WEIR_IDE_LIN_BOT, 0, 0);
  if (r < 4) return ide_lin(WEIR_IDE_LIN_TOP, 0, 0);
  if (d1 == 0 || r < 40) return ide_lin(WEIR_IDE_LIN_CONST, 0, (int64_t)below(g, 11) - 5);
  static const int64_t a[] = {1, 2, -1, 1}, b[] = {1, 0, 0, -1};
  uint32_t k = below(g, 4);
  return ide_lin(WEIR_IDE_LIN_AFFINE, a[k], b[k]);
}

static weir_ide_fn typestate_fn(ide_gen *g, uint32_t d1) {
  weir_ide_fn f = ide_ts_identity(g->states);
  if (d1 == 0) { /* a generated fact: every state to one */
    uint32_t to = 1u << below(g, g->states);
    for (uint32_t s = 0; s < g->states; ++s) f.u.typestate.to[s] = to;
    return f;
  }
  for (uint32_t s = 0; s < g->states; ++s) {
    if (below(g, 3)) continue;
    f.u.typestate.to[s] = 1u << below(g, g->states);
    if (below(g, 4) == 0) f.u.typestate.to[s] |= 1u << below(g, g->states); /* two states */
  }
  return f;
}

static weir_status pair(ide_gen *g, uint32_t site, uint32_t a, uint32_t b, uint32_t d1,
                        uint32_t d2) {
  weir_ide_fn f = g->family == WEIR_IDE_LINEAR ? linear_fn(g, d1) : typestate_fn(g, d1);
  uint32_t index;
  WEIR_TRY(ide_parts_fn(&g->parts, &f, &index));
  return ide_parts_pair(&g->parts, site, a, b, d1, d2, index, 0);
}

static int killed(const weir_ifds_flows *fl, uint32_t f, uint32_t d) {
  for (uint32_t k = fl->kill_offset[f]; k < fl->kill_offset[f + 1]; ++k)
    if (fl->kill_fact[k] == d) return 1;
  return 0;
}

/* Functions for some pairs of flow f of one element: half of its explicit
 * pairs, and up to two facts that the identity keeps. */
static weir_status element(ide_gen *g, const weir_ifds_flows *fl, uint32_t f, uint32_t site,
                           uint32_t a, uint32_t b) {
  for (uint32_t k = fl->pair_offset[f]; k < fl->pair_offset[f + 1]; ++k)
    if (below(g, 2)) WEIR_TRY(pair(g, site, a, b, fl->pair_from[k], fl->pair_to[k]));
  if (!fl->identity[f] || g->facts < 2) return WEIR_OK;
  uint32_t d = 1 + below(g, g->facts - 1), e = 1 + below(g, g->facts - 1);
  if (below(g, 4) == 0 && !killed(fl, f, d)) WEIR_TRY(pair(g, site, a, b, d, d));
  if (e != d && below(g, 4) == 0 && !killed(fl, f, e)) WEIR_TRY(pair(g, site, a, b, e, e));
  return WEIR_OK;
}

static weir_status annotate(ide_gen *g, const weir_ifds_problem *p) {
  const weir_ifds_flows *fl = &p->flows;
  for (uint32_t n = 0; n < p->node_count; ++n)
    for (uint32_t e = p->succ_offset[n]; e < p->succ_offset[n + 1]; ++e)
      WEIR_TRY(element(g, fl, p->succ_flow[e], WEIR_IDE_SITE_EDGE, n, p->succ_node[e]));
  for (uint32_t c = 0; c < p->call_count; ++c) {
    uint32_t site = p->call_node[c];
    WEIR_TRY(element(g, fl, p->call_flow[c], WEIR_IDE_SITE_CALL, site, 0));
    for (uint32_t k = p->callee_offset[c]; k < p->callee_offset[c + 1]; ++k) {
      WEIR_TRY(element(g, fl, p->callee_call_flow[k], WEIR_IDE_SITE_CALLEE_CALL, site,
                       p->callee_proc[k]));
      WEIR_TRY(element(g, fl, p->callee_return_flow[k], WEIR_IDE_SITE_CALLEE_RETURN, site,
                       p->callee_proc[k]));
    }
  }
  for (uint32_t s = 0; s < p->seed_count; ++s) {
    weir_ide_value v = g->family == WEIR_IDE_LINEAR
                           ? ide_value(WEIR_IDE_VALUE_CONST, 0, (int64_t)below(g, 7) - 3)
                           : ide_value(WEIR_IDE_VALUE_STATES, 1u, 0); /* s0 */
    WEIR_TRY(ide_parts_seed(&g->parts, p->seed_node[s], p->seed_fact[s], v));
  }
  return WEIR_OK;
}

static weir_status internal(const ide_parts *p, size_t record, const char *what,
                            const char *found, const char *expected, const char *fix) {
  return weir_fail(WEIR_ERR_INTERNAL, "the IDE generator: pair %zu of %zu: %s (found %s, "
                   "expected %s). Fix: %s; report this bug in weir.",
                   record, p->ann_site.len, what, found, expected, fix);
}

weir_status weir_ide_generate_problem(const weir_ifds_gen_options *options,
                                      weir_ide_family family, uint32_t states,
                                      weir_ide_problem **out) {
  if (!out || !options)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT, "weir_ide_generate_problem: options or out is "
                     "NULL. Fix: pass both.");
  *out = NULL;
  if (family == WEIR_IDE_LINEAR) states = 0;
  else if (family != WEIR_IDE_TYPESTATE || states < 1 || states > WEIR_IDE_MAX_STATES)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT, "weir_ide_generate_problem: family %d with %u "
                     "states (expected WEIR_IDE_LINEAR, or WEIR_IDE_TYPESTATE with 1..32 states). "
                     "Fix: pass a family and, for typestate, a state count.", (int)family, states);
  weir_ifds_problem *ifds = NULL;
  WEIR_TRY(weir_ifds_generate_problem(options, &ifds));
  ide_gen g = {.rng = options->seed ^ 0x1de0000000000024ull, .family = family, .states = states,
               .facts = ifds->fact_count};
  weir_status s = ide_parts_init(&g.parts, family, states);
  if (s == WEIR_OK) s = annotate(&g, ifds);
  if (s == WEIR_OK) s = ide_parts_finish(&g.parts, ifds, internal, out);
  else weir_ifds_problem_free(ifds);
  ide_parts_release(&g.parts);
  return s;
}

weir_status weir_ide_generate(const weir_ifds_gen_options *options, weir_ide_family family,
                              uint32_t states, FILE *file) {
  if (!file || !options)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "weir_ide_generate: options or file is NULL. Fix: pass both.");
  weir_ifds_gen_options o = *options;
  weir_ifds_gen_defaults(&o);
  weir_ide_problem *p = NULL;
  WEIR_TRY(weir_ide_generate_problem(&o, family, states, &p));
  fprintf(file, "# weir gen %s --procs %u --nodes-per-proc %u --facts %u --seeds %u --seed %llu "
          "--ide %s", weir_ifds_preset_name(o.preset), o.procs, o.nodes_per_proc, o.facts, o.seeds,
          (unsigned long long)o.seed, family == WEIR_IDE_LINEAR ? "linear" : "typestate");
  if (family == WEIR_IDE_TYPESTATE) fprintf(file, " --states %u", p->state_count);
  fprintf(file, "\n");
  weir_status s = weir_ide_write_problem(p, file);
  weir_ide_problem_free(p);
  return s;
}
