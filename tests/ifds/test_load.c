/* Loading valid files: the lexical allowances of the format, the compact
 * layout (CSR, sorted calls and seeds, interned flows), and the round trip
 * through weir_ifds_write_problem. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/ifds/util.h"
#include "weir/ifds.h"

static const char valid[] =
    "# a comment before the magic line\r\n"
    "weir-ifds 1\r\n"
    "facts\t04\r\n"
    "procs 2 # two procedures\n"
    "nodes 7\n"
    "\n"
    "proc 1 g\xc3\xb6 4 6\n"
    "proc 0 main 0 3\n"
    "seed 0 0\n"
    "seed 0 0\n"
    "edge 2 3 id,-3,0>2\n"
    "edge 0 2 0>2,id,-3,-3\n"
    "edge 0 1 id,1>1\n"
    "call 1 2 id,id\n"
    "callee 1 1 none 0>0\n"
    "edge 4 5 id,-1,1>1\n"
    "edge 5 6 1>2,1>3,1>2\n"
    "edge 4 6 id\n"
    "seed 5 3\n";

static void assert_u32s(const uint32_t *got, const uint32_t *want, size_t n, const char *what) {
  for (size_t i = 0; i < n; ++i)
    ck_assert_msg(got[i] == want[i], "%s[%zu] = %u, want %u", what, i, got[i], want[i]);
}

START_TEST(layout) {
  weir_ifds_problem *p = NULL;
  ck_assert_int_eq(weir_ifds_load_memory("valid.ifds", valid, strlen(valid), &p), WEIR_OK);
  ck_assert_uint_eq(p->fact_count, 4);
  ck_assert_uint_eq(p->proc_count, 2);
  ck_assert_uint_eq(p->node_count, 7);
  ck_assert_uint_eq(p->source_bytes, strlen(valid));
  ck_assert_str_eq(p->source_name, "valid.ifds");
  assert_u32s(p->proc_first, (const uint32_t[]){0, 4}, 2, "proc_first");
  assert_u32s(p->proc_last, (const uint32_t[]){3, 6}, 2, "proc_last");
  assert_u32s(p->proc_name_offset, (const uint32_t[]){0, 4, 7}, 3, "proc_name_offset");
  ck_assert_int_eq(memcmp(p->names, "maing\xc3\xb6", 7), 0);
  assert_u32s(p->node_proc, (const uint32_t[]){0, 0, 0, 0, 1, 1, 1}, 7, "node_proc");
  assert_u32s(p->succ_offset, (const uint32_t[]){0, 2, 2, 3, 3, 5, 6, 6}, 8, "succ_offset");
  assert_u32s(p->succ_node, (const uint32_t[]){1, 2, 3, 5, 6, 6}, 6, "succ_node");
  /* flows in order of first appearance: id,-3,0>2 / id / none / 1>2,1>3 */
  ck_assert_uint_eq(p->flows.count, 4);
  assert_u32s(p->succ_flow, (const uint32_t[]){1, 0, 0, 1, 1, 3}, 6, "succ_flow");
  assert_u32s(p->flows.identity, (const uint32_t[]){1, 1, 0, 0}, 4, "identity");
  assert_u32s(p->flows.kill_offset, (const uint32_t[]){0, 1, 1, 1, 1}, 5, "kill_offset");
  ck_assert_uint_eq(p->flows.kill_fact[0], 3);
  assert_u32s(p->flows.pair_offset, (const uint32_t[]){0, 1, 1, 1, 3}, 5, "pair_offset");
  assert_u32s(p->flows.pair_from, (const uint32_t[]){0, 1, 1}, 3, "pair_from");
  assert_u32s(p->flows.pair_to, (const uint32_t[]){2, 2, 3}, 3, "pair_to");
  ck_assert_uint_eq(p->call_count, 1);
  ck_assert_uint_eq(p->call_node[0], 1);
  ck_assert_uint_eq(p->call_return[0], 2);
  ck_assert_uint_eq(p->call_flow[0], 1);
  for (uint32_t n = 0; n < 7; ++n) ck_assert_uint_eq(p->node_call[n], n == 1 ? 0 : WEIR_IFDS_NONE);
  assert_u32s(p->callee_offset, (const uint32_t[]){0, 1}, 2, "callee_offset");
  ck_assert_uint_eq(p->callee_proc[0], 1);
  ck_assert_uint_eq(p->callee_call_flow[0], 2);
  ck_assert_uint_eq(p->callee_return_flow[0], 2);
  ck_assert_uint_eq(p->seed_count, 2);
  assert_u32s(p->seed_node, (const uint32_t[]){0, 5}, 2, "seed_node");
  assert_u32s(p->seed_fact, (const uint32_t[]){0, 3}, 2, "seed_fact");
  weir_ifds_problem_free(p);
}
END_TEST

