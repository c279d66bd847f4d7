/* Growable arrays, the radix sort and the buffered text writer. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "engine/ifds/internal.h"
#include "weir/ifds.h"

weir_status ifds_vec_reserve(ifds_vec *v, size_t extra) {
  if (v->cap - v->len >= extra) return WEIR_OK;
  size_t cap = v->cap ? v->cap : 16;
  while (cap - v->len < extra) {
    if (cap > SIZE_MAX / 2 / sizeof(uint32_t))
      return weir_fail(WEIR_ERR_OUT_OF_MEMORY,
                       "growing an IFDS array past %zu elements overflows. Fix: split the problem.",
                       v->len);
    cap *= 2;
  }
  uint32_t *data = realloc(v->data, cap * sizeof(uint32_t));
  if (!data)
    return weir_fail(WEIR_ERR_OUT_OF_MEMORY,
                     "allocating %zu bytes for an IFDS array failed. Fix: free memory or use a "
                     "smaller problem.",
                     cap * sizeof(uint32_t));
  v->data = data;
  v->cap = cap;
  return WEIR_OK;
}

void ifds_vec_free(ifds_vec *v) {
  free(v->data);
  memset(v, 0, sizeof *v);
}

weir_status ifds_vec_take(ifds_vec *v, uint32_t **out) {
  size_t n = v->len ? v->len : 1;
  uint32_t *data = realloc(v->data, n * sizeof(uint32_t));
  if (!data) {
    if (v->data && v->cap >= n)
      data = v->data; /* shrinking failed: keep the larger block */
    else
      return weir_fail(WEIR_ERR_OUT_OF_MEMORY,
                       "allocating %zu bytes for an IFDS array failed. Fix: free memory.",
                       n * sizeof(uint32_t));
  }
  *out = data;
  memset(v, 0, sizeof *v);
  return WEIR_OK;
}

static int cmp_u32(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return (x > y) - (x < y);
}

void ifds_sort_u32_small(uint32_t *v, size_t n) {
  if (n > 32) {
    qsort(v, n, sizeof *v, cmp_u32);
    return;
  }
  for (size_t i = 1; i < n; ++i) {
    uint32_t x = v[i];
    size_t j = i;
    for (; j > 0 && v[j - 1] > x; --j) v[j] = v[j - 1];
    v[j] = x;
  }
}

weir_status ifds_sort_u64(uint64_t *keys, size_t count) {
  if (count < 2) return WEIR_OK;
  uint64_t *tmp = malloc(count * sizeof *tmp);
  size_t *hist = malloc(65536 * sizeof *hist);
  if (!tmp || !hist) {
    free(tmp);
    free(hist);
    return weir_fail(WEIR_ERR_OUT_OF_MEMORY,
                     "allocating %zu bytes to sort %zu keys failed. "
                     "Fix: free memory or use a smaller problem.",
                     count * sizeof *tmp, count);
  }
  uint64_t *src = keys, *dst = tmp;
  for (unsigned shift = 0; shift < 64; shift += 16) {
    memset(hist, 0, 65536 * sizeof *hist);
    for (size_t i = 0; i < count; ++i) hist[(src[i] >> shift) & 0xffff]++;
    if (hist[(src[0] >> shift) & 0xffff] == count) continue; /* one digit everywhere */
    size_t sum = 0;
    for (size_t d = 0; d < 65536; ++d) {
      size_t c = hist[d];
      hist[d] = sum;
      sum += c;
    }
    for (size_t i = 0; i < count; ++i) dst[hist[(src[i] >> shift) & 0xffff]++] = src[i];
    uint64_t *t = src;
    src = dst;
    dst = t;
  }
  if (src != keys) memcpy(keys, src, count * sizeof *keys);
  free(tmp);
  free(hist);
  return WEIR_OK;
}

void ifds_out_init(ifds_out *o, FILE *file) {
  o->file = file;
  o->len = 0;
  o->failed = 0;
}

