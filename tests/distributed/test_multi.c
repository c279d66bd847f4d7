/* weir_ifds_solve_engine_multi (issue #14): one solve across N devices of
 * this process must give the reference solver's result byte for byte, on
 * 1, 2, 3 and 4 cpu instances and on cpu + vulkan (lavapipe), for every
 * generator preset (small sizes), the micro problems of tests/ifds/micro and
 * the examples, with every ownership (issue 26: by work, by node counts,
 * every procedure spread); a bad device list must be refused with a
 * message; and the per-member figures add up.
 *
 *   weir_distributed_tests cpu      the cpu lists and the refusals
 *   weir_distributed_tests vulkan   cpu:0 + vulkan (exit 77 where Vulkan
 *                                   does not open, with the reason) */
#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/check_run.h"
#include "tests/engine/engine_check.h"
#include "weir/ifds.h"
#include "weir/ifds_gen.h"

#define MAX_PROBLEMS 64

typedef struct named_problem {
  char name[160];
  weir_ifds_problem *problem;
  char *expected; /* the reference solver's result file */
} named_problem;

static named_problem problems[MAX_PROBLEMS];
static size_t problem_count;

static void add_problem(const char *name, weir_ifds_problem *pb) {
  ck_assert_uint_lt(problem_count, MAX_PROBLEMS);
  weir_ifds_result ref;
  memset(&ref, 0, sizeof ref);
  ck_assert_msg(weir_ifds_solve_reference(pb, &ref, NULL) == WEIR_OK, "%s: %s", name,
                weir_last_error());
  named_problem *p = &problems[problem_count++];
  snprintf(p->name, sizeof p->name, "%s", name);
  p->problem = pb;
  p->expected = engine_result_text(&ref);
  ck_assert_ptr_nonnull(p->expected);
  weir_ifds_result_free(&ref);
}

static void add_dir(const char *dir) {
  DIR *d = opendir(dir);
  ck_assert_msg(d != NULL, "cannot open %s", dir);
  for (struct dirent *e; (e = readdir(d)) != NULL;) {
    size_t len = strlen(e->d_name);
    if (len < 6 || strcmp(e->d_name + len - 5, ".ifds") != 0) continue;
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    weir_ifds_problem *pb = NULL;
    ck_assert_msg(weir_ifds_load_file(path, &pb) == WEIR_OK, "%s", weir_last_error());
    add_problem(e->d_name, pb);
  }
  closedir(d);
}

/* Every preset at a small size (two seeds each), the micro problems and the
 * examples. */
static void load_problems(void) {
  for (int preset = 0; preset < WEIR_IFDS_PRESET_COUNT; ++preset)
    for (uint64_t seed = 1; seed <= 2; ++seed) {
      weir_ifds_gen_options o = {.preset = (weir_ifds_preset)preset, .seed = seed, .seeds = 3};
      if (preset == WEIR_IFDS_PRESET_WIDE_FACTS) o.facts = 96;
      else o.facts = 12;
      o.procs = preset == WEIR_IFDS_PRESET_CHAIN ? 40 : 24;
      o.nodes_per_proc = 8;
      weir_ifds_gen_defaults(&o);
      weir_ifds_problem *pb = NULL;
      ck_assert_msg(weir_ifds_generate_problem(&o, &pb) == WEIR_OK, "%s", weir_last_error());
      char name[160];
      engine_gen_command(&o, name, sizeof name);
      add_problem(name, pb);
    }
  add_dir(WEIR_SOURCE_DIR "/tests/ifds/micro");
  add_dir(WEIR_SOURCE_DIR "/examples");
}

static void free_problems(void) {
  for (size_t i = 0; i < problem_count; ++i) {
    weir_ifds_problem_free(problems[i].problem);
    free(problems[i].expected);
  }
  problem_count = 0;
}

/* Tiny first sizes: every relation, the outboxes and the inboxes grow many
 * times, iterations roll back (outbox marks included), and windows of one
 * and two iterations interleave with the exchanges differently. */
