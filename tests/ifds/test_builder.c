/* The builder: a problem built in memory equals the same problem loaded from
 * text, array by array; every rule refuses with the loader's message naming
 * the element; a refused element leaves the builder usable; a builder is
 * freed without leaks after any failure (ASan runs check that). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/ifds/util.h"
#include "weir/ifds.h"

static const char text[] =
    "weir-ifds 1\nfacts 4\nprocs 2\nnodes 7\n"
    "proc 0 main 0 3\nproc 1 f 4 6\n"
    "edge 0 1 id,0>1\n"
    "call 1 2 id,-1\n"
    "callee 1 1 1>2,0>3 2>1\n"
    "edge 2 3 id\n"
    "edge 4 5 id,-2\n"
    "edge 5 6 id\n"
    "edge 4 6 none\n"
    "seed 0 0\nseed 4 3\nseed 0 0\n"
    "end 5 1 1 3\n";

static uint32_t flow(weir_ifds_builder *b, int identity, const uint32_t *kills, size_t nk,
                     const uint32_t *pairs, size_t np) {
  uint32_t f = 99;
  ck_assert_msg(weir_ifds_builder_flow(b, identity, kills, nk, pairs, np, &f) == WEIR_OK, "%s",
                weir_last_error());
  return f;
}

#define OK(call) ck_assert_msg((call) == WEIR_OK, "%s", weir_last_error())

static void assert_u32s(const uint32_t *a, const uint32_t *b, size_t n, const char *what) {
  for (size_t i = 0; i < n; ++i) ck_assert_msg(a[i] == b[i], "%s[%zu]: %u != %u", what, i, a[i], b[i]);
}

/* The text's elements through the builder, flows interned in the order the
 * text names them first: the flow arrays are then identical too. */
START_TEST(equals_loaded_text) {
  weir_ifds_builder *b = NULL;
  OK(weir_ifds_builder_create(4, 2, 7, &b));
  OK(weir_ifds_builder_proc(b, 1, 4, 6, "f")); /* any ID order */
  OK(weir_ifds_builder_proc(b, 0, 0, 3, "main"));
  uint32_t gen1 = flow(b, 1, NULL, 0, (const uint32_t[]){0, 1}, 1);
  uint32_t kill1 = flow(b, 1, (const uint32_t[]){1}, 1, NULL, 0);
  uint32_t cf = flow(b, 0, NULL, 0, (const uint32_t[]){1, 2, 0, 3}, 2);
  uint32_t rf = flow(b, 0, NULL, 0, (const uint32_t[]){2, 1}, 1);
  uint32_t id = flow(b, 1, NULL, 0, NULL, 0);
  uint32_t kill2 = flow(b, 1, (const uint32_t[]){2}, 1, NULL, 0);
  uint32_t none = flow(b, 0, NULL, 0, NULL, 0);
  ck_assert_uint_eq(flow(b, 1, NULL, 0, (const uint32_t[]){3, 3, 0, 0}, 2), id); /* interned */
  ck_assert_uint_eq(none, 6);
  OK(weir_ifds_builder_edge(b, 0, 1, gen1));
  OK(weir_ifds_builder_call(b, 1, 2, kill1));
  OK(weir_ifds_builder_callee(b, 1, 1, cf, rf));
  OK(weir_ifds_builder_edge(b, 2, 3, id));
  OK(weir_ifds_builder_edge(b, 4, 5, kill2));
  OK(weir_ifds_builder_edge(b, 5, 6, id));
  OK(weir_ifds_builder_edge(b, 4, 6, none));
  OK(weir_ifds_builder_seed(b, 0, 0));
  OK(weir_ifds_builder_seed(b, 4, 3));
  OK(weir_ifds_builder_seed(b, 0, 0));
  weir_ifds_problem *built = NULL, *loaded = NULL;
  OK(weir_ifds_builder_build(b, &built));
  weir_ifds_builder_free(b);
  OK(weir_ifds_load_memory("same.ifds", text, strlen(text), &loaded));
  ifds_test_assert_same_problem(built, loaded);
  const weir_ifds_flows *x = &built->flows, *y = &loaded->flows;
  ck_assert_uint_eq(x->count, y->count);
  assert_u32s(built->succ_flow, loaded->succ_flow, 5, "succ_flow");
  assert_u32s(x->identity, y->identity, x->count, "identity");
  assert_u32s(x->kill_offset, y->kill_offset, x->count + 1, "kill_offset");
  assert_u32s(x->kill_fact, y->kill_fact, x->kill_offset[x->count], "kill_fact");
  assert_u32s(x->pair_offset, y->pair_offset, x->count + 1, "pair_offset");
  assert_u32s(x->pair_from, y->pair_from, x->pair_offset[x->count], "pair_from");
  assert_u32s(x->pair_to, y->pair_to, x->pair_offset[x->count], "pair_to");
  ck_assert_str_eq(built->source_name, "builder");
  ck_assert_uint_eq(built->warnings, 0);
  ck_assert_uint_eq(loaded->warnings, 0);
  char *a = ifds_test_problem_text(built), *c = ifds_test_problem_text(loaded);
  ck_assert_str_eq(a, c);
  free(a), free(c);
  weir_ifds_problem_free(built);
  weir_ifds_problem_free(loaded);
}
END_TEST