void ifds_out_flush(ifds_out *o) {
  if (o->len && !o->failed && fwrite(o->buf, 1, o->len, o->file) != o->len)
    o->failed = errno ? errno : EIO;
  o->len = 0;
}

void ifds_out_bytes(ifds_out *o, const char *s, size_t n) {
  if (n > sizeof o->buf / 2) {
    ifds_out_flush(o);
    if (!o->failed && fwrite(s, 1, n, o->file) != n) o->failed = errno ? errno : EIO;
    return;
  }
  ifds_out_reserve(o, n);
  memcpy(o->buf + o->len, s, n);
  o->len += n;
}

void ifds_out_str(ifds_out *o, const char *s) { ifds_out_bytes(o, s, strlen(s)); }

void ifds_out_u64(ifds_out *o, uint64_t x) {
  char tmp[20];
  size_t n = 0;
  do {
    tmp[n++] = (char)('0' + x % 10);
    x /= 10;
  } while (x);
  ifds_out_reserve(o, n);
  while (n) o->buf[o->len++] = tmp[--n];
}

weir_status ifds_out_finish(ifds_out *o, const char *what) {
  ifds_out_flush(o);
  if (!o->failed && fflush(o->file) != 0) o->failed = errno ? errno : EIO;
  if (o->failed)
    return weir_fail(WEIR_ERR_IO,
                     "writing %s failed: %s. Fix: check free disk space and "
                     "permissions of the output.",
                     what, strerror(o->failed));
  return WEIR_OK;
}

void ifds_out_flow(ifds_out *o, const weir_ifds_flows *flows, uint32_t f) {
  int first = 1;
  if (flows->identity[f]) {
    ifds_out_bytes(o, "id", 2);
    first = 0;
    for (uint32_t k = flows->kill_offset[f]; k < flows->kill_offset[f + 1]; ++k) {
      ifds_out_bytes(o, ",-", 2);
      ifds_out_u64(o, flows->kill_fact[k]);
    }
  }
  for (uint32_t k = flows->pair_offset[f]; k < flows->pair_offset[f + 1]; ++k) {
    if (!first) ifds_out_char(o, ',');
    first = 0;
    ifds_out_u64(o, flows->pair_from[k]);
    ifds_out_char(o, '>');
    ifds_out_u64(o, flows->pair_to[k]);
  }
  if (first) ifds_out_bytes(o, "none", 4);
}

ifds_number_error ifds_parse_u32(const char *s, size_t n, uint32_t *out) {
  if (n == 0) return IFDS_NUMBER_EMPTY;
  if (s[0] == '-') return IFDS_NUMBER_NEGATIVE;
  uint64_t v = 0;
  for (size_t i = 0; i < n; ++i) {
    unsigned d = (unsigned char)s[i] - '0';
    if (d > 9) return IFDS_NUMBER_NOT_DIGITS;
    v = v * 10 + d;
    if (v > UINT32_MAX) {
      for (++i; i < n; ++i) /* a bad byte further on is the better message */
        if ((unsigned)((unsigned char)s[i] - '0') > 9) return IFDS_NUMBER_NOT_DIGITS;
      return IFDS_NUMBER_TOO_LARGE;
    }
  }
  *out = (uint32_t)v;
  return IFDS_NUMBER_OK;
}

uint64_t ifds_hash_bytes(const char *s, size_t n) {
  uint64_t h = 0x9e3779b97f4a7c15ull ^ n;
  while (n >= 8) {
    uint64_t w;
    memcpy(&w, s, 8);
    h = ifds_mix64(h ^ w);
    s += 8;
    n -= 8;
  }
  uint64_t w = 0;
  memcpy(&w, s, n);
  return ifds_mix64(h ^ w ^ ((uint64_t)n << 56));
}

void ifds_quote(char *out, size_t cap, const char *text, size_t length) {
  size_t limit = cap > 8 ? cap - 8 : 0;
  if (length > limit)
    snprintf(out, cap, "'%.*s...'", (int)limit, text);
  else
    snprintf(out, cap, "'%.*s'", (int)length, text);
}
