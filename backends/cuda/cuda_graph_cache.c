/* LRU cache of instantiated CUDA graphs (see cuda_graph_cache.h). */
#include "backends/cuda/cuda_graph_cache.h"

#include <stdlib.h>
#include <string.h>

void weir_cuda_graph_cache_init(weir_cuda_graph_cache *cache, weir_cuda_graph_destroy_fn destroy,
                                void *context) {
  memset(cache, 0, sizeof *cache);
  cache->destroy = destroy;
  cache->context = context;
}

static void drop_entry(weir_cuda_graph_cache *cache, weir_cuda_graph_entry *e) {
  if (!e->key) return;
  if (cache->destroy) cache->destroy(cache->context, e->graph, e->exec);
  free(e->key);
  memset(e, 0, sizeof *e);
}

void weir_cuda_graph_cache_clear(weir_cuda_graph_cache *cache) {
  for (size_t i = 0; i < WEIR_CUDA_GRAPH_CACHE_SLOTS; ++i) drop_entry(cache, &cache->entries[i]);
}

void weir_cuda_graph_cache_free(weir_cuda_graph_cache *cache) {
  weir_cuda_graph_cache_clear(cache);
  free(cache->scratch);
  cache->scratch = NULL;
  cache->scratch_bytes = 0;
}

weir_status weir_cuda_graph_cache_scratch(weir_cuda_graph_cache *cache, size_t bytes,
                                          unsigned char **out) {
  if (bytes > cache->scratch_bytes) {
    size_t grown = cache->scratch_bytes ? cache->scratch_bytes : 4096;
    while (grown < bytes) grown *= 2;
    unsigned char *p = realloc(cache->scratch, grown);
    if (!p)
      return weir_fail(WEIR_ERR_OUT_OF_MEMORY,
                       "cuda: growing the graph-key buffer to %zu bytes failed. Fix: free host "
                       "memory or use fewer steps per repeated group",
                       grown);
    cache->scratch = p;
    cache->scratch_bytes = grown;
  }
  *out = cache->scratch;
  return WEIR_OK;
}

/* FNV-1a, 64 bit: keys are compared in full on a hash match, so the hash
 * only has to spread, not to be collision-proof. */
uint64_t weir_cuda_graph_key_hash(const unsigned char *key, size_t bytes) {
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < bytes; ++i) {
    h ^= key[i];
    h *= 1099511628211ull;
  }
  return h;
}

weir_cuda_graph_entry *weir_cuda_graph_cache_find(weir_cuda_graph_cache *cache,
                                                  const unsigned char *key, size_t bytes) {
  uint64_t h = weir_cuda_graph_key_hash(key, bytes);
  for (size_t i = 0; i < WEIR_CUDA_GRAPH_CACHE_SLOTS; ++i) {
    weir_cuda_graph_entry *e = &cache->entries[i];
    if (e->key && e->hash == h && e->key_bytes == bytes && memcmp(e->key, key, bytes) == 0) {
      e->last_use = ++cache->clock;
      cache->hits++;
      return e;
    }
  }
  cache->misses++;
  return NULL;
}

/* A free slot, else the least recently used one after destroying it. */
static weir_cuda_graph_entry *claim_slot(weir_cuda_graph_cache *cache) {
  weir_cuda_graph_entry *oldest = &cache->entries[0];
  for (size_t i = 0; i < WEIR_CUDA_GRAPH_CACHE_SLOTS; ++i) {
    weir_cuda_graph_entry *e = &cache->entries[i];
    if (!e->key) return e;
    if (e->last_use < oldest->last_use) oldest = e;
  }
  drop_entry(cache, oldest);
  cache->evictions++;
  return oldest;
}

weir_status weir_cuda_graph_cache_insert(weir_cuda_graph_cache *cache, const unsigned char *key,
                                         size_t bytes, void *graph, void *exec,
                                         weir_cuda_graph_entry **out) {
  unsigned char *copy = malloc(bytes ? bytes : 1);
  if (!copy) {
    if (cache->destroy) cache->destroy(cache->context, graph, exec);
    return weir_fail(WEIR_ERR_OUT_OF_MEMORY,
                     "cuda: storing a graph key of %zu bytes failed. Fix: free host memory",
                     bytes);
  }
  memcpy(copy, key, bytes);
  weir_cuda_graph_entry *e = claim_slot(cache);
  e->hash = weir_cuda_graph_key_hash(key, bytes);
  e->key = copy;
  e->key_bytes = bytes;
  e->graph = graph;
  e->exec = exec;
  e->last_use = ++cache->clock;
  if (out) *out = e;
  return WEIR_OK;
}
