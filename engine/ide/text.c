/* Parsing edge functions and values (text.h), formatting values. */
#include <stdio.h>
#include <string.h>

#include "engine/ide/fn.h"
#include "engine/ide/text.h"

static int is(const char *s, size_t n, const char *word) {
  return strlen(word) == n && memcmp(s, word, n) == 0;
}

/* Digits only, magnitude up to `max`. */
static int parse_magnitude(const char *s, size_t n, uint64_t max, uint64_t *out) {
  if (n == 0) return 1;
  uint64_t v = 0;
  for (size_t i = 0; i < n; ++i) {
    if (s[i] < '0' || s[i] > '9') return 1;
    unsigned d = (unsigned)(s[i] - '0');
    if (v > (max - d) / 10) return 2;
    v = v * 10 + d;
  }
  *out = v;
  return 0;
}

int ide_parse_i64(const char *s, size_t n, int64_t *out) {
  int neg = n > 0 && s[0] == '-';
  uint64_t m;
  int e = parse_magnitude(s + neg, n - (size_t)neg, neg ? (uint64_t)INT64_MAX + 1 : INT64_MAX, &m);
  if (e) return e;
  *out = neg ? ide_wrap(0 - m) : (int64_t)m;
  return 0;
}

static void quote(char *out, size_t cap, const char *s, size_t n) { ifds_quote(out, cap, s, n); }

static int fail(ide_text_error *err, size_t offset, const char *what, const char *s, size_t n,
                const char *expected, const char *fix) {
  err->offset = offset;
  err->what = what;
  quote(err->found, sizeof err->found, s, n);
  snprintf(err->expected, sizeof err->expected, "%s", expected);
  err->fix = fix;
  return 1;
}

static const char linear_expected[] = "id, top, bot, cN, x+B, x-B or A*x+B (A, B, N decimal)";

static int integer(const char *s, size_t n, size_t at, int64_t *out, ide_text_error *err,
                   const char *whole, size_t whole_n) {
  int e = ide_parse_i64(s, n, out);
  if (e == 2)
    return fail(err, at, "integer out of range", s, n, "-9223372036854775808..9223372036854775807",
                "constants are 64-bit signed integers");
  if (e)
    return fail(err, 0, "malformed linear edge function", whole, whole_n, linear_expected,
                "write the function as docs/ide-format.md shows");
  return 0;
}

/* [A*]x[(+|-)B]: the strict λx.a·x+b. */
static int parse_affine(const char *s, size_t n, weir_ide_fn *out, ide_text_error *err) {
  const char *x = memchr(s, 'x', n);
  if (!x) return fail(err, 0, "malformed linear edge function", s, n, linear_expected,
                      "write the function as docs/ide-format.md shows");
  size_t before = (size_t)(x - s), after = n - before - 1;
  int64_t a = 1, b = 0;
  if (before == 1 && s[0] == '-') a = -1;
  else if (before > 0) {
    if (s[before - 1] != '*') return fail(err, 0, "malformed linear edge function", s, n,
                                          linear_expected, "write a factor as A*x");
    if (integer(s, before - 1, 0, &a, err, s, n)) return 1;
  }
  if (after > 0) {
    const char *t = x + 1;
    if (t[0] != '+' && t[0] != '-')
      return fail(err, 0, "malformed linear edge function", s, n, linear_expected,
                  "write the offset as x+B or x-B");
    uint64_t m;
    int neg = t[0] == '-';
    int e = parse_magnitude(t + 1, after - 1, neg ? (uint64_t)INT64_MAX + 1 : INT64_MAX, &m);
    if (e == 2)
      return fail(err, before + 1, "integer out of range", t, after,
                  "-9223372036854775808..9223372036854775807", "constants are 64-bit signed integers");
    if (e) return fail(err, 0, "malformed linear edge function", s, n, linear_expected,
                       "write the offset as x+B or x-B with decimal digits");
    b = neg ? ide_wrap(0 - m) : (int64_t)m;
  }
  *out = ide_lin(WEIR_IDE_LIN_AFFINE, a, b);
  return 0;
}

static int parse_linear(const char *s, size_t n, weir_ide_fn *out, ide_text_error *err) {
  if (is(s, n, "id")) return *out = ide_lin(WEIR_IDE_LIN_AFFINE, 1, 0), 0;
  if (is(s, n, "top")) return *out = ide_lin(WEIR_IDE_LIN_TOP, 0, 0), 0;
  if (is(s, n, "bot")) return *out = ide_lin(WEIR_IDE_LIN_BOT, 0, 0), 0;
  if (n > 1 && s[0] == 'c') {
    int64_t c;
    if (integer(s + 1, n - 1, 1, &c, err, s, n)) return 1;
    return *out = ide_lin(WEIR_IDE_LIN_CONST, 0, c), 0;
  }
  return parse_affine(s, n, out, err);
}

/* ---- typestate ------------------------------------------------------------ */

