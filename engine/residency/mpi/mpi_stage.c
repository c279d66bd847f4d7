/* Host staging for the MPI collectives (see mpi_stage.h). */
#include <limits.h>
#include <stdlib.h>

#include "engine/residency/mpi/mpi_stage.h"

weir_status weir_mpi_reserve(mpi_transport *t, const char *op, uint64_t bytes) {
  if (bytes < 8) bytes = 8; /* MPI wants a real pointer even for 0 bytes */
  if (bytes <= t->host_bytes) return WEIR_OK;
  unsigned char *grown = bytes <= SIZE_MAX ? realloc(t->host, (size_t)bytes) : NULL;
  if (!grown)
    return weir_fail(WEIR_ERR_OUT_OF_MEMORY,
                     "%s: no host memory for a %llu-byte MPI staging buffer. Fix: free host "
                     "memory or move less per call.",
                     op, (unsigned long long)bytes);
  t->host = grown;
  t->host_bytes = (size_t)bytes;
  return WEIR_OK;
}

weir_status weir_mpi_as_int(const char *op, const char *what, uint64_t value, int *out) {
  if (value <= (uint64_t)INT_MAX) return *out = (int)value, WEIR_OK;
  return weir_fail(WEIR_ERR_UNSUPPORTED,
                   "%s: %s of %llu exceeds MPI's int count limit (%d). Fix: split the call "
                   "into pieces below 2 GiB per rank.",
                   op, what, (unsigned long long)value, INT_MAX);
}

weir_status weir_mpi_read(const char *op, weir_place place, uint64_t rel, uint64_t bytes,
                          void *into) {
  if (bytes == 0) return WEIR_OK;
  weir_backend *backend = weir_chunk_backend(place.chunk);
  weir_status status = weir_download_range_into(backend, weir_chunk_buffer(place.chunk),
                                                place.offset + rel, bytes, into);
  if (status != WEIR_OK)
    return weir_fail_context(status, "%s: staging %llu bytes from %s to the host", op,
                             (unsigned long long)bytes, weir_backend_id(backend));
  return WEIR_OK;
}

weir_status weir_mpi_write(const char *op, weir_place place, uint64_t rel, uint64_t bytes,
                           const void *from) {
  if (bytes == 0) return WEIR_OK;
  weir_backend *backend = weir_chunk_backend(place.chunk);
  weir_upload_item item = {.buffer = weir_chunk_buffer(place.chunk), .offset = place.offset + rel,
                           .data = from, .bytes = bytes};
  weir_status status = weir_upload_at_many(backend, &item, 1);
  if (status != WEIR_OK)
    return weir_fail_context(status, "%s: uploading %llu staged bytes to %s", op,
                             (unsigned long long)bytes, weir_backend_id(backend));
  return WEIR_OK;
}
