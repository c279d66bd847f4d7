/* `weir bench fft`: FFT throughput, sizes x batch x precision x backend.
 * GFLOP/s by the usual convention: 5 N log2 N per complex transform of N
 * points, half that for a real one, whatever the algorithm does. Each run is
 * one weir_fft_execute (one dispatch, one fence) of a plan made beforehand;
 * the median of --runs after one warm-up. numpy.fft in the same run:
 * bench/fft/fft_bench.py. A backend that cannot be opened here (unavailable)
 * is reported and skipped; a case its FFT cannot do (WEIR_ERR_UNSUPPORTED /
 * _UNAVAILABLE) is reported on stderr, listed as skipped in the table and the
 * JSON, and the other cases still run. A spec that names no backend is a
 * usage error (exit 2). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/cli_util.h"
#include "tools/commands.h"
#include "weir/fft.h"
#include "weir/weir.h"

#define FFT_BENCH_MAX 32
#define FFT_BENCH_MAX_N 4294967295ull /* weir_fft_plan's longest axis, 2^32-1 */

typedef struct fft_bench_cli {
  const char *backends[FFT_BENCH_MAX];
  size_t backend_count;
  uint64_t sizes[FFT_BENCH_MAX];
  size_t size_count;
  uint64_t batch;       /* 0: 2^20 points per run */
  int kinds[2];         /* c2c, r2c */
  int dtypes[2];        /* float32, float64 */
  uint64_t runs;
  const char *json;
} fft_bench_cli;

static void usage(FILE *out) {
  fprintf(out,
          "usage: weir bench fft [OPTIONS]\n"
          "  --backend SPEC        repeatable (default: cpu)\n"
          "  --sizes N,N,...       transform lengths (64,256,1024,4096,65536,1000,1009)\n"
          "  --batch B             transforms per run (default: 2^20 points / N, at least 1)\n"
          "  --kinds c2c,r2c       (both)\n"
          "  --dtypes float32,float64   (both)\n"
          "  --runs N (7)          timed runs after one warm-up; the median is reported\n"
          "  --json FILE           one record per case\n"
          "numpy.fft side by side: bench/fft/fft_bench.py --weir PATH/weir\n");
}

/* 0, or -1 (not a list of 1..max positive integers), or -2 (a value above
 * FFT_BENCH_MAX_N, left in *too_big). */
static int parse_list(const char *text, uint64_t *out, size_t max, size_t *count,
                      uint64_t *too_big) {
  char copy[512];
  if (snprintf(copy, sizeof copy, "%s", text) >= (int)sizeof copy) return -1;
  *count = 0;
  /* Split by hand: strtok would skip empty elements ("8,,16"). */
  for (char *t = copy;;) {
    char *end = strchr(t, ',');
    if (end) *end = '\0';
    if (*count == max || weir_cli_parse_u64(t, &out[*count]) != 0 || out[*count] == 0) return -1;
    if (out[*count] > FFT_BENCH_MAX_N) {
      *too_big = out[*count];
      return -2;
    }
    ++*count;
    if (!end) return 0;
    t = end + 1;
  }
}

/* A comma list of `a` and `b` (each at most once per mention, in any order);
 * -1 on an empty or unknown element. */
static int parse_pair(const char *text, const char *a, const char *b, int *flags) {
  flags[0] = flags[1] = 0;
  for (const char *p = text;;) {
    const char *end = strchr(p, ',');
    size_t len = end ? (size_t)(end - p) : strlen(p);
    if (len == strlen(a) && strncmp(p, a, len) == 0) flags[0] = 1;
    else if (len == strlen(b) && strncmp(p, b, len) == 0) flags[1] = 1;
    else return -1;
    if (!end) return 0;
    p = end + 1;
  }
}

static int parse(fft_bench_cli *c, int argc, char **argv) {
  static const uint64_t sizes[] = {64, 256, 1024, 4096, 65536, 1000, 1009};
  memcpy(c->sizes, sizes, sizeof sizes);
  c->size_count = sizeof sizes / sizeof *sizes;
  c->kinds[0] = c->kinds[1] = c->dtypes[0] = c->dtypes[1] = 1;
  c->runs = 7;
  /* Every option takes a value: each step consumes the pair. */
  for (int i = 1; i < argc; i += 2) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
      usage(stdout);
      return -1;
    }
    int bad = !v;
    if (bad) {
    } else if (strcmp(a, "--backend") == 0 && c->backend_count < FFT_BENCH_MAX) {
      c->backends[c->backend_count++] = v;
    } else if (strcmp(a, "--sizes") == 0) {
      uint64_t too_big = 0;
      int r = parse_list(v, c->sizes, FFT_BENCH_MAX, &c->size_count, &too_big);
      if (r == -2) {
        fprintf(stderr, "weir bench fft: --sizes %s: length %llu is above the largest FFT length "
                "%llu (2^32-1). Fix: pass lengths 1 .. %llu.\n", v, (unsigned long long)too_big,
                FFT_BENCH_MAX_N, FFT_BENCH_MAX_N);
        return 2;
      }
      bad = r != 0;
    } else if (strcmp(a, "--batch") == 0) {
      bad = weir_cli_parse_u64(v, &c->batch) != 0 || c->batch == 0;
    } else if (strcmp(a, "--kinds") == 0) {
      bad = parse_pair(v, "c2c", "r2c", c->kinds) != 0;
    } else if (strcmp(a, "--dtypes") == 0) {
      bad = parse_pair(v, "float32", "float64", c->dtypes) != 0;
    } else if (strcmp(a, "--runs") == 0) {
      bad = weir_cli_parse_u64(v, &c->runs) != 0 || c->runs == 0;
    } else if (strcmp(a, "--json") == 0) {
      c->json = v;
    } else {
      bad = 1;
    }
    if (bad) {
      fprintf(stderr, "weir bench fft: bad option or value '%s%s%s'. Fix: see `weir bench fft "
              "--help` (lists of positive integers, kinds c2c/r2c, dtypes float32/float64).\n",
              a, v ? " " : "", v ? v : "");
      return 2;
    }
  }
  if (!c->backend_count) c->backends[c->backend_count++] = "cpu";
  return 0;
}

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

