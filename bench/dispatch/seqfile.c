/* Parser of sequence files (format: bench/README.md). Everything that can be
 * checked without a backend is checked here, with the file name and line in
 * the message: names, sizes, bindings against the program's declaration,
 * push-constant counts, read ranges, the repeat block's shape. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/dispatch/seqfile.h"

#define MAX_TOKENS 64

typedef struct parser {
  weir_bench_seqfile *file;
  const char *path;
  int line;
  int in_repeat, repeat_closed;
  char *tok[MAX_TOKENS];
  int ntok;
  uint64_t max_bytes;    /* most bytes of buffers the file may declare in all */
  uint64_t buffer_bytes; /* declared so far */
  int allow_programs;    /* `program` lines load files (not from memory: the fuzzer) */
} parser;

/* Host memory a file's buffers may take when the caller sets no bound: every
 * buffer has host copies (initial contents, reference, read-back), so sizes
 * past the machine's physical memory can never run; refusing them here beats
 * a calloc that "succeeds" and a process killed while filling it. */
static uint64_t host_memory(void) {
  long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  return pages > 0 && page > 0 ? (uint64_t)pages * (uint64_t)page : UINT64_MAX;
}

static weir_status perr(const parser *p, const char *what, const char *fix) {
  return weir_fail(WEIR_ERR_PARSE, "bench file %s:%d: %s. Fix: %s", p->path, p->line, what, fix);
}

static int find_buffer(const weir_bench_seqfile *f, const char *name) {
  for (size_t i = 0; i < f->buffer_count; ++i)
    if (strcmp(f->buffers[i].name, name) == 0) return (int)i;
  return -1;
}

static weir_status parse_size(parser *p, const char *text, uint64_t *out) {
  if (weir_bench_parse_size(text, "size", out) != WEIR_OK || *out == 0)
    return perr(p, "a size must be a positive number of bytes (4096, 64K, 16M)",
                "write the size as digits with an optional K, M or G suffix");
  return WEIR_OK;
}

/* A push value: a number, words(NAME) = NAME's size / 4, or bytes(NAME). */
static weir_status parse_value(parser *p, const char *text, uint32_t *out) {
  int words = strncmp(text, "words(", 6) == 0, bytes = strncmp(text, "bytes(", 6) == 0;
  if (words || bytes) {
    char name[SEQ_MAX_NAME];
    size_t len = strlen(text);
    if (text[len - 1] != ')' || len - 7 >= sizeof name)
      return perr(p, "words(NAME) / bytes(NAME) must close with ')'", "write words(data)");
    memcpy(name, text + 6, len - 7);
    name[len - 7] = 0;
    int b = find_buffer(p->file, name);
    if (b < 0) return perr(p, "words()/bytes() names an undeclared buffer", "declare it above");
    uint64_t v = p->file->buffers[b].bytes / (words ? 4 : 1);
    if (v > UINT32_MAX)
      return perr(p, "the buffer size does not fit in 32 bits", "use a smaller buffer");
    *out = (uint32_t)v;
    return WEIR_OK;
  }
  if (weir_bench_parse_u32(text, "push value", out) != WEIR_OK)
    return perr(p, "a push value must be a 32-bit number, words(NAME) or bytes(NAME)",
                "write decimal or 0x-hex values");
  return WEIR_OK;
}

void weir_bench_resolve_path(const char *base, const char *rel, char *out, size_t n) {
  const char *slash = strrchr(base, '/');
  if (rel[0] == '/' || !slash)
    snprintf(out, n, "%s", rel);
  else
    snprintf(out, n, "%.*s/%s", (int)(slash - base), base, rel);
}

