/* The public IDE builder: an IFDS builder for the graph, ide_parts for the
 * rest. Element rules are the IFDS builder's; a pair's function is placed
 * (and its element and pair checked) when the problem is built. Messages:
 * "builder: WHAT (found X, expected Y). Fix: ...", status
 * WEIR_ERR_INVALID_ARGUMENT. */
#include <stdlib.h>
#include <string.h>

#include "engine/ide/fn.h"
#include "engine/ide/parts.h"

struct weir_ide_builder {
  weir_ifds_builder *ifds;
  ide_parts parts;
  int done; /* built, or a failure that left it partial: only free */
};

static weir_status bad(const char *element, const char *what, const char *found,
                       const char *expected, const char *fix) {
  return weir_fail(WEIR_ERR_INVALID_ARGUMENT, "builder: %s: %s (found %s, expected %s). Fix: %s.",
                   element, what, found, expected, fix);
}

static weir_status usable(const weir_ide_builder *b, const char *call) {
  if (!b)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT, "%s: builder is NULL. Fix: create it with "
                     "weir_ide_builder_create.", call);
  if (b->done)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT, "%s: the builder was built or failed. Fix: create "
                     "a new builder; this one only accepts weir_ide_builder_free.", call);
  return WEIR_OK;
}

weir_status weir_ide_builder_create(weir_ide_family family, uint32_t states, uint32_t facts,
                                    uint32_t procs, uint32_t nodes, weir_ide_builder **out) {
  if (!out)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "weir_ide_builder_create: out is NULL. Fix: pass the address of a pointer.");
  *out = NULL;
  char found[32];
  snprintf(found, sizeof found, "family %d, %u states", (int)family, states);
  if (family != WEIR_IDE_LINEAR && family != WEIR_IDE_TYPESTATE)
    return bad("create", "unknown family", found, "WEIR_IDE_LINEAR or WEIR_IDE_TYPESTATE",
               "pass one of the two families");
  if (family == WEIR_IDE_LINEAR && states != 0)
    return bad("create", "states in a linear problem", found, "0 states",
               "pass 0 states for WEIR_IDE_LINEAR");
  if (family == WEIR_IDE_TYPESTATE && (states < 1 || states > WEIR_IDE_MAX_STATES))
    return bad("create", "state count out of range", found, "1..32 states",
               "a typestate problem has 1 to 32 states (one bit each)");
  weir_ide_builder *b = calloc(1, sizeof *b);
  if (!b)
    return weir_fail(WEIR_ERR_OUT_OF_MEMORY, "allocating an IDE builder failed. Fix: free memory.");
  weir_status s = weir_ifds_builder_create(facts, procs, nodes, &b->ifds);
  if (s == WEIR_OK) s = ide_parts_init(&b->parts, family, states);
  if (s != WEIR_OK) {
    weir_ide_builder_free(b);
    return s;
  }
  *out = b;
  return WEIR_OK;
}

weir_ifds_builder *weir_ide_builder_ifds(weir_ide_builder *b) { return b ? b->ifds : NULL; }

weir_status weir_ide_builder_state(weir_ide_builder *b, uint32_t id, const char *name) {
  WEIR_TRY(usable(b, "weir_ide_builder_state"));
  ide_parts *p = &b->parts;
  char element[48], found[96], expected[48];
  snprintf(element, sizeof element, "state %u", id);
  snprintf(found, sizeof found, "state %u '%.64s'", id, name ? name : "(null)");
  snprintf(expected, sizeof expected, "a state ID in 0..%u", p->states ? p->states - 1 : 0);
  if (p->family != WEIR_IDE_TYPESTATE || id >= p->states)
    return bad(element, "state out of range", found, expected,
               "name states 0..S-1 of a typestate builder");
  if (!name || !ide_state_name_ok(name, strlen(name)))
    return bad(element, "malformed state name", found,
               "1..64 letters, digits and _, not starting with a digit, not id, top or bot",
               "rename the state");
  for (uint32_t s = 0; s < p->states; ++s)
    if (s != id && p->state_name[s] && strcmp(p->state_name[s], name) == 0)
      return bad(element, "repeated state name", found, "a name no other state has",
                 "give every state its own name");
  char *copy = malloc(strlen(name) + 1);
  if (!copy)
    return weir_fail(WEIR_ERR_OUT_OF_MEMORY, "allocating a state name failed. Fix: free memory.");
  strcpy(copy, name);
  free(p->state_name[id]);
  p->state_name[id] = copy;
  return WEIR_OK;
}