/* ---- refused elements ---------------------------------------------------- */

/* main 0..2 and f 3..5 (the loader tests' HEADER), facts 4, flow 0 = id. */
static weir_ifds_builder *two_procs(int close) {
  weir_ifds_builder *b = NULL;
  OK(weir_ifds_builder_create(4, 2, 6, &b));
  OK(weir_ifds_builder_proc(b, 0, 0, 2, "main"));
  OK(weir_ifds_builder_proc(b, 1, 3, 5, "f"));
  ck_assert_uint_eq(flow(b, 1, NULL, 0, NULL, 0), 0);
  if (close) OK(weir_ifds_builder_seed(b, 0, 0));
  return b;
}

/* The caller used the API, never wrote a line of the text format: no
 * Fix: may tell it to add or remove one (issue 23). */
static void refused(weir_status s, const char *message) {
  ck_assert_msg(s == WEIR_ERR_INVALID_ARGUMENT, "status %d for %s", (int)s, message);
  ck_assert_str_eq(weir_last_error(), message);
  const char *fix = strstr(message, "Fix: ");
  ck_assert_msg(fix && !strstr(fix, " line") && !strchr(fix, '`'),
                "a Fix: in text-format terms: %s", message);
}

START_TEST(counts_and_procs) {
  weir_ifds_builder *b = (weir_ifds_builder *)&b;
  refused(weir_ifds_builder_create(0, 1, 2, &b),
          "builder: counts (facts 0, procs 1, nodes 2): fact count too small (found 0, expected at least 1). Fix: the zero fact, one procedure and its start and exit nodes always exist.");
  ck_assert_ptr_null(b);
  refused(weir_ifds_builder_create(1, 0, 2, &b),
          "builder: counts (facts 1, procs 0, nodes 2): procedure count too small (found 0, expected at least 1). Fix: the zero fact, one procedure and its start and exit nodes always exist.");
  refused(weir_ifds_builder_create(1, 1, 1, &b),
          "builder: counts (facts 1, procs 1, nodes 1): node count too small (found 1, expected at least 2). Fix: the zero fact, one procedure and its start and exit nodes always exist.");
  OK(weir_ifds_builder_create(4, 2, 6, &b));
  refused(weir_ifds_builder_proc(b, 2, 0, 2, "g"),
          "builder: proc 2 (nodes 0..2): procedure out of range (found 2, expected a procedure in 0..1). Fix: use a procedure below the count given to weir_ifds_builder_create or create the builder with a larger one.");
  refused(weir_ifds_builder_proc(b, 0, 0, 6, "main"),
          "builder: proc 0 (nodes 0..6): node out of range (found 6, expected a node in 0..5). Fix: use a node below the count given to weir_ifds_builder_create or create the builder with a larger one.");
  refused(weir_ifds_builder_proc(b, 0, 2, 2, "main"),
          "builder: proc 0 (nodes 2..2): procedure start node not before its exit node (found FIRST 2 and LAST 2, expected FIRST < LAST). Fix: give the procedure at least two nodes: its start and its exit.");
  refused(weir_ifds_builder_proc(b, 0, 0, 2, "ma in"),
          "builder: proc 0 (nodes 0..2): procedure name is not one token (found byte 0x20 at offset 2 of 'ma in', expected no spaces, control characters or '#'). Fix: replace the character (for example with '_').");
  refused(weir_ifds_builder_proc(b, 0, 0, 2, ""),
          "builder: proc 0 (nodes 0..2): missing procedure name (found an empty name, expected a name of one token). Fix: give the procedure a name.");
  OK(weir_ifds_builder_proc(b, 0, 0, 2, "main"));
  refused(weir_ifds_builder_proc(b, 0, 3, 5, "f"),
          "builder: proc 0 (nodes 3..5): procedure declared twice (found 0, expected one proc per procedure (procedure 0 is declared)). Fix: call weir_ifds_builder_proc once per procedure ID; give this one its own ID.");
  refused(weir_ifds_builder_proc(b, 1, 3, 5, "main"),
          "builder: proc 1 (nodes 3..5): duplicate procedure name (found 'main', expected a name not used before (procedure 0 has it)). Fix: give every procedure its own name.");
  uint32_t id = flow(b, 1, NULL, 0, NULL, 0);
  refused(weir_ifds_builder_edge(b, 0, 1, id),
          "builder: counts (facts 4, procs 2, nodes 6): missing procedure (found procedure 1 not declared, expected every procedure 0..1 declared). Fix: call weir_ifds_builder_proc(b, 1, FIRST, LAST, NAME) before the first edge, call, callee or seed, or create the builder with fewer procedures.");
  OK(weir_ifds_builder_proc(b, 1, 3, 5, "f")); /* the refusals changed nothing */
  OK(weir_ifds_builder_edge(b, 0, 1, id));
  refused(weir_ifds_builder_proc(b, 1, 3, 5, "g"),
          "builder: proc 1 (nodes 3..5): procedure declared after the body started (found a procedure, expected procedures before the first edge, call, callee or seed). Fix: call weir_ifds_builder_proc for every procedure before the first edge, call, callee or seed.");
  weir_ifds_builder_free(b);
}
END_TEST

