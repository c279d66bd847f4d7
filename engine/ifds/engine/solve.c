/* weir_ifds_solve_engine: upload once, run windows until the device-side
 * fixed point, read back only the used part of the path-edge log. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/core/struct_size.h"
#include "engine/ifds/engine/engine.h"

static double now_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static const char *const program_names[IFDS_P_COUNT] = {
    "ifds_clear",  "ifds_restore", "ifds_seed",    "ifds_rehash", "ifds_unlink",
    "ifds_relate", "ifds_expand",  "ifds_advance", "ifds_ingest"};

/* Whether to run the _sg programs, whose SPIR-V reserves appended entries
 * once per subgroup (programs/ifds/ifds_sink.h): on a Vulkan device with
 * subgroup ballots in compute shaders, unless per-item appends are asked
 * for. Host and CUDA code aggregate anyway. */
static int subgroup_appends(weir_backend *backend, const weir_ifds_engine_options *o) {
  const char *env = getenv("WEIR_IFDS_PER_ITEM_APPENDS");
  weir_device_info info = WEIR_DEVICE_INFO_INIT;
  const uint32_t need = WEIR_SUBGROUP_BASIC | WEIR_SUBGROUP_BALLOT;
  if (weir_backend_format(backend) != WEIR_FORMAT_SPIRV || (o && o->per_item_appends) ||
      (env && *env && strcmp(env, "0") != 0))
    return 0;
  return weir_backend_device_info(backend, &info) == WEIR_OK && (info.subgroup_ops & need) == need;
}

/* 32-bit keys in the log and table where they fit (graph.c), on one device
 * or across devices (the outboxes and inboxes take the same width), with
 * every program format (host, CUDA and SPIR-V read both widths), unless
 * 64-bit keys are asked for. */
uint32_t weir_ifds_engine_key_words(const ifds_engine *e, const weir_ifds_engine_options *o) {
  const char *env = getenv("WEIR_IFDS_WIDE_KEYS");
  if ((o && o->wide_keys) || (env && *env && strcmp(env, "0") != 0) ||
      !weir_ifds_engine_keys_fit_32(e->problem, e->fact_bits, e->node_bits))
    return 2u;
  return 1u;
}

static int appends(int program) {
  return program == IFDS_P_SEED || program == IFDS_P_RELATE || program == IFDS_P_EXPAND ||
         program == IFDS_P_INGEST;
}

static weir_status find_programs(ifds_engine *e, const weir_ifds_engine_options *options) {
  weir_program_format format = weir_backend_format(e->backend);
  e->subgroup_appends = subgroup_appends(e->backend, options);
  for (int i = 0; i < IFDS_P_COUNT; ++i) {
    char name[32];
    snprintf(name, sizeof name, "%s%s", program_names[i],
             e->subgroup_appends && appends(i) ? "_sg" : "");
    e->prog[i] = weir_builtin_program(name);
    if (!e->prog[i] || !weir_program_has_format(e->prog[i], format))
      return weir_fail(WEIR_ERR_UNSUPPORTED,
                       "IFDS engine: backend '%s' runs %s programs, and this build has no %s "
                       "version of program '%s'. Fix: build with that format's compiler "
                       "(glslc for spirv, nvcc for cuda), pick another --backend, or use "
                       "--solver reference.",
                       weir_backend_id(e->backend), weir_program_format_name(format),
                       weir_program_format_name(format), name);
  }
  return WEIR_OK;
}

/* Workgroups per delta dispatch: enough to keep every CPU worker busy with
 * dynamic scheduling (and 64 x 64 invocations: the cpu backend runs smaller
 * grids on the calling thread alone), or a GPU's multiprocessors full. */
static uint32_t pick_grid(weir_backend *backend) {
  weir_device_info info = WEIR_DEVICE_INFO_INIT;
  if (weir_backend_device_info(backend, &info) == WEIR_OK && strcmp(info.kind, "cpu") == 0)
    return 64;
  return 2048;
}

weir_status weir_ifds_engine_check_problem(const weir_ifds_problem *pb) {
  if (pb->fact_count == 0 || pb->node_count < 2 || pb->proc_count == 0)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "weir_ifds_solve_engine: problem '%s' has %u facts, %u nodes, %u procs "
                     "(need >= 1, >= 2, >= 1). Fix: load it with weir_ifds_load_file.",
                     pb->source_name, pb->fact_count, pb->node_count, pb->proc_count);
  return WEIR_OK;
}

