/* The directives of a problem file, one line at a time: the header, proc
 * lines, the dispatch of the body (load_body.c), and the builder's reports
 * turned into FILE:LINE:COL messages. */
#include <string.h>

#include "engine/ifds/load.h"

static const char *const header_names[] = {"weir-ifds", "facts", "procs", "nodes"};
static const char body_expected[] = "one of proc, edge, call, callee, seed";

static int is(const ifds_token *t, const char *word) {
  size_t n = strlen(word);
  return t->length == n && memcmp(t->text, word, n) == 0;
}

static int is_body(const ifds_token *t);

/* ---- tokens ------------------------------------------------------------- */

static weir_status missing(ifds_loader *L, const char *what_missing) {
  char what[96], fix[96];
  snprintf(what, sizeof what, "missing %s", what_missing);
  snprintf(fix, sizeof fix, "complete the line (see %s)", ifds_load_doc(L));
  return ifds_load_fail(L, L->line, ifds_col(L, L->line_end), what, "end of line", what_missing,
                        fix);
}

/* Token i must be there; `label` names it in the message. */
static weir_status need(ifds_loader *L, size_t i, const char *label) {
  return i < L->tok_count ? WEIR_OK : missing(L, label);
}

/* No tokens after the first `count`. */
static weir_status no_more(ifds_loader *L, size_t count) {
  if (L->tok_count <= count) return WEIR_OK;
  char found[64];
  ifds_quote(found, sizeof found, L->tok[count].text, L->tok[count].length);
  return ifds_load_fail(L, L->line, ifds_col(L, L->tok[count].text), "unexpected extra token",
                        found, "end of line", "remove the extra token or start a comment with #");
}

/* Token i as a number; `label` names it ("fact count", "node"). */
static weir_status number(ifds_loader *L, size_t i, const char *label, uint32_t *out) {
  WEIR_TRY(need(L, i, label));
  const ifds_token *t = &L->tok[i];
  ifds_number_error e = ifds_parse_u32(t->text, t->length, out);
  if (e == IFDS_NUMBER_OK) return WEIR_OK;
  char found[64], what[96];
  ifds_quote(found, sizeof found, t->text, t->length);
  size_t col = ifds_col(L, t->text);
  switch (e) {
    case IFDS_NUMBER_NEGATIVE:
      snprintf(what, sizeof what, "negative %s", label);
      return ifds_load_fail(L, L->line, col, what, found, "a number 0..4294967295",
                            "numbers are unsigned decimals");
    case IFDS_NUMBER_TOO_LARGE:
      snprintf(what, sizeof what, "%s too large", label);
      return ifds_load_fail(L, L->line, col, what, found, "at most 4294967295",
                            "numbers are 32-bit unsigned decimals");
    default:
      snprintf(what, sizeof what, "malformed %s", label);
      return ifds_load_fail(L, L->line, col, what, found, "a decimal number (digits 0-9)",
                            "write the number in decimal digits");
  }
}

/* Token i as an index below `limit` ("node" in 0..N-1). */
static weir_status index_below(ifds_loader *L, size_t i, const char *label, uint32_t limit,
                               uint32_t *out) {
  WEIR_TRY(number(L, i, label, out));
  if (*out < limit) return WEIR_OK;
  char found[64], expected[80], what[96], fix[128];
  ifds_quote(found, sizeof found, L->tok[i].text, L->tok[i].length);
  snprintf(expected, sizeof expected, "a %s in 0..%u", label, limit - 1);
  snprintf(what, sizeof what, "%s out of range", label);
  snprintf(fix, sizeof fix, "use a %s below the header's count or raise the count", label);
  return ifds_load_fail(L, L->line, ifds_col(L, L->tok[i].text), what, found, expected, fix);
}

static weir_status flow(ifds_loader *L, size_t i, const char *label, uint32_t *out) {
  WEIR_TRY(need(L, i, label));
  ifds_flow_error err;
  const ifds_token *t = &L->tok[i];
  weir_status s = ifds_flow_parse(&L->b.flows, t->text, t->length, L->facts, out, &err);
  if (s != WEIR_ERR_PARSE) return s;
  return ifds_load_fail(L, L->line, ifds_col(L, t->text) + err.offset, err.what, err.found,
                        err.expected, err.fix);
}

