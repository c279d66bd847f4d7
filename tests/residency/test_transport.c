/* Transports: the stream transport's blocking and asynchronous copies within
 * a backend and across backends (in pieces larger than the staging buffer),
 * its refusals, and a second implementation plugged into the same seam. */
#include <stdlib.h>

#include "tests/residency/util.h"

/* dst[dst_off..] must equal src_data[src_off..] for `bytes`, the rest of dst
 * its earlier contents `before`. */
static void check_copied(weir_chunk *dst, const unsigned char *before, uint64_t dst_offset,
                         const unsigned char *src_data, uint64_t src_offset, uint64_t bytes) {
  unsigned char *got = util_download(dst);
  uint64_t size = weir_chunk_bytes(dst);
  ck_assert_int_eq(memcmp(got, before, dst_offset), 0);
  ck_assert_int_eq(memcmp(got + dst_offset, src_data + src_offset, bytes), 0);
  ck_assert_int_eq(memcmp(got + dst_offset + bytes, before + dst_offset + bytes,
                          size - dst_offset - bytes), 0);
  free(got);
}

/* Copies `bytes` from offset 3 of a fresh src chunk to offset 5 of a fresh
 * dst chunk, blocking (async 0) or asynchronously (async 1). */
static void copy_case(weir_backend *to, weir_backend *from, uint64_t bytes,
                      uint64_t staging_bytes, int async) {
  weir_stream_transport_options options = {.staging_bytes = staging_bytes};
  weir_transport *transport = NULL;
  CHECK_OK(weir_stream_transport_create(&options, &transport));
  ck_assert_str_eq(weir_transport_name(transport), "stream");
  weir_chunk *src = NULL, *dst = NULL;
  CHECK_OK(weir_chunk_allocate(from, bytes + 3, &src));
  CHECK_OK(weir_chunk_allocate(to, bytes + 9, &dst));
  unsigned char *src_data = malloc(bytes + 3), *before = malloc(bytes + 9);
  ck_assert(src_data && before);
  util_fill_random(src_data, bytes + 3, bytes);
  util_fill_random(before, bytes + 9, bytes + 1);
  util_upload(src, src_data, bytes + 3);
  util_upload(dst, before, bytes + 9);
  if (async) {
    weir_transfer transfer;
    CHECK_OK(weir_transport_copy_async(transport, dst, 5, src, 3, bytes, &transfer));
    CHECK_OK(weir_transport_wait(&transfer));
  } else {
    CHECK_OK(weir_transport_copy(transport, dst, 5, src, 3, bytes));
  }
  check_copied(dst, before, 5, src_data, 3, bytes);
  free(src_data);
  free(before);
  CHECK_OK(weir_chunk_release(src));
  CHECK_OK(weir_chunk_release(dst));
  weir_transport_destroy(transport);
}

START_TEST(stream_copies_within_one_backend) {
  weir_backend *cpu = util_open("cpu:0");
  for (int async = 0; async < 2; ++async) {
    copy_case(cpu, cpu, 1, 0, async);
    copy_case(cpu, cpu, 4097, 1024, async); /* staging size is irrelevant here */
  }
  weir_backend_close(cpu);
}
END_TEST

START_TEST(stream_copies_across_backends_in_pieces) {
  weir_backend *a = util_open("cpu:1"), *b = util_open("cpu:2");
  for (int async = 0; async < 2; ++async) {
    copy_case(a, b, 1, 0, async);
    copy_case(a, b, 1000, 1000, async);         /* exactly one piece */
    copy_case(b, a, 10007, 1000, async);        /* 11 pieces, the last 7 bytes */
  }
  /* Larger than the 4 MiB default staging buffer. */
  copy_case(a, b, 9u * 1024u * 1024u + 5u, 0, 0);
  copy_case(b, a, 9u * 1024u * 1024u + 5u, 0, 1);
  weir_backend_close(a);
  weir_backend_close(b);
}
END_TEST

