/* Replica sets: three cpu:N devices standing in for three GPUs, and
 * bit-exact broadcast across devices and backends. */
#include <stdio.h>
#include <stdlib.h>

#include "tests/residency/util.h"

#define REPLICAS 3
#define CHUNK_BYTES 256

typedef struct three_cpus {
  weir_backend *backends[REPLICAS];
} three_cpus;

static three_cpus open_three(void) {
  three_cpus cpus;
  char spec[16];
  for (int i = 0; i < REPLICAS; ++i) {
    snprintf(spec, sizeof spec, "cpu:%d", i);
    cpus.backends[i] = util_open(spec);
  }
  return cpus;
}

static void close_three(three_cpus *cpus) {
  for (int i = 0; i < REPLICAS; ++i) weir_backend_close(cpus->backends[i]);
}

START_TEST(three_cpu_devices_each_own_a_replica) {
  three_cpus cpus = open_three();
  weir_replica_set *set = NULL;
  CHECK_OK(weir_replica_set_create(cpus.backends, REPLICAS, CHUNK_BYTES, &set));
  ck_assert_uint_eq(weir_replica_set_count(set), REPLICAS);
  ck_assert_uint_eq(weir_replica_set_bytes(set), CHUNK_BYTES);
  void *pointers[REPLICAS];
  for (int i = 0; i < REPLICAS; ++i) {
    weir_device_info info = WEIR_DEVICE_INFO_INIT;
    CHECK_OK(weir_backend_device_info(cpus.backends[i], &info));
    ck_assert_int_eq(info.dl_device_type, 1 /* kDLCPU */);
    ck_assert_int_eq(info.dl_device_id, i);
    weir_chunk *chunk = NULL;
    CHECK_OK(weir_replica_set_chunk(set, (size_t)i, &chunk));
    ck_assert_ptr_eq(weir_chunk_backend(chunk), cpus.backends[i]);
    ck_assert_ptr_eq(weir_chunk_buffer(chunk).owner, cpus.backends[i]);
    ck_assert_uint_eq(weir_chunk_bytes(chunk), CHUNK_BYTES);
    ck_assert_int_eq(weir_chunk_owns_memory(chunk), 1);
    uint64_t size = 0;
    CHECK_OK(weir_buffer_size(cpus.backends[i], weir_chunk_buffer(chunk), &size));
    ck_assert_uint_eq(size, CHUNK_BYTES);
    /* Each device holds exactly its own replica's bytes. */
    weir_backend_stats stats;
    weir_backend_get_stats(cpus.backends[i], &stats);
    ck_assert_uint_eq(stats.live_buffers, 1);
    ck_assert_uint_eq(stats.resident_bytes, CHUNK_BYTES);
    CHECK_OK(weir_buffer_export_pointer(cpus.backends[i], weir_chunk_buffer(chunk), &pointers[i]));
    for (int j = 0; j < i; ++j) ck_assert_ptr_ne(pointers[i], pointers[j]);
  }
  /* Separate memory: writing replica 1 leaves replicas 0 and 2 alone. */
  unsigned char zeros[CHUNK_BYTES] = {0}, ones[CHUNK_BYTES];
  memset(ones, 0xFF, sizeof ones);
  weir_chunk *chunks[REPLICAS];
  for (int i = 0; i < REPLICAS; ++i) {
    CHECK_OK(weir_replica_set_chunk(set, (size_t)i, &chunks[i]));
    util_upload(chunks[i], zeros, CHUNK_BYTES);
  }
  util_upload(chunks[1], ones, CHUNK_BYTES);
  for (int i = 0; i < REPLICAS; ++i) {
    unsigned char *got = util_download(chunks[i]);
    ck_assert_int_eq(memcmp(got, i == 1 ? ones : zeros, CHUNK_BYTES), 0);
    free(got);
  }
  CHECK_OK(weir_replica_set_destroy(set));
  for (int i = 0; i < REPLICAS; ++i) ck_assert_uint_eq(util_live_buffers(cpus.backends[i]), 0);
  close_three(&cpus);
}
END_TEST

/* Broadcast `bytes` random bytes from a chunk on backends[0] into a replica
 * set over all backends (the source is a separate chunk, then a replica). */
