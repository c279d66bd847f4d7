/* The NCCL transport (weir/nccl.h) without a GPU.
 *
 *   weir_nccl_tests unit   loading: a missing library is WEIR_ERR_UNAVAILABLE
 *                          naming it with a Fix:, through the option and
 *                          $WEIR_NCCL_LIBRARY; argument refusals. Runs
 *                          everywhere (CUDA compiled in or not).
 *   weir_nccl_tests mock   against the mock NCCL (tests/nccl/mock_nccl.c) on
 *                          the mock CUDA driver, both named by CTest through
 *                          WEIR_NCCL_LIBRARY and WEIR_CUDA_DRIVER: every
 *                          collective goes to NCCL, inside one group, on each
 *                          member's own CUDA stream, without host staging;
 *                          NCCL's error text reaches the message; non-CUDA
 *                          members and duplicate devices are refused; nothing
 *                          leaks. Exit 77 (skipped) with the reason when the
 *                          mocks cannot be used.
 * The collectives' results are checked bit for bit by the conformance suite
 * (weir_nccl_conformance, same mocks). */
#include <check.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/check_run.h"
#include "tests/residency/util.h" /* CHECK_OK, CHECK_FAILS */
#include "weir/nccl.h"

#ifdef WEIR_TEST_NCCL_MOCK
#include "tests/cuda/mock_cuda_driver.h"
#include "tests/nccl/mock_nccl.h"
#endif

static int contains(const char *text, const char *part) { return strstr(text, part) != NULL; }

#define CHECK_MESSAGE_HAS(part)                                                             \
  ck_assert_msg(contains(weir_last_error(), part), "\"%s\" not in: %s", part,              \
                weir_last_error())

static weir_backend *open_backend(const char *spec) {
  weir_backend *b = NULL;
  weir_status s = weir_backend_open(spec, &b);
  ck_assert_msg(s == WEIR_OK, "weir_backend_open(\"%s\"): %s", spec, weir_last_error());
  return b;
}

/* ---- unit: loading and arguments ------------------------------------------- */

START_TEST(missing_library_is_unavailable_and_named) {
  weir_backend *cpu = open_backend("cpu:0");
  weir_transport *t = (weir_transport *)&t; /* must be reset to NULL */
  weir_nccl_options options = {.library = "libweir-no-such-nccl.so.2"};
  CHECK_FAILS(weir_nccl_transport_create(&cpu, 1, &options, &t), WEIR_ERR_UNAVAILABLE);
  ck_assert_ptr_null(t);
  CHECK_MESSAGE_HAS("libweir-no-such-nccl.so.2");
  CHECK_MESSAGE_HAS("libnccl.so.2");
  CHECK_MESSAGE_HAS("libnccl2");
  CHECK_MESSAGE_HAS("stream transport");
  CHECK_MESSAGE_HAS("weir_nccl_transport_create");
  /* The same through the environment, which the option overrides. */
  setenv("WEIR_NCCL_LIBRARY", "/nonexistent/libnccl.so.2", 1);
  CHECK_FAILS(weir_nccl_transport_create(&cpu, 1, NULL, &t), WEIR_ERR_UNAVAILABLE);
  CHECK_MESSAGE_HAS("/nonexistent/libnccl.so.2");
  CHECK_FAILS(weir_nccl_transport_create(&cpu, 1, &options, &t), WEIR_ERR_UNAVAILABLE);
  CHECK_MESSAGE_HAS("libweir-no-such-nccl.so.2");
  unsetenv("WEIR_NCCL_LIBRARY");
  /* A library that is not NCCL: libc has no ncclGetVersion. */
  options.library = "libc.so.6";
  CHECK_FAILS(weir_nccl_transport_create(&cpu, 1, &options, &t), WEIR_ERR_UNAVAILABLE);
  CHECK_MESSAGE_HAS("has no entry point nccl");
  weir_backend_close(cpu);
}
END_TEST

