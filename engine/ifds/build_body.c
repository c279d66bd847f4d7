/* The body elements: edge, call, callee, seed. Everything that one element
 * can break is checked when it is added; what needs every element is in
 * build.c and build_calls.c. A refused element leaves the builder as it was. */
#include <string.h>

#include "engine/ifds/builder.h"

/* "node 7 of procedure 1 'f'" */
static void describe_node(const ifds_builder *b, char *out, size_t cap, uint32_t node) {
  uint32_t p = b->node_proc[node];
  snprintf(out, cap, "node %u of procedure %u '%.*s'", node, p,
           (int)(b->name_length[p] > 40 ? 40 : b->name_length[p]), b->names + b->name_offset[p]);
}

/* "call line on line 7" (loader) or "call 3" (builder): the call of `node`. */
static void call_ref(const ifds_builder *b, uint32_t node, char *out, size_t cap) {
  char ref[48];
  uint32_t tag = ifds_builder_tag(b, &b->call_line, b->node_call[node]);
  ifds_builder_ref(b, IFDS_ELEM_CALL, tag, ref, sizeof ref);
  snprintf(out, cap, b->lines ? "call line %s" : "%s", ref);
}

/* Room for one more value in each vector, in all or none (a half-added
 * element would break the builder's invariants). */
static weir_status make_room(ifds_builder *b, ifds_vec *const *vecs, size_t count) {
  for (size_t i = 0; i < count; ++i)
    if (vecs[i]->len == vecs[i]->cap && ifds_vec_reserve(vecs[i], 1) != WEIR_OK)
      return b->broken = 1, WEIR_ERR_OUT_OF_MEMORY;
  return WEIR_OK;
}

static inline void put(ifds_vec *v, uint32_t x) { v->data[v->len++] = x; }

static const char *call_continues(const ifds_builder *b) {
  return ifds_builder_says(b, "a call node continues only to the RETURN of its call line",
                           "a call node continues only to the return site given to "
                           "weir_ifds_builder_call; add no edge out of it");
}

/* ---- edges ---------------------------------------------------------------- */

static weir_status edge_rules(ifds_builder *b, uint32_t from, uint32_t to) {
  char found[200], ref[64];
  uint32_t p = b->node_proc[from];
  ifds_site site = {.kind = IFDS_ELEM_EDGE, .index = (uint32_t)b->edge_from.len, .v = {from, to}};
  if (b->node_proc[to] != p) {
    char x[80], y[80];
    describe_node(b, x, sizeof x, from);
    describe_node(b, y, sizeof y, to);
    snprintf(found, sizeof found, "an edge from %s to %s", x, y);
    site.arg = 2;
    return ifds_builder_fail(b, &site, "edge leaves its procedure", found,
                             "both nodes in the same procedure",
                             ifds_builder_says(b,
                                               "connect procedures with call and callee lines, "
                                               "not edges",
                                               "connect procedures with weir_ifds_builder_call "
                                               "and weir_ifds_builder_callee, not edges"));
  }
  site.arg = 1;
  if (from == b->proc_last[p]) {
    snprintf(found, sizeof found, "node %u, the exit of procedure %u", from, p);
    return ifds_builder_fail(b, &site, "edge out of an exit node", found,
                             "no edge leaving an exit node",
                             "an exit node only returns to call sites; end the edge elsewhere");
  }
  if (b->node_call[from] != WEIR_IFDS_NONE) {
    call_ref(b, from, ref, sizeof ref);
    snprintf(found, sizeof found, "node %u, a call node (%s)", from, ref);
    return ifds_builder_fail(b, &site, "edge out of a call node", found,
                             "no edge leaving a call node", call_continues(b));
  }
  return WEIR_OK;
}

weir_status ifds_builder_edge(ifds_builder *b, uint32_t from, uint32_t to, uint32_t flow,
                              uint32_t tag) {
  WEIR_TRY(edge_rules(b, from, to));
  if (b->edge_from.len >= UINT32_MAX - 1)
    return weir_fail(WEIR_ERR_OUT_OF_RANGE, "more than %u edges. Fix: split the problem.",
                     UINT32_MAX - 1);
  /* the vectors grow together: one test covers all four unless one failed */
  size_t n = b->edge_from.len;
  if (n == b->edge_from.cap || n == b->edge_to.cap || n == b->edge_flow.cap ||
      (b->lines && n == b->edge_line.cap)) {
    ifds_vec *vecs[] = {&b->edge_from, &b->edge_to, &b->edge_flow, &b->edge_line};
    WEIR_TRY(make_room(b, vecs, b->lines ? 4 : 3));
  }
  put(&b->edge_from, from);
  put(&b->edge_to, to);
  put(&b->edge_flow, flow);
  if (b->lines) put(&b->edge_line, tag);
  b->out_count[from]++;
  return WEIR_OK;
}

/* ---- calls ---------------------------------------------------------------- */

