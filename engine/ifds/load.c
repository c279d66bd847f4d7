/* Loading a problem: the input (a mapped file, memory, or chunks read from
 * a pipe), lines and tokens. The directives are in load_parse.c and
 * load_body.c, the fast path in load_fast.c, the rules in the builder. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/ifds/load.h"

weir_status ifds_load_fail(const ifds_loader *L, uint64_t line, size_t col, const char *what,
                           const char *found, const char *expected, const char *fix) {
  return weir_fail(WEIR_ERR_PARSE, "%s:%llu:%zu: error: %s (found %s, expected %s). Fix: %s.",
                   L->name, (unsigned long long)line, col, what, found, expected, fix);
}

static void loader_free(ifds_loader *L) {
  ifds_builder_release(&L->b);
  free(L->tokens.slots);
}

static weir_status control_error(ifds_loader *L, const char *p, const char *lf) {
  char found[64];
  if (*p == '\r' && p + 1 != lf)
    snprintf(found, sizeof found, "a carriage return (0x0D) not right before the line feed");
  else
    snprintf(found, sizeof found, "byte 0x%02X", (unsigned char)*p);
  return ifds_load_fail(L, L->line, ifds_col(L, p), "control character", found,
                        "printable text, spaces and tabs",
                        "remove the character (only spaces and tabs separate tokens, lines end "
                        "with LF)");
}

/* Splits [start, lf) into tokens; '#' starts a comment; control bytes other
 * than tab (and a CR right before the LF) are errors, in comments too. */
weir_status ifds_load_tokenize(ifds_loader *L, const char *start, const char *lf) {
  const char *end = lf > start && lf[-1] == '\r' ? lf - 1 : lf;
  const char *p = start;
  L->tok_count = 0;
  L->line_end = start;
  while (p < end) {
    unsigned char c = (unsigned char)*p;
    if (c > ' ' && c != '#' && c != 0x7f) {
      const char *t = p;
      while (p < end && (unsigned char)*p > ' ' && *p != '#' && (unsigned char)*p != 0x7f) ++p;
      if (L->tok_count < IFDS_MAX_TOKENS) L->tok[L->tok_count++] = (ifds_token){t, (size_t)(p - t)};
      L->line_end = p;
      continue;
    }
    if (c == ' ' || c == '\t') {
      ++p;
      continue;
    }
    if (c == '#') {
      for (; p < end; ++p)
        if (((unsigned char)*p < ' ' && *p != '\t') || (unsigned char)*p == 0x7f)
          return control_error(L, p, lf);
      break;
    }
    return control_error(L, p, lf);
  }
  return WEIR_OK;
}

static weir_status bom_error(ifds_loader *L) {
  char magic[32];
  snprintf(magic, sizeof magic, "`%s 1`", ifds_load_magic(L));
  return ifds_load_fail(L, 1, 1, "byte-order mark at the start of the file", "bytes EF BB BF",
                        magic, "save the file without a byte-order mark");
}

/* One complete line [start, lf). */
static weir_status load_line(ifds_loader *L, const char *start, const char *lf) {
  L->line_start = start;
  if (L->line == 1 && lf - start >= 3 && memcmp(start, "\xEF\xBB\xBF", 3) == 0) return bom_error(L);
  WEIR_TRY(ifds_load_tokenize(L, start, lf));
  if (L->tok_count == 0) return WEIR_OK;
  return ifds_load_directive(L);
}

/* Every complete line of [text, text + length); *used receives the bytes
 * consumed (up to and including the last LF). Body lines try the fast path
 * first (load_fast.c). With L->stop_at_body, it returns after the line that
 * starts the body, which the parallel loader takes from there. */
static weir_status load_lines(ifds_loader *L, const char *text, size_t length, size_t *used) {
  const char *p = text, *end = text + length;
  while (p < end) {
    if ((L->stage == IFDS_STAGE_BODY || L->stage == IFDS_STAGE_PROC) && !L->ext) {
      const char *next;
      WEIR_TRY(ifds_load_fast_line(L, p, end, &next));
      if (next) {
        ++L->line;
        p = next;
        continue;
      }
    }
    const char *lf = memchr(p, '\n', (size_t)(end - p));
    if (!lf) break;
    WEIR_TRY(load_line(L, p, lf));
    ++L->line;
    p = lf + 1;
    if (L->stop_at_body && L->stage == IFDS_STAGE_BODY) break;
  }
  *used = (size_t)(p - text);
  return WEIR_OK;
}

