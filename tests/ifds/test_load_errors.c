/* One malformed file per validation rule of the IFDS text format, each
 * asserting the loader's exact message (file, line, column, what, found,
 * expected, fix), that nothing is returned, and (under ASan) that nothing
 * leaks. The messages are the contract of `weir solve` (exit code 2). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "weir/ifds.h"

/* Lines 1-4: the header; lines 5-6: two procedures, main 0..2 and f 3..5. */
#define COUNTS "weir-ifds 1\nfacts 4\nprocs 2\nnodes 6\n"
#define HEADER COUNTS "proc 0 main 0 2\nproc 1 f 3 5\n"

typedef struct bad_case {
  const char *rule;
  const char *text;
  const char *message;
} bad_case;

static const bad_case cases[] = {
    {"empty_file", "",
     "bad.ifds:1:1: error: empty file (found no bytes, expected `weir-ifds 1` on the first line). Fix: write the magic line `weir-ifds 1` and the header (see docs/ifds-format.md)."},
    {"only_comments", "# nothing here\n" "\n",
     "bad.ifds:3:1: error: unexpected end of file (found end of file, expected `weir-ifds 1`). Fix: complete the header: weir-ifds 1, facts, procs, nodes, then proc lines."},
    {"byte_order_mark", "\357\273\277weir-ifds 1\n",
     "bad.ifds:1:1: error: byte-order mark at the start of the file (found bytes EF BB BF, expected `weir-ifds 1`). Fix: save the file without a byte-order mark."},
    {"control_character", "weir-ifds 1\n" "facts\001 4\n",
     "bad.ifds:2:6: error: control character (found byte 0x01, expected printable text, spaces and tabs). Fix: remove the character (only spaces and tabs separate tokens, lines end with LF)."},
    {"control_in_comment", "weir-ifds 1 # a\007b\n",
     "bad.ifds:1:16: error: control character (found byte 0x07, expected printable text, spaces and tabs). Fix: remove the character (only spaces and tabs separate tokens, lines end with LF)."},
    {"stray_carriage_return", "weir-ifds 1\n" "facts 4\015 1\n",
     "bad.ifds:2:8: error: control character (found a carriage return (0x0D) not right before the line feed, expected printable text, spaces and tabs). Fix: remove the character (only spaces and tabs separate tokens, lines end with LF)."},
    {"wrong_magic", "weir-ifd 1\n",
     "bad.ifds:1:1: error: missing magic line (found 'weir-ifd', expected `weir-ifds 1`). Fix: start the file with the line `weir-ifds 1`."},
    {"wrong_version", "weir-ifds 2\n",
     "bad.ifds:1:11: error: unsupported format version (found '2', expected 1). Fix: this weir reads version 1 (`weir-ifds 1`)."},
    {"missing_version", "weir-ifds\n",
     "bad.ifds:1:10: error: missing format version (found end of line, expected format version). Fix: complete the line (see docs/ifds-format.md)."},
    {"header_out_of_order", "weir-ifds 1\n" "procs 1\n",
     "bad.ifds:2:1: error: header directive out of order (found 'procs', expected `facts`). Fix: give weir-ifds, facts, procs and nodes once each, in that order."},
    {"header_repeated", "weir-ifds 1\n" "facts 4\n" "facts 4\n",
     "bad.ifds:3:1: error: repeated header directive (found 'facts', expected `procs`). Fix: give weir-ifds, facts, procs and nodes once each, in that order."},
    {"magic_repeated", "weir-ifds 1\n" "weir-ifds 1\n",
     "bad.ifds:2:1: error: repeated header directive (found 'weir-ifds', expected `facts`). Fix: give weir-ifds, facts, procs and nodes once each, in that order."},
    {"header_after_procs", HEADER "nodes 6\n",
     "bad.ifds:7:1: error: repeated header directive (found 'nodes', expected one of proc, edge, call, callee, seed). Fix: give weir-ifds, facts, procs and nodes once each, in that order."},
    {"missing_header", "weir-ifds 1\n" "facts 4\n" "proc 0 main 0 1\n",
     "bad.ifds:3:1: error: missing header directive (found 'proc', expected `procs`). Fix: give weir-ifds, facts, procs and nodes first, in that order."},
    {"number_too_large", "weir-ifds 1\n" "facts 4294967296\n",
     "bad.ifds:2:7: error: fact count too large (found '4294967296', expected at most 4294967295). Fix: numbers are 32-bit unsigned decimals."},
    {"number_negative", "weir-ifds 1\n" "facts -1\n",
     "bad.ifds:2:7: error: negative fact count (found '-1', expected a number 0..4294967295). Fix: numbers are unsigned decimals."},
    {"number_malformed", "weir-ifds 1\n" "facts 4x\n",
     "bad.ifds:2:7: error: malformed fact count (found '4x', expected a decimal number (digits 0-9)). Fix: write the number in decimal digits."},
    {"facts_zero", "weir-ifds 1\n" "facts 0\n",
     "bad.ifds:2:7: error: fact count too small (found '0', expected at least 1). Fix: the zero fact, one procedure and its start and exit nodes always exist."},
    {"procs_zero", "weir-ifds 1\n" "facts 1\n" "procs 0\n",
     "bad.ifds:3:7: error: procedure count too small (found '0', expected at least 1). Fix: the zero fact, one procedure and its start and exit nodes always exist."},
    {"nodes_one", "weir-ifds 1\n" "facts 1\n" "procs 1\n" "nodes 1\n",
     "bad.ifds:4:7: error: node count too small (found '1', expected at least 2). Fix: the zero fact, one procedure and its start and exit nodes always exist."},
    {"header_extra_token", "weir-ifds 1\n" "facts 4 5\n",
     "bad.ifds:2:9: error: unexpected extra token (found '5', expected end of line). Fix: remove the extra token or start a comment with #."},
    {"unexpected_end_in_header", "weir-ifds 1\n" "facts 4\n",
     "bad.ifds:3:1: error: unexpected end of file (found end of file, expected `procs P`). Fix: complete the header: weir-ifds 1, facts, procs, nodes, then proc lines."},
    {"unknown_directive", HEADER "edgy 0 1 id\n",
     "bad.ifds:7:1: error: unknown directive (found 'edgy', expected one of proc, edge, call, callee, seed). Fix: directives are weir-ifds, facts, procs, nodes, proc, edge, call, callee, seed; # starts a comment."},
    {"missing_token", HEADER "edge 0 1\n",
     "bad.ifds:7:9: error: missing flow function (found end of line, expected flow function). Fix: complete the line (see docs/ifds-format.md)."},
    {"extra_token", HEADER "edge 0 1 id x\n",
     "bad.ifds:7:13: error: unexpected extra token (found 'x', expected end of line). Fix: remove the extra token or start a comment with #."},
    {"node_out_of_range", HEADER "edge 0 9 id\n",
     "bad.ifds:7:8: error: node out of range (found '9', expected a node in 0..5). Fix: use a node below the header's count or raise the count."},
    {"fact_out_of_range", HEADER "seed 0 4\n",
     "bad.ifds:7:8: error: fact out of range (found '4', expected a fact in 0..3). Fix: use a fact below the header's count or raise the count."},
    {"seed_node_negative", HEADER "seed -1 0\n",
     "bad.ifds:7:6: error: negative node (found '-1', expected a number 0..4294967295). Fix: numbers are unsigned decimals."},
    {"proc_out_of_range", COUNTS "proc 2 g 0 2\n",
     "bad.ifds:5:6: error: procedure out of range (found '2', expected a procedure in 0..1). Fix: use a procedure below the header's count or raise the count."},
    {"callee_proc_out_of_range", HEADER "call 0 1 id\n" "callee 0 2 id id\n",
     "bad.ifds:8:10: error: procedure out of range (found '2', expected a procedure in 0..1). Fix: use a procedure below the header's count or raise the count."},
    {"proc_duplicate_id", COUNTS "proc 0 main 0 2\n" "proc 0 f 3 5\n",
     "bad.ifds:6:6: error: duplicate proc line (found '0', expected one proc line per procedure (procedure 0 is on line 5)). Fix: remove the second proc line or renumber it."},
    {"proc_duplicate_name", COUNTS "proc 0 main 0 2\n" "proc 1 main 3 5\n",
     "bad.ifds:6:8: error: duplicate procedure name (found 'main', expected a name not used before (procedure 0 on line 5 has it)). Fix: give every procedure its own name."},
    {"proc_first_not_before_last", COUNTS "proc 0 main 2 2\n",
     "bad.ifds:5:13: error: procedure start node not before its exit node (found FIRST 2 and LAST 2, expected FIRST < LAST). Fix: give the procedure at least two nodes: its start and its exit."},
    {"proc_last_out_of_range", COUNTS "proc 0 main 0 6\n",
     "bad.ifds:5:15: error: node out of range (found '6', expected a node in 0..5). Fix: use a node below the header's count or raise the count."},
    {"proc_missing", COUNTS "proc 0 main 0 5\n" "seed 0 0\n",
     "bad.ifds:3:7: error: missing proc line (found no proc line for procedure 1, expected one proc line for each procedure 0..1). Fix: add `proc 1 NAME FIRST LAST` or lower the procedure count."},
    {"proc_missing_at_end", COUNTS "proc 1 main 0 5\n",
     "bad.ifds:3:7: error: missing proc line (found no proc line for procedure 0, expected one proc line for each procedure 0..1). Fix: add `proc 0 NAME FIRST LAST` or lower the procedure count."},
    {"ranges_overlap", COUNTS "proc 0 main 0 3\n" "proc 1 f 3 5\n",
     "bad.ifds:6:1: error: overlapping procedure node ranges (found procedure 1 with nodes 3..5 and procedure 0 (line 5) with nodes 0..3, expected disjoint ranges). Fix: give each node to exactly one procedure."},
    {"ranges_gap", COUNTS "proc 0 main 0 1\n" "proc 1 f 3 5\n",
     "bad.ifds:6:1: error: gap between procedure node ranges (found nodes 2..2 in no procedure, expected procedures covering nodes 0..5). Fix: extend a procedure's FIRST..LAST or lower the node count."},
    {"ranges_gap_at_end", "weir-ifds 1\n" "facts 4\n" "procs 2\n" "nodes 7\n" "proc 1 f 3 5\n" "proc 0 main 0 2\n",
     "bad.ifds:5:1: error: gap between procedure node ranges (found nodes 6..6 in no procedure, expected procedures covering nodes 0..6). Fix: extend a procedure's FIRST..LAST or lower the node count."},
    {"ranges_gap_at_start", COUNTS "proc 0 main 1 2\n" "proc 1 f 3 5\n",
     "bad.ifds:5:1: error: gap between procedure node ranges (found nodes 0..0 in no procedure, expected procedures covering nodes 0..5). Fix: extend a procedure's FIRST..LAST or lower the node count."},
    {"proc_after_body", HEADER "seed 0 0\n" "proc 1 g 3 5\n",
     "bad.ifds:8:1: error: proc line after the body started (found 'proc', expected one of edge, call, callee, seed). Fix: put every proc line before the first edge, call, callee or seed line."},
    {"edge_leaves_procedure", HEADER "edge 0 3 id\n",
     "bad.ifds:7:8: error: edge leaves its procedure (found an edge from node 0 of procedure 0 'main' to node 3 of procedure 1 'f', expected both nodes in the same procedure). Fix: connect procedures with call and callee lines, not edges."},
    {"edge_out_of_exit", HEADER "edge 2 1 id\n",
     "bad.ifds:7:6: error: edge out of an exit node (found node 2, the exit of procedure 0, expected no edge leaving an exit node). Fix: an exit node only returns to call sites; end the edge elsewhere."},
    {"edge_out_of_call_node", HEADER "call 0 1 id\n" "callee 0 1 id id\n" "edge 0 2 id\n",
     "bad.ifds:9:6: error: edge out of a call node (found node 0, a call node (call line on line 7), expected no edge leaving a call node). Fix: a call node continues only to the RETURN of its call line."},
    {"call_node_with_edges", HEADER "edge 0 2 id\n" "call 0 1 id\n",
     "bad.ifds:8:6: error: call node has edge lines (found 1 edge line(s) leaving node 0, expected no edge leaving a call node). Fix: a call node continues only to the RETURN of its call line."},
    {"callee_without_call", HEADER "edge 0 1 id\n" "callee 1 1 id id\n" "edge 1 2 id\n",
     "bad.ifds:8:1: error: callee without its call line (found a callee of node 1, which has no call line, expected a line `call 1 RETURN FLOW` somewhere in the file). Fix: add the call line of the site or fix the SITE number."},
    {"call_without_callee", HEADER "call 0 1 id\n" "edge 1 2 id\n",
     "bad.ifds:7:1: error: call node without callees (found no callee line for call node 0, expected at least one `callee 0 PROC CALLFLOW RETFLOW`). Fix: add a callee line for every procedure the call may reach."},
    {"duplicate_edge", HEADER "edge 0 1 id\n" "edge 1 2 id\n" "edge 0 1 id,0>1\n",
     "bad.ifds:9:1: error: duplicate edge (found a second edge 0 -> 1, expected one edge line per (FROM, TO) (the first is on line 7)). Fix: merge the two flow functions into one edge line."},
    {"duplicate_callee", HEADER "call 0 1 id\n" "callee 0 1 id id\n" "callee 0 1 1>1 id\n",
     "bad.ifds:9:1: error: duplicate callee (found procedure 1 again as a callee of node 0, expected one callee line per (SITE, PROC) (the first is on line 8)). Fix: remove the second callee line."},
    {"duplicate_call", HEADER "call 0 1 id\n" "call 0 2 id\n",
     "bad.ifds:8:6: error: duplicate call line (found a second call line for node 0, expected one call line per call node (the first is on line 7)). Fix: give each call node one call line and one callee line per callee."},
    {"call_node_is_exit", HEADER "call 2 1 id\n",
     "bad.ifds:7:6: error: call node is an exit node (found node 2, the exit of procedure 0, expected a call node that is not its procedure's exit). Fix: add a node after the call as the return site."},
    {"return_is_call_node", HEADER "call 0 0 id\n",
     "bad.ifds:7:8: error: return site is the call node itself (found return site 0, expected another node of the same procedure). Fix: return to the node after the call."},
    {"return_in_other_procedure", HEADER "call 0 4 id\n",
     "bad.ifds:7:8: error: return site in another procedure (found node 4 of procedure 1 'f', expected a return site in procedure 0, like the call node). Fix: return to a node of the calling procedure."},
    {"return_is_start_node", HEADER "call 1 0 id\n",
     "bad.ifds:7:8: error: return site is a start node (found node 0, the start of procedure 0, expected a node other than the procedure's start node). Fix: return to a node after the start node."},
    {"flow_trailing_comma", HEADER "edge 0 1 id,\n",
     "bad.ifds:7:13: error: empty term in flow function (found 'id,', expected a term (id, -D or A>B) between commas). Fix: remove the extra comma."},
    {"flow_pair_without_source", HEADER "edge 0 1 >3\n",
     "bad.ifds:7:10: error: pair without a source fact (found '>3', expected A>B). Fix: write the fact before '>' (0>B generates B)."},
    {"flow_pair_without_target", HEADER "edge 0 1 3>\n",
     "bad.ifds:7:10: error: pair without a target fact (found '3>', expected A>B). Fix: write the fact after '>'."},
    {"flow_kill_without_id", HEADER "edge 0 1 -3\n",
     "bad.ifds:7:10: error: kill without an earlier `id` term (found '-3', expected `id` before the kill). Fix: write `id,-D` (a kill removes D from the identity)."},
    {"flow_kill_zero", HEADER "edge 0 1 id,-0\n",
     "bad.ifds:7:13: error: the zero fact cannot be killed (found '-0', expected a kill of a non-zero fact). Fix: remove `-0`: fact 0 flows along every edge."},
    {"flow_into_zero", HEADER "edge 0 1 id,2>0\n",
     "bad.ifds:7:13: error: only the zero fact flows into the zero fact (found '2>0', expected A>B with B != 0, or 0>0). Fix: remove the pair (0>0 is implied everywhere)."},
    {"flow_none_combined", HEADER "edge 0 1 none,id\n",
     "bad.ifds:7:10: error: `none` combined with other terms (found 'none,id', expected `none` alone). Fix: drop `none`: the other terms already list what flows."},
    {"flow_unknown_term", HEADER "edge 0 1 id,foo\n",
     "bad.ifds:7:13: error: unknown flow term (found 'foo', expected id, none, -D or A>B). Fix: write terms as id, -D (kill), A>B (pair) or none."},
    {"flow_fact_out_of_range", HEADER "call 0 1 id\n" "callee 0 1 id id,1>4\n",
     "bad.ifds:8:20: error: fact out of range (found '4', expected a fact in 0..3). Fix: raise `facts` in the header or fix the fact number."},
    {"flow_fact_negative", HEADER "edge 0 1 1>-2\n",
     "bad.ifds:7:12: error: negative fact number (found '-2', expected a number 0..4294967295). Fix: facts are numbered from 0."},
    {"flow_fact_too_large", HEADER "edge 0 1 id,-99999999999\n",
     "bad.ifds:7:14: error: number too large (found '99999999999', expected at most 4294967295). Fix: use a fact below the `facts` count."},
    {"flow_malformed_fact", HEADER "edge 0 1 id,-x\n",
     "bad.ifds:7:14: error: malformed fact number (found 'x', expected digits 0-9). Fix: write terms as id, -D, A>B or none."},
    {"truncated_last_line", HEADER "seed 0 0",
     "bad.ifds:7:9: error: truncated last line (found end of file, expected a line feed (LF) ending the last line). Fix: end the file with a newline; if it was cut short, regenerate it."},
};

