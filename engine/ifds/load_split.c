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
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/ifds/load.h"

/* Below this many bytes a chunk costs more in thread start and merge than
 * it saves; only an automatic thread count applies it. */
enum { AUTO_CHUNK_MIN = 4u << 20 };

weir_status ifds_load_threads(const weir_ifds_load_options *options, int *threads,
                              int *automatic) {
  *threads = 1, *automatic = 0;
  if (options && options->threads < 0)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "weir_ifds_load: threads is %d. Fix: pass 0 (automatic), 1 (serial) or "
                     "a thread count.",
                     options->threads);
  if (options && options->threads > 0) {
    *threads = options->threads < IFDS_LOAD_MAX_THREADS ? options->threads : IFDS_LOAD_MAX_THREADS;
    return WEIR_OK;
  }
  const char *env = getenv("WEIR_IFDS_LOAD_THREADS");
  if (env && *env) {
    char *rest = NULL;
    long n = strtol(env, &rest, 10);
    if (*rest || n < 0)
      return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                       "WEIR_IFDS_LOAD_THREADS is '%.32s'. Fix: set it to 0 (automatic), 1 "
                       "(serial) or a thread count, or unset it.",
                       env);
    if (n > 0) {
      *threads = n < IFDS_LOAD_MAX_THREADS ? (int)n : IFDS_LOAD_MAX_THREADS;
      return WEIR_OK;
    }
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

/* dst += src; with `map`, each value is map[value] (flows); with `add`,
 * value + add, saturated as ifds_line32 saturates (lines). */
static weir_status append(ifds_vec *dst, const ifds_vec *src, const uint32_t *map, uint64_t add) {
  WEIR_TRY(ifds_vec_reserve(dst, src->len));
  uint32_t *out = dst->data + dst->len;
  if (map)
    for (size_t i = 0; i < src->len; ++i) out[i] = map[src->data[i]];
  else if (add)
    for (size_t i = 0; i < src->len; ++i) {
      uint64_t v = src->data[i] + add;
      out[i] = v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
    }
  else if (src->len)
    memcpy(out, src->data, src->len * sizeof *out);
  dst->len += src->len;
  return WEIR_OK;
}

/* The chunk's flows interned into the loader's table, in their order. */
static weir_status flow_map(ifds_loader *L, const ifds_chunk *c, uint32_t **map) {
  const ifds_flow_table *t = &c->L.b.flows;
  uint32_t n = ifds_flow_count(t);
  *map = malloc((n ? n : 1) * sizeof **map);
  if (!*map)
    return weir_fail(WEIR_ERR_OUT_OF_MEMORY,
                     "allocating the flow map of a chunk (%u flows) failed. Fix: free memory.", n);
  for (uint32_t f = 0; f < n; ++f) {
    weir_status s = ifds_flow_copy_in(&L->b.flows, t, f, &(*map)[f]);
    if (s != WEIR_OK) return free(*map), *map = NULL, s;
  }
  return WEIR_OK;
}

/* Room for every element of every chunk at once: the arrays grow once. */
static weir_status reserve_all(ifds_builder *b, const ifds_chunk *chunks, int count) {
  ifds_vec *dst[] = {&b->edge_from,   &b->edge_to,          &b->edge_flow,
                     &b->edge_line,   &b->call_node,        &b->call_return,
                     &b->call_flow,   &b->call_line,        &b->callee_site,
                     &b->callee_proc, &b->callee_call_flow, &b->callee_return_flow,
                     &b->callee_line, &b->seed_node,        &b->seed_fact};
  for (size_t v = 0; v < sizeof dst / sizeof dst[0]; ++v) {
    size_t offset = (size_t)((const char *)dst[v] - (const char *)b), extra = 0;
    for (int k = 0; k < count; ++k)
      extra += ((const ifds_vec *)((const char *)&chunks[k].L.b + offset))->len;
    WEIR_TRY(ifds_vec_reserve(dst[v], extra));
  }
  return WEIR_OK;
}

/* The element counts so far, in the order of the `end` line. */
static void counts(const ifds_builder *b, size_t have[4]) {
  have[0] = b->edge_from.len, have[1] = b->call_node.len;
  have[2] = b->callee_site.len, have[3] = b->seed_node.len;
}