START_TEST(stream_refuses_bad_copies) {
  weir_backend *cpu = util_open("cpu"), *other = util_open("cpu:1");
  weir_transport *transport = NULL;
  CHECK_OK(weir_stream_transport_create(NULL, &transport));
  weir_chunk *a = NULL, *b = NULL;
  CHECK_OK(weir_chunk_allocate(cpu, 64, &a));
  CHECK_OK(weir_chunk_allocate(other, 32, &b));
  unsigned char before[32];
  util_fill_random(before, sizeof before, 9);
  util_upload(b, before, sizeof before);
  weir_transfer transfer;
  CHECK_FAILS(weir_transport_copy(transport, b, 0, a, 0, 33), WEIR_ERR_OUT_OF_RANGE);
  CHECK_FAILS(weir_transport_copy(transport, b, 1, a, 0, 32), WEIR_ERR_OUT_OF_RANGE);
  CHECK_FAILS(weir_transport_copy(transport, a, 0, b, UINT64_MAX, 2), WEIR_ERR_OUT_OF_RANGE);
  CHECK_FAILS(weir_transport_copy_async(transport, b, 0, a, 60, 8, &transfer),
              WEIR_ERR_OUT_OF_RANGE);
  CHECK_FAILS(weir_transport_copy(transport, a, 0, a, 8, 16), WEIR_ERR_INVALID_ARGUMENT);
  CHECK_FAILS(weir_transport_copy(NULL, a, 0, b, 0, 8), WEIR_ERR_INVALID_ARGUMENT);
  CHECK_FAILS(weir_transport_copy(transport, NULL, 0, b, 0, 8), WEIR_ERR_INVALID_ARGUMENT);
  /* Refused copies leave the destination untouched; bytes 0 is a no-op. */
  CHECK_OK(weir_transport_copy(transport, b, 0, a, 0, 0));
  CHECK_OK(weir_transport_copy_async(transport, b, 0, a, 0, 0, &transfer));
  CHECK_OK(weir_transport_wait(&transfer));
  check_copied(b, before, 0, before, 0, 32);
  /* Disjoint ranges of one chunk are fine. */
  CHECK_OK(weir_transport_copy(transport, a, 0, a, 32, 32));
  CHECK_OK(weir_chunk_release(a));
  CHECK_OK(weir_chunk_release(b));
  weir_transport_destroy(transport);
  weir_backend_close(cpu);
  weir_backend_close(other);
}
END_TEST

/* A second transport behind the same seam, as an MPI or NCCL one would be:
 * it counts its calls and delegates the bytes to a stream transport. */
typedef struct counting_transport {
  weir_transport base;
  weir_transport *inner;
  int copies, async_copies, waits, destroyed;
} counting_transport;

static weir_status counting_copy(weir_transport *self, weir_chunk *dst, uint64_t dst_offset,
                                 weir_chunk *src, uint64_t src_offset, uint64_t bytes) {
  counting_transport *t = (counting_transport *)self;
  ++t->copies;
  return weir_transport_copy(t->inner, dst, dst_offset, src, src_offset, bytes);
}

static weir_status counting_copy_async(weir_transport *self, weir_chunk *dst,
                                       uint64_t dst_offset, weir_chunk *src, uint64_t src_offset,
                                       uint64_t bytes, weir_transfer *out) {
  counting_transport *t = (counting_transport *)self;
  ++t->async_copies;
  WEIR_TRY(weir_transport_copy_async(t->inner, dst, dst_offset, src, src_offset, bytes, out));
  out->token = (uint64_t)(uintptr_t)out->transport; /* remember the inner transfer's owner */
  out->transport = self;
  return WEIR_OK;
}

static weir_status counting_wait(weir_transport *self, const weir_transfer *transfer) {
  counting_transport *t = (counting_transport *)self;
  ++t->waits;
  weir_transfer inner = *transfer;
  inner.transport = (weir_transport *)(uintptr_t)transfer->token;
  return weir_transport_wait(&inner);
}

static void counting_destroy(weir_transport *self) {
  ((counting_transport *)self)->destroyed = 1;
}

START_TEST(broadcast_goes_through_any_transport) {
  static const weir_transport_ops ops = {"counting", counting_copy, counting_copy_async,
                                         counting_wait, counting_destroy, NULL};
  counting_transport counting = {.base = {&ops, NULL}};
  CHECK_OK(weir_stream_transport_create(NULL, &counting.inner));
  weir_backend *backends[3] = {util_open("cpu:0"), util_open("cpu:1"), util_open("cpu:2")};
  weir_replica_set *set = NULL;
  CHECK_OK(weir_replica_set_create(backends, 3, 1000, &set));
  weir_chunk *source = NULL;
  CHECK_OK(weir_replica_set_chunk(set, 1, &source));
  unsigned char data[1000];
  util_fill_random(data, sizeof data, 77);
  util_upload(source, data, sizeof data);
  CHECK_OK(weir_replica_set_broadcast(set, &counting.base, source));
  ck_assert_int_eq(counting.async_copies, 2); /* every replica but the source */
  ck_assert_int_eq(counting.waits, 2);
  ck_assert_int_eq(counting.copies, 0);
  for (size_t i = 0; i < 3; ++i) {
    weir_chunk *replica = NULL;
    CHECK_OK(weir_replica_set_chunk(set, i, &replica));
    unsigned char *got = util_download(replica);
    ck_assert_int_eq(memcmp(got, data, sizeof data), 0);
    free(got);
  }
  ck_assert_str_eq(weir_transport_name(&counting.base), "counting");
  weir_transport_destroy(&counting.base);
  ck_assert_int_eq(counting.destroyed, 1);
  weir_transport_destroy(counting.inner);
  CHECK_OK(weir_replica_set_destroy(set));
  for (int i = 0; i < 3; ++i) weir_backend_close(backends[i]);
}
END_TEST

Suite *transport_suite(void) {
  Suite *suite = suite_create("residency.transport");
  TCase *tc = tcase_create("transport");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, stream_copies_within_one_backend);
  tcase_add_test(tc, stream_copies_across_backends_in_pieces);
  tcase_add_test(tc, stream_refuses_bad_copies);
  tcase_add_test(tc, broadcast_goes_through_any_transport);
  suite_add_tcase(suite, tc);
  return suite;
}
