/* The public builder: argument checks (ranges, flow indices, names), the
 * builder's way of naming an element in a message, and the calls into the
 * rules shared with the loader (build_*.c). A broken rule is
 * WEIR_ERR_INVALID_ARGUMENT with "builder: ELEMENT: WHAT (found F, expected
 * E). Fix: FIX." */
#include <stdlib.h>
#include <string.h>

#include "engine/ifds/builder.h"

/* "edge 12 (from node 7 to node 9)" */
static void describe(const ifds_site *s, char *out, size_t cap) {
  const uint32_t *v = s->v;
  uint32_t i = s->tag ? s->tag - 1 : s->index;
  switch (s->kind) {
    case IFDS_ELEM_COUNTS:
      snprintf(out, cap, "counts (facts %u, procs %u, nodes %u)", v[0], v[1], v[2]);
      break;
    case IFDS_ELEM_PROC:
      snprintf(out, cap, "proc %u (nodes %u..%u)", s->index, v[0], v[1]);
      break;
    case IFDS_ELEM_EDGE:
      snprintf(out, cap, "edge %u (from node %u to node %u)", i, v[0], v[1]);
      break;
    case IFDS_ELEM_CALL: snprintf(out, cap, "call %u (site %u, return %u)", i, v[0], v[1]); break;
    case IFDS_ELEM_CALLEE:
      snprintf(out, cap, "callee %u (site %u, proc %u)", i, v[0], v[1]);
      break;
    case IFDS_ELEM_SEED: snprintf(out, cap, "seed %u (node %u, fact %u)", i, v[0], v[1]); break;
    case IFDS_ELEM_FLOW:
      snprintf(out, cap, "flow function (identity %u, %u kills, %u pairs), %s %zu", v[0], v[1],
               v[2], s->offset < v[1] ? "kill" : "pair",
               s->offset < v[1] ? s->offset : s->offset - v[1]);
      break;
  }
}

static weir_status report(const ifds_builder *b, const ifds_site *site, const char *what,
                          const char *found, const char *expected, const char *fix) {
  (void)b;
  char element[160];
  describe(site, element, sizeof element);
  return weir_fail(WEIR_ERR_INVALID_ARGUMENT, "builder: %s: %s (found %s, expected %s). Fix: %s.",
                   element, what, found, expected, fix);
}

static weir_status fail_site(const ifds_site *site, const char *what, const char *found,
                             const char *expected, const char *fix) {
  return report(NULL, site, what, found, expected, fix);
}

/* ---- creating and freeing --------------------------------------------------- */

static weir_status count_error(const ifds_site *site, const char *label, uint32_t value,
                               uint32_t min) {
  char what[64], found[16], expected[32];
  snprintf(what, sizeof what, "%s too small", label);
  snprintf(found, sizeof found, "%u", value);
  snprintf(expected, sizeof expected, "at least %u", min);
  return fail_site(site, what, found, expected,
                   "the zero fact, one procedure and its start and exit nodes always exist");
}

weir_status weir_ifds_builder_create(uint32_t facts, uint32_t procs, uint32_t nodes,
                                     weir_ifds_builder **out) {
  if (!out)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "weir_ifds_builder_create: out is NULL. Fix: pass the address of a pointer.");
  *out = NULL;
  ifds_site site = {.kind = IFDS_ELEM_COUNTS, .v = {facts, procs, nodes}};
  if (facts < 1) return count_error(&site, "fact count", facts, 1);
  if (procs < 1) return count_error(&site, "procedure count", procs, 1);
  if (nodes < 2) return count_error(&site, "node count", nodes, 2);
  ifds_builder *b = malloc(sizeof *b);
  if (!b)
    return weir_fail(WEIR_ERR_OUT_OF_MEMORY, "allocating an IFDS builder failed. Fix: free memory.");
  weir_status s = ifds_builder_init(b, facts, procs, nodes, 0);
  if (s != WEIR_OK) {
    ifds_builder_release(b);
    free(b);
    return weir_fail_context(s, "builder: counts (facts %u, procs %u, nodes %u)", facts, procs,
                             nodes);
  }
  b->report = report;
  *out = b;
  return WEIR_OK;
}

void weir_ifds_builder_free(weir_ifds_builder *b) {
  if (!b) return;
  ifds_builder_release(b);
  free(b);
}

/* ---- argument checks ---------------------------------------------------------- */