/* The chunk's `end` line against the elements above it in the file. */
static int end_matches(const ifds_builder *b, const ifds_chunk *c) {
  size_t above[4];
  counts(b, above);
  for (int i = 0; i < 4; ++i)
    if (above[i] + c->end_have[i] != c->end_want[i]) return 0;
  return 1;
}

/* A directive line in the chunk (the fast path counts none: its elements). */
static int has_directives(const ifds_chunk *c) {
  size_t have[4];
  counts(&c->L.b, have);
  return c->directives || have[0] || have[1] || have[2] || have[3];
}

/* Appends one chunk; *ok is 0 when a rule between lines is broken. */
static weir_status merge_chunk(ifds_loader *L, ifds_chunk *c, int *ended, int *ok) {
  ifds_builder *b = &L->b, *cb = &c->L.b;
  if (*ended && has_directives(c)) return *ok = 0, WEIR_OK; /* lines after `end` */
  if (c->end_line && !end_matches(b, c)) return *ok = 0, WEIR_OK;
  uint64_t shift = L->line - 1; /* chunk line 1 is file line L->line */
  uint32_t *map = NULL;
  WEIR_TRY(flow_map(L, c, &map));
  for (size_t i = 0; i < cb->edge_from.len; ++i) b->out_count[cb->edge_from.data[i]]++;
  for (size_t i = 0; i < cb->call_node.len && *ok; ++i) {
    uint32_t site = cb->call_node.data[i];
    if (b->node_call[site] != WEIR_IFDS_NONE) *ok = 0; /* a second call of the node */
    b->node_call[site] = (uint32_t)(b->call_node.len + i);
  }
  weir_status s = WEIR_OK;
  const struct {
    ifds_vec *dst, *src;
    int kind; /* 0 copy, 1 flow, 2 line */
  } parts[] = {{&b->edge_from, &cb->edge_from, 0},
               {&b->edge_to, &cb->edge_to, 0},
               {&b->edge_flow, &cb->edge_flow, 1},
               {&b->edge_line, &cb->edge_line, 2},
               {&b->call_node, &cb->call_node, 0},
               {&b->call_return, &cb->call_return, 0},
               {&b->call_flow, &cb->call_flow, 1},
               {&b->call_line, &cb->call_line, 2},
               {&b->callee_site, &cb->callee_site, 0},
               {&b->callee_proc, &cb->callee_proc, 0},
               {&b->callee_call_flow, &cb->callee_call_flow, 1},
               {&b->callee_return_flow, &cb->callee_return_flow, 1},
               {&b->callee_line, &cb->callee_line, 2},
               {&b->seed_node, &cb->seed_node, 0},
               {&b->seed_fact, &cb->seed_fact, 0}};
  for (size_t v = 0; s == WEIR_OK && v < sizeof parts / sizeof parts[0]; ++v) {
    s = append(parts[v].dst, parts[v].src, parts[v].kind == 1 ? map : NULL,
               parts[v].kind == 2 ? shift : 0);
    ifds_vec_free(parts[v].src); /* each array once copied: the peak memory stays lower */
  }
  free(map);
  if (c->end_line) *ended = 1;
  L->line += c->L.line - 1;
  return s;
}

/* The counts the builder's own calls refuse past (build_body.c): a body
 * that large is left to the serial load and its message. */
static int within_limits(const ifds_builder *b) {
  return b->edge_from.len <= UINT32_MAX - 1 && b->callee_site.len <= UINT32_MAX - 1;
}

/* A call node with edges, wherever each came from. */
static int calls_without_edges(const ifds_builder *b) {
  for (size_t i = 0; i < b->call_node.len; ++i)
    if (b->out_count[b->call_node.data[i]]) return 0;
  return 1;
}

/* Chunks 1.. after the first, which is in the loader already. */
static weir_status merge(ifds_loader *L, ifds_chunk *chunks, int count, int *ok) {
  WEIR_TRY(reserve_all(&L->b, chunks + 1, count - 1));
  int ended = L->stage == IFDS_STAGE_END;
  for (int k = 1; k < count && *ok; ++k) WEIR_TRY(merge_chunk(L, &chunks[k], &ended, ok));
  if (*ok) *ok = within_limits(&L->b) && calls_without_edges(&L->b);
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
