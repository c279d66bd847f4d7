/* File paths in reports: absolute and lexically normal (from the debug-info
 * directory and file name), then written relative to the source root
 * (--source-root, default the current directory) when they lie inside it. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* realpath */
#endif
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "frontends/llvm/report/report.h"

/* The current directory (allocated), or NULL. */
static char *current_dir(void) {
  size_t size = 256;
  for (int tries = 0; tries < 8; ++tries, size *= 4) {
    char *buffer = malloc(size);
    if (!buffer) return NULL;
    if (getcwd(buffer, size)) return buffer;
    free(buffer);
    if (errno != ERANGE) return NULL;
  }
  return NULL;
}

/* Appends `path` segment by segment to `out` (which holds an absolute
 * prefix), dropping "." and empty segments and resolving ".." lexically. */
static void append_segments(char *out, size_t *n, const char *path) {
  while (*path) {
    while (*path == '/') ++path;
    size_t length = strcspn(path, "/");
    if (length == 0) break;
    if (length == 1 && path[0] == '.') {
      /* nothing */
    } else if (length == 2 && path[0] == '.' && path[1] == '.') {
      while (*n > 1 && out[*n - 1] != '/') --*n;
      if (*n > 1) --*n; /* the slash, except the root's */
    } else {
      if (*n > 1) out[(*n)++] = '/';
      memcpy(out + *n, path, length);
      *n += length;
    }
    path += length;
  }
  out[*n] = 0;
}

char *weir_llvm_path_join(const char *dir, const char *path) {
  char *cwd = NULL;
  const char *base = "";
  if (path[0] != '/') {
    if (dir && dir[0] == '/') base = dir;
    else {
      cwd = current_dir();
      if (!cwd) return NULL;
      base = cwd; /* a relative `dir` is relative to the current directory */
    }
  }
  const char *middle = path[0] != '/' && dir && dir[0] && dir[0] != '/' ? dir : "";
  size_t cap = strlen(base) + strlen(middle) + strlen(path) + 4;
  char *out = malloc(cap);
  if (out) {
    size_t n = 1;
    out[0] = '/';
    out[1] = 0;
    append_segments(out, &n, base);
    append_segments(out, &n, middle);
    append_segments(out, &n, path);
  }
  free(cwd);
  return out;
}

/* The part of `file` below `root`, or NULL. */
static const char *below(const char *root, const char *file) {
  size_t length = strlen(root);
  if (length == 1 && root[0] == '/') return file[0] == '/' && file[1] ? file + 1 : NULL;
  if (strncmp(file, root, length) != 0 || file[length] != '/' || !file[length + 1]) return NULL;
  return file + length + 1;
}

int weir_llvm_path_relative(const char *root, const char *file, weir_llvm_text *out) {
  char *absolute = weir_llvm_path_join(NULL, file);
  const char *path = absolute ? absolute : file;
  const char *rest = root ? below(root, path) : NULL;
  char *real = NULL;
  if (!rest && root && absolute) {
    /* The debug info may name the file through a symbolic link. */
    real = realpath(absolute, NULL);
    rest = real ? below(root, real) : NULL;
  }
  if (rest) weir_llvm_text_put(out, rest, strlen(rest));
  else weir_llvm_text_put(out, path, strlen(path));
  free(real);
  free(absolute);
  return rest != NULL;
}

char *weir_llvm_report_root(const weir_llvm_findings *findings) {
  if (findings->source_root) {
    int failed = 0;
    return weir_llvm_strndup(findings->source_root, strlen(findings->source_root), &failed);
  }
  char *cwd = current_dir();
  if (!cwd) return NULL;
  char *root = weir_llvm_path_join(NULL, cwd);
  free(cwd);
  return root;
}

weir_status weir_llvm_findings_set_root(weir_llvm_findings *findings, const char *dir) {
  free(findings->source_root);
  findings->source_root = NULL;
  if (!dir) return weir_llvm_findings_fingerprints(findings);
  struct stat st;
  int rc = stat(dir, &st), error = rc != 0 ? errno : 0;
  if (rc != 0 || !S_ISDIR(st.st_mode))
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "analyze: the source root '%s' is not a directory (%s). Fix: give --source-root "
                     "the directory the SARIF paths should be relative to (usually the checkout)",
                     dir, error ? strerror(error) : "not a directory");
  char *real = realpath(dir, NULL);
  findings->source_root = real ? weir_llvm_path_join(NULL, real) : weir_llvm_path_join(NULL, dir);
  free(real);
  if (!findings->source_root)
    return weir_fail(WEIR_ERR_OUT_OF_MEMORY, "analyze: no memory for the source root '%s'. Fix: free memory",
                     dir);
  return weir_llvm_findings_fingerprints(findings); /* they hold the path relative to the root */
}
