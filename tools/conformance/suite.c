/* The conformance suite: what every backend must do, written once against
 * the public interface (weir.h) and run against any backend spec. Part of
 * the `weir` command (no test framework at run time: assert.h, runner.c).
 * Each case opens the backend in its fixture, i.e. inside the case's child
 * process, because some drivers (Vulkan) do not survive a fork after device
 * creation. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tools/conformance/assert.h"
#include "tools/conformance/conformance.h"
#include "tools/conformance/runner.h"
#include "weir/builtins.h"
#include "weir/weir.h"

/* The harness's own state: the spec under test and the open instance of the
 * current test (one process per test when forking). */
static const char *g_spec;
static weir_backend *g_b;

static void open_backend(void) {
  weir_status st = weir_backend_open(g_spec, &g_b);
  conf_assert_msg(st == WEIR_OK, "opening %s: %s", g_spec, weir_last_error());
}

static void close_backend(void) {
  weir_backend_close(g_b);
  g_b = NULL;
}

#define OK(expr) conf_assert_msg((expr) == WEIR_OK, "%s failed: %s", #expr, weir_last_error())
#define FAILS_WITH(expr, status)                                                              \
  do {                                                                                        \
    weir_status st_ = (expr);                                                                 \
    conf_assert_msg(st_ == (status), "%s returned %s, expected %s (%s)", #expr,                 \
                  weir_status_name(st_), weir_status_name(status), weir_last_error());       \
    conf_assert_msg(strstr(weir_last_error(), "Fix:") != NULL, "message lacks a Fix: hint: %s",  \
                  weir_last_error());                                                         \
  } while (0)

static void fill_random(unsigned char *p, size_t n, uint32_t seed) {
  uint32_t x = seed * 2654435761u + 1u;
  for (size_t i = 0; i < n; ++i) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    p[i] = (unsigned char)(x >> 24);
  }
}

static weir_buffer alloc_u32(uint32_t count, uint32_t value) {
  weir_buffer buf;
  OK(weir_allocate(g_b, count * 4ull, &buf));
  uint32_t *host = malloc(count * 4ull);
  for (uint32_t i = 0; i < count; ++i) host[i] = value;
  OK(weir_upload(g_b, buf, host, count * 4ull));
  free(host);
  return buf;
}

static uint32_t read_u32(weir_buffer buf, uint32_t index) {
  uint32_t v = 0xdeadbeefu;
  OK(weir_download_range_into(g_b, buf, index * 4ull, 4, &v));
  return v;
}

static const weir_program *program(const char *name) {
  const weir_program *p = weir_backend_find_program(g_b, name);
  conf_assert_msg(p != NULL, "built-in program %s missing", name);
  return p;
}

/* ---- buffers -------------------------------------------------------------- */

CONF_TEST(exact_sizes) {
  static const uint64_t sizes[] = {1, 3, 4097, 64ull << 20};
  for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; ++i) {
    weir_buffer b;
    uint64_t got = 0;
    OK(weir_allocate(g_b, sizes[i], &b));
    OK(weir_buffer_size(g_b, b, &got));
    conf_assert_uint_eq(got, sizes[i]);
    OK(weir_free(g_b, b));
  }
  weir_buffer b;
  FAILS_WITH(weir_allocate(g_b, 0, &b), WEIR_ERR_INVALID_ARGUMENT);
  FAILS_WITH(weir_allocate(g_b, UINT64_MAX / 2, &b), WEIR_ERR_OUT_OF_MEMORY);
}

CONF_TEST(round_trips) {
  static const uint64_t sizes[] = {1, 3, 4097, 64ull << 20};
  for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; ++i) {
    size_t n = (size_t)sizes[i];
    unsigned char *src = malloc(n), *dst = malloc(n);
    fill_random(src, n, (uint32_t)i + 1);
    weir_buffer b;
    OK(weir_allocate(g_b, n, &b));
    OK(weir_upload(g_b, b, src, n));
    memset(dst, 0, n);
    OK(weir_download_into(g_b, b, dst, n));
    conf_assert_msg(memcmp(src, dst, n) == 0, "round trip of %zu bytes differs", n);
    void *copy = NULL;
    uint64_t copy_bytes = 0;
    OK(weir_download(g_b, b, &copy, &copy_bytes));
    conf_assert_uint_eq(copy_bytes, n);
    conf_assert(memcmp(copy, src, n) == 0);
    free(copy);
    OK(weir_free(g_b, b));
    free(src);
    free(dst);
  }
}

