/* Output of `weir bench`: the human table, JSON (one record per line, so that
 * bench/plot can read it with awk) and a Chrome trace-event file. */
#include <string.h>

#include "bench/dispatch/bench.h"

/* Formats nanoseconds with a unit that keeps 3-4 significant digits. */
static const char *fmt_ns(char *buf, size_t n, double ns) {
  if (ns < 1e3)
    snprintf(buf, n, "%.0f ns", ns);
  else if (ns < 1e6)
    snprintf(buf, n, "%.2f us", ns / 1e3);
  else if (ns < 1e9)
    snprintf(buf, n, "%.2f ms", ns / 1e6);
  else
    snprintf(buf, n, "%.2f s", ns / 1e9);
  return buf;
}

static const char *fmt_bytes(char *buf, size_t n, uint64_t b) {
  if (b >= (1ull << 30) && b % (1ull << 30) == 0)
    snprintf(buf, n, "%lluG", (unsigned long long)(b >> 30));
  else if (b >= (1ull << 20) && b % (1ull << 20) == 0)
    snprintf(buf, n, "%lluM", (unsigned long long)(b >> 20));
  else if (b >= (1ull << 10) && b % (1ull << 10) == 0)
    snprintf(buf, n, "%lluK", (unsigned long long)(b >> 10));
  else
    snprintf(buf, n, "%llu", (unsigned long long)b);
  return buf;
}

/* The parameters that distinguish a record, in a few words. */
static void describe_params(const weir_bench_record *r, char *buf, size_t n) {
  char b1[32];
  if (strcmp(r->item, "dispatch") == 0 && r->group)
    snprintf(buf, n, "%.32s 1+%llux%llu", r->program, (unsigned long long)r->repeat,
             (unsigned long long)r->group);
  else if (strcmp(r->item, "dispatch") == 0)
    snprintf(buf, n, "%.32s x%llu", r->program, (unsigned long long)r->steps);
  else if (strcmp(r->item, "upload") == 0)
    snprintf(buf, n, "%llu x %s", (unsigned long long)r->count, fmt_bytes(b1, sizeof b1, r->bytes));
  else
    snprintf(buf, n, "%s", fmt_bytes(b1, sizeof b1, r->bytes));
}

void weir_bench_print_line(const weir_bench_record *r, FILE *out) {
  char params[128], med[24], lo[24], hi[24], item[24], dev[64] = ""; /* ", device " + 24 + " (host clock)" */
  describe_params(r, params, sizeof params);
  double items = r->items ? (double)r->items : 1.0;
  fmt_ns(med, sizeof med, (double)r->wall_ns.median);
  fmt_ns(lo, sizeof lo, (double)r->wall_ns.min);
  fmt_ns(hi, sizeof hi, (double)r->wall_ns.max);
  fmt_ns(item, sizeof item, (double)r->wall_ns.median / items);
  if (r->has_device) {
    char d[24];
    snprintf(dev, sizeof dev, ", device %s%s", fmt_ns(d, sizeof d, (double)r->device_ns.median / items),
             r->timestamps_are_device ? "" : " (host clock)");
  }
  fprintf(out, "%s on %s: %s, %u run%s: median %s (min %s, max %s), %s per %s%s\n", r->scenario,
          r->spec, params, r->runs, r->runs == 1 ? "" : "s", med, lo, hi, item, r->item, dev);
}

