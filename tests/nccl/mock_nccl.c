/* A stand-in for libnccl.so.2, for machines without GPUs: loaded by the NCCL
 * transport through WEIR_NCCL_LIBRARY=path, next to the mock CUDA driver
 * (tests/cuda/mock_cuda_driver.c), whose memory and streams it works on
 * (mock device pointers are host pointers; this library links the mock
 * driver and uses its hooks).
 *
 * Strict where real NCCL would hang or be silently wrong:
 * - calls between ncclGroupStart and ncclGroupEnd are matched at the end:
 *   every rank of a communicator clique must issue the same collectives
 *   (kind, count, datatype, op, root) in the same order, and every ncclSend
 *   needs the peer's ncclRecv with the same count; otherwise ncclGroupEnd
 *   fails with ncclInvalidUsage (NCCL would hang). A multi-rank collective
 *   outside a group fails the same way;
 * - each call's stream must be a live mock CUDA stream of the
 *   communicator's device, and every buffer range must lie inside a live
 *   mock device allocation (ncclInvalidArgument otherwise);
 * - the work is QUEUED on the streams (as a host callback of the mock
 *   driver) and runs only when every participating stream has been drained
 *   at a synchronization: a transport that does not synchronize reads stale
 *   data.
 * Reductions combine in rank order. Every call is logged for the tests
 * (weir_mock_nccl_call_at), and weir_mock_nccl_fail_next injects a failure. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/cuda/mock_cuda_driver.h"
#include "tests/nccl/mock_nccl.h"

enum { SUCCESS = 0, INVALID_ARGUMENT = 4, INVALID_USAGE = 5, SYSTEM_ERROR = 2 };
enum { T_UINT8 = 1, T_UINT32 = 3, T_UINT64 = 5, T_FLOAT32 = 7, T_FLOAT64 = 8 };
enum { OP_SUM = 0, OP_MAX = 2, OP_MIN = 3 };

typedef struct clique {
  int size, refs;
} clique;

typedef struct mock_comm {
  int rank, size, device;
  clique *c;
} mock_comm;

static weir_mock_nccl_state g_state;
static weir_mock_nccl_call g_log[WEIR_MOCK_NCCL_LOG];
static char g_fail_fn[32];
static int g_fail_result;
static char g_last_error[512];
static int g_depth;

void weir_mock_nccl_get_state(weir_mock_nccl_state *out) { *out = g_state; }

int weir_mock_nccl_call_at(size_t index, weir_mock_nccl_call *out) {
  if (index >= g_state.calls || index >= WEIR_MOCK_NCCL_LOG) return 0;
  *out = g_log[index];
  return 1;
}

void weir_mock_nccl_reset(void) {
  g_state.calls = 0;
  g_state.groups = 0;
  g_state.jobs_run = 0;
  g_state.init_all = 0;
}

void weir_mock_nccl_fail_next(const char *fn, int result) {
  snprintf(g_fail_fn, sizeof g_fail_fn, "%s", fn ? fn : "");
  g_fail_result = result;
}

static int refuse(int result, const char *fmt, const char *a, long b, long c) {
  snprintf(g_last_error, sizeof g_last_error, fmt, a, b, c);
  return result;
}

static int injected(const char *fn) {
  if (!g_fail_fn[0] || strcmp(fn, g_fail_fn) != 0) return 0;
  g_fail_fn[0] = '\0';
  snprintf(g_last_error, sizeof g_last_error, "mock nccl: injected failure of %s", fn);
  return g_fail_result;
}

/* ---- the NCCL API ---------------------------------------------------------- */

int ncclGetVersion(int *version) {
  if (!version) return INVALID_ARGUMENT;
  *version = 22900; /* 2.29.0 */
  return SUCCESS;
}

const char *ncclGetErrorString(int result) {
  switch (result) {
  case SUCCESS: return "no error (mock)";
  case 1: return "unhandled cuda error (mock)";
  case SYSTEM_ERROR: return "unhandled system error (mock)";
  case 3: return "internal error (mock)";
  case INVALID_ARGUMENT: return "invalid argument (mock)";
  case INVALID_USAGE: return "invalid usage (mock)";
  case 6: return "remote process exited or there was a network error (mock)";
  default: return "unknown result code (mock)";
  }
}

