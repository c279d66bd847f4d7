/* Finding and opening backends: compiled-in providers, plugins (an explicit
 * path or WEIR_BACKEND_PATH), "auto", and the reports behind `weir info`.
 * Nothing is cached between calls: plugins are loaded per use and kept only
 * by the instance that opened them, so there is no global registry state. */
#include <ctype.h>
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/core/internal.h"

weir_status weir_provider_validate(const weir_provider *p, const char *origin) {
  if (!p)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "backend plugin %s: %s() returned NULL. Fix: return a pointer to a static "
                     "weir_provider.",
                     origin, WEIR_PLUGIN_ENTRY_NAME);
  if (p->abi_version != WEIR_BACKEND_ABI_VERSION)
    return weir_fail(WEIR_ERR_UNSUPPORTED,
                     "backend %s: ABI version %u (found %u, expected %u). Fix: rebuild the "
                     "backend against this weir's include/weir/backend.h.",
                     origin, p->abi_version, p->abi_version, WEIR_BACKEND_ABI_VERSION);
  const weir_backend_ops *o = p->ops;
  const char *missing = !p->id || !p->id[0]   ? "id"
                        : !p->version         ? "version"
                        : !p->probe           ? "probe"
                        : !p->describe_device ? "describe_device"
                        : !p->open            ? "open"
                        : !o                  ? "ops"
                        : !o->destroy         ? "ops->destroy"
                        : !o->describe        ? "ops->describe"
                        : !o->allocate        ? "ops->allocate"
                        : !o->release         ? "ops->release"
                        : !o->upload_many     ? "ops->upload_many"
                        : !o->download_ranges_into ? "ops->download_ranges_into"
                        : !o->dispatch        ? "ops->dispatch"
                                              : NULL;
  if (missing)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "backend %s: required field %s is missing. Fix: fill every required field "
                     "of weir_provider / weir_backend_ops (see include/weir/backend.h).",
                     origin, missing);
  return WEIR_OK;
}

/* ---- plugins --------------------------------------------------------------- */

static const weir_provider *builtin_provider(const char *id, size_t id_len);
static const char *missing_reason(const char *id, size_t id_len);

/* What only a plugin can get wrong: its id must fit the reports' field, must
 * not be a built-in's or a spec keyword (it would shadow it and garble `weir
 * info`), and its format must be one weir knows. Strings are measured with a
 * bound: a plugin's fields are not trusted to be terminated. */
static weir_status plugin_check(const weir_provider *p, const char *path) {
  size_t id_cap = sizeof ((weir_backend_report *)0)->id;
  size_t id_len = strnlen(p->id, id_cap);
  if (id_len >= id_cap)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "backend plugin '%s': its id '%.*s...' is longer than %zu characters. Fix: "
                     "use a shorter id in the plugin's weir_provider.",
                     path, (int)(id_cap - 1), p->id, id_cap - 1);
  if (builtin_provider(p->id, id_len) || missing_reason(p->id, id_len) ||
      strcmp(p->id, "auto") == 0 || strcmp(p->id, "plugin") == 0)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "backend plugin '%s': its id '%s' is the name of a built-in backend or "
                     "spec keyword. Fix: give the plugin an id of its own (e.g. 'my%s').",
                     path, p->id, p->id);
  for (size_t i = 0; i < id_len; ++i)
    if (!isalnum((unsigned char)p->id[i]) && p->id[i] != '_' && p->id[i] != '-')
      return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                       "backend plugin '%s': its id '%s' has character 0x%02x at %zu; ids are "
                       "letters, digits, '_' and '-' (a ':' would read as a device index). Fix: "
                       "rename the id.",
                       path, p->id, (unsigned char)p->id[i], i);
  if ((unsigned)p->format > (unsigned)WEIR_FORMAT_CUDA)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "backend plugin '%s' (id '%s'): program format %d is not one weir knows "
                     "(0 host, 1 spirv, 2 cuda). Fix: set weir_provider.format to a "
                     "weir_program_format value.",
                     path, p->id, (int)p->format);
  return WEIR_OK;
}