static const weir_ifds_engine_options tiny = {
    .struct_size = sizeof(weir_ifds_engine_options), .initial_table_capacity = 16, .initial_frontier_capacity = 2, .initial_window = 1,
    .max_window = 2};

/* Solves every problem across `backends` and compares with the reference. */
static void check_all_with(weir_backend *const *backends, size_t count, const char *what,
                           const weir_ifds_engine_options *options) {
  load_problems();
  ck_assert_uint_ge(problem_count, 20);
  for (size_t i = 0; i < problem_count; ++i) {
    weir_ifds_result r;
    memset(&r, 0, sizeof r);
    weir_ifds_stats st = WEIR_IFDS_STATS_INIT;
    weir_status s =
        weir_ifds_solve_engine_multi(backends, count, problems[i].problem, options, &r, &st);
    ck_assert_msg(s == WEIR_OK, "%s on %s: %s: %s", problems[i].name, what, weir_status_name(s),
                  weir_last_error());
    char *got = engine_result_text(&r);
    ck_assert_ptr_nonnull(got);
    if (strcmp(got, problems[i].expected) != 0) {
      size_t line = 1, k = 0;
      while (got[k] && got[k] == problems[i].expected[k]) line += got[k++] == '\n';
      ck_abort_msg("%s on %s: the result differs from the reference solver's at line %zu",
                   problems[i].name, what, line);
    }
    ck_assert_uint_eq(st.path_edges, r.path_edges);
    ck_assert_msg(st.devices == 0 || st.devices == count, "%s on %s: stats.devices %u, want %zu",
                  problems[i].name, what, st.devices, count);
    if (count == 1) ck_assert_uint_eq(st.exchanged_keys, 0);
    free(got);
    weir_ifds_result_free(&r);
  }
  free_problems();
}

static void check_all(weir_backend *const *backends, size_t count, const char *what) {
  check_all_with(backends, count, what, NULL);
}

static void check_cpu(size_t count) {
  weir_backend *b[4] = {NULL};
  char what[64] = "";
  ck_assert_uint_le(count, sizeof b / sizeof b[0]);
  for (size_t i = 0; i < count; ++i) {
    char spec[sizeof "cpu:" + 20]; /* room for any size_t */
    snprintf(spec, sizeof spec, "cpu:%zu", i);
    ck_assert_msg(weir_backend_open(spec, &b[i]) == WEIR_OK, "%s", weir_last_error());
    snprintf(what + strlen(what), sizeof what - strlen(what), "%s%s", i ? "," : "", spec);
  }
  check_all(b, count, what);
  engine_close_backends(b, count);
}

START_TEST(one_cpu) { check_cpu(1); }
END_TEST
START_TEST(two_cpus) { check_cpu(2); }
END_TEST
START_TEST(three_cpus) { check_cpu(3); }
END_TEST
START_TEST(four_cpus) { check_cpu(4); }
END_TEST

/* Every procedure spread (the ownership with the most exchanges: every
 * exit edge to every member) and the first partitioning by node counts. */
static const weir_ifds_engine_options spread_tiny = {
    .struct_size = sizeof(weir_ifds_engine_options), .initial_table_capacity = 16,
    .initial_frontier_capacity = 2, .initial_window = 1, .max_window = 2,
    .ownership = WEIR_IFDS_OWNERSHIP_SPREAD};
static const weir_ifds_engine_options by_nodes = {
    .struct_size = sizeof(weir_ifds_engine_options), .ownership = WEIR_IFDS_OWNERSHIP_NODES};

START_TEST(three_cpus_every_ownership) {
  weir_backend *b[3] = {NULL};
  for (int i = 0; i < 3; ++i) {
    char spec[16];
    snprintf(spec, sizeof spec, "cpu:%d", i);
    ck_assert_msg(weir_backend_open(spec, &b[i]) == WEIR_OK, "%s", weir_last_error());
  }
  check_all_with(b, 3, "cpu:0,cpu:1,cpu:2 (by nodes)", &by_nodes);
  check_all_with(b, 3, "cpu:0,cpu:1,cpu:2 (all spread, tiny capacities)", &spread_tiny);
  engine_close_backends(b, 3);
}
END_TEST