CONF_TEST(ranged_downloads) {
  enum { N = 4096 + 7 };
  unsigned char src[N], out[N + 2];
  fill_random(src, N, 7);
  weir_buffer b;
  OK(weir_allocate(g_b, N, &b));
  OK(weir_upload(g_b, b, src, N));
  const uint64_t offs[] = {0, 1, 1000, N - 1, N - 17};
  for (size_t i = 0; i < sizeof offs / sizeof offs[0]; ++i) {
    uint64_t len = N - offs[i] < 17 ? N - offs[i] : 17;
    memset(out, 0xAA, sizeof out);
    OK(weir_download_range_into(g_b, b, offs[i], len, out + 1));
    conf_assert(memcmp(out + 1, src + offs[i], len) == 0);
    conf_assert_uint_eq(out[0], 0xAA);       /* nothing before the range */
    conf_assert_uint_eq(out[1 + len], 0xAA); /* nothing after the range */
  }
  void *range = NULL;
  OK(weir_download_range(g_b, b, N - 1, 1, &range));
  conf_assert_uint_eq(((unsigned char *)range)[0], src[N - 1]); /* the last byte */
  free(range);
  /* Refusals leave the output untouched. */
  memset(out, 0x55, sizeof out);
  FAILS_WITH(weir_download_range_into(g_b, b, N, 1, out), WEIR_ERR_OUT_OF_RANGE);
  FAILS_WITH(weir_download_range_into(g_b, b, N - 4, 5, out), WEIR_ERR_OUT_OF_RANGE);
  FAILS_WITH(weir_download_range_into(g_b, b, UINT64_MAX, 2, out), WEIR_ERR_OUT_OF_RANGE);
  FAILS_WITH(weir_download_range_into(g_b, b, 2, UINT64_MAX, out), WEIR_ERR_OUT_OF_RANGE);
  FAILS_WITH(weir_download_into(g_b, b, out, N - 1), WEIR_ERR_OUT_OF_RANGE);
  for (size_t i = 0; i < sizeof out; ++i) conf_assert_uint_eq(out[i], 0x55);
  OK(weir_download_range_into(g_b, b, N, 0, out)); /* empty range at the end is fine */
}

CONF_TEST(ranged_uploads) {
  enum { N = 1024 };
  unsigned char expect[N], got[N], patch[3][40];
  fill_random(expect, N, 3);
  weir_buffer b;
  OK(weir_allocate(g_b, N, &b));
  OK(weir_upload(g_b, b, expect, N));
  const uint64_t offs[3] = {0, 517, N - 40};
  weir_upload_item items[3];
  for (int i = 0; i < 3; ++i) {
    fill_random(patch[i], 40, 100 + (uint32_t)i);
    memcpy(expect + offs[i], patch[i], 40);
    items[i] = (weir_upload_item){b, offs[i], patch[i], 40};
  }
  OK(weir_upload_at_many(g_b, items, 3));
  OK(weir_download_into(g_b, b, got, N));
  conf_assert(memcmp(got, expect, N) == 0);
  /* The last byte alone. */
  unsigned char last = 0x5A;
  weir_upload_item one = {b, N - 1, &last, 1};
  OK(weir_upload_at_many(g_b, &one, 1));
  conf_assert_uint_eq(read_u32(b, N / 4 - 1) >> 24, 0x5A);
  expect[N - 1] = 0x5A;
  /* A batch with one bad item changes nothing. */
  unsigned char junk[64] = {0};
  weir_upload_item bad[2] = {{b, 0, junk, 64}, {b, N - 10, junk, 11}};
  FAILS_WITH(weir_upload_at_many(g_b, bad, 2), WEIR_ERR_OUT_OF_RANGE);
  OK(weir_download_into(g_b, b, got, N));
  conf_assert(memcmp(got, expect, N) == 0);
  /* upload_many writes from offset 0 only; weir_upload refuses too much. */
  weir_upload_item off = {b, 4, junk, 4};
  FAILS_WITH(weir_upload_many(g_b, &off, 1), WEIR_ERR_INVALID_ARGUMENT);
  unsigned char big[N + 1];
  FAILS_WITH(weir_upload(g_b, b, big, N + 1), WEIR_ERR_OUT_OF_RANGE);
}

