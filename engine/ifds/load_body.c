/* The body directives: edge, call, callee, seed. Everything that one line
 * can break is checked here; what needs the whole file is in load_build.c. */
#include <string.h>

#include "engine/ifds/load.h"

static uint32_t line32(const ifds_loader *L) {
  return L->line > UINT32_MAX ? UINT32_MAX : (uint32_t)L->line;
}

/* "node 7 of procedure 1 'f'" */
static void describe_node(const ifds_loader *L, char *out, size_t cap, uint32_t node) {
  uint32_t p = L->node_proc[node];
  snprintf(out, cap, "node %u of procedure %u '%.*s'", node, p,
           (int)(L->name_length[p] > 40 ? 40 : L->name_length[p]), L->names + L->name_offset[p]);
}

static weir_status edge_rules(ifds_loader *L, uint32_t from, uint32_t to) {
  char found[200];
  uint32_t p = L->node_proc[from];
  if (L->node_proc[to] != p) {
    char a[80], b[80];
    describe_node(L, a, sizeof a, from);
    describe_node(L, b, sizeof b, to);
    snprintf(found, sizeof found, "an edge from %s to %s", a, b);
    return ifds_load_fail(L, L->line, ifds_col(L, L->tok[2].text), "edge leaves its procedure",
                          found, "both nodes in the same procedure",
                          "connect procedures with call and callee lines, not edges");
  }
  if (from == L->proc_last[p]) {
    snprintf(found, sizeof found, "node %u, the exit of procedure %u", from, p);
    return ifds_load_fail(L, L->line, ifds_col(L, L->tok[1].text), "edge out of an exit node",
                          found, "no edge leaving an exit node",
                          "an exit node only returns to call sites; end the edge elsewhere");
  }
  if (L->node_call[from] != WEIR_IFDS_NONE) {
    snprintf(found, sizeof found, "node %u, a call node (call line on line %u)", from,
             L->call_line.data[L->node_call[from]]);
    return ifds_load_fail(L, L->line, ifds_col(L, L->tok[1].text), "edge out of a call node", found,
                          "no edge leaving a call node",
                          "a call node continues only to the RETURN of its call line");
  }
  return WEIR_OK;
}

static weir_status edge(ifds_loader *L) {
  uint32_t from, to, f;
  WEIR_TRY(ifds_load_index(L, 1, "node", L->nodes, &from));
  WEIR_TRY(ifds_load_index(L, 2, "node", L->nodes, &to));
  WEIR_TRY(edge_rules(L, from, to));
  WEIR_TRY(ifds_load_flow(L, 3, "flow function", &f));
  WEIR_TRY(ifds_load_no_more(L, 4));
  if (L->edge_from.len >= UINT32_MAX - 1)
    return weir_fail(WEIR_ERR_OUT_OF_RANGE,
                     "%s:%llu:1: more than %u edges. Fix: split the problem.", L->name,
                     (unsigned long long)L->line, UINT32_MAX - 1);
  WEIR_TRY(ifds_vec_push(&L->edge_from, from));
  WEIR_TRY(ifds_vec_push(&L->edge_to, to));
  WEIR_TRY(ifds_vec_push(&L->edge_flow, f));
  WEIR_TRY(ifds_vec_push(&L->edge_line, line32(L)));
  L->out_count[from]++;
  return WEIR_OK;
}

