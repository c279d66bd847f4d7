/* Call sites and their callees at the end of the input: every callee has its
 * call line, no callee twice per site, every call node has a callee; then
 * both are sorted (calls by node, callees by procedure within a call). */
#include <stdlib.h>
#include <string.h>

#include "engine/ifds/load.h"

typedef struct callee_key {
  uint64_t key; /* sorted call index << 32 | procedure */
  uint32_t index;
} callee_key;

static int cmp_callee(const void *a, const void *b) {
  const callee_key *x = a, *y = b;
  if (x->key != y->key) return (x->key > y->key) - (x->key < y->key);
  return (x->index > y->index) - (x->index < y->index);
}

static weir_status oom(void) {
  return weir_fail(WEIR_ERR_OUT_OF_MEMORY,
                   "allocating the call-site tables failed. Fix: free "
                   "memory or use a smaller problem.");
}

static uint32_t *alloc32(size_t count) { return malloc((count ? count : 1) * sizeof(uint32_t)); }

static weir_status callee_without_call(ifds_loader *L) {
  for (size_t k = 0; k < L->callee_site.len; ++k) {
    uint32_t site = L->callee_site.data[k];
    if (L->node_call[site] != WEIR_IFDS_NONE) continue;
    char found[80], expected[96];
    snprintf(found, sizeof found, "a callee of node %u, which has no call line", site);
    snprintf(expected, sizeof expected, "a line `call %u RETURN FLOW` somewhere in the file", site);
    return ifds_load_fail(L, L->callee_line.data[k], 1, "callee without its call line", found,
                          expected, "add the call line of the site or fix the SITE number");
  }
  return WEIR_OK;
}

/* Calls sorted by node; rank[i] is the sorted index of the i-th call line. */
static weir_status sort_calls(ifds_loader *L, weir_ifds_problem *p, uint32_t *rank) {
  size_t C = L->call_node.len;
  uint64_t *keys = malloc((C ? C : 1) * sizeof *keys);
  p->call_node = alloc32(C);
  p->call_return = alloc32(C);
  p->call_flow = alloc32(C);
  if (!keys || !p->call_node || !p->call_return || !p->call_flow) return free(keys), oom();
  for (size_t i = 0; i < C; ++i) keys[i] = (uint64_t)L->call_node.data[i] << 32 | i;
  weir_status s = ifds_sort_u64(keys, C);
  for (size_t r = 0; s == WEIR_OK && r < C; ++r) {
    uint32_t i = (uint32_t)keys[r];
    rank[i] = (uint32_t)r;
    p->call_node[r] = L->call_node.data[i];
    p->call_return[r] = L->call_return.data[i];
    p->call_flow[r] = L->call_flow.data[i];
    L->node_call[p->call_node[r]] = (uint32_t)r;
  }
  free(keys);
  p->call_count = (uint32_t)C;
  return s;
}

static weir_status duplicate_callee(ifds_loader *L, uint32_t k, uint32_t first) {
  char found[96], expected[80];
  snprintf(found, sizeof found, "procedure %u again as a callee of node %u", L->callee_proc.data[k],
           L->callee_site.data[k]);
  snprintf(expected, sizeof expected, "one callee line per (SITE, PROC) (the first is on line %u)",
           L->callee_line.data[first]);
  return ifds_load_fail(L, L->callee_line.data[k], 1, "duplicate callee", found, expected,
                        "remove the second callee line");
}

static weir_status call_without_callee(ifds_loader *L, weir_ifds_problem *p, uint32_t *rank) {
  uint32_t line = UINT32_MAX, node = 0; /* report the earliest such call line */
  for (size_t i = 0; i < L->call_node.len; ++i) {
    uint32_t r = rank[i];
    if (p->callee_offset[r] == p->callee_offset[r + 1] && L->call_line.data[i] < line)
      line = L->call_line.data[i], node = L->call_node.data[i];
  }
  if (line == UINT32_MAX) return WEIR_OK;
  char found[64], expected[64];
  snprintf(found, sizeof found, "no callee line for call node %u", node);
  snprintf(expected, sizeof expected, "at least one `callee %u PROC CALLFLOW RETFLOW`", node);
  return ifds_load_fail(L, line, 1, "call node without callees", found, expected,
                        "add a callee line for every procedure the call may reach");
}

static weir_status fill_callees(ifds_loader *L, weir_ifds_problem *p, const callee_key *keys) {
  size_t K = L->callee_site.len, C = p->call_count;
  p->callee_offset = calloc(C + 1, sizeof(uint32_t));
  p->callee_proc = alloc32(K);
  p->callee_call_flow = alloc32(K);
  p->callee_return_flow = alloc32(K);
  if (!p->callee_offset || !p->callee_proc || !p->callee_call_flow || !p->callee_return_flow)
    return oom();
  for (size_t j = 0; j < K; ++j) {
    uint32_t k = keys[j].index;
    p->callee_offset[(keys[j].key >> 32) + 1]++;
    p->callee_proc[j] = L->callee_proc.data[k];
    p->callee_call_flow[j] = L->callee_call_flow.data[k];
    p->callee_return_flow[j] = L->callee_return_flow.data[k];
  }
  for (size_t c = 0; c < C; ++c) p->callee_offset[c + 1] += p->callee_offset[c];
  return WEIR_OK;
}

static weir_status sort_callees(ifds_loader *L, weir_ifds_problem *p, uint32_t *rank) {
  size_t K = L->callee_site.len;
  callee_key *keys = malloc((K ? K : 1) * sizeof *keys);
  if (!keys) return oom();
  for (size_t k = 0; k < K; ++k) {
    uint32_t r = L->node_call[L->callee_site.data[k]];
    keys[k] = (callee_key){(uint64_t)r << 32 | L->callee_proc.data[k], (uint32_t)k};
  }
  qsort(keys, K, sizeof *keys, cmp_callee);
  uint32_t dup = UINT32_MAX, dup_first = 0;
  for (size_t j = 1; j < K; ++j)
    if (keys[j].key == keys[j - 1].key &&
        (dup == UINT32_MAX || L->callee_line.data[keys[j].index] < L->callee_line.data[dup]))
      dup = keys[j].index, dup_first = keys[j - 1].index;
  weir_status s =
      dup != UINT32_MAX ? duplicate_callee(L, dup, dup_first) : fill_callees(L, p, keys);
  free(keys);
  WEIR_TRY(s);
  return call_without_callee(L, p, rank);
}

weir_status ifds_load_calls(ifds_loader *L, weir_ifds_problem *p) {
  WEIR_TRY(callee_without_call(L));
  uint32_t *rank = alloc32(L->call_node.len);
  if (!rank) return oom();
  weir_status s = sort_calls(L, p, rank);
  if (s == WEIR_OK) s = sort_callees(L, p, rank);
  free(rank);
  WEIR_TRY(s);
  p->node_call = L->node_call; /* already remapped to the sorted call indices */
  L->node_call = NULL;
  return WEIR_OK;
}
