/* Groups themselves (local executable only): what creation refuses, the
 * accessors, and the names of dtypes, ops and kinds. */
#include "tests/collectives/fixture.h"

START_TEST(group_creation_refuses_bad_layouts) {
  weir_backend *b[2] = {fixture_backend("cpu:0"), fixture_backend("cpu:1")};
  weir_transport *t = NULL;
  weir_group *g = NULL;
  CHECK_OK(weir_stream_transport_create(NULL, &t));
  CHECK_FAILS(weir_group_create_local(t, b, 0, &g), WEIR_ERR_INVALID_ARGUMENT);
  CHECK_FAILS(weir_group_create_local(NULL, b, 2, &g), WEIR_ERR_INVALID_ARGUMENT);
  CHECK_FAILS(weir_group_create_local(t, NULL, 2, &g), WEIR_ERR_INVALID_ARGUMENT);
  weir_group_layout beyond = {.size = 2, .first_local = 1, .local_count = 2};
  CHECK_FAILS(weir_group_create(t, &beyond, b, &g), WEIR_ERR_INVALID_ARGUMENT);
  ck_assert_ptr_nonnull(strstr(weir_last_error(), "first_local 1, local_count 2"));
  /* Members in other processes need a transport that reaches them. */
  weir_group_layout spread = {.size = 4, .first_local = 2, .local_count = 2};
  CHECK_FAILS(weir_group_create(t, &spread, b, &g), WEIR_ERR_UNSUPPORTED);
  ck_assert_ptr_nonnull(strstr(weir_last_error(), "\"stream\""));
  ck_assert_ptr_null(g);
  CHECK_OK(weir_group_create_local(t, b, 2, &g));
  ck_assert_uint_eq(weir_group_size(g), 2);
  ck_assert_uint_eq(weir_group_first_local(g), 0);
  ck_assert_uint_eq(weir_group_local_count(g), 2);
  ck_assert_ptr_eq(weir_group_transport(g), t);
  ck_assert_int_eq(weir_group_agree(g, WEIR_ERR_IO), WEIR_ERR_IO);
  CHECK_FAILS(weir_group_collective(g, &(weir_collective){.kind = (weir_collective_kind)42}),
              WEIR_ERR_INVALID_ARGUMENT);
  CHECK_FAILS(weir_broadcast(g, 0, NULL, 8), WEIR_ERR_INVALID_ARGUMENT);
  weir_group_destroy(g);
  weir_group_destroy(NULL);
  weir_transport_destroy(t);
  weir_backend_close(b[0]);
  weir_backend_close(b[1]);
}
END_TEST

START_TEST(names_and_sizes) {
  ck_assert_uint_eq(weir_dtype_bytes(WEIR_DTYPE_U32), 4);
  ck_assert_uint_eq(weir_dtype_bytes(WEIR_DTYPE_F64), 8);
  ck_assert_uint_eq(weir_dtype_bytes((weir_dtype)17), 0);
  ck_assert_str_eq(weir_dtype_name(WEIR_DTYPE_F32), "f32");
  ck_assert_str_eq(weir_reduce_op_name(WEIR_REDUCE_MIN), "min");
  ck_assert_str_eq(weir_collective_kind_name(WEIR_COLLECTIVE_ALLTOALLV), "alltoallv");
  ck_assert_str_eq(weir_collective_kind_name((weir_collective_kind)9), "unknown");
}
END_TEST

Suite *group_suite(void) {
  Suite *suite = suite_create("collectives.group");
  TCase *tc = tcase_create("group");
  tcase_add_test(tc, group_creation_refuses_bad_layouts);
  tcase_add_test(tc, names_and_sizes);
  suite_add_tcase(suite, tc);
  return suite;
}