static weir_status duplicate_call(ifds_builder *b, ifds_site *site, uint32_t node) {
  char found[64], expected[160], ref[48];
  const char *call = ifds_builder_says(b, "call line", "call");
  snprintf(found, sizeof found, "a second %s for node %u", call, node);
  uint32_t tag = ifds_builder_tag(b, &b->call_line, b->node_call[node]);
  ifds_builder_ref(b, IFDS_ELEM_CALL, tag, ref, sizeof ref);
  snprintf(expected, sizeof expected, "one %s per call node (the first is %s)", call, ref);
  site->arg = 1;
  return ifds_builder_fail(
      b, site, ifds_builder_says(b, "duplicate call line", "duplicate call"), found, expected,
      ifds_builder_says(b, "give each call node one call line and one callee line per callee",
                        "call weir_ifds_builder_call once per call node and "
                        "weir_ifds_builder_callee once per callee"));
}

static weir_status return_rules(ifds_builder *b, ifds_site *site, uint32_t node, uint32_t ret) {
  char found[160], expected[96];
  uint32_t p = b->node_proc[node];
  site->arg = 2;
  if (ret == node) {
    snprintf(found, sizeof found, "return site %u", ret);
    return ifds_builder_fail(b, site, "return site is the call node itself", found,
                             "another node of the same procedure",
                             "return to the node after the call");
  }
  if (b->node_proc[ret] != p) {
    describe_node(b, found, sizeof found, ret);
    snprintf(expected, sizeof expected, "a return site in procedure %u, like the call node", p);
    return ifds_builder_fail(b, site, "return site in another procedure", found, expected,
                             "return to a node of the calling procedure");
  }
  if (ret == b->proc_first[p]) {
    snprintf(found, sizeof found, "node %u, the start of procedure %u", ret, p);
    return ifds_builder_fail(b, site, "return site is a start node", found,
                             "a node other than the procedure's start node",
                             "return to a node after the start node");
  }
  return WEIR_OK;
}

static weir_status call_rules(ifds_builder *b, uint32_t node, uint32_t ret) {
  char found[160];
  uint32_t p = b->node_proc[node];
  ifds_site site = {.kind = IFDS_ELEM_CALL, .index = (uint32_t)b->call_node.len, .v = {node, ret}};
  if (b->node_call[node] != WEIR_IFDS_NONE) return duplicate_call(b, &site, node);
  site.arg = 1;
  if (node == b->proc_last[p]) {
    snprintf(found, sizeof found, "node %u, the exit of procedure %u", node, p);
    return ifds_builder_fail(b, &site, "call node is an exit node", found,
                             "a call node that is not its procedure's exit",
                             "add a node after the call as the return site");
  }
  WEIR_TRY(return_rules(b, &site, node, ret));
  if (b->out_count[node]) {
    snprintf(found, sizeof found, "%u %s leaving node %u", b->out_count[node],
             ifds_builder_says(b, "edge line(s)", "edge(s)"), node);
    site.arg = 1;
    return ifds_builder_fail(b, &site,
                             ifds_builder_says(b, "call node has edge lines", "call node has edges"),
                             found, "no edge leaving a call node", call_continues(b));
  }
  return WEIR_OK;
}

weir_status ifds_builder_call(ifds_builder *b, uint32_t site, uint32_t ret, uint32_t flow,
                              uint32_t tag) {
  WEIR_TRY(call_rules(b, site, ret));
  ifds_vec *vecs[] = {&b->call_node, &b->call_return, &b->call_flow, &b->call_line};
  WEIR_TRY(make_room(b, vecs, b->lines ? 4 : 3));
  b->node_call[site] = (uint32_t)b->call_node.len;
  put(&b->call_node, site);
  put(&b->call_return, ret);
  put(&b->call_flow, flow);
  if (b->lines) put(&b->call_line, tag);
  return WEIR_OK;
}

/* ---- callees and seeds ---------------------------------------------------- */

weir_status ifds_builder_callee(ifds_builder *b, uint32_t site, uint32_t proc, uint32_t call_flow,
                                uint32_t return_flow, uint32_t tag) {
  if (b->callee_site.len >= UINT32_MAX - 1)
    return weir_fail(WEIR_ERR_OUT_OF_RANGE,
                     "more than %u callees. Fix: split the problem.", UINT32_MAX - 1);
  ifds_vec *vecs[] = {&b->callee_site,        &b->callee_proc, &b->callee_call_flow,
                      &b->callee_return_flow, &b->callee_line};
  WEIR_TRY(make_room(b, vecs, b->lines ? 5 : 4));
  put(&b->callee_site, site);
  put(&b->callee_proc, proc);
  put(&b->callee_call_flow, call_flow);
  put(&b->callee_return_flow, return_flow);
  if (b->lines) put(&b->callee_line, tag);
  return WEIR_OK;
}

weir_status ifds_builder_seed(ifds_builder *b, uint32_t node, uint32_t fact) {
  ifds_vec *vecs[] = {&b->seed_node, &b->seed_fact};
  WEIR_TRY(make_room(b, vecs, 2));
  put(&b->seed_node, node);
  put(&b->seed_fact, fact);
  return WEIR_OK;
}
