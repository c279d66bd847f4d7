#include "tests/collectives/coll_util.h"

#include <stdlib.h>

/* Every fixture opens its extra backends the same way (fixture.h). */
weir_backend *fixture_backend(const char *spec) {
  weir_backend *backend = NULL;
  weir_status status = weir_backend_open(spec, &backend);
  ck_assert_msg(status == WEIR_OK, "weir_backend_open(\"%s\") -> %s: %s", spec,
                weir_status_name(status), weir_last_error());
  return backend;
}

unsigned char coll_pattern(uint32_t rank, uint64_t index, uint32_t salt) {
  return (unsigned char)(rank * 31u + index * 7u + (index >> 8) + salt * 13u + 1u);
}

unsigned char *coll_expected(uint32_t rank, uint64_t bytes, uint32_t salt) {
  unsigned char *data = malloc(bytes ? bytes : 1);
  ck_assert_ptr_nonnull(data);
  for (uint64_t k = 0; k < bytes; ++k) data[k] = coll_pattern(rank, k, salt);
  return data;
}

weir_chunk *coll_chunk(const coll_fixture *f, uint32_t i, uint64_t bytes, uint32_t salt) {
  weir_chunk *chunk = NULL;
  CHECK_OK(weir_chunk_allocate(f->backends[i], bytes, &chunk));
  unsigned char *data = coll_expected(f->first + i, bytes, salt);
  CHECK_OK(weir_upload(f->backends[i], weir_chunk_buffer(chunk), data, bytes));
  free(data);
  return chunk;
}

void coll_check_chunk(const coll_fixture *f, weir_chunk *chunk, unsigned char *expected,
                      const char *what) {
  uint64_t bytes = weir_chunk_bytes(chunk), first_bad = bytes;
  unsigned char *got = malloc(bytes);
  ck_assert_ptr_nonnull(got);
  CHECK_OK(weir_download_range_into(weir_chunk_backend(chunk), weir_chunk_buffer(chunk), 0, bytes,
                                    got));
  for (uint64_t k = 0; k < bytes && first_bad == bytes; ++k)
    if (got[k] != expected[k]) first_bad = k;
  unsigned got_byte = first_bad < bytes ? got[first_bad] : 0;
  unsigned want_byte = first_bad < bytes ? expected[first_bad] : 0;
  free(got);
  free(expected);
  CHECK_AGREED(f, first_bad == bytes,
               "%s (%s): byte %llu of %llu is %u, expected %u. Fix: none, a bug.", what, f->name,
               (unsigned long long)first_bad, (unsigned long long)bytes, got_byte, want_byte);
}

void coll_release(weir_chunk **chunks, uint32_t count) {
  for (uint32_t i = 0; i < count; ++i) CHECK_OK(weir_chunk_release(chunks[i]));
}
