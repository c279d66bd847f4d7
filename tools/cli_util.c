#include "tools/cli_util.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

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
  int end = argc; /* "--" ends the options: what follows is taken as written */
  for (int i = 0; i < argc && end == argc; ++i)
    if (strcmp(argv[i], "--") == 0) end = i;
  for (int i = 0; i < end; ++i)
    if (strncmp(argv[i], "--", 2) == 0 && strchr(argv[i], '=')) ++count, text += strlen(argv[i]) + 1;
  /* One block: the pointer array, then copies of the split arguments. */
  char **out = malloc((count + 1) * sizeof *out + text);
  if (!out) return NULL;
  char *copy = (char *)(out + count + 1);
  int n = 0;
  for (int i = 0; i < argc; ++i) {
    char *eq = i < end && strncmp(argv[i], "--", 2) == 0 ? strchr(argv[i], '=') : NULL;
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

void weir_cli_exec_helper(const char *prefix, const char *what, const char *name,
                          const char *installed, char **argv) {
  char self[4096];
  ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  char *slash = NULL;
  if (n > 0) {
    self[n] = '\0';
    slash = strrchr(self, '/');
  }
  if (!slash) {
    fprintf(stderr, "%s: cannot find this executable (/proc/self/exe: %s), so not %s (%s) "
            "either. Fix: run %s (libexec/weir) directly with the same arguments.\n",
            prefix, strerror(errno), what, name, name);
    return;
  }
  slash[1] = '\0';
  const char *candidates[] = {name, installed};
  for (size_t i = 0; i < sizeof candidates / sizeof candidates[0]; ++i) {
    char path[4096 + 256];
    snprintf(path, sizeof path, "%s%s", self, candidates[i]);
    if (access(path, X_OK) != 0) continue;
    char *saved = argv[0];
    argv[0] = path;
    fflush(NULL);
    execv(path, argv);
    argv[0] = saved;
    fprintf(stderr, "%s: cannot run %s: %s. Fix: reinstall weir, or rebuild it (cmake "
            "--build).\n", prefix, path, strerror(errno));
    return;
  }
  fprintf(stderr, "%s: %s of this weir, %s, is not next to %sweir nor at %s%s. Fix: reinstall "
          "weir, or rebuild it (cmake --build).\n",
          prefix, what, name, self, self, installed);
}
