/* The IDE text loader: the IFDS loader (engine/ifds/load*.c) with an
 * extension (ifds_load_ext) for what IDE adds: the `weir-ide 1` magic, the
 * `family` and `state` lines, edge functions after the flow tokens, and a
 * value on every seed. Messages are the IFDS loader's FILE:LINE:COL form. */
#include <stdlib.h>
#include <string.h>

#include "engine/ide/fn.h"
#include "engine/ide/text.h"
#include "engine/ifds/load.h"
#include "engine/ifds/tables.h"

typedef struct ide_loader {
  ifds_load_ext ext;
  ide_parts parts;
  int family_seen;
  weir_status init_status; /* of ide_parts_init, deferred to the family line */
  /* The pairs of the FUNCTIONS token being read: (d1, d2) -> the token's stamp,
   * so a repeated pair costs a hash lookup, not a scan of the token's pairs. */
  ifds_map token_pairs;
  uint32_t token_stamp;
} ide_loader;

static ide_loader *of(ifds_loader *L) { return L->ext->user; }

static int is(const ifds_token *t, const char *word) {
  return t->length == strlen(word) && memcmp(t->text, word, t->length) == 0;
}

static weir_status at_token(ifds_loader *L, size_t i, size_t offset, const char *what,
                            const char *found, const char *expected, const char *fix) {
  return ifds_load_fail(L, L->line, ifds_col(L, L->tok[i].text) + offset, what, found, expected,
                        fix);
}

static weir_status token_error(ifds_loader *L, size_t i, size_t base, const ide_text_error *e) {
  return at_token(L, i, base + e->offset, e->what, e->found, e->expected, e->fix);
}

/* ---- header: `family` and `state` ------------------------------------------- */

static weir_status family_line(ifds_loader *L, ide_loader *I) {
  char found[64];
  if (I->family_seen) {
    ifds_quote(found, sizeof found, L->tok[0].text, L->tok[0].length);
    return at_token(L, 0, 0, "repeated family line", found, "one `family` line",
                    "give the family once, right after `weir-ide 1`");
  }
  if (L->tok_count < 2)
    return ifds_load_fail(L, L->line, ifds_col(L, L->line_end), "missing family", "end of line",
                          "linear or typestate", "write `family linear` or `family typestate S`");
  uint32_t family = 0, states = 0;
  if (is(&L->tok[1], "linear")) {
    family = WEIR_IDE_LINEAR;
    WEIR_TRY(ifds_load_no_more(L, 2));
  } else if (is(&L->tok[1], "typestate")) {
    family = WEIR_IDE_TYPESTATE;
    /* Every count outside 1..32 gets the one message: 0, 33, -1, 2^32 and past. */
    ifds_number_error e =
        L->tok_count > 2 ? ifds_parse_u32(L->tok[2].text, L->tok[2].length, &states) : IFDS_NUMBER_OK;
    int out_of_range = e == IFDS_NUMBER_NEGATIVE || e == IFDS_NUMBER_TOO_LARGE;
    if (!out_of_range) {
      WEIR_TRY(ifds_load_number(L, 2, "state count", &states));
      WEIR_TRY(ifds_load_no_more(L, 3));
    }
    if (out_of_range || states < 1 || states > WEIR_IDE_MAX_STATES) {
      ifds_quote(found, sizeof found, L->tok[2].text, L->tok[2].length);
      return at_token(L, 2, 0, "state count out of range", found, "1..32",
                      "a typestate problem has 1 to 32 states (one bit each)");
    }
  } else {
    ifds_quote(found, sizeof found, L->tok[1].text, L->tok[1].length);
    return at_token(L, 1, 0, "unknown family", found, "linear or typestate",
                    "write `family linear` or `family typestate S`");
  }
  I->family_seen = 1;
  return ide_parts_init(&I->parts, family, states);
}

