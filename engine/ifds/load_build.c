/* The checks that need more than one line, and the assembly of the compact
 * problem (CSR successors, sorted call sites, interned flows). */
#include <stdlib.h>
#include <string.h>

#include "engine/ifds/load.h"

static weir_status oom(const char *what) {
  return weir_fail(WEIR_ERR_OUT_OF_MEMORY,
                   "allocating %s failed. Fix: free memory or use a "
                   "smaller problem.",
                   what);
}

static uint32_t *alloc32(size_t count) { return malloc((count ? count : 1) * sizeof(uint32_t)); }

/* ---- the proc section ----------------------------------------------------- */

static weir_status range_error(ifds_loader *L, uint32_t id, uint32_t from, uint32_t to) {
  char found[96], expected[64];
  snprintf(found, sizeof found, "nodes %u..%u in no procedure", from, to);
  snprintf(expected, sizeof expected, "procedures covering nodes 0..%u", L->nodes - 1);
  return ifds_load_fail(L, L->proc_line[id], 1, "gap between procedure node ranges", found,
                        expected, "extend a procedure's FIRST..LAST or lower the node count");
}

static weir_status overlap_error(ifds_loader *L, uint32_t a, uint32_t b) {
  if (L->proc_line[a] > L->proc_line[b]) {
    uint32_t t = a;
    a = b;
    b = t;
  }
  char found[160];
  snprintf(found, sizeof found,
           "procedure %u with nodes %u..%u and procedure %u (line %u) with "
           "nodes %u..%u",
           b, L->proc_first[b], L->proc_last[b], a, L->proc_line[a], L->proc_first[a],
           L->proc_last[a]);
  return ifds_load_fail(L, L->proc_line[b], 1, "overlapping procedure node ranges", found,
                        "disjoint ranges", "give each node to exactly one procedure");
}

static weir_status missing_proc(ifds_loader *L) {
  uint32_t id = 0;
  while (L->proc_line[id]) ++id;
  char found[64], expected[96], fix[96];
  snprintf(found, sizeof found, "no proc line for procedure %u", id);
  snprintf(expected, sizeof expected, "one proc line for each procedure 0..%u", L->procs - 1);
  snprintf(fix, sizeof fix, "add `proc %u NAME FIRST LAST` or lower the procedure count", id);
  return ifds_load_fail(L, L->procs_line, L->procs_col, "missing proc line", found, expected, fix);
}

weir_status ifds_load_close_procs(ifds_loader *L) {
  if (L->procs_seen < L->procs) return missing_proc(L);
  uint64_t *keys = malloc(L->procs * sizeof *keys);
  if (!keys) return oom("the procedure order");
  for (uint32_t id = 0; id < L->procs; ++id) keys[id] = (uint64_t)L->proc_first[id] << 32 | id;
  weir_status s = ifds_sort_u64(keys, L->procs);
  uint64_t next = 0; /* the first node not yet covered */
  for (uint32_t i = 0; s == WEIR_OK && i < L->procs; ++i) {
    uint32_t id = (uint32_t)keys[i], first = L->proc_first[id];
    if (first > next)
      s = range_error(L, id, (uint32_t)next, first - 1);
    else if (first < next)
      s = overlap_error(L, (uint32_t)keys[i - 1], id);
    next = (uint64_t)L->proc_last[id] + 1;
  }
  if (s == WEIR_OK && next < L->nodes)
    s = range_error(L, (uint32_t)keys[L->procs - 1], (uint32_t)next, L->nodes - 1);
  free(keys);
  WEIR_TRY(s);
  for (uint32_t id = 0; id < L->procs; ++id)
    for (uint32_t n = L->proc_first[id]; n <= L->proc_last[id]; ++n) L->node_proc[n] = id;
  return WEIR_OK;
}

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

static weir_status duplicate_edge(ifds_loader *L, uint32_t e, uint32_t earlier, uint32_t from,
                                  uint32_t to) {
  char found[96], expected[64];
  snprintf(found, sizeof found, "a second edge %u -> %u", from, to);
  snprintf(expected, sizeof expected, "one edge line per (FROM, TO) (the first is on line %u)",
           L->edge_line.data[earlier]);
  return ifds_load_fail(L, L->edge_line.data[e], 1, "duplicate edge", found, expected,
                        "merge the two flow functions into one edge line");
}