#define CASE_COUNT (sizeof cases / sizeof cases[0])

START_TEST(malformed_text) {
  const bad_case *c = &cases[_i];
  weir_ifds_problem *p = (weir_ifds_problem *)&p; /* must be reset to NULL */
  weir_status s = weir_ifds_load_memory("bad.ifds", c->text, strlen(c->text), &p);
  ck_assert_msg(s == WEIR_ERR_PARSE, "rule %s: status %d", c->rule, (int)s);
  ck_assert_ptr_null(p);
  ck_assert_msg(strcmp(weir_last_error(), c->message) == 0, "rule %s:\n got  %s\n want %s", c->rule,
                weir_last_error(), c->message);
}
END_TEST

/* Writes text to a temporary file; returns its path (static buffer). */
static const char *temp_file(const char *text, size_t length) {
  static char path[64];
  snprintf(path, sizeof path, "/tmp/weir-ifds-test-%d.ifds", (int)getpid());
  FILE *f = fopen(path, "wb");
  ck_assert_ptr_nonnull(f);
  ck_assert_uint_eq(fwrite(text, 1, length, f), length);
  fclose(f);
  return path;
}

START_TEST(no_such_file) {
  weir_ifds_problem *p = NULL;
  ck_assert_int_eq(weir_ifds_load_file("/nonexistent/x.ifds", &p), WEIR_ERR_IO);
  ck_assert_ptr_null(p);
  ck_assert_str_eq(weir_last_error(),
                   "/nonexistent/x.ifds:1:1: error: cannot open the problem file (found No such "
                   "file or directory, expected a readable file). Fix: check the path and its "
                   "permissions.");
}
END_TEST