/* The builder is there and still takes elements. */
static weir_status usable(const ifds_builder *b, const char *call) {
  if (!b)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "%s: builder is NULL. Fix: create one with weir_ifds_builder_create.", call);
  if (b->built)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "%s: the builder was already built. Fix: free it with "
                     "weir_ifds_builder_free and create a new one.",
                     call);
  if (b->broken)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "%s: an earlier call failed and left the builder incomplete. Fix: free it "
                     "with weir_ifds_builder_free.",
                     call);
  return WEIR_OK;
}

/* Argument `arg` of an element, `label` ("node"), below `limit`. */
static weir_status below(const ifds_site *site, const char *label, uint32_t value,
                         uint32_t limit) {
  if (value < limit) return WEIR_OK;
  char what[64], found[16], expected[64], fix[128];
  snprintf(what, sizeof what, "%s out of range", label);
  snprintf(found, sizeof found, "%u", value);
  snprintf(expected, sizeof expected, "a %s in 0..%u", label, limit - 1);
  snprintf(fix, sizeof fix,
           "use a %s below the count given to weir_ifds_builder_create or create the builder "
           "with a larger one",
           label);
  return fail_site(site, what, found, expected, fix);
}

static weir_status flow_below(const ifds_builder *b, const ifds_site *site, uint32_t flow) {
  uint32_t count = ifds_flow_count(&b->flows);
  if (flow < count) return WEIR_OK;
  char found[32], expected[80];
  snprintf(found, sizeof found, "flow %u", flow);
  if (count)
    snprintf(expected, sizeof expected, "a flow in 0..%u from weir_ifds_builder_flow", count - 1);
  else
    snprintf(expected, sizeof expected, "a flow from weir_ifds_builder_flow (none interned yet)");
  return fail_site(site, "flow out of range", found, expected,
                   "intern the function with weir_ifds_builder_flow and pass the index it gives");
}

/* A name is one token of the text format: not empty, no space, control
 * character or '#' (the loader could never read it back otherwise). */
static weir_status name_ok(const ifds_site *site, const char *name) {
  if (!name || !*name)
    return fail_site(site, "missing procedure name", "an empty name", "a name of one token",
                     "give the procedure a name");
  for (const char *c = name; *c; ++c) {
    unsigned char u = (unsigned char)*c;
    if (u > ' ' && u != '#' && u != 0x7f) continue;
    char found[96];
    snprintf(found, sizeof found, "byte 0x%02X at offset %zu of '%.40s'", u, (size_t)(c - name),
             name);
    return fail_site(site, "procedure name is not one token", found,
                     "no spaces, control characters or '#'",
                     "replace the character (for example with '_')");
  }
  return WEIR_OK;
}

/* ---- elements -------------------------------------------------------------- */

weir_status weir_ifds_builder_proc(weir_ifds_builder *b, uint32_t id, uint32_t first, uint32_t last,
                                   const char *name) {
  WEIR_TRY(usable(b, "weir_ifds_builder_proc"));
  ifds_site site = {.kind = IFDS_ELEM_PROC, .index = id, .v = {first, last}};
  if (b->body)
    return fail_site(&site, "procedure declared after the body started", "a procedure",
                     "procedures before the first edge, call, callee or seed",
                     "call weir_ifds_builder_proc for every procedure before the first edge, "
                     "call, callee or seed");
  WEIR_TRY(below(&site, "procedure", id, b->procs));
  WEIR_TRY(below(&site, "node", first, b->nodes));
  WEIR_TRY(below(&site, "node", last, b->nodes));
  WEIR_TRY(name_ok(&site, name));
  return ifds_builder_proc(b, id, first, last, name, strlen(name), 0);
}

weir_status weir_ifds_builder_flow(weir_ifds_builder *b, int identity, const uint32_t *kills,
                                   size_t kill_count, const uint32_t *pairs, size_t pair_count,
                                   uint32_t *flow) {
  WEIR_TRY(usable(b, "weir_ifds_builder_flow"));
  if (!flow || (!kills && kill_count) || (!pairs && pair_count))
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "weir_ifds_builder_flow: flow is NULL or an array is NULL with a count "
                     "(%zu kills, %zu pairs). Fix: pass the arrays and the address of the index.",
                     kill_count, pair_count);
  ifds_flow_error err;
  weir_status s = ifds_flow_from_arrays(&b->flows, identity, kills, kill_count, pairs, pair_count,
                                        b->facts, flow, &err);
  if (s == WEIR_ERR_PARSE) {
    ifds_site site = {.kind = IFDS_ELEM_FLOW,
                      .offset = err.offset,
                      .v = {identity != 0, (uint32_t)kill_count, (uint32_t)pair_count}};
    return fail_site(&site, err.what, err.found, err.expected, err.fix);
  }
  if (s != WEIR_OK) b->broken = 1;
  return s;
}