static weir_status check_args(weir_backend *backend, const weir_ifds_problem *pb,
                              weir_ifds_result *out) {
  if (!backend || !pb || !out)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "weir_ifds_solve_engine: backend, problem or result is NULL. Fix: pass "
                     "all three.");
  return weir_ifds_engine_check_problem(pb);
}

/* Allocates the graph, control and log buffers and uploads the graph and a
 * zeroed control block in ONE weir_upload_many. */
static weir_status upload(ifds_engine *e) {
  uint32_t *graph = NULL;
  WEIR_TRY(weir_ifds_engine_pack_graph(e->problem, NULL, 1u, &graph, &e->graph_words, &e->to_old));
  uint32_t ctrl[WEIR_IFDS_CTRL_WORDS] = {0};
  weir_status st = weir_ifds_engine_plan_shards(e);
  if (st == WEIR_OK)
    st = weir_ifds_engine_allocate(e, 4u * e->graph_words, "supergraph", &e->buf[WEIR_IFDS_B_GRAPH]);
  e->shard_bytes[WEIR_IFDS_B_GRAPH] = e->buf[WEIR_IFDS_B_GRAPH].owner ? 4u * e->graph_words : 0u;
  if (st == WEIR_OK)
    st = weir_ifds_engine_allocate(e, sizeof ctrl, "control block", &e->buf[WEIR_IFDS_B_CTRL]);
  e->shard_bytes[WEIR_IFDS_B_CTRL] = e->buf[WEIR_IFDS_B_CTRL].owner ? sizeof ctrl : 0u;
  /* One device: no outbox or inbox; their bindings are never touched. */
  e->buf[WEIR_IFDS_B_OUT] = e->buf[WEIR_IFDS_B_IN] = e->buf[WEIR_IFDS_B_CTRL];
  if (st == WEIR_OK) st = weir_ifds_engine_alloc_derived(e);
  if (st == WEIR_OK) {
    weir_upload_item items[2] = {{e->buf[WEIR_IFDS_B_GRAPH], 0, graph, 4u * e->graph_words},
                            {e->buf[WEIR_IFDS_B_CTRL], 0, ctrl, sizeof ctrl}};
    st = weir_upload_many(e->backend, items, 2);
  }
  free(graph);
  return st;
}

/* A host device (the cpu backend: DLPack kDLCPU, with a pointer to export)
 * keeps the log in host memory: the result is built from it where it is,
 * with no copy. The window loop's last read-back already waited for the
 * device. */
static int log_in_host_memory(ifds_engine *e, const void **keys) {
  weir_device_info info = WEIR_DEVICE_INFO_INIT;
  void *p = NULL;
  if (e->shards[IFDS_R_PLOG] != 1 || weir_backend_device_info(e->backend, &info) != WEIR_OK ||
      info.dl_device_type != 1 || strcmp(info.kind, "cpu") != 0)
    return 0;
  if (weir_buffer_export_pointer(e->backend, e->buf[WEIR_IFDS_B_PLOG], &p) != WEIR_OK || !p)
    return 0;
  *keys = p;
  return 1;
}

weir_status weir_ifds_engine_log_keys(ifds_engine *e, const void **keys_out, void **owned) {
  uint64_t count = e->ctrl[WEIR_IFDS_C_PLOG], entry = 4u * e->key_words;
  *owned = NULL;
  if (log_in_host_memory(e, keys_out)) return WEIR_OK;
  unsigned char *keys = malloc((count ? count : 1) * entry);
  if (!keys)
    return weir_fail(WEIR_ERR_OUT_OF_MEMORY,
                     "IFDS engine: no host memory to read back %llu path edges. Fix: free memory.",
                     (unsigned long long)count);
  /* The log's used prefix, shard by shard, in one read. */
  weir_range ranges[WEIR_IFDS_SHARDS_PLOG];
  void *dst[WEIR_IFDS_SHARDS_PLOG];
  size_t n = 0;
  uint64_t per = 1ull << e->shard_shift;
  for (uint64_t first = 0; first < count; first += per, ++n) {
    uint64_t len = count - first < per ? count - first : per;
    ranges[n] = (weir_range){e->buf[WEIR_IFDS_B_PLOG + (int)n], 0, entry * len};
    dst[n] = keys + first * entry;
  }
  weir_status st = n ? weir_download_ranges_into(e->backend, ranges, n, dst, n) : WEIR_OK;
  if (st != WEIR_OK) {
    free(keys);
    return st;
  }
  *keys_out = *owned = keys;
  return WEIR_OK;
}