/* Bytes after the last LF: a last line without its LF. */
static weir_status truncated_line(ifds_loader *L, const char *start, size_t length) {
  L->line_start = start;
  if (L->line == 1 && length >= 3 && memcmp(start, "\xEF\xBB\xBF", 3) == 0) return bom_error(L);
  return ifds_load_fail(L, L->line, length + 1, "truncated last line", "end of file",
                        "a line feed (LF) ending the last line",
                        "end the file with a newline; if it was cut short, regenerate it");
}

static weir_status empty_file(ifds_loader *L) {
  char expected[64], fix[128];
  snprintf(expected, sizeof expected, "`%s 1` on the first line", ifds_load_magic(L));
  snprintf(fix, sizeof fix, "write the magic line `%s 1` and the header (see %s)",
           ifds_load_magic(L), ifds_load_doc(L));
  return ifds_load_fail(L, 1, 1, "empty file", "no bytes", expected, fix);
}

static weir_status new_problem(ifds_loader *L, weir_ifds_problem **out) {
  weir_ifds_problem *p = calloc(1, sizeof *p);
  if (!p)
    return weir_fail(WEIR_ERR_OUT_OF_MEMORY,
                     "allocating an IFDS problem failed. Fix: free memory.");
  snprintf(p->source_name, sizeof p->source_name, "%s", L->name);
  *out = p;
  return WEIR_OK;
}

/* Assembles the problem or frees everything; *out is NULL on failure. */
static weir_status finish(ifds_loader *L, weir_status status, uint64_t bytes,
                          weir_ifds_problem **out) {
  weir_ifds_problem *p = NULL;
  if (status == WEIR_OK) status = new_problem(L, &p);
  if (status == WEIR_OK) {
    p->source_bytes = bytes;
    status = ifds_load_finish(L, p);
  }
  loader_free(L);
  if (status != WEIR_OK) {
    weir_ifds_problem_free(p);
    p = NULL;
  }
  *out = p;
  return status;
}

static weir_status loader_init(ifds_loader *L, const char *name, const weir_ifds_load_options *options,
                               const ifds_load_ext *ext) {
  memset(L, 0, sizeof *L);
  L->ext = ext;
  L->name = name;
  L->line = 1;
  L->strict = options && options->strict;
  ifds_flow_table_init(&L->b.flows);
  weir_status s = ifds_load_threads(&L->threads, &L->threads_auto);
  if (ext) L->threads = 1; /* an extension's lines (IDE functions) are parsed by its hooks, serially */
  return s;
}

/* Back to the state before the first line, with one thread: a parallel
 * load handed the input back (load_split.c). */
static void loader_restart(ifds_loader *L) {
  const char *name = L->name;
  const ifds_load_ext *ext = L->ext;
  uint64_t input_bytes = L->input_bytes;
  int strict = L->strict;
  loader_free(L);
  memset(L, 0, sizeof *L);
  L->ext = ext;
  L->name = name;
  L->line = 1;
  L->strict = strict;
  L->input_bytes = input_bytes;
  L->threads = 1;
  ifds_flow_table_init(&L->b.flows);
}

static weir_status load_windows(ifds_loader *L, const char *map, size_t size, size_t *done);

/* The lines of [base + begin, base + end): the serial path for the first
 * chunk of a parallel load; window by window when the pages are dropped
 * (a mapped file), as a serial load goes. */
static weir_status load_range(ifds_loader *L, const char *base, size_t begin, size_t end,
                              int drop_pages) {
  size_t done = begin, used = 0;
  if (drop_pages) return load_windows(L, base, end, &done);
  return load_lines(L, base + begin, end - begin, &used);
}

/* The header and the proc lines, then the body in chunks on L->threads
 * threads (load_split.c). *done receives the bytes taken; the caller goes
 * on serially from there: at the last LF when the chunks were merged, at
 * the start of the body when it is too small to split, after the first
 * chunk when a later one has an error to report, at 0 (L restarted) when
 * the chunks together broke a rule between lines. */
static weir_status load_parallel(ifds_loader *L, const char *text, size_t length, int drop_pages,
                                 size_t *done) {
  L->stop_at_body = 1;
  weir_status s = load_lines(L, text, length, done);
  L->stop_at_body = 0;
  WEIR_TRY(s);
  if (L->stage != IFDS_STAGE_BODY) return WEIR_OK; /* no body: every line is taken */
  size_t whole = length; /* up to the last LF: the rest is the serial path's error */
  while (whole > *done && text[whole - 1] != '\n') --whole;
  if (ifds_load_chunk_count(L, whole - *done) < 2) return WEIR_OK;
  ifds_range body = {text, *done, whole, drop_pages, load_range};
  int spoilt = 0;
  WEIR_TRY(ifds_load_chunks(L, &body, done, &spoilt));
  if (spoilt) {
    loader_restart(L);
    *done = 0;
  }
  return WEIR_OK;
}