static int state_index(const ide_parts *p, const char *s, size_t n) {
  for (uint32_t i = 0; i < p->states; ++i)
    if (p->state_name[i] && is(s, n, p->state_name[i])) return (int)i;
  return -1;
}

static int unknown_state(const ide_parts *p, ide_text_error *err, size_t at, const char *s,
                         size_t n) {
  char names[160] = "one of";
  for (uint32_t i = 0; i < p->states && p->state_name[i]; ++i) {
    size_t len = strlen(names);
    snprintf(names + len, sizeof names - len, "%s %s", i ? "," : "", p->state_name[i]);
  }
  return fail(err, at, "unknown state", s, n, names,
              "use a name of a `state` line (or `*` for every state, `{}` for none)");
}

static const char set_expected[] = "a state, STATE|STATE..., {STATE|STATE...} or {} for none";

/* STATE(|STATE)*, {STATE(|STATE)*} or {}: a set of states. Empty text, an
 * unbalanced brace, a state twice, and `top` / `bot` (linear words: the
 * hint says what a typestate value is) are errors. */
static int parse_set(const ide_parts *p, const char *s, size_t n, size_t at, uint32_t *out,
                     ide_text_error *err) {
  *out = 0;
  if (n == 0)
    return fail(err, at, "missing state set", s, n, set_expected,
                "write the states after `>` (`{}` for none)");
  if (is(s, n, "top") || is(s, n, "bot"))
    return fail(err, at, "not a state set", s, n, set_expected,
                "typestate values are sets of states, not top or bot: write `{}` for no "
                "state (the lattice's top) or the states, like {open|shut}");
  int open = s[0] == '{', close = s[n - 1] == '}';
  if (open != close || (open && n < 2) || memchr(s + open, '{', n - open) ||
      memchr(s, '}', n - close))
    return fail(err, at, "malformed state set", s, n, set_expected,
                "open and close the braces of a set once each, or write it without them");
  if (open) s++, n -= 2, at++;
  size_t i = 0;
  while (n > 0 && i <= n) {
    size_t j = i;
    while (j < n && s[j] != '|') ++j;
    if (j == i) /* `open|`, `|open`, `open||shut` */
      return fail(err, at + i, "empty state name in a set", s, n, set_expected,
                  "write a state name on each side of `|`, or drop the extra `|`");
    int k = state_index(p, s + i, j - i);
    if (k < 0) return unknown_state(p, err, at + i, s + i, j - i);
    if (*out >> k & 1u)
      return fail(err, at + i, "repeated state in a set", s + i, j - i,
                  "each state once in a set", "remove the second mention of the state");
    *out |= 1u << k;
    i = j + 1;
  }
  return 0;
}

/* ROW(;ROW)* with ROW = SRC>SET, SRC a state or `*`: rows replace the
 * identity's, in order. */
static int parse_typestate(const ide_parts *p, const char *s, size_t n, weir_ide_fn *out,
                           ide_text_error *err) {
  if (is(s, n, "top")) return *out = ide_ts_empty(), 0;
  *out = ide_ts_identity(p->states);
  if (is(s, n, "id")) return 0;
  size_t i = 0;
  uint32_t named = 0; /* states given a row by name */
  int star = 0;       /* a `*` row seen */
  while (i <= n) {
    size_t j = i;
    while (j < n && s[j] != ';') ++j;
    const char *gt = memchr(s + i, '>', j - i);
    if (!gt)
      return fail(err, i, "malformed typestate edge function", s + i, j - i,
                  "id, top, or rows FROM>TO|TO;... (FROM a state or *)",
                  "write each row as FROM>TO with state names, rows separated by ;");
    size_t src_n = (size_t)(gt - (s + i)), to = src_n + 1;
    uint32_t set;
    if (parse_set(p, gt + 1, j - i - to, i + to, &set, err)) return 1;
    if (is(s + i, src_n, "*")) {
      /* `*` first, then rows by name that refine it; a `*` after a row
       * would discard that row, and a second `*` the first. */
      if (star || named)
        return fail(err, i, "repeated row for a state", s + i, src_n,
                    "`*` once, before the rows by name", "give `*>SET` once, as the first row");
      star = 1;
      for (uint32_t k = 0; k < p->states; ++k) out->u.typestate.to[k] = set;
    } else {
      int k = state_index(p, s + i, src_n);
      if (k < 0) return unknown_state(p, err, i, s + i, src_n);
      if (named >> k & 1u)
        return fail(err, i, "repeated row for a state", s + i, src_n, "one row per state",
                    "give each state one row: its TO set names every state it goes to");
      named |= 1u << k;
      out->u.typestate.to[k] = set;
    }
    i = j + 1;
  }
  return 0;
}

int ide_parse_fn(const ide_parts *p, const char *s, size_t n, weir_ide_fn *out,
                 ide_text_error *err) {
  return p->family == WEIR_IDE_LINEAR ? parse_linear(s, n, out, err)
                                      : parse_typestate(p, s, n, out, err);
}

