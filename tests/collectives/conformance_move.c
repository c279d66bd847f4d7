/* Conformance: the collectives that move bytes (broadcast, scatter, gather,
 * allgather in and out of place, alltoallv with zero and uneven counts). Each
 * member checks its whole chunk: the bytes written and the bytes around. */
#include "tests/collectives/coll_util.h"
#include "tests/collectives/conformance.h"

#define MAXL WEIR_GROUP_MAX_LOCAL

START_TEST(broadcast_copies_the_roots_range) {
  coll_fixture f;
  if (!fixture_open(_i, &f)) return;
  const uint64_t bytes = 1000, off = 8, size = 1024;
  uint32_t root = f.size - 1;
  weir_chunk *c[MAXL];
  weir_place p[MAXL];
  for (uint32_t i = 0; i < f.local; ++i) {
    c[i] = coll_chunk(&f, i, size, 1);
    p[i] = (weir_place){c[i], off};
  }
  CHECK_OK(weir_broadcast(f.group, root, p, bytes));
  for (uint32_t i = 0; i < f.local; ++i) {
    unsigned char *want = coll_expected(f.first + i, size, 1);
    for (uint64_t k = off; k < off + bytes; ++k) want[k] = coll_pattern(root, k, 1);
    coll_check_chunk(&f, c[i], want, "broadcast");
  }
  coll_release(c, f.local);
  fixture_close(&f);
}
END_TEST

START_TEST(scatter_hands_each_member_its_piece) {
  coll_fixture f;
  if (!fixture_open(_i, &f)) return;
  const uint64_t bytes = 333;
  uint32_t root = 0;
  weir_chunk *recv[MAXL], *send = NULL;
  weir_place s[MAXL] = {{0}}, r[MAXL];
  for (uint32_t i = 0; i < f.local; ++i) {
    recv[i] = coll_chunk(&f, i, bytes + 5, 3);
    r[i] = (weir_place){recv[i], 5};
    if (f.first + i == root) {
      send = coll_chunk(&f, i, f.size * bytes + 16, 2);
      s[i] = (weir_place){send, 16};
    }
  }
  CHECK_OK(weir_scatter(f.group, root, s, r, bytes));
  for (uint32_t i = 0; i < f.local; ++i) {
    uint32_t rank = f.first + i;
    unsigned char *want = coll_expected(rank, bytes + 5, 3);
    for (uint64_t k = 0; k < bytes; ++k) want[5 + k] = coll_pattern(root, 16 + rank * bytes + k, 2);
    coll_check_chunk(&f, recv[i], want, "scatter");
  }
  if (send) CHECK_OK(weir_chunk_release(send));
  coll_release(recv, f.local);
  fixture_close(&f);
}
END_TEST

START_TEST(gather_collects_every_piece_at_the_root) {
  coll_fixture f;
  if (!fixture_open(_i, &f)) return;
  const uint64_t bytes = 257;
  uint32_t root = f.size > 1 ? 1 : 0;
  weir_chunk *send[MAXL], *recv = NULL;
  weir_place s[MAXL], r[MAXL] = {{0}};
  for (uint32_t i = 0; i < f.local; ++i) {
    send[i] = coll_chunk(&f, i, bytes + 3, 4);
    s[i] = (weir_place){send[i], 3};
    if (f.first + i == root) {
      recv = coll_chunk(&f, i, f.size * bytes + 7, 5);
      r[i] = (weir_place){recv, 7};
    }
  }
  CHECK_OK(weir_gather(f.group, root, s, r, bytes));
  if (recv) {
    unsigned char *want = coll_expected(root, f.size * bytes + 7, 5);
    for (uint32_t m = 0; m < f.size; ++m)
      for (uint64_t k = 0; k < bytes; ++k) want[7 + m * bytes + k] = coll_pattern(m, 3 + k, 4);
    coll_check_chunk(&f, recv, want, "gather at the root");
    CHECK_OK(weir_chunk_release(recv));
  } else {
    CHECK_AGREED(&f, 1, "unused");
  }
  coll_release(send, f.local);
  fixture_close(&f);
}
END_TEST