/* One case: plan, buffers, warm-up, runs; *median_ns and *min_ns out. */
static weir_status run_case(weir_backend *b, weir_fft_kind kind, weir_fft_precision prec,
                            uint64_t n, uint64_t batch, uint64_t runs, uint64_t *samples,
                            uint64_t *median_ns, uint64_t *min_ns) {
  weir_fft_desc d = {.rank = 1, .shape = {n}, .batch = batch, .kind = kind,
                     .direction = WEIR_FFT_FORWARD, .precision = prec};
  weir_fft *f = NULL;
  WEIR_TRY(weir_fft_plan(b, &d, &f));
  uint64_t ib = 0, ob = 0;
  (void)weir_fft_sizes(f, &ib, &ob);
  weir_buffer in = WEIR_NULL_BUFFER, out = WEIR_NULL_BUFFER;
  weir_status st = weir_allocate(b, ib, &in);
  if (st == WEIR_OK) st = weir_allocate(b, ob, &out);
  void *host = st == WEIR_OK ? malloc(ib) : NULL;
  if (st == WEIR_OK && !host)
    st = weir_fail(WEIR_ERR_OUT_OF_MEMORY, "weir bench fft: no host memory for %llu bytes. "
                   "Fix: pass a smaller --batch.", (unsigned long long)ib);
  if (st == WEIR_OK) {
    uint64_t s = 0x2545F4914F6CDD1Dull;
    size_t count = (size_t)(ib / (prec == WEIR_FFT_F32 ? 4 : 8));
    for (size_t k = 0; k < count; ++k) {
      s ^= s << 13, s ^= s >> 7, s ^= s << 17;
      double v = (double)(s >> 11) / 9007199254740992.0 - 0.5;
      if (prec == WEIR_FFT_F32) ((float *)host)[k] = (float)v;
      else ((double *)host)[k] = v;
    }
    st = weir_upload(b, in, host, ib);
  }
  free(host);
  if (st == WEIR_OK) st = weir_fft_execute(f, in, out); /* warm-up */
  for (uint64_t r = 0; st == WEIR_OK && r < runs; ++r) {
    double t0 = weir_cli_now();
    st = weir_fft_execute(f, in, out);
    samples[r] = (uint64_t)((weir_cli_now() - t0) * 1e9);
  }
  if (st == WEIR_OK) {
    qsort(samples, (size_t)runs, sizeof *samples, cmp_u64);
    *median_ns = samples[runs / 2];
    *min_ns = samples[0];
  }
  if (in.instance) weir_free(b, in);
  if (out.instance) weir_free(b, out);
  weir_fft_destroy(f);
  return st;
}

