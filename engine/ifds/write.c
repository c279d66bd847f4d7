/* Writing problems (canonical text), results (the spec's result file) and
 * solver figures (JSON). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "engine/core/struct_size.h"
#include "engine/ifds/internal.h"
#include "weir/ifds.h"

void ifds_write_counts_and_procs(ifds_out *o, const weir_ifds_problem *p) {
  ifds_out_str(o, "facts ");
  ifds_out_u64(o, p->fact_count);
  ifds_out_str(o, "\nprocs ");
  ifds_out_u64(o, p->proc_count);
  ifds_out_str(o, "\nnodes ");
  ifds_out_u64(o, p->node_count);
  ifds_out_char(o, '\n');
  for (uint32_t id = 0; id < p->proc_count; ++id) {
    ifds_out_str(o, "proc ");
    ifds_out_u64(o, id);
    ifds_out_char(o, ' ');
    ifds_out_bytes(o, p->names + p->proc_name_offset[id],
                   p->proc_name_offset[id + 1] - p->proc_name_offset[id]);
    ifds_out_char(o, ' ');
    ifds_out_u64(o, p->proc_first[id]);
    ifds_out_char(o, ' ');
    ifds_out_u64(o, p->proc_last[id]);
    ifds_out_char(o, '\n');
  }
}

static void write_calls(ifds_out *o, const weir_ifds_problem *p) {
  for (uint32_t c = 0; c < p->call_count; ++c) {
    ifds_out_str(o, "call ");
    ifds_out_u64(o, p->call_node[c]);
    ifds_out_char(o, ' ');
    ifds_out_u64(o, p->call_return[c]);
    ifds_out_char(o, ' ');
    ifds_out_flow(o, &p->flows, p->call_flow[c]);
    ifds_out_char(o, '\n');
    for (uint32_t k = p->callee_offset[c]; k < p->callee_offset[c + 1]; ++k) {
      ifds_out_str(o, "callee ");
      ifds_out_u64(o, p->call_node[c]);
      ifds_out_char(o, ' ');
      ifds_out_u64(o, p->callee_proc[k]);
      ifds_out_char(o, ' ');
      ifds_out_flow(o, &p->flows, p->callee_call_flow[k]);
      ifds_out_char(o, ' ');
      ifds_out_flow(o, &p->flows, p->callee_return_flow[k]);
      ifds_out_char(o, '\n');
    }
  }
}

/* The trailer: the counts of the lines above, so that a cut is detected. */
static void write_end(ifds_out *o, const weir_ifds_problem *p) {
  ifds_out_str(o, "end ");
  ifds_out_u64(o, p->succ_offset[p->node_count]);
  ifds_out_char(o, ' ');
  ifds_out_u64(o, p->call_count);
  ifds_out_char(o, ' ');
  ifds_out_u64(o, p->callee_offset[p->call_count]);
  ifds_out_char(o, ' ');
  ifds_out_u64(o, p->seed_count);
  ifds_out_char(o, '\n');
}

weir_status weir_ifds_write_problem(const weir_ifds_problem *p, FILE *out) {
  if (!p || !out)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "weir_ifds_write_problem: problem or out is NULL. Fix: pass both.");
  ifds_out *o = malloc(sizeof *o);
  if (!o)
    return weir_fail(WEIR_ERR_OUT_OF_MEMORY,
                     "allocating the output buffer failed. Fix: free memory.");
  ifds_out_init(o, out);
  ifds_out_str(o, "weir-ifds 1\n");
  ifds_write_counts_and_procs(o, p);
  for (uint32_t n = 0; n < p->node_count; ++n)
    for (uint32_t e = p->succ_offset[n]; e < p->succ_offset[n + 1]; ++e) {
      ifds_out_str(o, "edge ");
      ifds_out_u64(o, n);
      ifds_out_char(o, ' ');
      ifds_out_u64(o, p->succ_node[e]);
      ifds_out_char(o, ' ');
      ifds_out_flow(o, &p->flows, p->succ_flow[e]);
      ifds_out_char(o, '\n');
    }
  write_calls(o, p);
  for (uint32_t s = 0; s < p->seed_count; ++s) {
    ifds_out_str(o, "seed ");
    ifds_out_u64(o, p->seed_node[s]);
    ifds_out_char(o, ' ');
    ifds_out_u64(o, p->seed_fact[s]);
    ifds_out_char(o, '\n');
  }
  write_end(o, p);
  weir_status s = ifds_out_finish(o, "the IFDS problem");
  free(o);
  return s;
}

