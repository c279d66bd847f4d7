/* `weir bench` internals with real values: the example sequence file parsed
 * and run on the cpu backend (its read-backs checked word by word), the same
 * file on the template plugin verified and counted as one host sync, parse
 * errors named with file and line, and the median of even and odd samples. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/dispatch/seqfile.h"
#include "tests/check_run.h"

#define OK(expr) ck_assert_msg((expr) == WEIR_OK, "%s failed: %s", #expr, weir_last_error())
#define EXAMPLE WEIR_SOURCE_DIR "/bench/examples/example.seq"

START_TEST(example_reference_values) {
  weir_bench_seqfile *f = NULL;
  OK(weir_bench_seqfile_load(EXAMPLE, &f));
  ck_assert_uint_eq(f->buffer_count, 4);
  ck_assert_uint_eq(f->prefix_count, 1);
  ck_assert_uint_eq(f->step_count, 4);
  ck_assert_uint_eq(f->repeat, 100);
  ck_assert_uint_eq(f->read_count, 4);
  OK(weir_bench_seqfile_reference(f));
  const uint32_t *data = f->reference[0], *copy = f->reference[1], *hits = f->reference[2];
  ck_assert_uint_eq(f->reads[0].bytes, 4096);
  for (int i = 0; i < 1024; ++i) ck_assert_uint_eq(data[i], 1 + 100 * 2);
  for (int i = 0; i < 16384; ++i) ck_assert_uint_eq(copy[i], 201);
  ck_assert_uint_eq(hits[0], 100);
  /* seed: the file's bytes, then zeros */
  char expect[64] = {0};
  FILE *in = fopen(WEIR_SOURCE_DIR "/bench/examples/seed.txt", "rb");
  ck_assert_ptr_nonnull(in);
  size_t n = fread(expect, 1, sizeof expect, in);
  fclose(in);
  ck_assert_uint_gt(n, 10);
  ck_assert_int_eq(memcmp(f->reference[3], expect, sizeof expect), 0);
  weir_bench_seqfile_free(f);
}
END_TEST

START_TEST(example_on_plugin_verified) {
  weir_bench_seqfile *f = NULL;
  OK(weir_bench_seqfile_load(EXAMPLE, &f));
  OK(weir_bench_seqfile_reference(f));
  weir_bench_results results = {0};
  OK(weir_bench_seqfile_run(f, "plugin:" WEIR_TEMPLATE_PLUGIN, 0, 3, &results, NULL));
  ck_assert_uint_eq(results.count, 1);
  const weir_bench_record *r = &results.records[0];
  ck_assert_str_eq(r->scenario, "file:example.seq");
  ck_assert_str_eq(r->backend, "template");
  ck_assert_int_eq(r->verified, 1);
  ck_assert_uint_eq(r->items, 1 + 100 * 3);
  ck_assert_uint_eq(r->stats.dispatches, 301);
  /* The template implements no sequence ops: the engine's fallback fences
   * every dispatch, and the read-back is one more. */
  ck_assert_int_eq(weir_backend_batches_sequences(NULL), 0);
  ck_assert_uint_eq(r->stats.host_syncs, 301 + 1);
  ck_assert_uint_eq(r->trace_count, 301);
  ck_assert_str_eq(r->trace_names[1], "add_u32 (64 KiB)");
  ck_assert_int_eq(r->has_host, 1);
  ck_assert_int_eq(r->has_device, 1);
  ck_assert_uint_le(r->wall_ns.min, r->wall_ns.median);
  ck_assert_uint_le(r->wall_ns.median, r->wall_ns.max);
  weir_bench_results_free(&results);
  weir_bench_seqfile_free(f);
}
END_TEST