static weir_status plugin_load(const char *path, const weir_provider **out, void **handle) {
  /* A path that names no file is a typo, not a backend missing here. */
  if (strchr(path, '/') && access(path, F_OK) != 0)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "backend plugin '%s' does not exist: %s. Fix: check the path (plugin:PATH "
                     "takes the shared library's file name).",
                     path, strerror(errno));
  struct stat info;
  if (strchr(path, '/') && stat(path, &info) == 0 && S_ISDIR(info.st_mode))
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "backend plugin '%s' is a directory. Fix: name the shared library in it "
                     "(plugin:DIR/libfoo.so), or put DIR on WEIR_BACKEND_PATH and use the id.",
                     path);
  void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!h)
    return weir_fail(WEIR_ERR_UNAVAILABLE,
                     "backend plugin '%s' could not be loaded: %s. Fix: check the path and that "
                     "the library's dependencies are installed (ldd).",
                     path, dlerror());
  weir_plugin_register_fn entry;
  *(void **)&entry = dlsym(h, WEIR_PLUGIN_ENTRY_NAME);
  if (!entry) {
    dlclose(h);
    /* Not a weir plugin at all: a wrong file, never a backend missing here. */
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "backend plugin '%s' does not export %s(). Fix: export `const "
                     "weir_provider *%s(void)` from the library (see backends/template).",
                     path, WEIR_PLUGIN_ENTRY_NAME, WEIR_PLUGIN_ENTRY_NAME);
  }
  const weir_provider *p = entry();
  char origin[600];
  snprintf(origin, sizeof origin, "plugin '%s'", path);
  weir_status st = weir_provider_validate(p, origin);
  if (st == WEIR_OK) st = plugin_check(p, path);
  if (st != WEIR_OK) {
    dlclose(h);
    return st;
  }
  *out = p;
  *handle = h;
  return WEIR_OK;
}

static int is_shared_object(const char *name) {
  size_t n = strlen(name);
  return (n > 3 && strcmp(name + n - 3, ".so") == 0) || strstr(name, ".so.") != NULL;
}

/* Calls visit(path) for every shared object in the WEIR_BACKEND_PATH
 * directories, in sorted order per directory; stops when visit returns != 0. */
static int for_each_plugin_path(int (*visit)(const char *path, void *user), void *user) {
  const char *env = getenv("WEIR_BACKEND_PATH");
  if (!env || !env[0]) return 0;
  char *dirs = strdup(env);
  if (!dirs) return 0;
  int stop = 0;
  char *save = NULL;
  for (char *dir = strtok_r(dirs, ":", &save); dir && !stop; dir = strtok_r(NULL, ":", &save)) {
    struct dirent **names = NULL;
    int n = scandir(dir, &names, NULL, alphasort);
    for (int i = 0; i < n; ++i) {
      if (!stop && is_shared_object(names[i]->d_name)) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]->d_name);
        stop = visit(path, user);
      }
      free(names[i]);
    }
    free(names);
  }
  free(dirs);
  return stop;
}

typedef struct plugin_search {
  const char *id;
  const weir_provider *provider;
  void *handle;
} plugin_search;

static int match_plugin_id(const char *path, void *user) {
  plugin_search *s = user;
  const weir_provider *p;
  void *h;
  if (plugin_load(path, &p, &h) != WEIR_OK) return 0;
  if (strcmp(p->id, s->id) == 0) {
    s->provider = p;
    s->handle = h;
    return 1;
  }
  dlclose(h);
  return 0;
}

/* ---- spec parsing ---------------------------------------------------------- */

static const weir_provider *builtin_provider(const char *id, size_t id_len) {
  for (size_t i = 0; weir_builtin_providers[i]; ++i)
    if (strlen(weir_builtin_providers[i]->id) == id_len &&
        strncmp(weir_builtin_providers[i]->id, id, id_len) == 0)
      return weir_builtin_providers[i];
  return NULL;
}

