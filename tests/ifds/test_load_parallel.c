/* The parallel loader (engine/ifds/load_split.c) against the serial one:
 * the same problem, array by array and byte for byte (flow indices too),
 * and the same error, message and FILE:LINE:COL, for inputs cut into many
 * chunks: generated problems of every preset, errors planted in an early
 * chunk, a late chunk and both (the first in the file wins), rules broken
 * between chunks, CR LF, comments, blank lines where the chunks meet, and
 * files with fewer lines than threads. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/ifds/util.h"
#include "weir/ifds_gen.h"

static const int thread_counts[] = {2, 3, 4, 7, 16};
#define THREAD_COUNTS (sizeof thread_counts / sizeof thread_counts[0])

/* ---- texts ----------------------------------------------------------------------- */

static char *generate_text(weir_ifds_preset preset, uint32_t procs, uint64_t seed, size_t *length) {
  weir_ifds_gen_options o = {.preset = preset, .procs = procs, .nodes_per_proc = 8, .seed = seed};
  if (preset == WEIR_IFDS_PRESET_WIDE_FACTS) o.procs = 4, o.facts = 300;
  char *text = NULL;
  FILE *f = open_memstream(&text, length);
  ck_assert_ptr_nonnull(f);
  ck_assert_msg(weir_ifds_generate(&o, f) == WEIR_OK, "%s", weir_last_error());
  fclose(f);
  return text;
}

/* The text's lines as an array of copies (without their LF). */
typedef struct lines {
  char **line;
  size_t count;
} lines;

static lines split_lines(const char *text, size_t length) {
  lines l = {NULL, 0};
  size_t cap = 0;
  for (const char *p = text, *end = text + length; p < end;) {
    const char *lf = memchr(p, '\n', (size_t)(end - p));
    size_t n = lf ? (size_t)(lf - p) : (size_t)(end - p);
    if (l.count == cap) {
      cap = cap ? cap * 2 : 256;
      l.line = realloc(l.line, cap * sizeof *l.line);
      ck_assert_ptr_nonnull(l.line);
    }
    l.line[l.count] = strndup(p, n);
    ck_assert_ptr_nonnull(l.line[l.count]);
    l.count++;
    p += n + 1;
  }
  return l;
}

static void set_line(lines *l, size_t i, const char *text) {
  ck_assert_uint_lt(i, l->count);
  free(l->line[i]);
  l->line[i] = strdup(text);
}

/* The lines joined again, each ending with `eol` (LF or CR LF). */
static char *join_lines(const lines *l, const char *eol, size_t *length) {
  char *text = NULL;
  FILE *f = open_memstream(&text, length);
  ck_assert_ptr_nonnull(f);
  for (size_t i = 0; i < l->count; ++i) fprintf(f, "%s%s", l->line[i], eol);
  fclose(f);
  return text;
}

static void free_lines(lines *l) {
  for (size_t i = 0; i < l->count; ++i) free(l->line[i]);
  free(l->line);
}

/* Index of the first line starting with `prefix` at or after line `from`. */
static size_t find_line(const lines *l, size_t from, const char *prefix) {
  for (size_t i = from; i < l->count; ++i)
    if (strncmp(l->line[i], prefix, strlen(prefix)) == 0) return i;
  ck_abort_msg("no line starting with '%s' after line %zu", prefix, from + 1);
  return 0;
}

/* Index of the first edge, call or callee line at or after line `from`. */
static size_t find_body(const lines *l, size_t from) {
  for (size_t i = from; i < l->count; ++i)
    if (strncmp(l->line[i], "edge ", 5) == 0 || strncmp(l->line[i], "call", 4) == 0) return i;
  ck_abort_msg("no body line after line %zu", from + 1);
  return 0;
}

/* Index of the last line starting with `prefix`. */
static size_t last_line(const lines *l, const char *prefix) {
  for (size_t i = l->count; i-- > 0;)
    if (strncmp(l->line[i], prefix, strlen(prefix)) == 0) return i;
  ck_abort_msg("no line starting with '%s'", prefix);
  return 0;
}

/* ---- comparing ------------------------------------------------------------------- */