START_TEST(three_cpus_from_tiny_capacities) {
  weir_backend *b[3] = {NULL};
  for (int i = 0; i < 3; ++i) {
    char spec[16];
    snprintf(spec, sizeof spec, "cpu:%d", i);
    ck_assert_msg(weir_backend_open(spec, &b[i]) == WEIR_OK, "%s", weir_last_error());
  }
  check_all_with(b, 3, "cpu:0,cpu:1,cpu:2 (tiny capacities)", &tiny);
  engine_close_backends(b, 3);
}
END_TEST

/* Two call sites in a row each send all 601 facts into a procedure the
 * other device owns: 1,202 start edges in one round, past the 1,024 per
 * destination that a forced 16 KiB binding holds for 2 devices. The round
 * ends early (the outboxes cannot grow), the second call's iteration rolls
 * back and reruns in the next round; the result is the reference's. One
 * call site whose fan-out alone passes the limit is a clear error. */
static weir_ifds_problem *fan_problem(uint32_t facts, int calls) {
  weir_ifds_builder *b = NULL;
  weir_ifds_problem *p = NULL;
  uint32_t id, n0 = 2u * (uint32_t)calls + 1u; /* main: start, (call, return)... */
  ck_assert(weir_ifds_builder_create(facts, 2, n0 + 2u, &b) == WEIR_OK);
  ck_assert(weir_ifds_builder_proc(b, 0, 0, n0 - 1u, "main") == WEIR_OK);
  ck_assert(weir_ifds_builder_proc(b, 1, n0, n0 + 1u, "sink") == WEIR_OK);
  ck_assert(weir_ifds_builder_flow(b, 1, NULL, 0, NULL, 0, &id) == WEIR_OK);
  ck_assert(weir_ifds_builder_edge(b, 0, 1, id) == WEIR_OK);
  for (int c = 0; c < calls; ++c) {
    uint32_t site = 2u * (uint32_t)c + 1u;
    ck_assert(weir_ifds_builder_call(b, site, site + 1u, id) == WEIR_OK);
    ck_assert(weir_ifds_builder_callee(b, site, 1, id, id) == WEIR_OK);
    if (c + 1 < calls) ck_assert(weir_ifds_builder_edge(b, site + 1u, site + 2u, id) == WEIR_OK);
  }
  ck_assert(weir_ifds_builder_edge(b, n0, n0 + 1u, id) == WEIR_OK);
  for (uint32_t f = 0; f < facts; ++f) ck_assert(weir_ifds_builder_seed(b, 0, f) == WEIR_OK);
  ck_assert_msg(weir_ifds_builder_build(b, &p) == WEIR_OK, "%s", weir_last_error());
  weir_ifds_builder_free(b);
  return p;
}

/* A 16 KiB binding holds 1,024 keys per destination for 2 devices with
 * 64-bit keys, 2,048 with 32-bit ones (the outboxes take the log's width):
 * `fan` facts per call fit, two calls' worth do not, and one call of `over`
 * facts alone is too many (0: not tried; 2,049 seeds do not fit the graph's
 * 16 KiB). */