START_TEST(ranges_partition) {
  weir_ifds_builder *b = NULL;
  OK(weir_ifds_builder_create(4, 2, 6, &b));
  OK(weir_ifds_builder_proc(b, 0, 0, 3, "main"));
  /* An overlap is refused at once and changes nothing: the right range can
   * still be declared. */
  refused(weir_ifds_builder_proc(b, 1, 3, 5, "f"),
          "builder: proc 1 (nodes 3..5): overlapping procedure node ranges (found procedure 1 with nodes 3..5 and procedure 0 with nodes 0..3, expected disjoint ranges). Fix: give each node to exactly one procedure.");
  weir_ifds_problem *p = (weir_ifds_problem *)&p;
  refused(weir_ifds_builder_build(b, &p),
          "builder: counts (facts 4, procs 2, nodes 6): missing procedure (found procedure 1 not declared, expected every procedure 0..1 declared). Fix: call weir_ifds_builder_proc(b, 1, FIRST, LAST, NAME) before the first edge, call, callee or seed, or create the builder with fewer procedures.");
  ck_assert_ptr_null(p);
  weir_ifds_builder_free(b);
  OK(weir_ifds_builder_create(4, 2, 6, &b));
  OK(weir_ifds_builder_proc(b, 0, 0, 3, "main"));
  refused(weir_ifds_builder_proc(b, 1, 2, 5, "f"),
          "builder: proc 1 (nodes 2..5): overlapping procedure node ranges (found procedure 1 with nodes 2..5 and procedure 0 with nodes 0..3, expected disjoint ranges). Fix: give each node to exactly one procedure.");
  OK(weir_ifds_builder_proc(b, 1, 4, 5, "f"));
  OK(weir_ifds_builder_seed(b, 0, 0));
  OK(weir_ifds_builder_build(b, &p));
  weir_ifds_problem_free(p);
  weir_ifds_builder_free(b);
  OK(weir_ifds_builder_create(4, 2, 7, &b));
  OK(weir_ifds_builder_proc(b, 1, 3, 5, "f"));
  OK(weir_ifds_builder_proc(b, 0, 0, 2, "main"));
  refused(weir_ifds_builder_seed(b, 0, 0),
          "builder: proc 1 (nodes 3..5): gap between procedure node ranges (found nodes 6..6 in no procedure, expected procedures covering nodes 0..6). Fix: extend a procedure's FIRST..LAST or create the builder with fewer nodes.");
  weir_ifds_builder_free(b);
}
END_TEST

