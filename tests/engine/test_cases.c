/* The engine on hand-written and edge-case problems: the micro problems of
 * IFDS I with their expected results, growth from tiny capacities, the
 * memory-cap error, a 10,000-deep call chain, a 65,535-fact problem and a
 * problem whose keys do not fit. */
#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/engine/engine_check.h"
#include "tests/check_run.h"

static char *read_text(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *t = malloc((size_t)n + 1);
  if (t && fread(t, 1, (size_t)n, f) != (size_t)n) {
    free(t);
    t = NULL;
  }
  if (t) t[n] = 0;
  fclose(f);
  return t;
}

START_TEST(micro_problems_give_expected_results) {
  const char *dir = WEIR_SOURCE_DIR "/tests/ifds/micro";
  DIR *d = opendir(dir);
  ck_assert_msg(d != NULL, "cannot open %s", dir);
  weir_backend *backends[ENGINE_MAX_BACKENDS];
  size_t nb = engine_open_backends(backends, ENGINE_MAX_BACKENDS);
  int checked = 0;
  for (struct dirent *ent; (ent = readdir(d)) != NULL;) {
    size_t len = strlen(ent->d_name);
    if (len < 6 || strcmp(ent->d_name + len - 5, ".ifds") != 0) continue;
    char path[1024], expected_path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, ent->d_name);
    snprintf(expected_path, sizeof expected_path, "%s/%.*s.expected", dir, (int)(len - 5),
             ent->d_name);
    char *expected = read_text(expected_path);
    ck_assert_msg(expected != NULL, "missing %s", expected_path);
    weir_ifds_problem *pb = NULL;
    ck_assert_msg(weir_ifds_load_file(path, &pb) == WEIR_OK, "%s", weir_last_error());
    for (size_t b = 0; b < nb; ++b) {
      weir_ifds_result r;
      weir_status st = weir_ifds_solve_engine(backends[b], pb, NULL, &r, NULL);
      ck_assert_msg(st == WEIR_OK, "%s on %s: %s", ent->d_name, weir_backend_id(backends[b]),
                    weir_last_error());
      char *got = engine_result_text(&r);
      ck_assert_msg(got && strcmp(got, expected) == 0, "%s on %s:\n%s\nexpected:\n%s",
                    ent->d_name, weir_backend_id(backends[b]), got ? got : "(null)", expected);
      free(got);
      weir_ifds_result_free(&r);
      checked++;
    }
    weir_ifds_problem_free(pb);
    free(expected);
  }
  closedir(d);
  engine_close_backends(backends, nb);
  ck_assert_int_ge(checked, 10);
}
END_TEST

static weir_ifds_problem *generated(weir_ifds_preset preset, uint32_t procs, uint32_t npp,
                                    uint32_t facts, uint64_t seed) {
  weir_ifds_gen_options o = {.preset = preset, .procs = procs, .nodes_per_proc = npp,
                             .facts = facts, .seeds = 2, .seed = seed};
  weir_ifds_problem *pb = NULL;
  ck_assert_msg(weir_ifds_generate_problem(&o, &pb) == WEIR_OK, "%s", weir_last_error());
  return pb;
}

START_TEST(growth_from_tiny_capacities) {
  weir_backend *backends[ENGINE_MAX_BACKENDS];
  size_t nb = engine_open_backends(backends, ENGINE_MAX_BACKENDS);
  weir_ifds_problem *pb = generated(WEIR_IFDS_PRESET_REALISTIC, 60, 12, 12, 7);
  weir_ifds_engine_options tiny = {.struct_size = sizeof(weir_ifds_engine_options), .initial_table_capacity = 4, .initial_frontier_capacity = 4,
                                   .initial_window = 1, .max_window = 64};
  for (size_t b = 0; b < nb; ++b) {
    char why[512];
    weir_ifds_stats st = WEIR_IFDS_STATS_INIT;
    ck_assert_msg(engine_matches_reference(backends[b], pb, &tiny, &st, why, sizeof why), "%s", why);
    ck_assert_uint_ge(st.growths, 3);
    ck_assert_uint_gt(st.path_edges, 4);
    ck_assert_uint_le(st.host_syncs, st.windows + 5u);
    weir_backend_stats bs;
    weir_backend_get_stats(backends[b], &bs);
    ck_assert_uint_eq(bs.live_buffers, 0);
  }
  weir_ifds_problem_free(pb);
  engine_close_backends(backends, nb);
}
END_TEST