static weir_status call_rules(ifds_loader *L, uint32_t site, uint32_t ret) {
  char found[160], expected[96];
  uint32_t p = L->node_proc[site];
  size_t site_col = ifds_col(L, L->tok[1].text), ret_col = ifds_col(L, L->tok[2].text);
  if (L->node_call[site] != WEIR_IFDS_NONE) {
    snprintf(found, sizeof found, "a second call line for node %u", site);
    snprintf(expected, sizeof expected, "one call line per call node (the first is on line %u)",
             L->call_line.data[L->node_call[site]]);
    return ifds_load_fail(L, L->line, site_col, "duplicate call line", found, expected,
                          "give each call node one call line and one callee line per callee");
  }
  if (site == L->proc_last[p]) {
    snprintf(found, sizeof found, "node %u, the exit of procedure %u", site, p);
    return ifds_load_fail(L, L->line, site_col, "call node is an exit node", found,
                          "a call node that is not its procedure's exit",
                          "add a node after the call as the return site");
  }
  if (ret == site) {
    snprintf(found, sizeof found, "return site %u", ret);
    return ifds_load_fail(L, L->line, ret_col, "return site is the call node itself", found,
                          "another node of the same procedure",
                          "return to the node after the call");
  }
  if (L->node_proc[ret] != p) {
    describe_node(L, found, sizeof found, ret);
    snprintf(expected, sizeof expected, "a return site in procedure %u, like the call node", p);
    return ifds_load_fail(L, L->line, ret_col, "return site in another procedure", found, expected,
                          "return to a node of the calling procedure");
  }
  if (ret == L->proc_first[p]) {
    snprintf(found, sizeof found, "node %u, the start of procedure %u", ret, p);
    return ifds_load_fail(L, L->line, ret_col, "return site is a start node", found,
                          "a node other than the procedure's start node",
                          "return to a node after the start node");
  }
  if (L->out_count[site]) {
    snprintf(found, sizeof found, "%u edge line(s) leaving node %u", L->out_count[site], site);
    return ifds_load_fail(L, L->line, site_col, "call node has edge lines", found,
                          "no edge leaving a call node",
                          "a call node continues only to the RETURN of its call line");
  }
  return WEIR_OK;
}

static weir_status call(ifds_loader *L) {
  uint32_t site, ret, f;
  WEIR_TRY(ifds_load_index(L, 1, "node", L->nodes, &site));
  WEIR_TRY(ifds_load_index(L, 2, "node", L->nodes, &ret));
  WEIR_TRY(call_rules(L, site, ret));
  WEIR_TRY(ifds_load_flow(L, 3, "call-to-return flow function", &f));
  WEIR_TRY(ifds_load_no_more(L, 4));
  L->node_call[site] = (uint32_t)L->call_node.len;
  WEIR_TRY(ifds_vec_push(&L->call_node, site));
  WEIR_TRY(ifds_vec_push(&L->call_return, ret));
  WEIR_TRY(ifds_vec_push(&L->call_flow, f));
  return ifds_vec_push(&L->call_line, line32(L));
}

static weir_status callee(ifds_loader *L) {
  uint32_t site, proc, cf, rf;
  WEIR_TRY(ifds_load_index(L, 1, "node", L->nodes, &site));
  WEIR_TRY(ifds_load_index(L, 2, "procedure", L->procs, &proc));
  WEIR_TRY(ifds_load_flow(L, 3, "call flow function", &cf));
  WEIR_TRY(ifds_load_flow(L, 4, "return flow function", &rf));
  WEIR_TRY(ifds_load_no_more(L, 5));
  if (L->callee_site.len >= UINT32_MAX - 1)
    return weir_fail(WEIR_ERR_OUT_OF_RANGE,
                     "%s:%llu:1: more than %u callee lines. Fix: split the "
                     "problem.",
                     L->name, (unsigned long long)L->line, UINT32_MAX - 1);
  WEIR_TRY(ifds_vec_push(&L->callee_site, site));
  WEIR_TRY(ifds_vec_push(&L->callee_proc, proc));
  WEIR_TRY(ifds_vec_push(&L->callee_call_flow, cf));
  WEIR_TRY(ifds_vec_push(&L->callee_return_flow, rf));
  return ifds_vec_push(&L->callee_line, line32(L));
}

static weir_status seed(ifds_loader *L) {
  uint32_t node, fact;
  WEIR_TRY(ifds_load_index(L, 1, "node", L->nodes, &node));
  WEIR_TRY(ifds_load_index(L, 2, "fact", L->facts, &fact));
  WEIR_TRY(ifds_load_no_more(L, 3));
  WEIR_TRY(ifds_vec_push(&L->seed_node, node));
  return ifds_vec_push(&L->seed_fact, fact);
}

weir_status ifds_load_body(ifds_loader *L, const ifds_token *t) {
  switch (t->length) { /* the common directives first, by length */
    case 4:
      if (memcmp(t->text, "edge", 4) == 0) return edge(L);
      if (memcmp(t->text, "call", 4) == 0) return call(L);
      if (memcmp(t->text, "seed", 4) == 0) return seed(L);
      break;
    case 6:
      if (memcmp(t->text, "callee", 6) == 0) return callee(L);
      break;
  }
  return ifds_load_misplaced(L);
}