static weir_status state_line(ifds_loader *L, ide_loader *I) {
  ide_parts *p = &I->parts;
  char found[64];
  if (p->family != WEIR_IDE_TYPESTATE)
    return at_token(L, 0, 0, "state line in a linear problem", "'state'",
                    "state lines only after `family typestate S`",
                    "remove the line, or declare the problem `family typestate S`");
  uint32_t id;
  WEIR_TRY(ifds_load_index(L, 1, "state", p->states, &id));
  if (L->tok_count < 3)
    return ifds_load_fail(L, L->line, ifds_col(L, L->line_end), "missing state name",
                          "end of line", "a name", "write `state ID NAME`");
  WEIR_TRY(ifds_load_no_more(L, 3));
  const ifds_token *t = &L->tok[2];
  ifds_quote(found, sizeof found, t->text, t->length);
  if (!ide_state_name_ok(t->text, t->length))
    return at_token(L, 2, 0, "malformed state name", found,
                    "1..64 letters, digits and _, not starting with a digit, not id, top or bot",
                    "rename the state");
  if (p->state_name[id])
    return at_token(L, 1, 0, "repeated state", found, "one state line per state ID",
                    "give each state ID one name");
  for (uint32_t s = 0; s < p->states; ++s)
    if (p->state_name[s] && is(t, p->state_name[s]))
      return at_token(L, 2, 0, "repeated state name", found, "a name no other state has",
                      "give every state its own name");
  p->state_name[id] = malloc(t->length + 1);
  if (!p->state_name[id])
    return weir_fail(WEIR_ERR_OUT_OF_MEMORY, "allocating a state name failed. Fix: free memory.");
  memcpy(p->state_name[id], t->text, t->length);
  p->state_name[id][t->length] = 0;
  return WEIR_OK;
}

static weir_status header(ifds_loader *L) {
  ide_loader *I = of(L);
  const ifds_token *t = &L->tok[0];
  if (is(t, "family")) return family_line(L, I);
  if (!I->family_seen) {
    char found[64];
    ifds_quote(found, sizeof found, t->text, t->length);
    return at_token(L, 0, 0, "missing family line", found, "`family linear` or `family typestate S`",
                    "put the family line right after `weir-ide 1`");
  }
  if (is(t, "state")) return state_line(L, I);
  char found[64];
  ifds_quote(found, sizeof found, t->text, t->length);
  return at_token(L, 0, 0, "unknown directive", found, "state or facts",
                  "the IDE header is weir-ide 1, family, state lines (typestate), then facts, "
                  "procs, nodes");
}

static weir_status header_done(ifds_loader *L) {
  ide_loader *I = of(L);
  if (!I->family_seen)
    return at_token(L, 0, 0, "missing family line", "'facts'",
                    "`family linear` or `family typestate S` first",
                    "put the family line right after `weir-ide 1`");
  for (uint32_t s = 0; s < I->parts.states; ++s) {
    if (I->parts.state_name[s]) continue;
    char expected[64];
    snprintf(expected, sizeof expected, "`state %u NAME` before `facts`", s);
    return at_token(L, 0, 0, "missing state line", "'facts'", expected,
                    "name every state 0..S-1 of `family typestate S`");
  }
  return WEIR_OK;
}

/* ---- body: edge functions and seed values ----------------------------------- */

static const char pair_expected[] = "D1>D2=FUNCTION, items separated by commas";

