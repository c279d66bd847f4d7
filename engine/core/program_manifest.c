/* weir_program_load: a program file by its extension, and the `.weirprog`
 * manifest (docs/program-files.md), which carries the layout that PTX, cubin
 * and host code cannot describe, and names the code in every format the
 * program has, so that one program runs (and is verified) on every backend. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "engine/core/program_build.h"

#define MAX_CODE 4

typedef struct code_line {
  char kind[8], file[1024], entry[128];
  int line;
} code_line;

static weir_status read_file(const char *path, void **out, size_t *size) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return weir_fail(WEIR_ERR_IO, "cannot open program file '%s': %s. Fix: check the path.", path,
                     strerror(errno));
  char *buf = NULL;
  size_t n = 0, cap = 0;
  for (;;) {
    if (n == cap) {
      char *grown = cap < (256u << 20) ? realloc(buf, cap = cap ? cap * 2 : 65536) : NULL;
      if (!grown) {
        free(buf);
        fclose(f);
        return weir_fail(WEIR_ERR_OUT_OF_MEMORY, "program file '%s' is larger than 256 MiB or "
                         "memory ran out. Fix: check the file.", path);
      }
      buf = grown;
    }
    size_t got = fread(buf + n, 1, cap - n, f);
    n += got;
    if (got == 0) break;
  }
  int err = ferror(f);
  fclose(f);
  if (err) {
    free(buf);
    return weir_fail(WEIR_ERR_IO, "reading program file '%s' failed. Fix: check the file.", path);
  }
  *out = buf;
  *size = n;
  return WEIR_OK;
}

static const char *extension(const char *path) {
  const char *slash = strrchr(path, '/'), *dot = strrchr(path, '.');
  return dot && (!slash || dot > slash) ? dot : "";
}

/* `file` relative to the folder of `base`. */
static void relative_to(const char *base, const char *file, char *out, size_t n) {
  const char *slash = strrchr(base, '/');
  if (file[0] == '/' || !slash)
    snprintf(out, n, "%s", file);
  else
    snprintf(out, n, "%.*s/%s", (int)(slash - base), base, file);
}

static weir_status merr(const char *path, int line, const char *what, const char *fix) {
  return weir_fail(WEIR_ERR_PARSE, "program manifest %s:%d: %s. Fix: %s.", path, line, what, fix);
}

/* A layout line: the caller's declaration, when it has the field, must agree. */
static weir_status layout_value(weir_owned_program *o, uint32_t bit, uint32_t *field, uint32_t v,
                                const char *path, int line, const char *key) {
  if ((o->decl.declared & bit) && *field != v) {
    char what[200];
    snprintf(what, sizeof what, "'%s %u' contradicts the caller's declaration (%u)", key, v, *field);
    return merr(path, line, what, "drop the option or change the manifest");
  }
  *field = v;
  o->decl.declared |= bit;
  return WEIR_OK;
}

static weir_status parse_numbers(const char *text, uint32_t *v, int max, int *n) {
  *n = 0;
  for (const char *p = text; *p && *n < max;) {
    char *end;
    errno = 0;
    unsigned long x = strtoul(p, &end, 0);
    if (end == p || errno || x > UINT32_MAX) return WEIR_ERR_PARSE;
    v[(*n)++] = (uint32_t)x;
    p = *end == ',' ? end + 1 : end;
    if (*end && *end != ',') return WEIR_ERR_PARSE;
  }
  return *n ? WEIR_OK : WEIR_ERR_PARSE;
}

static weir_status parse_layout(weir_owned_program *o, char **tok, int nt, const char *path,
                                int line) {
  uint32_t v[3] = {1, 1, 1};
  int n = 0;
  const char *k = tok[0];
  if (strcmp(k, "name") == 0 && nt == 2) {
    if (!o->name[0]) snprintf(o->name, sizeof o->name, "%s", tok[1]);
    return WEIR_OK;
  }
  if (strcmp(k, "grid") == 0 && nt == 2 && strcmp(tok[1], "none") == 0)
    return layout_value(o, WEIR_DECL_GRID, &o->decl.default_grid_binding, WEIR_NO_BINDING, path,
                        line, "grid none");
  if (strcmp(k, "grid") == 0 && nt == 3 && parse_numbers(tok[1], v, 1, &n) == WEIR_OK &&
      parse_numbers(tok[2], v + 1, 1, &n) == WEIR_OK) {
    o->decl.default_grid_elem_bytes = v[1];
    return layout_value(o, WEIR_DECL_GRID, &o->decl.default_grid_binding, v[0], path, line,
                        "grid");
  }
  if (nt == 2 && (strcmp(k, "bindings") == 0 || strcmp(k, "push") == 0) &&
      parse_numbers(tok[1], v, 1, &n) == WEIR_OK)
    return k[0] == 'b' ? layout_value(o, WEIR_DECL_BINDINGS, &o->decl.binding_count, v[0], path,
                                      line, k)
                       : layout_value(o, WEIR_DECL_PUSH, &o->decl.push_constant_bytes, v[0], path,
                                      line, k);
  if (strcmp(k, "workgroup") == 0 && nt == 2 && parse_numbers(tok[1], v, 3, &n) == WEIR_OK) {
    if ((o->decl.declared & WEIR_DECL_WORKGROUP) && memcmp(o->decl.workgroup_size, v, 12) != 0)
      return merr(path, line, "the workgroup contradicts the caller's declaration",
                  "drop the option or change the manifest");
    memcpy(o->decl.workgroup_size, v, 12);
    o->decl.declared |= WEIR_DECL_WORKGROUP;
    return WEIR_OK;
  }
  return merr(path, line, "unknown or malformed line",
              "lines are: name N | bindings N | push BYTES | workgroup X[,Y[,Z]] | grid BINDING "
              "ELEM_BYTES | grid none | spirv FILE [ENTRY] | ptx FILE ENTRY | cubin FILE ENTRY | "
              "host LIBRARY SYMBOL");
}