void weir_bench_print_table(const weir_bench_results *results, FILE *out) {
  fprintf(out, "%-10s %-20s %-18s %10s %10s %10s %12s %12s %6s  %s\n", "backend", "scenario",
          "params", "median", "min", "max", "per item", "device/item", "syncs", "ratio");
  int host_clock = 0;
  for (size_t i = 0; i < results->count; ++i) {
    const weir_bench_record *r = &results->records[i];
    char params[128], med[24], lo[24], hi[24], item[24], dev[24] = "-", ratio[96] = "";
    describe_params(r, params, sizeof params);
    double items = r->items ? (double)r->items : 1.0;
    fmt_ns(med, sizeof med, (double)r->wall_ns.median);
    fmt_ns(lo, sizeof lo, (double)r->wall_ns.min);
    fmt_ns(hi, sizeof hi, (double)r->wall_ns.max);
    fmt_ns(item, sizeof item, (double)r->wall_ns.median / items);
    if (r->has_device) {
      fmt_ns(dev, sizeof dev, (double)r->device_ns.median / items);
      if (!r->timestamps_are_device) strcat(dev, "*"), host_clock = 1;
    }
    if (r->ratio_to[0])
      snprintf(ratio, sizeof ratio, "%.2fx %s", r->ratio, r->ratio_to);
    else if (strcmp(r->item, "readback") == 0 || strcmp(r->item, "copy") == 0)
      snprintf(ratio, sizeof ratio, "%.2f GB/s",
               r->wall_ns.median ? (double)r->bytes / (double)r->wall_ns.median : 0.0);
    int reference = r->verified < 0 && results->verify.spec[0] &&
                    strcmp(r->spec, results->verify.spec) == 0 && strcmp(r->item, "dispatch") == 0;
    if (r->verified >= 0 || reference) {
      size_t len = strlen(ratio);
      snprintf(ratio + len, sizeof ratio - len, "%s%s", len ? ", " : "",
               reference ? "reference" : r->verified ? "verified" : "MISMATCH");
    }
    fprintf(out, "%-10.10s %-20.20s %-18.18s %10s %10s %10s %12s %12s %6llu  %s\n", r->spec,
            r->scenario, params, med, lo, hi, item, dev, (unsigned long long)r->stats.host_syncs,
            ratio);
  }
  fprintf(out,
          "per item = median / items per run (dispatches, uploads); syncs = host "
          "synchronisations in one run; ratios compare per-item medians of this run.\n");
  if (host_clock)
    fprintf(out,
            "* device time measured with the host clock around each step (the backend "
            "has no device timestamps).\n");
}

static void json_string(FILE *f, const char *s) {
  fputc('"', f);
  for (; *s; ++s) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\')
      fprintf(f, "\\%c", c);
    else if (c < 0x20)
      fprintf(f, "\\u%04x", c);
    else
      fputc(c, f);
  }
  fputc('"', f);
}

static void json_summary(FILE *f, const char *key, weir_bench_summary s, double items) {
  fprintf(f, "\"%s\": {\"median\": %llu, \"min\": %llu, \"max\": %llu, \"per_item_median\": %.3f}",
          key, (unsigned long long)s.median, (unsigned long long)s.min, (unsigned long long)s.max,
          (double)s.median / items);
}

/* Every timed run's sample in run order, or null when there are none. */
static void json_samples(FILE *f, const uint64_t *samples, uint32_t count) {
  if (!samples || count == 0) {
    fprintf(f, "null");
    return;
  }
  fputc('[', f);
  for (uint32_t i = 0; i < count; ++i)
    fprintf(f, "%s%llu", i ? ", " : "", (unsigned long long)samples[i]);
  fputc(']', f);
}

/* One record on one line. Key order is fixed: bench/plot relies on it (new
 * keys go last). */
