/* weir_ide_write_problem: the canonical text of an IDE problem (the IFDS
 * writer's order: procedures, edges by node, calls with their callees,
 * seeds, `end`), with the functions of each element's pairs after its flow
 * token. Loading what it writes gives the same problem. */
#include <stdlib.h>

#include "engine/ide/text.h"
#include "engine/ifds/internal.h"

/* The FUNCTIONS token of pairs [lo, hi) (nothing when empty and not
 * `placeholder`, `-` when empty and it is), formatted in `text`
 * (IDE_FN_TEXT_MAX bytes). Every function was checked to be expressible. */
static void functions(ifds_out *o, const weir_ide_problem *r, uint32_t lo, uint32_t hi,
                      int placeholder, char *text) {
  if (lo == hi) {
    if (placeholder) ifds_out_str(o, " -");
    return;
  }
  for (uint32_t i = lo; i < hi; ++i) {
    ide_format_fn(r, &r->fns[r->ann_fn[i]], text, IDE_FN_TEXT_MAX);
    ifds_out_char(o, i == lo ? ' ' : ',');
    ifds_out_u64(o, r->ann_from[i]);
    ifds_out_char(o, '>');
    ifds_out_u64(o, r->ann_to[i]);
    ifds_out_char(o, '=');
    ifds_out_str(o, text);
  }
}

/* Whether the text can express every function a pair carries: 0, or 1 (a
 * typestate function with a `gen` set). Checked before a byte is written. */
static int inexpressible(const weir_ide_problem *r, char *text) {
  for (uint32_t i = 0; i < r->ann_count; ++i)
    if (ide_format_fn(r, &r->fns[r->ann_fn[i]], text, IDE_FN_TEXT_MAX)) return 1;
  return 0;
}

static void header(ifds_out *o, const weir_ide_problem *r) {
  const weir_ifds_problem *p = r->ifds;
  ifds_out_str(o, "weir-ide 1\nfamily ");
  if (r->family == WEIR_IDE_LINEAR) ifds_out_str(o, "linear\n");
  else {
    ifds_out_str(o, "typestate ");
    ifds_out_u64(o, r->state_count);
    ifds_out_char(o, '\n');
    for (uint32_t s = 0; s < r->state_count; ++s) {
      ifds_out_str(o, "state ");
      ifds_out_u64(o, s);
      ifds_out_char(o, ' ');
      ifds_out_bytes(o, r->state_names + r->state_name_offset[s],
                     r->state_name_offset[s + 1] - r->state_name_offset[s]);
      ifds_out_char(o, '\n');
    }
  }
  ifds_write_counts_and_procs(o, p);
}

/* `WORD A B FLOW`, the start of an edge, call or callee line. */
static void element(ifds_out *o, const weir_ide_problem *r, const char *word, uint32_t a,
                    uint32_t b, uint32_t flow) {
  ifds_out_str(o, word);
  ifds_out_u64(o, a);
  ifds_out_char(o, ' ');
  ifds_out_u64(o, b);
  ifds_out_char(o, ' ');
  ifds_out_flow(o, &r->ifds->flows, flow);
}

static void body(ifds_out *o, const weir_ide_problem *r, char *text) {
  const weir_ifds_problem *p = r->ifds;
  for (uint32_t n = 0; n < p->node_count; ++n)
    for (uint32_t e = p->succ_offset[n]; e < p->succ_offset[n + 1]; ++e) {
      element(o, r, "edge ", n, p->succ_node[e], p->succ_flow[e]);
      functions(o, r, r->edge_ann_offset[e], r->edge_ann_offset[e + 1], 0, text);
      ifds_out_char(o, '\n');
    }
  for (uint32_t c = 0; c < p->call_count; ++c) {
    element(o, r, "call ", p->call_node[c], p->call_return[c], p->call_flow[c]);
    functions(o, r, r->call_ann_offset[c], r->call_ann_offset[c + 1], 0, text);
    ifds_out_char(o, '\n');
    for (uint32_t k = p->callee_offset[c]; k < p->callee_offset[c + 1]; ++k) {
      element(o, r, "callee ", p->call_node[c], p->callee_proc[k], p->callee_call_flow[k]);
      ifds_out_char(o, ' ');
      ifds_out_flow(o, &p->flows, p->callee_return_flow[k]);
      int ret = r->callee_return_ann_offset[k] < r->callee_return_ann_offset[k + 1];
      functions(o, r, r->callee_call_ann_offset[k], r->callee_call_ann_offset[k + 1], ret, text);
      functions(o, r, r->callee_return_ann_offset[k], r->callee_return_ann_offset[k + 1], 0, text);
      ifds_out_char(o, '\n');
    }
  }
}

static void seeds_and_end(ifds_out *o, const weir_ide_problem *r) {
  const weir_ifds_problem *p = r->ifds;
  char value[WEIR_IDE_VALUE_TEXT_MAX];
  for (uint32_t s = 0; s < p->seed_count; ++s) {
    ifds_out_str(o, "seed ");
    ifds_out_u64(o, p->seed_node[s]);
    ifds_out_char(o, ' ');
    ifds_out_u64(o, p->seed_fact[s]);
    ifds_out_char(o, ' ');
    weir_ide_format_value(r, &r->seed_value[s], value, sizeof value);
    ifds_out_str(o, value);
    ifds_out_char(o, '\n');
  }
  const uint64_t counts[] = {p->succ_offset[p->node_count], p->call_count,
                             p->callee_offset[p->call_count], p->seed_count};
  ifds_out_str(o, "end");
  for (int i = 0; i < 4; ++i) {
    ifds_out_char(o, ' ');
    ifds_out_u64(o, counts[i]);
  }
  ifds_out_char(o, '\n');
}

weir_status weir_ide_write_problem(const weir_ide_problem *r, FILE *out) {
  if (!r || !r->ifds || !out)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "weir_ide_write_problem: problem or out is NULL. Fix: pass both.");
  ifds_out *o = malloc(sizeof *o);
  char *text = malloc(IDE_FN_TEXT_MAX);
  if (!o || !text) {
    free(o);
    free(text);
    return weir_fail(WEIR_ERR_OUT_OF_MEMORY, "allocating the output buffer failed. Fix: free memory.");
  }
  if (inexpressible(r, text)) { /* refused before a byte is written */
    free(o);
    free(text);
    return weir_fail(WEIR_ERR_UNSUPPORTED,
                     "weir_ide_write_problem: a typestate function has a `gen` set (states it "
                     "gives whatever it is applied to), which the text format cannot express; "
                     "nothing was written. Fix: build such functions as rows (*>STATE) instead.");
  }
  ifds_out_init(o, out);
  header(o, r);
  body(o, r, text);
  seeds_and_end(o, r);
  weir_status s = ifds_out_finish(o, "the IDE problem");
  free(o);
  free(text);
  return s;
}
