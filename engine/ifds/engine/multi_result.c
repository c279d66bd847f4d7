/* The result of the IFDS engine across devices (multi.h): each member's
 * owned path edges (a member's log may also hold exit edges it received),
 * across processes sent to rank 0 with one alltoallv, and the result built
 * there. */
#include <stdlib.h>
#include <string.h>

#include "engine/ifds/engine/multi.h"

/* Appends member i's owned keys to *keys (grown with realloc). */
static weir_status owned_keys(multi *mt, uint32_t i, uint64_t **keys, uint64_t *count) {
  ifds_engine *e = &mt->m[i].e;
  const void *log; /* 32- or 64-bit keys (key_words) */
  void *copy;
  WEIR_TRY(weir_ifds_engine_log_keys(e, &log, &copy));
  const uint32_t *log32 = log;
  const uint64_t *log64 = log;
  uint64_t n = e->ctrl[WEIR_IFDS_C_PLOG];
  uint64_t *grown = realloc(*keys, (*count + n + 1u) * sizeof **keys);
  if (!grown) {
    free(copy);
    return weir_fail(WEIR_ERR_OUT_OF_MEMORY,
                     "IFDS engine across devices: no host memory for %llu path edges. Fix: "
                     "free memory.", (unsigned long long)(*count + n));
  }
  *keys = grown;
  uint64_t before = *count;
  for (uint64_t k = 0; k < n; ++k) {
    uint64_t key = e->key_words == 1u ? log32[k] : log64[k];
    if (weir_ifds_multi_key_owner(mt, e, key) == e->device) grown[(*count)++] = key;
  }
  mt->m[i].owned = *count - before;
  free(copy);
  return WEIR_OK;
}

/* Across processes: every member's owned keys to member 0 with one
 * alltoallv (everyone sends to rank 0 only). */
static weir_status keys_to_rank0(multi *mt, uint64_t **keys, uint64_t *count) {
  uint32_t me = mt->first; /* one member per process across processes */
  for (uint64_t c = 0; c < mt->width; ++c) weir_ifds_multi_row(mt, me)[c] = 0;
  weir_ifds_multi_row(mt, me)[0] = *count;
  WEIR_TRY(weir_ifds_multi_gather_rows(mt));
  uint64_t total = 0;
  for (uint32_t r = 0; r < mt->size; ++r) total += weir_ifds_multi_row(mt, r)[0];
  weir_backend *b = mt->m[0].e.backend;
  weir_chunk *send = NULL, *recv = NULL;
  weir_status st = weir_chunk_allocate(b, 8u * (*count ? *count : 1u), &send);
  if (st == WEIR_OK)
    st = weir_chunk_allocate(b, me == 0 ? 8u * (total ? total : 1u) : 8u, &recv);
  if (st == WEIR_OK && *count)
    st = weir_upload(b, weir_chunk_buffer(send), *keys, 8u * *count);
  st = weir_group_agree(mt->group, st);
  for (uint32_t j = 0; j < mt->size; ++j) {
    mt->send_counts[j] = j == 0 ? 8u * *count : 0u;
    mt->send_displs[j] = 0;
  }
  uint64_t at = 0;
  for (uint32_t j = 0; j < mt->size; ++j) {
    mt->recv_counts[j] = me == 0 ? 8u * weir_ifds_multi_row(mt, j)[0] : 0u;
    mt->recv_displs[j] = 8u * at;
    at += me == 0 ? weir_ifds_multi_row(mt, j)[0] : 0u;
  }
  weir_place sp = {send, 0}, rp = {recv, 0};
  if (st == WEIR_OK)
    st = weir_alltoallv(mt->group, &sp, mt->send_counts, mt->send_displs, &rp, mt->recv_counts,
                        mt->recv_displs);
  if (st == WEIR_OK && me == 0) {
    uint64_t *all = realloc(*keys, (total ? total : 1u) * sizeof *all);
    if (!all)
      st = weir_fail(WEIR_ERR_OUT_OF_MEMORY, "IFDS engine across ranks: no host memory for "
                     "the %llu path edges of the result. Fix: free memory.",
                     (unsigned long long)total);
    else {
      *keys = all;
      *count = total;
      if (total) st = weir_download_into(b, weir_chunk_buffer(recv), all, 8u * total);
    }
  }
  weir_chunk_release(send);
  weir_chunk_release(recv);
  return st;
}

weir_status weir_ifds_multi_collect(multi *mt, weir_ifds_result *out, uint64_t *path_edges) {
  uint64_t *keys = NULL, count = 0;
  weir_status st = WEIR_OK;
  for (uint32_t i = 0; i < mt->local && st == WEIR_OK; ++i) st = owned_keys(mt, i, &keys, &count);
  st = weir_group_agree(mt->group, st);
  if (st == WEIR_OK && mt->local < mt->size) st = keys_to_rank0(mt, &keys, &count);
  st = weir_group_agree(mt->group, st);
  if (st == WEIR_OK && mt->first == 0) {
    /* Path edges are owned once: the result's count is the keys' count. */
    ifds_engine e0 = mt->m[0].e;
    e0.to_old = mt->to_old;
    e0.key_words = 2u; /* the owned keys were widened to 64 bits on the host */
    st = weir_ifds_engine_holds(&e0, keys, count, out);
    *path_edges = count;
  }
  free(keys);
  if (mt->local < mt->size) {
    /* Every process reports the group's path edges. */
    for (uint64_t c = 0; c < mt->width; ++c) weir_ifds_multi_row(mt, mt->first)[c] = 0;
    weir_ifds_multi_row(mt, mt->first)[0] = mt->first == 0 ? *path_edges : 0u;
    weir_status g = weir_group_agree(mt->group, st);
    if (g == WEIR_OK) g = weir_ifds_multi_gather_rows(mt);
    if (g == WEIR_OK) *path_edges = weir_ifds_multi_row(mt, 0)[0];
    st = g;
  }
  return st;
}