START_TEST(bad_arguments_are_refused) {
  weir_backend *cpu = open_backend("cpu:0");
  weir_backend *none[2] = {cpu, NULL};
  weir_transport *t = NULL;
  CHECK_FAILS(weir_nccl_transport_create(&cpu, 1, NULL, NULL), WEIR_ERR_INVALID_ARGUMENT);
  CHECK_FAILS(weir_nccl_transport_create(NULL, 1, NULL, &t), WEIR_ERR_INVALID_ARGUMENT);
  CHECK_FAILS(weir_nccl_transport_create(&cpu, 0, NULL, &t), WEIR_ERR_INVALID_ARGUMENT);
  CHECK_FAILS(weir_nccl_transport_create(&cpu, WEIR_GROUP_MAX_LOCAL + 1, NULL, &t),
              WEIR_ERR_INVALID_ARGUMENT);
  CHECK_FAILS(weir_nccl_transport_create(none, 2, NULL, &t), WEIR_ERR_INVALID_ARGUMENT);
  CHECK_MESSAGE_HAS("backends[1] of 2 is NULL");
  ck_assert_ptr_null(t);
  ck_assert_int_eq(weir_nccl_transport_version(NULL), 0);
  weir_transport *stream = NULL;
  CHECK_OK(weir_stream_transport_create(NULL, &stream));
  ck_assert_int_eq(weir_nccl_transport_version(stream), 0);
  weir_transport_destroy(stream);
  weir_backend_close(cpu);
}
END_TEST

static Suite *unit_suite(void) {
  Suite *s = suite_create("nccl.unit");
  TCase *tc = tcase_create("loading");
  tcase_add_test(tc, missing_library_is_unavailable_and_named);
  tcase_add_test(tc, bad_arguments_are_refused);
  suite_add_tcase(s, tc);
  return s;
}

/* ---- mock: the transport on the mock NCCL and the mock CUDA driver ---------- */

#ifdef WEIR_TEST_NCCL_MOCK

#define N 4
static weir_backend *g_dev[N];
static weir_transport *g_t;
static weir_group *g_group;
static weir_mock_nccl_state_fn g_state;
static weir_mock_nccl_call_fn g_call;
static weir_mock_nccl_reset_fn g_reset;
static weir_mock_nccl_fail_next_fn g_fail_next;
static weir_mock_cuda_get_counters_fn g_cuda;

static void *symbol(const char *env, const char *name) {
  void *h = dlopen(getenv(env), RTLD_NOW | RTLD_NOLOAD); /* what weir loaded */
  ck_assert_msg(h != NULL, "%s (%s) is not loaded", env, getenv(env));
  void *sym = dlsym(h, name);
  ck_assert_msg(sym != NULL, "no %s in %s", name, getenv(env));
  dlclose(h);
  return sym;
}

#define BIND(var, env, name)                                                                \
  do {                                                                                      \
    void *sym_ = symbol(env, name);                                                         \
    memcpy(&(var), &sym_, sizeof sym_);                                                     \
  } while (0)

static void setup(void) {
  static const char *const specs[N] = {"cuda:0", "cuda:1", "cuda:2", "cuda:3"};
  for (int i = 0; i < N; ++i) g_dev[i] = open_backend(specs[i]);
  CHECK_OK(weir_nccl_transport_create(g_dev, N, NULL, &g_t));
  CHECK_OK(weir_group_create_local(g_t, g_dev, N, &g_group));
  BIND(g_state, "WEIR_NCCL_LIBRARY", "weir_mock_nccl_get_state");
  BIND(g_call, "WEIR_NCCL_LIBRARY", "weir_mock_nccl_call_at");
  BIND(g_reset, "WEIR_NCCL_LIBRARY", "weir_mock_nccl_reset");
  BIND(g_fail_next, "WEIR_NCCL_LIBRARY", "weir_mock_nccl_fail_next");
  BIND(g_cuda, "WEIR_CUDA_DRIVER", WEIR_MOCK_CUDA_COUNTERS_SYMBOL);
  g_reset();
}

/* Everything the transport and the backends took is given back. */
static void teardown(void) {
  weir_group_destroy(g_group);
  weir_transport_destroy(g_t);
  for (int i = 0; i < N; ++i) weir_backend_close(g_dev[i]);
  weir_mock_nccl_state s;
  g_state(&s);
  ck_assert_int_eq(s.live_comms, 0);
  weir_mock_cuda_counters c;
  g_cuda(&c);
  ck_assert_int_eq(c.live_device_blocks, 0);
  ck_assert_int_eq(c.live_streams, 0);
}

