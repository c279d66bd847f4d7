/* Chunks and views: ownership on release, adoption, reference counts, and
 * view arithmetic that refuses overflow instead of wrapping. */
#include "tests/residency/util.h"

START_TEST(chunk_release_frees_only_what_it_owns) {
  weir_backend *cpu = util_open("cpu:2"), *other = util_open("cpu:0");
  weir_chunk *owned = NULL;
  CHECK_OK(weir_chunk_allocate(cpu, 100, &owned));
  ck_assert_uint_eq(weir_chunk_ref_count(owned), 1);
  weir_chunk_retain(owned);
  CHECK_OK(weir_chunk_release(owned));
  ck_assert_uint_eq(util_live_buffers(cpu), 1); /* one reference left */
  CHECK_OK(weir_chunk_release(owned));
  ck_assert_uint_eq(util_live_buffers(cpu), 0);

  weir_buffer buffer;
  CHECK_OK(weir_allocate(cpu, 48, &buffer));
  weir_chunk *borrowed = NULL;
  CHECK_OK(weir_chunk_adopt(cpu, buffer, 0, &borrowed));
  ck_assert_uint_eq(weir_chunk_bytes(borrowed), 48);
  ck_assert_int_eq(weir_chunk_owns_memory(borrowed), 0);
  CHECK_OK(weir_chunk_release(borrowed));
  ck_assert_uint_eq(util_live_buffers(cpu), 1); /* still the caller's */
  weir_chunk *adopted = NULL;
  CHECK_OK(weir_chunk_adopt(cpu, buffer, 1, &adopted));
  ck_assert_int_eq(weir_chunk_owns_memory(adopted), 1);
  CHECK_OK(weir_chunk_release(adopted));
  ck_assert_uint_eq(util_live_buffers(cpu), 0);

  /* A buffer of another instance, a freed one, no backend: refused. */
  CHECK_OK(weir_allocate(other, 8, &buffer));
  CHECK_FAILS(weir_chunk_adopt(cpu, buffer, 1, &adopted), WEIR_ERR_FOREIGN_RESOURCE);
  ck_assert_ptr_null(adopted);
  CHECK_OK(weir_free(other, buffer));
  CHECK_FAILS(weir_chunk_adopt(other, buffer, 1, &adopted), WEIR_ERR_FOREIGN_RESOURCE);
  CHECK_FAILS(weir_chunk_allocate(NULL, 8, &adopted), WEIR_ERR_INVALID_ARGUMENT);
  CHECK_FAILS(weir_chunk_allocate(cpu, 0, &adopted), WEIR_ERR_INVALID_ARGUMENT);
  CHECK_OK(weir_chunk_release(NULL));
  weir_backend_close(cpu);
  weir_backend_close(other);
}
END_TEST

START_TEST(views_locate_elements_and_refuse_overflow) {
  weir_backend *cpu = util_open("cpu");
  weir_chunk *chunk = NULL;
  CHECK_OK(weir_chunk_allocate(cpu, 1024, &chunk));
  weir_view view;
  CHECK_OK(weir_view_make(chunk, 16, 8, 3, (uint64_t[]){2, 3, 5}, &view));
  ck_assert_uint_eq(view.strides[0], 15);
  ck_assert_uint_eq(view.strides[1], 5);
  ck_assert_uint_eq(view.strides[2], 1);
  ck_assert_uint_eq(weir_view_element_count(&view), 30);
  uint64_t offset = 0, span = 0;
  CHECK_OK(weir_view_element_offset(&view, (uint64_t[]){1, 2, 4}, &offset));
  ck_assert_uint_eq(offset, 16 + 8 * (15 + 10 + 4));
  CHECK_OK(weir_view_span_bytes(&view, &span));
  ck_assert_uint_eq(span, 30 * 8);
  CHECK_FAILS(weir_view_element_offset(&view, (uint64_t[]){2, 0, 0}, &offset),
              WEIR_ERR_OUT_OF_RANGE);
  CHECK_FAILS(weir_view_make(chunk, 0, 8, 2, (uint64_t[]){UINT64_MAX / 2, 4}, &view),
              WEIR_ERR_OUT_OF_RANGE);
  CHECK_FAILS(weir_view_make(chunk, UINT64_MAX, 1, 1, (uint64_t[]){2}, &view),
              WEIR_ERR_OUT_OF_RANGE);
  CHECK_FAILS(weir_view_make(chunk, 0, 0, 1, (uint64_t[]){2}, &view), WEIR_ERR_INVALID_ARGUMENT);
  CHECK_FAILS(weir_view_make(chunk, 0, 4, WEIR_VIEW_MAX_DIMS + 1,
                             (uint64_t[]){1, 1, 1, 1, 1}, &view),
              WEIR_ERR_INVALID_ARGUMENT);
  CHECK_FAILS(weir_view_make(NULL, 0, 4, 1, (uint64_t[]){2}, &view), WEIR_ERR_INVALID_ARGUMENT);
  weir_view strided = {.chunk = chunk, .element_bytes = 4, .ndim = 1, .shape = {2},
                       .strides = {UINT64_MAX}};
  CHECK_FAILS(weir_view_validate(&strided), WEIR_ERR_OUT_OF_RANGE);
  CHECK_OK(weir_chunk_release(chunk));
  weir_backend_close(cpu);
}
END_TEST

Suite *chunk_suite(void) {
  Suite *suite = suite_create("residency.chunk");
  TCase *tc = tcase_create("chunk");
  tcase_add_test(tc, chunk_release_frees_only_what_it_owns);
  tcase_add_test(tc, views_locate_elements_and_refuse_overflow);
  suite_add_tcase(suite, tc);
  return suite;
}
