/* What a declaration must hold before anything of it is called: the ABI
 * version first (a plugin of another version may have another layout), then
 * the id, the required callbacks, the fact kinds and the rules. Strings are
 * measured with a bound: a plugin's fields are not trusted to end. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontends/llvm/api/api.h"

#define ID_MAX 63

static int id_char(char c, int dot) {
  return isalnum((unsigned char)c) || c == '-' || c == '_' || (dot && c == '.');
}

/* A name of letters, digits, '-', '_' (and '.' when `dot`), 1..ID_MAX long. */
static weir_status check_name(const char *name, int dot, const char *origin, const char *what) {
  if (!name || !name[0])
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT, "analysis %s: %s is missing. Fix: set it in the weir_analysis "
                     "declaration (include/weir/analysis.h)", origin, what);
  size_t n = strnlen(name, ID_MAX + 1);
  if (n > ID_MAX)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT, "analysis %s: %s '%.*s...' is longer than %d characters. Fix: "
                     "use a shorter one", origin, what, ID_MAX, name, ID_MAX);
  for (size_t k = 0; k < n; ++k)
    if (!id_char(name[k], dot))
      return weir_fail(WEIR_ERR_INVALID_ARGUMENT, "analysis %s: %s '%s' has character 0x%02x at %zu. Fix: use "
                       "letters, digits, '-' and '_'%s", origin, what, name, (unsigned char)name[k], k,
                       dot ? " and '.'" : "");
  return WEIR_OK;
}

/* The flags a kind of `domain` may have (analysis.h: FOLLOW on values and
 * locations, LIVENESS on values, WRITABLE_ONLY on locations): others would
 * be ignored silently. */
static uint32_t allowed_flags(weir_fact_domain domain) {
  return domain == WEIR_FACT_PER_VALUE      ? WEIR_FACT_FOLLOW | WEIR_FACT_LIVENESS
         : domain == WEIR_FACT_PER_LOCATION ? WEIR_FACT_FOLLOW | WEIR_FACT_WRITABLE_ONLY
                                            : 0;
}

static weir_status check_flags(const weir_fact_kind *f, uint32_t k, const char *origin) {
  static const char *const domains[] = {"WEIR_FACT_PER_VALUE", "WEIR_FACT_PER_LOCATION", "WEIR_FACT_PER_RETURN",
                                        "WEIR_FACT_CUSTOM"};
  uint32_t extra = f->flags & ~allowed_flags(f->domain);
  if (!extra) return WEIR_OK;
  int known = !(extra & ~(uint32_t)(WEIR_FACT_FOLLOW | WEIR_FACT_WRITABLE_ONLY | WEIR_FACT_LIVENESS));
  return weir_fail(WEIR_ERR_INVALID_ARGUMENT, "analysis %s: fact kind %u ('%s') has flags 0x%x: 0x%x %s %s. Fix: "
                   "use WEIR_FACT_FOLLOW on PER_VALUE and PER_LOCATION kinds, WEIR_FACT_LIVENESS on PER_VALUE "
                   "kinds, WEIR_FACT_WRITABLE_ONLY on PER_LOCATION kinds, nothing else", origin, k, f->name, f->flags, extra,
                   known ? "is not for a kind of" : "is no WEIR_FACT_* flag of", known ? domains[f->domain] :
                   "include/weir/analysis.h");
}

static weir_status check_kinds(const weir_analysis *d, const char *origin) {
  if (!d->kinds || d->kind_count == 0 || d->kind_count > WEIR_LLVM_API_MAX_KINDS)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT, "analysis %s: %u fact kinds (kinds %s). Fix: declare 1 to %u "
                     "weir_fact_kind entries", origin, d->kind_count, d->kinds ? "set" : "NULL",
                     WEIR_LLVM_API_MAX_KINDS);
  for (uint32_t k = 0; k < d->kind_count; ++k) {
    const weir_fact_kind *f = &d->kinds[k];
    if (!f->name || (unsigned)f->domain > (unsigned)WEIR_FACT_CUSTOM)
      return weir_fail(WEIR_ERR_INVALID_ARGUMENT, "analysis %s: fact kind %u has %s. Fix: give it a name and a "
                       "weir_fact_domain (0..3)", origin, k, f->name ? "an unknown domain" : "no name");
    WEIR_TRY(check_flags(f, k, origin));
    int follows = f->domain == WEIR_FACT_PER_VALUE && (f->flags & WEIR_FACT_FOLLOW);
    if (follows && f->link != WEIR_ANALYSIS_NO_KIND &&
        (f->link >= d->kind_count || d->kinds[f->link].domain != WEIR_FACT_PER_RETURN))
      return weir_fail(WEIR_ERR_INVALID_ARGUMENT, "analysis %s: fact kind %u ('%s') links kind %u, which is not a "
                       "WEIR_FACT_PER_RETURN kind of the %u declared. Fix: set link to the index of the return "
                       "kind, or WEIR_ANALYSIS_NO_KIND", origin, k, f->name, f->link, d->kind_count);
  }
  return WEIR_OK;
}

/* cwe: the number alone ("532"; SARIF writes CWE-532 and the taxonomy's
 * URL from it), 1 to 7 digits. */