static weir_status parse_manifest(weir_owned_program *o, char *text, const char *path,
                                  code_line *code, int *ncode) {
  int line = 0;
  for (char *save = NULL, *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
    ++line;
    char *hash = strchr(l, '#'), *tok[4], *ts = NULL;
    if (hash) *hash = 0;
    int nt = 0;
    for (char *t = strtok_r(l, " \t\r", &ts); t; t = strtok_r(NULL, " \t\r", &ts)) {
      if (nt == 4) return merr(path, line, "too many words", "one key and at most 3 values");
      tok[nt++] = t;
    }
    if (nt == 0) continue;
    int is_code = !strcmp(tok[0], "spirv") || !strcmp(tok[0], "ptx") || !strcmp(tok[0], "cubin") ||
                  !strcmp(tok[0], "host");
    if (!is_code) {
      WEIR_TRY(parse_layout(o, tok, nt, path, line));
      continue;
    }
    if (*ncode == MAX_CODE || nt < 2 || nt > 3 || (tok[0][0] != 's' && nt != 3))
      return merr(path, line, "a code line is KIND FILE ENTRY (spirv: ENTRY optional), at most 4",
                  "write e.g. 'ptx scale.ptx scale_u32'");
    code_line *c = &code[(*ncode)++];
    snprintf(c->kind, sizeof c->kind, "%s", tok[0]);
    relative_to(path, tok[1], c->file, sizeof c->file);
    snprintf(c->entry, sizeof c->entry, "%s", nt == 3 ? tok[2] : "");
    c->line = line;
  }
  if (*ncode == 0)
    return merr(path, line, "no code", "add a spirv, ptx, cubin or host line");
  return WEIR_OK;
}

static weir_status attach(weir_owned_program *o, const code_line *c, const char *entry) {
  const char *e = entry ? entry : c->entry[0] ? c->entry : NULL;
  if (c->kind[0] == 'h') return weir_build_host(o, c->file, e);
  void *bytes = NULL;
  size_t size = 0;
  WEIR_TRY(read_file(c->file, &bytes, &size));
  weir_status st = c->kind[0] == 's' ? weir_build_spirv(o, bytes, size, e)
                                     : weir_build_cuda(o, bytes, size, e, c->kind[0] == 'p');
  free(bytes);
  return st;
}

static weir_status load_manifest(weir_owned_program *o, const char *path, const char *entry,
                                 const char *stem) {
  void *text = NULL;
  size_t size = 0;
  WEIR_TRY(read_file(path, &text, &size));
  char *nul = realloc(text, size + 1);
  if (!nul) {
    free(text);
    return weir_fail(WEIR_ERR_OUT_OF_MEMORY, "no memory for '%s'. Fix: free memory.", path);
  }
  nul[size] = 0;
  code_line code[MAX_CODE];
  int ncode = 0;
  weir_status st = parse_manifest(o, nul, path, code, &ncode);
  free(nul);
  if (!o->name[0]) snprintf(o->name, sizeof o->name, "%s", stem);
  /* SPIR-V first: its reflection fills the layout the other formats need. */
  for (int pass = 0; pass < 2 && st == WEIR_OK; ++pass)
    for (int i = 0; i < ncode && st == WEIR_OK; ++i)
      if ((code[i].kind[0] == 's') == (pass == 0)) {
        st = attach(o, &code[i], entry);
        if (st != WEIR_OK) st = weir_fail_context(st, "program manifest %s:%d", path, code[i].line);
      }
  return st;
}

weir_status weir_program_load(const char *path, const char *entry, const weir_program_decl *decl,
                              weir_program **out) {
  if (!path || !out)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT, "weir_program_load: path or out is NULL. Fix: "
                     "pass both.");
  struct stat info;
  if (stat(path, &info) == 0 && S_ISDIR(info.st_mode))
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "program file '%s' is a directory. Fix: pass a program file in it (.spv, "
                     ".ptx, .cubin, .fatbin, .so or a .weirprog manifest; docs/program-files.md).",
                     path);
  const char *ext = extension(path);
  weir_owned_program *o = NULL;
  WEIR_TRY(weir_build_start(decl, &o));
  /* The file's stem names the program unless the caller or the manifest does. */
  char stem[128];
  const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;
  snprintf(stem, sizeof stem, "%.*s", (int)(strlen(base) - strlen(ext)), base);
  weir_status st;
  if (strcmp(ext, ".weirprog") == 0) {
    st = load_manifest(o, path, entry, stem);
  } else if (strcmp(ext, ".so") == 0) {
    if (!o->name[0]) snprintf(o->name, sizeof o->name, "%s", stem);
    st = weir_build_host(o, path, entry);
  } else if (!strcmp(ext, ".spv") || !strcmp(ext, ".ptx") || !strcmp(ext, ".cubin") ||
             !strcmp(ext, ".fatbin")) {
    if (!o->name[0]) snprintf(o->name, sizeof o->name, "%s", stem);
    code_line c = {.line = 0};
    snprintf(c.kind, sizeof c.kind, "%s", ext + 1);
    snprintf(c.file, sizeof c.file, "%s", path);
    st = attach(o, &c, entry);
  } else {
    st = weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                   "program file '%s': unknown extension '%s'. Fix: use .spv, .ptx, .cubin, "
                   ".fatbin, .so or a .weirprog manifest (docs/program-files.md).", path, ext);
  }
  if (st != WEIR_OK) {
    weir_program_free(&o->program);
    return st;
  }
  return weir_build_finish(o, out);
}
