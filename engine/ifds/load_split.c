/* The parallel loader: the body of a problem (everything after the first
 * edge, call, callee or seed line) is cut at line boundaries into one chunk
 * per thread. The first chunk is loaded by the serial path into the loader
 * itself, on this thread; each other thread parses its chunk into its own
 * arrays and flow table (load_chunk.c), and those chunks are merged into the
 * loader in file order: elements appended, each chunk's flows interned in
 * the order they first appear in it, line tags shifted by the chunk's first
 * line. So the builder ends as a serial load leaves it, and the problem is
 * the same, byte for byte.
 *
 * The header and the proc section stay serial (the body needs their counts
 * and node tables; they are a small part of a file). Errors: the first
 * chunk's first error is the file's first, worded by the serial path. A
 * later chunk that meets a line it cannot take stops the others, and the
 * serial path goes on from the end of the first chunk, so it reports the
 * first error after it as always. Chunks that together break a rule between
 * lines (a call node with edges, two calls of a node, the `end` counts,
 * lines after `end`) spoil the merge, and the input is loaded again
 * serially. A valid file is parsed once. */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/ifds/load.h"

/* Below this many bytes a chunk costs more in thread start and merge than
 * it saves; only an automatic thread count applies it. */
enum { AUTO_CHUNK_MIN = 4u << 20 };

weir_status ifds_load_threads(int *threads, int *automatic) {
  *threads = 1, *automatic = 0;
  const char *env = getenv("WEIR_IFDS_LOAD_THREADS");
  if (env && *env) {
    char *rest = NULL;
    errno = 0;
    long n = strtol(env, &rest, 10);
    if (errno || *rest || env[0] < '0' || env[0] > '9' || n < 1 || n > IFDS_LOAD_MAX_THREADS)
      return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                       "WEIR_IFDS_LOAD_THREADS is '%.32s', not a thread count from 1 to %d. Fix: "
                       "set it to 1 (serial) up to %d, or unset it (the online processors).",
                       env, IFDS_LOAD_MAX_THREADS, IFDS_LOAD_MAX_THREADS);
    *threads = (int)n;
    return WEIR_OK;
  }
  long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  *threads = cpus < 1 ? 1 : cpus > IFDS_LOAD_AUTO_THREADS ? IFDS_LOAD_AUTO_THREADS : (int)cpus;
  *automatic = 1;
  return WEIR_OK;
}

/* ---- splitting and running ------------------------------------------------------ */

/* Chunk k ends after the first LF at or past k/count of the text (the text
 * ends with an LF), so chunks hold whole lines; some may be empty. */
static void split(ifds_chunk *chunks, int count, const ifds_loader *L, const char *text,
                  size_t length, int drop_pages, const _Atomic int *stop) {
  const char *start = text, *end = text + length;
  for (int k = 0; k < count; ++k) {
    const char *stop_at = k + 1 == count ? end : text + length / (size_t)count * (size_t)(k + 1);
    if (stop_at < start) stop_at = start;
    if (stop_at < end && stop_at > text && stop_at[-1] != '\n') {
      const char *lf = memchr(stop_at, '\n', (size_t)(end - stop_at));
      stop_at = lf ? lf + 1 : end;
    }
    ifds_chunk_init(&chunks[k], L, start, stop_at);
    chunks[k].drop_pages = drop_pages;
    chunks[k].stop = stop;
    start = stop_at;
  }
}

typedef struct chunk_job {
  ifds_chunk *chunk;
  _Atomic int *stop;
} chunk_job;

static void *run_chunk(void *arg) {
  chunk_job *job = arg;
  ifds_chunk_parse(job->chunk);
  if (job->chunk->failed) atomic_store(job->stop, 1);
  return NULL;
}

/* The first chunk on this thread, by the serial path into the loader
 * itself (it follows the lines the serial path already took, so it is exact,
 * and its first error is the file's); the others on their own threads. A
 * thread that cannot be started leaves its chunk to this one. */
