/* Measurement helpers: the clock, summaries of samples, number parsing. */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench/dispatch/bench.h"

uint64_t weir_bench_now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static int compare_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return (x > y) - (x < y);
}

weir_bench_summary weir_bench_summarise(uint64_t *samples, size_t count) {
  weir_bench_summary s = {0, 0, 0};
  if (count == 0) return s;
  qsort(samples, count, sizeof *samples, compare_u64);
  s.min = samples[0];
  s.max = samples[count - 1];
  /* Even counts: the mean of the middle two, so the median is not biased low. */
  s.median = count % 2 ? samples[count / 2]
                       : samples[count / 2 - 1] / 2 + samples[count / 2] / 2 +
                             (samples[count / 2 - 1] % 2 + samples[count / 2] % 2) / 2;
  return s;
}

weir_status weir_bench_parse_size(const char *text, const char *what, uint64_t *out) {
  if (!text || !isdigit((unsigned char)text[0])) goto bad;
  errno = 0;
  char *end = NULL;
  unsigned long long v = strtoull(text, &end, 10);
  if (errno) goto bad;
  uint64_t mult = 1;
  if (*end == 'K' || *end == 'k')
    mult = 1ull << 10, ++end;
  else if (*end == 'M' || *end == 'm')
    mult = 1ull << 20, ++end;
  else if (*end == 'G' || *end == 'g')
    mult = 1ull << 30, ++end;
  if (mult != 1 && (strcmp(end, "iB") == 0 || strcmp(end, "B") == 0)) end += strlen(end);
  if (*end || v > UINT64_MAX / mult) goto bad;
  *out = v * mult;
  return WEIR_OK;
bad:
  return weir_fail(WEIR_ERR_PARSE,
                   "%s: '%s' is not a size. Fix: write bytes as a number with an optional "
                   "K, M or G suffix (4096, 64K, 16MiB).",
                   what, text ? text : "(null)");
}

weir_status weir_bench_parse_u32(const char *text, const char *what, uint32_t *out) {
  if (!text || !isdigit((unsigned char)text[0])) goto bad;
  /* Decimal, or hex with 0x: base 0 would read a leading zero as octal
   * ("010" as 8) and refuse "09", which nobody writing a sequence file means. */
  int hex = text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
  if (hex && !isxdigit((unsigned char)text[2])) goto bad;
  errno = 0;
  char *end = NULL;
  unsigned long long v = strtoull(hex ? text + 2 : text, &end, hex ? 16 : 10);
  if (errno || *end || v > UINT32_MAX) goto bad;
  *out = (uint32_t)v;
  return WEIR_OK;
bad:
  return weir_fail(WEIR_ERR_PARSE,
                   "%s: '%s' is not a 32-bit unsigned value. Fix: write a decimal or 0x-hex "
                   "number up to 4294967295.",
                   what, text ? text : "(null)");
}

weir_status weir_bench_results_add(weir_bench_results *results, weir_bench_record **out) {
  if (results->count == results->capacity) {
    size_t cap = results->capacity ? results->capacity * 2 : 16;
    weir_bench_record *grown = realloc(results->records, cap * sizeof *grown);
    if (!grown)
      return weir_fail(WEIR_ERR_OUT_OF_MEMORY,
                       "growing the result list to %zu records failed. Fix: run fewer "
                       "scenarios or backends at once.",
                       cap);
    results->records = grown;
    results->capacity = cap;
  }
  weir_bench_record *r = &results->records[results->count++];
  memset(r, 0, sizeof *r);
  r->verified = -1;
  *out = r;
  return WEIR_OK;
}

void weir_bench_record_release(weir_bench_record *r) {
  free(r->trace_ns);
  free(r->trace_names);
  free(r->trace_name_storage);
  r->trace_name_storage = NULL;
  free(r->wall_samples);
  free(r->device_samples);
  r->trace_ns = NULL;
  r->trace_names = NULL;
  r->wall_samples = r->device_samples = NULL;
}

uint64_t *weir_bench_samples_copy(const uint64_t *samples, size_t count) {
  uint64_t *copy = samples && count ? malloc(count * sizeof *copy) : NULL;
  if (copy) memcpy(copy, samples, count * sizeof *copy);
  return copy;
}

void weir_bench_results_free(weir_bench_results *results) {
  for (size_t i = 0; i < results->count; ++i) weir_bench_record_release(&results->records[i]);
  for (uint32_t i = 0; i < results->verify.count; ++i) free(results->verify.reference[i]);
  free(results->records);
  memset(results, 0, sizeof *results);
}

const char *weir_bench_format_size(char *buf, size_t n, uint64_t b) {
  static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  size_t u = 0;
  double v = (double)b;
  while (v >= 1024.0 && u + 1 < sizeof units / sizeof units[0]) v /= 1024.0, ++u;
  if (v == (double)(uint64_t)v)
    snprintf(buf, n, "%llu %s", (unsigned long long)v, units[u]);
  else
    snprintf(buf, n, "%.1f %s", v, units[u]);
  return buf;
}
