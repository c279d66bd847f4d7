/* Cross-backend: the same programs on cpu and vulkan give bit-identical
 * buffers. Random step lists (seeded) cover every generic program, default
 * and multi-dimensional grids, counts past the buffer end, buffer sizes that
 * are not multiples of 4, device copies and ranged uploads; they run as
 * single dispatches, as one sequence with ranged reads and as a repeated
 * sequence. */
#include <stdlib.h>

#include "programs/generic.h"
#include "tests/vulkan/vk_test.h"

#define NBUF 4
#define MAX_STEPS 256

typedef struct abstract_step {
  int program; /* index into kPrograms */
  uint32_t bind[2];
  weir_grid grid;
  uint32_t push[2];
} abstract_step;

static const char *const kPrograms[] = {"noop", "fill_u32", "copy_u32", "add_u32",
                                        "counter_u32", "atomic_add_u32"};
static const uint32_t kBindings[] = {0, 1, 2, 1, 1, 1};

typedef struct world {
  weir_backend *b;
  weir_buffer buf[NBUF];
  uint64_t bytes[NBUF];
  weir_step steps[MAX_STEPS];
  weir_buffer bindings[MAX_STEPS][2];
} world;

static void world_open(world *w, const char *spec, uint32_t seed) {
  w->b = vt_open(spec);
  uint32_t s = seed;
  for (int i = 0; i < NBUF; ++i) {
    /* 1..~3000 elements plus 0..3 stray bytes. */
    w->bytes[i] = 4ull * (1 + vt_next(&s) % 3000) + vt_next(&s) % 4;
    OK(weir_allocate(w->b, w->bytes[i], &w->buf[i]));
    void *data = malloc(w->bytes[i]);
    vt_fill_random(data, w->bytes[i], seed * 31u + (uint32_t)i);
    OK(weir_upload(w->b, w->buf[i], data, w->bytes[i]));
    free(data);
  }
}

static void world_close(world *w) { weir_backend_close(w->b); }

static void make_steps(abstract_step *out, size_t n, uint32_t seed) {
  uint32_t s = seed ^ 0x5bd1e995u;
  for (size_t i = 0; i < n; ++i) {
    abstract_step *a = &out[i];
    a->program = (int)(vt_next(&s) % 6);
    a->bind[0] = vt_next(&s) % NBUF;
    a->bind[1] = vt_next(&s) % NBUF;
    if (vt_next(&s) % 3 == 0) a->grid = (weir_grid){0, 0, 0};
    else a->grid = (weir_grid){1 + vt_next(&s) % 40, 1 + vt_next(&s) % 3, 1 + vt_next(&s) % 2};
    a->push[0] = vt_next(&s);                 /* value (or count for copy_u32) */
    a->push[1] = vt_next(&s) % 3200;          /* count: often past the end */
    if (a->program == 2) a->push[0] = a->push[1];
  }
}

/* The concrete weir_step list of `w` for abstract steps [0, n). */
static const weir_step *materialize(world *w, const abstract_step *a, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    const weir_program *p = vt_program(w->b, kPrograms[a[i].program]);
    w->bindings[i][0] = w->buf[a[i].bind[0]];
    w->bindings[i][1] = w->buf[a[i].bind[1]];
    w->steps[i] = (weir_step){.program = p, .bindings = w->bindings[i],
                              .binding_count = kBindings[a[i].program], .grid = a[i].grid,
                              .push_constants = a[i].push,
                              .push_constant_bytes = p->push_constant_bytes};
  }
  return w->steps;
}

static void assert_same_buffers(world *cpu, world *vk, const char *what) {
  for (int i = 0; i < NBUF; ++i) {
    uint64_t n1 = 0, n2 = 0;
    unsigned char *a = vt_download(cpu->b, cpu->buf[i], &n1);
    unsigned char *b = vt_download(vk->b, vk->buf[i], &n2);
    ck_assert_uint_eq(n1, n2);
    uint64_t k = 0; /* each ck_assert is a message to Check's parent: compare first */
    if (memcmp(a, b, n1) != 0)
      while (a[k] == b[k]) ++k;
    if (memcmp(a, b, n1) != 0)
      ck_assert_msg(a[k] == b[k], "%s: buffer %d (%llu bytes) differs at byte %llu: cpu 0x%02x, vulkan 0x%02x",
                    what, i, (unsigned long long)n1, (unsigned long long)k, a[k], b[k]);
    free(a);
    free(b);
  }
}