static weir_status load_file_contents(parser *p, seq_buffer *b, const char *rel) {
  char full[4096];
  weir_bench_resolve_path(p->path, rel, full, sizeof full);
  FILE *in = fopen(full, "rb");
  if (!in)
    return weir_fail(WEIR_ERR_IO,
                     "bench file %s:%d: cannot open '%s': %s. Fix: paths are "
                     "relative to the sequence file's folder.",
                     p->path, p->line, full, strerror(errno));
  size_t got = fread(b->initial, 1, (size_t)b->bytes, in);
  int extra = fgetc(in) != EOF, bad = ferror(in);
  fclose(in);
  if (bad)
    return weir_fail(WEIR_ERR_IO, "bench file %s:%d: reading '%s' failed. Fix: check the file.",
                     p->path, p->line, full);
  if (extra)
    return weir_fail(WEIR_ERR_PARSE,
                     "bench file %s:%d: '%s' is longer than buffer '%s' "
                     "(%llu bytes). Fix: make the buffer at least as large as the file.",
                     p->path, p->line, full, b->name, (unsigned long long)b->bytes);
  (void)got; /* a shorter file leaves the rest zero */
  return WEIR_OK;
}

static weir_status parse_buffer(parser *p) {
  weir_bench_seqfile *f = p->file;
  if (p->ntok < 3)
    return perr(p, "'buffer' needs a name and a size", "write: buffer data 64K zero");
  if (p->in_repeat || f->step_count)
    return perr(p, "buffers must come before the steps", "move the buffer line up");
  if (f->buffer_count == SEQ_MAX_BUFFERS)
    return perr(p, "more than 256 buffers", "use fewer buffers");
  if (strlen(p->tok[1]) >= SEQ_MAX_NAME || find_buffer(f, p->tok[1]) >= 0)
    return perr(p, "buffer names must be unique and shorter than 64 characters",
                "rename the buffer");
  seq_buffer *b = &f->buffers[f->buffer_count];
  snprintf(b->name, sizeof b->name, "%s", p->tok[1]);
  WEIR_TRY(parse_size(p, p->tok[2], &b->bytes));
  if (b->bytes > p->max_bytes - p->buffer_bytes)
    return weir_fail(WEIR_ERR_OUT_OF_MEMORY,
                     "bench file %s:%d: buffer '%s' of %llu bytes takes the file's buffers past "
                     "%llu bytes (%llu declared before it), more than %s. Fix: use smaller "
                     "buffers.",
                     p->path, p->line, b->name, (unsigned long long)b->bytes,
                     (unsigned long long)p->max_bytes, (unsigned long long)p->buffer_bytes,
                     p->max_bytes == host_memory() ? "this machine's memory" : "the caller allows");
  p->buffer_bytes += b->bytes;
  b->initial = b->bytes <= SIZE_MAX ? calloc(1, (size_t)b->bytes) : NULL;
  if (!b->initial)
    return weir_fail(WEIR_ERR_OUT_OF_MEMORY,
                     "bench file %s:%d: %llu bytes of host memory for "
                     "buffer '%s'. Fix: use a smaller buffer.",
                     p->path, p->line, (unsigned long long)b->bytes, b->name);
  ++f->buffer_count;
  const char *kind = p->ntok > 3 ? p->tok[3] : "zero";
  uint32_t v = 0, *w = b->initial;
  if (strcmp(kind, "zero") == 0 && p->ntok <= 4) return WEIR_OK;
  if ((strcmp(kind, "pattern") == 0 && p->ntok <= 5) ||
      (strcmp(kind, "value") == 0 && p->ntok == 5)) {
    if (p->ntok == 5) WEIR_TRY(parse_value(p, p->tok[4], &v));
    int pattern = kind[0] == 'p';
    for (uint64_t i = 0; i < b->bytes / 4; ++i) w[i] = pattern ? v + (uint32_t)i : v;
    return WEIR_OK;
  }
  if (strcmp(kind, "file") == 0 && p->ntok == 5) return load_file_contents(p, b, p->tok[4]);
  return perr(p, "initial contents must be: zero | pattern [SEED] | value V | file PATH",
              "write e.g. 'buffer data 64K pattern 0'");
}

static weir_status parse_grid(parser *p, const char *text, weir_grid *g) {
  uint32_t v[3] = {1, 1, 1};
  char copy[64];
  snprintf(copy, sizeof copy, "%s", text);
  int n = 0;
  for (char *save = NULL, *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
    if (n == 3 || weir_bench_parse_u32(t, "grid", &v[n]) != WEIR_OK || v[n] == 0)
      return perr(p, "a grid is 1 to 3 positive counts X[,Y[,Z]]",
                  "write e.g. 'grid 16' or 'grid 4,4,1'");
    ++n;
  }
  *g = (weir_grid){v[0], v[1], v[2]};
  return WEIR_OK;
}

