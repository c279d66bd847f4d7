/* The body lines in the general path: edge, call, callee, seed, and the
 * `end` trailer. The tokens are checked here (numbers, ranges, flow syntax,
 * nothing extra); the rules of the elements are the builder's. */
#include <string.h>

#include "engine/ifds/load.h"

static weir_status edge(ifds_loader *L) {
  uint32_t from, to, f;
  WEIR_TRY(ifds_load_index(L, 1, "node", L->nodes, &from));
  WEIR_TRY(ifds_load_index(L, 2, "node", L->nodes, &to));
  WEIR_TRY(ifds_load_flow(L, 3, "flow function", &f));
  if (L->ext) {
    WEIR_TRY(ifds_builder_edge(&L->b, from, to, f, ifds_line32(L)));
    return L->ext->body(L, IFDS_ELEM_EDGE, 4, from, to, f, 0);
  }
  WEIR_TRY(ifds_load_no_more(L, 4));
  return ifds_builder_edge(&L->b, from, to, f, ifds_line32(L));
}

static weir_status call(ifds_loader *L) {
  uint32_t site, ret, f;
  WEIR_TRY(ifds_load_index(L, 1, "node", L->nodes, &site));
  WEIR_TRY(ifds_load_index(L, 2, "node", L->nodes, &ret));
  WEIR_TRY(ifds_load_flow(L, 3, "call-to-return flow function", &f));
  if (L->ext) {
    WEIR_TRY(ifds_builder_call(&L->b, site, ret, f, ifds_line32(L)));
    return L->ext->body(L, IFDS_ELEM_CALL, 4, site, ret, f, 0);
  }
  WEIR_TRY(ifds_load_no_more(L, 4));
  return ifds_builder_call(&L->b, site, ret, f, ifds_line32(L));
}

static weir_status callee(ifds_loader *L) {
  uint32_t site, proc, cf, rf;
  WEIR_TRY(ifds_load_index(L, 1, "node", L->nodes, &site));
  WEIR_TRY(ifds_load_index(L, 2, "procedure", L->procs, &proc));
  WEIR_TRY(ifds_load_flow(L, 3, "call flow function", &cf));
  WEIR_TRY(ifds_load_flow(L, 4, "return flow function", &rf));
  if (L->ext) {
    WEIR_TRY(ifds_builder_callee(&L->b, site, proc, cf, rf, ifds_line32(L)));
    return L->ext->body(L, IFDS_ELEM_CALLEE, 5, site, proc, cf, rf);
  }
  WEIR_TRY(ifds_load_no_more(L, 5));
  return ifds_builder_callee(&L->b, site, proc, cf, rf, ifds_line32(L));
}

static weir_status seed(ifds_loader *L) {
  uint32_t node, fact;
  WEIR_TRY(ifds_load_index(L, 1, "node", L->nodes, &node));
  WEIR_TRY(ifds_load_index(L, 2, "fact", L->facts, &fact));
  if (L->ext) {
    WEIR_TRY(L->ext->body(L, IFDS_ELEM_SEED, 3, node, fact, 0, 0));
    return ifds_builder_seed(&L->b, node, fact);
  }
  WEIR_TRY(ifds_load_no_more(L, 3));
  return ifds_builder_seed(&L->b, node, fact);
}

/* `end EDGES CALLS CALLEES SEEDS`: the counts of the lines above (seeds
 * before duplicates are dropped). A difference means lines were lost or
 * added after the file was written. */
static weir_status end(ifds_loader *L) {
  static const char *const labels[] = {"edge count", "call count", "callee count", "seed count"};
  const ifds_builder *b = &L->b;
  uint32_t want[4], have[4] = {(uint32_t)b->edge_from.len, (uint32_t)b->call_node.len,
                               (uint32_t)b->callee_site.len, (uint32_t)b->seed_node.len};
  for (size_t i = 0; i < 4; ++i) WEIR_TRY(ifds_load_number(L, i + 1, labels[i], &want[i]));
  WEIR_TRY(ifds_load_no_more(L, 5));
  for (size_t i = 0; i < 4; ++i) {
    if (want[i] == have[i]) continue;
    char found[96], expected[96];
    snprintf(found, sizeof found, "`end %u %u %u %u`", want[0], want[1], want[2], want[3]);
    snprintf(expected, sizeof expected,
             "`end %u %u %u %u`, the edge, call, callee and seed lines above", have[0], have[1],
             have[2], have[3]);
    return ifds_load_fail(L, L->line, ifds_col(L, L->tok[i + 1].text),
                          "end line does not match the file", found, expected,
                          "the file was cut or edited after it was written; regenerate it, or "
                          "correct the counts if the lines above are right");
  }
  L->stage = IFDS_STAGE_END;
  return WEIR_OK;
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
    case 3:
      if (memcmp(t->text, "end", 3) == 0) return end(L);
      break;
  }
  return ifds_load_misplaced(L);
}

/* ---- the end of the input --------------------------------------------------- */

static weir_status unexpected_end(ifds_loader *L) {
  static const char *const next[] = {"", "`facts F`", "`procs P`", "`nodes N`"};
  char magic[32], fix[160];
  snprintf(magic, sizeof magic, "`%s 1`", ifds_load_magic(L));
  snprintf(fix, sizeof fix, "complete the header: %s, then proc lines",
           L->ext ? L->ext->header_order : "weir-ifds 1, facts, procs, nodes");
  return ifds_load_fail(L, L->line, 1, "unexpected end of file", "end of file",
                        L->stage == IFDS_STAGE_MAGIC ? magic : next[L->stage], fix);
}

/* Strict loads refuse a text without the trailer: it may have been cut at a
 * line boundary. Checked before the rules that a cut breaks (a call left
 * without its callees), so that the message names the likely cause. */
static weir_status missing_end(ifds_loader *L) {
  const ifds_builder *b = &L->b;
  char expected[128];
  snprintf(expected, sizeof expected, "`end %zu %zu %zu %zu` after the last line", b->edge_from.len,
           b->call_node.len, b->callee_site.len, b->seed_node.len);
  return ifds_load_fail(L, L->line, 1, "missing end line", "end of file", expected,
                        "the file may be truncated: regenerate it; if it is complete, add the end "
                        "line (loads that are not strict accept the file with a warning)");
}

weir_status ifds_load_finish(ifds_loader *L, weir_ifds_problem *p) {
  if (L->stage < IFDS_STAGE_PROC) return unexpected_end(L);
  int had_end = L->stage == IFDS_STAGE_END;
  if (!had_end && L->strict) return missing_end(L);
  WEIR_TRY(ifds_builder_finish(&L->b, p));
  if (!had_end) p->warnings |= WEIR_IFDS_WARN_NO_END_LINE;
  return WEIR_OK;
}