static weir_status run_all(ifds_loader *L, ifds_chunk *chunks, int count, const ifds_range *first,
                           _Atomic int *stop) {
  pthread_t tid[IFDS_LOAD_MAX_THREADS];
  chunk_job jobs[IFDS_LOAD_MAX_THREADS];
  int started[IFDS_LOAD_MAX_THREADS] = {0};
  for (int k = 1; k < count; ++k) {
    jobs[k] = (chunk_job){&chunks[k], stop};
    started[k] = pthread_create(&tid[k], NULL, run_chunk, &jobs[k]) == 0;
  }
  weir_status s = first->serial(L, first->base, first->begin, first->end, first->drop_pages);
  if (s != WEIR_OK) atomic_store(stop, 1);
  for (int k = 1; k < count; ++k) {
    if (started[k])
      pthread_join(tid[k], NULL);
    else if (s == WEIR_OK)
      run_chunk(&jobs[k]);
  }
  return s;
}

/* ---- merging ------------------------------------------------------------------- */

/* The merge is two passes. The first, in file order on this thread, does
 * what depends on what came before: the `end` line's counts, the flows'
 * indices (interned in order), two calls of one node, the edges out of
 * each node, and where each chunk's elements go. The second copies each
 * chunk's arrays to their place, one thread per chunk: the copy is most of
 * a merge, and it would otherwise grow with the chunks that saved parse
 * time. */

/* The element counts of a builder, in the order of the `end` line. */
static void counts(const ifds_builder *b, size_t have[4]) {
  have[0] = b->edge_from.len, have[1] = b->call_node.len;
  have[2] = b->callee_site.len, have[3] = b->seed_node.len;
}

/* A directive line in the chunk (the fast path counts none: its elements). */
static int has_directives(const ifds_chunk *c) {
  size_t have[4];
  counts(&c->L.b, have);
  return c->directives || have[0] || have[1] || have[2] || have[3];
}

/* The chunk's `end` line against the elements above it in the file. */
static int end_matches(const ifds_chunk *c, const size_t above[4]) {
  for (int i = 0; i < 4; ++i)
    if (above[i] + c->end_have[i] != c->end_want[i]) return 0;
  return 1;
}

/* The chunk's flows interned into the loader's table, in their order. */
static weir_status flow_map(ifds_loader *L, ifds_chunk *c) {
  const ifds_flow_table *t = &c->L.b.flows;
  uint32_t n = ifds_flow_count(t);
  c->flow_map = malloc((n ? n : 1) * sizeof *c->flow_map);
  if (!c->flow_map)
    return weir_fail(WEIR_ERR_OUT_OF_MEMORY,
                     "allocating the flow map of a chunk (%u flows) failed. Fix: free memory.", n);
  for (uint32_t f = 0; f < n; ++f) WEIR_TRY(ifds_flow_copy_in(&L->b.flows, t, f, &c->flow_map[f]));
  return WEIR_OK;
}

/* The first pass for one chunk; *above: the elements above it, then
 * below it. *ok is 0 when a rule between lines is broken. */
static weir_status plan_chunk(ifds_loader *L, ifds_chunk *c, size_t above[4], int *ended,
                              int *ok) {
  ifds_builder *b = &L->b;
  const ifds_builder *cb = &c->L.b;
  if (*ended && has_directives(c)) return *ok = 0, WEIR_OK; /* lines after `end` */
  if (c->end_line && !end_matches(c, above)) return *ok = 0, WEIR_OK;
  *ended |= c->end_line != 0;
  WEIR_TRY(flow_map(L, c));
  for (size_t i = 0; i < cb->call_node.len && *ok; ++i) {
    uint32_t site = cb->call_node.data[i];
    if (b->node_call[site] != WEIR_IFDS_NONE) *ok = 0; /* a second call of the node */
    b->node_call[site] = (uint32_t)(above[1] + i);
  }
  for (size_t i = 0; i < cb->edge_from.len; ++i) b->out_count[cb->edge_from.data[i]]++;
  size_t have[4];
  counts(cb, have);
  for (int i = 0; i < 4; ++i) c->at[i] = above[i], above[i] += have[i];
  c->shift = L->line - 1; /* chunk line 1 is file line L->line */
  L->line += c->L.line - 1;
  return WEIR_OK;
}