const char *ncclGetLastError(void *comm) {
  (void)comm;
  return g_last_error;
}

static int device_count(void) {
  const char *n = getenv("WEIR_MOCK_CUDA_DEVICES");
  return n ? atoi(n) : 1;
}

int ncclCommInitAll(mock_comm **comms, int ndev, const int *devlist) {
  int r = injected("ncclCommInitAll");
  if (r) return r;
  if (!comms || ndev < 1) return refuse(INVALID_ARGUMENT, "mock nccl: %s ndev %ld", "ncclCommInitAll", ndev, 0);
  for (int i = 0; i < ndev; ++i) {
    int d = devlist ? devlist[i] : i;
    if (d < 0 || d >= device_count())
      return refuse(INVALID_ARGUMENT, "mock nccl: %s: device %ld of %ld devices", "ncclCommInitAll", d, device_count());
    for (int j = 0; j < i; ++j)
      if ((devlist ? devlist[j] : j) == d)
        return refuse(INVALID_USAGE, "mock nccl: %s: duplicate GPU %ld (rank %ld)", "ncclCommInitAll", d, i);
  }
  clique *c = calloc(1, sizeof *c);
  if (!c) return SYSTEM_ERROR;
  c->size = ndev;
  c->refs = ndev;
  for (int i = 0; i < ndev; ++i) {
    comms[i] = calloc(1, sizeof **comms);
    if (!comms[i]) return SYSTEM_ERROR;
    *comms[i] = (mock_comm){.rank = i, .size = ndev, .device = devlist ? devlist[i] : i, .c = c};
  }
  g_state.live_comms += ndev;
  g_state.init_all++;
  return SUCCESS;
}

int ncclCommDestroy(mock_comm *comm) {
  if (!comm) return INVALID_ARGUMENT;
  if (--comm->c->refs == 0) free(comm->c);
  free(comm);
  g_state.live_comms--;
  return SUCCESS;
}

int ncclCommCount(const mock_comm *comm, int *count) {
  if (!comm || !count) return INVALID_ARGUMENT;
  *count = comm->size;
  return SUCCESS;
}

int ncclCommUserRank(const mock_comm *comm, int *rank) {
  if (!comm || !rank) return INVALID_ARGUMENT;
  *rank = comm->rank;
  return SUCCESS;
}

/* ---- calls, groups, matching ---------------------------------------------- */

typedef struct pending {
  weir_mock_nccl_call call;
  mock_comm *comm;
  int matched;
} pending;

static pending *g_pending;
static size_t g_pending_count, g_pending_cap;

static size_t type_bytes(int t) {
  switch (t) {
  case T_UINT8: return 1;
  case T_UINT32: case T_FLOAT32: return 4;
  case T_UINT64: case T_FLOAT64: return 8;
  default: return 0;
  }
}

static int range_ok(const char *fn, const void *p, size_t bytes) {
  if (bytes == 0 || weir_mock_cuda_device_range_ok(p, bytes)) return 1;
  snprintf(g_last_error, sizeof g_last_error,
           "mock nccl: %s: buffer %p + %zu bytes is not inside a live device allocation", fn,
           p, bytes);
  return 0;
}

int ncclGroupEnd(void);