/* Random device copies and ranged uploads, the same on both worlds. */
static void transfers(world *w, uint32_t seed) {
  uint32_t s = seed;
  for (int k = 0; k < 6; ++k) {
    int d = (int)(vt_next(&s) % NBUF), src = (int)(vt_next(&s) % NBUF);
    uint64_t bytes = 1 + vt_next(&s) % 257;
    if (bytes > w->bytes[d]) bytes = w->bytes[d];
    if (bytes > w->bytes[src]) bytes = w->bytes[src];
    uint64_t doff = vt_next(&s) % (w->bytes[d] - bytes + 1);
    uint64_t soff = vt_next(&s) % (w->bytes[src] - bytes + 1);
    if (d == src && doff < soff + bytes && soff < doff + bytes) continue; /* overlap: see device suite */
    OK(weir_copy(w->b, w->buf[d], doff, w->buf[src], soff, bytes));
  }
  unsigned char data[3][100];
  weir_upload_item ups[3];
  for (int k = 0; k < 3; ++k) {
    int d = (int)(vt_next(&s) % NBUF);
    uint64_t bytes = 1 + vt_next(&s) % 100;
    if (bytes > w->bytes[d]) bytes = w->bytes[d];
    vt_fill_random(data[k], sizeof data[k], seed + (uint32_t)k);
    ups[k] = (weir_upload_item){.buffer = w->buf[d], .offset = vt_next(&s) % (w->bytes[d] - bytes + 1),
                           .data = data[k], .bytes = bytes};
  }
  OK(weir_upload_at_many(w->b, ups, 3));
}

START_TEST(cross_single_dispatches) {
  for (uint32_t seed = 1; seed <= 4; ++seed) {
    world cpu, vk;
    world_open(&cpu, "cpu", seed);
    world_open(&vk, "vulkan", seed);
    abstract_step a[40];
    make_steps(a, 40, seed);
    for (size_t i = 0; i < 40; ++i) {
      const weir_step *sc = materialize(&cpu, &a[i], 1), *sv = materialize(&vk, &a[i], 1);
      OK(weir_dispatch(cpu.b, sc->program, sc->bindings, sc->binding_count, sc->grid,
                       sc->push_constants, sc->push_constant_bytes));
      OK(weir_dispatch(vk.b, sv->program, sv->bindings, sv->binding_count, sv->grid,
                       sv->push_constants, sv->push_constant_bytes));
      if (i % 10 == 9) {
        transfers(&cpu, seed * 100 + (uint32_t)i);
        transfers(&vk, seed * 100 + (uint32_t)i);
      }
    }
    assert_same_buffers(&cpu, &vk, "single dispatches");
    world_close(&cpu);
    world_close(&vk);
  }
}
END_TEST

/* Reads of random ranges after a sequence; outputs compared byte for byte. */
static void run_sequence(world *w, const abstract_step *a, size_t n, size_t prefix,
                         uint64_t repeat, unsigned char out[4][64]) {
  const weir_step *steps = materialize(w, a, n);
  weir_range reads[4];
  void *outputs[4];
  for (int i = 0; i < 4; ++i) {
    uint64_t bytes = w->bytes[i] < 64 ? w->bytes[i] : 64;
    reads[i] = (weir_range){.buffer = w->buf[i], .offset = (w->bytes[i] - bytes) / 2, .bytes = bytes};
    outputs[i] = out[i];
    memset(out[i], 0, 64);
  }
  if (repeat == 0)
    OK(weir_dispatch_sequence_read_ranges_into(w->b, steps, n, reads, 4, outputs, 4));
  else
    OK(weir_dispatch_repeated_sequence_read_ranges_into(w->b, steps, prefix, steps + prefix,
                                                        n - prefix, repeat, reads, 4, outputs, 4));
}

static void cross_sequence(size_t n, size_t prefix, uint64_t repeat) {
  for (uint32_t seed = 11; seed <= 13; ++seed) {
    world cpu, vk;
    world_open(&cpu, "cpu", seed);
    world_open(&vk, "vulkan", seed);
    abstract_step a[MAX_STEPS];
    make_steps(a, n, seed);
    unsigned char oc[4][64], ov[4][64];
    run_sequence(&cpu, a, n, prefix, repeat, oc);
    run_sequence(&vk, a, n, prefix, repeat, ov);
    ck_assert_msg(memcmp(oc, ov, sizeof oc) == 0, "read ranges differ (seed %u)", seed);
    assert_same_buffers(&cpu, &vk, repeat ? "repeated sequence" : "sequence");
    world_close(&cpu);
    world_close(&vk);
  }
}

START_TEST(cross_sequence_with_reads) { cross_sequence(200, 0, 0); }
END_TEST

START_TEST(cross_repeated_sequence) { cross_sequence(12, 5, 13); }
END_TEST