/* n values from src to dst: as they are, through `map` (flows), or plus
 * `add` saturated as ifds_line32 saturates (lines). */
static void copy_values(uint32_t *dst, const uint32_t *src, size_t n, const uint32_t *map,
                        uint64_t add) {
  if (map)
    for (size_t i = 0; i < n; ++i) dst[i] = map[src[i]];
  else if (add)
    for (size_t i = 0; i < n; ++i) {
      uint64_t v = src[i] + add;
      dst[i] = v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
    }
  else if (n)
    memcpy(dst, src, n * sizeof *dst);
}

typedef struct copy_job {
  ifds_builder *b;
  ifds_chunk *chunk;
} copy_job;

/* The second pass for one chunk (a thread's work): its arrays into their
 * places in the loader's, which have room; each freed once copied. */
static void *copy_chunk(void *arg) {
  copy_job *job = arg;
  ifds_builder *b = job->b, *cb = &job->chunk->L.b;
  const uint32_t *map = job->chunk->flow_map;
  uint64_t shift = job->chunk->shift;
  const size_t *at = job->chunk->at;
  const struct {
    ifds_vec *dst, *src;
    int kind; /* index into at[]; + 4: flows; + 8: lines */
  } parts[] = {{&b->edge_from, &cb->edge_from, 0},
               {&b->edge_to, &cb->edge_to, 0},
               {&b->edge_flow, &cb->edge_flow, 4},
               {&b->edge_line, &cb->edge_line, 8},
               {&b->call_node, &cb->call_node, 1},
               {&b->call_return, &cb->call_return, 1},
               {&b->call_flow, &cb->call_flow, 5},
               {&b->call_line, &cb->call_line, 9},
               {&b->callee_site, &cb->callee_site, 2},
               {&b->callee_proc, &cb->callee_proc, 2},
               {&b->callee_call_flow, &cb->callee_call_flow, 6},
               {&b->callee_return_flow, &cb->callee_return_flow, 6},
               {&b->callee_line, &cb->callee_line, 10},
               {&b->seed_node, &cb->seed_node, 3},
               {&b->seed_fact, &cb->seed_fact, 3}};
  for (size_t v = 0; v < sizeof parts / sizeof parts[0]; ++v) {
    int kind = parts[v].kind;
    copy_values(parts[v].dst->data + at[kind % 4], parts[v].src->data, parts[v].src->len,
                kind / 4 == 1 ? map : NULL, kind / 4 == 2 ? shift : 0);
    ifds_vec_free(parts[v].src); /* once copied: the peak memory stays lower */
  }
  return NULL;
}

/* Chunks 1.. to their places, chunk 1 on this thread. */
static void copy_all(ifds_builder *b, ifds_chunk *chunks, int count) {
  pthread_t tid[IFDS_LOAD_MAX_THREADS];
  copy_job jobs[IFDS_LOAD_MAX_THREADS];
  int started[IFDS_LOAD_MAX_THREADS] = {0};
  for (int k = 1; k < count; ++k) jobs[k] = (copy_job){b, &chunks[k]};
  for (int k = 2; k < count; ++k)
    started[k] = pthread_create(&tid[k], NULL, copy_chunk, &jobs[k]) == 0;
  if (count > 1) copy_chunk(&jobs[1]);
  for (int k = 2; k < count; ++k) {
    if (started[k])
      pthread_join(tid[k], NULL);
    else
      copy_chunk(&jobs[k]);
  }
}

