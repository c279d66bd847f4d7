/* Residency across backends: a replica set on cpu and two Vulkan instances,
 * broadcast from a cpu chunk into the Vulkan chunks and back, bit-exact
 * (through the stream transport: staged pieces smaller than the data). */
#include <stdlib.h>

#include "programs/generic.h"
#include "tests/vulkan/vk_test.h"
#include "weir/residency.h"

static void assert_chunk_equals(weir_chunk *chunk, const unsigned char *want, uint64_t bytes,
                                const char *what) {
  uint64_t got_bytes = 0;
  unsigned char *got = vt_download(weir_chunk_backend(chunk), weir_chunk_buffer(chunk), &got_bytes);
  ck_assert_uint_eq(got_bytes, bytes);
  uint64_t i = 0; /* each ck_assert is a message to Check's parent: compare first */
  if (memcmp(got, want, bytes) != 0)
    while (got[i] == want[i]) ++i;
  if (memcmp(got, want, bytes) != 0)
    ck_assert_msg(got[i] == want[i], "%s: byte %llu is 0x%02x, expected 0x%02x", what,
                  (unsigned long long)i, got[i], want[i]);
  free(got);
}

START_TEST(broadcast_cpu_vulkan_round_trip) {
  const uint64_t bytes = (3u << 20) + 4 * 1001 + 3; /* several staging pieces, odd tail */
  weir_backend *cpu = vt_open("cpu");
  weir_backend *cpu1 = vt_open("cpu:1");
  weir_backend *vk0 = vt_open("vulkan");
  weir_backend *vk1 = vt_open("vulkan");
  unsigned char *data = malloc(bytes);
  vt_fill_random(data, bytes, 77);

  weir_chunk *source;
  OK(weir_chunk_allocate(cpu, bytes, &source));
  OK(weir_upload(cpu, weir_chunk_buffer(source), data, bytes));
  weir_transport *transport;
  weir_stream_transport_options opts = {.staging_bytes = 1u << 20};
  OK(weir_stream_transport_create(&opts, &transport));
  /* A replica set holds one chunk per device: the second Vulkan instance (on
   * the same device) gets a set of its own. */
  weir_backend *const members[2] = {vk0, cpu1};
  weir_backend *const second[1] = {vk1};
  weir_replica_set *set, *set2;
  OK(weir_replica_set_create(members, 2, bytes, &set));
  OK(weir_replica_set_create(second, 1, bytes, &set2));

  /* cpu -> vulkan, vulkan, cpu:1 */
  OK(weir_replica_set_broadcast(set, transport, source));
  OK(weir_replica_set_broadcast(set2, transport, source));
  weir_chunk *replicas[3];
  OK(weir_replica_set_chunk(set, 0, &replicas[0]));
  OK(weir_replica_set_chunk(set, 1, &replicas[1]));
  OK(weir_replica_set_chunk(set2, 0, &replicas[2]));
  for (size_t i = 0; i < 3; ++i)
    assert_chunk_equals(replicas[i], data, bytes, i == 1 ? "cpu:1 replica" : "vulkan replica");

  /* Change the first Vulkan replica on the device, broadcast it back to
   * every replica and into the cpu source: all equal the host's model. */
  weir_chunk *vk_chunk = replicas[0];
  weir_buffer vb = weir_chunk_buffer(vk_chunk);
  weir_add_u32_push add = {0x01010101u, (uint32_t)(bytes / 4)};
  OK(weir_dispatch(vk0, vt_program(vk0, "add_u32"), &vb, 1, (weir_grid){0, 0, 0}, &add, sizeof add));
  for (uint64_t i = 0; i + 4 <= bytes; i += 4) {
    uint32_t w;
    memcpy(&w, data + i, 4);
    w += add.value;
    memcpy(data + i, &w, 4);
  }
  OK(weir_replica_set_broadcast(set, transport, vk_chunk));
  OK(weir_replica_set_broadcast(set2, transport, vk_chunk));
  weir_replica_set *back;
  weir_backend *const home[1] = {cpu};
  OK(weir_replica_set_create(home, 1, bytes, &back));
  OK(weir_replica_set_broadcast(back, transport, vk_chunk));
  for (size_t i = 0; i < 3; ++i) assert_chunk_equals(replicas[i], data, bytes, "replica after vulkan broadcast");
  weir_chunk *home_chunk;
  OK(weir_replica_set_chunk(back, 0, &home_chunk));
  assert_chunk_equals(home_chunk, data, bytes, "cpu copy of the vulkan chunk");

  OK(weir_replica_set_destroy(back));
  OK(weir_replica_set_destroy(set2));
  OK(weir_replica_set_destroy(set));
  weir_transport_destroy(transport);
  OK(weir_chunk_release(source));
  free(data);
  weir_backend_close(vk1);
  weir_backend_close(vk0);
  weir_backend_close(cpu1);
  weir_backend_close(cpu);
}
END_TEST

Suite *vt_replica_suite(void) {
  Suite *s = suite_create("vulkan-replica");
  TCase *tc = tcase_create("replica");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, broadcast_cpu_vulkan_round_trip);
  suite_add_tcase(s, tc);
  return s;
}