#define SAME_ARRAY(a, b, field, count)                                                       \
  ck_assert_msg((count) == 0 || memcmp((a)->field, (b)->field, (count) * sizeof *(a)->field) == 0, \
                "%s differs", #field)

/* Every array of the two problems, byte for byte: flow indices included. */
static void assert_identical(const weir_ifds_problem *a, const weir_ifds_problem *b) {
  ck_assert_uint_eq(a->fact_count, b->fact_count);
  ck_assert_uint_eq(a->proc_count, b->proc_count);
  ck_assert_uint_eq(a->node_count, b->node_count);
  ck_assert_uint_eq(a->call_count, b->call_count);
  ck_assert_uint_eq(a->seed_count, b->seed_count);
  ck_assert_uint_eq(a->warnings, b->warnings);
  ck_assert_uint_eq(a->source_bytes, b->source_bytes);
  ck_assert_str_eq(a->source_name, b->source_name);
  size_t P = a->proc_count, N = a->node_count, C = a->call_count, S = a->seed_count;
  SAME_ARRAY(a, b, proc_first, P);
  SAME_ARRAY(a, b, proc_last, P);
  SAME_ARRAY(a, b, proc_name_offset, P + 1);
  SAME_ARRAY(a, b, names, a->proc_name_offset[P]);
  SAME_ARRAY(a, b, node_proc, N);
  SAME_ARRAY(a, b, succ_offset, N + 1);
  size_t E = a->succ_offset[N];
  SAME_ARRAY(a, b, succ_node, E);
  SAME_ARRAY(a, b, succ_flow, E);
  SAME_ARRAY(a, b, call_node, C);
  SAME_ARRAY(a, b, call_return, C);
  SAME_ARRAY(a, b, call_flow, C);
  SAME_ARRAY(a, b, node_call, N);
  SAME_ARRAY(a, b, callee_offset, C + 1);
  size_t K = a->callee_offset[C];
  SAME_ARRAY(a, b, callee_proc, K);
  SAME_ARRAY(a, b, callee_call_flow, K);
  SAME_ARRAY(a, b, callee_return_flow, K);
  SAME_ARRAY(a, b, seed_node, S);
  SAME_ARRAY(a, b, seed_fact, S);
  const weir_ifds_flows *fa = &a->flows, *fb = &b->flows;
  ck_assert_uint_eq(fa->count, fb->count);
  SAME_ARRAY(fa, fb, identity, fa->count);
  SAME_ARRAY(fa, fb, kill_offset, fa->count + 1);
  SAME_ARRAY(fa, fb, kill_fact, fa->kill_offset[fa->count]);
  SAME_ARRAY(fa, fb, pair_offset, fa->count + 1);
  SAME_ARRAY(fa, fb, pair_from, fa->pair_offset[fa->count]);
  SAME_ARRAY(fa, fb, pair_to, fa->pair_offset[fa->count]);
}

typedef struct outcome {
  weir_status status;
  char message[1024];
  weir_ifds_problem *problem;
} outcome;

/* The thread count is chosen inside the library (engine/ifds/load_split.c,
 * ifds_load_threads): weir_ifds_load_options has no field for it (that
 * struct has no struct_size, so a new field would break the ABI), and this
 * program links libweir.so, which exports only the weir_ API, so it cannot
 * call the internal functions of engine/ifds/load.h either. So each load
 * here sets WEIR_IFDS_LOAD_THREADS around the call (the library reads it
 * once per load call) and puts the old value back after it, for the other
 * suites in this process. */
typedef struct saved_env {
  char *value; /* NULL: it was unset */
} saved_env;

static saved_env set_threads(int threads) {
  const char *old = getenv("WEIR_IFDS_LOAD_THREADS");
  saved_env saved = {old ? strdup(old) : NULL};
  ck_assert(!old || saved.value);
  char value[16];
  snprintf(value, sizeof value, "%d", threads);
  ck_assert_int_eq(setenv("WEIR_IFDS_LOAD_THREADS", value, 1), 0);
  return saved;
}

static void restore_threads(saved_env saved) {
  if (saved.value)
    ck_assert_int_eq(setenv("WEIR_IFDS_LOAD_THREADS", saved.value, 1), 0);
  else
    ck_assert_int_eq(unsetenv("WEIR_IFDS_LOAD_THREADS"), 0);
  free(saved.value);
}

static weir_status load_memory_threads(const char *text, size_t length,
                                       const weir_ifds_load_options *options, int threads,
                                       weir_ifds_problem **out) {
  saved_env saved = set_threads(threads);
  weir_status s = weir_ifds_load_memory_ex("par.ifds", text, length, options, out);
  restore_threads(saved);
  return s;
}

static weir_status load_file_threads(const char *path, int threads, weir_ifds_problem **out) {
  saved_env saved = set_threads(threads);
  weir_status s = weir_ifds_load_file_ex(path, NULL, out);
  restore_threads(saved);
  return s;
}

static outcome load(const char *text, size_t length, int threads, int strict) {
  outcome o = {0};
  weir_ifds_load_options options = {.strict = strict};
  o.status = load_memory_threads(text, length, &options, threads, &o.problem);
  if (o.status != WEIR_OK) snprintf(o.message, sizeof o.message, "%s", weir_last_error());
  return o;
}

/* The serial load and one with `threads` agree; returns the serial message
 * (empty when it loaded) for the caller's own checks. */
static void assert_same_outcome(const char *text, size_t length, int threads, int strict,
                                char *message, size_t cap) {
  outcome s = load(text, length, 1, strict), p = load(text, length, threads, strict);
  ck_assert_msg(s.status == p.status, "serial: %d %s; %d threads: %d %s", s.status, s.message,
                threads, p.status, p.message);
  if (s.status == WEIR_OK)
    assert_identical(s.problem, p.problem);
  else
    ck_assert_str_eq(s.message, p.message);
  if (message) snprintf(message, cap, "%s", s.message);
  weir_ifds_problem_free(s.problem);
  weir_ifds_problem_free(p.problem);
}

static void assert_same_for_all_threads(const char *text, size_t length, int strict,
                                        char *message, size_t cap) {
  for (size_t t = 0; t < THREAD_COUNTS; ++t)
    assert_same_outcome(text, length, thread_counts[t], strict, message, cap);
}

/* ---- valid inputs ---------------------------------------------------------------- */

START_TEST(generated_presets_identical) {
  size_t n;
  char *text = generate_text((weir_ifds_preset)_i, 300, 11, &n);
  assert_same_for_all_threads(text, n, 1, NULL, 0);
  free(text);
}
END_TEST

/* The mapped-file path (pages dropped as chunks go) gives the same problem. */
START_TEST(file_identical) {
  size_t n;
  char *text = generate_text(WEIR_IFDS_PRESET_REALISTIC, 2000, 3, &n);
  char path[] = "/tmp/weir-par-XXXXXX";
  int fd = mkstemp(path);
  ck_assert_int_ge(fd, 0);
  ck_assert_int_eq(write(fd, text, n), (ssize_t)n);
  close(fd);
  weir_ifds_problem *s = NULL, *p = NULL;
  ck_assert_msg(load_file_threads(path, 1, &s) == WEIR_OK, "%s", weir_last_error());
  ck_assert_msg(load_file_threads(path, 4, &p) == WEIR_OK, "%s", weir_last_error());
  assert_identical(s, p);
  weir_ifds_problem_free(s);
  weir_ifds_problem_free(p);
  unlink(path);
  free(text);
}
END_TEST

/* The same from a mapped file with an error in its last chunk: the serial
 * pass after the chunks reads pages the chunks dropped. */
START_TEST(file_error_in_late_chunk) {
  size_t n, m;
  char *text = generate_text(WEIR_IFDS_PRESET_REALISTIC, 4000, 3, &n);
  lines l = split_lines(text, n);
  size_t late = last_line(&l, "edge ");
  set_line(&l, late, "edge 0 1 id,5>");
  char *edited = join_lines(&l, "\n", &m);
  char path[] = "/tmp/weir-par-XXXXXX";
  int fd = mkstemp(path);
  ck_assert_int_ge(fd, 0);
  ck_assert_int_eq(write(fd, edited, m), (ssize_t)m);
  close(fd);
  char serial_message[1024];
  weir_ifds_problem *p = NULL;
  ck_assert_int_eq(load_file_threads(path, 1, &p), WEIR_ERR_PARSE);
  snprintf(serial_message, sizeof serial_message, "%s", weir_last_error());
  ck_assert_int_eq(load_file_threads(path, 4, &p), WEIR_ERR_PARSE);
  ck_assert_str_eq(weir_last_error(), serial_message);
  ck_assert_ptr_nonnull(strstr(serial_message, "pair without a target fact"));
  ck_assert_ptr_null(p);
  unlink(path);
  free_lines(&l);
  free(edited);
  free(text);
}
END_TEST

START_TEST(crlf_identical) {
  size_t n, m;
  char *text = generate_text(WEIR_IFDS_PRESET_REALISTIC, 200, 5, &n);
  lines l = split_lines(text, n);
  char *crlf = join_lines(&l, "\r\n", &m);
  assert_same_for_all_threads(crlf, m, 1, NULL, 0);
  free_lines(&l);
  free(crlf);
  free(text);
}
END_TEST

/* Comment lines, comments after elements, tabs and blank lines, every few
 * lines, so that some chunk boundary falls on each. */
START_TEST(comments_and_blank_lines_identical) {
  size_t n, m;
  char *text = generate_text(WEIR_IFDS_PRESET_LOOPS, 150, 9, &n);
  lines l = split_lines(text, n);
  size_t body = find_line(&l, 0, "edge ");
  for (size_t i = body + 1; i < l.count; ++i) {
    char *line = l.line[i], buf[512];
    switch (i % 5) {
      case 0: snprintf(buf, sizeof buf, "%s  # a comment", line); break;
      case 1: snprintf(buf, sizeof buf, "\n# a comment line\n%s", line); break;
      case 2: snprintf(buf, sizeof buf, "\n\n%s\n", line); break;
      case 3: snprintf(buf, sizeof buf, "\t%s\t", line); break;
      default: snprintf(buf, sizeof buf, "%s", line); break;
    }
    set_line(&l, i, buf);
  }
  char *edited = join_lines(&l, "\n", &m);
  assert_same_for_all_threads(edited, m, 1, NULL, 0);
  /* and the file is the same problem as the original */
  outcome a = load(text, n, 1, 1), b = load(edited, m, 4, 1);
  ck_assert_int_eq(a.status, WEIR_OK);
  ck_assert_int_eq(b.status, WEIR_OK);
  b.problem->source_bytes = a.problem->source_bytes;
  assert_identical(a.problem, b.problem);
  weir_ifds_problem_free(a.problem);
  weir_ifds_problem_free(b.problem);
  free_lines(&l);
  free(edited);
  free(text);
}
END_TEST

/* A body of a few lines, cut for up to 16 threads: chunks may be empty. */
START_TEST(fewer_lines_than_threads) {
  size_t n;
  char *text = ifds_test_read_file(WEIR_IFDS_EXAMPLES_DIR "/taint.ifds", &n);
  ck_assert_ptr_nonnull(text);
  assert_same_for_all_threads(text, n, 1, NULL, 0);
  /* the body's first line only, then `end` */
  const char tiny[] = "weir-ifds 1\nfacts 1\nprocs 1\nnodes 2\nproc 0 main 0 1\n"
                      "edge 0 1 id\nend 1 0 0 0\n";
  assert_same_for_all_threads(tiny, sizeof tiny - 1, 1, NULL, 0);
  const char no_body[] = "weir-ifds 1\nfacts 1\nprocs 1\nnodes 2\nproc 0 main 0 1\n";
  assert_same_for_all_threads(no_body, sizeof no_body - 1, 0, NULL, 0);
  free(text);
}
END_TEST

/* Blank lines and comments only after the first body line: every chunk but
 * the first has no element, and the chunks meet in the middle of them. */
START_TEST(blank_chunks_identical) {
  char text[8192];
  size_t n = (size_t)snprintf(text, sizeof text,
                              "weir-ifds 1\nfacts 2\nprocs 1\nnodes 3\nproc 0 main 0 2\n"
                              "edge 0 1 id,0>1\n");
  for (int i = 0; i < 300; ++i)
    n += (size_t)snprintf(text + n, sizeof text - n, i % 3 ? "\n" : "# c\n");
  n += (size_t)snprintf(text + n, sizeof text - n, "edge 1 2 id\nseed 0 0\nend 2 0 0 1\n\n");
  assert_same_for_all_threads(text, n, 1, NULL, 0);
}
END_TEST

/* Numbers spelled with leading zeros, 1 to 10 digits (the fast path reads
 * up to 7 digits 8 bytes at a time, longer ones byte by byte), give the
 * problem of the plain spelling; lines end close to the end of the text. */
START_TEST(number_spellings_identical) {
  char plain[8192], padded[8192];
  size_t n = 0, m = 0;
  const char head[] = "weir-ifds 1\nfacts 4\nprocs 1\nnodes 40\nproc 0 main 0 39\n";
  n += (size_t)snprintf(plain + n, sizeof plain - n, "%s", head);
  m += (size_t)snprintf(padded + m, sizeof padded - m, "%s", head);
  for (int i = 0; i < 38; ++i) {
    int w = 1 + i % 10, v = 1 + i % 9;
    n += (size_t)snprintf(plain + n, sizeof plain - n, "edge %d %d id\n", i, i + 1);
    m += (size_t)snprintf(padded + m, sizeof padded - m, "edge %0*d %0*d id\n", w, i, 11 - w,
                          i + 1);
    n += (size_t)snprintf(plain + n, sizeof plain - n, "seed %d %d\n", i, v % 4);
    m += (size_t)snprintf(padded + m, sizeof padded - m, "seed %0*d %0*d\n", w, i, w, v % 4);
  }
  n += (size_t)snprintf(plain + n, sizeof plain - n, "edge 38 39 id\nseed 9 3\n");
  m += (size_t)snprintf(padded + m, sizeof padded - m, "edge 038 39 id\nseed 9 3\n");
  assert_same_for_all_threads(padded, m, 0, NULL, 0);
  outcome a = load(plain, n, 1, 0), b = load(padded, m, 3, 0);
  ck_assert_msg(a.status == WEIR_OK && b.status == WEIR_OK, "%s %s", a.message, b.message);
  b.problem->source_bytes = a.problem->source_bytes;
  assert_identical(a.problem, b.problem);
  weir_ifds_problem_free(a.problem);
  weir_ifds_problem_free(b.problem);
  /* and spellings that are refused, the same way serially and in chunks */
  const char *const bad[] = {"edge 1 2x id", "edge 12345678 1 id", "edge 4294967296 1 id",
                             "edge 1 2 ID", "edge 1234567 2 id", "seed 1 00000004",
                             "edge 1 2 id\tx"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
    size_t k = (size_t)snprintf(padded, sizeof padded, "%sedge 0 1 id\n%s\n", head, bad[i]);
    char message[1024];
    assert_same_for_all_threads(padded, k, 0, message, sizeof message);
    ck_assert_msg(strncmp(message, "par.ifds:7:", 11) == 0, "%s: %s", bad[i], message);
  }
}
END_TEST

/* Proc lines in other spellings (leading zeros, tabs, a comment, CR LF on
 * one, a long name) than the fast path's give the same problem. */
START_TEST(proc_line_spellings_identical) {
  const char plain[] = "weir-ifds 1\nfacts 2\nprocs 4\nnodes 8\nproc 0 main 0 1\n"
                       "proc 1 f 2 3\nproc 2 g 4 5\nproc 3 a_rather_long_procedure_name 6 7\n"
                       "edge 0 1 id\nedge 2 3 id\nedge 4 5 0>1\nedge 6 7 id\nseed 0 0\n";
  const char odd[] = "weir-ifds 1\nfacts 2\nprocs 4\nnodes 8\nproc 00 main 0 01\n"
                     "proc\t1 f 2 3 # f\r\nproc 2  g 0000004 5\n"
                     "proc 3 a_rather_long_procedure_name 6 0000000007\n"
                     "edge 0 1 id\nedge 2 3 id\nedge 4 5 0>1\nedge 6 7 id\nseed 0 0\n";
  outcome a = load(plain, sizeof plain - 1, 1, 0), b = load(odd, sizeof odd - 1, 1, 0);
  ck_assert_msg(a.status == WEIR_OK && b.status == WEIR_OK, "%s %s", a.message, b.message);
  b.problem->source_bytes = a.problem->source_bytes;
  assert_identical(a.problem, b.problem);
  weir_ifds_problem_free(a.problem);
  weir_ifds_problem_free(b.problem);
  assert_same_for_all_threads(odd, sizeof odd - 1, 0, NULL, 0);
}
END_TEST

/* ---- errors ------------------------------------------------------------------------ */

/* The realistic text with `count` lines replaced; the serial and parallel
 * messages agree, and name `expect_line`. */
static void planted(const size_t *at, const char *const *with, size_t count, size_t expect_line) {
  size_t n, m;
  char *text = generate_text(WEIR_IFDS_PRESET_REALISTIC, 400, 21, &n);
  lines l = split_lines(text, n);
  for (size_t i = 0; i < count; ++i) set_line(&l, at[i], with[i]);
  char *edited = join_lines(&l, "\n", &m), message[1024], where[64];
  assert_same_for_all_threads(edited, m, 1, message, sizeof message);
  snprintf(where, sizeof where, "par.ifds:%zu:", expect_line);
  ck_assert_msg(strncmp(message, where, strlen(where)) == 0, "expected %s..., got %s", where,
                message);
  free_lines(&l);
  free(edited);
  free(text);
}

/* Line index (0-based) of the first body line at or after fraction
 * num/den of the file. */
static size_t edge_at(size_t num, size_t den) {
  size_t n;
  char *text = generate_text(WEIR_IFDS_PRESET_REALISTIC, 400, 21, &n);
  lines l = split_lines(text, n);
  size_t i = find_body(&l, l.count * num / den);
  free_lines(&l);
  free(text);
  return i;
}

START_TEST(error_in_late_chunk) {
  size_t at = edge_at(15, 16);
  const char *with = "edge 0 1 bogus";
  planted(&at, &with, 1, at + 1);
}
END_TEST

START_TEST(error_in_early_chunk) {
  size_t at = edge_at(1, 16);
  const char *with = "edge 0 99999999 id";
  planted(&at, &with, 1, at + 1);
}
END_TEST

START_TEST(errors_in_early_and_late_chunks_first_wins) {
  size_t at[] = {edge_at(1, 8), edge_at(7, 8)};
  const char *with[] = {"edge 0 1 id,-0", "edge x y z"};
  planted(at, with, 2, at[0] + 1);
  /* the other way round: the late chunk's kind of error early */
  const char *swapped[] = {"edge x y z", "edge 0 1 id,-0"};
  planted(at, swapped, 2, at[0] + 1);
}
END_TEST

/* Rules between lines of different chunks: a call node with an edge line
 * far before it, and a second call of a node far after the first. */
START_TEST(rules_between_chunks) {
  size_t n;
  char *text = generate_text(WEIR_IFDS_PRESET_REALISTIC, 400, 21, &n);
  lines l = split_lines(text, n);
  size_t call = find_line(&l, l.count * 7 / 8, "call ");
  unsigned site = 0, ret = 0;
  ck_assert_int_eq(sscanf(l.line[call], "call %u %u", &site, &ret), 2);
  size_t early = find_line(&l, l.count / 8, "edge ");
  char buf[96];
  /* an edge out of the (late) call node, early in the file */
  snprintf(buf, sizeof buf, "edge %u %u id", site, ret);
  char *saved = strdup(l.line[early]);
  set_line(&l, early, buf);
  size_t m;
  char *edited = join_lines(&l, "\n", &m), message[1024];
  assert_same_for_all_threads(edited, m, 1, message, sizeof message);
  ck_assert_ptr_nonnull(strstr(message, "call node has edge lines"));
  free(edited);
  /* the same call line twice, far apart */
  set_line(&l, early, saved);
  size_t late = find_body(&l, call + 1);
  size_t first_call = find_line(&l, l.count / 8, "call ");
  snprintf(buf, sizeof buf, "%s", l.line[first_call]);
  set_line(&l, late, buf);
  edited = join_lines(&l, "\n", &m);
  assert_same_for_all_threads(edited, m, 1, message, sizeof message);
  ck_assert_ptr_nonnull(strstr(message, "duplicate call line"));
  free(edited);
  free(saved);
  free_lines(&l);
  free(text);
}
END_TEST

/* The `end` trailer: wrong counts, lines after it, a missing one (strict),
 * and a last line without its LF. */
START_TEST(trailer_errors) {
  size_t n, m;
  char *text = generate_text(WEIR_IFDS_PRESET_CHAIN, 300, 4, &n), message[1024];
  lines l = split_lines(text, n);
  size_t end = find_line(&l, 0, "end ");
  char *trailer = strdup(l.line[end]);
  set_line(&l, end, "end 1 2 3 4");
  char *edited = join_lines(&l, "\n", &m);
  assert_same_for_all_threads(edited, m, 1, message, sizeof message);
  ck_assert_ptr_nonnull(strstr(message, "end line does not match the file"));
  free(edited);
  /* `end` in the middle: the lines after it */
  size_t middle = find_line(&l, l.count / 2, "edge ");
  set_line(&l, end, trailer);
  set_line(&l, middle, trailer);
  edited = join_lines(&l, "\n", &m);
  assert_same_for_all_threads(edited, m, 1, message, sizeof message);
  free(edited);
  /* no `end` at all: strict and not */
  set_line(&l, middle, "# no end here");
  set_line(&l, end, "# nor here");
  edited = join_lines(&l, "\n", &m);
  assert_same_for_all_threads(edited, m, 1, message, sizeof message);
  ck_assert_ptr_nonnull(strstr(message, "missing end line"));
  assert_same_for_all_threads(edited, m, 0, NULL, 0);
  /* and its last line cut short */
  assert_same_for_all_threads(edited, m - 3, 0, message, sizeof message);
  ck_assert_ptr_nonnull(strstr(message, "truncated last line"));
  free(edited);
  free(trailer);
  free_lines(&l);
  free(text);
}
END_TEST

/* A bad byte in a comment of a late chunk, and a duplicate edge (found when
 * the problem is built, after the merge). */
START_TEST(late_errors_of_other_kinds) {
  size_t n, m;
  char *text = generate_text(WEIR_IFDS_PRESET_REALISTIC, 400, 8, &n), message[1024];
  lines l = split_lines(text, n);
  size_t late = last_line(&l, "edge ");
  char *saved = strdup(l.line[late]);
  set_line(&l, late, "# bell \a in a comment");
  char *edited = join_lines(&l, "\n", &m);
  assert_same_for_all_threads(edited, m, 1, message, sizeof message);
  ck_assert_ptr_nonnull(strstr(message, "control character"));
  free(edited);
  size_t early = find_line(&l, l.count / 7, "edge ");
  set_line(&l, late, l.line[early]); /* the last edge line is in the last chunk or so */
  edited = join_lines(&l, "\n", &m);
  assert_same_for_all_threads(edited, m, 0, message, sizeof message);
  ck_assert_ptr_nonnull(strstr(message, "duplicate edge"));
  free(edited);
  free(saved);
  free_lines(&l);
  free(text);
}
END_TEST

/* Random edits of a generated text (a line dropped, repeated or moved,
 * a byte changed, a line cut short), each loaded serially and in 2 to 7
 * chunks: the same problem or the same message every time. */
START_TEST(random_edits_same_outcome) {
  size_t n;
  char *text = generate_text(WEIR_IFDS_PRESET_REALISTIC, 120, 6, &n);
  uint64_t state = 0x9e3779b97f4a7c15ull + (uint64_t)_i;
  int errors = 0;
  for (int round = 0; round < 40; ++round) {
    lines l = split_lines(text, n);
    for (int edit = 0; edit < 1 + round % 3; ++edit) {
      state = state * 6364136223846793005ull + 1442695040888963407ull;
      size_t i = (size_t)(state >> 33) % l.count, j = (size_t)(state >> 13) % l.count;
      char *line = l.line[i], buf[256];
      size_t len = strlen(line);
      switch ((state >> 60) % 5) {
        case 0: set_line(&l, i, "# dropped"); break;
        case 1: snprintf(buf, sizeof buf, "%s", l.line[j]), set_line(&l, i, buf); break;
        case 2:
          if (len) line[(state >> 20) % len] = (char)" 0123456789x,>-#\t"[(state >> 40) % 16];
          break;
        case 3: line[len / 2] = 0; break;
        default: snprintf(buf, sizeof buf, "%s\n%s", line, line), set_line(&l, i, buf); break;
      }
    }
    size_t m;
    char *edited = join_lines(&l, "\n", &m), message[1024];
    assert_same_outcome(edited, m, 2 + round % 6, round % 2, message, sizeof message);
    errors += message[0] != 0;
    free(edited);
    free_lines(&l);
  }
  ck_assert_int_gt(errors, 10); /* most edits break a rule */
  free(text);
}
END_TEST

/* WEIR_IFDS_LOAD_THREADS that is not a number from 1 to 64: an error naming
 * the variable and the value, with a Fix, for memory and file loads alike;
 * 64 is taken, and an empty value is unset. */
START_TEST(bad_thread_count) {
  static const char *const bad[] = {"-1", "0", "65", "1000000000000000000000", "4x",
                                    "x",  " 4", "+4", "2.5"};
  saved_env saved = set_threads(1);
  char path[] = "/tmp/weir-par-XXXXXX";
  int fd = mkstemp(path);
  ck_assert_int_ge(fd, 0);
  ck_assert_int_eq(write(fd, "weir-ifds 1\n", 12), 12);
  close(fd);
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
    ck_assert_int_eq(setenv("WEIR_IFDS_LOAD_THREADS", bad[i], 1), 0);
    for (int file = 0; file < 2; ++file) {
      weir_ifds_problem *p = NULL;
      weir_status s = file ? weir_ifds_load_file_ex(path, NULL, &p)
                           : weir_ifds_load_memory_ex("x", "weir-ifds 1\n", 12, NULL, &p);
      ck_assert_int_eq(s, WEIR_ERR_INVALID_ARGUMENT);
      const char *e = weir_last_error();
      char quoted[64];
      snprintf(quoted, sizeof quoted, "'%.32s'", bad[i]);
      ck_assert_msg(strstr(e, "WEIR_IFDS_LOAD_THREADS") && strstr(e, quoted), "%s", e);
      ck_assert_ptr_nonnull(strstr(weir_last_error(), "Fix:"));
      ck_assert_ptr_null(p);
    }
  }
  static const char *const good[] = {"", "1", "64", "007"};
  for (size_t i = 0; i < sizeof good / sizeof good[0]; ++i) {
    ck_assert_int_eq(setenv("WEIR_IFDS_LOAD_THREADS", good[i], 1), 0);
    weir_ifds_problem *p = NULL;
    /* the header alone: past the thread count, the loader's own error */
    ck_assert_int_eq(weir_ifds_load_memory_ex("x", "weir-ifds 1\n", 12, NULL, &p), WEIR_ERR_PARSE);
    ck_assert_ptr_null(strstr(weir_last_error(), "WEIR_IFDS_LOAD_THREADS"));
  }
  restore_threads(saved);
  unlink(path);
}
END_TEST