CONF_TEST(many_buffers) {
  enum { COUNT = 64, SIZE = 300 };
  weir_buffer bufs[COUNT];
  unsigned char src[COUNT][SIZE], dst[COUNT][8];
  weir_upload_item items[COUNT];
  weir_range ranges[COUNT];
  void *outs[COUNT];
  for (int i = 0; i < COUNT; ++i) {
    OK(weir_allocate(g_b, SIZE, &bufs[i]));
    fill_random(src[i], SIZE, 1000 + (uint32_t)i);
    items[i] = (weir_upload_item){bufs[i], 0, src[i], SIZE};
    ranges[i] = (weir_range){bufs[i], (uint64_t)i * 4, 8};
    outs[i] = dst[i];
  }
  weir_backend_stats before, after;
  weir_backend_get_stats(g_b, &before);
  OK(weir_upload_many(g_b, items, COUNT));
  OK(weir_download_ranges_into(g_b, ranges, COUNT, outs, COUNT));
  weir_backend_get_stats(g_b, &after);
  conf_assert_uint_eq(after.host_syncs - before.host_syncs, 2); /* one per batch */
  conf_assert_uint_eq(after.bytes_downloaded - before.bytes_downloaded, COUNT * 8);
  for (int i = 0; i < COUNT; ++i) conf_assert(memcmp(dst[i], src[i] + i * 4, 8) == 0);
  memset(dst, 0x33, sizeof dst);
  FAILS_WITH(weir_download_ranges_into(g_b, ranges, COUNT, outs, COUNT - 1),
             WEIR_ERR_INVALID_ARGUMENT);
  ranges[COUNT - 1].offset = SIZE - 7; /* 8 bytes from there run past the end */
  FAILS_WITH(weir_download_ranges_into(g_b, ranges, COUNT, outs, COUNT), WEIR_ERR_OUT_OF_RANGE);
  for (int i = 0; i < COUNT; ++i)
    for (int j = 0; j < 8; ++j) conf_assert_uint_eq(dst[i][j], 0x33);
}

CONF_TEST(device_copy) {
  enum { N = 4096 };
  unsigned char src[N], got[N];
  fill_random(src, N, 11);
  weir_buffer a, c;
  OK(weir_allocate(g_b, N, &a));
  OK(weir_allocate(g_b, N, &c));
  OK(weir_upload(g_b, a, src, N));
  unsigned char zero[N] = {0};
  OK(weir_upload(g_b, c, zero, N));
  OK(weir_copy(g_b, c, 100, a, 1000, 2000));
  OK(weir_finish(g_b));
  OK(weir_download_into(g_b, c, got, N));
  conf_assert(memcmp(got + 100, src + 1000, 2000) == 0);
  conf_assert_uint_eq(got[99], 0);
  conf_assert_uint_eq(got[2100], 0);
  FAILS_WITH(weir_copy(g_b, c, N - 10, a, 0, 11), WEIR_ERR_OUT_OF_RANGE);
  FAILS_WITH(weir_copy(g_b, a, 0, a, 10, 20), WEIR_ERR_INVALID_ARGUMENT); /* overlap */
}

/* ---- handles ---------------------------------------------------------------- */

