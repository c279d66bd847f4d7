/* The checks that need every element, and the assembly of the compact
 * problem (CSR successors, sorted call sites, interned flows). */
#include <stdlib.h>
#include <string.h>

#include "engine/ifds/builder.h"

static weir_status oom(const char *what) {
  return weir_fail(WEIR_ERR_OUT_OF_MEMORY,
                   "allocating %s failed. Fix: free memory or use a "
                   "smaller problem.",
                   what);
}

static uint32_t *alloc32(size_t count) { return malloc((count ? count : 1) * sizeof(uint32_t)); }

/* ---- edges: CSR by source, sorted by target, duplicates refused ---------- */

static void sort_segment(uint64_t *k, size_t n) {
  for (size_t i = 1; i < n; ++i) { /* insertion sort: degrees are small */
    uint64_t x = k[i];
    size_t j = i;
    for (; j > 0 && k[j - 1] > x; --j) k[j] = k[j - 1];
    k[j] = x;
  }
}

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return (x > y) - (x < y);
}

static weir_status duplicate_edge(ifds_builder *b, uint32_t e, uint32_t earlier, uint32_t from,
                                  uint32_t to) {
  char found[96], expected[160], ref[48];
  snprintf(found, sizeof found, "a second edge %u -> %u", from, to);
  ifds_builder_ref(b, IFDS_ELEM_EDGE, ifds_builder_tag(b, &b->edge_line, earlier), ref,
                   sizeof ref);
  snprintf(expected, sizeof expected, "one %s per (FROM, TO) (the first is %s)",
           ifds_builder_says(b, "edge line", "edge"), ref);
  ifds_site where = {.kind = IFDS_ELEM_EDGE,
                     .tag = ifds_builder_tag(b, &b->edge_line, e),
                     .index = e,
                     .v = {from, to}};
  return ifds_builder_fail(b, &where, "duplicate edge", found, expected,
                           ifds_builder_says(b, "merge the two flow functions into one edge line",
                                             "merge the two flow functions into one with "
                                             "weir_ifds_builder_flow and add the edge once"));
}

/* Edges bucketed by source: out_count becomes succ_offset in place (end
 * positions first, then filled backwards so that each bucket keeps file
 * order); keys hold (target << 32 | edge index). The input vectors are freed
 * as soon as they are used, to keep the peak memory of a load low. */
static weir_status bucket_edges(ifds_builder *b, weir_ifds_problem *p, uint64_t **out) {
  size_t E = b->edge_from.len, N = b->nodes;
  uint64_t *keys = malloc((E ? E : 1) * sizeof *keys);
  if (!keys) return oom("the edge lists");
  uint32_t *offset = b->out_count;
  b->out_count = NULL;
  p->succ_offset = offset;
  uint32_t sum = 0;
  for (size_t n = 0; n < N; ++n) offset[n] = sum += offset[n]; /* end of each bucket */
  offset[N] = sum;
  for (size_t e = E; e-- > 0;)
    keys[--offset[b->edge_from.data[e]]] = (uint64_t)b->edge_to.data[e] << 32 | e;
  ifds_vec_free(&b->edge_from);
  ifds_vec_free(&b->edge_to);
  *out = keys;
  return WEIR_OK;
}