START_TEST(flows) {
  weir_ifds_builder *b = two_procs(0);
  uint32_t f = 0;
  refused(weir_ifds_builder_flow(b, 0, (const uint32_t[]){3}, 1, NULL, 0, &f),
          "builder: flow function (identity 0, 1 kills, 0 pairs), kill 0: kill without the identity (found '-3', expected identity set when there are kills). Fix: pass identity 1 to weir_ifds_builder_flow (a kill removes a fact from the identity).");
  refused(weir_ifds_builder_flow(b, 1, (const uint32_t[]){2, 0}, 2, NULL, 0, &f),
          "builder: flow function (identity 1, 2 kills, 0 pairs), kill 1: the zero fact cannot be killed (found '-0', expected a kill of a non-zero fact). Fix: remove 0 from the kills: fact 0 flows along every edge.");
  refused(weir_ifds_builder_flow(b, 1, NULL, 0, (const uint32_t[]){1, 4}, 1, &f),
          "builder: flow function (identity 1, 0 kills, 1 pairs), pair 0: fact out of range (found '4', expected a fact in 0..3). Fix: pass a fact below the count given to weir_ifds_builder_create or create the builder with more facts.");
  refused(weir_ifds_builder_flow(b, 0, NULL, 0, (const uint32_t[]){1, 2, 2, 0}, 2, &f),
          "builder: flow function (identity 0, 0 kills, 2 pairs), pair 1: only the zero fact flows into the zero fact (found '2>0', expected A>B with B != 0, or 0>0). Fix: remove the pair (0>0 is implied everywhere).");
  ck_assert_int_eq(weir_ifds_builder_flow(b, 0, NULL, 1, NULL, 0, &f), WEIR_ERR_INVALID_ARGUMENT);
  ck_assert_ptr_nonnull(strstr(weir_last_error(), "Fix:"));
  refused(weir_ifds_builder_edge(b, 0, 1, 5),
          "builder: edge 0 (from node 0 to node 1): flow out of range (found flow 5, expected a flow in 0..0 from weir_ifds_builder_flow). Fix: intern the function with weir_ifds_builder_flow and pass the index it gives.");
  weir_ifds_builder_free(b);
}
END_TEST

