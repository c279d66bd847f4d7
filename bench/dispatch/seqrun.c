/* Running a sequence file on a backend: one verified run, timed runs (the
 * initial contents are uploaded again, untimed, before each so that every
 * run computes the same thing), and timed-dispatch runs for device time. */
#include <stdlib.h>
#include <string.h>

#include "bench/dispatch/seqfile.h"

/* The file instantiated on one backend. */
typedef struct seq_instance {
  weir_bench_seqfile *file;
  weir_backend *backend;
  weir_buffer buffers[SEQ_MAX_BUFFERS];
  weir_upload_item uploads[SEQ_MAX_BUFFERS];
  weir_step *steps;      /* step_count, as in the file */
  weir_buffer *bindings; /* step_count x WEIR_MAX_BINDINGS */
  weir_range reads[SEQ_MAX_READS];
} seq_instance;

static void seq_close(seq_instance *in) {
  free(in->steps);
  free(in->bindings);
  weir_backend_close(in->backend); /* frees the buffers */
  memset(in, 0, sizeof *in);
}

static weir_status seq_build_steps(seq_instance *in) {
  weir_bench_seqfile *f = in->file;
  in->steps = calloc(f->step_count, sizeof *in->steps);
  in->bindings = calloc(f->step_count * WEIR_MAX_BINDINGS, sizeof *in->bindings);
  if (!in->steps || !in->bindings)
    return weir_fail(WEIR_ERR_OUT_OF_MEMORY,
                     "bench %s: host memory for %zu steps. Fix: use "
                     "fewer steps.",
                     f->name, f->step_count);
  for (size_t i = 0; i < f->step_count; ++i) {
    const seq_step *s = &f->steps[i];
    const weir_program *prog = s->declared;
    if (!weir_program_has_format(prog, weir_backend_format(in->backend)))
      return weir_fail(WEIR_ERR_UNSUPPORTED,
                       "bench %s line %d: program '%s' has no %s code, which backend %s runs. "
                       "Fix: add that format to the program (a .weirprog manifest names code in "
                       "several formats) or leave the backend out.",
                       f->name, s->line, prog->name,
                       weir_program_format_name(weir_backend_format(in->backend)),
                       weir_backend_id(in->backend));
    weir_buffer *b = in->bindings + i * WEIR_MAX_BINDINGS;
    for (uint32_t k = 0; k < s->binding_count; ++k) b[k] = in->buffers[s->bindings[k]];
    in->steps[i] = (weir_step){prog, b, s->binding_count, s->grid, s->push, s->push_words * 4};
  }
  return WEIR_OK;
}

static weir_status seq_open(weir_bench_seqfile *f, const char *spec, seq_instance *in) {
  memset(in, 0, sizeof *in);
  in->file = f;
  weir_open_options options = WEIR_OPEN_OPTIONS_INIT;
  WEIR_TRY(weir_backend_open_ex(spec, &options, &in->backend));
  for (size_t i = 0; i < f->buffer_count; ++i) {
    WEIR_TRY(weir_allocate(in->backend, f->buffers[i].bytes, &in->buffers[i]));
    in->uploads[i] =
        (weir_upload_item){in->buffers[i], 0, f->buffers[i].initial, f->buffers[i].bytes};
  }
  for (size_t i = 0; i < f->read_count; ++i)
    in->reads[i] =
        (weir_range){in->buffers[f->reads[i].buffer], f->reads[i].offset, f->reads[i].bytes};
  return seq_build_steps(in);
}

/* The initial contents, as one batched upload. */
static weir_status seq_reset(seq_instance *in) {
  return weir_upload_many(in->backend, in->uploads, in->file->buffer_count);
}

/* The whole file behind one synchronization. */
static weir_status seq_execute(seq_instance *in) {
  weir_bench_seqfile *f = in->file;
  size_t group = f->step_count - f->prefix_count;
  if (f->has_repeat)
    return weir_dispatch_repeated_sequence_read_ranges_into(
        in->backend, in->steps, f->prefix_count, in->steps + f->prefix_count, group, f->repeat,
        in->reads, f->read_count, f->outputs, f->read_count);
  return weir_dispatch_sequence_read_ranges_into(in->backend, in->steps, f->step_count, in->reads,
                                                 f->read_count, f->outputs, f->read_count);
}