CONF_TEST(foreign_freed_and_double_freed) {
  weir_buffer a;
  OK(weir_allocate(g_b, 64, &a));
  weir_backend *other = NULL;
  OK(weir_backend_open(g_spec, &other));
  weir_buffer theirs;
  OK(weir_allocate(other, 64, &theirs));
  unsigned char out[64];
  FAILS_WITH(weir_download_range_into(g_b, theirs, 0, 4, out), WEIR_ERR_FOREIGN_RESOURCE);
  FAILS_WITH(weir_free(g_b, theirs), WEIR_ERR_FOREIGN_RESOURCE);
  FAILS_WITH(weir_copy(g_b, a, 0, theirs, 0, 4), WEIR_ERR_FOREIGN_RESOURCE);
  const weir_program *fill = program("fill_u32");
  weir_fill_u32_push push = {1, 16};
  FAILS_WITH(weir_dispatch(g_b, fill, &theirs, 1, (weir_grid){1, 1, 1}, &push, sizeof push),
             WEIR_ERR_FOREIGN_RESOURCE);
  OK(weir_free(other, theirs));
  weir_backend_close(other);

  OK(weir_free(g_b, a));
  FAILS_WITH(weir_free(g_b, a), WEIR_ERR_FOREIGN_RESOURCE); /* double free */
  FAILS_WITH(weir_download_range_into(g_b, a, 0, 4, out), WEIR_ERR_FOREIGN_RESOURCE);
  weir_buffer again;
  OK(weir_allocate(g_b, 64, &again)); /* may reuse the slot: the old handle stays dead */
  FAILS_WITH(weir_upload(g_b, a, out, 4), WEIR_ERR_FOREIGN_RESOURCE);
  FAILS_WITH(weir_free(g_b, WEIR_NULL_BUFFER), WEIR_ERR_FOREIGN_RESOURCE);
  OK(weir_free(g_b, again));
}

CONF_TEST(memory_cap) {
  weir_backend *capped = NULL;
  weir_open_options options = {.struct_size = sizeof(weir_open_options), .memory_limit_bytes = 1u << 20};
  OK(weir_backend_open_ex(g_spec, &options, &capped));
  weir_buffer a, c;
  OK(weir_allocate(capped, 768u << 10, &a));
  weir_status st = weir_allocate(capped, 512u << 10, &c);
  conf_assert_int_eq(st, WEIR_ERR_OUT_OF_MEMORY);
  conf_assert_msg(strstr(weir_last_error(), "1048576") != NULL, "limit not named: %s",
                weir_last_error());
  OK(weir_free(capped, a));
  OK(weir_allocate(capped, 512u << 10, &c));
  weir_backend_stats stats;
  weir_backend_get_stats(capped, &stats);
  conf_assert_uint_eq(stats.resident_bytes, 512u << 10);
  conf_assert_uint_eq(stats.peak_resident_bytes, 768u << 10);
  weir_backend_close(capped); /* frees c */
}

/* ---- dispatch ------------------------------------------------------------- */

CONF_TEST(fill_default_grid) {
  enum { N = (1 << 20) + 3 };
  weir_buffer b = alloc_u32(N, 0);
  weir_fill_u32_push push = {0xC0FFEEu, N - 1}; /* leave the last element alone */
  OK(weir_dispatch(g_b, program("fill_u32"), &b, 1, (weir_grid){0, 0, 0}, &push, sizeof push));
  uint32_t *host = malloc(N * 4ull);
  OK(weir_download_into(g_b, b, host, N * 4ull));
  for (uint32_t i = 0; i < N - 1; ++i)
    if (host[i] != 0xC0FFEEu) conf_fail("element %u is %u after fill", i, host[i]);
  conf_assert_uint_eq(host[N - 1], 0);
  free(host);
}

CONF_TEST(atomics_across_workgroups) {
  weir_buffer counter = alloc_u32(1, 5);
  weir_atomic_add_u32_push push = {3};
  OK(weir_dispatch(g_b, program("atomic_add_u32"), &counter, 1, (weir_grid){1000, 2, 1}, &push,
                   sizeof push));
  conf_assert_uint_eq(read_u32(counter, 0), 5u + 1000u * 2u * WEIR_GENERIC_WORKGROUP * 3u);
}