/* Room in the loader's arrays for `total` elements of each kind. */
static weir_status make_room(ifds_builder *b, const size_t total[4]) {
  ifds_vec *dst[] = {&b->edge_from,   &b->edge_to,          &b->edge_flow,
                     &b->edge_line,   &b->call_node,        &b->call_return,
                     &b->call_flow,   &b->call_line,        &b->callee_site,
                     &b->callee_proc, &b->callee_call_flow, &b->callee_return_flow,
                     &b->callee_line, &b->seed_node,        &b->seed_fact};
  static const int kind[] = {0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 2, 3, 3};
  for (size_t v = 0; v < sizeof dst / sizeof dst[0]; ++v)
    WEIR_TRY(ifds_vec_reserve(dst[v], total[kind[v]] - dst[v]->len));
  for (size_t v = 0; v < sizeof dst / sizeof dst[0]; ++v) dst[v]->len = total[kind[v]];
  return WEIR_OK;
}

/* The counts the builder's own calls refuse past (build_body.c): a body
 * that large is left to the serial load and its message. */
static int within_limits(const size_t total[4]) {
  return total[0] <= UINT32_MAX - 1 && total[2] <= UINT32_MAX - 1;
}

/* A call node with edges, wherever each came from. */
static int calls_without_edges(const ifds_builder *b) {
  for (size_t i = 0; i < b->call_node.len; ++i)
    if (b->out_count[b->call_node.data[i]]) return 0;
  return 1;
}

/* Chunks 1.. after the first, which is in the loader already. */
static weir_status merge(ifds_loader *L, ifds_chunk *chunks, int count, int *ok) {
  size_t total[4];
  counts(&L->b, total);
  int ended = L->stage == IFDS_STAGE_END;
  for (int k = 1; k < count && *ok; ++k) WEIR_TRY(plan_chunk(L, &chunks[k], total, &ended, ok));
  if (*ok) *ok = within_limits(total);
  if (!*ok) return WEIR_OK;
  WEIR_TRY(make_room(&L->b, total));
  copy_all(&L->b, chunks, count);
  *ok = calls_without_edges(&L->b);
  if (*ok && ended) L->stage = IFDS_STAGE_END;
  return WEIR_OK;
}

/* ---- the entry point ------------------------------------------------------------ */

int ifds_load_chunk_count(const ifds_loader *L, size_t length) {
  if (!L->threads_auto) return L->threads;
  size_t most = length / AUTO_CHUNK_MIN;
  return most < (size_t)L->threads ? (int)(most ? most : 1) : L->threads;
}

weir_status ifds_load_chunks(ifds_loader *L, const ifds_range *body, size_t *taken,
                             int *spoilt) {
  *taken = body->begin, *spoilt = 0;
  int count = ifds_load_chunk_count(L, body->end - body->begin);
  ifds_chunk *chunks = calloc((size_t)count, sizeof *chunks);
  if (!chunks)
    return weir_fail(WEIR_ERR_OUT_OF_MEMORY,
                     "allocating %d loader chunks failed. Fix: free memory or load with one "
                     "thread (WEIR_IFDS_LOAD_THREADS=1).",
                     count);
  _Atomic int stop = 0;
  split(chunks, count, L, body->base + body->begin, body->end - body->begin, body->drop_pages,
        &stop);
  ifds_range first = *body;
  first.end = (size_t)(chunks[0].end - body->base);
  weir_status s = run_all(L, chunks, count, &first, &stop);
  int ok = s == WEIR_OK && !atomic_load(&stop);
  if (ok) s = merge(L, chunks, count, &ok);
  for (int k = 0; k < count; ++k) ifds_chunk_free(&chunks[k]);
  free(chunks);
  if (s != WEIR_OK) return s;
  /* merged: all of it; a chunk failed: the serial path goes on after the
   * first chunk and finds its error; the merge found a rule broken between
   * chunks: L holds part of the merge, and the load starts over */
  *taken = ok ? body->end : first.end;
  *spoilt = !ok && !atomic_load(&stop);
  return WEIR_OK;
}