static void check_full_outboxes(int32_t wide_keys, uint32_t fan, uint32_t over) {
  weir_open_options o = WEIR_OPEN_OPTIONS_INIT;
  o.max_binding_bytes = 16384;
  weir_ifds_engine_options eo = by_nodes; /* main and sink on different devices */
  eo.wide_keys = wide_keys;
  weir_backend *b[2] = {NULL};
  ck_assert(weir_backend_open_ex("cpu:0", &o, &b[0]) == WEIR_OK);
  ck_assert(weir_backend_open_ex("cpu:1", &o, &b[1]) == WEIR_OK);
  weir_ifds_problem *p = fan_problem(fan, 3);
  weir_ifds_result want, got;
  memset(&got, 0, sizeof got);
  ck_assert(weir_ifds_solve_reference(p, &want, NULL) == WEIR_OK);
  weir_ifds_stats st = WEIR_IFDS_STATS_INIT;
  ck_assert_msg(weir_ifds_solve_engine_multi(b, 2, p, &eo, &got, &st) == WEIR_OK, "%s",
                weir_last_error());
  char *a = engine_result_text(&want), *g = engine_result_text(&got);
  ck_assert_str_eq(g, a);
  ck_assert_uint_ge(st.exchanged_keys, 3u * fan); /* every call's fan-out moved */
  ck_assert_uint_eq(st.exchanged_bytes, (wide_keys ? 8u : 4u) * st.exchanged_keys);
  free(a);
  free(g);
  weir_ifds_result_free(&want);
  weir_ifds_result_free(&got);
  weir_ifds_problem_free(p);
  if (over) {
    p = fan_problem(over, 1);
    weir_status s = weir_ifds_solve_engine_multi(b, 2, p, &eo, &got, &st);
    ck_assert_int_eq(s, WEIR_ERR_UNSUPPORTED);
    ck_assert_msg(strstr(weir_last_error(), "one iteration") && strstr(weir_last_error(), "Fix:"),
                  "%s", weir_last_error());
    weir_ifds_problem_free(p);
  }
  engine_close_backends(b, 2);
}

START_TEST(full_outboxes_end_a_round_early) {
  check_full_outboxes(1, 601, 1100);
  check_full_outboxes(0, 1100, 0);
}
END_TEST

/* main (proc 0) calls 20 cold procedures (20 nodes, the zero fact alone)
 * and then `hot` (proc 1, 40 nodes), entering it with each of 64 facts: 64
 * contexts of 40 path edges each, 2,560 of the ~3,000. By node counts hot's
 * owner gets most of them; by work hot is spread (its contexts dealt over
 * the members), and so is everything with WEIR_IFDS_OWNERSHIP_SPREAD. */
static weir_ifds_problem *hot_problem(void) {
  enum { FACTS = 64, COLD = 20, COLD_NODES = 20, HOT_NODES = 40 };
  uint32_t main_nodes = 2u * (COLD + 1u) + 2u, nodes = main_nodes + HOT_NODES + COLD * COLD_NODES;
  weir_ifds_builder *b = NULL;
  weir_ifds_problem *p = NULL;
  ck_assert(weir_ifds_builder_create(FACTS, 2 + COLD, nodes, &b) == WEIR_OK);
  ck_assert(weir_ifds_builder_proc(b, 0, 0, main_nodes - 1u, "main") == WEIR_OK);
  ck_assert(weir_ifds_builder_proc(b, 1, main_nodes, main_nodes + HOT_NODES - 1u, "hot") == WEIR_OK);
  for (uint32_t c = 0; c < COLD; ++c) {
    uint32_t first = main_nodes + HOT_NODES + c * COLD_NODES;
    char name[16];
    snprintf(name, sizeof name, "cold%u", c);
    ck_assert(weir_ifds_builder_proc(b, 2 + c, first, first + COLD_NODES - 1u, name) == WEIR_OK);
  }
  uint32_t id, zero, gen, pairs[2 * FACTS];
  for (uint32_t f = 0; f < FACTS; ++f) pairs[2 * f] = 0, pairs[2 * f + 1] = f;
  ck_assert(weir_ifds_builder_flow(b, 1, NULL, 0, NULL, 0, &id) == WEIR_OK);
  ck_assert(weir_ifds_builder_flow(b, 0, NULL, 0, NULL, 0, &zero) == WEIR_OK);
  ck_assert(weir_ifds_builder_flow(b, 0, NULL, 0, pairs + 2, FACTS - 1u, &gen) == WEIR_OK);
  /* main: start 0, then (call 2i+1, return 2i+2) for the cold ones and hot. */
  ck_assert(weir_ifds_builder_edge(b, 0, 1, id) == WEIR_OK);
  for (uint32_t c = 0; c <= COLD; ++c) {
    uint32_t site = 2u * c + 1u;
    ck_assert(weir_ifds_builder_call(b, site, site + 1u, id) == WEIR_OK);
    ck_assert(weir_ifds_builder_callee(b, site, c < COLD ? 2u + c : 1u, c < COLD ? zero : gen, id) ==
              WEIR_OK);
    ck_assert(weir_ifds_builder_edge(b, site + 1u, site + 2u, id) == WEIR_OK);
  }
  for (uint32_t n = main_nodes; n + 1u < main_nodes + HOT_NODES; ++n) /* hot: a chain */
    ck_assert(weir_ifds_builder_edge(b, n, n + 1u, id) == WEIR_OK);
  for (uint32_t c = 0; c < COLD; ++c)
    for (uint32_t n = main_nodes + HOT_NODES + c * COLD_NODES, k = 1; k < COLD_NODES; ++n, ++k)
      ck_assert(weir_ifds_builder_edge(b, n, n + 1u, id) == WEIR_OK);
  ck_assert(weir_ifds_builder_seed(b, 0, 0) == WEIR_OK);
  ck_assert_msg(weir_ifds_builder_build(b, &p) == WEIR_OK, "%s", weir_last_error());
  weir_ifds_builder_free(b);
  return p;
}

