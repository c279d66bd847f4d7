#include "tools/cli_util.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int weir_cli_exit_code(weir_status status) {
  switch (status) {
    case WEIR_OK: return 0;
    case WEIR_ERR_PARSE:
    case WEIR_ERR_INVALID_ARGUMENT:
    case WEIR_ERR_OUT_OF_RANGE: return 2;
    default: return 1;
  }
}

int weir_cli_report(const char *command, weir_status status) {
  if (status != WEIR_OK) fprintf(stderr, "weir %s: %s\n", command, weir_last_error());
  return weir_cli_exit_code(status);
}

int weir_cli_parse_u64(const char *text, uint64_t *out) {
  if (!text || !isdigit((unsigned char)text[0])) return -1;
  errno = 0;
  char *end = NULL;
  unsigned long long v = strtoull(text, &end, 10);
  if (errno || *end) return -1;
  *out = v;
  return 0;
}

int weir_cli_parse_size(const char *text, uint64_t *out) {
  if (!text || !isdigit((unsigned char)text[0])) return -1;
  errno = 0;
  char *end = NULL;
  unsigned long long v = strtoull(text, &end, 10);
  if (errno) return -1;
  uint64_t mult = 1;
  if (*end == 'K' || *end == 'k') mult = 1024ull, ++end;
  else if (*end == 'M' || *end == 'm') mult = 1024ull * 1024, ++end;
  else if (*end == 'G' || *end == 'g') mult = 1024ull * 1024 * 1024, ++end;
  if (mult != 1 && (strcmp(end, "iB") == 0 || strcmp(end, "B") == 0)) end += strlen(end);
  if (*end) return -1;
  if (v > UINT64_MAX / mult) return -1;
  *out = v * mult;
  return 0;
}

char **weir_cli_split_options(int argc, char **argv, int *out_argc) {
  size_t count = (size_t)argc, text = 0;
  for (int i = 0; i < argc; ++i)
    if (strncmp(argv[i], "--", 2) == 0 && strchr(argv[i], '=')) ++count, text += strlen(argv[i]) + 1;
  /* One block: the pointer array, then copies of the split arguments. */
  char **out = malloc((count + 1) * sizeof *out + text);
  if (!out) return NULL;
  char *copy = (char *)(out + count + 1);
  int n = 0;
  for (int i = 0; i < argc; ++i) {
    char *eq = strncmp(argv[i], "--", 2) == 0 ? strchr(argv[i], '=') : NULL;
    if (!eq) {
      out[n++] = argv[i];
      continue;
    }
    size_t len = strlen(argv[i]);
    memcpy(copy, argv[i], len + 1);
    copy[eq - argv[i]] = '\0';
    out[n++] = copy;
    out[n++] = copy + (eq - argv[i]) + 1;
    copy += len + 1;
  }
  out[n] = NULL;
  *out_argc = n;
  return out;
}

double weir_cli_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}
