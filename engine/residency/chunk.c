/* Chunks: a resident buffer, its backend, its size and who owns the memory,
 * behind a reference count so that a DLPack export can outlive its creator's
 * reference. */
#include <stdatomic.h>
#include <stdlib.h>

#include "weir/residency.h"

/* How the last release gets rid of the buffer. */
typedef enum chunk_kind {
  CHUNK_OWNED,    /* weir allocated it: weir_free frees the memory */
  CHUNK_BORROWED, /* adopted without ownership: the caller frees it */
  CHUNK_EXTERNAL  /* imported: weir_free forgets it, on_release tells the owner */
} chunk_kind;

struct weir_chunk {
  atomic_uint refs;
  chunk_kind kind;
  weir_backend *backend;
  weir_buffer buffer;
  uint64_t bytes;
  weir_chunk_release_fn on_release;
  void *release_context;
};

static weir_status chunk_new(weir_backend *backend, weir_buffer buffer, uint64_t bytes,
                             chunk_kind kind, weir_chunk **out) {
  weir_chunk *chunk = calloc(1, sizeof *chunk);
  if (!chunk)
    return weir_fail(WEIR_ERR_OUT_OF_MEMORY,
                     "weir_chunk: could not allocate the %zu-byte chunk record on the host. "
                     "Fix: free host memory.",
                     sizeof *chunk);
  atomic_init(&chunk->refs, 1u);
  chunk->kind = kind;
  chunk->backend = backend;
  weir_backend_retain(backend); /* the chunk (or a DLPack export of it) may outlive the user's handle */
  chunk->buffer = buffer;
  chunk->bytes = bytes;
  *out = chunk;
  return WEIR_OK;
}

static weir_status check_out(const char *op, weir_backend *backend, weir_chunk **out) {
  if (!out)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT, "%s: out is NULL. Fix: pass a weir_chunk **.",
                     op);
  *out = NULL;
  if (!backend)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "%s: backend is NULL. Fix: open one with weir_backend_open.", op);
  return WEIR_OK;
}

weir_status weir_chunk_allocate(weir_backend *backend, uint64_t bytes, weir_chunk **out) {
  WEIR_TRY(check_out("weir_chunk_allocate", backend, out));
  weir_buffer buffer;
  weir_status status = weir_allocate(backend, bytes, &buffer);
  if (status != WEIR_OK)
    return weir_fail_context(status, "weir_chunk_allocate(%llu bytes)",
                             (unsigned long long)bytes);
  status = chunk_new(backend, buffer, bytes, CHUNK_OWNED, out);
  if (status != WEIR_OK) (void)weir_free(backend, buffer);
  return status;
}

weir_status weir_chunk_adopt(weir_backend *backend, weir_buffer buffer, int owns_memory,
                             weir_chunk **out) {
  WEIR_TRY(check_out("weir_chunk_adopt", backend, out));
  uint64_t bytes = 0;
  weir_status status = weir_buffer_size(backend, buffer, &bytes);
  if (status != WEIR_OK) return weir_fail_context(status, "weir_chunk_adopt");
  return chunk_new(backend, buffer, bytes, owns_memory ? CHUNK_OWNED : CHUNK_BORROWED, out);
}

weir_status weir_chunk_import_external(weir_backend *backend, void *pointer, uint64_t bytes,
                                       weir_chunk_release_fn on_release, void *context,
                                       weir_chunk **out) {
  WEIR_TRY(check_out("weir_chunk_import_external", backend, out));
  weir_buffer buffer;
  weir_status status = weir_buffer_import_external(backend, pointer, bytes, &buffer);
  if (status != WEIR_OK)
    return weir_fail_context(status, "weir_chunk_import_external(%p, %llu bytes)", pointer,
                             (unsigned long long)bytes);
  status = chunk_new(backend, buffer, bytes, CHUNK_EXTERNAL, out);
  if (status != WEIR_OK) {
    (void)weir_free(backend, buffer);
    return status;
  }
  (*out)->on_release = on_release;
  (*out)->release_context = context;
  return WEIR_OK;
}

void weir_chunk_retain(weir_chunk *chunk) {
  if (chunk) atomic_fetch_add_explicit(&chunk->refs, 1u, memory_order_relaxed);
}

weir_status weir_chunk_release(weir_chunk *chunk) {
  if (!chunk) return WEIR_OK;
  /* acq_rel: the thread that frees must see every write made under the
   * references that were dropped before. */
  if (atomic_fetch_sub_explicit(&chunk->refs, 1u, memory_order_acq_rel) != 1u) return WEIR_OK;
  weir_status status = WEIR_OK;
  if (chunk->kind != CHUNK_BORROWED) status = weir_free(chunk->backend, chunk->buffer);
  if (chunk->on_release) chunk->on_release(chunk->release_context);
  weir_backend_close(chunk->backend); /* drops the chunk's reference */
  free(chunk);
  return status;
}

weir_backend *weir_chunk_backend(const weir_chunk *chunk) { return chunk ? chunk->backend : NULL; }

weir_buffer weir_chunk_buffer(const weir_chunk *chunk) {
  return chunk ? chunk->buffer : WEIR_NULL_BUFFER;
}

uint64_t weir_chunk_bytes(const weir_chunk *chunk) { return chunk ? chunk->bytes : 0; }

int weir_chunk_owns_memory(const weir_chunk *chunk) {
  return chunk && chunk->kind == CHUNK_OWNED;
}

uint32_t weir_chunk_ref_count(const weir_chunk *chunk) {
  return chunk ? atomic_load_explicit(&((weir_chunk *)chunk)->refs, memory_order_relaxed) : 0u;
}
