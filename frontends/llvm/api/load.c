/* Opening analysis plugins: `plugin:/path/lib.so`, or an id that a library
 * in a directory on WEIR_ANALYSIS_PATH declares (as WEIR_BACKEND_PATH finds
 * backend plugins, engine/core/registry.c). Nothing is cached: each run
 * opens what it uses and closes it; no global state. */
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "frontends/llvm/api/api.h"

#define BUILTINS "taint, uninit, uaf"

/* The analysis' own library table: empty (`reset` drops the defaults),
 * then the declaration's text. */
static weir_status make_table(weir_llvm_plugin *p) {
  WEIR_TRY(weir_llvm_config_new(&p->table));
  const char *text = p->decl->library_rules ? p->decl->library_rules : "";
  char name[160];
  snprintf(name, sizeof name, "<library_rules of analysis '%s'>", p->decl->id);
  WEIR_TRY(weir_llvm_config_parse(p->table, "<reset>", "reset", 5));
  return weir_llvm_config_parse(p->table, name, text, strlen(text));
}

static weir_status finish(weir_llvm_plugin *p, weir_llvm_plugin **out) {
  weir_status s = weir_llvm_api_validate(p->decl, p->origin);
  if (s == WEIR_OK) s = make_table(p);
  if (s != WEIR_OK) {
    weir_llvm_plugin_close(p);
    return s;
  }
  *out = p;
  return WEIR_OK;
}

weir_status weir_llvm_plugin_from(const weir_analysis *analysis, weir_llvm_plugin **out) {
  if (!out) return weir_fail(WEIR_ERR_INVALID_ARGUMENT, "analysis: out is NULL. Fix: pass where to put the plugin");
  *out = NULL;
  weir_llvm_plugin *p = calloc(1, sizeof *p);
  if (!p) return weir_fail(WEIR_ERR_OUT_OF_MEMORY, "analysis: no memory for a plugin. Fix: free memory");
  p->decl = analysis;
  snprintf(p->origin, sizeof p->origin, "'%s' (compiled in)", analysis && analysis->id ? analysis->id : "?");
  return finish(p, out);
}

/* The built-ins written on the API: registered as a plugin is (its
 * register function, then the declaration's checks), from this table
 * instead of dlopen. */
static const struct {
  weir_llvm_analysis analysis;
  weir_analysis_register_fn entry;
} builtins[] = {{WEIR_LLVM_TAINT, weir_llvm_taint_analysis}};

weir_status weir_llvm_plugin_builtin(weir_llvm_analysis analysis, weir_llvm_plugin **out) {
  *out = NULL;
  for (size_t k = 0; k < sizeof builtins / sizeof builtins[0]; ++k) {
    if (builtins[k].analysis != analysis) continue;
    weir_llvm_plugin *p = calloc(1, sizeof *p);
    if (!p) return weir_fail(WEIR_ERR_OUT_OF_MEMORY, "analysis: no memory for a plugin. Fix: free memory");
    p->decl = builtins[k].entry();
    p->builtin = 1;
    p->analysis = analysis;
    snprintf(p->origin, sizeof p->origin, "'%s' (built in)", weir_llvm_analysis_name(analysis));
    weir_status s = weir_llvm_api_validate_builtin(p->decl, p->origin);
    if (s != WEIR_OK) {
      free(p);
      return s;
    }
    *out = p; /* no table of its own: the build asks weir's (ctx->config) */
    return WEIR_OK;
  }
  return WEIR_OK; /* not written on the API (yet): the caller uses its hooks */
}

/* Loads the library at `path` and reads its declaration. */
static weir_status load_path(const char *path, weir_llvm_plugin **out) {
  struct stat st;
  if (access(path, F_OK) != 0)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT, "analysis plugin '%s' does not exist: %s. Fix: check the path "
                     "(--analysis plugin:PATH takes the shared library's file name)", path, strerror(errno));
  if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT, "analysis plugin '%s' is a directory. Fix: name the shared "
                     "library in it (plugin:DIR/libmine.so), or put DIR on WEIR_ANALYSIS_PATH and use the id", path);
  void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!h)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT, "analysis plugin '%s' could not be loaded: %s. Fix: check that it "
                     "is a shared library built for this machine and that its dependencies are installed (ldd)",
                     path, dlerror());
  weir_analysis_register_fn entry;
  *(void **)&entry = dlsym(h, WEIR_ANALYSIS_ENTRY_NAME);
  if (!entry) {
    dlclose(h);
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT, "analysis plugin '%s' does not export %s(). Fix: export `const "
                     "weir_analysis *%s(void)` from the library (see share/weir/analysis-template)", path,
                     WEIR_ANALYSIS_ENTRY_NAME, WEIR_ANALYSIS_ENTRY_NAME);
  }
  weir_llvm_plugin *p = calloc(1, sizeof *p);
  if (!p) {
    dlclose(h);
    return weir_fail(WEIR_ERR_OUT_OF_MEMORY, "analysis plugin '%s': no memory. Fix: free memory", path);
  }
  p->handle = h;
  p->decl = entry();
  snprintf(p->origin, sizeof p->origin, "plugin '%.1000s'", path);
  return finish(p, out);
}

