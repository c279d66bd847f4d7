/* Programs built from code the caller brings (include/weir/program_file.h):
 * a SPIR-V module reflected and checked against the declaration, CUDA images
 * and host shared libraries with an explicit layout, and the checks the
 * engine runs on a program's SPIR-V at registration. The manifest format is
 * parsed in program_manifest.c. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/core/program_build.h"
#include "engine/core/spirv_reflect.h"

#define OWNED_MAGIC 0x50524f47u /* "PROG" */

/* *out is set on every path (NULL on failure): the compiler cannot see that
 * weir_fail returns its non-OK status, so callers must not rely on it. */
weir_status weir_build_start(const weir_program_decl *decl, weir_owned_program **out) {
  weir_owned_program *o = calloc(1, sizeof *o);
  *out = o;
  if (!o) return weir_fail(WEIR_ERR_OUT_OF_MEMORY, "no host memory for a program. Fix: free memory.");
  o->magic = OWNED_MAGIC;
  if (decl) o->decl = *decl;
  if (decl && decl->name) snprintf(o->name, sizeof o->name, "%s", decl->name);
  o->decl.name = NULL; /* the caller's string need not outlive the call */
  return WEIR_OK;
}

static void set_name(weir_owned_program *o, const char *name) {
  if (!o->name[0] && name) snprintf(o->name, sizeof o->name, "%s", name);
}

/* A declared value against the code's: equal, or refused naming both. */
static weir_status agree(weir_owned_program *o, uint32_t bit, uint32_t *declared, uint32_t found,
                         const char *what, const char *fix) {
  if (!(o->decl.declared & bit)) {
    *declared = found;
    return WEIR_OK;
  }
  if (*declared == found) return WEIR_OK;
  return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                   "program '%s': the module has %u %s, the declaration says %u. Fix: %s.",
                   o->name[0] ? o->name : "(unnamed)", found, what, *declared, fix);
}

/* Workgroup dimension by dimension: a specialised size takes the declared
 * value; a hard-coded one must equal it. */
static weir_status agree_workgroup(weir_owned_program *o, const weir_spirv_info *info) {
  static const char axis[] = "xyz";
  uint32_t *wg = o->decl.workgroup_size;
  for (int d = 0; d < 3; ++d) {
    int spec = info->workgroup_spec_id[d] != WEIR_SPIRV_NO_SPEC;
    if (!(o->decl.declared & WEIR_DECL_WORKGROUP)) {
      wg[d] = info->workgroup_size[d];
    } else if (!spec && wg[d] != info->workgroup_size[d]) {
      return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                       "program '%s': the module hard-codes local_size_%c = %u, the declaration "
                       "says workgroup %u x %u x %u; the backend could not change it and %s of "
                       "every workgroup's items would go %s. Fix: declare workgroup %c = %u, or "
                       "write layout(local_size_%c_id = %d) in the shader so that weir sets it.",
                       o->name, axis[d], info->workgroup_size[d], wg[0], wg[1], wg[2],
                       wg[d] > info->workgroup_size[d] ? "some" : "more than declared",
                       wg[d] > info->workgroup_size[d] ? "unprocessed" : "out of range",
                       axis[d], info->workgroup_size[d], axis[d], d);
    }
  }
  o->decl.declared |= WEIR_DECL_WORKGROUP;
  return WEIR_OK;
}

/* The module's layout against what is declared so far; fills what is not. */
static weir_status agree_spirv(weir_owned_program *o, const weir_spirv_info *info) {
  char fix[200];
  /* More declared bindings than the module reads is harmless (the compiler
   * drops buffers a shader never uses); fewer leaves a binding unbound. */
  if ((o->decl.declared & WEIR_DECL_BINDINGS) && o->decl.binding_count < info->binding_count)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "program '%s': the module uses set-0 binding %u (%u binding(s)), the "
                     "declaration binds only %u buffer(s), so binding %u would be missing. Fix: "
                     "declare %u binding(s), or renumber the shader's buffers 0..%u.",
                     o->name, info->binding_count - 1, info->binding_count, o->decl.binding_count,
                     o->decl.binding_count, info->binding_count,
                     o->decl.binding_count ? o->decl.binding_count - 1 : 0);
  if (!(o->decl.declared & WEIR_DECL_BINDINGS)) o->decl.binding_count = info->binding_count;
  snprintf(fix, sizeof fix, "declare %u push-constant bytes, or change the shader's "
           "push_constant block to span that many (its size is the end of its last member)",
           info->push_constant_bytes);
  WEIR_TRY(agree(o, WEIR_DECL_PUSH, &o->decl.push_constant_bytes, info->push_constant_bytes,
                 "push-constant byte(s)", fix));
  o->decl.declared |= WEIR_DECL_BINDINGS | WEIR_DECL_PUSH;
  return agree_workgroup(o, info);
}