Suite *ifds_load_parallel_suite(void) {
  Suite *s = suite_create("ifds_load_parallel");
  TCase *tc = tcase_create("parallel");
  tcase_set_timeout(tc, 120);
  tcase_add_loop_test(tc, generated_presets_identical, 0, WEIR_IFDS_PRESET_COUNT);
  tcase_add_test(tc, file_identical);
  tcase_add_test(tc, file_error_in_late_chunk);
  tcase_add_test(tc, crlf_identical);
  tcase_add_test(tc, comments_and_blank_lines_identical);
  tcase_add_test(tc, fewer_lines_than_threads);
  tcase_add_test(tc, blank_chunks_identical);
  tcase_add_test(tc, number_spellings_identical);
  tcase_add_test(tc, proc_line_spellings_identical);
  tcase_add_test(tc, error_in_late_chunk);
  tcase_add_test(tc, error_in_early_chunk);
  tcase_add_test(tc, errors_in_early_and_late_chunks_first_wins);
  tcase_add_test(tc, rules_between_chunks);
  tcase_add_test(tc, trailer_errors);
  tcase_add_test(tc, late_errors_of_other_kinds);
  tcase_add_loop_test(tc, random_edits_same_outcome, 0, 8);
  tcase_add_test(tc, bad_thread_count);
  suite_add_tcase(s, tc);
  return s;
}
