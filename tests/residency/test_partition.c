/* Partitions: padded block arithmetic on edge cases, checked against a
 * brute-force reference, and block views that alias the original memory. */
#include <stdlib.h>

#include "tests/residency/util.h"

static uint64_t pbs(uint64_t total, uint64_t parts, uint64_t pad_to) {
  uint64_t out = UINT64_MAX;
  CHECK_OK(weir_padded_block_samples(total, (weir_partition_spec){parts, pad_to}, &out));
  return out;
}

START_TEST(padded_block_samples_edge_cases) {
  ck_assert_uint_eq(weir_partition_spec_default(3).pad_to, 32);
  ck_assert_uint_eq(pbs(0, 4, 32), 0);      /* total 0: nothing to place */
  ck_assert_uint_eq(pbs(5, 2, 32), 32);     /* total < pad_to: one padded block */
  ck_assert_uint_eq(pbs(31, 1, 32), 32);
  ck_assert_uint_eq(pbs(64, 2, 32), 32);    /* exact multiple: no padding */
  ck_assert_uint_eq(pbs(96, 3, 32), 32);
  ck_assert_uint_eq(pbs(100, 3, 32), 64);   /* ceil(100/3) = 34 -> 64 */
  ck_assert_uint_eq(pbs(10, 100, 32), 32);  /* more parts than blocks needed */
  ck_assert_uint_eq(pbs(7, 2, 1), 4);       /* pad 1: plain ceil */
  ck_assert_uint_eq(pbs(UINT64_MAX, 1, 1), UINT64_MAX);
  ck_assert_uint_eq(pbs(UINT64_MAX, UINT64_MAX, 32), 32);
  uint64_t out = 0;
  CHECK_FAILS(weir_padded_block_samples(UINT64_MAX, weir_partition_spec_default(1), &out),
              WEIR_ERR_OUT_OF_RANGE);
  CHECK_FAILS(weir_padded_block_samples(10, (weir_partition_spec){0, 32}, &out),
              WEIR_ERR_INVALID_ARGUMENT);
  CHECK_FAILS(weir_padded_block_samples(10, (weir_partition_spec){2, 0}, &out),
              WEIR_ERR_INVALID_ARGUMENT);
}
END_TEST

/* Smallest multiple of pad_to that is >= the smallest b with b * parts >= total. */
static uint64_t reference_pbs(uint64_t total, uint64_t parts, uint64_t pad_to) {
  uint64_t b = 0;
  while (b * parts < total) ++b;
  while (b % pad_to != 0) ++b;
  return b;
}

START_TEST(partition_matches_reference_and_covers_samples_once) {
  uint64_t shape[1] = {0};
  weir_backend *cpu = util_open("cpu");
  weir_chunk *chunk = NULL;
  CHECK_OK(weir_chunk_allocate(cpu, 4 * 300, &chunk));
  for (uint64_t total = 0; total <= 300; total += 7) {
    shape[0] = total;
    weir_view view;
    CHECK_OK(weir_view_make(chunk, 0, 4, 1, shape, &view));
    for (uint64_t parts = 1; parts <= 9; ++parts)
      for (uint64_t pad = 1; pad <= 40; pad += 3) {
        weir_partition_spec spec = {parts, pad};
        uint64_t block = pbs(total, parts, pad);
        ck_assert_uint_eq(block, reference_pbs(total, parts, pad));
        uint64_t covered = 0;
        for (uint64_t i = 0; i < parts; ++i) {
          weir_view part;
          CHECK_OK(weir_partition_view(&view, spec, i, &part));
          uint64_t extent = part.shape[0];
          ck_assert_uint_le(extent, block);
          if (extent > 0) {
            /* contiguous: block i starts right where the earlier ones end */
            ck_assert_uint_eq(part.byte_offset, 4 * i * block);
            ck_assert_uint_eq(covered, i * block);
          }
          if (extent < block) /* only the last non-empty block may be short */
            ck_assert_uint_eq(covered + extent, total);
          covered += extent;
        }
        ck_assert_uint_eq(covered, total);
      }
  }
  CHECK_OK(weir_chunk_release(chunk));
  weir_backend_close(cpu);
}
END_TEST