/* ---- the header --------------------------------------------------------- */

/* Bytes of tables a header count implies: the loader's arrays (5 words per
 * procedure, 3 per node) and those of the problem built from them (3 words per
 * procedure, at least 3 per node). */
#define IFDS_BYTES_PER_PROC 32u
#define IFDS_BYTES_PER_NODE 24u
#define IFDS_MIN_PROC_LINE 13u /* "proc 0 a 0 1" and its LF */
#define IFDS_SMALL_TABLES (16u << 20) /* fits anywhere weir runs: not checked */

/* Every procedure needs its own proc line, so a count that the input cannot
 * hold is a mistake in the header, found without allocating anything. */
static weir_status procs_fit_input(ifds_loader *L) {
  if (!L->input_bytes || L->procs <= L->input_bytes / IFDS_MIN_PROC_LINE) return WEIR_OK;
  char found[64], expected[128];
  ifds_quote(found, sizeof found, L->tok[1].text, L->tok[1].length);
  snprintf(expected, sizeof expected,
           "at most %llu: a proc line of at least %u bytes each in this %llu-byte input",
           (unsigned long long)(L->input_bytes / IFDS_MIN_PROC_LINE), IFDS_MIN_PROC_LINE,
           (unsigned long long)L->input_bytes);
  return ifds_load_fail(L, L->line, ifds_col(L, L->tok[1].text),
                        "procedure count larger than the input can hold", found, expected,
                        "check the count: every procedure has its own proc line");
}

/* Arrays sized by header counts are allocated and filled in full, so counts
 * whose tables exceed the memory the process may still take would end in the
 * OOM killer or an abort instead of an error: the sum of what the header
 * implies so far is checked before anything is allocated. */
static weir_status header_fits_memory(ifds_loader *L) {
  uint64_t bytes = (uint64_t)L->procs * IFDS_BYTES_PER_PROC +
                   (uint64_t)L->nodes * IFDS_BYTES_PER_NODE;
  if (bytes <= IFDS_SMALL_TABLES) return WEIR_OK; /* spare small loads the /proc reads */
  const char *source = NULL;
  uint64_t budget = ifds_memory_budget(&source);
  if (bytes <= budget) return WEIR_OK;
  return weir_fail(WEIR_ERR_OUT_OF_MEMORY,
                   "%s:%llu:%zu: error: the header's counts (%u procedures, %u nodes) imply "
                   "%llu bytes of tables, more than %s, %llu bytes. Fix: check the counts in the "
                   "header; if they are right, free memory or raise the limit.",
                   L->name, (unsigned long long)L->line, ifds_col(L, L->tok[1].text), L->procs,
                   L->nodes, (unsigned long long)bytes, source, (unsigned long long)budget);
}

static weir_status header_count(ifds_loader *L, uint32_t *out, const char *label, uint32_t min) {
  WEIR_TRY(number(L, 1, label, out));
  WEIR_TRY(no_more(L, 2));
  if (*out >= min) return WEIR_OK;
  char found[64], what[96], expected[64];
  ifds_quote(found, sizeof found, L->tok[1].text, L->tok[1].length);
  snprintf(what, sizeof what, "%s too small", label);
  snprintf(expected, sizeof expected, "at least %u", min);
  return ifds_load_fail(L, L->line, ifds_col(L, L->tok[1].text), what, found, expected,
                        "the zero fact, one procedure and its start and exit nodes always exist");
}

/* A file of the other kind: an IDE file given to the IFDS loader, or an
 * IFDS file given to the IDE loader. */
static weir_status other_magic(ifds_loader *L) {
  char found[64], expected[64];
  const ifds_token *t = &L->tok[0];
  ifds_quote(found, sizeof found, t->text, t->length);
  snprintf(expected, sizeof expected, "`%s 1`", L->ext ? L->ext->magic : "weir-ifds");
  if (L->ext)
    return ifds_load_fail(L, L->line, ifds_col(L, t->text), "an IFDS problem, not an IDE problem",
                          found, expected,
                          "solve it as IFDS (weir solve, weir_ifds_load_file), or "
                          "make it an IDE problem (see docs/ide-format.md)");
  return ifds_load_fail(L, L->line, ifds_col(L, t->text), "an IDE problem, not an IFDS problem",
                        found, expected,
                        "solve it as IDE (weir ide, weir_ide_load_file; see "
                        "docs/ide-format.md)");
}