static const char *missing_reason(const char *id, size_t id_len) {
  for (size_t i = 0; weir_missing_backends[i].id; ++i)
    if (strlen(weir_missing_backends[i].id) == id_len &&
        strncmp(weir_missing_backends[i].id, id, id_len) == 0)
      return weir_missing_backends[i].reason;
  return NULL;
}

/* Splits "NAME[:N]" where N is all digits. *index = WEIR_DEVICE_DEFAULT if absent. */
static weir_status split_index(const char *spec, size_t *name_len, uint32_t *index) {
  const char *colon = strrchr(spec, ':');
  *name_len = strlen(spec);
  *index = WEIR_DEVICE_DEFAULT;
  if (!colon || !colon[1]) return WEIR_OK;
  for (const char *c = colon + 1; *c; ++c)
    if (!isdigit((unsigned char)*c)) return WEIR_OK;
  unsigned long long v = strtoull(colon + 1, NULL, 10);
  if (v >= WEIR_DEVICE_DEFAULT || strlen(colon + 1) > 10)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "backend spec '%s': device index %s is too large. Fix: use an index from "
                     "`weir info`.",
                     spec, colon + 1);
  *name_len = (size_t)(colon - spec);
  *index = (uint32_t)v;
  return WEIR_OK;
}

/* spec: what the caller wrote, for messages. */
static weir_status open_provider(const weir_provider *p, void *handle, const char *spec,
                                 uint32_t index, const weir_open_options *options,
                                 weir_backend **out) {
  uint32_t count = 0;
  weir_status st = p->probe(&count);
  /* An index past the devices there are is a wrong spec (callers exit 2),
   * not a missing backend (77, skip): name the largest valid one. With no
   * device at all the backend is unavailable (below). */
  if (st == WEIR_OK && count > 0 && index != WEIR_DEVICE_DEFAULT && index >= count)
    st = weir_fail(WEIR_ERR_OUT_OF_RANGE,
                   "backend spec '%s': backend '%s' has no device %u; it has %u device%s, so the "
                   "largest valid index is %u. Fix: use an index from 0 to %u (`weir info` lists "
                   "the devices).",
                   spec, p->id, index, count, count == 1 ? "" : "s", count - 1, count - 1);
  if (st == WEIR_OK && count == 0)
    st = weir_fail(WEIR_ERR_UNAVAILABLE,
                   "backend '%s' found no device. Fix: check drivers with `weir info`.", p->id);
  if (st == WEIR_OK) st = weir_backend_wrap(p, handle, index, options, out);
  if (st != WEIR_OK && handle) dlclose(handle);
  return st;
}

/* auto: CUDA, else a Vulkan device that is not a CPU implementation, else cpu. */
static weir_status open_auto(const weir_open_options *options, weir_backend **out) {
  const weir_provider *cuda = builtin_provider("cuda", 4);
  uint32_t count = 0;
  if (cuda && cuda->probe(&count) == WEIR_OK && count > 0 &&
      open_provider(cuda, NULL, "auto", WEIR_DEVICE_DEFAULT, options, out) == WEIR_OK)
    return WEIR_OK;
  const weir_provider *vk = builtin_provider("vulkan", 6);
  if (vk && vk->probe(&count) == WEIR_OK) {
    for (uint32_t i = 0; i < count; ++i) {
      weir_device_info info = WEIR_DEVICE_INFO_INIT;
      if (vk->describe_device(i, &info) == WEIR_OK && strcmp(info.kind, "cpu") != 0 &&
          open_provider(vk, NULL, "auto", i, options, out) == WEIR_OK)
        return WEIR_OK;
    }
  }
  weir_clear_error();
  return open_provider(builtin_provider("cpu", 3), NULL, "auto", WEIR_DEVICE_DEFAULT, options,
                       out);
}