weir_status weir_bench_seqfile_reference(weir_bench_seqfile *f) {
  f->want_reference = 1;
  /* Programs without host code: the first backend to run is the reference. */
  for (size_t i = 0; i < f->step_count; ++i)
    if (!weir_program_has_format(f->steps[i].declared, WEIR_FORMAT_HOST)) return WEIR_OK;
  seq_instance in;
  weir_status st = seq_open(f, "cpu", &in);
  if (st == WEIR_OK) st = seq_reset(&in);
  if (st == WEIR_OK) st = seq_execute(&in);
  seq_close(&in);
  if (st != WEIR_OK) return weir_fail_context(st, "bench %s: reference run on cpu", f->name);
  for (size_t i = 0; i < f->read_count; ++i)
    memcpy(f->reference[i], f->outputs[i], (size_t)f->reads[i].bytes);
  f->has_reference = 1;
  snprintf(f->reference_spec, sizeof f->reference_spec, "cpu");
  return WEIR_OK;
}

/* Compares the latest read-backs with the reference; reports the first
 * difference. 1 equal, 0 different. */
static int seq_verify(const weir_bench_seqfile *f, const char *spec, FILE *progress) {
  for (size_t i = 0; i < f->read_count; ++i) {
    const unsigned char *got = f->outputs[i], *want = f->reference[i];
    for (uint64_t k = 0; k < f->reads[i].bytes; ++k)
      if (got[k] != want[k]) {
        if (progress)
          fprintf(progress,
                  "bench %s on %s: read %zu (%s at offset %llu) differs from %s at "
                  "byte %llu: 0x%02x, %s has 0x%02x\n",
                  f->name, spec, i, f->buffers[f->reads[i].buffer].name,
                  (unsigned long long)f->reads[i].offset, f->reference_spec,
                  (unsigned long long)(f->reads[i].offset + k), got[k], f->reference_spec,
                  want[k]);
        return 0;
      }
  }
  return 1;
}

/* Device time needs the steps one by one: prefix, then the group repeat
 * times. Files that expand past this many steps are timed by wall clock only. */
#define SEQ_MAX_TIMED_STEPS (1u << 20)

static weir_status seq_device_times(seq_instance *in, uint32_t runs, uint64_t start_ns,
                                    weir_bench_record *r) {
  weir_bench_seqfile *f = in->file;
  size_t group = f->step_count - f->prefix_count;
  uint64_t total = f->prefix_count + (f->has_repeat ? f->repeat * group : 0);
  if (total == 0 || total > SEQ_MAX_TIMED_STEPS) return WEIR_OK;
  weir_step *flat = calloc((size_t)total, sizeof *flat);
  uint64_t *ns = calloc((size_t)total, sizeof *ns), *sums = calloc(runs, sizeof *sums);
  const char **names = calloc((size_t)total, sizeof *names);
  /* span names with the bound sizes: "copy_u32 (64 KiB + 64 KiB)", one per file step */
  enum { LABEL = 160 };
  char *labels = calloc(f->step_count ? f->step_count : 1, LABEL);
  for (size_t k = 0; labels && k < f->step_count; ++k) {
    const seq_step *fs = &f->steps[k];
    char *l = labels + k * LABEL, b[32];
    size_t len = (size_t)snprintf(l, LABEL, "%.64s", in->steps[k].program->name);
    for (uint32_t j = 0; j < fs->binding_count && len < LABEL; ++j)
      len += (size_t)snprintf(l + len, LABEL - len, "%s%s", j ? " + " : " (",
                              weir_bench_format_size(b, sizeof b,
                                                     f->buffers[fs->bindings[j]].bytes));
    if (fs->binding_count && len < LABEL) snprintf(l + len, LABEL - len, ")");
  }
  weir_status st = WEIR_OK;
  if (!flat || !ns || !sums || !names || !labels)
    st = weir_fail(WEIR_ERR_OUT_OF_MEMORY,
                   "bench %s: host memory for %llu timed steps. Fix: "
                   "lower the repeat count.",
                   f->name, (unsigned long long)total);
  for (uint64_t i = 0; st == WEIR_OK && i < total; ++i) {
    size_t k =
        i < f->prefix_count ? (size_t)i : f->prefix_count + (size_t)((i - f->prefix_count) % group);
    flat[i] = in->steps[k];
    names[i] = labels + k * LABEL;
  }
  for (uint32_t run = 0; st == WEIR_OK && run < runs; ++run) {
    st = seq_reset(in);
    uint64_t t0 = weir_bench_now_ns();
    r->trace_start_ns = t0 - start_ns;
    if (st == WEIR_OK) st = weir_dispatch_sequence_timed(in->backend, flat, (size_t)total, ns);
    /* Host spans for --trace: the call, then the weir_finish after it. */
    uint64_t t1 = weir_bench_now_ns();
    if (st == WEIR_OK) st = weir_finish(in->backend);
    if (st == WEIR_OK) {
      r->has_host = 1;
      r->host_start_ns = t0 - start_ns;
      r->host_submit_ns = t1 - t0;
      r->host_wait_ns = weir_bench_now_ns() - t1;
    }
    for (uint64_t i = 0; st == WEIR_OK && i < total; ++i) sums[run] += ns[i];
  }
  if (st == WEIR_OK) {
    r->has_device = 1;
    r->device_samples = weir_bench_samples_copy(sums, runs);
    r->device_ns = weir_bench_summarise(sums, runs);
    r->trace_ns = ns, ns = NULL;
    r->trace_names = names, names = NULL;
    r->trace_name_storage = labels, labels = NULL;
    r->trace_count = (size_t)total;
  }
  free(flat);
  free(ns);
  free(sums);
  free(names);
  free(labels);
  return st;
}