static weir_status new_step(parser *p, seq_step **out) {
  weir_bench_seqfile *f = p->file;
  if (p->repeat_closed)
    return perr(p,
                "steps after 'end': a file runs its prefix, then one repeated group, "
                "behind one synchronization",
                "move the step before 'repeat' or inside the group");
  if (f->step_count == f->step_cap) {
    size_t cap = f->step_cap ? f->step_cap * 2 : 16;
    seq_step *grown = realloc(f->steps, cap * sizeof *grown);
    if (!grown) return perr(p, "out of host memory for steps", "use fewer steps");
    f->steps = grown;
    f->step_cap = cap;
  }
  *out = &f->steps[f->step_count++];
  memset(*out, 0, sizeof **out);
  (*out)->line = p->line;
  if (!p->in_repeat) f->prefix_count = f->step_count;
  return WEIR_OK;
}

static const weir_program *find_program(const weir_bench_seqfile *f, const char *name) {
  for (size_t i = 0; i < f->program_count; ++i)
    if (strcmp(f->programs[i]->name, name) == 0) return f->programs[i];
  return weir_builtin_program(name);
}

/* program NAME FILE[:ENTRY] [workgroup X[,Y[,Z]]]: FILE relative to this file;
 * a .spv is reflected and the workgroup checked against it. */
static weir_status parse_program(parser *p) {
  weir_bench_seqfile *f = p->file;
  if (!p->allow_programs)
    return perr(p, "'program' lines are read from files only", "use weir_bench_seqfile_load");
  if ((p->ntok != 3 && p->ntok != 5) || (p->ntok == 5 && strcmp(p->tok[3], "workgroup")))
    return perr(p, "'program' takes NAME FILE[:ENTRY] [workgroup X[,Y[,Z]]]",
                "write: program scale scale.spv workgroup 64");
  if (f->program_count == SEQ_MAX_PROGRAMS) return perr(p, "more than 16 programs", "use fewer");
  if (find_program(f, p->tok[1]))
    return perr(p, "a program of that name exists already", "choose another name");
  weir_program_decl d = {.name = p->tok[1]};
  if (p->ntok == 5) {
    weir_grid g;
    WEIR_TRY(parse_grid(p, p->tok[4], &g));
    d.declared = WEIR_DECL_WORKGROUP;
    d.workgroup_size[0] = g.x, d.workgroup_size[1] = g.y, d.workgroup_size[2] = g.z;
  }
  char path[4096], *colon;
  weir_bench_resolve_path(p->path, p->tok[2], path, sizeof path);
  const char *entry = NULL;
  colon = strrchr(path, ':');
  if (colon && !strchr(colon, '/')) *colon = 0, entry = colon + 1;
  weir_status st = weir_program_load(path, entry, &d, &f->programs[f->program_count]);
  if (st != WEIR_OK) return weir_fail_context(st, "bench file %s:%d", p->path, p->line);
  ++f->program_count;
  return WEIR_OK;
}