/* A function the solvers can use as it is: the problem's family, canonical. */
static weir_status check_fn(const ide_parts *p, const weir_ide_fn *in, weir_ide_fn *out) {
  char found[96];
  *out = *in;
  out->reserved = 0;
  if (in->family != p->family) {
    snprintf(found, sizeof found, "a function of family %u", in->family);
    return bad("edge function", "function of the wrong family", found,
               p->family == WEIR_IDE_LINEAR ? "WEIR_IDE_LINEAR" : "WEIR_IDE_TYPESTATE",
               "build functions with weir_ide_fn_* for the builder's family");
  }
  if (p->family == WEIR_IDE_LINEAR) {
    const weir_ide_linear_fn *f = &in->u.linear;
    int ok = f->kind <= WEIR_IDE_LIN_AFFINE &&
             (f->kind == WEIR_IDE_LIN_AFFINE || f->a == 0) &&
             (f->kind == WEIR_IDE_LIN_AFFINE || f->kind == WEIR_IDE_LIN_CONST || f->b == 0);
    snprintf(found, sizeof found, "kind %u, a %lld, b %lld", f->kind, (long long)f->a,
             (long long)f->b);
    if (!ok)
      return bad("edge function", "malformed linear function", found,
                 "TOP or BOT with a = b = 0, CONST with a = 0, or AFFINE",
                 "build it with weir_ide_fn_const, weir_ide_fn_linear or weir_ide_fn_top");
    *out = ide_lin(f->kind, f->a, f->b);
    return WEIR_OK;
  }
  uint32_t mask = p->states == 32 ? UINT32_MAX : (1u << p->states) - 1;
  int ok = (in->u.typestate.gen & ~mask) == 0;
  for (int s = 0; s < WEIR_IDE_MAX_STATES; ++s)
    ok &= (in->u.typestate.to[s] & ~mask) == 0 && ((uint32_t)s < p->states || !in->u.typestate.to[s]);
  if (!ok) {
    snprintf(found, sizeof found, "a state at or past %u", p->states);
    return bad("edge function", "typestate function outside the states", found,
               "states 0..S-1 only", "clear the bits of states the builder does not have");
  }
  ide_ts_canonical(&out->u.typestate);
  return WEIR_OK;
}

weir_status weir_ide_builder_pair_fn(weir_ide_builder *b, weir_ide_site site, uint32_t a,
                                     uint32_t x, uint32_t d1, uint32_t d2, const weir_ide_fn *fn) {
  WEIR_TRY(usable(b, "weir_ide_builder_pair_fn"));
  if ((unsigned)site > WEIR_IDE_SITE_CALLEE_RETURN || !fn) {
    char found[32];
    snprintf(found, sizeof found, "site %d, fn %s", (int)site, fn ? "given" : "NULL");
    return bad("edge function", "bad site or function", found,
               "a weir_ide_site and a function", "pass WEIR_IDE_SITE_* and a function");
  }
  weir_ide_fn canonical;
  uint32_t index;
  WEIR_TRY(check_fn(&b->parts, fn, &canonical));
  WEIR_TRY(ide_parts_fn(&b->parts, &canonical, &index));
  return ide_parts_pair(&b->parts, site, a, site == WEIR_IDE_SITE_CALL ? 0 : x, d1, d2, index,
                        (uint32_t)b->parts.ann_site.len + 1);
}

weir_status weir_ide_builder_seed(weir_ide_builder *b, uint32_t node, uint32_t fact,
                                  const weir_ide_value *value) {
  WEIR_TRY(usable(b, "weir_ide_builder_seed"));
  const ide_parts *p = &b->parts;
  uint32_t mask = p->states == 32 ? UINT32_MAX : (1u << p->states) - 1;
  int ok = value && (p->family == WEIR_IDE_LINEAR
                         ? value->kind <= WEIR_IDE_VALUE_BOT
                         : value->kind == WEIR_IDE_VALUE_STATES && (value->states & ~mask) == 0);
  if (!ok) {
    char found[64];
    snprintf(found, sizeof found, "%s", value ? "a value of the other family or outside the states"
                                              : "NULL");
    return bad("seed", "bad seed value", found,
               p->family == WEIR_IDE_LINEAR ? "WEIR_IDE_VALUE_TOP, _CONST or _BOT"
                                            : "WEIR_IDE_VALUE_STATES over states 0..S-1",
               "pass a value of the builder's family");
  }
  weir_ide_value v = *value;
  if (v.kind != WEIR_IDE_VALUE_CONST) v.constant = 0;
  if (v.kind != WEIR_IDE_VALUE_STATES) v.states = 0;
  WEIR_TRY(weir_ifds_builder_seed(b->ifds, node, fact));
  return ide_parts_seed(&b->parts, node, fact, v);
}

static const char *const site_names[] = {"edge", "call", "callee call flow",
                                         "callee return flow"};

static weir_status report(const ide_parts *p, size_t i, const char *what, const char *found,
                          const char *expected, const char *fix) {
  char element[128];
  snprintf(element, sizeof element, "edge function %zu (%s %u %u, pair %u>%u)", i,
           site_names[p->ann_site.data[i]], p->ann_a.data[i], p->ann_b.data[i],
           p->ann_d1.data[i], p->ann_d2.data[i]);
  return bad(element, what, found, expected, fix);
}

weir_status weir_ide_builder_build(weir_ide_builder *b, weir_ide_problem **out) {
  if (!out)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "weir_ide_builder_build: out is NULL. Fix: pass the address of a pointer.");
  *out = NULL;
  WEIR_TRY(usable(b, "weir_ide_builder_build"));
  b->done = 1;
  weir_ifds_problem *ifds = NULL;
  WEIR_TRY(weir_ifds_builder_build(b->ifds, &ifds));
  return ide_parts_finish(&b->parts, ifds, report, out);
}

void weir_ide_builder_free(weir_ide_builder *b) {
  if (!b) return;
  weir_ifds_builder_free(b->ifds);
  ide_parts_release(&b->parts);
  free(b);
}