/* Solves p across b with `ownership`; the reference's result, member path
 * edges that add up, a busy time for every member; the imbalance back. */
static double solve_owned(weir_backend *const *b, size_t count, const weir_ifds_problem *p,
                          int32_t ownership, const char *want) {
  weir_ifds_engine_options o = WEIR_IFDS_ENGINE_OPTIONS_INIT;
  o.ownership = ownership;
  weir_ifds_result r;
  weir_ifds_stats st = WEIR_IFDS_STATS_INIT;
  ck_assert_msg(weir_ifds_solve_engine_multi(b, count, p, &o, &r, &st) == WEIR_OK, "%s",
                weir_last_error());
  char *got = engine_result_text(&r);
  ck_assert_str_eq(got, want);
  uint64_t sum = 0;
  for (size_t i = 0; i < count; ++i) {
    sum += st.member_path_edges[i];
    ck_assert_msg(st.member_busy_seconds[i] > 0.0, "member %zu has no busy time", i);
  }
  ck_assert_uint_eq(sum, st.path_edges);
  for (size_t i = count; i < WEIR_IFDS_MEMBER_STATS; ++i) ck_assert_uint_eq(st.member_path_edges[i], 0);
  double imbalance = weir_ifds_stats_imbalance(&st);
  ck_assert_double_ge(imbalance, 1.0);
  free(got);
  weir_ifds_result_free(&r);
  return imbalance;
}

START_TEST(ownership_by_work_balances_a_hot_procedure) {
  weir_backend *b[4] = {NULL};
  for (int i = 0; i < 4; ++i) {
    char spec[16];
    snprintf(spec, sizeof spec, "cpu:%d", i);
    ck_assert(weir_backend_open(spec, &b[i]) == WEIR_OK);
  }
  weir_ifds_problem *p = hot_problem();
  weir_ifds_result ref;
  ck_assert(weir_ifds_solve_reference(p, &ref, NULL) == WEIR_OK);
  ck_assert_uint_gt(ref.path_edges, 2560);
  char *want = engine_result_text(&ref);
  for (size_t count = 2; count <= 4; count += 2) {
    double nodes = solve_owned(b, count, p, WEIR_IFDS_OWNERSHIP_NODES, want);
    double work = solve_owned(b, count, p, WEIR_IFDS_OWNERSHIP_WORK, want);
    double spread = solve_owned(b, count, p, WEIR_IFDS_OWNERSHIP_SPREAD, want);
    ck_assert_msg(nodes > 1.5 && work < nodes && spread < nodes,
                  "%zu members: imbalance by nodes %.3f, by work %.3f, spread %.3f", count, nodes,
                  work, spread);
  }
  /* A bad mode is refused, naming it. */
  weir_ifds_engine_options o = WEIR_IFDS_ENGINE_OPTIONS_INIT;
  o.ownership = 7;
  weir_ifds_result r;
  ck_assert_int_eq(weir_ifds_solve_engine_multi(b, 2, p, &o, &r, NULL), WEIR_ERR_INVALID_ARGUMENT);
  ck_assert_msg(strstr(weir_last_error(), "ownership 7") && strstr(weir_last_error(), "Fix:"),
                "%s", weir_last_error());
  /* So is a bad WEIR_IFDS_OWNERSHIP (it applies where the option is 0). */
  o.ownership = WEIR_IFDS_OWNERSHIP_WORK;
  setenv("WEIR_IFDS_OWNERSHIP", "evenly", 1);
  weir_status s = weir_ifds_solve_engine_multi(b, 2, p, &o, &r, NULL);
  unsetenv("WEIR_IFDS_OWNERSHIP");
  ck_assert_int_eq(s, WEIR_ERR_INVALID_ARGUMENT);
  ck_assert_msg(strstr(weir_last_error(), "'evenly'") && strstr(weir_last_error(), "Fix:"), "%s",
                weir_last_error());
  free(want);
  weir_ifds_result_free(&ref);
  weir_ifds_problem_free(p);
  engine_close_backends(b, 4);
}
END_TEST

