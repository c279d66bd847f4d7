/* partialFingerprints: a finding keeps its fingerprint when lines are added
 * or removed above it, so code-scanning services (and --baseline) match it
 * across commits. The hash covers what identifies the finding without its
 * line: the rule, the file relative to the source root, the function and the
 * message (which names the sink and the argument, or the variable). The
 * sources are left out (v2; v1 hashed the source's name): a finding is one
 * per (rule, sink), and a new path to the same sink is the same finding.
 * Two findings with the same hash are told apart by their order in the file
 * (":N"). FNV-1a, 64 bits. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontends/llvm/report/report.h"

static uint64_t mix(uint64_t h, const char *s) {
  for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; ++p) {
    h ^= *p;
    h *= 0x100000001b3ull;
  }
  h ^= 0xff; /* separator: ("ab","c") and ("a","bc") differ */
  h *= 0x100000001b3ull;
  return h;
}

void weir_llvm_fingerprint(const weir_llvm_finding *finding, const char *relative_file, char out[17]) {
  uint64_t h = 0xcbf29ce484222325ull;
  h = mix(h, finding->rule);
  h = mix(h, relative_file);
  h = mix(h, finding->where.function);
  h = mix(h, finding->message);
  snprintf(out, 17, "%016llx", (unsigned long long)h);
}

typedef struct print {
  char text[17];
  size_t index;
} print;

static int cmp_print(const void *a, const void *b) {
  const print *x = a, *y = b;
  int c = strcmp(x->text, y->text);
  return c ? c : (x->index > y->index) - (x->index < y->index);
}

/* The fingerprint of each finding with ":N", N counting the findings with
 * the same hash up to it (findings are in source order). */
weir_status weir_llvm_findings_fingerprints(weir_llvm_findings *findings) {
  size_t n = findings->count;
  char *root = weir_llvm_report_root(findings);
  print *sorted = calloc(n ? n : 1, sizeof *sorted);
  if (!root || !sorted) {
    free(root);
    free(sorted);
    return weir_fail(WEIR_ERR_OUT_OF_MEMORY, "analyze: no memory for the fingerprints of %zu findings. Fix: free "
                     "memory", n);
  }
  for (size_t k = 0; k < n; ++k) {
    const weir_llvm_finding *f = &findings->items[k];
    weir_llvm_text path = {0};
    weir_llvm_path_relative(root, f->where.file, &path);
    weir_llvm_fingerprint(f, path.p && !path.failed ? path.p : f->where.file, sorted[k].text);
    weir_llvm_text_free(&path);
    sorted[k].index = k;
  }
  qsort(sorted, n, sizeof *sorted, cmp_print);
  for (size_t k = 0, run = 0; k < n; ++k) {
    run = k && strcmp(sorted[k - 1].text, sorted[k].text) == 0 ? run + 1 : 1;
    weir_llvm_finding *f = &findings->items[sorted[k].index];
    snprintf(f->fingerprint, sizeof f->fingerprint, "%s:%zu", sorted[k].text, run);
  }
  free(sorted);
  free(root);
  return WEIR_OK;
}