static int is_shared_object(const char *name) {
  size_t n = strlen(name);
  return (n > 3 && strcmp(name + n - 3, ".so") == 0) || strstr(name, ".so.") != NULL;
}

/* Calls visit(path, file) for every shared object on WEIR_ANALYSIS_PATH,
 * sorted per directory, until it returns nonzero (which it returns). Empty
 * entries are skipped: they are not the current directory here. */
static int each_path_library(int (*visit)(const char *path, const char *file, void *user), void *user) {
  const char *env = getenv("WEIR_ANALYSIS_PATH");
  char *dirs = env && env[0] ? strdup(env) : NULL;
  int stop = 0;
  char *save = NULL;
  for (char *dir = dirs ? strtok_r(dirs, ":", &save) : NULL; dir && !stop; dir = strtok_r(NULL, ":", &save)) {
    struct dirent **names = NULL;
    int n = scandir(dir, &names, NULL, alphasort);
    for (int i = 0; i < n; ++i) {
      if (!stop && is_shared_object(names[i]->d_name)) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]->d_name);
        stop = visit(path, names[i]->d_name, user);
      }
      free(names[i]);
    }
    free(names);
  }
  free(dirs);
  return stop;
}

/* The file names a library for `id` may have in a directory of
 * WEIR_ANALYSIS_PATH, in the order they are tried (docs/analysis-api.md). */
static const char *const id_names[] = {"lib%s.so", "libweir_%s.so", "%s.so"};
#define ID_NAMES (sizeof id_names / sizeof id_names[0])

/* The libraries named for `id` on WEIR_ANALYSIS_PATH: the first two found
 * (by stat: nothing is loaded), *count how many there are. */
static void named_libraries(const char *id, char first[2][4096], size_t *count) {
  *count = 0;
  const char *env = getenv("WEIR_ANALYSIS_PATH");
  char *dirs = env && env[0] ? strdup(env) : NULL;
  char *save = NULL;
  for (char *dir = dirs ? strtok_r(dirs, ":", &save) : NULL; dir; dir = strtok_r(NULL, ":", &save)) {
    for (size_t k = 0; k < ID_NAMES; ++k) {
      char file[300], path[4096];
      snprintf(file, sizeof file, id_names[k], id);
      snprintf(path, sizeof path, "%s/%s", dir, file);
      struct stat st;
      if (stat(path, &st) != 0 || S_ISDIR(st.st_mode)) continue;
      if (*count < 2) snprintf(first[*count], 4096, "%s", path);
      ++*count;
    }
  }
  free(dirs);
}

typedef struct id_list {
  char *out;
  size_t size, used;
  const char *id;        /* the id asked for, or NULL */
  char declared_by[4096]; /* a library that declares it under another file name */
} id_list;

static int collect(const char *path, const char *file, void *user) {
  (void)file;
  id_list *l = user;
  weir_llvm_plugin *p = NULL;
  if (load_path(path, &p) != WEIR_OK) return 0;
  if (l->id && !l->declared_by[0] && strcmp(p->decl->id, l->id) == 0)
    snprintf(l->declared_by, sizeof l->declared_by, "%s", path);
  int n = snprintf(l->out + l->used, l->size - l->used, "%s%s", l->used ? ", " : "", p->decl->id);
  if (n > 0 && (size_t)n < l->size - l->used) l->used += (size_t)n;
  weir_llvm_plugin_close(p);
  return 0;
}

/* Loads every library on the path (running their constructors): only to
 * name the known ids when the one asked for is not there. */
static void path_ids(id_list *l) {
  l->out[0] = 0;
  each_path_library(collect, l);
  weir_clear_error(); /* the libraries that were refused are not this call's failure */
}

void weir_llvm_plugin_path_ids(char *out, size_t size) {
  if (!out || !size) return;
  id_list l = {out, size, 0, NULL, ""};
  path_ids(&l);
}

/* The id's library: the one file on WEIR_ANALYSIS_PATH named for it, which
 * must declare it. No other library is opened on the way. */
