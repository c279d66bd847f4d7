/* `weir bench compare OLD.json NEW.json`: matches records by what they
 * measured (backend spec, scenario, program and sizes), prints the ratio of
 * per-item medians and a noise estimate from the raw samples, and says where
 * the two runs' contexts differ (a ratio across drivers or LP_NUM_THREADS
 * settings measures the setting, not the code). Never fails on timings. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bench/dispatch/bench.h"
#include "bench/dispatch/json.h"

static int load(const char *path, bj_value *out) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "weir bench compare: cannot open '%s': %s. Fix: pass files written by weir "
            "bench --json.\n", path, strerror(errno));
    return -1;
  }
  struct stat info;
  if (fstat(fileno(f), &info) == 0 && S_ISDIR(info.st_mode)) {
    fclose(f);
    fprintf(stderr, "weir bench compare: '%s' is a directory. Fix: pass the report files "
            "written by weir bench --json (OLD.json NEW.json), not their folder.\n", path);
    return -1;
  }
  size_t cap = 1 << 16, n = 0, got;
  char *text = malloc(cap + 1);
  while (text && (got = fread(text + n, 1, cap - n, f)) > 0)
    if ((n += got) == cap) {
      char *grown = cap < (1u << 30) ? realloc(text, (cap *= 2) + 1) : NULL;
      if (!grown) free(text);
      text = grown;
    }
  fclose(f);
  if (!text) {
    fprintf(stderr, "weir bench compare: '%s' is too large. Fix: pass a weir bench report.\n", path);
    return -1;
  }
  text[n] = 0;
  char err[128];
  int rc = bj_parse(text, out, err, sizeof err);
  free(text);
  if (rc == 0 && bj_get(out, "records") && bj_get(out, "records")->type == 'a') return 0;
  if (rc == 0) bj_free(out);
  fprintf(stderr, "weir bench compare: '%s': %s. Fix: pass files written by weir bench --json.\n",
          path, rc ? err : "no \"records\" array");
  return -1;
}

/* What a record measured, as one string. */
static void record_key(const bj_value *r, char *buf, size_t n) {
  const bj_value *g = bj_get(r, "grid");
  double gx = g && g->type == 'a' && g->count == 3 ? g->items[0].number : 0;
  snprintf(buf, n, "%s|%s|%s|%.0f|%.0f|%.0f|%.0f|%.0f|%.0f", bj_string(r, "spec", ""),
           bj_string(r, "scenario", ""), bj_string(r, "program", ""), bj_number(r, "steps", 0),
           bj_number(r, "group", 0), bj_number(r, "repeat", 0), bj_number(r, "bytes", 0),
           bj_number(r, "count", 0), gx);
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* Relative spread of a record's wall samples: 1.4826 x MAD / median (a robust
 * standard deviation); without samples, half the min-max range. */
static double relative_noise(const bj_value *r) {
  const bj_value *w = bj_get(r, "wall_ns"), *s = bj_get(bj_get(r, "samples"), "wall_ns");
  double med = bj_number(w, "median", 0);
  if (med <= 0) return 0;
  if (!s || s->type != 'a' || s->count < 2)
    return (bj_number(w, "max", med) - bj_number(w, "min", med)) / 2 / med;
  double *dev = malloc(s->count * sizeof *dev);
  if (!dev) return 0;
  for (size_t i = 0; i < s->count; ++i) dev[i] = fabs(s->items[i].number - med);
  qsort(dev, s->count, sizeof *dev, cmp_double);
  double mad = s->count % 2 ? dev[s->count / 2] : (dev[s->count / 2 - 1] + dev[s->count / 2]) / 2;
  free(dev);
  return 1.4826 * mad / med;
}

static double per_item(const bj_value *r) {
  double items = bj_number(r, "items", 1);
  return bj_number(bj_get(r, "wall_ns"), "median", 0) / (items > 0 ? items : 1);
}