START_TEST(canonical_text) {
  weir_ifds_problem *p = NULL;
  ck_assert_int_eq(weir_ifds_load_memory("valid.ifds", valid, strlen(valid), &p), WEIR_OK);
  char *text = ifds_test_problem_text(p);
  ck_assert_str_eq(text,
                   "weir-ifds 1\nfacts 4\nprocs 2\nnodes 7\n"
                   "proc 0 main 0 3\nproc 1 g\xc3\xb6 4 6\n"
                   "edge 0 1 id\nedge 0 2 id,-3,0>2\nedge 2 3 id,-3,0>2\n"
                   "edge 4 5 id\nedge 4 6 id\nedge 5 6 1>2,1>3\n"
                   "call 1 2 id\ncallee 1 1 none none\n"
                   "seed 0 0\nseed 5 3\n"
                   "end 6 1 1 2\n");
  free(text);
  weir_ifds_problem_free(p);
}
END_TEST

/* The text of flow f (canonical), for comparing problems whose flow
 * numbering differs. */
static void flow_text(const weir_ifds_problem *p, uint32_t f, char *out, size_t cap) {
  size_t n = 0;
  if (p->flows.identity[f]) n += (size_t)snprintf(out + n, cap - n, "id");
  for (uint32_t k = p->flows.kill_offset[f]; k < p->flows.kill_offset[f + 1]; ++k)
    n += (size_t)snprintf(out + n, cap - n, ",-%u", p->flows.kill_fact[k]);
  for (uint32_t k = p->flows.pair_offset[f]; k < p->flows.pair_offset[f + 1]; ++k)
    n += (size_t)snprintf(out + n, cap - n, ",%u>%u", p->flows.pair_from[k], p->flows.pair_to[k]);
}

static void assert_same_flow(const weir_ifds_problem *a, uint32_t fa, const weir_ifds_problem *b,
                             uint32_t fb) {
  char ta[4096], tb[4096];
  flow_text(a, fa, ta, sizeof ta);
  flow_text(b, fb, tb, sizeof tb);
  ck_assert_str_eq(ta, tb);
}

/* Same problem, array by array (flows by content). */
void ifds_test_assert_same_problem(const weir_ifds_problem *a, const weir_ifds_problem *b) {
  ck_assert_uint_eq(a->fact_count, b->fact_count);
  ck_assert_uint_eq(a->proc_count, b->proc_count);
  ck_assert_uint_eq(a->node_count, b->node_count);
  ck_assert_uint_eq(a->flows.count, b->flows.count);
  assert_u32s(a->proc_first, b->proc_first, a->proc_count, "proc_first");
  assert_u32s(a->proc_last, b->proc_last, a->proc_count, "proc_last");
  assert_u32s(a->proc_name_offset, b->proc_name_offset, a->proc_count + 1, "name offsets");
  ck_assert_int_eq(memcmp(a->names, b->names, a->proc_name_offset[a->proc_count]), 0);
  assert_u32s(a->node_proc, b->node_proc, a->node_count, "node_proc");
  assert_u32s(a->succ_offset, b->succ_offset, a->node_count + 1, "succ_offset");
  uint32_t E = a->succ_offset[a->node_count];
  assert_u32s(a->succ_node, b->succ_node, E, "succ_node");
  for (uint32_t e = 0; e < E; ++e) assert_same_flow(a, a->succ_flow[e], b, b->succ_flow[e]);
  ck_assert_uint_eq(a->call_count, b->call_count);
  assert_u32s(a->call_node, b->call_node, a->call_count, "call_node");
  assert_u32s(a->call_return, b->call_return, a->call_count, "call_return");
  assert_u32s(a->node_call, b->node_call, a->node_count, "node_call");
  assert_u32s(a->callee_offset, b->callee_offset, a->call_count + 1, "callee_offset");
  uint32_t K = a->callee_offset[a->call_count];
  assert_u32s(a->callee_proc, b->callee_proc, K, "callee_proc");
  for (uint32_t c = 0; c < a->call_count; ++c)
    assert_same_flow(a, a->call_flow[c], b, b->call_flow[c]);
  for (uint32_t k = 0; k < K; ++k) {
    assert_same_flow(a, a->callee_call_flow[k], b, b->callee_call_flow[k]);
    assert_same_flow(a, a->callee_return_flow[k], b, b->callee_return_flow[k]);
  }
  ck_assert_uint_eq(a->seed_count, b->seed_count);
  assert_u32s(a->seed_node, b->seed_node, a->seed_count, "seed_node");
  assert_u32s(a->seed_fact, b->seed_fact, a->seed_count, "seed_fact");
}

/* write_problem -> load gives the same problem, and writing again gives the
 * same text (the canonical form is a fixed point). Used by the generated
 * problems' test too. */