static void expect_refused(weir_status s, const char *needle) {
  ck_assert_int_eq(s, WEIR_ERR_INVALID_ARGUMENT);
  const char *m = weir_last_error();
  ck_assert_msg(m && *m, "no message");
  ck_assert_msg(strstr(m, "Fix") != NULL, "no Fix hint in '%s'", m);
  if (needle) ck_assert_msg(strstr(m, needle) != NULL, "'%s' does not name %s", m, needle);
}

START_TEST(bad_device_lists_are_refused) {
  weir_ifds_problem *pb = NULL;
  ck_assert(weir_ifds_load_file(WEIR_SOURCE_DIR "/examples/taint.ifds", &pb) == WEIR_OK);
  weir_backend *cpu = NULL;
  ck_assert(weir_backend_open("cpu", &cpu) == WEIR_OK);
  weir_backend *many[65];
  for (size_t i = 0; i < 65; ++i) many[i] = cpu;
  weir_ifds_result r;
  memset(&r, 0, sizeof r);
  weir_clear_error();
  expect_refused(weir_ifds_solve_engine_multi(NULL, 2, pb, NULL, &r, NULL), NULL);
  weir_clear_error();
  expect_refused(weir_ifds_solve_engine_multi(many, 0, pb, NULL, &r, NULL), "0");
  weir_clear_error();
  expect_refused(weir_ifds_solve_engine_multi(many, 65, pb, NULL, &r, NULL), "65");
  /* Two instances of one device: the replica sets take each device once. */
  weir_backend *twice[2] = {cpu, NULL};
  ck_assert(weir_backend_open("cpu:0", &twice[1]) == WEIR_OK);
  weir_clear_error();
  expect_refused(weir_ifds_solve_engine_multi(twice, 2, pb, NULL, &r, NULL), "same device");
  weir_backend_close(twice[1]);
  weir_backend *with_null[2] = {cpu, NULL};
  weir_clear_error();
  expect_refused(weir_ifds_solve_engine_multi(with_null, 2, pb, NULL, &r, NULL), NULL);
  weir_clear_error();
  expect_refused(weir_ifds_solve_engine_multi(many, 1, NULL, NULL, &r, NULL), NULL);
  weir_clear_error();
  expect_refused(weir_ifds_solve_engine_multi(many, 1, pb, NULL, NULL, NULL), NULL);
  ck_assert_uint_eq(r.hold_count, 0);
  ck_assert_ptr_null(r.hold_node);
  weir_backend_close(cpu);
  weir_ifds_problem_free(pb);
}
END_TEST

/* A member whose backend runs nothing (the hardening tests' stall plugin:
 * dispatch succeeds, no program runs) next to a working cpu: the solve
 * stops with an error that names the stalled member, its index and its
 * device, with its counts and a Fix (issue 23). */