/* Closes the proc section before the first body element. */
static weir_status body(ifds_builder *b) { return b->body ? WEIR_OK : ifds_builder_close_procs(b); }

weir_status weir_ifds_builder_edge(weir_ifds_builder *b, uint32_t from, uint32_t to,
                                   uint32_t flow) {
  WEIR_TRY(usable(b, "weir_ifds_builder_edge"));
  ifds_site site = {.kind = IFDS_ELEM_EDGE, .index = (uint32_t)b->edge_from.len, .v = {from, to}};
  WEIR_TRY(below(&site, "node", from, b->nodes));
  WEIR_TRY(below(&site, "node", to, b->nodes));
  WEIR_TRY(flow_below(b, &site, flow));
  WEIR_TRY(body(b));
  return ifds_builder_edge(b, from, to, flow, 0);
}

weir_status weir_ifds_builder_call(weir_ifds_builder *b, uint32_t node, uint32_t ret,
                                   uint32_t flow) {
  WEIR_TRY(usable(b, "weir_ifds_builder_call"));
  ifds_site site = {.kind = IFDS_ELEM_CALL, .index = (uint32_t)b->call_node.len, .v = {node, ret}};
  WEIR_TRY(below(&site, "node", node, b->nodes));
  WEIR_TRY(below(&site, "node", ret, b->nodes));
  WEIR_TRY(flow_below(b, &site, flow));
  WEIR_TRY(body(b));
  return ifds_builder_call(b, node, ret, flow, 0);
}

weir_status weir_ifds_builder_callee(weir_ifds_builder *b, uint32_t node, uint32_t proc,
                                     uint32_t call_flow, uint32_t return_flow) {
  WEIR_TRY(usable(b, "weir_ifds_builder_callee"));
  ifds_site site = {
      .kind = IFDS_ELEM_CALLEE, .index = (uint32_t)b->callee_site.len, .v = {node, proc}};
  WEIR_TRY(below(&site, "node", node, b->nodes));
  WEIR_TRY(below(&site, "procedure", proc, b->procs));
  WEIR_TRY(flow_below(b, &site, call_flow));
  WEIR_TRY(flow_below(b, &site, return_flow));
  WEIR_TRY(body(b));
  return ifds_builder_callee(b, node, proc, call_flow, return_flow, 0);
}

weir_status weir_ifds_builder_seed(weir_ifds_builder *b, uint32_t node, uint32_t fact) {
  WEIR_TRY(usable(b, "weir_ifds_builder_seed"));
  ifds_site site = {.kind = IFDS_ELEM_SEED, .index = (uint32_t)b->seed_node.len, .v = {node, fact}};
  WEIR_TRY(below(&site, "node", node, b->nodes));
  WEIR_TRY(below(&site, "fact", fact, b->facts));
  WEIR_TRY(body(b));
  return ifds_builder_seed(b, node, fact);
}

weir_status weir_ifds_builder_build(weir_ifds_builder *b, weir_ifds_problem **out) {
  if (!out)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "weir_ifds_builder_build: out is NULL. Fix: pass the address of a pointer.");
  *out = NULL;
  WEIR_TRY(usable(b, "weir_ifds_builder_build"));
  weir_ifds_problem *p = calloc(1, sizeof *p);
  if (!p)
    return weir_fail(WEIR_ERR_OUT_OF_MEMORY, "allocating an IFDS problem failed. Fix: free memory.");
  snprintf(p->source_name, sizeof p->source_name, "builder");
  b->built = 1; /* building consumes the element lists, whatever the outcome */
  weir_status s = ifds_builder_finish(b, p);
  ifds_builder_release(b);
  b->built = 1;
  if (s != WEIR_OK) {
    weir_ifds_problem_free(p);
    return s;
  }
  *out = p;
  return WEIR_OK;
}

const char *weir_ifds_warning_text(uint32_t warning) {
  switch (warning) {
    case WEIR_IFDS_WARN_NO_END_LINE:
      return "the file has no `end` line and may be truncated (a file cut at a line boundary "
             "looks the same). Fix: regenerate it with a current weir, which writes the line, "
             "or add `end EDGES CALLS CALLEES SEEDS`; --strict refuses such files";
    case WEIR_IFDS_WARN_NO_SEEDS:
      return "the problem has no seeds, so its result is empty. Fix: add seeds: `seed NODE "
             "FACT` lines in a file, weir_ifds_builder_seed (Builder.seed in Python) when "
             "building (usually the entry procedure's start node with fact 0)";
    default: return "";
  }
}