/* Checks and queues one call; outside a group it is a group of its own. */
static int record(const char *fn, mock_comm *comm, const void *send, void *recv, size_t count,
                  int datatype, int op, int peer, void *stream) {
  weir_mock_nccl_call call = {.send = send, .recv = recv, .count = count, .datatype = datatype,
                              .op = op, .peer = peer, .stream = stream,
                              .stream_device = weir_mock_cuda_stream_device(stream),
                              .in_group = g_depth > 0, .rank = -1, .device = -1};
  snprintf(call.fn, sizeof call.fn, "%s", fn);
  if (comm) {
    call.rank = comm->rank;
    call.size = comm->size;
    call.device = comm->device;
  }
  if (g_state.calls < WEIR_MOCK_NCCL_LOG) g_log[g_state.calls] = call;
  g_state.calls++;
  int r = injected(fn);
  if (r) return r;
  size_t ts = type_bytes(datatype);
  if (!comm || !ts) return refuse(INVALID_ARGUMENT, "mock nccl: %s: NULL communicator or datatype %ld%.0ld", fn, datatype, 0);
  if (call.stream_device != comm->device)
    return refuse(INVALID_ARGUMENT, "mock nccl: %s: stream of device %ld passed to a communicator of device %ld",
                  fn, call.stream_device, comm->device);
  if (op != OP_SUM && op != OP_MIN && op != OP_MAX)
    return refuse(INVALID_ARGUMENT, "mock nccl: %s: op %ld%ld", fn, op, 0);
  size_t bytes = count * ts;
  int ok = 1;
  if (strcmp(fn, "ncclAllGather") == 0) ok = range_ok(fn, send, bytes) && range_ok(fn, recv, bytes * (size_t)comm->size);
  else if (strcmp(fn, "ncclBroadcast") == 0) ok = (comm->rank != peer || range_ok(fn, send, bytes)) && range_ok(fn, recv, bytes);
  else if (strcmp(fn, "ncclSend") == 0) ok = range_ok(fn, send, bytes);
  else if (strcmp(fn, "ncclRecv") == 0) ok = range_ok(fn, recv, bytes);
  else ok = range_ok(fn, send, bytes) && range_ok(fn, recv, bytes);
  if (!ok) return INVALID_ARGUMENT;
  if ((strcmp(fn, "ncclSend") == 0 || strcmp(fn, "ncclRecv") == 0 || strcmp(fn, "ncclBroadcast") == 0) &&
      (peer < 0 || peer >= comm->size))
    return refuse(INVALID_ARGUMENT, "mock nccl: %s: peer/root %ld of %ld ranks", fn, peer, comm->size);
  if (g_pending_count == g_pending_cap) {
    size_t cap = g_pending_cap ? g_pending_cap * 2 : 64;
    pending *grown = realloc(g_pending, cap * sizeof *grown);
    if (!grown) return SYSTEM_ERROR;
    g_pending = grown;
    g_pending_cap = cap;
  }
  g_pending[g_pending_count++] = (pending){call, comm, 0};
  if (g_depth == 0) {
    g_depth = 1;
    return ncclGroupEnd();
  }
  return SUCCESS;
}

int ncclBroadcast(const void *send, void *recv, size_t count, int datatype, int root,
                  mock_comm *comm, void *stream) {
  return record("ncclBroadcast", comm, send, recv, count, datatype, OP_SUM, root, stream);
}
int ncclAllGather(const void *send, void *recv, size_t count, int datatype, mock_comm *comm,
                  void *stream) {
  return record("ncclAllGather", comm, send, recv, count, datatype, OP_SUM, -1, stream);
}
int ncclAllReduce(const void *send, void *recv, size_t count, int datatype, int op,
                  mock_comm *comm, void *stream) {
  return record("ncclAllReduce", comm, send, recv, count, datatype, op, -1, stream);
}
int ncclSend(const void *send, size_t count, int datatype, int peer, mock_comm *comm,
             void *stream) {
  return record("ncclSend", comm, send, NULL, count, datatype, OP_SUM, peer, stream);
}
int ncclRecv(void *recv, size_t count, int datatype, int peer, mock_comm *comm, void *stream) {
  return record("ncclRecv", comm, NULL, recv, count, datatype, OP_SUM, peer, stream);
}

int ncclGroupStart(void) {
  int r = injected("ncclGroupStart");
  if (r) return r;
  g_depth++;
  return SUCCESS;
}

/* ---- jobs: run when every participating stream reached them ---------------- */

#define MAX_RANKS 64