static weir_status magic(ifds_loader *L) {
  uint32_t version;
  WEIR_TRY(need(L, 1, "format version"));
  const ifds_token *t = &L->tok[1];
  if (ifds_parse_u32(t->text, t->length, &version) != IFDS_NUMBER_OK || version != 1) {
    char found[64];
    ifds_quote(found, sizeof found, t->text, t->length);
    return ifds_load_fail(L, L->line, ifds_col(L, t->text), "unsupported format version", found,
                          "1",
                          L->ext ? "this weir reads version 1 (`weir-ide 1`)"
                                 : "this weir reads version 1 (`weir-ifds 1`)");
  }
  return no_more(L, 2);
}

/* The builder's report of a broken rule, as FILE:LINE:COL: the element being
 * added is on the current line (the column of its argument); one added
 * earlier carries its line; the counts are the `procs` line. */
static weir_status report(const ifds_builder *b, const ifds_site *site, const char *what,
                          const char *found, const char *expected, const char *fix) {
  const ifds_loader *L = b->report_user;
  if (L->fast) return WEIR_ERR_PARSE; /* the general path redoes the line and reports */
  if (site->kind == IFDS_ELEM_COUNTS)
    return ifds_load_fail(L, L->procs_line, L->procs_col, what, found, expected, fix);
  if (site->tag) return ifds_load_fail(L, site->tag, 1, what, found, expected, fix);
  size_t col = 1;
  if (site->arg > 0 && (size_t)site->arg < L->tok_count)
    col = ifds_col(L, L->tok[site->arg].text) + site->offset;
  return ifds_load_fail(L, L->line, col, what, found, expected, fix);
}

static weir_status header(ifds_loader *L) {
  switch (L->stage) {
    case IFDS_STAGE_MAGIC: WEIR_TRY(magic(L)); break;
    case IFDS_STAGE_FACTS:
      if (L->ext) WEIR_TRY(L->ext->header_done(L));
      WEIR_TRY(header_count(L, &L->facts, "fact count", 1));
      break;
    case IFDS_STAGE_PROCS:
      WEIR_TRY(header_count(L, &L->procs, "procedure count", 1));
      L->procs_line = L->line;
      L->procs_col = ifds_col(L, L->tok[1].text);
      WEIR_TRY(procs_fit_input(L));
      WEIR_TRY(header_fits_memory(L));
      break;
    case IFDS_STAGE_NODES:
      WEIR_TRY(header_count(L, &L->nodes, "node count", 2));
      WEIR_TRY(header_fits_memory(L));
      WEIR_TRY(ifds_builder_init(&L->b, L->facts, L->procs, L->nodes, 1));
      L->b.report = report;
      L->b.report_user = L;
      break;
  }
  L->stage++;
  return WEIR_OK;
}