/* Writes `text` to a temporary file and loads it; returns the status. */
static weir_status load_text(const char *text, char *path, size_t cap) {
  snprintf(path, cap, "/tmp/weir-bench-test-XXXXXX");
  int fd = mkstemp(path);
  ck_assert_int_ge(fd, 0);
  FILE *out = fdopen(fd, "w");
  fputs(text, out);
  fclose(out);
  weir_bench_seqfile *f = NULL;
  weir_status st = weir_bench_seqfile_load(path, &f);
  weir_bench_seqfile_free(f);
  remove(path);
  if (st == WEIR_OK) ck_assert_ptr_nonnull(path);
  return st;
}

static void expect_error(const char *text, weir_status status, const char *line, const char *what) {
  char path[64];
  ck_assert_int_eq(load_text(text, path, sizeof path), status);
  char where[96];
  snprintf(where, sizeof where, "%s:%s:", path, line);
  ck_assert_msg(strstr(weir_last_error(), where) && strstr(weir_last_error(), what) &&
                    strstr(weir_last_error(), "Fix:"),
                "expected '%s' and '%s' in: %s", where, what, weir_last_error());
}

START_TEST(parse_errors_name_the_line) {
  expect_error("buffer a 4K\nstep nope a\n", WEIR_ERR_PARSE, "2", "unknown program");
  expect_error("buffer a 4K\nstep fill_u32 b push 1 2\n", WEIR_ERR_PARSE, "2", "undeclared buffer");
  expect_error("buffer a 4K\nstep add_u32 a push 1\n", WEIR_ERR_PARSE, "2",
               "takes 1 bindings and 2 push values");
  expect_error("buffer a 4K\nrepeat 2\nstep counter_u32 a\nend\nstep counter_u32 a\n",
               WEIR_ERR_PARSE, "5", "steps after 'end'");
  expect_error("buffer a 4K\nstep counter_u32 a\nread a 4K 4\n", WEIR_ERR_PARSE, "3",
               "past the end");
  expect_error("buffer a 4K\nrepeat 2\nstep counter_u32 a\n", WEIR_ERR_PARSE, "3", "without 'end'");
  expect_error("buffer a 0\n", WEIR_ERR_PARSE, "1", "positive number of bytes");
  expect_error("buffer a 4K\nbuffer a 8K\n", WEIR_ERR_PARSE, "2", "unique");
  expect_error("buffer a 4K\nfrobnicate\n", WEIR_ERR_PARSE, "2", "unknown keyword");
  expect_error("buffer a 4K\n", WEIR_ERR_PARSE, "1", "no steps");
  expect_error("buffer a 4K file /nonexistent/x.bin\n", WEIR_ERR_IO, "1", "cannot open");
  expect_error("buffer a 4 file " WEIR_SOURCE_DIR "/bench/examples/seed.txt\n", WEIR_ERR_PARSE, "1",
               "longer than buffer");
  expect_error("buffer a 4K\nstep fill_u32 a grid 0 push 1 2\n", WEIR_ERR_PARSE, "2",
               "positive counts");
}
END_TEST

START_TEST(median_min_max) {
  uint64_t odd[] = {9, 1, 5, 7, 3};
  weir_bench_summary s = weir_bench_summarise(odd, 5);
  ck_assert_uint_eq(s.median, 5);
  ck_assert_uint_eq(s.min, 1);
  ck_assert_uint_eq(s.max, 9);
  uint64_t even[] = {10, 4, 7, 1};
  s = weir_bench_summarise(even, 4);
  ck_assert_uint_eq(s.median, 5); /* (4 + 7) / 2, rounded down */
  uint64_t big[] = {UINT64_MAX, UINT64_MAX - 2};
  s = weir_bench_summarise(big, 2);
  ck_assert_uint_eq(s.median, UINT64_MAX - 1);
}
END_TEST

int main(void) {
  Suite *s = suite_create("bench");
  TCase *tc = tcase_create("bench");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, example_reference_values);
  tcase_add_test(tc, example_on_plugin_verified);
  tcase_add_test(tc, parse_errors_name_the_line);
  tcase_add_test(tc, median_min_max);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  return weir_check_run(sr);
}