static void fill_stats(const ifds_engine *e, const weir_backend_stats *before,
                       const weir_backend_stats *after, weir_ifds_stats *s) {
  s->path_edges = e->ctrl[WEIR_IFDS_C_PLOG];
  s->end_summaries = e->ctrl[WEIR_IFDS_C_ES];
  s->incoming = e->ctrl[WEIR_IFDS_C_INC];
  s->summary_edges = 0; /* never materialised: see README.md */
  s->iterations = e->ctrl[WEIR_IFDS_C_ITER];
  s->windows = e->windows;
  s->growths = e->growths;
  s->reserve_atomics = e->reserves;
  s->host_syncs = after->host_syncs - before->host_syncs;
  s->bytes_uploaded = after->bytes_uploaded - before->bytes_uploaded;
  s->bytes_downloaded = after->bytes_downloaded - before->bytes_downloaded;
  s->peak_resident_bytes = e->peak_bytes;
  s->shard_entries = e->shard_shift < 32u ? 1ull << e->shard_shift : 0u;
}

weir_status weir_ifds_engine_init(ifds_engine *e, weir_backend *backend,
                                  const weir_ifds_problem *problem,
                                  const weir_ifds_engine_options *options) {
  memset(e, 0, sizeof *e);
  e->backend = backend;
  e->problem = problem;
  WEIR_TRY(weir_ifds_engine_key_bits(problem, &e->fact_bits, &e->node_bits));
  e->key_words = 2u; /* 64-bit keys unless the single-device solve picks 32 */
  WEIR_TRY(find_programs(e, options));
  e->grid = e->max_grid = pick_grid(backend);
  weir_ifds_engine_initial_caps(problem, options, &e->caps);
  return WEIR_OK;
}

weir_status weir_ifds_engine_args_in(const char *fn, const weir_ifds_engine_options *given,
                                     weir_ifds_engine_options *known, const weir_ifds_engine_options **options,
                                     const weir_ifds_stats *stats, size_t *stats_bytes) {
  *options = given ? known : NULL;
  *stats_bytes = 0;
  WEIR_TRY(weir_struct_in(fn, "weir_ifds_engine_options", given, WEIR_IFDS_ENGINE_OPTIONS_SIZE_V1, sizeof *known,
                          known));
  if (stats)
    WEIR_TRY(weir_struct_out_size(fn, "weir_ifds_stats", stats, WEIR_IFDS_STATS_SIZE_V1, sizeof *stats,
                                  stats_bytes));
  return WEIR_OK;
}

/* Upload, windows to the fixed point, then `take` reads what it needs from
 * the log (the other relations are gone by then); *all gets every figure. */
typedef weir_status (*engine_take)(ifds_engine *e, const void *keys, void *user);

static weir_status solve_core(weir_backend *backend, const weir_ifds_problem *problem,
                              const weir_ifds_engine_options *options, engine_take take,
                              void *user, weir_ifds_stats *all) {
  ifds_engine e;
  WEIR_TRY(weir_ifds_engine_init(&e, backend, problem, options));
  e.key_words = weir_ifds_engine_key_words(&e, options);
  weir_backend_stats before, after;
  weir_backend_get_stats(backend, &before);
  double t0 = now_seconds();
  weir_status st = upload(&e);
  double t1 = now_seconds();
  if (st == WEIR_OK && options && options->phase)
    options->phase(options->progress_user, "upload", t1 - t0);
  if (st == WEIR_OK) st = weir_ifds_engine_run(&e, options);
  if (st == WEIR_OK && options && options->phase)
    options->phase(options->progress_user, "solve", now_seconds() - t1);
  uint64_t graph, log, table, lists;
  weir_ifds_engine_bytes(&e, &graph, &log, &table, &lists);
  /* Only the log is read from here on: the rest goes before the result is
   * built (on a host device that is the memory the result is built in). */
  weir_ifds_engine_release_derived(&e);
  double t2 = now_seconds();
  const void *keys = NULL;
  void *owned = NULL;
  if (st == WEIR_OK) st = weir_ifds_engine_log_keys(&e, &keys, &owned);
  if (st == WEIR_OK) st = take(&e, keys, user);
  free(owned);
  double t3 = now_seconds();
  if (st == WEIR_OK && options && options->phase)
    options->phase(options->progress_user, "read-back", t3 - t2);
  weir_ifds_engine_free_all(&e);
  free(e.to_old);
  weir_backend_get_stats(backend, &after);
  fill_stats(&e, &before, &after, all);
  all->seconds_upload = t1 - t0;
  all->seconds_solve = t2 - t1;
  all->seconds_readback = t3 - t2;
  all->graph_bytes = graph; /* taken before the buffers were freed */
  all->log_bytes = log;
  all->table_bytes = table;
  all->list_bytes = lists;
  return st;
}