/* Edges bucketed by source: out_count becomes succ_offset in place (end
 * positions first, then filled backwards so that each bucket keeps file
 * order); keys hold (target << 32 | edge index). The input vectors are freed
 * as soon as they are used, to keep the peak memory of a load low. */
static weir_status bucket_edges(ifds_loader *L, weir_ifds_problem *p, uint64_t **out) {
  size_t E = L->edge_from.len, N = L->nodes;
  uint64_t *keys = malloc((E ? E : 1) * sizeof *keys);
  if (!keys) return oom("the edge lists");
  uint32_t *offset = L->out_count;
  L->out_count = NULL;
  p->succ_offset = offset;
  uint32_t sum = 0;
  for (size_t n = 0; n < N; ++n) offset[n] = sum += offset[n]; /* end of each bucket */
  offset[N] = sum;
  for (size_t e = E; e-- > 0;)
    keys[--offset[L->edge_from.data[e]]] = (uint64_t)L->edge_to.data[e] << 32 | e;
  ifds_vec_free(&L->edge_from);
  ifds_vec_free(&L->edge_to);
  *out = keys;
  return WEIR_OK;
}

static weir_status build_edges(ifds_loader *L, weir_ifds_problem *p) {
  size_t E = L->edge_from.len, N = L->nodes;
  uint64_t *keys = NULL;
  WEIR_TRY(bucket_edges(L, p, &keys));
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
    return duplicate_edge(L, dup, dup_first, dup_from, to);
  }
  ifds_vec_free(&L->edge_line);
  p->succ_node = alloc32(E);
  p->succ_flow = alloc32(E);
  if (!p->succ_node || !p->succ_flow) return free(keys), oom("the edge lists");
  for (size_t i = 0; i < E; ++i) {
    p->succ_node[i] = (uint32_t)(keys[i] >> 32);
    p->succ_flow[i] = L->edge_flow.data[(uint32_t)keys[i]];
  }
  free(keys);
  ifds_vec_free(&L->edge_flow);
  return WEIR_OK;
}

/* ---- seeds, names, and the whole ------------------------------------------ */

static weir_status build_seeds(ifds_loader *L, weir_ifds_problem *p) {
  size_t S = L->seed_node.len, m = 0;
  uint64_t *keys = malloc((S ? S : 1) * sizeof *keys);
  if (!keys) return oom("the seeds");
  for (size_t i = 0; i < S; ++i)
    keys[i] = (uint64_t)L->seed_node.data[i] << 32 | L->seed_fact.data[i];
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

static weir_status build_procs(ifds_loader *L, weir_ifds_problem *p) {
  p->proc_name_offset = alloc32((size_t)L->procs + 1);
  p->names = malloc(L->names_len ? L->names_len : 1);
  if (!p->proc_name_offset || !p->names) return oom("the procedure names");
  uint32_t at = 0;
  for (uint32_t id = 0; id < L->procs; ++id) { /* names in ID order */
    p->proc_name_offset[id] = at;
    memcpy(p->names + at, L->names + L->name_offset[id], L->name_length[id]);
    at += L->name_length[id];
  }
  p->proc_name_offset[L->procs] = at;
  p->proc_first = L->proc_first;
  p->proc_last = L->proc_last;
  p->node_proc = L->node_proc;
  L->proc_first = L->proc_last = L->node_proc = NULL;
  return WEIR_OK;
}

static weir_status unexpected_end(ifds_loader *L) {
  static const char *const next[] = {"`weir-ifds 1`", "`facts F`", "`procs P`", "`nodes N`"};
  return ifds_load_fail(L, L->line, 1, "unexpected end of file", "end of file", next[L->stage],
                        "complete the header: weir-ifds 1, facts, procs, nodes, then proc lines");
}

weir_status ifds_load_finish(ifds_loader *L, weir_ifds_problem *p) {
  if (L->stage < IFDS_STAGE_PROC) return unexpected_end(L);
  if (L->stage == IFDS_STAGE_PROC) WEIR_TRY(ifds_load_close_procs(L));
  WEIR_TRY(build_edges(L, p));
  WEIR_TRY(ifds_load_calls(L, p));
  WEIR_TRY(build_seeds(L, p));
  WEIR_TRY(build_procs(L, p));
  WEIR_TRY(ifds_flow_table_take(&L->flows, &p->flows));
  p->fact_count = L->facts;
  p->proc_count = L->procs;
  p->node_count = L->nodes;
  return WEIR_OK;
}