weir_status weir_backend_open_ex(const char *spec, const weir_open_options *options,
                                 weir_backend **out) {
  if (!out || !spec || !spec[0])
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "weir_backend_open: spec or output is NULL or empty. Fix: pass e.g. \"cpu\", "
                     "\"vulkan:0\", \"cuda\", \"auto\" or \"plugin:/path/lib.so\".");
  *out = NULL;
  if (strcmp(spec, "auto") == 0) return open_auto(options, out);
  size_t name_len;
  uint32_t index;
  WEIR_TRY(split_index(spec, &name_len, &index));
  if (strncmp(spec, "plugin:", 7) == 0) {
    char path[4096];
    size_t path_len = name_len - 7;
    if (name_len <= 7 || path_len >= sizeof path)
      return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                       "backend spec '%s': no plugin path. Fix: write plugin:/path/libfoo.so.",
                       spec);
    memcpy(path, spec + 7, path_len);
    path[path_len] = '\0';
    const weir_provider *p;
    void *h;
    WEIR_TRY(plugin_load(path, &p, &h));
    return open_provider(p, h, spec, index, options, out);
  }
  const weir_provider *p = builtin_provider(spec, name_len);
  if (p) return open_provider(p, NULL, spec, index, options, out);
  char id[64];
  snprintf(id, sizeof id, "%.*s", (int)(name_len < 63 ? name_len : 63), spec);
  const char *why = missing_reason(spec, name_len);
  if (why && strstr(why, "Fix: ")) /* the reason has its own Fix: one Fix, extended */
    return weir_fail(WEIR_ERR_UNAVAILABLE,
                     "backend '%s' is not compiled into this build: %s, or use another backend "
                     "(`weir info`).",
                     id, why);
  if (why)
    return weir_fail(WEIR_ERR_UNAVAILABLE,
                     "backend '%s' is not compiled into this build: %s. Fix: install what is "
                     "missing and rebuild (see README), or use another backend (`weir info`).",
                     id, why);
  plugin_search search = {id, NULL, NULL};
  if (for_each_plugin_path(match_plugin_id, &search))
    return open_provider(search.provider, search.handle, spec, index, options, out);
  /* A name nothing provides is bad input (a typo), not a backend that is
   * missing on this machine: callers exit 2 for it, not 77 (skip). */
  return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                   "unknown backend '%s' (spec '%s'). Fix: use cpu, vulkan, cuda, auto, "
                   "plugin:/path/lib.so, or put a plugin providing '%s' on WEIR_BACKEND_PATH "
                   "(see `weir info`).",
                   id, spec, id);
}

weir_status weir_backend_open(const char *spec, weir_backend **out) {
  return weir_backend_open_ex(spec, NULL, out);
}

/* ---- reports ---------------------------------------------------------------- */

static void report_provider(const weir_provider *p, weir_backend_report *r) {
  memset(r, 0, sizeof *r);
  /* Bounded: a plugin's strings need not be terminated within the field. */
  snprintf(r->id, sizeof r->id, "%.*s", (int)sizeof r->id - 1, p->id);
  snprintf(r->version, sizeof r->version, "%.*s", (int)sizeof r->version - 1, p->version);
  weir_clear_error();
  r->available = p->probe(&r->device_count) == WEIR_OK && r->device_count > 0;
  if (!r->available)
    snprintf(r->reason, sizeof r->reason, "%s",
             weir_last_error()[0] ? weir_last_error() : "no device found");
}

typedef struct report_sink {
  weir_backend_report *reports;
  size_t capacity, count;
  size_t plugins_from; /* reports from here on are plugins on WEIR_BACKEND_PATH */
} report_sink;

/* A second plugin with an id already listed is never the one opened by that
 * id (the first in WEIR_BACKEND_PATH order is): say so in its report. */