/* main (nodes 0-5) calls helper (nodes 6-9) three times with every fact;
 * 399 seeds at main's start: about 4,000 path edges over 10 nodes, so the relations
 * outgrow small bindings while the supergraph stays a few hundred bytes. */
static weir_ifds_problem *dense_problem(void) {
  enum { FACTS = 400 };
  char *t = malloc(FACTS * 16u + 512u);
  size_t at = (size_t)sprintf(t, "weir-ifds 1\nfacts %u\nprocs 2\nnodes 10\nproc 0 main 0 5\n"
                                 "proc 1 helper 6 9\nedge 0 1 id\ncall 1 2 id\ncallee 1 1 id id\n"
                                 "call 2 3 id\ncallee 2 1 id id\ncall 3 4 id\ncallee 3 1 id id\n"
                                 "edge 4 5 id\nedge 6 7 id\nedge 7 8 id\nedge 8 9 id\n",
                              FACTS);
  for (unsigned f = 1; f < FACTS; ++f) at += (size_t)sprintf(t + at, "seed 0 %u\n", f);
  weir_ifds_problem *pb = NULL;
  ck_assert_msg(weir_ifds_load_memory("dense.ifds", t, at, &pb) == WEIR_OK, "%s", weir_last_error());
  free(t);
  return pb;
}

/* Relations larger than one binding: every backend opened with a forced
 * 8 KiB per-binding limit (1,024 entries per shard), starting from tiny
 * capacities, so the log, table, contexts and lists grow across shard
 * boundaries and windows are replayed after each growth. The result must
 * not change. */
START_TEST(relations_past_the_binding_limit) {
  weir_open_options oo = {.struct_size = sizeof(weir_open_options), .max_binding_bytes = 8192};
  weir_backend *backends[ENGINE_MAX_BACKENDS];
  size_t nb = engine_open_backends_ex(backends, ENGINE_MAX_BACKENDS, &oo);
  weir_ifds_problem *pb = dense_problem();
  weir_ifds_engine_options tiny = {.struct_size = sizeof(weir_ifds_engine_options), .initial_table_capacity = 64, .initial_frontier_capacity = 8,
                                   .initial_window = 1, .max_window = 16};
  for (size_t b = 0; b < nb; ++b) {
    char why[512];
    weir_ifds_stats st = WEIR_IFDS_STATS_INIT;
    ck_assert_msg(engine_matches_reference(backends[b], pb, &tiny, &st, why, sizeof why), "%s on %s",
                  why, weir_backend_id(backends[b]));
    ck_assert_uint_gt(st.path_edges, 3u * 1024u); /* the log spans four shards */
    ck_assert_uint_gt(st.incoming, 1024u);        /* so do the incoming entries */
    ck_assert_uint_ge(st.growths, 3);
    weir_backend_stats bs;
    weir_backend_get_stats(backends[b], &bs);
    ck_assert_uint_eq(bs.live_buffers, 0);
  }
  engine_close_backends(backends, nb);

  /* A limit too small for the problem: a clear refusal, nothing left behind. */
  oo.max_binding_bytes = 4096;
  nb = engine_open_backends_ex(backends, ENGINE_MAX_BACKENDS, &oo);
  for (size_t b = 0; b < nb; ++b) {
    weir_ifds_result r;
    ck_assert_int_eq(weir_ifds_solve_engine(backends[b], pb, NULL, &r, NULL), WEIR_ERR_UNSUPPORTED);
    const char *msg = weir_last_error();
    ck_assert_msg(strstr(msg, "binds at most 4096 bytes per buffer") &&
                      strstr(msg, "splits it over at most") && strstr(msg, "Fix:"),
                  "%s", msg);
    weir_backend_stats bs;
    weir_backend_get_stats(backends[b], &bs);
    ck_assert_uint_eq(bs.live_buffers, 0);
  }
  weir_ifds_problem_free(pb);
  engine_close_backends(backends, nb);
}
END_TEST

