/* Engine-internal: building a weir_program from code in several formats
 * (program_file.c), shared with the manifest loader (program_manifest.c). */
#ifndef WEIR_ENGINE_CORE_PROGRAM_BUILD_H
#define WEIR_ENGINE_CORE_PROGRAM_BUILD_H

#include <stdio.h>

#include "weir/program_file.h"

/* A program and everything it owns; `program` first, so that
 * weir_program_free can find the rest. */
typedef struct weir_owned_program {
  weir_program program;
  uint32_t magic;
  weir_program_decl decl; /* what is known so far; `declared` grows */
  char name[128];
  uint32_t *spirv;
  size_t spirv_bytes;
  unsigned char *cuda;
  size_t cuda_bytes;
  char cuda_entry[128];
  weir_host_kernel host;
  void *library; /* dlopen handle of the host code */
} weir_owned_program;

weir_status weir_build_start(const weir_program_decl *decl, weir_owned_program **out);
/* Each adds one format, checking it against (and completing) o->decl. */
weir_status weir_build_spirv(weir_owned_program *o, const void *bytes, size_t size,
                             const char *entry);
weir_status weir_build_cuda(weir_owned_program *o, const void *image, size_t size,
                            const char *entry, int ptx);
weir_status weir_build_host(weir_owned_program *o, const char *path, const char *symbol);
/* Validates and hands out the program; frees `o` on failure. */
weir_status weir_build_finish(weir_owned_program *o, weir_program **out);

#endif