static weir_mock_nccl_state state(void) {
  weir_mock_nccl_state s;
  g_state(&s);
  return s;
}

static weir_mock_cuda_counters cuda(void) {
  weir_mock_cuda_counters c;
  g_cuda(&c);
  return c;
}

static weir_chunk *chunk_with(weir_backend *b, const void *data, uint64_t bytes) {
  weir_chunk *c = NULL;
  CHECK_OK(weir_chunk_allocate(b, bytes, &c));
  CHECK_OK(weir_upload(b, weir_chunk_buffer(c), data, bytes));
  return c;
}

static void read_chunk(weir_chunk *c, void *out, uint64_t bytes) {
  CHECK_OK(weir_download_range_into(weir_chunk_backend(c), weir_chunk_buffer(c), 0, bytes, out));
}

/* Every logged call since the reset is `fn`-like (prefix), inside a group,
 * on a stream of its communicator's device; returns how many named `fn`. */
static size_t calls_named(const char *fn) {
  size_t n = 0;
  weir_mock_nccl_call call;
  for (size_t i = 0; g_call(i, &call); ++i) {
    ck_assert_msg(call.in_group, "%s of rank %d outside ncclGroupStart/End", call.fn, call.rank);
    ck_assert_msg(call.stream != NULL && call.stream_device == call.device,
                  "%s of rank %d: stream %p of device %d, communicator on device %d", call.fn,
                  call.rank, call.stream, call.stream_device, call.device);
    ck_assert_int_eq(call.device, call.rank); /* cuda:i is rank i */
    if (strcmp(call.fn, fn) == 0) ++n;
  }
  return n;
}

START_TEST(allreduce_goes_to_nccl_on_each_backend_stream) {
  ck_assert_int_eq(weir_nccl_transport_version(g_t), 22900);
  ck_assert_str_eq(weir_transport_name(g_t), "nccl");
  weir_chunk *c[N];
  weir_place p[N];
  for (uint32_t i = 0; i < N; ++i) {
    uint32_t v[3] = {i + 1, 10u * i, 7u};
    c[i] = chunk_with(g_dev[i], v, sizeof v);
    p[i] = (weir_place){c[i], 0};
  }
  g_reset();
  weir_mock_cuda_counters before = cuda();
  CHECK_OK(weir_allreduce(g_group, p, p, 3, WEIR_DTYPE_U32, WEIR_REDUCE_SUM));
  weir_mock_cuda_counters after = cuda();
  ck_assert_uint_eq(calls_named("ncclAllReduce"), N);
  ck_assert_uint_eq(state().calls, N);
  ck_assert_uint_eq(state().groups, 1);     /* one ncclGroupStart/End for all members */
  ck_assert_uint_eq(state().jobs_run, 1);   /* ran at the streams' synchronization */
  ck_assert_uint_eq(after.bytes_to_host, before.bytes_to_host); /* no host staging */
  ck_assert_uint_eq(after.bytes_to_device, before.bytes_to_device);
  ck_assert_uint_eq(after.syncs - before.syncs, N); /* one per member */
  weir_mock_nccl_call call;
  const void *streams[N];
  for (size_t i = 0; g_call(i, &call); ++i) {
    ck_assert_int_eq(call.datatype, 3); /* ncclUint32 */
    ck_assert_int_eq(call.op, 0);       /* ncclSum */
    ck_assert_uint_eq(call.count, 3);
    ck_assert_ptr_eq(call.send, call.recv); /* in place */
    streams[call.rank] = call.stream;
  }
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < i; ++j) ck_assert_ptr_ne(streams[i], streams[j]);
  for (uint32_t i = 0; i < N; ++i) {
    uint32_t got[3];
    read_chunk(c[i], got, sizeof got);
    ck_assert_uint_eq(got[0], 1 + 2 + 3 + 4);
    ck_assert_uint_eq(got[1], 0 + 10 + 20 + 30);
    ck_assert_uint_eq(got[2], 28);
    weir_chunk_release(c[i]);
  }
}
END_TEST