void ifds_test_round_trip(const weir_ifds_problem *p);
void ifds_test_round_trip(const weir_ifds_problem *p) {
  char *text = ifds_test_problem_text(p);
  weir_ifds_problem *q = NULL;
  ck_assert_int_eq(weir_ifds_load_memory("round-trip.ifds", text, strlen(text), &q), WEIR_OK);
  ifds_test_assert_same_problem(p, q);
  char *again = ifds_test_problem_text(q);
  ck_assert_str_eq(text, again);
  free(again);
  free(text);
  weir_ifds_problem_free(q);
}

START_TEST(round_trip) {
  weir_ifds_problem *p = NULL;
  ck_assert_int_eq(weir_ifds_load_memory("valid.ifds", valid, strlen(valid), &p), WEIR_OK);
  ifds_test_round_trip(p);
  weir_ifds_problem_free(p);
}
END_TEST

START_TEST(result_and_stats_files) {
  weir_ifds_result r = {.path_edges = 3,
                        .hold_count = 2,
                        .hold_node = (uint32_t[]){0, 4},
                        .hold_fact = (uint32_t[]){0, 7}};
  char *text = ifds_test_result_text(&r);
  ck_assert_str_eq(text, "weir-ifds-result 1\npath-edges 3\nholds 2\n0 0\n4 7\n");
  free(text);
  weir_ifds_stats st = {
      .struct_size = sizeof st, .path_edges = 10, .iterations = 12, .seconds_solve = 0.5, .peak_resident_bytes = 285,
      .reserve_atomics = 25};
  char *json = NULL;
  size_t length = 0;
  FILE *f = open_memstream(&json, &length);
  ck_assert_int_eq(weir_ifds_write_stats_json(&st, "reference", "host", 0.25, f), WEIR_OK);
  fclose(f);
  ck_assert_ptr_nonnull(strstr(
      json, "{\"solver\": \"reference\", \"backend\": \"host\", \"seconds_load\": 0.250000"));
  ck_assert_ptr_nonnull(strstr(json, "\"path_edges\": 10,"));
  ck_assert_ptr_nonnull(strstr(json, "\"iterations\": 12,"));
  ck_assert_ptr_nonnull(strstr(json, "\"reserve_atomics\": 25, \"atomics_per_path_edge\": 2.5000,"));
  ck_assert_ptr_nonnull(
      strstr(json, "\"path_edges_per_second\": 20.0, \"bytes_per_path_edge\": 28.50}\n"));
  ck_assert_ptr_null(strstr(json, "member_path_edges")); /* one device: none */
  free(json);
  /* Across 3 devices: each member's path edges and busy seconds, and max/mean. */
  st.devices = 3;
  st.member_path_edges[0] = 2, st.member_path_edges[1] = 6, st.member_path_edges[2] = 2;
  st.member_busy_seconds[1] = 0.125;
  ck_assert_double_eq_tol(weir_ifds_stats_imbalance(&st), 1.8, 1e-9);
  f = open_memstream(&json, &length);
  ck_assert_int_eq(weir_ifds_write_stats_json(&st, "engine", "cpu:0,cpu:1,cpu:2", 0.25, f), WEIR_OK);
  fclose(f);
  ck_assert_ptr_nonnull(strstr(json, "\"member_path_edges\": [2, 6, 2], \"member_busy_seconds\": "
                                     "[0.000000, 0.125000, 0.000000], \"path_edge_imbalance\": 1.8000"));
  free(json);
  weir_ifds_stats old = st;
  old.struct_size = WEIR_IFDS_STATS_SIZE_V1; /* predates the member figures */
  ck_assert_double_eq(weir_ifds_stats_imbalance(&old), 0.0);
  ck_assert_int_eq(weir_ifds_write_result_file(&r, "/nonexistent/dir/x.result"), WEIR_ERR_IO);
  ck_assert_ptr_nonnull(strstr(weir_last_error(), "/nonexistent/dir/x.result"));
}
END_TEST

START_TEST(bad_arguments) {
  weir_ifds_problem *p = NULL;
  ck_assert_int_eq(weir_ifds_load_memory("x", NULL, 5, &p), WEIR_ERR_INVALID_ARGUMENT);
  ck_assert_int_eq(weir_ifds_load_file(NULL, &p), WEIR_ERR_INVALID_ARGUMENT);
  weir_ifds_result r;
  ck_assert_int_eq(weir_ifds_solve_reference(NULL, &r, NULL), WEIR_ERR_INVALID_ARGUMENT);
  weir_ifds_problem_free(NULL);
  weir_ifds_result_free(NULL);
}
END_TEST

Suite *ifds_load_suite(void);
Suite *ifds_load_suite(void) {
  Suite *s = suite_create("ifds-load");
  TCase *t = tcase_create("valid");
  tcase_add_test(t, layout);
  tcase_add_test(t, canonical_text);
  tcase_add_test(t, round_trip);
  tcase_add_test(t, result_and_stats_files);
  tcase_add_test(t, bad_arguments);
  suite_add_tcase(s, t);
  return s;
}
