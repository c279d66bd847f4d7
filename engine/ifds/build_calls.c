/* Call sites and their callees at the end of the input: every callee has its
 * call line, no callee twice per site, every call node has a callee; then
 * both are sorted (calls by node, callees by procedure within a call). */
#include <stdlib.h>
#include <string.h>

#include "engine/ifds/builder.h"

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

/* The tag of callee k and the site naming it. */
static ifds_site callee_site(const ifds_builder *b, uint32_t k) {
  return (ifds_site){.kind = IFDS_ELEM_CALLEE,
                     .tag = ifds_builder_tag(b, &b->callee_line, k),
                     .index = k,
                     .v = {b->callee_site.data[k], b->callee_proc.data[k]}};
}

static weir_status callee_without_call(ifds_builder *b) {
  for (size_t k = 0; k < b->callee_site.len; ++k) {
    uint32_t site = b->callee_site.data[k];
    if (b->node_call[site] != WEIR_IFDS_NONE) continue;
    char found[80], expected[96];
    ifds_site where = callee_site(b, (uint32_t)k);
    if (b->lines) {
      snprintf(found, sizeof found, "a callee of node %u, which has no call line", site);
      snprintf(expected, sizeof expected, "a line `call %u RETURN FLOW` somewhere in the file",
               site);
      return ifds_builder_fail(b, &where, "callee without its call line", found, expected,
                               "add the call line of the site or fix the SITE number");
    }
    snprintf(found, sizeof found, "a callee of node %u, which is no call node", site);
    snprintf(expected, sizeof expected, "weir_ifds_builder_call for node %u", site);
    return ifds_builder_fail(b, &where, "callee without its call", found, expected,
                             "add the call with weir_ifds_builder_call(b, SITE, RETURN, FLOW) or "
                             "fix the site passed to weir_ifds_builder_callee");
  }
  return WEIR_OK;
}

/* Calls sorted by node; rank[i] is the sorted index of the i-th call line. */
static weir_status sort_calls(ifds_builder *b, weir_ifds_problem *p, uint32_t *rank) {
  size_t C = b->call_node.len;
  uint64_t *keys = malloc((C ? C : 1) * sizeof *keys);
  p->call_node = alloc32(C);
  p->call_return = alloc32(C);
  p->call_flow = alloc32(C);
  if (!keys || !p->call_node || !p->call_return || !p->call_flow) return free(keys), oom();
  for (size_t i = 0; i < C; ++i) keys[i] = (uint64_t)b->call_node.data[i] << 32 | i;
  weir_status s = ifds_sort_u64(keys, C);
  for (size_t r = 0; s == WEIR_OK && r < C; ++r) {
    uint32_t i = (uint32_t)keys[r];
    rank[i] = (uint32_t)r;
    p->call_node[r] = b->call_node.data[i];
    p->call_return[r] = b->call_return.data[i];
    p->call_flow[r] = b->call_flow.data[i];
    b->node_call[p->call_node[r]] = (uint32_t)r;
  }
  free(keys);
  p->call_count = (uint32_t)C;
  return s;
}

static weir_status duplicate_callee(ifds_builder *b, uint32_t k, uint32_t first) {
  char found[96], expected[160], ref[48];
  snprintf(found, sizeof found, "procedure %u again as a callee of node %u", b->callee_proc.data[k],
           b->callee_site.data[k]);
  ifds_builder_ref(b, IFDS_ELEM_CALLEE, ifds_builder_tag(b, &b->callee_line, first), ref,
                   sizeof ref);
  snprintf(expected, sizeof expected, "one %s per (SITE, PROC) (the first is %s)",
           ifds_builder_says(b, "callee line", "callee"), ref);
  ifds_site where = callee_site(b, k);
  return ifds_builder_fail(b, &where, "duplicate callee", found, expected,
                           ifds_builder_says(b, "remove the second callee line",
                                             "call weir_ifds_builder_callee once per site and "
                                             "procedure"));
}

static weir_status call_without_callee(ifds_builder *b, weir_ifds_problem *p, uint32_t *rank) {
  uint32_t tag = UINT32_MAX, call = 0; /* report the earliest such call */
  for (size_t i = 0; i < b->call_node.len; ++i) {
    uint32_t r = rank[i], t = ifds_builder_tag(b, &b->call_line, i);
    if (p->callee_offset[r] == p->callee_offset[r + 1] && t < tag) tag = t, call = (uint32_t)i;
  }
  if (tag == UINT32_MAX) return WEIR_OK;
  uint32_t node = b->call_node.data[call];
  char found[64], expected[96];
  ifds_site where = {.kind = IFDS_ELEM_CALL, .tag = tag, .index = call,
                     .v = {node, b->call_return.data[call]}};
  if (b->lines) {
    snprintf(found, sizeof found, "no callee line for call node %u", node);
    snprintf(expected, sizeof expected, "at least one `callee %u PROC CALLFLOW RETFLOW`", node);
    return ifds_builder_fail(b, &where, "call node without callees", found, expected,
                             "add a callee line for every procedure the call may reach");
  }
  snprintf(found, sizeof found, "no callee for call node %u", node);
  snprintf(expected, sizeof expected,
           "at least one weir_ifds_builder_callee(b, %u, PROC, CALL_FLOW, RETURN_FLOW)", node);
  return ifds_builder_fail(b, &where, "call node without callees", found, expected,
                           "call weir_ifds_builder_callee for every procedure the call may reach");
}

