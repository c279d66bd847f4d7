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

/* Whether the file name is the id's: ID.so, libID.so, libweir_ID.so. */
static int named_for(const char *file, const char *id) {
  static const char *const prefixes[] = {"", "lib", "libweir_"};
  for (size_t k = 0; k < 3; ++k) {
    size_t p = strlen(prefixes[k]), n = strlen(id);
    if (strncmp(file, prefixes[k], p) == 0 && strncmp(file + p, id, n) == 0 && strcmp(file + p + n, ".so") == 0)
      return 1;
  }
  return 0;
}

/* Calls visit(dir, file) for every shared object on WEIR_ANALYSIS_PATH,
 * sorted per directory, until it returns nonzero (which it returns). */
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

typedef struct search {
  const char *id;
  weir_llvm_plugin *found;
  weir_status error; /* a library named for the id that is refused */
} search;

static int match(const char *path, const char *file, void *user) {
  search *s = user;
  weir_llvm_plugin *p = NULL;
  int named = named_for(file, s->id);
  weir_status st = load_path(path, &p);
  if (st != WEIR_OK) { /* refused: an error when it is the library named for the id, else skipped */
    if (named) s->error = st;
    return named;
  }
  if (strcmp(p->decl->id, s->id) == 0) {
    s->found = p;
    return 1;
  }
  if (named)
    s->error = weir_fail(WEIR_ERR_INVALID_ARGUMENT, "analysis plugin '%s' is named for '%s' but declares the id "
                         "'%s'. Fix: rename the library (lib%s.so) or set its weir_analysis.id to '%s'", path,
                         s->id, p->decl->id, p->decl->id, s->id);
  weir_llvm_plugin_close(p);
  return named;
}

typedef struct id_list {
  char *out;
  size_t size, used;
} id_list;

static int collect(const char *path, const char *file, void *user) {
  (void)file;
  id_list *l = user;
  weir_llvm_plugin *p = NULL;
  if (load_path(path, &p) != WEIR_OK) return 0;
  int n = snprintf(l->out + l->used, l->size - l->used, "%s%s", l->used ? ", " : "", p->decl->id);
  if (n > 0 && (size_t)n < l->size - l->used) l->used += (size_t)n;
  weir_llvm_plugin_close(p);
  return 0;
}

void weir_llvm_plugin_path_ids(char *out, size_t size) {
  if (!out || !size) return;
  out[0] = 0;
  id_list l = {out, size, 0};
  each_path_library(collect, &l);
  weir_clear_error(); /* the libraries that were refused are not this call's failure */
}

weir_status weir_llvm_plugin_open(const char *spec, weir_llvm_plugin **out) {
  if (!out) return weir_fail(WEIR_ERR_INVALID_ARGUMENT, "analysis: out is NULL. Fix: pass where to put the plugin");
  *out = NULL;
  if (!spec || !spec[0])
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT, "analysis: no name given. Fix: use one of " BUILTINS
                     ", plugin:/path/lib.so or the id of a plugin on WEIR_ANALYSIS_PATH");
  if (strncmp(spec, "plugin:", 7) == 0) {
    if (!spec[7])
      return weir_fail(WEIR_ERR_INVALID_ARGUMENT, "analysis 'plugin:' names no library. Fix: write "
                       "plugin:/path/libmine.so");
    return load_path(spec + 7, out);
  }
  search s = {spec, NULL, WEIR_OK};
  each_path_library(match, &s);
  if (s.found) {
    weir_clear_error(); /* libraries tried before it were refused: not this call's failure */
    *out = s.found;
    return WEIR_OK;
  }
  if (s.error != WEIR_OK) return s.error;
  char ids[512];
  weir_llvm_plugin_path_ids(ids, sizeof ids);
  const char *env = getenv("WEIR_ANALYSIS_PATH");
  return weir_fail(WEIR_ERR_INVALID_ARGUMENT, "unknown analysis '%s' (known: " BUILTINS "%s%s; WEIR_ANALYSIS_PATH "
                   "is %s%s%s). Fix: name one of them, give a library as plugin:/path/libmine.so, or put the "
                   "plugin's directory on WEIR_ANALYSIS_PATH", spec, ids[0] ? ", " : "", ids,
                   env && env[0] ? "'" : "", env && env[0] ? env : "not set", env && env[0] ? "'" : "");
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
