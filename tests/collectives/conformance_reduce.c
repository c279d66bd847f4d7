/* Conformance: allreduce for every dtype (u32, u64, f32, f64) and op (sum,
 * min, max), in place and out of place. Values are small integers (u64:
 * above 2^32) so that float sums are exact in any order. */
#include <stdio.h>

#include "tests/collectives/coll_util.h"
#include "tests/collectives/conformance.h"

#define MAXL WEIR_GROUP_MAX_LOCAL
#define COUNT 300u

static double value(uint32_t rank, uint64_t k, weir_dtype dtype) {
  double v = (double)((rank * 7u + k * 3u) % 23u + 1u);
  return dtype == WEIR_DTYPE_U64 ? v + 4294967296.0 * (double)(k % 5u) : v;
}

static void store(unsigned char *at, double v, weir_dtype dtype) {
  switch (dtype) {
  case WEIR_DTYPE_U32: { uint32_t x = (uint32_t)v; memcpy(at, &x, 4); break; }
  case WEIR_DTYPE_U64: { uint64_t x = (uint64_t)v; memcpy(at, &x, 8); break; }
  case WEIR_DTYPE_F32: { float x = (float)v; memcpy(at, &x, 4); break; }
  case WEIR_DTYPE_F64: memcpy(at, &v, 8); break;
  }
}

static double expected(uint32_t size, uint64_t k, weir_dtype dtype, weir_reduce_op op) {
  double acc = value(0, k, dtype);
  for (uint32_t r = 1; r < size; ++r) {
    double v = value(r, k, dtype);
    acc = op == WEIR_REDUCE_SUM ? acc + v : op == WEIR_REDUCE_MIN ? (v < acc ? v : acc)
                                                                 : (v > acc ? v : acc);
  }
  return acc;
}

/* A chunk: 8 bytes of pattern, the send values, then (out of place) the
 * recv range, then 8 bytes of pattern. */
static weir_chunk *reduce_chunk(const coll_fixture *f, uint32_t i, weir_dtype dtype,
                                unsigned char **image) {
  uint32_t es = weir_dtype_bytes(dtype), rank = f->first + i;
  uint64_t bytes = 16u + 2u * COUNT * es;
  *image = coll_expected(rank, bytes, 11);
  for (uint64_t k = 0; k < COUNT; ++k) store(*image + 8 + k * es, value(rank, k, dtype), dtype);
  weir_chunk *chunk = NULL;
  CHECK_OK(weir_chunk_allocate(f->backends[i], bytes, &chunk));
  CHECK_OK(weir_upload(f->backends[i], weir_chunk_buffer(chunk), *image, bytes));
  return chunk;
}

static void reduce_case(const coll_fixture *f, weir_dtype dtype, weir_reduce_op op,
                        int in_place) {
  uint32_t es = weir_dtype_bytes(dtype);
  uint64_t recv_at = in_place ? 8u : 8u + COUNT * es;
  weir_chunk *c[MAXL];
  unsigned char *image[MAXL];
  weir_place s[MAXL], r[MAXL];
  for (uint32_t i = 0; i < f->local; ++i) {
    c[i] = reduce_chunk(f, i, dtype, &image[i]);
    s[i] = (weir_place){c[i], 8};
    r[i] = (weir_place){c[i], recv_at};
  }
  CHECK_OK(weir_allreduce(f->group, s, r, COUNT, dtype, op));
  for (uint32_t i = 0; i < f->local; ++i) {
    for (uint64_t k = 0; k < COUNT; ++k)
      store(image[i] + recv_at + k * es, expected(f->size, k, dtype, op), dtype);
    char what[64];
    snprintf(what, sizeof what, "allreduce %s %s%s", weir_dtype_name(dtype),
             weir_reduce_op_name(op), in_place ? " in place" : "");
    coll_check_chunk(f, c[i], image[i], what);
  }
  coll_release(c, f->local);
}

START_TEST(allreduce_every_dtype_and_op) {
  coll_fixture f;
  if (!fixture_open(_i, &f)) return;
  for (int d = WEIR_DTYPE_U32; d <= WEIR_DTYPE_F64; ++d)
    for (int op = WEIR_REDUCE_SUM; op <= WEIR_REDUCE_MAX; ++op)
      for (int in_place = 0; in_place < 2; ++in_place)
        reduce_case(&f, (weir_dtype)d, (weir_reduce_op)op, in_place);
  fixture_close(&f);
}
END_TEST

void conformance_add_reduce(TCase *tc) {
  tcase_add_loop_test(tc, allreduce_every_dtype_and_op, 0, fixture_variants());
}