static void json_record(FILE *f, const weir_bench_record *r) {
  double items = r->items ? (double)r->items : 1.0;
  fprintf(f, "{\"scenario\": ");
  json_string(f, r->scenario);
  fprintf(f, ", \"backend\": ");
  json_string(f, r->backend);
  fprintf(f, ", \"spec\": ");
  json_string(f, r->spec);
  fprintf(f, ", \"device\": ");
  json_string(f, r->device);
  fprintf(f, ", \"timestamps_are_device\": %s, \"program\": ",
          r->timestamps_are_device ? "true" : "false");
  json_string(f, r->program);
  fprintf(
      f,
      ", \"steps\": %llu, \"group\": %llu, \"repeat\": %llu, \"bytes\": %llu, \"count\": %llu"
      ", \"grid\": [%u, %u, %u], \"warmup\": %u, \"runs\": %u, \"item\": \"%s\", \"items\": %llu, ",
      (unsigned long long)r->steps, (unsigned long long)r->group, (unsigned long long)r->repeat,
      (unsigned long long)r->bytes, (unsigned long long)r->count, r->grid.x, r->grid.y, r->grid.z,
      r->warmup, r->runs, r->item, (unsigned long long)r->items);
  json_summary(f, "wall_ns", r->wall_ns, items);
  fprintf(f, ", ");
  if (r->has_device)
    json_summary(f, "device_ns", r->device_ns, items);
  else
    fprintf(f, "\"device_ns\": null");
  fprintf(f,
          ", \"host_syncs\": %llu, \"dispatches\": %llu, \"uploads\": %llu, \"bytes_uploaded\": "
          "%llu, \"bytes_downloaded\": %llu",
          (unsigned long long)r->stats.host_syncs, (unsigned long long)r->stats.dispatches,
          (unsigned long long)r->stats.uploads, (unsigned long long)r->stats.bytes_uploaded,
          (unsigned long long)r->stats.bytes_downloaded);
  if (r->ratio_to[0]) {
    fprintf(f, ", \"ratio\": {\"to\": ");
    json_string(f, r->ratio_to);
    fprintf(f, ", \"per_item\": %.4f}", r->ratio);
  } else {
    fprintf(f, ", \"ratio\": null");
  }
  if (r->verified >= 0)
    fprintf(f, ", \"verified\": %s", r->verified ? "true" : "false");
  else
    fprintf(f, ", \"verified\": null");
  fprintf(f, ", \"driver\": ");
  json_string(f, r->driver);
  fprintf(f, ", \"samples\": {\"wall_ns\": ");
  json_samples(f, r->wall_samples, r->runs);
  fprintf(f, ", \"device_ns\": ");
  json_samples(f, r->device_samples, r->runs);
  fprintf(f, "}}");
}

void weir_bench_write_json(const weir_bench_results *results, const char *command, FILE *f) {
  fprintf(f, "{\"weir_version\": \"%s\", \"command\": ", WEIR_VERSION_STRING);
  json_string(f, command);
  fprintf(f, ",\n");
  weir_bench_write_context(f, json_string);
  fprintf(f, ",\n\"verify_reference\": ");
  if (results->verify.spec[0])
    json_string(f, results->verify.spec);
  else
    fprintf(f, "null");
  fprintf(f, ",\n\"records\": [\n");
  for (size_t i = 0; i < results->count; ++i) {
    json_record(f, &results->records[i]);
    fprintf(f, "%s\n", i + 1 < results->count ? "," : "");
  }
  fprintf(f, "]}\n");
}

/* "(4 MiB)" or "(2 x 4 MiB)": the buffers a step binds; "" without any. */
static void fmt_buffers(char *buf, size_t n, uint64_t count, uint64_t bytes) {
  char b[32];
  if (!bytes || !count)
    buf[0] = '\0';
  else if (count == 1)
    snprintf(buf, n, " (%s)", weir_bench_format_size(b, sizeof b, bytes));
  else
    snprintf(buf, n, " (%llu x %s)", (unsigned long long)count, weir_bench_format_size(b, sizeof b, bytes));
}

/* What the host span's call did, with its size: "fill_u32 x50 (4 MiB)",
 * "upload-many x64 (64 KiB)", "ranged-readback (4 MiB)", "scale.seq x21 steps
 * (64 KiB read)". */
static void describe_call(const weir_bench_record *r, char *buf, size_t n) {
  char sz[64], b[32];
  if (strncmp(r->scenario, "file:", 5) == 0) {
    snprintf(sz, sizeof sz, " (%s read)", weir_bench_format_size(b, sizeof b, r->bytes));
    snprintf(buf, n, "%.58s x%zu steps%s", r->scenario + 5, r->trace_count,
             r->bytes ? sz : "");
  } else if (strcmp(r->item, "dispatch") == 0) {
    /* with device time the spans are those of the timed sequence of all steps */
    fmt_buffers(sz, sizeof sz, r->count, r->bytes);
    snprintf(buf, n, "%.48s x%llu%s", r->program,
             (unsigned long long)(r->trace_count ? r->trace_count : r->items), sz);
  } else if (strcmp(r->item, "upload") == 0) {
    snprintf(buf, n, "%.48s x%llu (%s)", r->scenario, (unsigned long long)r->count,
             weir_bench_format_size(b, sizeof b, r->bytes));
  } else {
    snprintf(buf, n, "%.48s (%s)", r->scenario, weir_bench_format_size(b, sizeof b, r->bytes));
  }
}