weir_status weir_build_spirv(weir_owned_program *o, const void *bytes, size_t size,
                             const char *entry) {
  sv_module m;
  weir_spirv_info info;
  weir_status st = weir_spirv_reflect_module(bytes, size, entry, &info, &m);
  if (st == WEIR_OK) {
    set_name(o, info.entry);
    st = agree_spirv(o, &info);
  }
  free(o->spirv);
  o->spirv = NULL;
  if (st == WEIR_OK) st = weir_spirv_keep_entry(&m, &o->spirv, &o->spirv_bytes);
  free(m.ids);
  return st;
}

/* PTX is text that the driver reads up to its NUL; cubins are ELF files and
 * fatbins start with 0xBA55ED50. Anything else fails here, not in the driver. */
weir_status weir_build_cuda(weir_owned_program *o, const void *image, size_t size,
                            const char *entry, int ptx) {
  const unsigned char *b = image;
  if (!image || size < 4 || !entry || !entry[0])
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "CUDA program: image of %zu bytes, entry '%s'. Fix: pass the whole image "
                     "and the kernel's (extern \"C\") name.", size, entry ? entry : "(null)");
  set_name(o, entry);
  if (ptx) {
    char needle[160];
    snprintf(needle, sizeof needle, ".entry %s", entry);
    char *text = strndup(image, size);
    int found = text && strstr(text, ".version") && strstr(text, needle);
    free(text);
    if (!found)
      return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                       "program '%s': %zu bytes of PTX without '.version' and '%s'. Fix: pass "
                       "PTX text (nvcc --ptx) that defines the kernel as extern \"C\".",
                       o->name, size, needle);
  } else if (!(b[0] == 0x7f && b[1] == 'E' && b[2] == 'L' && b[3] == 'F') &&
             !(b[0] == 0x50 && b[1] == 0xed && b[2] == 0x55 && b[3] == 0xba)) {
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "program '%s': %zu bytes starting with %02x %02x %02x %02x are neither a "
                     "cubin (ELF, 7f 45 4c 46) nor a fatbin (50 ed 55 ba). Fix: pass nvcc "
                     "--cubin or --fatbin output.", o->name, size, b[0], b[1], b[2], b[3]);
  }
  free(o->cuda);
  o->cuda = malloc(size + 1); /* PTX needs its NUL; harmless for binaries */
  if (!o->cuda) return weir_fail(WEIR_ERR_OUT_OF_MEMORY, "no memory for %zu bytes. Fix: free memory.", size);
  memcpy(o->cuda, image, size);
  o->cuda[size] = 0;
  o->cuda_bytes = size + (ptx ? 1 : 0);
  snprintf(o->cuda_entry, sizeof o->cuda_entry, "%s", entry);
  return WEIR_OK;
}

weir_status weir_build_host(weir_owned_program *o, const char *path, const char *symbol) {
  if (!path || !symbol || !symbol[0])
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT, "host program: library '%s', symbol '%s'. Fix: "
                     "name both.", path ? path : "(null)", symbol ? symbol : "(null)");
  set_name(o, symbol);
  void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!lib)
    return weir_fail(WEIR_ERR_IO, "program '%s': cannot load '%s': %s. Fix: give the path of a "
                     "shared library (a name without '/' is searched on LD_LIBRARY_PATH).",
                     o->name, path, dlerror());
  void *sym = dlsym(lib, symbol);
  if (!sym) {
    weir_status st = weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                               "program '%s': '%s' has no symbol '%s'. Fix: export the kernel "
                               "(void %s(const weir_host_invocation *)) with default visibility.",
                               o->name, path, symbol, symbol);
    dlclose(lib);
    return st;
  }
  if (o->library) dlclose(o->library);
  o->library = lib;
  /* dlsym returns an object pointer; POSIX guarantees it converts to a function pointer. */
  memcpy(&o->host, &sym, sizeof o->host);
  return WEIR_OK;
}