CONF_TEST(sequence_sees_previous_step) {
  enum { N = 10000 };
  weir_buffer a = alloc_u32(N, 0), b = alloc_u32(N, 0), c = alloc_u32(N, 0);
  const weir_program *fill = program("fill_u32"), *copy = program("copy_u32"),
                     *add = program("add_u32");
  weir_fill_u32_push f = {40, N};
  weir_copy_u32_push cp = {N};
  weir_add_u32_push plus1 = {1, N}, plus2 = {2, N};
  weir_buffer ba[2] = {b, a}, cb[2] = {c, b};
  weir_step steps[] = {
      {fill, &a, 1, {0, 0, 0}, &f, sizeof f},       /* a = 40 */
      {copy, ba, 2, {0, 0, 0}, &cp, sizeof cp},     /* b = a */
      {add, &b, 1, {0, 0, 0}, &plus1, sizeof plus1}, /* b = 41 */
      {copy, cb, 2, {0, 0, 0}, &cp, sizeof cp},     /* c = b */
      {add, &c, 1, {0, 0, 0}, &plus2, sizeof plus2}, /* c = 43 */
  };
  uint32_t first[2], last[2], bval;
  weir_range reads[3] = {{c, 0, 8}, {c, (N - 2) * 4ull, 8}, {b, 4, 4}};
  void *outs[3] = {first, last, &bval};
  weir_backend_stats before, after;
  weir_backend_get_stats(g_b, &before);
  OK(weir_dispatch_sequence_read_ranges_into(g_b, steps, 5, reads, 3, outs, 3));
  weir_backend_get_stats(g_b, &after);
  /* One synchronization when the backend batches sequences; else the
   * engine's fallback: one per dispatch and one for the read-back. */
  uint64_t syncs = weir_backend_batches_sequences(g_b) ? 1 : 5 + 1;
  conf_assert_uint_eq(first[0], 43);
  conf_assert_uint_eq(first[1], 43);
  conf_assert_uint_eq(last[1], 43);
  conf_assert_uint_eq(bval, 41);
  conf_assert_uint_eq(after.host_syncs - before.host_syncs, syncs);
  conf_assert_uint_eq(after.dispatches - before.dispatches, 5);
  conf_assert_uint_eq(after.bytes_downloaded - before.bytes_downloaded, 20);
}

static uint32_t run_repeated(uint64_t repeats) {
  weir_buffer counter = alloc_u32(1, 0);
  weir_fill_u32_push start = {7, 1};
  weir_step prefix = {program("fill_u32"), &counter, 1, {1, 1, 1}, &start, sizeof start};
  weir_step tick = {program("counter_u32"), &counter, 1, {0, 0, 0}, NULL, 0};
  uint32_t value = 0;
  weir_range read = {counter, 0, 4};
  void *out[1] = {&value};
  weir_backend_stats before, after;
  weir_backend_get_stats(g_b, &before);
  OK(weir_dispatch_repeated_sequence_read_ranges_into(g_b, &prefix, 1, &tick, 1, repeats, &read,
                                                      1, out, 1));
  weir_backend_get_stats(g_b, &after);
  uint64_t syncs = weir_backend_batches_sequences(g_b) ? 1 : 1 + repeats + 1;
  conf_assert_uint_eq(after.host_syncs - before.host_syncs, syncs);
  conf_assert_uint_eq(after.dispatches - before.dispatches, 1 + repeats);
  OK(weir_free(g_b, counter));
  return value;
}

CONF_TEST(repeated_sequences) {
  conf_assert_uint_eq(run_repeated(0), 7);
  conf_assert_uint_eq(run_repeated(1), 8);
  conf_assert_uint_eq(run_repeated(1000), 1007);
  /* A two-step group, no prefix: each repeat adds 2 then doubles via copy+add. */
  weir_buffer x = alloc_u32(4, 1);
  weir_add_u32_push two = {2, 4};
  weir_step group[2] = {{program("add_u32"), &x, 1, {0, 0, 0}, &two, sizeof two},
                        {program("counter_u32"), &x, 1, {0, 0, 0}, NULL, 0}};
  uint32_t vals[4];
  weir_range read = {x, 0, 16};
  void *out[1] = {vals};
  OK(weir_dispatch_repeated_sequence_read_ranges_into(g_b, NULL, 0, group, 2, 10, &read, 1, out, 1));
  conf_assert_uint_eq(vals[0], 1 + 10 * 3);
  conf_assert_uint_eq(vals[3], 1 + 10 * 2);
}

