/* Edge functions and values as text (docs/ide-format.md, "Edge functions"
 * and "Values"): parsing for the loader, formatting for results. */
#ifndef WEIR_ENGINE_IDE_TEXT_H
#define WEIR_ENGINE_IDE_TEXT_H

#include "engine/ide/parts.h"

/* What is wrong with a function or value token: the loader's message parts. */
typedef struct ide_text_error {
  size_t offset; /* bytes into the text */
  const char *what;
  char found[80];
  char expected[160];
  const char *fix;
} ide_text_error;

/* 0 and *out, or 1 and *err. The state names come from p. */
int ide_parse_fn(const ide_parts *p, const char *s, size_t n, weir_ide_fn *out,
                 ide_text_error *err);
int ide_parse_value(const ide_parts *p, const char *s, size_t n, weir_ide_value *out,
                    ide_text_error *err);

/* A function as the format spells it (what ide_parse_fn reads back to the
 * same function); 1 for a typestate function with a `gen` set, which the
 * text cannot express. */
int ide_format_fn(const weir_ide_problem *r, const weir_ide_fn *f, char *out, size_t cap);

/* A signed 64-bit decimal ("-12"); 0 on success, else 1 (not a number) or
 * 2 (out of range). */
int ide_parse_i64(const char *s, size_t n, int64_t *out);

#endif
