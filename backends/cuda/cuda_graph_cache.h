/* A small LRU cache of instantiated CUDA graphs, keyed by the exact bytes of
 * what they launch (for each step: function, grid, block and the full
 * weir_cuda_args, plus the unroll factor). Equal keys launch equal work, so
 * a hit can be replayed without capturing again. Pure host logic (graphs are
 * opaque pointers destroyed through a callback), so it is unit-tested
 * without a GPU. */
#ifndef WEIR_BACKENDS_CUDA_GRAPH_CACHE_H
#define WEIR_BACKENDS_CUDA_GRAPH_CACHE_H

#include <stddef.h>
#include <stdint.h>

#include "weir/status.h"

#define WEIR_CUDA_GRAPH_CACHE_SLOTS 16

typedef struct weir_cuda_graph_entry {
  uint64_t hash;
  unsigned char *key; /* NULL: free slot */
  size_t key_bytes;
  void *graph; /* CUgraph */
  void *exec;  /* CUgraphExec */
  uint64_t last_use;
} weir_cuda_graph_entry;

typedef void (*weir_cuda_graph_destroy_fn)(void *context, void *graph, void *exec);

typedef struct weir_cuda_graph_cache {
  weir_cuda_graph_entry entries[WEIR_CUDA_GRAPH_CACHE_SLOTS];
  uint64_t clock;
  weir_cuda_graph_destroy_fn destroy;
  void *context;
  /* Reused key-building buffer: no allocation per call once it has grown. */
  unsigned char *scratch;
  size_t scratch_bytes;
  uint64_t hits, misses, evictions;
} weir_cuda_graph_cache;

void weir_cuda_graph_cache_init(weir_cuda_graph_cache *cache, weir_cuda_graph_destroy_fn destroy,
                                void *context);
/* Destroys every graph and frees the keys (the cache can be used again). */
void weir_cuda_graph_cache_clear(weir_cuda_graph_cache *cache);
/* clear + frees the scratch buffer. */
void weir_cuda_graph_cache_free(weir_cuda_graph_cache *cache);

/* The scratch buffer, grown to at least `bytes`. */
weir_status weir_cuda_graph_cache_scratch(weir_cuda_graph_cache *cache, size_t bytes,
                                          unsigned char **out);

uint64_t weir_cuda_graph_key_hash(const unsigned char *key, size_t bytes);

/* The entry whose key equals key[0..bytes), or NULL; a hit becomes the most
 * recently used. */
weir_cuda_graph_entry *weir_cuda_graph_cache_find(weir_cuda_graph_cache *cache,
                                                  const unsigned char *key, size_t bytes);
/* Stores a copy of the key with its graph, evicting (destroying) the least
 * recently used entry when full. On failure the graph is destroyed too. */
weir_status weir_cuda_graph_cache_insert(weir_cuda_graph_cache *cache, const unsigned char *key,
                                         size_t bytes, void *graph, void *exec,
                                         weir_cuda_graph_entry **out);

#endif