START_TEST(a_stalled_member_is_named) {
  weir_ifds_problem *pb = NULL;
  ck_assert(weir_ifds_load_file(WEIR_SOURCE_DIR "/examples/taint.ifds", &pb) == WEIR_OK);
  weir_backend *b[2] = {NULL};
  ck_assert_msg(weir_backend_open("cpu:0", &b[0]) == WEIR_OK, "%s", weir_last_error());
  ck_assert_msg(weir_backend_open("plugin:" WEIR_STALL_PLUGIN, &b[1]) == WEIR_OK, "%s",
                weir_last_error());
  weir_ifds_result r;
  memset(&r, 0, sizeof r);
  weir_status s = weir_ifds_solve_engine_multi(b, 2, pb, NULL, &r, NULL);
  const char *m = weir_last_error();
  ck_assert_msg(s == WEIR_ERR_DEVICE, "%s: %s", weir_status_name(s), m);
  ck_assert_msg(strstr(m, "member 1 (stall): not converged, 0 iterations, 0 path edges") != NULL,
                "the stalled member is not named: %s", m);
  ck_assert_msg(strstr(m, "member 0 (") == NULL, "the working member is named: %s", m);
  ck_assert_msg(strstr(m, "Fix: member 1's backend") != NULL, "no Fix naming member 1: %s", m);
  ck_assert_msg(strstr(m, "--backend stall") != NULL, "no conformance command: %s", m);
  ck_assert_uint_eq(r.hold_count, 0);
  engine_close_backends(b, 2);
  weir_ifds_problem_free(pb);
}
END_TEST

START_TEST(cpu_and_vulkan) {
  weir_backend *b[2] = {NULL};
  ck_assert(weir_backend_open("cpu:0", &b[0]) == WEIR_OK);
  ck_assert_msg(weir_backend_open("vulkan", &b[1]) == WEIR_OK, "%s", weir_last_error());
  check_all(b, 2, "cpu:0,vulkan");
  weir_backend *c[3] = {b[1], b[0], NULL}; /* the order does not matter */
  ck_assert(weir_backend_open("cpu:1", &c[2]) == WEIR_OK);
  check_all(c, 3, "vulkan,cpu:0,cpu:1");
  check_all_with(c, 3, "vulkan,cpu:0,cpu:1 (tiny capacities)", &tiny);
  check_all_with(c, 3, "vulkan,cpu:0,cpu:1 (all spread, tiny capacities)", &spread_tiny);
  weir_backend_close(c[2]);
  engine_close_backends(b, 2);
}
END_TEST

int main(int argc, char **argv) {
  const char *which = argc > 1 ? argv[1] : "cpu";
  Suite *suite = suite_create("distributed");
  TCase *tc = tcase_create(which);
  tcase_set_timeout(tc, 600);
  if (strcmp(which, "vulkan") == 0) {
    /* Probed in a child (engine_check.c), as the engine tests do; the
     * reason is printed by the probe. */
    setenv("WEIR_TEST_BACKENDS", "vulkan", 1);
    if (engine_requested_backends_missing()) {
      printf("skipped: vulkan does not open here (the reason is above)\n");
      suite_add_tcase(suite, tc);
      srunner_free(srunner_create(suite));
      return 77;
    }
    tcase_add_test(tc, cpu_and_vulkan);
  } else {
    tcase_add_test(tc, one_cpu);
    tcase_add_test(tc, two_cpus);
    tcase_add_test(tc, three_cpus);
    tcase_add_test(tc, four_cpus);
    tcase_add_test(tc, three_cpus_from_tiny_capacities);
    tcase_add_test(tc, three_cpus_every_ownership);
    tcase_add_test(tc, ownership_by_work_balances_a_hot_procedure);
    tcase_add_test(tc, full_outboxes_end_a_round_early);
    tcase_add_test(tc, bad_device_lists_are_refused);
    tcase_add_test(tc, a_stalled_member_is_named);
  }
  suite_add_tcase(suite, tc);
  return weir_check_run(srunner_create(suite));
}