/* Fills the weir_program from what was gathered; frees `o` on failure. */
weir_status weir_build_finish(weir_owned_program *o, weir_program **out) {
  weir_program_decl *d = &o->decl;
  weir_status st = WEIR_OK;
  if ((d->declared & (WEIR_DECL_BINDINGS | WEIR_DECL_PUSH)) != (WEIR_DECL_BINDINGS | WEIR_DECL_PUSH))
    st = weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                   "program '%s': its code (%s) carries no layout and none was declared. Fix: "
                   "declare the binding count and push-constant bytes (weir_program_decl, or "
                   "`bindings`/`push` lines of a .weirprog manifest).",
                   o->name, o->cuda ? "CUDA" : "host");
  if (!(d->declared & WEIR_DECL_WORKGROUP)) memcpy(d->workgroup_size, (uint32_t[3]){64, 1, 1}, 12);
  if (!(d->declared & WEIR_DECL_GRID)) {
    d->default_grid_binding = d->binding_count ? 0 : WEIR_NO_BINDING;
    d->default_grid_elem_bytes = 4;
  }
  weir_program *p = &o->program;
  *p = (weir_program){.name = o->name, .binding_count = d->binding_count,
                      .push_constant_bytes = d->push_constant_bytes,
                      .default_grid_binding = d->default_grid_binding,
                      .default_grid_elem_bytes = d->default_grid_elem_bytes, .host = o->host,
                      .spirv = o->spirv, .spirv_bytes = o->spirv_bytes, .cuda_image = o->cuda,
                      .cuda_image_bytes = o->cuda_bytes, .cuda_entry = o->cuda ? o->cuda_entry : NULL};
  memcpy(p->workgroup_size, d->workgroup_size, sizeof p->workgroup_size);
  if (st == WEIR_OK) st = weir_program_validate(p);
  if (st != WEIR_OK) {
    weir_program_free(p);
    return st;
  }
  *out = p;
  return WEIR_OK;
}

weir_status weir_program_from_spirv(const void *bytes, size_t size, const char *entry,
                                    const weir_program_decl *decl, weir_program **out) {
  weir_owned_program *o = NULL;
  WEIR_TRY(weir_build_start(decl, &o));
  weir_status st = weir_build_spirv(o, bytes, size, entry);
  if (st != WEIR_OK) {
    weir_program_free(&o->program);
    return st;
  }
  return weir_build_finish(o, out);
}

static weir_status from_cuda(const void *image, size_t size, const char *entry,
                             const weir_program_decl *decl, int ptx, weir_program **out) {
  weir_owned_program *o = NULL;
  WEIR_TRY(weir_build_start(decl, &o));
  weir_status st = weir_build_cuda(o, image, size, entry, ptx);
  if (st != WEIR_OK) {
    weir_program_free(&o->program);
    return st;
  }
  return weir_build_finish(o, out);
}

weir_status weir_program_from_ptx(const char *ptx, size_t size, const char *entry,
                                  const weir_program_decl *decl, weir_program **out) {
  return from_cuda(ptx, size, entry, decl, 1, out);
}

weir_status weir_program_from_cubin(const void *image, size_t size, const char *entry,
                                    const weir_program_decl *decl, weir_program **out) {
  return from_cuda(image, size, entry, decl, 0, out);
}

weir_status weir_program_from_host_library(const char *path, const char *symbol,
                                           const weir_program_decl *decl, weir_program **out) {
  weir_owned_program *o = NULL;
  WEIR_TRY(weir_build_start(decl, &o));
  weir_status st = weir_build_host(o, path, symbol);
  if (st != WEIR_OK) {
    weir_program_free(&o->program);
    return st;
  }
  return weir_build_finish(o, out);
}

/* A hand-filled program's SPIR-V, checked as if every field were declared.
 * The Vulkan backend runs entry point "main". */
weir_status weir_program_check_spirv(const weir_program *p) {
  WEIR_TRY(weir_program_validate(p));
  if (!weir_program_has_format(p, WEIR_FORMAT_SPIRV)) return WEIR_OK;
  weir_spirv_info info;
  weir_status st = weir_spirv_reflect(p->spirv, p->spirv_bytes, "main", &info);
  if (st != WEIR_OK) return weir_fail_context(st, "program '%s'", p->name);
  weir_owned_program o = {.decl = {.declared = WEIR_DECL_BINDINGS | WEIR_DECL_PUSH | WEIR_DECL_WORKGROUP,
                                   .binding_count = p->binding_count,
                                   .push_constant_bytes = p->push_constant_bytes}};
  snprintf(o.name, sizeof o.name, "%s", p->name);
  memcpy(o.decl.workgroup_size, p->workgroup_size, sizeof o.decl.workgroup_size);
  return agree_spirv(&o, &info);
}

void weir_program_free(weir_program *program) {
  weir_owned_program *o = (weir_owned_program *)program;
  if (!o || o->magic != OWNED_MAGIC) return;
  o->magic = 0;
  free(o->spirv);
  free(o->cuda);
  if (o->library) dlclose(o->library);
  free(o);
}