void weir_ifds_result_free(weir_ifds_result *r) {
  if (!r) return;
  free(r->hold_node);
  free(r->hold_fact);
  memset(r, 0, sizeof *r);
}

weir_status weir_ifds_write_result(const weir_ifds_result *r, FILE *out) {
  if (!r || !out)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "weir_ifds_write_result: result or out is NULL. Fix: pass both.");
  ifds_out *o = malloc(sizeof *o);
  if (!o)
    return weir_fail(WEIR_ERR_OUT_OF_MEMORY,
                     "allocating the output buffer failed. Fix: free memory.");
  ifds_out_init(o, out);
  ifds_out_str(o, "weir-ifds-result 1\npath-edges ");
  ifds_out_u64(o, r->path_edges);
  ifds_out_str(o, "\nholds ");
  ifds_out_u64(o, r->hold_count);
  ifds_out_char(o, '\n');
  for (uint64_t i = 0; i < r->hold_count; ++i) {
    ifds_out_u64(o, r->hold_node[i]);
    ifds_out_char(o, ' ');
    ifds_out_u64(o, r->hold_fact[i]);
    ifds_out_char(o, '\n');
  }
  weir_status s = ifds_out_finish(o, "the IFDS result");
  free(o);
  return s;
}

weir_status weir_ifds_write_result_file(const weir_ifds_result *r, const char *path) {
  if (!path)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "weir_ifds_write_result_file: path is NULL. Fix: pass a path.");
  FILE *f = fopen(path, "wb");
  if (!f)
    return weir_fail(WEIR_ERR_IO,
                     "opening the result file '%s' for writing failed: %s. Fix: check "
                     "the directory and its permissions.",
                     path, strerror(errno));
  weir_status s = weir_ifds_write_result(r, f);
  if (fclose(f) != 0 && s == WEIR_OK)
    s = weir_fail(WEIR_ERR_IO,
                  "closing the result file '%s' failed: %s. Fix: check free disk "
                  "space.",
                  path, strerror(errno));
  if (s != WEIR_OK) weir_fail_context(s, "writing '%s'", path);
  return s;
}

/* A JSON string body: the solver and backend names are ours, but quote
 * anyway so that any name stays valid JSON. */
static void json_string(FILE *out, const char *s) {
  fputc('"', out);
  for (; s && *s; ++s) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\')
      fprintf(out, "\\%c", c);
    else if (c < 0x20)
      fprintf(out, "\\u%04x", c);
    else
      fputc(c, out);
  }
  fputc('"', out);
}

double weir_ifds_stats_imbalance(const weir_ifds_stats *st) {
  if (!st || st->struct_size < sizeof *st || st->devices < 2) return 0.0;
  uint32_t n = st->devices < WEIR_IFDS_MEMBER_STATS ? st->devices : WEIR_IFDS_MEMBER_STATS;
  uint64_t max = 0, sum = 0;
  for (uint32_t i = 0; i < n; ++i) {
    sum += st->member_path_edges[i];
    if (st->member_path_edges[i] > max) max = st->member_path_edges[i];
  }
  return sum ? (double)max * n / (double)sum : 0.0;
}

/* Across devices: each member's owned path edges and busy seconds, and the
 * imbalance (max over mean of the path edges). */