START_TEST(every_collective_uses_its_nccl_call) {
  weir_chunk *c[N];
  weir_place p[N], s[N];
  unsigned char bytes[64];
  for (uint32_t i = 0; i < N; ++i) {
    for (int k = 0; k < 64; ++k) bytes[k] = (unsigned char)(i * 64 + k);
    c[i] = chunk_with(g_dev[i], bytes, sizeof bytes);
    p[i] = (weir_place){c[i], 0};
    s[i] = (weir_place){c[i], 48};
  }
  g_reset();
  CHECK_OK(weir_broadcast(g_group, 2, p, 16));
  ck_assert_uint_eq(calls_named("ncclBroadcast"), N);
  g_reset();
  CHECK_OK(weir_allgather(g_group, s, p, 4)); /* send [48, +4) -> recv [4r, +4) */
  ck_assert_uint_eq(calls_named("ncclAllGather"), N);
  g_reset();
  CHECK_OK(weir_scatter(g_group, 1, s, p, 4)); /* root 1's [48 + 4r, +4) -> member r's [0, +4) */
  ck_assert_uint_eq(calls_named("ncclSend"), N - 1); /* the root's own piece is a device copy */
  ck_assert_uint_eq(calls_named("ncclRecv"), N - 1);
  g_reset();
  CHECK_OK(weir_gather(g_group, 3, p, s, 2)); /* member r's [0, +2) -> root 3's [48 + 2r, +2) */
  ck_assert_uint_eq(calls_named("ncclSend"), N - 1);
  ck_assert_uint_eq(calls_named("ncclRecv"), N - 1);
  /* alltoallv: member i sends 1 byte to every j except itself and i+1. */
  uint64_t sc[N * N], sd[N * N], rc[N * N], rd[N * N];
  size_t nonzero = 0;
  for (uint32_t i = 0; i < N; ++i)
    for (uint32_t j = 0; j < N; ++j) {
      sc[i * N + j] = j == (i + 1) % N ? 0 : 1;
      sd[i * N + j] = j;
      rc[j * N + i] = sc[i * N + j];
      rd[j * N + i] = 32 + i;
      if (i != j && sc[i * N + j]) ++nonzero;
    }
  g_reset();
  CHECK_OK(weir_alltoallv(g_group, p, sc, sd, p, rc, rd));
  ck_assert_uint_eq(calls_named("ncclSend"), nonzero);
  ck_assert_uint_eq(calls_named("ncclRecv"), nonzero);
  ck_assert_uint_eq(state().groups, 1);
  for (uint32_t i = 0; i < N; ++i) weir_chunk_release(c[i]);
}
END_TEST

START_TEST(nccl_errors_carry_nccl_text) {
  weir_chunk *c[N];
  weir_place p[N];
  for (uint32_t i = 0; i < N; ++i) {
    uint64_t v[2] = {i, 2u * i};
    c[i] = chunk_with(g_dev[i], v, sizeof v);
    p[i] = (weir_place){c[i], 0};
  }
  g_fail_next("ncclAllReduce", 4);
  CHECK_FAILS(weir_allreduce(g_group, p, p, 2, WEIR_DTYPE_U64, WEIR_REDUCE_MAX),
              WEIR_ERR_INVALID_ARGUMENT);
  CHECK_MESSAGE_HAS("weir_allreduce");
  CHECK_MESSAGE_HAS("ncclAllReduce");
  CHECK_MESSAGE_HAS("ncclInvalidArgument (4)");
  CHECK_MESSAGE_HAS("invalid argument (mock)"); /* ncclGetErrorString's text */
  CHECK_MESSAGE_HAS("injected failure");        /* ncclGetLastError's detail */
  CHECK_MESSAGE_HAS("NCCL_DEBUG=WARN");
  g_fail_next("ncclGroupEnd", 1);
  CHECK_FAILS(weir_allreduce(g_group, p, p, 2, WEIR_DTYPE_U64, WEIR_REDUCE_MAX),
              WEIR_ERR_DEVICE);
  CHECK_MESSAGE_HAS("ncclGroupEnd");
  CHECK_MESSAGE_HAS("unhandled cuda error (mock)");
  /* The group was closed each time: the next call works. */
  CHECK_OK(weir_allreduce(g_group, p, p, 2, WEIR_DTYPE_U64, WEIR_REDUCE_MAX));
  uint64_t got[2];
  read_chunk(c[0], got, sizeof got);
  ck_assert_uint_eq(got[0], N - 1);
  ck_assert_uint_eq(got[1], 2u * (N - 1));
  for (uint32_t i = 0; i < N; ++i) weir_chunk_release(c[i]);
  /* Communicator creation. */
  weir_transport *t = NULL;
  g_fail_next("ncclCommInitAll", 2);
  CHECK_FAILS(weir_nccl_transport_create(g_dev, 2, NULL, &t), WEIR_ERR_DEVICE);
  CHECK_MESSAGE_HAS("ncclCommInitAll(2 devices");
  CHECK_MESSAGE_HAS("unhandled system error (mock)");
  ck_assert_ptr_null(t);
  ck_assert_int_eq(state().live_comms, N); /* only the fixture's */
}
END_TEST