CONF_TEST(timed_sequence) {
  weir_buffer x = alloc_u32(256, 0);
  weir_add_u32_push one = {1, 256};
  weir_step steps[3];
  for (int i = 0; i < 3; ++i)
    steps[i] = (weir_step){program("add_u32"), &x, 1, {0, 0, 0}, &one, sizeof one};
  uint64_t ns[3] = {UINT64_MAX, UINT64_MAX, UINT64_MAX};
  OK(weir_dispatch_sequence_timed(g_b, steps, 3, ns));
  for (int i = 0; i < 3; ++i) conf_assert_msg(ns[i] < 10ull * 1000000000ull, "step %d: %llu ns", i,
                                            (unsigned long long)ns[i]);
  conf_assert_uint_eq(read_u32(x, 255), 3);
}

CONF_TEST(refusals) {
  weir_buffer x = alloc_u32(16, 0);
  weir_fill_u32_push push = {1, 16};
  const weir_program *fill = program("fill_u32");
  weir_buffer two[2] = {x, x};
  FAILS_WITH(weir_dispatch(g_b, fill, two, 2, (weir_grid){1, 1, 1}, &push, sizeof push),
             WEIR_ERR_INVALID_ARGUMENT); /* binding count */
  FAILS_WITH(weir_dispatch(g_b, fill, &x, 1, (weir_grid){1, 1, 1}, &push, 4),
             WEIR_ERR_INVALID_ARGUMENT); /* push-constant size */
  FAILS_WITH(weir_dispatch(g_b, fill, &x, 1, (weir_grid){1, 0, 1}, &push, sizeof push),
             WEIR_ERR_INVALID_ARGUMENT); /* zero grid dimension */
  FAILS_WITH(weir_dispatch(g_b, NULL, &x, 1, (weir_grid){1, 1, 1}, &push, sizeof push),
             WEIR_ERR_INVALID_ARGUMENT);
  /* A program without code in this backend's format. */
  weir_program stripped = *fill;
  stripped.name = "fill_u32_without_code";
  stripped.host = NULL;
  stripped.spirv = NULL;
  stripped.spirv_bytes = 0;
  stripped.cuda_image = NULL;
  stripped.cuda_entry = NULL;
  FAILS_WITH(weir_dispatch(g_b, &stripped, &x, 1, (weir_grid){1, 1, 1}, &push, sizeof push),
             WEIR_ERR_UNSUPPORTED);
  conf_assert_msg(strstr(weir_last_error(), "fill_u32_without_code") &&
                    strstr(weir_last_error(),
                           weir_program_format_name(weir_backend_format(g_b))),
                "message names neither program nor format: %s", weir_last_error());
  /* Mismatched read outputs leave them untouched. */
  uint32_t out = 99;
  weir_range r = {x, 0, 4};
  void *outs[1] = {&out};
  weir_step step = {fill, &x, 1, {0, 0, 0}, &push, sizeof push};
  FAILS_WITH(weir_dispatch_sequence_read_ranges_into(g_b, &step, 1, &r, 1, outs, 0),
             WEIR_ERR_INVALID_ARGUMENT);
  conf_assert_uint_eq(out, 99);
  conf_assert_uint_eq(read_u32(x, 0), 0); /* the refused sequence did not run */
}

CONF_TEST(user_program_registration) {
  weir_program mine = *program("add_u32");
  mine.name = "conformance_user_add";
  OK(weir_backend_register_program(g_b, &mine));
  conf_assert_ptr_eq(weir_backend_find_program(g_b, "conformance_user_add"), &mine);
  FAILS_WITH(weir_backend_register_program(g_b, &mine), WEIR_ERR_INVALID_ARGUMENT);
  weir_buffer x = alloc_u32(8, 1);
  weir_add_u32_push p = {4, 8};
  OK(weir_dispatch(g_b, &mine, &x, 1, (weir_grid){0, 0, 0}, &p, sizeof p));
  conf_assert_uint_eq(read_u32(x, 7), 5);
}

CONF_TEST(bad_specs) {
  weir_backend *b = NULL;
  FAILS_WITH(weir_backend_open("no-such-backend", &b), WEIR_ERR_INVALID_ARGUMENT); /* a typo */
  FAILS_WITH(weir_backend_open("cpu:4000000", &b), WEIR_ERR_OUT_OF_RANGE); /* no such device */
  FAILS_WITH(weir_backend_open("", &b), WEIR_ERR_INVALID_ARGUMENT);
  conf_assert_ptr_null(b);
  weir_device_info info = WEIR_DEVICE_INFO_INIT;
  OK(weir_backend_device_info(g_b, &info));
  conf_assert_str_eq(info.backend_id, weir_backend_id(g_b));
  conf_assert(info.name[0] != '\0');
}