static void check_broadcast(weir_backend *const *backends, size_t count, uint64_t bytes,
                            uint64_t staging_bytes) {
  weir_stream_transport_options options = {.staging_bytes = staging_bytes};
  weir_transport *transport = NULL;
  CHECK_OK(weir_stream_transport_create(&options, &transport));
  weir_replica_set *set = NULL;
  CHECK_OK(weir_replica_set_create(backends, count, bytes, &set));
  unsigned char *expected = malloc(bytes);
  ck_assert_ptr_nonnull(expected);
  weir_chunk *source = NULL;
  CHECK_OK(weir_chunk_allocate(backends[0], bytes, &source));
  for (uint64_t round = 0; round < 2; ++round) {
    weir_chunk *from = source;
    if (round == 1) CHECK_OK(weir_replica_set_chunk(set, count - 1, &from));
    util_fill_random(expected, bytes, 1000 + round + bytes);
    util_upload(from, expected, bytes);
    CHECK_OK(weir_replica_set_broadcast(set, transport, from));
    for (size_t i = 0; i < count; ++i) {
      weir_chunk *replica = NULL;
      CHECK_OK(weir_replica_set_chunk(set, i, &replica));
      unsigned char *got = util_download(replica);
      ck_assert_msg(memcmp(got, expected, bytes) == 0,
                    "replica %zu (%s) differs after broadcast round %llu of %llu bytes", i,
                    weir_backend_id(backends[i]), (unsigned long long)round,
                    (unsigned long long)bytes);
      free(got);
    }
  }
  free(expected);
  CHECK_OK(weir_chunk_release(source));
  CHECK_OK(weir_replica_set_destroy(set));
  weir_transport_destroy(transport);
}

START_TEST(broadcast_is_bit_exact_across_cpu_devices) {
  three_cpus cpus = open_three();
  check_broadcast(cpus.backends, REPLICAS, CHUNK_BYTES, 0);
  /* Larger than the staging buffer: the copy goes in pieces, the last short. */
  check_broadcast(cpus.backends, REPLICAS, 3 * 4096 + 17, 4096);
  close_three(&cpus);
}
END_TEST

START_TEST(broadcast_is_bit_exact_across_cpu_and_vulkan) {
  weir_backend *vulkan = NULL;
  if (weir_backend_open("vulkan", &vulkan) != WEIR_OK) {
    printf("SKIP residency:broadcast cpu<->vulkan: %s\n", weir_last_error());
    /* The cross-instance staging path still runs, between two cpu devices. */
    weir_backend *pair[2] = {util_open("cpu:0"), util_open("cpu:1")};
    check_broadcast(pair, 2, 100003, 8192);
    weir_backend_close(pair[0]);
    weir_backend_close(pair[1]);
    return;
  }
  weir_backend *cpu = util_open("cpu:0");
  weir_backend *forward[2] = {cpu, vulkan}, *backward[2] = {vulkan, cpu};
  check_broadcast(forward, 2, CHUNK_BYTES, 0);
  check_broadcast(backward, 2, 100003, 8192);
  weir_backend_close(cpu);
  weir_backend_close(vulkan);
}
END_TEST

START_TEST(replica_sets_refuse_bad_input) {
  three_cpus cpus = open_three();
  weir_replica_set *set = NULL;
  weir_backend *twice[2] = {cpus.backends[0], cpus.backends[0]};
  CHECK_FAILS(weir_replica_set_create(twice, 2, 64, &set), WEIR_ERR_INVALID_ARGUMENT);
  ck_assert_ptr_null(set);
  CHECK_FAILS(weir_replica_set_create(cpus.backends, 0, 64, &set), WEIR_ERR_INVALID_ARGUMENT);
  weir_backend *with_null[2] = {cpus.backends[0], NULL};
  CHECK_FAILS(weir_replica_set_create(with_null, 2, 64, &set), WEIR_ERR_INVALID_ARGUMENT);
  ck_assert_uint_eq(util_live_buffers(cpus.backends[0]), 0);

  CHECK_OK(weir_replica_set_create(cpus.backends, REPLICAS, 64, &set));
  weir_chunk *chunk = NULL;
  CHECK_FAILS(weir_replica_set_chunk(set, REPLICAS, &chunk), WEIR_ERR_OUT_OF_RANGE);
  weir_transport *transport = NULL;
  CHECK_OK(weir_stream_transport_create(NULL, &transport));
  weir_chunk *wrong_size = NULL;
  CHECK_OK(weir_chunk_allocate(cpus.backends[0], 65, &wrong_size));
  CHECK_FAILS(weir_replica_set_broadcast(set, transport, wrong_size), WEIR_ERR_INVALID_ARGUMENT);
  CHECK_OK(weir_replica_set_chunk(set, 0, &chunk));
  CHECK_FAILS(weir_replica_set_broadcast(set, NULL, chunk), WEIR_ERR_INVALID_ARGUMENT);
  CHECK_OK(weir_chunk_release(wrong_size));
  CHECK_OK(weir_replica_set_destroy(set));
  weir_transport_destroy(transport);
  close_three(&cpus);
}
END_TEST

Suite *replica_suite(void) {
  Suite *suite = suite_create("residency.replica");
  TCase *tc = tcase_create("replica");
  tcase_add_test(tc, three_cpu_devices_each_own_a_replica);
  tcase_add_test(tc, broadcast_is_bit_exact_across_cpu_devices);
  tcase_add_test(tc, broadcast_is_bit_exact_across_cpu_and_vulkan);
  tcase_add_test(tc, replica_sets_refuse_bad_input);
  suite_add_tcase(suite, tc);
  return suite;
}