START_TEST(members_must_be_distinct_cuda_devices) {
  weir_backend *cpu = open_backend("cpu:3");
  weir_backend *mixed[2] = {g_dev[0], cpu}, *twice[2] = {g_dev[1], NULL};
  weir_transport *t = NULL;
  CHECK_FAILS(weir_nccl_transport_create(mixed, 2, NULL, &t), WEIR_ERR_INVALID_ARGUMENT);
  CHECK_MESSAGE_HAS("member 1 is backend \"cpu:3\"");
  CHECK_MESSAGE_HAS("not a CUDA backend");
  CHECK_OK(weir_backend_open("cuda:1", &twice[1])); /* a second instance of device 1 */
  CHECK_FAILS(weir_nccl_transport_create(twice, 2, NULL, &t), WEIR_ERR_INVALID_ARGUMENT);
  CHECK_MESSAGE_HAS("both CUDA device 1");
  ck_assert_ptr_null(t);
  weir_backend_close(twice[1]);
  /* A group in another order than the transport's members. */
  weir_backend *swapped[N] = {g_dev[1], g_dev[0], g_dev[2], g_dev[3]};
  weir_group *g = NULL;
  CHECK_OK(weir_group_create_local(g_t, swapped, N, &g));
  weir_chunk *c[N];
  weir_place p[N];
  for (uint32_t i = 0; i < N; ++i) {
    uint32_t v = i;
    c[i] = chunk_with(swapped[i], &v, 4);
    p[i] = (weir_place){c[i], 0};
  }
  CHECK_FAILS(weir_broadcast(g, 0, p, 4), WEIR_ERR_INVALID_ARGUMENT);
  CHECK_MESSAGE_HAS("member 0 of the group is backend cuda:1");
  /* A group of another size. */
  weir_group *small = NULL;
  weir_place q[2] = {p[1], p[0]}; /* on cuda:0 and cuda:1 */
  CHECK_OK(weir_group_create_local(g_t, g_dev, 2, &small));
  CHECK_FAILS(weir_broadcast(small, 0, q, 4), WEIR_ERR_INVALID_ARGUMENT);
  CHECK_MESSAGE_HAS("the group has 2 members");
  ck_assert_uint_eq(state().calls, 0); /* nothing reached NCCL */
  weir_group_destroy(small);
  weir_group_destroy(g);
  for (uint32_t i = 0; i < N; ++i) weir_chunk_release(c[i]);
  weir_backend_close(cpu);
}
END_TEST