int ide_parse_value(const ide_parts *p, const char *s, size_t n, weir_ide_value *out,
                    ide_text_error *err) {
  if (p->family == WEIR_IDE_TYPESTATE) {
    uint32_t set;
    if (parse_set(p, s, n, 0, &set, err)) return 1;
    return *out = ide_value(WEIR_IDE_VALUE_STATES, set, 0), 0;
  }
  if (is(s, n, "top")) return *out = ide_value(WEIR_IDE_VALUE_TOP, 0, 0), 0;
  if (is(s, n, "bot")) return *out = ide_value(WEIR_IDE_VALUE_BOT, 0, 0), 0;
  int64_t c;
  int e = ide_parse_i64(s, n, &c);
  if (e == 2)
    return fail(err, 0, "integer out of range", s, n, "-9223372036854775808..9223372036854775807",
                "constants are 64-bit signed integers");
  if (e)
    return fail(err, 0, "malformed linear value", s, n, "top, bot or a decimal integer",
                "write the seed's value as top, bot or a number like -12");
  return *out = ide_value(WEIR_IDE_VALUE_CONST, 0, c), 0;
}

void weir_ide_format_value(const weir_ide_problem *r, const weir_ide_value *v, char *out,
                           size_t cap) {
  if (!cap) return;
  out[0] = 0;
  if (v->kind == WEIR_IDE_VALUE_TOP) snprintf(out, cap, "top");
  else if (v->kind == WEIR_IDE_VALUE_BOT) snprintf(out, cap, "bot");
  else if (v->kind == WEIR_IDE_VALUE_CONST) snprintf(out, cap, "%lld", (long long)v->constant);
  else {
    size_t at = (size_t)snprintf(out, cap, "{");
    for (uint32_t s = 0; s < r->state_count && at < cap; ++s) {
      if (!(v->states >> s & 1u)) continue;
      int len = (int)(r->state_name_offset[s + 1] - r->state_name_offset[s]);
      at += (size_t)snprintf(out + at, cap - at, "%s%.*s", at > 1 ? "|" : "", len,
                             r->state_names + r->state_name_offset[s]);
    }
    if (at < cap) snprintf(out + at, cap - at, "}");
  }
}

/* A state's name as the problem stores it. */
static void state_name(const weir_ide_problem *r, uint32_t s, char *out, size_t cap) {
  int len = (int)(r->state_name_offset[s + 1] - r->state_name_offset[s]);
  snprintf(out, cap, "%.*s", len, r->state_names + r->state_name_offset[s]);
}

/* Rows that differ from the identity, `NAME>{A|B}` joined by ';'. */
static int format_typestate(const weir_ide_problem *r, const weir_ide_typestate_fn *f, char *out,
                            size_t cap) {
  if (f->gen) return 1;
  weir_ide_fn id = ide_ts_identity(r->state_count);
  size_t at = 0;
  int any = 0, empty = 1;
  for (uint32_t s = 0; s < r->state_count; ++s) empty &= f->to[s] == 0;
  if (empty) return snprintf(out, cap, "top"), 0;
  for (uint32_t s = 0; s < r->state_count && at < cap; ++s) {
    if (f->to[s] == id.u.typestate.to[s]) continue;
    char name[IDE_STATE_NAME_MAX + 1], set[WEIR_IDE_VALUE_TEXT_MAX];
    state_name(r, s, name, sizeof name);
    weir_ide_value v = ide_value(WEIR_IDE_VALUE_STATES, f->to[s], 0);
    weir_ide_format_value(r, &v, set, sizeof set);
    at += (size_t)snprintf(out + at, cap - at, "%s%s>%s", any ? ";" : "", name, set);
    any = 1;
  }
  if (!any) snprintf(out, cap, "id");
  return 0;
}

int ide_format_fn(const weir_ide_problem *r, const weir_ide_fn *f, char *out, size_t cap) {
  if (f->family == WEIR_IDE_TYPESTATE) return format_typestate(r, &f->u.typestate, out, cap);
  const weir_ide_linear_fn *l = &f->u.linear;
  if (l->kind == WEIR_IDE_LIN_TOP) snprintf(out, cap, "top");
  else if (l->kind == WEIR_IDE_LIN_BOT) snprintf(out, cap, "bot");
  else if (l->kind == WEIR_IDE_LIN_CONST) snprintf(out, cap, "c%lld", (long long)l->b);
  else if (l->a == 1 && l->b == 0) snprintf(out, cap, "id");
  else if (l->b < 0) /* the magnitude as unsigned: INT64_MIN too */
    snprintf(out, cap, "%lld*x-%llu", (long long)l->a, (unsigned long long)(0 - (uint64_t)l->b));
  else snprintf(out, cap, "%lld*x+%lld", (long long)l->a, (long long)l->b);
  return 0;
}