START_TEST(edges_and_calls) {
  weir_ifds_builder *b = two_procs(1);
  refused(weir_ifds_builder_edge(b, 0, 9, 0),
          "builder: edge 0 (from node 0 to node 9): node out of range (found 9, expected a node in 0..5). Fix: use a node below the count given to weir_ifds_builder_create or create the builder with a larger one.");
  refused(weir_ifds_builder_edge(b, 0, 3, 0),
          "builder: edge 0 (from node 0 to node 3): edge leaves its procedure (found an edge from node 0 of procedure 0 'main' to node 3 of procedure 1 'f', expected both nodes in the same procedure). Fix: connect procedures with weir_ifds_builder_call and weir_ifds_builder_callee, not edges.");
  refused(weir_ifds_builder_edge(b, 2, 1, 0),
          "builder: edge 0 (from node 2 to node 1): edge out of an exit node (found node 2, the exit of procedure 0, expected no edge leaving an exit node). Fix: an exit node only returns to call sites; end the edge elsewhere.");
  OK(weir_ifds_builder_edge(b, 3, 4, 0));
  refused(weir_ifds_builder_call(b, 3, 4, 0),
          "builder: call 0 (site 3, return 4): call node has edges (found 1 edge(s) leaving node 3, expected no edge leaving a call node). Fix: a call node continues only to the return site given to weir_ifds_builder_call; add no edge out of it.");
  refused(weir_ifds_builder_call(b, 2, 1, 0),
          "builder: call 0 (site 2, return 1): call node is an exit node (found node 2, the exit of procedure 0, expected a call node that is not its procedure's exit). Fix: add a node after the call as the return site.");
  refused(weir_ifds_builder_call(b, 0, 0, 0),
          "builder: call 0 (site 0, return 0): return site is the call node itself (found return site 0, expected another node of the same procedure). Fix: return to the node after the call.");
  refused(weir_ifds_builder_call(b, 0, 4, 0),
          "builder: call 0 (site 0, return 4): return site in another procedure (found node 4 of procedure 1 'f', expected a return site in procedure 0, like the call node). Fix: return to a node of the calling procedure.");
  refused(weir_ifds_builder_call(b, 1, 0, 0),
          "builder: call 0 (site 1, return 0): return site is a start node (found node 0, the start of procedure 0, expected a node other than the procedure's start node). Fix: return to a node after the start node.");
  OK(weir_ifds_builder_call(b, 0, 1, 0));
  refused(weir_ifds_builder_call(b, 0, 2, 0),
          "builder: call 1 (site 0, return 2): duplicate call (found a second call for node 0, expected one call per call node (the first is call 0)). Fix: call weir_ifds_builder_call once per call node and weir_ifds_builder_callee once per callee.");
  refused(weir_ifds_builder_edge(b, 0, 2, 0),
          "builder: edge 1 (from node 0 to node 2): edge out of a call node (found node 0, a call node (call 0), expected no edge leaving a call node). Fix: a call node continues only to the return site given to weir_ifds_builder_call; add no edge out of it.");
  refused(weir_ifds_builder_callee(b, 0, 2, 0, 0),
          "builder: callee 0 (site 0, proc 2): procedure out of range (found 2, expected a procedure in 0..1). Fix: use a procedure below the count given to weir_ifds_builder_create or create the builder with a larger one.");
  refused(weir_ifds_builder_seed(b, 0, 4),
          "builder: seed 1 (node 0, fact 4): fact out of range (found 4, expected a fact in 0..3). Fix: use a fact below the count given to weir_ifds_builder_create or create the builder with a larger one.");
  /* Still usable after all those refusals. */
  OK(weir_ifds_builder_callee(b, 0, 1, 0, 0));
  weir_ifds_problem *p = NULL;
  OK(weir_ifds_builder_build(b, &p));
  ck_assert_uint_eq(p->call_count, 1);
  ck_assert_uint_eq(p->succ_offset[p->node_count], 1);
  weir_ifds_problem_free(p);
  weir_ifds_builder_free(b);
}
END_TEST

/* ---- what build checks ------------------------------------------------------ */

typedef void (*fill_fn)(weir_ifds_builder *b);

static void dup_edge(weir_ifds_builder *b) {
  OK(weir_ifds_builder_edge(b, 0, 1, 0));
  OK(weir_ifds_builder_edge(b, 1, 2, 0));
  OK(weir_ifds_builder_edge(b, 0, 1, 0));
}
static void dup_callee(weir_ifds_builder *b) {
  OK(weir_ifds_builder_call(b, 0, 1, 0));
  OK(weir_ifds_builder_callee(b, 0, 1, 0, 0));
  OK(weir_ifds_builder_callee(b, 0, 1, 0, 0));
}
static void callee_without_call(weir_ifds_builder *b) {
  OK(weir_ifds_builder_edge(b, 0, 1, 0));
  OK(weir_ifds_builder_callee(b, 1, 1, 0, 0));
}
static void call_without_callee(weir_ifds_builder *b) {
  OK(weir_ifds_builder_edge(b, 0, 1, 0));
  OK(weir_ifds_builder_call(b, 1, 2, 0));
}

