#include "tests/residency/util.h"

#include <stdlib.h>

weir_backend *util_open(const char *spec) {
  weir_backend *backend = NULL;
  weir_status status = weir_backend_open(spec, &backend);
  ck_assert_msg(status == WEIR_OK, "weir_backend_open(\"%s\") -> %s: %s", spec,
                weir_status_name(status), weir_last_error());
  return backend;
}

void util_fill_random(void *data, size_t bytes, uint64_t seed) {
  unsigned char *out = data;
  uint64_t x = seed * 0x9E3779B97F4A7C15ull + 1;
  for (size_t i = 0; i < bytes; ++i) {
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    out[i] = (unsigned char)((x * 0x2545F4914F6CDD1Dull) >> 56);
  }
}

unsigned char *util_download(weir_chunk *chunk) {
  uint64_t bytes = weir_chunk_bytes(chunk);
  unsigned char *data = malloc(bytes);
  ck_assert_ptr_nonnull(data);
  CHECK_OK(weir_download_range_into(weir_chunk_backend(chunk), weir_chunk_buffer(chunk), 0, bytes,
                                    data));
  return data;
}

void util_upload(weir_chunk *chunk, const void *data, uint64_t bytes) {
  CHECK_OK(weir_upload(weir_chunk_backend(chunk), weir_chunk_buffer(chunk), data, bytes));
}

uint64_t util_live_buffers(weir_backend *backend) {
  weir_backend_stats stats;
  weir_backend_get_stats(backend, &stats);
  return stats.live_buffers;
}