START_TEST(cross_repeated_once_and_never) {
  cross_sequence(9, 3, 1);
  world cpu, vk;
  world_open(&cpu, "cpu", 3);
  world_open(&vk, "vulkan", 3);
  abstract_step a[8];
  make_steps(a, 8, 3);
  unsigned char oc[4][64], ov[4][64];
  run_sequence(&cpu, a, 8, 8, 0, oc); /* prefix only */
  const weir_step *s = materialize(&vk, a, 8);
  weir_range r = {.buffer = vk.buf[0], .offset = 0, .bytes = 4};
  void *o = ov[0];
  OK(weir_dispatch_repeated_sequence_read_ranges_into(vk.b, s, 8, s, 8, 0, &r, 1, &o, 1));
  assert_same_buffers(&cpu, &vk, "repeat_count 0");
  world_close(&cpu);
  world_close(&vk);
}
END_TEST

/* A user program with the built-in fill_u32 code but another workgroup
 * size: the SPIR-V takes its size from specialization constants, so both
 * backends must still agree (including workgroups with y > 1). */
START_TEST(cross_user_workgroup_sizes) {
  static const uint32_t sizes[][3] = {{16, 1, 1}, {8, 4, 1}, {1, 1, 1}, {256, 1, 1}};
  for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; ++k) {
    const weir_program *fill = weir_builtin_program("fill_u32");
    weir_program user = *fill;
    user.name = "fill_u32_user";
    memcpy(user.workgroup_size, sizes[k], sizeof user.workgroup_size);
    world cpu, vk;
    world_open(&cpu, "cpu", 21);
    world_open(&vk, "vulkan", 21);
    weir_fill_u32_push push = {.value = 0xabcd0000u + (uint32_t)k, .count = 2500};
    weir_grid grids[] = {{0, 0, 0}, {3, 2, 2}, {7, 1, 1}};
    for (size_t g = 0; g < 3; ++g)
      for (int i = 0; i < NBUF; ++i) {
        push.value += 1;
        OK(weir_dispatch(cpu.b, &user, &cpu.buf[i], 1, grids[g], &push, sizeof push));
        OK(weir_dispatch(vk.b, &user, &vk.buf[i], 1, grids[g], &push, sizeof push));
      }
    assert_same_buffers(&cpu, &vk, "user workgroup sizes");
    world_close(&cpu);
    world_close(&vk);
  }
}
END_TEST

/* Buffers of 1..7 bytes: element-wise programs see 0 or 1 element and must
 * leave stray bytes alone on both backends. */
START_TEST(cross_tiny_buffers) {
  weir_backend *bs[2] = {vt_open("cpu"), vt_open("vulkan")};
  unsigned char result[2][7][8];
  for (int w = 0; w < 2; ++w)
    for (uint32_t bytes = 1; bytes <= 7; ++bytes) {
      weir_buffer buf;
      OK(weir_allocate(bs[w], bytes, &buf));
      unsigned char init[8];
      vt_fill_random(init, sizeof init, bytes);
      OK(weir_upload(bs[w], buf, init, bytes));
      weir_fill_u32_push fill = {0x11223344u, 100};
      weir_add_u32_push add = {5, 100};
      weir_atomic_add_u32_push atom = {3};
      OK(weir_dispatch(bs[w], vt_program(bs[w], "add_u32"), &buf, 1, (weir_grid){0, 0, 0}, &add, sizeof add));
      OK(weir_dispatch(bs[w], vt_program(bs[w], "counter_u32"), &buf, 1, (weir_grid){2, 1, 1}, NULL, 0));
      OK(weir_dispatch(bs[w], vt_program(bs[w], "atomic_add_u32"), &buf, 1, (weir_grid){2, 2, 1}, &atom, sizeof atom));
      if (bytes == 7) OK(weir_dispatch(bs[w], vt_program(bs[w], "fill_u32"), &buf, 1, (weir_grid){0, 0, 0}, &fill, sizeof fill));
      memset(result[w][bytes - 1], 0, 8);
      OK(weir_download_range_into(bs[w], buf, 0, bytes, result[w][bytes - 1]));
      OK(weir_free(bs[w], buf));
    }
  for (uint32_t bytes = 1; bytes <= 7; ++bytes)
    ck_assert_msg(memcmp(result[0][bytes - 1], result[1][bytes - 1], 8) == 0, "%u-byte buffer differs", bytes);
  /* And the values are what the programs mean, not merely equal. */
  uint32_t v;
  memcpy(&v, result[1][6], 4);
  ck_assert_uint_eq(v, 0x11223344u);
  weir_backend_close(bs[0]);
  weir_backend_close(bs[1]);
}
END_TEST

Suite *vt_cross_suite(void) {
  Suite *s = suite_create("vulkan-cross");
  TCase *tc = tcase_create("cross");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, cross_single_dispatches);
  tcase_add_test(tc, cross_sequence_with_reads);
  tcase_add_test(tc, cross_repeated_sequence);
  tcase_add_test(tc, cross_repeated_once_and_never);
  tcase_add_test(tc, cross_user_workgroup_sizes);
  tcase_add_test(tc, cross_tiny_buffers);
  suite_add_tcase(s, tc);
  return s;
}
