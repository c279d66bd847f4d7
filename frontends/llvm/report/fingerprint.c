/* partialFingerprints: a finding keeps its fingerprint when lines are added
 * or removed above it, so code-scanning services match it across commits.
 * The hash covers what identifies the finding without its line: the rule,
 * the file relative to the source root, the function, the message (which
 * names the sink and the argument, or the variable) and the source's name.
 * Two findings with the same hash are told apart by their order in the
 * file (sarif.c appends ":N"). FNV-1a, 64 bits. */
#include <stdio.h>
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
  h = mix(h, finding->has_source ? finding->source_name : "");
  snprintf(out, 17, "%016llx", (unsigned long long)h);
}