static weir_status build_edges(ifds_builder *b, weir_ifds_problem *p) {
  size_t E = b->edge_from.len, N = b->nodes;
  uint64_t *keys = NULL;
  WEIR_TRY(bucket_edges(b, p, &keys));
  uint32_t dup = UINT32_MAX, dup_first = 0, dup_from = 0; /* the one on the earliest line */
  for (size_t n = 0; n < N; ++n) {
    uint64_t *k = keys + p->succ_offset[n];
    size_t d = p->succ_offset[n + 1] - p->succ_offset[n];
    if (d > 32)
      qsort(k, d, sizeof *k, cmp_u64);
    else
      sort_segment(k, d);
    for (size_t i = 1; i < d; ++i)
      if (k[i] >> 32 == k[i - 1] >> 32 && (dup == UINT32_MAX || (uint32_t)k[i] < dup))
        dup = (uint32_t)k[i], dup_first = (uint32_t)k[i - 1], dup_from = (uint32_t)n;
  }
  if (dup != UINT32_MAX) {
    uint32_t to = 0;
    for (size_t i = p->succ_offset[dup_from]; i < p->succ_offset[dup_from + 1]; ++i)
      if ((uint32_t)keys[i] == dup) to = (uint32_t)(keys[i] >> 32);
    free(keys);
    return duplicate_edge(b, dup, dup_first, dup_from, to);
  }
  ifds_vec_free(&b->edge_line);
  p->succ_node = alloc32(E);
  p->succ_flow = alloc32(E);
  if (!p->succ_node || !p->succ_flow) return free(keys), oom("the edge lists");
  for (size_t i = 0; i < E; ++i) {
    p->succ_node[i] = (uint32_t)(keys[i] >> 32);
    p->succ_flow[i] = b->edge_flow.data[(uint32_t)keys[i]];
  }
  free(keys);
  ifds_vec_free(&b->edge_flow);
  return WEIR_OK;
}

/* ---- seeds, names, and the whole ------------------------------------------ */

static weir_status build_seeds(ifds_builder *b, weir_ifds_problem *p) {
  size_t S = b->seed_node.len, m = 0;
  uint64_t *keys = malloc((S ? S : 1) * sizeof *keys);
  if (!keys) return oom("the seeds");
  for (size_t i = 0; i < S; ++i)
    keys[i] = (uint64_t)b->seed_node.data[i] << 32 | b->seed_fact.data[i];
  weir_status s = ifds_sort_u64(keys, S);
  for (size_t i = 0; i < S; ++i)
    if (m == 0 || keys[m - 1] != keys[i]) keys[m++] = keys[i];
  p->seed_node = alloc32(m);
  p->seed_fact = alloc32(m);
  if (s == WEIR_OK && (!p->seed_node || !p->seed_fact)) s = oom("the seeds");
  for (size_t i = 0; s == WEIR_OK && i < m; ++i) {
    p->seed_node[i] = (uint32_t)(keys[i] >> 32);
    p->seed_fact[i] = (uint32_t)keys[i];
  }
  p->seed_count = (uint32_t)m;
  free(keys);
  return s;
}

static weir_status build_procs(ifds_builder *b, weir_ifds_problem *p) {
  p->proc_name_offset = alloc32((size_t)b->procs + 1);
  p->names = malloc(b->names_len ? b->names_len : 1);
  if (!p->proc_name_offset || !p->names) return oom("the procedure names");
  uint32_t at = 0;
  for (uint32_t id = 0; id < b->procs; ++id) { /* names in ID order */
    p->proc_name_offset[id] = at;
    memcpy(p->names + at, b->names + b->name_offset[id], b->name_length[id]);
    at += b->name_length[id];
  }
  p->proc_name_offset[b->procs] = at;
  p->proc_first = b->proc_first;
  p->proc_last = b->proc_last;
  p->node_proc = b->node_proc;
  b->proc_first = b->proc_last = b->node_proc = NULL;
  return WEIR_OK;
}

weir_status ifds_builder_finish(ifds_builder *b, weir_ifds_problem *p) {
  WEIR_TRY(ifds_builder_close_procs(b));
  WEIR_TRY(build_edges(b, p));
  WEIR_TRY(ifds_builder_calls(b, p));
  WEIR_TRY(build_seeds(b, p));
  WEIR_TRY(build_procs(b, p));
  WEIR_TRY(ifds_flow_table_take(&b->flows, &p->flows));
  p->fact_count = b->facts;
  p->proc_count = b->procs;
  p->node_count = b->nodes;
  if (p->seed_count == 0) p->warnings |= WEIR_IFDS_WARN_NO_SEEDS;
  return WEIR_OK;
}