typedef struct job {
  const char *fn; /* a literal */
  int participants, arrived, size, root, datatype, op;
  size_t count;
  const void *send[MAX_RANKS];
  void *recv[MAX_RANKS];
} job;

static void combine(unsigned char *acc, const unsigned char *in, size_t n, int t, int op) {
  for (size_t i = 0; i < n; ++i) {
#define COMBINE(type, size)                                                                 \
  {                                                                                         \
    type a, b;                                                                              \
    memcpy(&a, acc + i * size, size);                                                       \
    memcpy(&b, in + i * size, size);                                                        \
    a = op == OP_SUM ? (type)(a + b) : op == OP_MIN ? (b < a ? b : a) : (b > a ? b : a);    \
    memcpy(acc + i * size, &a, size);                                                       \
  }
    switch (t) {
    case T_UINT32: COMBINE(uint32_t, 4) break;
    case T_UINT64: COMBINE(uint64_t, 8) break;
    case T_FLOAT32: COMBINE(float, 4) break;
    case T_FLOAT64: COMBINE(double, 8) break;
    default: break;
    }
#undef COMBINE
  }
}

static void run_job(job *j) {
  size_t bytes = j->count * type_bytes(j->datatype), n = (size_t)j->size;
  if (strcmp(j->fn, "p2p") == 0) {
    memmove(j->recv[0], j->send[0], bytes);
  } else if (strcmp(j->fn, "ncclBroadcast") == 0) {
    unsigned char *tmp = malloc(bytes ? bytes : 1);
    memcpy(tmp, j->send[j->root], bytes);
    for (size_t r = 0; r < n; ++r) memcpy(j->recv[r], tmp, bytes);
    free(tmp);
  } else if (strcmp(j->fn, "ncclAllGather") == 0) {
    unsigned char *tmp = malloc(bytes * n > 0 ? bytes * n : 1);
    for (size_t r = 0; r < n; ++r) memcpy(tmp + r * bytes, j->send[r], bytes);
    for (size_t r = 0; r < n; ++r) memcpy(j->recv[r], tmp, bytes * n);
    free(tmp);
  } else { /* ncclAllReduce, in rank order */
    unsigned char *tmp = malloc(bytes ? bytes : 1);
    memcpy(tmp, j->send[0], bytes);
    for (size_t r = 1; r < n; ++r) combine(tmp, j->send[r], j->count, j->datatype, j->op);
    for (size_t r = 0; r < n; ++r) memcpy(j->recv[r], tmp, bytes);
    free(tmp);
  }
  g_state.jobs_run++;
}

static void arrive(void *arg) {
  job *j = arg;
  if (++j->arrived < j->participants) return;
  run_job(j);
  free(j);
}

/* The k-th collective of each rank of the clique of `first` must agree. */
static int same_collective(const pending *a, const pending *b) {
  return strcmp(a->call.fn, b->call.fn) == 0 && a->call.count == b->call.count &&
         a->call.datatype == b->call.datatype && a->call.op == b->call.op &&
         a->call.peer == b->call.peer;
}

static int is_p2p(const pending *p) {
  return strcmp(p->call.fn, "ncclSend") == 0 || strcmp(p->call.fn, "ncclRecv") == 0;
}

#define MAX_JOBS 4096
static job *g_jobs[MAX_JOBS];
static const void *g_job_streams[MAX_JOBS][MAX_RANKS];

/* Matches the pending calls into jobs; 0 and an error text if they do not
 * form complete collectives and send/recv pairs. */