static weir_status check_cwe(const weir_analysis_rule *rule, const char *origin) {
  if (!rule->cwe) return WEIR_OK;
  size_t n = strnlen(rule->cwe, 8);
  int digits = n >= 1 && n <= 7 && rule->cwe[0] != '0';
  for (size_t k = 0; k < n && digits; ++k) digits = isdigit((unsigned char)rule->cwe[k]);
  if (digits) return WEIR_OK;
  return weir_fail(WEIR_ERR_INVALID_ARGUMENT, "analysis %s: rule '%s' has cwe '%.16s', not a CWE number. Fix: "
                   "write the number alone (\"532\" for CWE-532), or NULL", origin, rule->id, rule->cwe);
}

/* security_severity: a decimal number 0.0 .. 10.0 ("5.5"), which SARIF
 * readers (GitHub code scanning) parse as such. */
static weir_status check_score(const weir_analysis_rule *rule, const char *origin) {
  const char *t = rule->security_severity;
  if (!t) return WEIR_OK;
  size_t n = strnlen(t, 8), dots = 0, other = 0;
  for (size_t k = 0; k < n; ++k) {
    if (t[k] == '.') ++dots;
    else if (!isdigit((unsigned char)t[k])) ++other;
  }
  int shape = n >= 1 && n < 8 && !other && dots <= 1 && isdigit((unsigned char)t[0]) &&
              isdigit((unsigned char)t[n - 1]);
  double value = shape ? strtod(t, NULL) : -1.0;
  if (value >= 0.0 && value <= 10.0) return WEIR_OK;
  return weir_fail(WEIR_ERR_INVALID_ARGUMENT, "analysis %s: rule '%s' has security_severity '%.16s', not a "
                   "number from 0.0 to 10.0. Fix: write a score like \"5.5\", or NULL (7.0, 5.0 or 2.0 by "
                   "severity)", origin, rule->id, t);
}

static weir_status check_rules(const weir_analysis *d, const char *origin) {
  if (!d->rules || d->rule_count == 0 || d->rule_count > WEIR_LLVM_API_MAX_RULES)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT, "analysis %s: %u rules (rules %s). Fix: declare 1 to %u "
                     "weir_analysis_rule entries", origin, d->rule_count, d->rules ? "set" : "NULL",
                     WEIR_LLVM_API_MAX_RULES);
  for (uint32_t r = 0; r < d->rule_count; ++r) {
    const weir_analysis_rule *rule = &d->rules[r];
    char what[64];
    snprintf(what, sizeof what, "rule %u's id", r);
    WEIR_TRY(check_name(rule->id, 1, origin, what));
    if (!rule->name || !rule->short_description || (unsigned)rule->severity > (unsigned)WEIR_SEVERITY_NOTE)
      return weir_fail(WEIR_ERR_INVALID_ARGUMENT, "analysis %s: rule '%s' has no %s. Fix: fill name, "
                       "short_description and a weir_severity", origin, rule->id,
                       !rule->name ? "name" : !rule->short_description ? "short_description" : "known severity");
    WEIR_TRY(check_cwe(rule, origin));
    WEIR_TRY(check_score(rule, origin));
    for (uint32_t s = 0; s < r; ++s)
      if (strcmp(d->rules[s].id, rule->id) == 0)
        return weir_fail(WEIR_ERR_INVALID_ARGUMENT, "analysis %s: rules %u and %u are both '%s'. Fix: give each "
                         "rule an id of its own", origin, s, r, rule->id);
  }
  return WEIR_OK;
}

static weir_status validate(const weir_analysis *d, const char *origin, int builtin) {
  if (!d)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT, "analysis %s: %s() returned NULL. Fix: return a pointer to a "
                     "static weir_analysis", origin, WEIR_ANALYSIS_ENTRY_NAME);
  if (d->abi_version != WEIR_ANALYSIS_ABI_VERSION)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT, "analysis %s: analysis ABI version %u, this weir-analyze has %u. Fix: "
                     "rebuild the plugin against this weir's include/weir/analysis.h", origin, d->abi_version,
                     WEIR_ANALYSIS_ABI_VERSION);
  WEIR_TRY(check_name(d->id, 0, origin, "id"));
  if (!builtin && (strcmp(d->id, "taint") == 0 || strcmp(d->id, "uninit") == 0 || strcmp(d->id, "uaf") == 0 ||
      strcmp(d->id, "plugin") == 0))
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT, "analysis %s: its id '%s' is a built-in analysis' name. Fix: "
                     "give the plugin an id of its own (e.g. 'my-%s')", origin, d->id, d->id);
  if (!d->check)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT, "analysis %s ('%s'): the check callback is missing. Fix: set "
                     "weir_analysis.check (where findings may be)", origin, d->id);
  WEIR_TRY(check_kinds(d, origin));
  return check_rules(d, origin);
}

weir_status weir_llvm_api_validate(const weir_analysis *d, const char *origin) { return validate(d, origin, 0); }

weir_status weir_llvm_api_validate_builtin(const weir_analysis *d, const char *origin) {
  return validate(d, origin, 1);
}