static void expect_memory_error(uint64_t limit, const weir_ifds_engine_options *opt) {
  weir_open_options oo = {.struct_size = sizeof(weir_open_options), .memory_limit_bytes = limit};
  weir_backend *cpu = NULL;
  ck_assert(weir_backend_open_ex("cpu", &oo, &cpu) == WEIR_OK);
  weir_ifds_problem *pb = generated(WEIR_IFDS_PRESET_REALISTIC, 60, 12, 12, 3);
  weir_ifds_result r;
  weir_status st = weir_ifds_solve_engine(cpu, pb, opt, &r, NULL);
  ck_assert_int_eq(st, WEIR_ERR_OUT_OF_MEMORY);
  const char *msg = weir_last_error();
  ck_assert_msg(strstr(msg, "cannot hold the solver state") && strstr(msg, "bytes resident") &&
                    strstr(msg, "Fix:"),
                "%s", msg);
  ck_assert_ptr_null(r.hold_node);
  weir_backend_stats bs;
  weir_backend_get_stats(cpu, &bs);
  ck_assert_uint_eq(bs.live_buffers, 0); /* nothing left behind on the device */
  weir_ifds_problem_free(pb);
  weir_backend_close(cpu);
}

START_TEST(memory_cap_gives_clear_error) {
  /* The supergraph alone does not fit. */
  expect_memory_error(4096, NULL);
  /* The start fits, the grown state cannot: it needs the supergraph plus at
   * least 8 bytes of log and 10 of table per path edge. */
  weir_backend *cpu = NULL;
  ck_assert(weir_backend_open("cpu", &cpu) == WEIR_OK);
  weir_ifds_problem *pb = generated(WEIR_IFDS_PRESET_REALISTIC, 60, 12, 12, 3);
  weir_ifds_engine_options tiny = {.struct_size = sizeof(weir_ifds_engine_options), .initial_table_capacity = 4, .initial_frontier_capacity = 4};
  weir_ifds_result r;
  weir_ifds_stats st = WEIR_IFDS_STATS_INIT;
  ck_assert(weir_ifds_solve_engine(cpu, pb, &tiny, &r, &st) == WEIR_OK);
  ck_assert_uint_gt(st.path_edges, 100);
  uint64_t limit = st.bytes_uploaded + 16u * st.path_edges;
  ck_assert_uint_lt(limit, st.peak_resident_bytes);
  weir_ifds_result_free(&r);
  weir_ifds_problem_free(pb);
  weir_backend_close(cpu);
  expect_memory_error(limit, &tiny);
}
END_TEST

/* Procedure i calls i+1; the last one generates fact 2, which returns up the
 * whole chain; fact 1 is killed on every call-to-return edge. */
static char *chain_text(uint32_t procs) {
  size_t cap = (size_t)procs * 160u + 256u, at = 0;
  char *t = malloc(cap);
  uint32_t nodes = 4u * (procs - 1u) + 2u;
  at += (size_t)snprintf(t + at, cap - at, "weir-ifds 1\nfacts 3\nprocs %u\nnodes %u\n", procs, nodes);
  for (uint32_t i = 0; i < procs; ++i) {
    uint32_t s = 4u * i, last = i + 1u == procs ? s + 1u : s + 3u;
    at += (size_t)snprintf(t + at, cap - at, "proc %u p%u %u %u\n", i, i, s, last);
  }
  for (uint32_t i = 0; i + 1u < procs; ++i) {
    uint32_t s = 4u * i;
    at += (size_t)snprintf(t + at, cap - at,
                           "edge %u %u id\ncall %u %u id,-1\ncallee %u %u id id\nedge %u %u id\n",
                           s, s + 1, s + 1, s + 2, s + 1, i + 1, s + 2, s + 3);
  }
  at += (size_t)snprintf(t + at, cap - at, "edge %u %u id,0>2\nseed 0 1\n", 4u * (procs - 1u),
                         4u * (procs - 1u) + 1u);
  return t;
}

START_TEST(deep_call_chain) {
  weir_backend *cpu = NULL;
  ck_assert(weir_backend_open("cpu", &cpu) == WEIR_OK);
  char *text = chain_text(10000);
  weir_ifds_problem *pb = NULL;
  ck_assert_msg(weir_ifds_load_memory("chain.ifds", text, strlen(text), &pb) == WEIR_OK, "%s",
                weir_last_error());
  char why[512];
  weir_ifds_stats st = WEIR_IFDS_STATS_INIT;
  ck_assert_msg(engine_matches_reference(cpu, pb, NULL, &st, why, sizeof why), "%s", why);
  ck_assert_uint_ge(st.iterations, 20000); /* down and back up the chain */
  ck_assert_uint_le(st.windows, 40);
  weir_ifds_problem_free(pb);
  free(text);
  weir_backend_close(cpu);
}
END_TEST