static void write_members(const weir_ifds_stats *st, FILE *out) {
  uint32_t n = st->devices < WEIR_IFDS_MEMBER_STATS ? st->devices : WEIR_IFDS_MEMBER_STATS;
  fputs(", \"member_path_edges\": [", out);
  for (uint32_t i = 0; i < n; ++i)
    fprintf(out, "%s%llu", i ? ", " : "", (unsigned long long)st->member_path_edges[i]);
  fputs("], \"member_busy_seconds\": [", out);
  for (uint32_t i = 0; i < n; ++i) fprintf(out, "%s%.6f", i ? ", " : "", st->member_busy_seconds[i]);
  fprintf(out, "], \"path_edge_imbalance\": %.4f", weir_ifds_stats_imbalance(st));
}

weir_status weir_ifds_write_stats_json(const weir_ifds_stats *given, const char *solver,
                                       const char *backend, double seconds_load, FILE *out) {
  if (!given || !out)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "weir_ifds_write_stats_json: stats or out is NULL. Fix: pass both.");
  weir_ifds_stats known; /* fields past the caller's struct_size read as 0 */
  WEIR_TRY(weir_struct_in("weir_ifds_write_stats_json", "weir_ifds_stats", given,
                          WEIR_IFDS_STATS_SIZE_V1, sizeof known, &known));
  const weir_ifds_stats *st = &known;
  fputs("{\"solver\": ", out);
  json_string(out, solver ? solver : "");
  fputs(", \"backend\": ", out);
  json_string(out, backend ? backend : "");
  fprintf(out,
          ", \"seconds_load\": %.6f, \"seconds_upload\": %.6f, \"seconds_solve\": %.6f, "
          "\"seconds_readback\": %.6f, \"seconds_exchange\": %.6f",
          seconds_load, st->seconds_upload, st->seconds_solve, st->seconds_readback,
          st->seconds_exchange);
  const struct {
    const char *name;
    uint64_t value;
  } fields[] = {{"path_edges", st->path_edges},
                {"summary_edges", st->summary_edges},
                {"end_summaries", st->end_summaries},
                {"incoming", st->incoming},
                {"iterations", st->iterations},
                {"windows", st->windows},
                {"host_syncs", st->host_syncs},
                {"bytes_uploaded", st->bytes_uploaded},
                {"bytes_downloaded", st->bytes_downloaded},
                {"peak_resident_bytes", st->peak_resident_bytes},
                {"graph_bytes", st->graph_bytes},
                {"log_bytes", st->log_bytes},
                {"table_bytes", st->table_bytes},
                {"list_bytes", st->list_bytes},
                {"shard_entries", st->shard_entries},
                {"growths", st->growths},
                /* across devices (weir_ifds_solve_engine_multi / _group); a
                 * solve on one device reports devices 1 and no exchanges */
                {"devices", st->devices ? st->devices : 1},
                {"exchanged_keys", st->exchanged_keys},
                {"exchanged_bytes", st->exchanged_bytes},
                {"rounds", st->rounds},
                {"reserve_atomics", st->reserve_atomics}};
  for (size_t i = 0; i < sizeof fields / sizeof fields[0]; ++i)
    fprintf(out, ", \"%s\": %llu", fields[i].name, (unsigned long long)fields[i].value);
  double rate = st->seconds_solve > 0 ? (double)st->path_edges / st->seconds_solve : 0;
  double per_edge = st->path_edges ? (double)st->peak_resident_bytes / (double)st->path_edges : 0;
  double atomics = st->path_edges ? (double)st->reserve_atomics / (double)st->path_edges : 0;
  fprintf(out, ", \"atomics_per_path_edge\": %.4f", atomics);
  if (st->devices > 1) write_members(st, out);
  fprintf(out, ", \"path_edges_per_second\": %.1f, \"bytes_per_path_edge\": %.2f}\n", rate,
          per_edge);
  if (ferror(out))
    return weir_fail(WEIR_ERR_IO,
                     "writing the solver statistics failed. Fix: check the output "
                     "file and free disk space.");
  return WEIR_OK;
}