/* The whole input in memory (a string, or a mapped file). */
static weir_status load_text(ifds_loader *L, const char *text, size_t length) {
  size_t used = 0, more = 0;
  L->input_bytes = length;
  if (length == 0) return empty_file(L);
  if (L->threads > 1) WEIR_TRY(load_parallel(L, text, length, 0, &used));
  WEIR_TRY(load_lines(L, text + used, length - used, &more));
  used += more;
  return used < length ? truncated_line(L, text + used, length - used) : WEIR_OK;
}

weir_status weir_ifds_load_memory_ex(const char *name, const char *text, size_t length,
                                     const weir_ifds_load_options *options,
                                     weir_ifds_problem **out) {
  return ifds_load_memory_with(name, text, length, options, NULL, out);
}

weir_status ifds_load_memory_with(const char *name, const char *text, size_t length,
                                  const weir_ifds_load_options *options,
                                  const ifds_load_ext *ext, weir_ifds_problem **out) {
  if (!out)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "weir_ifds_load_memory: out is NULL. Fix: pass the address of a pointer.");
  *out = NULL;
  if (!text && length)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "weir_ifds_load_memory: text is NULL with length %zu. Fix: pass the text.",
                     length);
  ifds_loader L;
  weir_status s = loader_init(&L, name ? name : "<memory>", options, ext);
  if (s == WEIR_OK) s = load_text(&L, text, length);
  return finish(&L, s, length, out);
}

weir_status weir_ifds_load_memory(const char *name, const char *text, size_t length,
                                  weir_ifds_problem **out) {
  return weir_ifds_load_memory_ex(name, text, length, NULL, out);
}

static weir_status open_error(const char *path, int err) {
  return weir_fail(WEIR_ERR_IO,
                   "%s:1:1: error: cannot open the problem file (found %s, expected "
                   "a readable file). Fix: check the path and its permissions.",
                   path, strerror(err));
}

/* Reads into buf[*have..cap); *eof when the file is done. */
static weir_status read_more(const char *path, int fd, char *buf, size_t cap, size_t *have,
                             int *eof) {
  while (*have < cap) {
    ssize_t n = read(fd, buf + *have, cap - *have);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0)
      return weir_fail(WEIR_ERR_IO,
                       "%s:1:1: error: reading the problem file failed (found %s, "
                       "expected a readable file). Fix: check the file and the disk.",
                       path, strerror(errno));
    if (n == 0) {
      *eof = 1;
      break;
    }
    *have += (size_t)n;
  }
  return WEIR_OK;
}

/* Reads the file in chunks so that peak memory is the loaded problem, not
 * the file: a line never spans the buffer (it grows for a longer line). */
static weir_status load_fd(ifds_loader *L, const char *path, int fd, uint64_t *total) {
  size_t cap = 4u << 20, have = 0;
  char *buf = malloc(cap);
  if (!buf)
    return weir_fail(WEIR_ERR_OUT_OF_MEMORY,
                     "allocating the %zu-byte read buffer failed. Fix: free memory.", cap);
  weir_status s = WEIR_OK;
  int eof = 0;
  while (s == WEIR_OK && !eof) {
    size_t before = have, used = 0;
    s = read_more(path, fd, buf, cap, &have, &eof);
    *total += have - before;
    if (s == WEIR_OK) s = load_lines(L, buf, have, &used);
    if (s != WEIR_OK) break;
    memmove(buf, buf + used, have - used);
    have -= used;
    if (have == cap && !eof) { /* one line longer than the buffer */
      char *bigger = cap < SIZE_MAX / 2 ? realloc(buf, cap * 2) : NULL;
      if (!bigger)
        s = weir_fail(WEIR_ERR_OUT_OF_MEMORY,
                      "%s:%llu:1: a line longer than %zu bytes "
                      "does not fit in memory. Fix: shorten the line.",
                      path, (unsigned long long)L->line, cap);
      else
        buf = bigger, cap *= 2;
    }
  }
  if (s == WEIR_OK && *total == 0)
    s = empty_file(L);
  else if (s == WEIR_OK && have)
    s = truncated_line(L, buf, have);
  free(buf);
  return s;
}

/* The lines of a mapped file from *done on, window by window: the next
 * window is read ahead, and the pages of lines already parsed are dropped
 * from the process (the page cache keeps them), so the file does not add
 * its size to the peak memory of a load. */
