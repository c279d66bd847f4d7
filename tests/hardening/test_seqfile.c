/* Sequence files read numbers as decimal (issue #11, item 8): "010" is 10,
 * not octal 8, and "09" is 9, not an error; 0x still means hex. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/dispatch/seqfile.h"
#include "tests/check_run.h"

#define OK(expr) ck_assert_msg((expr) == WEIR_OK, "%s failed: %s", #expr, weir_last_error())

START_TEST(numbers_are_decimal) {
  uint32_t v = 0;
  OK(weir_bench_parse_u32("010", "test", &v));
  ck_assert_uint_eq(v, 10);
  OK(weir_bench_parse_u32("09", "test", &v));
  ck_assert_uint_eq(v, 9);
  OK(weir_bench_parse_u32("0", "test", &v));
  ck_assert_uint_eq(v, 0);
  OK(weir_bench_parse_u32("0x10", "test", &v));
  ck_assert_uint_eq(v, 16);
  ck_assert_int_eq(weir_bench_parse_u32("0x", "test", &v), WEIR_ERR_PARSE);
  ck_assert_int_eq(weir_bench_parse_u32("0x-1", "test", &v), WEIR_ERR_PARSE);
  ck_assert_int_eq(weir_bench_parse_u32("4294967296", "test", &v), WEIR_ERR_PARSE);
  ck_assert_int_eq(weir_bench_parse_u32("1e3", "test", &v), WEIR_ERR_PARSE);
}
END_TEST

START_TEST(file_with_leading_zeros) {
  char path[] = "/tmp/weir-seq-XXXXXX";
  int fd = mkstemp(path);
  ck_assert_int_ge(fd, 0);
  const char *text = "buffer hits 4 value 0\n"
                     "step add_u32 hits push 09 1\n"
                     "repeat 010\n"
                     "  step counter_u32 hits\n"
                     "end\n"
                     "read hits\n";
  ck_assert_int_eq(write(fd, text, strlen(text)), (int)strlen(text));
  close(fd);
  weir_bench_seqfile *f = NULL;
  weir_status s = weir_bench_seqfile_load(path, &f);
  unlink(path);
  ck_assert_msg(s == WEIR_OK, "load failed: %s", weir_last_error());
  ck_assert_uint_eq(f->repeat, 10);
  OK(weir_bench_seqfile_reference(f));
  const uint32_t *hits = f->reference[0];
  ck_assert_uint_eq(hits[0], 10 + 9);
  weir_bench_seqfile_free(f);
}
END_TEST

/* Found by fuzz/fuzz_seqfile (fuzz/corpus/seqfile/crash-huge-buffer.seq): a
 * 40-byte file declaring a 38 GB buffer was calloc'ed (an abort under ASan). */
START_TEST(huge_buffers_are_refused_before_allocating) {
  static const char text[] = "buffer hits 038888888888# weir benc77777\n";
  weir_bench_seqfile *f = NULL;
  ck_assert_int_eq(weir_bench_seqfile_parse("huge.seq", text, sizeof text - 1, 64u << 20, &f),
                   WEIR_ERR_OUT_OF_MEMORY);
  ck_assert_ptr_null(f);
  ck_assert_ptr_nonnull(strstr(weir_last_error(), "huge.seq:1: buffer 'hits' of 38888888888 bytes"));
  ck_assert_ptr_nonnull(strstr(weir_last_error(), "Fix:"));
  /* Without a caller's bound: past the machine's physical memory. */
  static const char two[] = "buffer a 64K\nbuffer b 4000000000G\nstep noop a\n";
  ck_assert_int_eq(weir_bench_seqfile_parse("two.seq", two, sizeof two - 1, 0, &f),
                   WEIR_ERR_OUT_OF_MEMORY);
  ck_assert_ptr_nonnull(strstr(weir_last_error(), "two.seq:2: buffer 'b'"));
  ck_assert_ptr_nonnull(strstr(weir_last_error(), "this machine's memory"));
}
END_TEST

int main(void) {
  Suite *s = suite_create("seqfile");
  TCase *tc = tcase_create("seqfile");
  tcase_add_test(tc, numbers_are_decimal);
  tcase_add_test(tc, file_with_leading_zeros);
  tcase_add_test(tc, huge_buffers_are_refused_before_allocating);
  suite_add_tcase(s, tc);
  return weir_check_run(srunner_create(s));
}