static weir_status fill_callees(ifds_builder *b, weir_ifds_problem *p, const callee_key *keys) {
  size_t K = b->callee_site.len, C = p->call_count;
  p->callee_offset = calloc(C + 1, sizeof(uint32_t));
  p->callee_proc = alloc32(K);
  p->callee_call_flow = alloc32(K);
  p->callee_return_flow = alloc32(K);
  if (!p->callee_offset || !p->callee_proc || !p->callee_call_flow || !p->callee_return_flow)
    return oom();
  for (size_t j = 0; j < K; ++j) {
    uint32_t k = keys[j].index;
    p->callee_offset[(keys[j].key >> 32) + 1]++;
    p->callee_proc[j] = b->callee_proc.data[k];
    p->callee_call_flow[j] = b->callee_call_flow.data[k];
    p->callee_return_flow[j] = b->callee_return_flow.data[k];
  }
  for (size_t c = 0; c < C; ++c) p->callee_offset[c + 1] += p->callee_offset[c];
  return WEIR_OK;
}

/* Sorts the keys by (call, procedure, index) in linear time for the usual
 * few callees per call: a stable counting sort by call, then each call's
 * callees by procedure (insertion sort; qsort for an indirect call with
 * many targets). */
static weir_status bucket_by_call(callee_key *keys, size_t K, size_t C) {
  uint32_t *start = calloc(C + 1, sizeof *start);
  callee_key *out = malloc((K ? K : 1) * sizeof *out);
  if (!start || !out) return free(start), free(out), oom();
  for (size_t k = 0; k < K; ++k) start[(keys[k].key >> 32) + 1]++;
  for (size_t c = 0; c < C; ++c) start[c + 1] += start[c];
  for (size_t k = 0; k < K; ++k) out[start[keys[k].key >> 32]++] = keys[k]; /* now the ends */
  for (size_t c = 0, from = 0; c < C; from = start[c++]) {
    callee_key *seg = out + from;
    size_t d = start[c] - from;
    if (d > 32) {
      qsort(seg, d, sizeof *seg, cmp_callee);
      continue;
    }
    for (size_t i = 1; i < d; ++i) {
      callee_key x = seg[i];
      size_t j = i;
      for (; j > 0 && seg[j - 1].key > x.key; --j) seg[j] = seg[j - 1];
      seg[j] = x;
    }
  }
  memcpy(keys, out, K * sizeof *keys);
  free(out);
  free(start);
  return WEIR_OK;
}

static weir_status sort_callees(ifds_builder *b, weir_ifds_problem *p, uint32_t *rank) {
  size_t K = b->callee_site.len;
  callee_key *keys = malloc((K ? K : 1) * sizeof *keys);
  if (!keys) return oom();
  for (size_t k = 0; k < K; ++k) {
    uint32_t r = b->node_call[b->callee_site.data[k]];
    keys[k] = (callee_key){(uint64_t)r << 32 | b->callee_proc.data[k], (uint32_t)k};
  }
  weir_status sorted = bucket_by_call(keys, K, p->call_count);
  if (sorted != WEIR_OK) return free(keys), sorted;
  uint32_t dup = UINT32_MAX, dup_first = 0;
  for (size_t j = 1; j < K; ++j)
    if (keys[j].key == keys[j - 1].key &&
        (dup == UINT32_MAX || ifds_builder_tag(b, &b->callee_line, keys[j].index) <
                                  ifds_builder_tag(b, &b->callee_line, dup)))
      dup = keys[j].index, dup_first = keys[j - 1].index;
  weir_status s =
      dup != UINT32_MAX ? duplicate_callee(b, dup, dup_first) : fill_callees(b, p, keys);
  free(keys);
  WEIR_TRY(s);
  return call_without_callee(b, p, rank);
}

weir_status ifds_builder_calls(ifds_builder *b, weir_ifds_problem *p) {
  WEIR_TRY(callee_without_call(b));
  uint32_t *rank = alloc32(b->call_node.len);
  if (!rank) return oom();
  weir_status s = sort_calls(b, p, rank);
  if (s == WEIR_OK) s = sort_callees(b, p, rank);
  free(rank);
  WEIR_TRY(s);
  p->node_call = b->node_call; /* already remapped to the sorted call indices */
  b->node_call = NULL;
  return WEIR_OK;
}