static const struct {
  fill_fn fill;
  const char *message;
} build_cases[] = {
    {dup_edge, "builder: edge 2 (from node 0 to node 1): duplicate edge (found a second edge 0 -> 1, expected one edge per (FROM, TO) (the first is edge 0)). Fix: merge the two flow functions into one with weir_ifds_builder_flow and add the edge once."},
    {dup_callee, "builder: callee 1 (site 0, proc 1): duplicate callee (found procedure 1 again as a callee of node 0, expected one callee per (SITE, PROC) (the first is callee 0)). Fix: call weir_ifds_builder_callee once per site and procedure."},
    {callee_without_call, "builder: callee 0 (site 1, proc 1): callee without its call (found a callee of node 1, which is no call node, expected weir_ifds_builder_call for node 1). Fix: add the call with weir_ifds_builder_call(b, SITE, RETURN, FLOW) or fix the site passed to weir_ifds_builder_callee."},
    {call_without_callee, "builder: call 0 (site 1, return 2): call node without callees (found no callee for call node 1, expected at least one weir_ifds_builder_callee(b, 1, PROC, CALL_FLOW, RETURN_FLOW)). Fix: call weir_ifds_builder_callee for every procedure the call may reach."},
};

START_TEST(build_errors) {
  weir_ifds_builder *b = two_procs(1);
  build_cases[_i].fill(b);
  weir_ifds_problem *p = (weir_ifds_problem *)&p;
  refused(weir_ifds_builder_build(b, &p), build_cases[_i].message);
  ck_assert_ptr_null(p);
  /* spent: only free is left */
  ck_assert_int_eq(weir_ifds_builder_seed(b, 0, 0), WEIR_ERR_INVALID_ARGUMENT);
  ck_assert_ptr_nonnull(strstr(weir_last_error(), "already built"));
  weir_ifds_builder_free(b);
}
END_TEST

START_TEST(no_seeds_and_bad_arguments) {
  weir_ifds_builder *b = two_procs(0);
  weir_ifds_problem *p = NULL;
  OK(weir_ifds_builder_build(b, &p));
  ck_assert_uint_eq(p->warnings, WEIR_IFDS_WARN_NO_SEEDS);
  ck_assert_ptr_nonnull(strstr(weir_ifds_warning_text(WEIR_IFDS_WARN_NO_SEEDS), "no seeds"));
  /* the same text serves a file and a builder: it names both remedies */
  ck_assert_ptr_nonnull(
      strstr(weir_ifds_warning_text(WEIR_IFDS_WARN_NO_SEEDS), "weir_ifds_builder_seed"));
  ck_assert_str_eq(weir_ifds_warning_text(1u << 30), "");
  weir_ifds_problem *again = NULL;
  ck_assert_int_eq(weir_ifds_builder_build(b, &again), WEIR_ERR_INVALID_ARGUMENT);
  ck_assert_ptr_null(again);
  weir_ifds_problem_free(p);
  weir_ifds_builder_free(b);
  weir_ifds_builder_free(NULL);
  ck_assert_int_eq(weir_ifds_builder_create(1, 1, 2, NULL), WEIR_ERR_INVALID_ARGUMENT);
  ck_assert_int_eq(weir_ifds_builder_edge(NULL, 0, 1, 0), WEIR_ERR_INVALID_ARGUMENT);
  ck_assert_ptr_nonnull(strstr(weir_last_error(), "Fix:"));
  ck_assert_int_eq(weir_ifds_builder_build(NULL, &p), WEIR_ERR_INVALID_ARGUMENT);
  ck_assert_ptr_null(p);
}
END_TEST

/* ---- memory: the declared counts are maxima, not allocations ---------------- */

#if defined(__SANITIZE_ADDRESS__)
#define IFDS_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define IFDS_TEST_ASAN 1
#endif
#endif

/* 64 MB above the address space this process uses now. ASan reserves
 * terabytes of shadow memory, so under it the steps run without the limit. */
static int limit_address_space(void) {
#ifdef IFDS_TEST_ASAN
  return 0;
#else
  FILE *f = fopen("/proc/self/statm", "r");
  unsigned long long pages = 0;
  int ok = f && fscanf(f, "%llu", &pages) == 1;
  if (f) fclose(f);
  struct rlimit rl;
  if (!ok || getrlimit(RLIMIT_AS, &rl) != 0) return -1;
  rlim_t tight = (rlim_t)(pages * (unsigned long long)sysconf(_SC_PAGESIZE) + (64ull << 20));
  if (rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur > tight) rl.rlim_cur = tight;
  return setrlimit(RLIMIT_AS, &rl) == 0 ? 1 : -1;
#endif
}