/* Context keys whose difference makes ratios suspect. */
static void compare_context(const bj_value *a, const bj_value *b, FILE *out) {
  static const char *const keys[] = {"host", "cpu", "weir_version", "weir_commit", "build_type"};
  const bj_value *ca = bj_get(a, "context"), *cb = bj_get(b, "context");
  if (!ca || !cb) {
    fprintf(out, "note: %s has no context block (written by an older weir)\n", ca ? "NEW" : "OLD");
    return;
  }
  for (size_t i = 0; i < sizeof keys / sizeof keys[0]; ++i)
    if (strcmp(bj_string(ca, keys[i], "?"), bj_string(cb, keys[i], "?")) != 0)
      fprintf(out, "context differs: %s: '%s' -> '%s'\n", keys[i], bj_string(ca, keys[i], "?"),
              bj_string(cb, keys[i], "?"));
  const bj_value *ea = bj_get(ca, "environment"), *eb = bj_get(cb, "environment");
  for (size_t i = 0; ea && ea->type == 'o' && i < ea->count; ++i) {
    const char *va = ea->items[i].type == 's' ? ea->items[i].string : "(unset)";
    const char *vb = bj_string(eb, ea->keys[i], "(unset)");
    if (strcmp(va, vb) != 0)
      fprintf(out, "context differs: %s: '%s' -> '%s'\n", ea->keys[i], va, vb);
  }
}

static void print_row(const bj_value *o, const bj_value *n, double threshold, FILE *out) {
  double po = per_item(o), pn = per_item(n), ratio = po > 0 ? pn / po : 0;
  double no = relative_noise(o), nn = relative_noise(n), noise = sqrt(no * no + nn * nn);
  const char *verdict = "~";
  if (ratio > 0 && fabs(ratio - 1) > threshold && fabs(ratio - 1) > 2 * noise)
    verdict = ratio > 1 ? "SLOWER" : "faster";
  char what[96];
  snprintf(what, sizeof what, "%s %s", bj_string(n, "scenario", "?"), bj_string(n, "program", ""));
  fprintf(out, "%-10.10s %-34.34s %12.1f %12.1f %8.3fx %8.1f%%  %s\n", bj_string(n, "spec", "?"),
          what, po, pn, ratio, 100 * noise, verdict);
}

int weir_bench_compare(const char *old_path, const char *new_path, double threshold, FILE *out) {
  bj_value a, b;
  if (load(old_path, &a)) return 2;
  if (load(new_path, &b)) {
    bj_free(&a);
    return 2;
  }
  compare_context(&a, &b, out);
  fprintf(out, "%-10s %-34s %12s %12s %9s %9s  %s\n", "backend", "scenario", "old ns/item",
          "new ns/item", "new/old", "noise", "verdict");
  const bj_value *ra = bj_get(&a, "records"), *rb = bj_get(&b, "records");
  size_t matched = 0;
  for (size_t j = 0; j < rb->count; ++j) {
    char kb[512], ka[512];
    record_key(&rb->items[j], kb, sizeof kb);
    for (size_t i = 0; i < ra->count; ++i) {
      record_key(&ra->items[i], ka, sizeof ka);
      if (strcmp(ka, kb) != 0) continue;
      print_row(&ra->items[i], &rb->items[j], threshold, out);
      ++matched;
      break;
    }
  }
  fprintf(out,
          "%zu of %zu records matched (same backend spec, scenario, program and sizes). "
          "noise = robust spread (1.4826 x MAD / median) of both runs' samples combined; a "
          "verdict needs |new/old - 1| above %.0f%% and twice the noise.\n",
          matched, rb->count, 100 * threshold);
  fflush(out); /* the table first, then why there is none */
  if (!matched)
    fprintf(stderr, "weir bench compare: no record of '%s' matches one of '%s', so there is "
            "nothing to compare. Fix: compare two runs of the same scenarios on the same "
            "backends and sizes (e.g. the same --scenario and --backend options).\n",
            new_path, old_path);
  bj_free(&a);
  bj_free(&b);
  return matched ? 0 : 1;
}