/* One item D1>D2=FN of token i at byte `at`, n bytes. */
static weir_status item(ifds_loader *L, size_t i, size_t at, size_t n, uint32_t flow,
                        uint32_t out[3]) {
  ide_loader *I = of(L);
  const char *s = L->tok[i].text + at;
  const char *eq = memchr(s, '=', n), *gt = eq ? memchr(s, '>', (size_t)(eq - s)) : NULL;
  char found[64];
  ifds_quote(found, sizeof found, s, n);
  uint32_t d1 = 0, d2 = 0;
  ifds_number_error e1 = gt ? ifds_parse_u32(s, (size_t)(gt - s), &d1) : IFDS_NUMBER_OK;
  ifds_number_error e2 = gt ? ifds_parse_u32(gt + 1, (size_t)(eq - gt - 1), &d2) : IFDS_NUMBER_OK;
  /* digits past 32 bits are a fact number out of range, not a malformed pair */
  int too_large = e1 == IFDS_NUMBER_TOO_LARGE || e2 == IFDS_NUMBER_TOO_LARGE;
  if (!gt || (e1 != IFDS_NUMBER_OK && e1 != IFDS_NUMBER_TOO_LARGE) ||
      (e2 != IFDS_NUMBER_OK && e2 != IFDS_NUMBER_TOO_LARGE))
    return at_token(L, i, at, "malformed edge-function pair", found, pair_expected,
                    "write the pair as two fact numbers, like 0>3=c5");
  if (too_large || d1 >= L->facts || d2 >= L->facts) {
    char expected[64];
    snprintf(expected, sizeof expected, "facts in 0..%u", L->facts - 1);
    return at_token(L, i, at, "fact out of range", found, expected,
                    "use facts below the header's count or raise the count");
  }
  ide_flow_view v = ide_flow_view_of_table(&L->b.flows);
  if (!ide_flow_has_pair(&v, flow, d1, d2)) {
    char pair[32];
    snprintf(pair, sizeof pair, "pair %u>%u", d1, d2);
    return at_token(L, i, at, "edge function on a pair the flow function does not have", pair,
                    "a pair d1>d2 with d2 in f(d1)",
                    "add the pair to the flow token, or drop its edge function");
  }
  weir_ide_fn fn;
  ide_text_error e;
  size_t fn_at = (size_t)(eq + 1 - s);
  if (ide_parse_fn(&I->parts, eq + 1, n - fn_at, &fn, &e)) return token_error(L, i, at + fn_at, &e);
  out[0] = d1, out[1] = d2;
  return ide_parts_fn(&I->parts, &fn, &out[2]);
}

/* Token i: `-` or the functions of the pairs of `flow`, as site (a, b). */
static weir_status functions(ifds_loader *L, size_t i, uint32_t site, uint32_t a, uint32_t b,
                             uint32_t flow) {
  if (i >= L->tok_count) return WEIR_OK;
  const ifds_token *t = &L->tok[i];
  if (is(t, "-")) return WEIR_OK;
  ide_loader *I = of(L);
  if (++I->token_stamp == 0) { /* stamps wrapped: forget every earlier token's pairs */
    ifds_map_free(&I->token_pairs);
    I->token_stamp = 1;
  }
  size_t start = 0;
  while (start <= t->length) {
    const char *comma = memchr(t->text + start, ',', t->length - start);
    size_t end = comma ? (size_t)(comma - t->text) : t->length;
    uint32_t v[3], *stamp;
    int added;
    WEIR_TRY(item(L, i, start, end - start, flow, v));
    WEIR_TRY(ifds_map_upsert(&I->token_pairs, ifds_key(v[0], v[1]), I->token_stamp, &stamp, &added));
    if (!added && *stamp == I->token_stamp) {
      char found[32];
      snprintf(found, sizeof found, "pair %u>%u a second time", v[0], v[1]);
      return at_token(L, i, start, "repeated edge function for a pair", found,
                      "one function per pair", "give each pair one function");
    }
    *stamp = I->token_stamp;
    WEIR_TRY(ide_parts_pair(&of(L)->parts, site, a, b, v[0], v[1], v[2], ifds_line32(L)));
    start = end + 1;
  }
  return WEIR_OK;
}

static weir_status seed_value(ifds_loader *L, size_t i, uint32_t node, uint32_t fact) {
  ide_loader *I = of(L);
  if (i >= L->tok_count)
    return ifds_load_fail(L, L->line, ifds_col(L, L->line_end), "missing seed value",
                          "end of line",
                          I->parts.family == WEIR_IDE_LINEAR ? "top, bot or an integer"
                                                             : "a set of states like {init}",
                          "write `seed NODE FACT VALUE`");
  weir_ide_value v;
  ide_text_error e;
  if (ide_parse_value(&I->parts, L->tok[i].text, L->tok[i].length, &v, &e))
    return token_error(L, i, 0, &e);
  WEIR_TRY(ifds_load_no_more(L, i + 1));
  return ide_parts_seed(&I->parts, node, fact, v);
}