static void mark_duplicate(const report_sink *s, const char *path, weir_backend_report *r) {
  for (size_t i = s->plugins_from; i < s->count && i < s->capacity; ++i) {
    if (strcmp(s->reports[i].id, r->id) != 0) continue;
    r->available = 0;
    int n = snprintf(r->reason, sizeof r->reason,
                     "duplicate id '%s': an earlier plugin on WEIR_BACKEND_PATH has it and is the "
                     "one opened as '%s'; this one (%s) is ignored. Fix: remove one of them from "
                     "WEIR_BACKEND_PATH, or give them distinct ids.",
                     r->id, r->id, path);
    /* A path too long for the field is cut, and marked so (as weir_fail does). */
    if (n >= (int)sizeof r->reason) memcpy(r->reason + sizeof r->reason - 4, "...", 4);
    return;
  }
}

static void sink_add(report_sink *s, const weir_backend_report *r) {
  if (s->count < s->capacity) s->reports[s->count] = *r;
  s->count++;
}

static int report_plugin(const char *path, void *user) {
  weir_backend_report r;
  const weir_provider *p;
  void *h;
  if (plugin_load(path, &p, &h) == WEIR_OK) {
    report_provider(p, &r);
    dlclose(h);
    mark_duplicate(user, path, &r);
  } else {
    memset(&r, 0, sizeof r);
    const char *base = strrchr(path, '/');
    /* The file name stands for the id (cut to fit); the reason names the full path. */
    snprintf(r.id, sizeof r.id, "%.*s", (int)sizeof r.id - 1, base ? base + 1 : path);
    snprintf(r.version, sizeof r.version, "plugin");
    snprintf(r.reason, sizeof r.reason, "%s", weir_last_error());
  }
  sink_add(user, &r);
  return 0;
}

weir_status weir_backend_reports(weir_backend_report *reports, size_t capacity, size_t *count) {
  if (!count || (capacity && !reports))
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "weir_backend_reports: output is NULL. Fix: pass an array and a count.");
  report_sink sink = {reports, capacity, 0, 0};
  weir_backend_report r;
  for (size_t i = 0; weir_builtin_providers[i]; ++i) {
    report_provider(weir_builtin_providers[i], &r);
    sink_add(&sink, &r);
  }
  for (size_t i = 0; weir_missing_backends[i].id; ++i) {
    memset(&r, 0, sizeof r);
    snprintf(r.id, sizeof r.id, "%s", weir_missing_backends[i].id);
    snprintf(r.version, sizeof r.version, "-");
    snprintf(r.reason, sizeof r.reason, "support not compiled in: %s",
             weir_missing_backends[i].reason);
    sink_add(&sink, &r);
  }
  sink.plugins_from = sink.count;
  for_each_plugin_path(report_plugin, &sink);
  *count = sink.count;
  weir_clear_error();
  return WEIR_OK;
}

weir_status weir_backend_describe(const char *id, uint32_t index, weir_device_info *out) {
  if (!id || !out)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "weir_backend_describe: id or output is NULL. Fix: pass both.");
  size_t bytes;
  WEIR_TRY(weir_struct_out_size("weir_backend_describe", "weir_device_info", out,
                                WEIR_DEVICE_INFO_SIZE_V1, sizeof *out, &bytes));
  const weir_provider *p = builtin_provider(id, strlen(id));
  weir_device_info info = WEIR_DEVICE_INFO_INIT;
  weir_status st = WEIR_OK;
  plugin_search search = {id, NULL, NULL};
  if (p) {
    st = p->describe_device(index, &info);
  } else if (for_each_plugin_path(match_plugin_id, &search)) {
    st = search.provider->describe_device(index, &info);
    dlclose(search.handle);
  } else {
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "weir_backend_describe: unknown backend '%s'. Fix: see `weir info`.", id);
  }
  weir_device_info_terminate(&info);
  info.struct_size = sizeof info; /* a provider may have cleared the whole struct */
  weir_struct_out_copy(out, &info, bytes, sizeof info);
  return st;
}