/* A directive that is not the one the stage expects. */
static weir_status misplaced(ifds_loader *L) {
  const ifds_token *t = &L->tok[0];
  char found[64], expected[64], fix[160];
  ifds_quote(found, sizeof found, t->text, t->length);
  int header_index = -1;
  for (int i = 0; i < 4; ++i)
    if (is(t, header_names[i])) header_index = i;
  if (L->stage < IFDS_STAGE_PROC)
    snprintf(expected, sizeof expected, "`%s`", header_names[L->stage]);
  else
    snprintf(expected, sizeof expected, "%s", body_expected);
  size_t col = ifds_col(L, t->text);
  if (L->stage == IFDS_STAGE_MAGIC) {
    char magic[32];
    snprintf(magic, sizeof magic, "`%s 1`", ifds_load_magic(L));
    snprintf(fix, sizeof fix, "start the file with the line %s", magic);
    return ifds_load_fail(L, L->line, col, "missing magic line", found, magic, fix);
  }
  snprintf(fix, sizeof fix, "give %s once each, in that order", ifds_load_header_order(L));
  if (header_index >= 0 && header_index < L->stage)
    return ifds_load_fail(L, L->line, col, "repeated header directive", found, expected, fix);
  if (header_index >= 0)
    return ifds_load_fail(L, L->line, col, "header directive out of order", found, expected, fix);
  if (is(t, "proc") || is_body(t)) {
    snprintf(fix, sizeof fix, "give %s first, in that order", ifds_load_header_order(L));
    if (L->stage < IFDS_STAGE_PROC)
      return ifds_load_fail(L, L->line, col, "missing header directive", found, expected, fix);
    return ifds_load_fail(L, L->line, col, "proc line after the body started", found,
                          "one of edge, call, callee, seed",
                          "put every proc line before the first edge, call, callee or seed line");
  }
  snprintf(fix, sizeof fix, "directives are %s; # starts a comment", ifds_load_directives(L));
  return ifds_load_fail(L, L->line, col, "unknown directive", found, expected, fix);
}

/* ---- proc lines ---------------------------------------------------------- */

static weir_status proc_line(ifds_loader *L) {
  uint32_t id, first, last;
  WEIR_TRY(index_below(L, 1, "procedure", L->procs, &id));
  WEIR_TRY(need(L, 2, "procedure name"));
  WEIR_TRY(index_below(L, 3, "node", L->nodes, &first));
  WEIR_TRY(index_below(L, 4, "node", L->nodes, &last));
  WEIR_TRY(no_more(L, 5));
  return ifds_builder_proc(&L->b, id, first, last, L->tok[2].text, L->tok[2].length,
                           ifds_line32(L));
}

/* ---- dispatch ------------------------------------------------------------ */

static weir_status after_end(ifds_loader *L) {
  char found[64];
  ifds_quote(found, sizeof found, L->tok[0].text, L->tok[0].length);
  return ifds_load_fail(L, L->line, ifds_col(L, L->tok[0].text), "content after the end line",
                        found, "only comments and blank lines after `end`",
                        "remove the line, or the end line if the file goes on (then correct "
                        "its counts)");
}

static int is_body(const ifds_token *t) {
  return is(t, "edge") || is(t, "call") || is(t, "callee") || is(t, "seed") || is(t, "end");
}

weir_status ifds_load_directive(ifds_loader *L) {
  const ifds_token *t = &L->tok[0];
  if (L->stage == IFDS_STAGE_BODY) return ifds_load_body(L, t);
  if (L->stage == IFDS_STAGE_END) return after_end(L);
  if (L->stage == IFDS_STAGE_MAGIC) {
    const char *want = L->ext ? L->ext->magic : header_names[0];
    if (is(t, want)) return header(L);
    if (is(t, L->ext ? header_names[0] : "weir-ide")) return other_magic(L);
    return misplaced(L);
  }
  if (L->stage == IFDS_STAGE_FACTS && L->ext && !is(t, "facts")) return L->ext->header(L);
  if (L->stage < IFDS_STAGE_PROC) return is(t, header_names[L->stage]) ? header(L) : misplaced(L);
  if (is(t, "proc")) return proc_line(L);
  if (is_body(t)) {
    WEIR_TRY(ifds_builder_close_procs(&L->b));
    L->stage = IFDS_STAGE_BODY;
    return ifds_load_body(L, t);
  }
  return misplaced(L);
}

weir_status ifds_load_number(ifds_loader *L, size_t i, const char *label, uint32_t *out) {
  return number(L, i, label, out);
}
weir_status ifds_load_index(ifds_loader *L, size_t i, const char *label, uint32_t limit,
                            uint32_t *out) {
  return index_below(L, i, label, limit, out);
}
weir_status ifds_load_flow(ifds_loader *L, size_t i, const char *label, uint32_t *out) {
  return flow(L, i, label, out);
}
weir_status ifds_load_no_more(ifds_loader *L, size_t count) { return no_more(L, count); }
weir_status ifds_load_misplaced(ifds_loader *L) { return misplaced(L); }