/* step PROGRAM [BUFFER ...] [grid X[,Y[,Z]]] [push V ...] */
static weir_status parse_step(parser *p) {
  if (p->ntok < 2)
    return perr(p, "'step' needs a program name", "write: step add_u32 data push 1 words(data)");
  seq_step *s = NULL;
  WEIR_TRY(new_step(p, &s));
  s->declared = find_program(p->file, p->tok[1]);
  if (!s->declared)
    return perr(p, "unknown program",
                "use a built-in program (noop, fill_u32, copy_u32, add_u32, "
                "counter_u32, atomic_add_u32) or declare it with 'program NAME FILE' above");
  int i = 2;
  for (; i < p->ntok && strcmp(p->tok[i], "grid") && strcmp(p->tok[i], "push"); ++i) {
    int b = find_buffer(p->file, p->tok[i]);
    if (b < 0)
      return perr(p, "a binding names an undeclared buffer", "declare it with 'buffer' above");
    if (s->binding_count == WEIR_MAX_BINDINGS)
      return perr(p, "more than 16 bindings", "bind fewer buffers");
    s->bindings[s->binding_count++] = (uint32_t)b;
  }
  for (; i < p->ntok; ++i) {
    if (strcmp(p->tok[i], "grid") == 0 && i + 1 < p->ntok) {
      WEIR_TRY(parse_grid(p, p->tok[++i], &s->grid));
    } else if (strcmp(p->tok[i], "push") == 0) {
      for (++i; i < p->ntok && strcmp(p->tok[i], "grid"); ++i) {
        char *save = NULL;
        for (char *t = strtok_r(p->tok[i], ",", &save); t; t = strtok_r(NULL, ",", &save)) {
          if (s->push_words == WEIR_BENCH_MAX_PUSH_WORDS)
            return perr(p, "more than 32 push values", "give fewer");
          WEIR_TRY(parse_value(p, t, &s->push[s->push_words++]));
        }
      }
      --i;
    } else {
      return perr(p, "expected 'grid X[,Y[,Z]]' or 'push V ...' after the bindings",
                  "check the step line");
    }
  }
  if (s->binding_count != s->declared->binding_count ||
      s->push_words * 4 != s->declared->push_constant_bytes) {
    char what[160];
    snprintf(what, sizeof what,
             "program %s takes %u bindings and %u push values; the step gives %u and %u",
             s->declared->name, s->declared->binding_count, s->declared->push_constant_bytes / 4,
             s->binding_count, s->push_words);
    return perr(p, what, "match the program's layout (bench/README.md lists them)");
  }
  return WEIR_OK;
}

/* read NAME [OFFSET BYTES] */
static weir_status parse_read(parser *p) {
  weir_bench_seqfile *f = p->file;
  if (p->ntok != 2 && p->ntok != 4)
    return perr(p, "'read' takes NAME or NAME OFFSET BYTES", "write: read data 0 4K");
  if (p->in_repeat) return perr(p, "'read' inside a repeat group", "put reads after 'end'");
  if (f->read_count == SEQ_MAX_READS) return perr(p, "more than 256 reads", "read fewer ranges");
  int b = find_buffer(f, p->tok[1]);
  if (b < 0) return perr(p, "'read' names an undeclared buffer", "declare it with 'buffer'");
  seq_read *r = &f->reads[f->read_count];
  r->buffer = (uint32_t)b;
  r->offset = 0;
  r->bytes = f->buffers[b].bytes;
  if (p->ntok == 4) {
    if (weir_bench_parse_size(p->tok[2], "offset", &r->offset) != WEIR_OK)
      return perr(p, "bad read offset", "write a byte count such as 0 or 4K");
    WEIR_TRY(parse_size(p, p->tok[3], &r->bytes));
    if (r->offset > f->buffers[b].bytes || r->bytes > f->buffers[b].bytes - r->offset)
      return perr(p, "the read range runs past the end of the buffer",
                  "read inside the buffer's size");
  }
  f->outputs[f->read_count] = malloc((size_t)r->bytes);
  f->reference[f->read_count] = malloc((size_t)r->bytes);
  ++f->read_count;
  if (!f->outputs[f->read_count - 1] || !f->reference[f->read_count - 1])
    return perr(p, "out of host memory for the read-back", "read a smaller range");
  return WEIR_OK;
}

static weir_status parse_line(parser *p) {
  const char *k = p->tok[0];
  weir_bench_seqfile *f = p->file;
  if (strcmp(k, "buffer") == 0) return parse_buffer(p);
  if (strcmp(k, "step") == 0) return parse_step(p);
  if (strcmp(k, "program") == 0) return parse_program(p);
  if (strcmp(k, "read") == 0) return parse_read(p);
  if (strcmp(k, "repeat") == 0) {
    if (p->ntok != 2 || f->has_repeat)
      return perr(p, "one 'repeat K' block per file", "merge the groups");
    f->has_repeat = 1;
    p->in_repeat = 1;
    f->prefix_count = f->step_count;
    uint32_t k32;
    if (weir_bench_parse_u32(p->tok[1], "repeat", &k32) != WEIR_OK)
      return perr(p, "bad repeat count", "write: repeat 100");
    f->repeat = k32;
    return WEIR_OK;
  }
  if (strcmp(k, "end") == 0) {
    if (!p->in_repeat || p->ntok != 1)
      return perr(p, "'end' without 'repeat'", "remove it or add 'repeat K' above");
    if (f->step_count == f->prefix_count)
      return perr(p, "an empty repeat group", "put steps between 'repeat' and 'end'");
    p->in_repeat = 0;
    p->repeat_closed = 1;
    return WEIR_OK;
  }
  return perr(p, "unknown keyword", "lines start with buffer, program, step, repeat, end or read");
}