static int match(size_t *job_count) {
  size_t jobs = 0;
  for (size_t i = 0; i < g_pending_count; ++i) {
    pending *p = &g_pending[i];
    if (p->matched) continue;
    if (jobs == MAX_JOBS) return refuse(INVALID_USAGE, "mock nccl: %s more than %ld jobs%ld", "group", MAX_JOBS, 0);
    job *j = calloc(1, sizeof *j);
    if (!j) return SYSTEM_ERROR;
    g_jobs[jobs++] = j;
    *job_count = jobs;
    j->count = p->call.count;
    j->datatype = p->call.datatype;
    j->op = p->call.op;
    j->size = p->comm->size;
    j->root = p->call.peer;
    if (is_p2p(p)) {
      const char *want = strcmp(p->call.fn, "ncclSend") == 0 ? "ncclRecv" : "ncclSend";
      pending *q = NULL;
      for (size_t k = i + 1; k < g_pending_count && !q; ++k) {
        pending *c = &g_pending[k];
        if (!c->matched && strcmp(c->call.fn, want) == 0 && c->comm->c == p->comm->c &&
            c->comm->rank == p->call.peer && c->call.peer == p->comm->rank)
          q = c;
      }
      if (!q)
        return refuse(INVALID_USAGE, "mock nccl: %s of rank %ld to/from peer %ld has no matching call in the group (NCCL would hang)",
                      p->call.fn, p->comm->rank, p->call.peer);
      if (q->call.count != p->call.count || q->call.datatype != p->call.datatype)
        return refuse(INVALID_USAGE, "mock nccl: %s count %ld != peer's %ld", p->call.fn, (long)p->call.count, (long)q->call.count);
      const pending *s = strcmp(p->call.fn, "ncclSend") == 0 ? p : q, *r = s == p ? q : p;
      j->fn = "p2p";
      j->participants = 2;
      j->send[0] = s->call.send;
      j->recv[0] = r->call.recv;
      g_job_streams[jobs - 1][0] = s->call.stream;
      g_job_streams[jobs - 1][1] = r->call.stream;
      p->matched = q->matched = 1;
      continue;
    }
    /* A collective: the same call from every rank of the clique, each
     * rank's first unmatched collective. */
    j->fn = strcmp(p->call.fn, "ncclBroadcast") == 0   ? "ncclBroadcast"
            : strcmp(p->call.fn, "ncclAllGather") == 0 ? "ncclAllGather"
                                                       : "ncclAllReduce";
    j->participants = p->comm->size;
    for (int rank = 0; rank < p->comm->size; ++rank) {
      pending *q = NULL;
      for (size_t k = i; k < g_pending_count && !q; ++k) {
        pending *c = &g_pending[k];
        if (!c->matched && !is_p2p(c) && c->comm->c == p->comm->c && c->comm->rank == rank) q = c;
      }
      if (!q)
        return refuse(INVALID_USAGE, "mock nccl: %s: rank %ld of %ld did not call it in this group (NCCL would hang)",
                      p->call.fn, rank, p->comm->size);
      if (!same_collective(p, q))
        return refuse(INVALID_USAGE, "mock nccl: %s: rank %ld called a different collective or size (count %ld)",
                      p->call.fn, rank, (long)q->call.count);
      q->matched = 1;
      j->send[rank] = q->call.send;
      j->recv[rank] = q->call.recv;
      g_job_streams[jobs - 1][rank] = q->call.stream;
    }
  }
  return SUCCESS;
}

int ncclGroupEnd(void) {
  int r = injected("ncclGroupEnd");
  if (g_depth <= 0) return refuse(INVALID_USAGE, "mock nccl: %s without ncclGroupStart%ld%ld", "ncclGroupEnd", 0, 0);
  if (--g_depth > 0 && !r) return SUCCESS;
  g_depth = 0;
  size_t jobs = 0;
  if (!r) r = match(&jobs);
  if (r) { /* nothing was queued */
    for (size_t k = 0; k < jobs; ++k) free(g_jobs[k]);
    g_pending_count = 0;
    return r;
  }
  /* Streams were checked when recorded; a failure here (out of memory)
   * leaves queued jobs in place, so they are not freed. */
  for (size_t k = 0; k < jobs && !r; ++k)
    for (int p = 0; p < g_jobs[k]->participants && !r; ++p)
      r = weir_mock_cuda_enqueue_host(g_job_streams[k][p], arrive, g_jobs[k]);
  if (g_pending_count) g_state.groups++;
  g_pending_count = 0;
  return r ? SYSTEM_ERROR : SUCCESS;
}