#define CHILD_CHECK(code, cond)                                              \
  do {                                                                       \
    if (!(cond)) {                                                           \
      fprintf(stderr, "step %d: %s\n  last error: %s\n", code, #cond,        \
              weir_last_error());                                            \
      _exit(code);                                                           \
    }                                                                        \
  } while (0)

/* The steps, in a child of their own so that the limit dies with it. The
 * tables the counts size took 20 bytes per procedure and 12 per node at
 * create (16 GB here); now they grow with the elements. */
static void huge_counts_child(void) {
  int limited = limit_address_space();
  CHILD_CHECK(1, limited >= 0);
  const uint32_t big = 1u << 29;
  weir_ifds_builder *b = NULL;
  CHILD_CHECK(2, weir_ifds_builder_create(4, big, big, &b) == WEIR_OK);
  CHILD_CHECK(3, weir_ifds_builder_proc(b, 0, 0, 2, "main") == WEIR_OK);
  CHILD_CHECK(4, weir_ifds_builder_proc(b, 1, 3, 5, "f") == WEIR_OK);
  if (limited) { /* a table the limit cannot hold: refused with the figures, builder intact */
    CHILD_CHECK(5, weir_ifds_builder_proc(b, big - 1, 6, 8, "g") == WEIR_ERR_OUT_OF_MEMORY);
    CHILD_CHECK(6, strstr(weir_last_error(), "procedure tables") &&
                       strstr(weir_last_error(), "ulimit -v") &&
                       strstr(weir_last_error(), "Fix: "));
  }
  CHILD_CHECK(7, weir_ifds_builder_proc(b, 2, 6, 8, "g") == WEIR_OK);
  uint32_t id = 0;
  CHILD_CHECK(8, weir_ifds_builder_flow(b, 1, NULL, 0, NULL, 0, &id) == WEIR_OK);
  CHILD_CHECK(9, weir_ifds_builder_edge(b, 0, 1, id) == WEIR_ERR_INVALID_ARGUMENT);
  CHILD_CHECK(10, strstr(weir_last_error(), "procedure 3 not declared"));
  weir_ifds_builder_free(b);
  /* every procedure declared but the ranges leave nodes out: the gap is
   * reported before any table of N entries exists */
  CHILD_CHECK(11, weir_ifds_builder_create(4, 2, big, &b) == WEIR_OK);
  CHILD_CHECK(12, weir_ifds_builder_proc(b, 1, 3, 5, "f") == WEIR_OK);
  CHILD_CHECK(13, weir_ifds_builder_proc(b, 0, 0, 2, "main") == WEIR_OK);
  CHILD_CHECK(14, weir_ifds_builder_seed(b, 0, 0) == WEIR_ERR_INVALID_ARGUMENT);
  CHILD_CHECK(15, strstr(weir_last_error(), "nodes 6..536870911 in no procedure"));
  weir_ifds_builder_free(b);
  _exit(0);
}

START_TEST(huge_counts_small_memory) {
  fflush(NULL);
  pid_t pid = fork();
  ck_assert_int_ge(pid, 0);
  if (pid == 0) huge_counts_child();
  int status = 0;
  ck_assert_int_eq(waitpid(pid, &status, 0), pid);
  ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0,
                "the child failed at step %d (signal %d); its stderr says why",
                WIFEXITED(status) ? WEXITSTATUS(status) : -1,
                WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}
END_TEST

Suite *ifds_builder_suite(void);
Suite *ifds_builder_suite(void) {
  Suite *s = suite_create("ifds-builder");
  TCase *t = tcase_create("builder");
  tcase_add_test(t, equals_loaded_text);
  tcase_add_test(t, counts_and_procs);
  tcase_add_test(t, ranges_partition);
  tcase_add_test(t, flows);
  tcase_add_test(t, edges_and_calls);
  tcase_add_loop_test(t, build_errors, 0, (int)(sizeof build_cases / sizeof build_cases[0]));
  tcase_add_test(t, no_seeds_and_bad_arguments);
  tcase_add_test(t, huge_counts_small_memory);
  suite_add_tcase(s, t);
  return s;
}