static void tokenize(parser *p, char *line) {
  char *hash = strchr(line, '#');
  if (hash) *hash = 0;
  p->ntok = 0;
  char *save = NULL;
  for (char *t = strtok_r(line, " \t\r\n", &save); t && p->ntok < MAX_TOKENS;
       t = strtok_r(NULL, " \t\r\n", &save))
    p->tok[p->ntok++] = t;
}

static weir_status parse_stream(parser *p, FILE *in) {
  char line[4096];
  while (fgets(line, sizeof line, in)) {
    ++p->line;
    if (!strchr(line, '\n') && !feof(in))
      return perr(p, "line longer than 4095 characters", "split it");
    tokenize(p, line);
    if (p->ntok) WEIR_TRY(parse_line(p));
  }
  if (p->in_repeat)
    return perr(p, "'repeat' without 'end' at the end of the file", "close the group with 'end'");
  if (p->file->step_count == 0) return perr(p, "no steps", "add at least one 'step' line");
  return WEIR_OK;
}

/* Parses an open stream; `path` names it in messages and anchors `file` paths. */
static weir_status load_stream(const char *path, FILE *in, uint64_t max_bytes, int allow_programs,
                               weir_bench_seqfile **out) {
  weir_bench_seqfile *f = calloc(1, sizeof *f);
  if (!f)
    return weir_fail(WEIR_ERR_OUT_OF_MEMORY, "no host memory for '%s'. Fix: free memory.",
                     path);
  const char *slash = strrchr(path, '/');
  snprintf(f->name, sizeof f->name, "%s", slash ? slash + 1 : path);
  parser p = {.file = f, .path = path, .max_bytes = max_bytes ? max_bytes : host_memory(),
              .allow_programs = allow_programs};
  weir_status st = parse_stream(&p, in);
  if (st != WEIR_OK) {
    weir_bench_seqfile_free(f);
    return st;
  }
  if (!f->has_repeat) f->prefix_count = f->step_count;
  *out = f;
  return WEIR_OK;
}

weir_status weir_bench_seqfile_load(const char *path, weir_bench_seqfile **out) {
  *out = NULL;
  FILE *in = fopen(path, "r");
  if (!in)
    return weir_fail(WEIR_ERR_IO,
                     "cannot open sequence file '%s': %s. Fix: check the "
                     "path (bench/README.md shows an example file).",
                     path, strerror(errno));
  weir_status st = load_stream(path, in, 0, 1, out);
  fclose(in);
  return st;
}

weir_status weir_bench_seqfile_parse(const char *name, const char *text, size_t length,
                                     uint64_t max_bytes, weir_bench_seqfile **out) {
  *out = NULL;
  if (length == 0)
    return weir_fail(WEIR_ERR_PARSE, "bench file %s: empty. Fix: add buffer and step lines "
                     "(bench/README.md).", name);
  FILE *in = fmemopen((void *)text, length, "r");
  if (!in)
    return weir_fail(WEIR_ERR_OUT_OF_MEMORY, "no host memory to read '%s'. Fix: free memory.",
                     name);
  weir_status st = load_stream(name, in, max_bytes, 0, out);
  fclose(in);
  return st;
}

void weir_bench_seqfile_free(weir_bench_seqfile *f) {
  if (!f) return;
  for (size_t i = 0; i < f->buffer_count; ++i) free(f->buffers[i].initial);
  for (size_t i = 0; i < f->read_count; ++i) {
    free(f->outputs[i]);
    free(f->reference[i]);
  }
  for (size_t i = 0; i < f->program_count; ++i) weir_program_free(f->programs[i]);
  free(f->steps);
  free(f);
}