START_TEST(point_to_point_copies) {
  unsigned char a[32], b[32], got[32];
  for (int k = 0; k < 32; ++k) a[k] = (unsigned char)(k * 3 + 1), b[k] = 0;
  weir_chunk *src = chunk_with(g_dev[0], a, 32), *dst = chunk_with(g_dev[2], b, 32);
  weir_backend *cpu = open_backend("cpu:0");
  weir_chunk *host = chunk_with(cpu, b, 32);
  g_reset();
  CHECK_OK(weir_transport_copy(g_t, dst, 8, src, 0, 16)); /* member 0 -> member 2 */
  ck_assert_uint_eq(calls_named("ncclSend"), 1);
  ck_assert_uint_eq(calls_named("ncclRecv"), 1);
  read_chunk(dst, got, 32);
  ck_assert_mem_eq(got + 8, a, 16);
  ck_assert_uint_eq(got[0], 0);
  g_reset();
  CHECK_OK(weir_transport_copy(g_t, src, 16, src, 0, 16)); /* within member 0: device copy */
  CHECK_OK(weir_transport_copy(g_t, host, 0, dst, 0, 32)); /* to the host: staged */
  ck_assert_uint_eq(state().calls, 0);
  read_chunk(src, got, 32);
  ck_assert_mem_eq(got + 16, a, 16);
  read_chunk(host, got, 32);
  ck_assert_mem_eq(got + 8, a, 16);
  /* A replica set broadcast: copy_async to every replica, then the waits. */
  weir_replica_set *set = NULL;
  CHECK_OK(weir_replica_set_create(g_dev, N, 32, &set));
  CHECK_OK(weir_replica_set_broadcast(set, g_t, src));
  for (size_t i = 0; i < N; ++i) {
    weir_chunk *r = NULL;
    CHECK_OK(weir_replica_set_chunk(set, i, &r));
    read_chunk(r, got, 32);
    ck_assert_mem_eq(got, a, 16);
    ck_assert_mem_eq(got + 16, a, 16);
  }
  CHECK_OK(weir_replica_set_destroy(set));
  weir_chunk_release(host);
  weir_chunk_release(src);
  weir_chunk_release(dst);
  weir_backend_close(cpu);
}
END_TEST

static Suite *mock_suite(void) {
  Suite *s = suite_create("nccl.mock");
  TCase *tc = tcase_create("mock");
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_add_test(tc, allreduce_goes_to_nccl_on_each_backend_stream);
  tcase_add_test(tc, every_collective_uses_its_nccl_call);
  tcase_add_test(tc, nccl_errors_carry_nccl_text);
  tcase_add_test(tc, members_must_be_distinct_cuda_devices);
  tcase_add_test(tc, point_to_point_copies);
  suite_add_tcase(s, tc);
  return s;
}

/* Skipped, with the reason, when the mocks are not usable here. */
static int mock_available(void) {
  const char *nccl = getenv("WEIR_NCCL_LIBRARY"), *cuda = getenv("WEIR_CUDA_DRIVER");
  if (!nccl || !*nccl || !cuda || !*cuda) {
    printf("skipped: run through CTest (WEIR_NCCL_LIBRARY and WEIR_CUDA_DRIVER name the "
           "mocks)\n");
    return 0;
  }
  weir_backend *b[N] = {0};
  weir_transport *t = NULL;
  static const char *const specs[N] = {"cuda:0", "cuda:1", "cuda:2", "cuda:3"};
  weir_status s = WEIR_OK;
  for (int i = 0; i < N && s == WEIR_OK; ++i) s = weir_backend_open(specs[i], &b[i]);
  if (s == WEIR_OK) s = weir_nccl_transport_create(b, N, NULL, &t);
  if (s != WEIR_OK) printf("skipped: %s\n", weir_last_error());
  weir_transport_destroy(t);
  for (int i = 0; i < N; ++i) weir_backend_close(b[i]);
  return s == WEIR_OK;
}
#endif

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "unit";
  if (strcmp(mode, "unit") == 0) return weir_check_run(srunner_create(unit_suite()));
#ifdef WEIR_TEST_NCCL_MOCK
  if (strcmp(mode, "mock") == 0) {
    if (!mock_available()) return 77;
    return weir_check_run(srunner_create(mock_suite()));
  }
#else
  if (strcmp(mode, "mock") == 0) {
    printf("skipped: the mocks need the CUDA backend, which is not built\n");
    return 77;
  }
#endif
  fprintf(stderr, "usage: %s unit|mock\n", argv[0]);
  return 2;
}