/* Out of place, then in place (send = recv + rank * bytes). */
START_TEST(allgather_gives_everyone_everything) {
  coll_fixture f;
  if (!fixture_open(_i, &f)) return;
  const uint64_t bytes = 100;
  weir_chunk *send[MAXL], *recv[MAXL];
  weir_place s[MAXL], r[MAXL];
  for (uint32_t i = 0; i < f.local; ++i) {
    send[i] = coll_chunk(&f, i, bytes, 6);
    recv[i] = coll_chunk(&f, i, f.size * bytes + 2, 7);
    s[i] = (weir_place){send[i], 0};
    r[i] = (weir_place){recv[i], 2};
  }
  CHECK_OK(weir_allgather(f.group, s, r, bytes));
  for (uint32_t i = 0; i < f.local; ++i) {
    unsigned char *want = coll_expected(f.first + i, f.size * bytes + 2, 7);
    for (uint32_t m = 0; m < f.size; ++m)
      for (uint64_t k = 0; k < bytes; ++k) want[2 + m * bytes + k] = coll_pattern(m, k, 6);
    coll_check_chunk(&f, recv[i], want, "allgather");
  }
  coll_release(recv, f.local);
  for (uint32_t i = 0; i < f.local; ++i) {
    recv[i] = coll_chunk(&f, i, f.size * bytes, 8);
    r[i] = (weir_place){recv[i], 0};
    s[i] = (weir_place){recv[i], (f.first + i) * bytes};
  }
  CHECK_OK(weir_allgather(f.group, s, r, bytes));
  for (uint32_t i = 0; i < f.local; ++i) {
    unsigned char *want = coll_expected(f.first + i, f.size * bytes, 8);
    for (uint32_t m = 0; m < f.size; ++m)
      for (uint64_t k = 0; k < bytes; ++k) want[m * bytes + k] = coll_pattern(m, m * bytes + k, 8);
    coll_check_chunk(&f, recv[i], want, "allgather in place");
  }
  coll_release(recv, f.local);
  coll_release(send, f.local);
  fixture_close(&f);
}
END_TEST

/* Bytes rank i sends rank j: uneven, some zero. */
static uint64_t a2a_count(uint32_t i, uint32_t j) {
  return ((i + 2u * j) % 3u) * 17u + (i == j ? 5u : 0u);
}

/* Send pieces in destination order with 3-byte gaps; receive pieces in
 * descending source order with 1-byte gaps. */
static uint64_t send_displ(uint32_t i, uint32_t j) {
  uint64_t at = 0;
  for (uint32_t k = 0; k < j; ++k) at += a2a_count(i, k) + 3;
  return at;
}

static uint64_t recv_displ(uint32_t j, uint32_t i, uint32_t size) {
  uint64_t at = 0;
  for (uint32_t k = size; k-- > i + 1;) at += a2a_count(k, j) + 1;
  return at;
}

START_TEST(alltoallv_routes_uneven_pieces) {
  coll_fixture f;
  if (!fixture_open(_i, &f)) return;
  uint32_t n = f.size;
  uint64_t *sc = calloc((size_t)f.local * n * 4, sizeof *sc);
  ck_assert_ptr_nonnull(sc);
  uint64_t *sd = sc + f.local * n, *rc = sd + f.local * n, *rd = rc + f.local * n;
  weir_chunk *send[MAXL], *recv[MAXL];
  weir_place s[MAXL], r[MAXL];
  for (uint32_t i = 0; i < f.local; ++i) {
    uint32_t me = f.first + i;
    for (uint32_t j = 0; j < n; ++j) {
      sc[i * n + j] = a2a_count(me, j);
      sd[i * n + j] = send_displ(me, j);
      rc[i * n + j] = a2a_count(j, me);
      rd[i * n + j] = recv_displ(me, j, n);
    }
    send[i] = coll_chunk(&f, i, send_displ(me, n) + 8, 9);
    recv[i] = coll_chunk(&f, i, recv_displ(me, 0, n) + a2a_count(0, me) + 8, 10);
    s[i] = (weir_place){send[i], 4};
    r[i] = (weir_place){recv[i], 6};
  }
  CHECK_OK(weir_alltoallv(f.group, s, sc, sd, r, rc, rd));
  for (uint32_t i = 0; i < f.local; ++i) {
    uint32_t me = f.first + i;
    unsigned char *want = coll_expected(me, weir_chunk_bytes(recv[i]), 10);
    for (uint32_t src = 0; src < n; ++src)
      for (uint64_t k = 0; k < a2a_count(src, me); ++k)
        want[6 + recv_displ(me, src, n) + k] = coll_pattern(src, 4 + send_displ(src, me) + k, 9);
    coll_check_chunk(&f, recv[i], want, "alltoallv");
  }
  coll_release(send, f.local);
  coll_release(recv, f.local);
  free(sc);
  fixture_close(&f);
}
END_TEST

void conformance_add_move(TCase *tc) {
  int n = fixture_variants();
  tcase_add_loop_test(tc, broadcast_copies_the_roots_range, 0, n);
  tcase_add_loop_test(tc, scatter_hands_each_member_its_piece, 0, n);
  tcase_add_loop_test(tc, gather_collects_every_piece_at_the_root, 0, n);
  tcase_add_loop_test(tc, allgather_gives_everyone_everything, 0, n);
  tcase_add_loop_test(tc, alltoallv_routes_uneven_pieces, 0, n);
}