static weir_status take_holds(ifds_engine *e, const void *keys, void *user) {
  return weir_ifds_engine_holds(e, keys, e->ctrl[WEIR_IFDS_C_PLOG], user);
}

weir_status weir_ifds_solve_engine(weir_backend *backend, const weir_ifds_problem *problem,
                                   const weir_ifds_engine_options *given,
                                   weir_ifds_result *out, weir_ifds_stats *stats) {
  WEIR_TRY(check_args(backend, problem, out));
  weir_ifds_engine_options known;
  const weir_ifds_engine_options *options = NULL;
  size_t stats_bytes = 0;
  WEIR_TRY(weir_ifds_engine_args_in("weir_ifds_solve_engine", given, &known, &options, stats, &stats_bytes));
  memset(out, 0, sizeof *out);
  weir_ifds_stats all = WEIR_IFDS_STATS_INIT;
  weir_status st = solve_core(backend, problem, options, take_holds, out, &all);
  if (st != WEIR_OK) {
    weir_ifds_result_free(out);
    memset(out, 0, sizeof *out);
    return st;
  }
  if (stats) weir_struct_out_copy(stats, &all, stats_bytes, sizeof all);
  return WEIR_OK;
}

/* The log's keys (4 * key_words bytes each, the same layout either width)
 * decoded into the problem's numbering, in log order. */
static weir_status take_edges(ifds_engine *e, const void *log, void *user) {
  ifds_path_edges *out = user;
  uint64_t n = e->ctrl[WEIR_IFDS_C_PLOG];
  size_t bytes = (n ? n : 1) * sizeof(uint32_t);
  out->d1 = malloc(bytes), out->node = malloc(bytes), out->d2 = malloc(bytes);
  if (!out->d1 || !out->node || !out->d2)
    return weir_fail(WEIR_ERR_OUT_OF_MEMORY, "IFDS engine: no host memory for %llu path edges "
                     "(3 x %zu bytes). Fix: free memory.", (unsigned long long)n, bytes);
  uint32_t fb = e->fact_bits, nb = e->node_bits;
  uint64_t fmask = (1ull << fb) - 1u, nmask = (1ull << nb) - 1u;
  for (uint64_t i = 0; i < n; ++i) {
    uint64_t key = e->key_words == 1u ? ((const uint32_t *)log)[i] : ((const uint64_t *)log)[i];
    out->d2[i] = (uint32_t)(key & fmask);
    out->node[i] = e->to_old[(key >> fb) & nmask];
    out->d1[i] = (uint32_t)(key >> (fb + nb));
  }
  out->count = n;
  return WEIR_OK;
}

void weir_ifds_path_edges_free(ifds_path_edges *edges) {
  free(edges->d1);
  free(edges->node);
  free(edges->d2);
  memset(edges, 0, sizeof *edges);
}

weir_status weir_ifds_engine_path_edges(weir_backend *backend, const weir_ifds_problem *problem,
                                        const weir_ifds_engine_options *options,
                                        ifds_path_edges *out, weir_ifds_stats *all) {
  memset(out, 0, sizeof *out);
  WEIR_TRY(weir_ifds_engine_check_problem(problem)); /* the caller checked for NULL */
  weir_status st = solve_core(backend, problem, options, take_edges, out, all);
  if (st != WEIR_OK) weir_ifds_path_edges_free(out);
  return st;
}
