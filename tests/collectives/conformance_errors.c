/* Conformance: refusals. Each bad call is made by one member only where the
 * group spans processes (the last rank, or rank 0), and must fail on EVERY
 * rank with the same status and a Fix: hint; afterwards the group still
 * works. */
#include <stdio.h>

#include "tests/collectives/coll_util.h"
#include "tests/collectives/conformance.h"

#define MAXL WEIR_GROUP_MAX_LOCAL

typedef struct scene {
  coll_fixture f;
  weir_chunk *c[MAXL];
  weir_place p[MAXL];
} scene;

static void scene_open(scene *s, uint64_t bytes) {
  for (uint32_t i = 0; i < s->f.local; ++i) {
    s->c[i] = coll_chunk(&s->f, i, bytes, 12);
    s->p[i] = (weir_place){s->c[i], 0};
  }
}

/* 1 when this process holds member `rank`. */
static int holds(const coll_fixture *f, uint32_t rank) {
  return rank >= f->first && rank - f->first < f->local;
}

/* The message of a failure on another rank names that rank. */
static void names_rank(const scene *s, uint32_t rank) {
  if (s->f.local == s->f.size) return;
  char want[64];
  snprintf(want, sizeof want, "rank %u of %u: ", rank, s->f.size);
  ck_assert_msg(strstr(weir_last_error(), want), "\"%s\" lacks \"%s\"", weir_last_error(), want);
}

START_TEST(bad_arguments_fail_every_rank) {
  scene s;
  if (!fixture_open(_i, &s.f)) return;
  scene_open(&s, 64);
  uint32_t last = s.f.size - 1;
  CHECK_FAILS(weir_broadcast(s.f.group, s.f.size, s.p, 8), WEIR_ERR_INVALID_ARGUMENT);
  ck_assert_ptr_nonnull(strstr(weir_last_error(), "root"));
  /* The last member's range runs past its chunk. */
  weir_place q[MAXL];
  memcpy(q, s.p, sizeof q);
  if (holds(&s.f, last)) q[last - s.f.first].offset = 40;
  CHECK_FAILS(weir_allreduce(s.f.group, q, q, 8, WEIR_DTYPE_U32, WEIR_REDUCE_SUM),
              WEIR_ERR_OUT_OF_RANGE);
  names_rank(&s, last);
  ck_assert_ptr_nonnull(strstr(weir_last_error(), "64-byte chunk"));
  CHECK_FAILS(weir_allreduce(s.f.group, s.p, s.p, 4, (weir_dtype)9, WEIR_REDUCE_SUM),
              WEIR_ERR_UNSUPPORTED);
  CHECK_FAILS(weir_allreduce(s.f.group, s.p, s.p, 4, WEIR_DTYPE_F32, (weir_reduce_op)7),
              WEIR_ERR_UNSUPPORTED);
  /* send [0, +32) and recv [16, +32) of one chunk overlap. */
  memcpy(q, s.p, sizeof q);
  for (uint32_t i = 0; i < s.f.local; ++i) q[i].offset = 16;
  CHECK_FAILS(weir_allreduce(s.f.group, s.p, q, 8, WEIR_DTYPE_U32, WEIR_REDUCE_MAX),
              WEIR_ERR_INVALID_ARGUMENT);
  ck_assert_ptr_nonnull(strstr(weir_last_error(), "overlap"));
  /* Still usable. */
  CHECK_OK(weir_allreduce(s.f.group, s.p, s.p, 16, WEIR_DTYPE_U32, WEIR_REDUCE_MAX));
  coll_release(s.c, s.f.local);
  fixture_close(&s.f);
}
END_TEST