START_TEST(partition_refuses_invalid_specs) {
  weir_backend *cpu = util_open("cpu");
  weir_chunk *chunk = NULL;
  CHECK_OK(weir_chunk_allocate(cpu, 64, &chunk));
  uint64_t shape[1] = {16};
  weir_view view, part;
  CHECK_OK(weir_view_make(chunk, 0, 4, 1, shape, &view));
  CHECK_FAILS(weir_partition_view(&view, (weir_partition_spec){0, 32}, 0, &part),
              WEIR_ERR_INVALID_ARGUMENT);
  CHECK_FAILS(weir_partition_view(&view, (weir_partition_spec){2, 0}, 0, &part),
              WEIR_ERR_INVALID_ARGUMENT);
  CHECK_FAILS(weir_partition_view(&view, weir_partition_spec_default(2), 2, &part),
              WEIR_ERR_OUT_OF_RANGE);
  weir_view scalar;
  CHECK_OK(weir_view_make(chunk, 0, 4, 0, NULL, &scalar));
  CHECK_FAILS(weir_partition_view(&scalar, weir_partition_spec_default(2), 0, &part),
              WEIR_ERR_INVALID_ARGUMENT);
  weir_view too_long = view;
  too_long.shape[0] = 17; /* 68 bytes in a 64-byte chunk */
  CHECK_FAILS(weir_partition_view(&too_long, weir_partition_spec_default(2), 0, &part),
              WEIR_ERR_OUT_OF_RANGE);
  shape[0] = 17;
  CHECK_FAILS(weir_view_make(chunk, 0, 4, 1, shape, &view), WEIR_ERR_OUT_OF_RANGE);
  /* index * padded_block_samples overflows: the block is past the end, empty. */
  CHECK_OK(weir_view_make(chunk, 0, 4, 1, (uint64_t[]){16}, &view));
  CHECK_OK(weir_partition_view(&view, (weir_partition_spec){UINT64_MAX, 32}, UINT64_MAX - 1,
                               &part));
  ck_assert_uint_eq(part.shape[0], 0);
  ck_assert_uint_eq(part.byte_offset, view.byte_offset);
  CHECK_OK(weir_chunk_release(chunk));
  weir_backend_close(cpu);
}
END_TEST

static uint32_t tag(uint64_t row, uint64_t sample, uint32_t salt) {
  return (uint32_t)(row * 1000003u + sample * 7919u) ^ salt;
}

static void put_u32(const weir_view *view, const uint64_t *index, uint32_t value) {
  uint64_t offset = 0;
  CHECK_OK(weir_view_element_offset(view, index, &offset));
  weir_upload_item item = {weir_chunk_buffer(view->chunk), offset, &value, sizeof value};
  CHECK_OK(weir_upload_at_many(weir_chunk_backend(view->chunk), &item, 1));
}

static uint32_t get_u32(const weir_view *view, const uint64_t *index) {
  uint64_t offset = 0;
  uint32_t value = 0;
  CHECK_OK(weir_view_element_offset(view, index, &offset));
  CHECK_OK(weir_download_range_into(weir_chunk_backend(view->chunk), weir_chunk_buffer(view->chunk),
                                    offset, sizeof value, &value));
  return value;
}

/* A [3 rows x 100 samples] u32 view at byte 8 of its chunk, cut in 3 parts
 * with pad 32: blocks of 64 samples: [0, 64), [64, 100), empty. */
START_TEST(partition_views_alias_the_original_memory) {
  weir_backend *cpu = util_open("cpu:1");
  weir_chunk *chunk = NULL;
  CHECK_OK(weir_chunk_allocate(cpu, 8 + 3 * 100 * 4, &chunk));
  weir_view view;
  CHECK_OK(weir_view_make(chunk, 8, 4, 2, (uint64_t[]){3, 100}, &view));
  weir_partition_spec spec = weir_partition_spec_default(3);
  uint64_t live = util_live_buffers(cpu);
  uint64_t expected_extent[3] = {64, 36, 0};
  for (uint32_t salt = 0; salt < 2; ++salt) {
    for (uint64_t i = 0; i < 3; ++i) {
      weir_view part;
      CHECK_OK(weir_partition_view(&view, spec, i, &part));
      ck_assert_ptr_eq(part.chunk, chunk); /* same memory, nothing allocated */
      ck_assert_uint_eq(part.shape[0], 3);
      ck_assert_uint_eq(part.shape[1], expected_extent[i]);
      for (uint64_t r = 0; r < 3; ++r)
        for (uint64_t s = 0; s < part.shape[1]; ++s) {
          uint64_t local[2] = {r, s}, global[2] = {r, i * 64 + s};
          if (salt == 0) { /* write through the block, read through the view */
            put_u32(&part, local, tag(r, i * 64 + s, salt));
            ck_assert_uint_eq(get_u32(&view, global), tag(r, i * 64 + s, salt));
          } else { /* write through the view, read through the block */
            put_u32(&view, global, tag(r, i * 64 + s, salt));
            ck_assert_uint_eq(get_u32(&part, local), tag(r, i * 64 + s, salt));
          }
        }
    }
  }
  ck_assert_uint_eq(util_live_buffers(cpu), live);
  CHECK_OK(weir_chunk_release(chunk));
  weir_backend_close(cpu);
}
END_TEST

Suite *partition_suite(void) {
  Suite *suite = suite_create("residency.partition");
  TCase *tc = tcase_create("partition");
  tcase_add_test(tc, padded_block_samples_edge_cases);
  tcase_add_test(tc, partition_matches_reference_and_covers_samples_once);
  tcase_add_test(tc, partition_refuses_invalid_specs);
  tcase_add_test(tc, partition_views_alias_the_original_memory);
  suite_add_tcase(suite, tc);
  return suite;
}