static const conf_case cases[] = {
    {"exact_sizes", exact_sizes},
    {"round_trips", round_trips},
    {"ranged_downloads", ranged_downloads},
    {"ranged_uploads", ranged_uploads},
    {"many_buffers", many_buffers},
    {"device_copy", device_copy},
    {"foreign_freed_and_double_freed", foreign_freed_and_double_freed},
    {"memory_cap", memory_cap},
    {"fill_default_grid", fill_default_grid},
    {"atomics_across_workgroups", atomics_across_workgroups},
    {"sequence_sees_previous_step", sequence_sees_previous_step},
    {"repeated_sequences", repeated_sequences},
    {"timed_sequence", timed_sequence},
    {"refusals", refusals},
    {"user_program_registration", user_program_registration},
    {"bad_specs", bad_specs},
};

/* Opens the backend once to learn whether it is available and what it is,
 * in a forked child: drivers such as CUDA cannot be used in a process forked
 * after they were initialised, and each case runs in a process of its own. */
/* Returns 0 when the backend opened, its weir_status when not, -1 if no
 * probe process could be started. */
static int probe_in_child(const char *spec, char *line, size_t line_bytes) {
  int fds[2];
  if (pipe(fds) != 0) return -1;
  fflush(NULL);
  pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    return -1;
  }
  if (pid == 0) {
    close(fds[0]);
    weir_backend *b = NULL;
    weir_status st = weir_backend_open(spec, &b);
    int ok = st == WEIR_OK;
    char msg[1024];
    if (ok) {
      weir_device_info info = WEIR_DEVICE_INFO_INIT;
      weir_backend_device_info(b, &info);
      snprintf(msg, sizeof msg, "%s, %s", info.spec, info.name);
      weir_backend_close(b);
    } else {
      snprintf(msg, sizeof msg, "%s", weir_last_error());
    }
    ssize_t w = write(fds[1], msg, strlen(msg));
    (void)w;
    close(fds[1]);
    _exit((int)st); /* 0 when it opened, else the weir_status */
  }
  close(fds[1]);
  size_t used = 0;
  ssize_t r;
  while (used + 1 < line_bytes && (r = read(fds[0], line + used, line_bytes - 1 - used)) > 0)
    used += (size_t)r;
  line[used] = '\0';
  close(fds[0]);
  int status = 0;
  if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status)) {
    snprintf(line, line_bytes, "opening the backend crashed the probe process");
    return WEIR_ERR_INTERNAL;
  }
  return WEXITSTATUS(status);
}

int weir_conformance_run(const char *spec, const char *filter, FILE *out) {
  char line[1024];
  int probe = probe_in_child(spec, line, sizeof line);
  if (probe == WEIR_ERR_UNAVAILABLE) { /* no driver, no device: skipped, with the reason */
    fprintf(out, "SKIP %s: %s\n", spec, line);
    return WEIR_CONFORMANCE_SKIPPED;
  }
  if (probe != 0) { /* a backend that exists but cannot be opened is a failure */
    fprintf(out, "FAIL %s: %s\n0 passed, 1 failed\n", spec,
            probe < 0 ? "could not fork a probe process" : line);
    /* A misspelt backend, plugin path or device index is bad input (2), never a skip. */
    return probe == WEIR_ERR_INVALID_ARGUMENT || probe == WEIR_ERR_OUT_OF_RANGE ? 2 : 1;
  }
  fprintf(out, "conformance: %s (%s)\n", spec, line);
  g_spec = spec;
  conf_totals t = conf_run_cases(cases, sizeof cases / sizeof cases[0], filter, open_backend,
                                 close_backend, 300, out);
  fprintf(out, "%d passed, %d failed\n", t.passed, t.failed);
  if (t.ran == 0) { /* a filter that selects nothing tested nothing: not a pass */
    fprintf(out, "FAIL %s: no case matches the filter '%s'. Fix: use part of a case name "
                 "printed by a run without --filter.\n",
            spec, filter ? filter : "");
    return 2;
  }
  return t.failed ? 1 : 0;
}