static weir_status open_named(const char *id, const char *path, weir_llvm_plugin **out) {
  WEIR_TRY(load_path(path, out));
  if (strcmp((*out)->decl->id, id) == 0) return WEIR_OK;
  weir_status s = weir_fail(WEIR_ERR_INVALID_ARGUMENT, "analysis plugin '%s' is named for '%s' but declares the id "
                            "'%s'. Fix: rename the library (lib%s.so) or set its weir_analysis.id to '%s'", path,
                            id, (*out)->decl->id, (*out)->decl->id, id);
  weir_llvm_plugin_close(*out);
  *out = NULL;
  return s;
}

/* Nothing on the path is named for `id`: what the libraries there declare. */
static weir_status unknown_id(const char *id, int *unknown) {
  char ids[512];
  id_list l = {ids, sizeof ids, 0, id, ""};
  path_ids(&l);
  if (l.declared_by[0])
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT, "analysis '%s' is declared by '%s', which is not named for it "
                     "(libraries on WEIR_ANALYSIS_PATH are found by file name). Fix: rename it to lib%s.so, or "
                     "use --analysis plugin:%s", id, l.declared_by, id, l.declared_by);
  if (unknown) *unknown = 1;
  const char *env = getenv("WEIR_ANALYSIS_PATH");
  return weir_fail(WEIR_ERR_INVALID_ARGUMENT, "unknown analysis '%s' (known: " BUILTINS "%s%s; WEIR_ANALYSIS_PATH "
                   "is %s%s%s). Fix: name one of them, give a library as plugin:/path/libmine.so, or put the "
                   "plugin's directory on WEIR_ANALYSIS_PATH", id, ids[0] ? ", " : "", ids,
                   env && env[0] ? "'" : "", env && env[0] ? env : "not set", env && env[0] ? "'" : "");
}

/* plugin:PATH names a file: one without a '/' is in the current directory
 * (dlopen would search the library path for it, and load another file than
 * the one checked). */
static weir_status open_file(const char *path, weir_llvm_plugin **out) {
  if (strchr(path, '/')) return load_path(path, out);
  char local[4096];
  if ((size_t)snprintf(local, sizeof local, "./%s", path) >= sizeof local)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT, "analysis plugin '%.64s...' : the name is too long. Fix: give a "
                     "shorter path", path);
  return load_path(local, out);
}

weir_status weir_llvm_plugin_lookup(const char *spec, weir_llvm_plugin **out, int *unknown) {
  if (unknown) *unknown = 0;
  if (!out) return weir_fail(WEIR_ERR_INVALID_ARGUMENT, "analysis: out is NULL. Fix: pass where to put the plugin");
  *out = NULL;
  if (!spec || !spec[0])
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT, "analysis: no name given. Fix: use one of " BUILTINS
                     ", plugin:/path/lib.so or the id of a plugin on WEIR_ANALYSIS_PATH");
  if (strncmp(spec, "plugin:", 7) == 0) {
    if (!spec[7])
      return weir_fail(WEIR_ERR_INVALID_ARGUMENT, "analysis 'plugin:' names no library. Fix: write "
                       "plugin:/path/libmine.so");
    return open_file(spec + 7, out);
  }
  if (strchr(spec, '/') || strlen(spec) > 200)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT, "analysis '%.200s' is not an id (a path?). Fix: give a library "
                     "as plugin:PATH, or the id of a plugin on WEIR_ANALYSIS_PATH", spec);
  char named[2][4096];
  size_t count = 0;
  named_libraries(spec, named, &count);
  if (count > 1)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT, "analysis '%s': %zu libraries on WEIR_ANALYSIS_PATH are named for "
                     "it, '%s' and '%s'. Fix: remove or rename all but one, or choose one with "
                     "--analysis plugin:PATH", spec, count, named[0], named[1]);
  return count ? open_named(spec, named[0], out) : unknown_id(spec, unknown);
}

weir_status weir_llvm_plugin_open(const char *spec, weir_llvm_plugin **out) {
  return weir_llvm_plugin_lookup(spec, out, NULL);
}

weir_status weir_llvm_plugin_config_file(weir_llvm_plugin *plugin, const char *path) {
  if (!plugin || !path)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT, "analysis: plugin or path is NULL. Fix: pass both");
  return weir_llvm_config_load_file(plugin->table, path);
}

const char *weir_llvm_plugin_id(const weir_llvm_plugin *plugin) { return plugin ? plugin->decl->id : ""; }

void weir_llvm_plugin_close(weir_llvm_plugin *plugin) {
  if (!plugin) return;
  weir_llvm_config_free(plugin->table);
  if (plugin->handle) dlclose(plugin->handle);
  free(plugin);
}
