/* The table (stdout) and the JSON file of bench/analyze. */
#include <stdio.h>
#include <string.h>

#include "bench/analyze/bench.h"

static double mb(long kb) { return (double)kb / 1024.0; }

static double frontend_seconds(const weir_llvm_build_stats *b) {
  return b->seconds_parse + b->seconds_prepare + b->seconds_build;
}

static void print_solver(const bench_solver *x, FILE *out) {
  if (!x->ok) {
    fprintf(out, "%-16s %s\n", x->name, x->note);
    return;
  }
  fprintf(out, "%-16s %10.4f %10llu %9llu %8zu %-4s %8.1f %8.1f", x->name, x->seconds,
          (unsigned long long)x->path_edges, (unsigned long long)x->holds, x->findings, x->same ? "yes" : "NO",
          mb(x->maxrss_kb), mb(x->maxrss_kb - x->start_rss_kb));
  if (x->engine_peak_bytes) fprintf(out, " %10.1f", (double)x->engine_peak_bytes / (1024.0 * 1024.0));
  fputc('\n', out);
}

void bench_print_table(const bench_row *rows, int n, FILE *out) {
  fprintf(out, "\n%-8s %-7s %6s %8s %8s %8s %8s %6s %9s %8s %8s %8s %8s | %-16s %10s %10s %9s %8s %-4s %8s %8s %10s\n",
          "program", "analysis", "procs", "nodes", "facts", "f.before", "edges", "calls", "frontend", "pta",
          "prepare", "load", "rss MB", "solver", "solve s", "path edges", "holds", "findings", "same", "rss MB",
          "+solve", "engine MB");
  for (int a = 0; a < n; ++a) {
    const bench_row *r = &rows[a];
    const weir_llvm_build_stats *b = &r->build;
    if (!r->ok) {
      fprintf(out, "%-8s %-7s failed: %s\n", r->program, r->analysis, r->note);
      continue;
    }
    for (int s = 0; s < r->solver_count; ++s) {
      if (s == 0)
        fprintf(out, "%-8.8s %-7s %6u %8u %8u %8u %8u %6u %8.3fs %7.3fs %7.3fs %7.3fs %8.1f | ", r->program,
                r->analysis, b->functions, b->nodes, b->facts, b->facts_before_pruning, b->edges, b->call_sites,
                frontend_seconds(b), b->seconds_points_to, b->seconds_prepare, r->seconds_load,
                mb(r->frontend_maxrss_kb));
      else
        fprintf(out, "%-8s %-7s %6s %8s %8s %8s %8s %6s %9s %8s %8s %8s %8s | ", "", "", "", "", "", "", "", "", "",
                "", "", "", "");
      print_solver(&r->solvers[s], out);
    }
  }
  fprintf(out, "frontend = parse + prepare + build (pta: the points-to part of build). rss MB: peak RSS "
               "(ru_maxrss) of the analysis' child after build + load, and of each solver's child (forked "
               "from it: the inherited heap it touches + the solve); +solve: that peak minus the solver "
               "child's RSS at its start; engine MB: the engine's own peak resident bytes\n");
}

static void json_string(FILE *f, const char *s) {
  fputc('"', f);
  for (; s && *s; ++s) {
    if (*s == '"' || *s == '\\') fprintf(f, "\\%c", *s);
    else if ((unsigned char)*s < 0x20) fprintf(f, "\\u%04x", (unsigned)(unsigned char)*s);
    else fputc(*s, f);
  }
  fputc('"', f);
}

static void json_solver(FILE *f, const bench_solver *x) {
  fputs("{\"solver\": ", f);
  json_string(f, x->name);
  fprintf(f, ", \"ok\": %s, \"maxrss_kb\": %ld, \"start_rss_kb\": %ld", x->ok ? "true" : "false", x->maxrss_kb,
          x->start_rss_kb);
  if (x->ok)
    fprintf(f, ", \"seconds_solve\": %.6f, \"path_edges\": %llu, \"holds\": %llu, \"findings\": %zu, "
               "\"same_as_reference\": %s, \"engine_peak_resident_bytes\": %llu",
            x->seconds, (unsigned long long)x->path_edges, (unsigned long long)x->holds, x->findings,
            x->same ? "true" : "false", (unsigned long long)x->engine_peak_bytes);
  else {
    fprintf(f, ", \"timed_out\": %s, \"note\": ", x->timed_out ? "true" : "false");
    json_string(f, x->note);
  }
  fputc('}', f);
}

static void json_row(FILE *f, const bench_row *r) {
  const weir_llvm_build_stats *b = &r->build;
  fputs("{\"analysis\": ", f);
  json_string(f, r->analysis);
  fprintf(f, ", \"ok\": %s", r->ok ? "true" : "false");
  if (!r->ok) {
    fputs(", \"note\": ", f);
    json_string(f, r->note);
    fputc('}', f);
    return;
  }
  fprintf(f,
          ", \"functions\": %u, \"declarations\": %u, \"nodes\": %u, \"facts\": %u, \"facts_before_pruning\": %u, \"facts_generable\": %u, "
          "\"edges\": %u, \"call_sites\": %u, \"callee_lines\": %u, \"indirect_sites\": %u, "
          "\"indirect_by_points_to\": %u, \"memory_objects\": %u, \"memory_locations\": %u, \"seeds\": %u, "
          "\"checks\": %u, \"text_bytes\": %llu, \"modules\": %u, \"promoted\": %u, \"folded_branches\": %u, "
          "\"seconds_parse\": %.6f, \"seconds_prepare\": %.6f, \"seconds_build\": %.6f, "
          "\"seconds_points_to\": %.6f, \"seconds_load\": %.6f, \"frontend_maxrss_kb\": %ld, \"solvers\": [",
          b->functions, b->declarations, b->nodes, b->facts, b->facts_before_pruning, b->facts_generable, b->edges,
          b->call_sites, b->callee_lines, b->indirect_sites, b->indirect_by_points_to, b->memory_objects, b->memory_locations,
          b->seeds, b->checks, (unsigned long long)b->text_bytes, b->modules, b->promoted, b->folded_branches,
          b->seconds_parse, b->seconds_prepare, b->seconds_build, b->seconds_points_to, r->seconds_load,
          r->frontend_maxrss_kb);
  for (int s = 0; s < r->solver_count; ++s) {
    if (s) fputs(", ", f);
    json_solver(f, &r->solvers[s]);
  }
  fputs("]}", f);
}

void bench_write_json(FILE *f, const bench_program *programs, int program_count, const bench_row *rows, int n,
                      const bench_options *options) {
  fprintf(f, "{\"benchmark\": \"analyze\", \"repeat\": %d, \"solver_timeout_s\": %u, \"programs\": [",
          options->repeat, options->solver_timeout);
  for (int p = 0; p < program_count; ++p) {
    const bench_program *pr = &programs[p];
    fprintf(f, "%s\n {\"program\": ", p ? "," : "");
    json_string(f, pr->name);
    fputs(", \"taint_config\": ", f);
    json_string(f, pr->config ? pr->config : "");
    fputs(", \"files\": [", f);
    for (size_t i = 0; i < pr->count; ++i) {
      if (i) fputs(", ", f);
      json_string(f, pr->files[i]);
    }
    fputs("], \"analyses\": [", f);
    int first = 1;
    for (int a = 0; a < n; ++a) {
      if (strcmp(rows[a].program, pr->name) != 0) continue;
      fputs(first ? "\n  " : ",\n  ", f);
      first = 0;
      json_row(f, &rows[a]);
    }
    fputs("]}", f);
  }
  fputs("\n]}\n", f);
}