/* Events are separated by ",\n"; *first is set while none was written. */
static void trace_sep(FILE *f, int *first) {
  if (!*first) fprintf(f, ",\n");
  *first = 0;
}

static void trace_track(FILE *f, int *first, size_t pid, size_t tid, const char *name) {
  trace_sep(f, first);
  fprintf(f,
          "{\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": %zu, \"tid\": %zu, "
          "\"args\": {\"name\": ",
          pid, tid);
  json_string(f, name);
  fprintf(f, "}}");
}

static void trace_span(FILE *f, int *first, const char *name, const char *cat, double ts,
                       double dur, size_t pid, size_t tid) {
  trace_sep(f, first);
  fprintf(f, "{\"name\": ");
  json_string(f, name);
  fprintf(f, ", \"cat\": \"%s\", \"ph\": \"X\", \"ts\": %.3f, \"dur\": %.3f, \"pid\": %zu, "
             "\"tid\": %zu",
          cat, ts, dur, pid, tid);
}

/* Chrome trace events: one process per backend spec, and per record up to two
 * tracks: its device spans (one complete "X" event per step of the latest
 * timed-dispatch run, laid end to end from the start of that call) and its
 * host spans (the call, "submit", and the weir_finish after it, "wait").
 * Only tracks (and processes) with events are written. Timestamps are
 * microseconds (fractions allowed). */
void weir_bench_write_trace(const weir_bench_results *results, FILE *f) {
  fprintf(f, "{\"displayTimeUnit\": \"ns\", \"traceEvents\": [\n");
  int first = 1;
  for (size_t i = 0; i < results->count; ++i) {
    const weir_bench_record *r = &results->records[i];
    if (!r->trace_count && !r->has_host) continue;
    /* the first record with this spec and events names the process */
    size_t pid = i + 1;
    for (size_t j = i; j-- > 0;) {
      const weir_bench_record *q = &results->records[j];
      if (strcmp(q->spec, r->spec) == 0 && (q->trace_count || q->has_host)) pid = j + 1;
    }
    if (pid == i + 1) {
      trace_sep(f, &first);
      fprintf(f, "{\"name\": \"process_name\", \"ph\": \"M\", \"pid\": %zu, \"args\": "
                 "{\"name\": ", pid);
      json_string(f, r->spec);
      fprintf(f, "}}");
    }
    char label[128], name[192], what[160], sz[64];
    size_t device_tid = 2 * i + 1, host_tid = 2 * i + 2;
    if (r->trace_count) {
      snprintf(label, sizeof label, "%s: %s", r->scenario,
               r->timestamps_are_device ? "device" : "steps (host clock)");
      trace_track(f, &first, pid, device_tid, label);
      fmt_buffers(sz, sizeof sz, r->count, r->trace_step_bytes);
      double ts = (double)r->trace_start_ns / 1e3;
      for (size_t k = 0; k < r->trace_count; ++k) {
        double dur = (double)r->trace_ns[k] / 1e3;
        snprintf(name, sizeof name, "%s%s", r->trace_names[k], sz);
        trace_span(f, &first, name, "step", ts, dur, pid, device_tid);
        fprintf(f, ", \"args\": {\"step\": %zu}}", k);
        ts += dur;
      }
    }
    if (r->has_host) {
      snprintf(label, sizeof label, "%s: host submit/wait", r->scenario);
      trace_track(f, &first, pid, host_tid, label);
      describe_call(r, what, sizeof what);
      double ts = (double)r->host_start_ns / 1e3, submit = (double)r->host_submit_ns / 1e3;
      snprintf(name, sizeof name, "submit %s", what);
      trace_span(f, &first, name, "host", ts, submit, pid, host_tid);
      fprintf(f, ", \"args\": {\"call\": \"%s\"}}",
              r->trace_count ? "weir_dispatch_sequence_timed (the device-timed run)"
                             : "the last timed run");
      trace_span(f, &first, "wait (weir_finish)", "host", ts + submit, (double)r->host_wait_ns / 1e3, pid,
                 host_tid);
      fprintf(f, "}");
    }
  }
  fprintf(f, "\n]}\n");
}