/* Rank 0 expects one byte more from the last rank than it sends. */
START_TEST(alltoallv_count_mismatch_fails_every_rank) {
  scene s;
  if (!fixture_open(_i, &s.f)) return;
  scene_open(&s, 256);
  uint32_t n = s.f.size;
  uint64_t *a = calloc((size_t)s.f.local * n * 4, sizeof *a);
  ck_assert_ptr_nonnull(a);
  uint64_t *sd = a + s.f.local * n, *rc = sd + s.f.local * n, *rd = rc + s.f.local * n;
  for (uint32_t i = 0; i < s.f.local; ++i)
    for (uint32_t j = 0; j < n; ++j) {
      a[i * n + j] = rc[i * n + j] = 4;
      sd[i * n + j] = 4u * j;
      rd[i * n + j] = 128u + 4u * j;
    }
  if (s.f.first == 0) rc[n - 1] = 5;
  CHECK_FAILS(weir_alltoallv(s.f.group, s.p, a, sd, s.p, rc, rd), WEIR_ERR_INVALID_ARGUMENT);
  ck_assert_msg(strstr(weir_last_error(), "expects 5"), "%s", weir_last_error());
  if (s.f.first == 0) rc[n - 1] = 4;
  CHECK_OK(weir_alltoallv(s.f.group, s.p, a, sd, s.p, rc, rd));
  free(a);
  coll_release(s.c, s.f.local);
  fixture_close(&s.f);
}
END_TEST

/* Member 0's chunk lives on a backend that is not member 0's. */
START_TEST(a_chunk_on_another_backend_is_refused) {
  scene s;
  if (!fixture_open(_i, &s.f)) return;
  scene_open(&s, 64);
  weir_backend *stranger = fixture_backend("cpu:7");
  weir_chunk *foreign = NULL;
  CHECK_OK(weir_chunk_allocate(stranger, 64, &foreign));
  weir_place q[MAXL]; /* sends at [40, +8), receives at [0, +8 * size) */
  memcpy(q, s.p, sizeof q);
  for (uint32_t i = 0; i < s.f.local; ++i) q[i].offset = 40;
  if (s.f.first == 0) q[0].chunk = foreign;
  CHECK_FAILS(weir_allgather(s.f.group, q, s.p, 8), WEIR_ERR_FOREIGN_RESOURCE);
  ck_assert_ptr_nonnull(strstr(weir_last_error(), "cpu:7"));
  CHECK_OK(weir_chunk_release(foreign));
  weir_backend_close(stranger);
  coll_release(s.c, s.f.local);
  fixture_close(&s.f);
}
END_TEST

/* The status of this process's own work: failed where `failed`. */
static weir_status local_outcome(int failed) {
  if (!failed) return WEIR_OK;
  return weir_fail(WEIR_ERR_UNAVAILABLE, "could not open backend bogus. Fix: name a real one.");
}

/* weir_group_agree spreads one rank's failure; a group spanning processes
 * also catches ranks that call with different arguments. */
START_TEST(agreement_spreads_one_ranks_failure) {
  scene s;
  if (!fixture_open(_i, &s.f)) return;
  scene_open(&s, 64);
  uint32_t last = s.f.size - 1;
  CHECK_FAILS(weir_group_agree(s.f.group, local_outcome(holds(&s.f, last))),
              WEIR_ERR_UNAVAILABLE);
  names_rank(&s, last);
  ck_assert_ptr_nonnull(strstr(weir_last_error(), "bogus"));
  CHECK_OK(weir_group_agree(s.f.group, WEIR_OK));
  if (s.f.local < s.f.size) {
    uint64_t count = s.f.first == last ? 8 : 4;
    CHECK_FAILS(weir_allreduce(s.f.group, s.p, s.p, count, WEIR_DTYPE_U32, WEIR_REDUCE_SUM),
                WEIR_ERR_INVALID_ARGUMENT);
    ck_assert_msg(strstr(weir_last_error(), "disagree on count: from 4 to 8"), "%s",
                  weir_last_error());
  }
  CHECK_OK(weir_allreduce(s.f.group, s.p, s.p, 4, WEIR_DTYPE_U32, WEIR_REDUCE_SUM));
  coll_release(s.c, s.f.local);
  fixture_close(&s.f);
}
END_TEST

void conformance_add_errors(TCase *tc) {
  int n = fixture_variants();
  tcase_add_loop_test(tc, bad_arguments_fail_every_rank, 0, n);
  tcase_add_loop_test(tc, alltoallv_count_mismatch_fails_every_rank, 0, n);
  tcase_add_loop_test(tc, a_chunk_on_another_backend_is_refused, 0, n);
  tcase_add_loop_test(tc, agreement_spreads_one_ranks_failure, 0, n);
}