static weir_status body(ifds_loader *L, ifds_elem kind, size_t first, uint32_t a, uint32_t b,
                        uint32_t f0, uint32_t f1) {
  switch (kind) {
    case IFDS_ELEM_EDGE:
      WEIR_TRY(functions(L, first, WEIR_IDE_SITE_EDGE, a, b, f0));
      return ifds_load_no_more(L, first + 1);
    case IFDS_ELEM_CALL:
      WEIR_TRY(functions(L, first, WEIR_IDE_SITE_CALL, a, 0, f0));
      return ifds_load_no_more(L, first + 1);
    case IFDS_ELEM_CALLEE:
      WEIR_TRY(functions(L, first, WEIR_IDE_SITE_CALLEE_CALL, a, b, f0));
      WEIR_TRY(functions(L, first + 1, WEIR_IDE_SITE_CALLEE_RETURN, a, b, f1));
      return ifds_load_no_more(L, first + 2);
    default: return seed_value(L, first, a, b);
  }
}

/* ---- entry points ------------------------------------------------------------ */

static weir_status no_report(const ide_parts *p, size_t record, const char *what,
                             const char *found, const char *expected, const char *fix) {
  return weir_fail(WEIR_ERR_INTERNAL,
                   "IDE loader: record %zu of %zu: %s (found %s, expected %s). Fix: %s; report "
                   "this bug in weir.",
                   record, p->ann_site.len, what, found, expected, fix);
}

static void loader_init(ide_loader *I) {
  memset(I, 0, sizeof *I);
  I->ext.user = I;
  I->ext.magic = "weir-ide";
  I->ext.doc = "docs/ide-format.md";
  I->ext.header_order = "weir-ide 1, family, the state lines (typestate), facts, procs and nodes";
  I->ext.directives = "weir-ide, family, state, facts, procs, nodes, proc, edge, call, callee, seed";
  I->ext.header = header;
  I->ext.header_done = header_done;
  I->ext.body = body;
}

static weir_status finish(ide_loader *I, weir_status s, weir_ifds_problem *ifds,
                          weir_ide_problem **out) {
  if (s == WEIR_OK) s = ide_parts_finish(&I->parts, ifds, no_report, out);
  ide_parts_release(&I->parts);
  ifds_map_free(&I->token_pairs);
  return s;
}

weir_status weir_ide_load_memory_ex(const char *name, const char *text, size_t length,
                                    const weir_ifds_load_options *options,
                                    weir_ide_problem **out) {
  if (!out)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "weir_ide_load_memory: out is NULL. Fix: pass the address of a pointer.");
  *out = NULL;
  ide_loader I;
  loader_init(&I);
  weir_ifds_problem *ifds = NULL;
  weir_status s = ifds_load_memory_with(name, text, length, options, &I.ext, &ifds);
  return finish(&I, s, ifds, out);
}

weir_status weir_ide_load_file_ex(const char *path, const weir_ifds_load_options *options,
                                  weir_ide_problem **out) {
  if (!out)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "weir_ide_load_file: out is NULL. Fix: pass the address of a pointer.");
  *out = NULL;
  ide_loader I;
  loader_init(&I);
  weir_ifds_problem *ifds = NULL;
  weir_status s = ifds_load_file_with(path, options, &I.ext, &ifds);
  return finish(&I, s, ifds, out);
}

weir_status weir_ide_load_memory(const char *name, const char *text, size_t length,
                                 weir_ide_problem **out) {
  return weir_ide_load_memory_ex(name, text, length, NULL, out);
}

weir_status weir_ide_load_file(const char *path, weir_ide_problem **out) {
  return weir_ide_load_file_ex(path, NULL, out);
}