enum { MAP_WINDOW = 16u << 20 };

static weir_status load_windows(ifds_loader *L, const char *map, size_t size, size_t *done) {
  size_t page = (size_t)sysconf(_SC_PAGESIZE), dropped = 0;
  while (*done < size) {
    size_t window = size - *done < MAP_WINDOW ? size - *done : MAP_WINDOW, used = 0;
    size_t ahead = *done + window, rest = size - ahead;
    if (rest) madvise((char *)map + (ahead & ~(page - 1)), rest < MAP_WINDOW ? rest : MAP_WINDOW,
                      MADV_WILLNEED);
    WEIR_TRY(load_lines(L, map + *done, window, &used));
    if (used == 0 && window == size - *done) break; /* a last line without its LF */
    if (used == 0) { /* one line longer than a window: parse it with the rest */
      WEIR_TRY(load_lines(L, map + *done, size - *done, &used));
      *done += used;
      break;
    }
    *done += used;
    size_t drop = *done & ~(page - 1);
    if (drop > dropped) madvise((char *)map + dropped, drop - dropped, MADV_DONTNEED);
    dropped = drop > dropped ? drop : dropped;
  }
  return WEIR_OK;
}

/* A regular file is mapped: no copy and no buffer. *mapped is 0 when
 * mapping is not possible and the file must be read. */
static weir_status load_mapped(ifds_loader *L, int fd, size_t size, int *mapped) {
  *mapped = 0;
  if (size == 0) return *mapped = 1, load_text(L, "", 0);
  void *map = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
  if (map == MAP_FAILED) return WEIR_OK;
  *mapped = 1;
  madvise(map, size, MADV_SEQUENTIAL);
  L->input_bytes = size;
  size_t done = 0;
  weir_status s = L->threads > 1 ? load_parallel(L, map, size, 1, &done) : WEIR_OK;
  if (s == WEIR_OK) s = load_windows(L, map, size, &done);
  if (s == WEIR_OK && done < size) s = truncated_line(L, (const char *)map + done, size - done);
  munmap(map, size);
  return s;
}

weir_status weir_ifds_load_file_ex(const char *path, const weir_ifds_load_options *options,
                                   weir_ifds_problem **out) {
  return ifds_load_file_with(path, options, NULL, out);
}

weir_status ifds_load_file_with(const char *path, const weir_ifds_load_options *options,
                                const ifds_load_ext *ext, weir_ifds_problem **out) {
  if (!out || !path)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "weir_ifds_load_file: path or out is NULL. Fix: pass both.");
  *out = NULL;
  int fd = open(path, O_RDONLY);
  if (fd < 0) return open_error(path, errno);
  struct stat st;
  if (fstat(fd, &st) != 0) memset(&st, 0, sizeof st);
  if (S_ISDIR(st.st_mode)) {
    close(fd);
    return open_error(path, EISDIR);
  }
  ifds_loader L;
  uint64_t total = 0;
  int mapped = 0;
  weir_status s = loader_init(&L, path, options, ext);
  if (s != WEIR_OK) {
    close(fd);
    return finish(&L, s, total, out);
  }
  if (S_ISREG(st.st_mode) && (uint64_t)st.st_size <= SIZE_MAX) {
    total = (uint64_t)st.st_size;
    s = load_mapped(&L, fd, (size_t)st.st_size, &mapped);
  }
  if (!mapped) {
    if (S_ISREG(st.st_mode)) L.input_bytes = (uint64_t)st.st_size;
    total = 0;
    s = load_fd(&L, path, fd, &total);
  }
  close(fd);
  return finish(&L, s, total, out);
}

weir_status weir_ifds_load_file(const char *path, weir_ifds_problem **out) {
  return weir_ifds_load_file_ex(path, NULL, out);
}

void weir_ifds_problem_free(weir_ifds_problem *p) {
  if (!p) return;
  void *arrays[] = {
      p->proc_first,      p->proc_last,         p->proc_name_offset, p->names,
      p->node_proc,       p->succ_offset,       p->succ_node,        p->succ_flow,
      p->call_node,       p->call_return,       p->call_flow,        p->node_call,
      p->callee_offset,   p->callee_proc,       p->callee_call_flow, p->callee_return_flow,
      p->seed_node,       p->seed_fact,         p->flows.identity,   p->flows.kill_offset,
      p->flows.kill_fact, p->flows.pair_offset, p->flows.pair_from,  p->flows.pair_to};
  for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; ++i) free(arrays[i]);
  free(p);
}