int weir_cmd_bench_fft(int argc, char **argv) {
  fft_bench_cli c;
  memset(&c, 0, sizeof c);
  int rc = parse(&c, argc, argv);
  if (rc) return rc < 0 ? 0 : rc;
  /* every backend spec is checked, and the JSON file created, before the
   * first (slow) run, so a typo fails at once */
  weir_backend *opened[FFT_BENCH_MAX] = {0};
  for (size_t bi = 0; bi < c.backend_count; ++bi) {
    weir_status st = weir_backend_open(c.backends[bi], &opened[bi]);
    if (st == WEIR_ERR_UNAVAILABLE) {
      fprintf(stderr, "weir bench fft: skipping backend %s (not available here): %s\n",
              c.backends[bi], weir_last_error());
    } else if (st != WEIR_OK) {
      fprintf(stderr, "weir bench fft: --backend %s: %s\n", c.backends[bi], weir_last_error());
      if (!strstr(weir_last_error(), "Fix:"))
        fprintf(stderr, "Fix: pass a backend spec such as cpu, cpu:4, vulkan, cuda:0 (`weir "
                "devices` lists them).\n");
      for (size_t k = 0; k < bi; ++k) weir_backend_close(opened[k]);
      return 2;
    }
  }
  FILE *json = c.json ? fopen(c.json, "w") : NULL;
  if (c.json && !json) {
    fprintf(stderr, "weir bench fft: cannot write --json '%s': %s. Fix: pick a writable path.\n",
            c.json, strerror(errno));
    for (size_t bi = 0; bi < c.backend_count; ++bi) weir_backend_close(opened[bi]);
    return 2;
  }
  uint64_t *samples = calloc((size_t)c.runs, sizeof *samples);
  if (!samples) {
    if (json) fclose(json);
    for (size_t bi = 0; bi < c.backend_count; ++bi) weir_backend_close(opened[bi]);
    fprintf(stderr, "weir bench fft: no memory for %llu samples. Fix: fewer --runs.\n",
            (unsigned long long)c.runs);
    return 1;
  }
  if (json) fprintf(json, "[");
  printf("| backend | kind | n | batch | dtype | median ms | GFLOP/s |\n"
         "| --- | --- | ---: | ---: | --- | ---: | ---: |\n");
  int first = 1;
  size_t skipped = 0;
  for (size_t bi = 0; bi < c.backend_count && rc == 0; ++bi) {
    weir_backend *b = opened[bi];
    if (!b) continue;
    for (int p = 0; p < 2 && rc == 0; ++p)
      for (int k = 0; k < 2 && rc == 0; ++k)
        for (size_t s = 0; s < c.size_count && rc == 0; ++s) {
          if (!c.dtypes[p] || !c.kinds[k]) continue;
          uint64_t n = c.sizes[s];
          uint64_t batch = c.batch ? c.batch : ((1ull << 20) / n ? (1ull << 20) / n : 1);
          uint64_t med = 0, mn = 0;
          const char *kind = k ? "r2c" : "c2c", *dtype = p ? "float64" : "float32";
          weir_status st = run_case(b, k ? WEIR_FFT_R2C : WEIR_FFT_C2C,
                                    p ? WEIR_FFT_F64 : WEIR_FFT_F32, n, batch, c.runs, samples,
                                    &med, &mn);
          if (st == WEIR_ERR_UNSUPPORTED || st == WEIR_ERR_UNAVAILABLE ||
              st == WEIR_ERR_OUT_OF_MEMORY) { /* this case only */
            const char *why = weir_last_error();
            fprintf(stderr, "weir bench fft: skipping %s %s n=%llu batch=%llu %s: %s\n",
                    c.backends[bi], kind, (unsigned long long)n, (unsigned long long)batch,
                    dtype, why);
            printf("| %s | %s | %llu | %llu | %s | skipped | skipped |\n", c.backends[bi], kind,
                   (unsigned long long)n, (unsigned long long)batch, dtype);
            fflush(stdout);
            if (json) {
              fprintf(json,
                      "%s\n {\"backend\": \"%s\", \"kind\": \"%s\", \"n\": %llu, "
                      "\"batch\": %llu, \"dtype\": \"%s\", \"skipped\": \"",
                      first ? "" : ",", c.backends[bi], kind, (unsigned long long)n,
                      (unsigned long long)batch, dtype);
              for (const char *q = why; *q; ++q) { /* a JSON string */
                if (*q == '"' || *q == '\\') fprintf(json, "\\%c", *q);
                else if ((unsigned char)*q < 0x20) fprintf(json, "\\u%04x", (unsigned char)*q);
                else fputc(*q, json);
              }
              fprintf(json, "\"}");
            }
            first = 0;
            ++skipped;
            continue;
          }
          if (st != WEIR_OK) {
            rc = weir_cli_report("bench fft", st);
            break;
          }
          double flops = 5.0 * (double)n * log2((double)(n > 1 ? n : 2)) * (double)batch *
                         (k ? 0.5 : 1.0);
          double gflops = flops / ((double)med * 1e-9) / 1e9;
          printf("| %s | %s | %llu | %llu | %s | %.3f | %.2f |\n", c.backends[bi], kind,
                 (unsigned long long)n, (unsigned long long)batch, dtype, (double)med * 1e-6,
                 gflops);
          fflush(stdout);
          if (json)
            fprintf(json,
                    "%s\n {\"backend\": \"%s\", \"kind\": \"%s\", \"n\": %llu, \"batch\": %llu, "
                    "\"dtype\": \"%s\", \"median_ns\": %llu, \"min_ns\": %llu, \"gflops\": %.4f}",
                    first ? "" : ",", c.backends[bi], kind, (unsigned long long)n,
                    (unsigned long long)batch, dtype, (unsigned long long)med,
                    (unsigned long long)mn, gflops);
          first = 0;
        }
  }
  for (size_t bi = 0; bi < c.backend_count; ++bi) weir_backend_close(opened[bi]);
  if (skipped && rc == 0)
    fprintf(stderr, "weir bench fft: %zu case(s) skipped (reasons above; docs/fft.md lists what "
            "each backend's FFT can do)\n", skipped);
  if (json) {
    fprintf(json, "\n]\n");
    fclose(json);
  }
  free(samples);
  return rc;
}