START_TEST(facts_65535) {
  weir_backend *cpu = NULL;
  ck_assert(weir_backend_open("cpu", &cpu) == WEIR_OK);
  size_t cap = 1u << 20, at = 0;
  char *t = malloc(cap);
  at += (size_t)snprintf(t + at, cap - at,
                         "weir-ifds 1\nfacts 65535\nprocs 2\nnodes 6\nproc 0 main 0 3\n"
                         "proc 1 callee 4 5\nedge 0 1 0>65534");
  for (uint32_t f = 7; f < 65534; f += 7) at += (size_t)snprintf(t + at, cap - at, ",0>%u", f);
  at += (size_t)snprintf(t + at, cap - at,
                         "\ncall 1 2 id,-7\ncallee 1 1 id,65534>1 id,1>65533\n"
                         "edge 2 3 id,-14\nedge 4 5 id\nseed 0 0\n");
  weir_ifds_problem *pb = NULL;
  ck_assert_msg(weir_ifds_load_memory("facts.ifds", t, at, &pb) == WEIR_OK, "%s",
                weir_last_error());
  char why[512];
  weir_ifds_stats st = WEIR_IFDS_STATS_INIT;
  ck_assert_msg(engine_matches_reference(cpu, pb, NULL, &st, why, sizeof why), "%s", why);
  weir_ifds_result r;
  ck_assert(weir_ifds_solve_engine(cpu, pb, NULL, &r, NULL) == WEIR_OK);
  char *text = engine_result_text(&r);
  ck_assert_ptr_nonnull(strstr(text, "\n3 65533\n")); /* 65534 -> 1 -> 65533 through the call */
  ck_assert_ptr_nonnull(strstr(text, "\n3 65534\n"));
  ck_assert_ptr_null(strstr(text, "\n3 14\n"));        /* killed after the return */
  free(text);
  weir_ifds_result_free(&r);
  weir_ifds_problem_free(pb);
  free(t);
  weir_backend_close(cpu);
}
END_TEST

START_TEST(keys_that_do_not_fit_are_refused) {
  weir_backend *cpu = NULL;
  ck_assert(weir_backend_open("cpu", &cpu) == WEIR_OK);
  /* Only the counts are read before the key check refuses the problem. */
  weir_ifds_problem pb;
  memset(&pb, 0, sizeof pb);
  pb.fact_count = 1u << 20;
  pb.node_count = 1u << 25;
  pb.proc_count = 1;
  weir_ifds_result r;
  ck_assert_int_eq(weir_ifds_solve_engine(cpu, &pb, NULL, &r, NULL), WEIR_ERR_UNSUPPORTED);
  const char *msg = weir_last_error();
  ck_assert_msg(strstr(msg, "20 + 25 + 20 = 65 key bits") && strstr(msg, "Fix:"), "%s", msg);
  ck_assert_int_eq(weir_ifds_solve_engine(NULL, &pb, NULL, &r, NULL), WEIR_ERR_INVALID_ARGUMENT);
  weir_backend_close(cpu);
}
END_TEST

int main(void) {
  if (engine_requested_backends_missing()) return 77; /* CTest: skipped */
  Suite *s = suite_create("engine-cases");
  TCase *tc = tcase_create("cases");
  tcase_set_timeout(tc, 300);
  tcase_add_test(tc, micro_problems_give_expected_results);
  tcase_add_test(tc, growth_from_tiny_capacities);
  tcase_add_test(tc, relations_past_the_binding_limit);
  tcase_add_test(tc, memory_cap_gives_clear_error);
  tcase_add_test(tc, deep_call_chain);
  tcase_add_test(tc, facts_65535);
  tcase_add_test(tc, keys_that_do_not_fit_are_refused);
  suite_add_tcase(s, tc);
  SRunner *r = srunner_create(s);
  return weir_check_run(r);
}