static void seq_fill_record(const seq_instance *in, weir_bench_record *r,
                            const weir_device_info *info, uint32_t warmup, uint32_t runs) {
  const weir_bench_seqfile *f = in->file;
  snprintf(r->scenario, sizeof r->scenario, "file:%.58s", f->name);
  snprintf(r->backend, sizeof r->backend, "%s", info->backend_id);
  snprintf(r->spec, sizeof r->spec, "%s", info->spec);
  snprintf(r->device, sizeof r->device, "%s", info->name);
  snprintf(r->driver, sizeof r->driver, "%s", info->driver);
  r->timestamps_are_device = info->timestamps_are_device;
  snprintf(r->program, sizeof r->program, "%s",
           f->step_count == 1 ? f->steps[0].declared->name : "mixed");
  r->steps = f->prefix_count;
  r->group = f->has_repeat ? f->step_count - f->prefix_count : 0;
  r->repeat = f->has_repeat ? f->repeat : 0;
  r->items = r->steps + r->group * r->repeat;
  for (size_t i = 0; i < f->read_count; ++i) r->bytes += f->reads[i].bytes;
  r->count = f->read_count;
  r->warmup = warmup;
  r->runs = runs;
  r->item = "dispatch";
}

weir_status weir_bench_seqfile_run(weir_bench_seqfile *f, const char *spec, uint32_t warmup,
                                   uint32_t runs, weir_bench_results *results, FILE *progress) {
  if (runs == 0)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT, "bench %s: 0 timed runs. Fix: --runs 1 or more.",
                     f->name);
  seq_instance in;
  weir_device_info info = WEIR_DEVICE_INFO_INIT;
  uint64_t *wall = calloc(runs, sizeof *wall);
  weir_bench_record rec;
  memset(&rec, 0, sizeof rec);
  rec.verified = -1;
  weir_status st = wall ? seq_open(f, spec, &in)
                        : weir_fail(WEIR_ERR_OUT_OF_MEMORY, "no memory. Fix: lower --runs.");
  if (!wall) memset(&in, 0, sizeof in);
  if (st == WEIR_OK) st = weir_backend_device_info(in.backend, &info);
  if (st == WEIR_OK) st = seq_reset(&in);
  if (st == WEIR_OK) st = seq_execute(&in);
  if (st == WEIR_OK && f->has_reference) rec.verified = seq_verify(f, info.spec, progress);
  if (st == WEIR_OK && f->want_reference && !f->has_reference) {
    for (size_t i = 0; i < f->read_count; ++i)
      memcpy(f->reference[i], f->outputs[i], (size_t)f->reads[i].bytes);
    f->has_reference = 1;
    snprintf(f->reference_spec, sizeof f->reference_spec, "%s", info.spec);
  }
  for (uint32_t r = 0; st == WEIR_OK && r < warmup + runs; ++r) {
    st = seq_reset(&in);
    weir_backend_reset_stats(in.backend);
    uint64_t t0 = weir_bench_now_ns();
    if (st == WEIR_OK) st = seq_execute(&in);
    uint64_t t1 = weir_bench_now_ns();
    weir_backend_get_stats(in.backend, &rec.stats);
    if (r >= warmup) wall[r - warmup] = t1 - t0;
  }
  if (st == WEIR_OK) st = seq_device_times(&in, runs, results->start_ns, &rec);
  weir_bench_record *out = NULL;
  if (st == WEIR_OK) st = weir_bench_results_add(results, &out);
  if (st == WEIR_OK) {
    seq_fill_record(&in, &rec, &info, warmup, runs);
    rec.wall_samples = weir_bench_samples_copy(wall, runs);
    rec.wall_ns = weir_bench_summarise(wall, runs);
    *out = rec;
  } else {
    weir_bench_record_release(&rec);
  }
  free(wall);
  seq_close(&in);
  if (st != WEIR_OK) return weir_fail_context(st, "bench %s on %s", f->name, spec);
  return WEIR_OK;
}