/* The chunked file reader gives the same messages as the memory loader. */
START_TEST(file_errors_match_memory) {
  const char *text = HEADER "edge 0 1 id\nseed 0 0";
  const char *path = temp_file(text, strlen(text));
  weir_ifds_problem *p = NULL;
  ck_assert_int_eq(weir_ifds_load_file(path, &p), WEIR_ERR_PARSE);
  ck_assert_ptr_null(p);
  char want[512];
  snprintf(want, sizeof want, "%s:8:9: error: truncated last line (found end of file, expected a "
           "line feed (LF) ending the last line). Fix: end the file with a newline; if it was cut "
           "short, regenerate it.", path);
  ck_assert_str_eq(weir_last_error(), want);
  const char *empty = temp_file("", 0);
  ck_assert_int_eq(weir_ifds_load_file(empty, &p), WEIR_ERR_PARSE);
  ck_assert_ptr_nonnull(strstr(weir_last_error(), ":1:1: error: empty file (found no bytes"));
  unlink(path);
}
END_TEST

/* A line longer than the 4 MiB read buffer: the buffer grows, and an error
 * after it still has the right line and column. */
START_TEST(long_line_in_file) {
  size_t pad = (5u << 20);
  const char *head = HEADER "# ";
  const char *tail = "\nedge 0 1 idd\n";
  size_t hl = strlen(head), tl = strlen(tail);
  char *text = malloc(hl + pad + tl);
  ck_assert_ptr_nonnull(text);
  memcpy(text, head, hl);
  memset(text + hl, 'x', pad);
  memcpy(text + hl + pad, tail, tl);
  const char *path = temp_file(text, hl + pad + tl);
  free(text);
  weir_ifds_problem *p = NULL;
  ck_assert_int_eq(weir_ifds_load_file(path, &p), WEIR_ERR_PARSE);
  ck_assert_ptr_nonnull(strstr(weir_last_error(), ":8:10: error: unknown flow term (found 'idd'"));
  unlink(path);
}
END_TEST

/* Random damage to a valid file (bytes changed, dropped, duplicated, a cut)
 * never crashes the loader: it loads, or it fails with a well-formed
 * message. Deterministic (own PRNG); ASan runs check the memory side. */
START_TEST(mutations_are_refused_cleanly) {
  static const char base[] = HEADER
      "edge 0 1 id,0>1\ncall 1 2 id,-1\ncallee 1 1 1>2,0>3 2>1\n"
      "edge 3 4 id,-2\nedge 4 5 id\nedge 3 5 none\nseed 0 0\nseed 4 3\n";
  const char alphabet[] = "0123456789 \t\n#,->idnoe\r\001x";
  uint64_t state = 12345;
  char text[sizeof base + 64];
  int loaded = 0;
  for (int round = 0; round < 3000; ++round) {
    size_t n = sizeof base - 1;
    memcpy(text, base, n);
    for (int k = 0; k < 1 + round % 3 && n > 1; ++k) {
      state = state * 6364136223846793005ull + 1442695040888963407ull;
      size_t at = (size_t)(state >> 33) % n;
      char c = alphabet[(state >> 20) % (sizeof alphabet - 1)];
      switch ((state >> 40) % 4) {
        case 0: text[at] = c; break;                                       /* change */
        case 1: memmove(text + at, text + at + 1, n - at - 1), --n; break; /* drop */
        case 2: memmove(text + at + 1, text + at, n - at), text[at] = c, ++n; break;
        default: n = at + 1; break;                                        /* cut */
      }
    }
    weir_ifds_problem *p = NULL;
    weir_status s = weir_ifds_load_memory("fuzz.ifds", text, n, &p);
    if (s == WEIR_OK) {
      ++loaded;
      weir_ifds_result r;
      ck_assert_int_eq(weir_ifds_solve_reference(p, &r, NULL), WEIR_OK);
      weir_ifds_result_free(&r);
      weir_ifds_problem_free(p);
      continue;
    }
    const char *m = weir_last_error();
    ck_assert_int_eq(s, WEIR_ERR_PARSE);
    ck_assert_ptr_null(p);
    ck_assert_msg(strncmp(m, "fuzz.ifds:", 10) == 0 && strstr(m, ": error: ") &&
                  strstr(m, " (found ") && strstr(m, ", expected ") && strstr(m, "). Fix: "),
                  "malformed message: %s", m);
  }
  ck_assert_int_gt(loaded, 0); /* some damage (in comments, repeated terms) is harmless */
}
END_TEST

Suite *ifds_load_error_suite(void);
Suite *ifds_load_error_suite(void) {
  Suite *s = suite_create("ifds-load-errors");
  TCase *t = tcase_create("rules");
  /* Thousands of mutated files: seconds under ASan on a loaded machine,
   * past Check's 4-second default. */
  tcase_set_timeout(t, 120);
  tcase_add_loop_test(t, malformed_text, 0, (int)CASE_COUNT);
  tcase_add_test(t, no_such_file);
  tcase_add_test(t, file_errors_match_memory);
  tcase_add_test(t, long_line_in_file);
  tcase_add_test(t, mutations_are_refused_cleanly);
  suite_add_tcase(s, t);
  return s;
}
