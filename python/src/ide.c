/* weir.ide from C: IDE problems (include/weir/ide.h) loaded, generated or
 * built with weir_ide_builder_*, and the reference solver. The holds come
 * back as host arrays that own the solver's memory, as weir.ifds's do; the
 * values too: the solver's weir_ide_value array becomes one chunk, and
 * `kinds` (uint32), `states` (uint32) and `constants` (int64) are strided
 * views of its three fields (16 bytes per hold), so nothing is copied. The
 * chunk (and the solver's block) goes when the last of the arrays goes.
 *
 * The Python side (python/weir/ide.py) turns functions and values written
 * as Python objects into the tuples taken here:
 *   linear function (kind, a, b)        kind WEIR_IDE_LIN_*
 *   typestate function (gen, (to0, ...)) at most 32 masks
 *   value (kind, states, constant)      as weir_ide_value */
#include <stdlib.h>
#include <string.h>

#include <weir/ide.h>

#include "weirpy.h"

typedef struct {
  PyObject_HEAD
  weir_ide_problem *problem;
} Problem;

typedef struct {
  PyObject_HEAD
  weir_ide_builder *builder; /* NULL after build() */
  uint32_t family, states;
} Builder;

static PyTypeObject *ProblemType, *BuilderType;

static PyObject *problem_wrap(weir_ide_problem *p) {
  allocfunc alloc = (allocfunc)PyType_GetSlot(ProblemType, Py_tp_alloc);
  Problem *self = (Problem *)alloc(ProblemType, 0);
  if (!self) {
    weir_ide_problem_free(p);
    return NULL;
  }
  self->problem = p;
  return (PyObject *)self;
}

static void problem_dealloc(PyObject *op) {
  PyTypeObject *type = Py_TYPE(op);
  weir_ide_problem_free(((Problem *)op)->problem);
  ((freefunc)PyType_GetSlot(type, Py_tp_free))(op);
  Py_DECREF(type);
}

#define P(op) (((Problem *)(op))->problem)
#define U(x) PyLong_FromUnsignedLong((unsigned long)(x))
static PyObject *get_family(PyObject *op, void *c) {
  return PyUnicode_FromString(P(op)->family == WEIR_IDE_LINEAR ? "linear" : "typestate");
}
static PyObject *get_facts(PyObject *op, void *c) { return U(P(op)->ifds->fact_count); }
static PyObject *get_procs(PyObject *op, void *c) { return U(P(op)->ifds->proc_count); }
static PyObject *get_nodes(PyObject *op, void *c) { return U(P(op)->ifds->node_count); }
static PyObject *get_calls(PyObject *op, void *c) { return U(P(op)->ifds->call_count); }
static PyObject *get_seeds(PyObject *op, void *c) { return U(P(op)->ifds->seed_count); }
static PyObject *get_edges(PyObject *op, void *c) {
  return U(P(op)->ifds->succ_offset[P(op)->ifds->node_count]);
}
static PyObject *get_functions(PyObject *op, void *c) { return U(P(op)->fn_count); }
static PyObject *get_annotated(PyObject *op, void *c) { return U(P(op)->ann_count); }
static PyObject *get_source(PyObject *op, void *c) {
  return PyUnicode_FromString(P(op)->ifds->source_name);
}
/* Typestate: the state names in state order; linear: (). */
static PyObject *get_states(PyObject *op, void *c) {
  const weir_ide_problem *p = P(op);
  PyObject *t = PyTuple_New(p->family == WEIR_IDE_TYPESTATE ? p->state_count : 0);
  for (Py_ssize_t s = 0; t && s < PyTuple_Size(t); ++s) {
    uint32_t at = p->state_name_offset[s], end = p->state_name_offset[s + 1];
    PyObject *name = PyUnicode_FromStringAndSize(p->state_names + at, (Py_ssize_t)(end - at));
    /* the names may be stored with a terminating zero byte: cut it */
    if (name && end > at && p->state_names[end - 1] == '\0') {
      Py_DECREF(name);
      name = PyUnicode_FromString(p->state_names + at);
    }
    if (!name || PyTuple_SetItem(t, s, name) < 0) Py_CLEAR(t);
  }
  return t;
}

static PyObject *problem_text(PyObject *op, PyObject *unused) {
  char *text = NULL;
  size_t length = 0;
  FILE *f = open_memstream(&text, &length);
  if (!f) return PyErr_NoMemory();
  weir_status status = weir_ide_write_problem(P(op), f);
  fclose(f);
  PyObject *r = status == WEIR_OK ? PyUnicode_FromStringAndSize(text, (Py_ssize_t)length)
                                  : weirpy_raise(status, "weir.ide.Problem.write");
  free(text);
  return r;
}

/* format_value(kind, states, constant) -> the value as the format spells it. */
static PyObject *problem_format_value(PyObject *op, PyObject *args) {
  weir_ide_value v = {0};
  unsigned int kind, states;
  long long constant;
  if (!PyArg_ParseTuple(args, "IIL:format_value", &kind, &states, &constant)) return NULL;
  v.kind = kind;
  v.states = states;
  v.constant = constant;
  char text[WEIR_IDE_VALUE_TEXT_MAX];
  weir_ide_format_value(P(op), &v, text, sizeof text);
  return PyUnicode_FromString(text);
}

/* An array over `count` elements of `bytes` bytes that the solver allocated
 * (freed with the array's chunk); an empty one when there are none. */
static PyObject *owned_array(weirpy_Backend *host, void *data, uint64_t count, int dtype) {
  if (count == 0) {
    free(data);
    uint64_t zero = 0;
    return weirpy_array_alloc(host, dtype, 1, &zero, "weir.ide");
  }
  weir_view view;
  uint32_t bytes = dtype == 4 ? 8 : 4;
  weir_status status = weir_chunk_import_external(host->backend, data, count * bytes, free, data,
                                                  &view.chunk);
  if (status != WEIR_OK) {
    free(data);
    return weirpy_raise(status, "weir.ide.Problem.solve");
  }
  status = weir_view_make(view.chunk, 0, bytes, 1, &count, &view);
  if (status != WEIR_OK) {
    (void)weir_chunk_release(view.chunk);
    return weirpy_raise(status, "weir.ide.Problem.solve");
  }
  return weirpy_array_wrap(host, &view, dtype);
}

/* The three fields of the solver's value array as strided views of one
 * chunk: out[0] kinds (uint32), out[1] states (uint32), out[2] constants
 * (int64). Takes the block (freed on failure too). */
static int value_arrays(weirpy_Backend *host, weir_ide_value *values, uint64_t count,
                        PyObject *out[3]) {
  static const struct { uint32_t offset, bytes; int dtype; } field[3] = {
      {offsetof(weir_ide_value, kind), 4, 9},
      {offsetof(weir_ide_value, states), 4, 9},
      {offsetof(weir_ide_value, constant), 8, 4},
  };
  out[0] = out[1] = out[2] = NULL;
  if (count == 0) {
    free(values);
    uint64_t zero = 0;
    for (int i = 0; i < 3; ++i)
      if (!(out[i] = weirpy_array_alloc(host, field[i].dtype, 1, &zero, "weir.ide"))) return -1;
    return 0;
  }
  weir_chunk *chunk = NULL;
  weir_status status = weir_chunk_import_external(host->backend, values,
                                                  count * sizeof *values, free, values, &chunk);
  if (status != WEIR_OK) {
    free(values);
    weirpy_raise(status, "weir.ide.Problem.solve");
    return -1;
  }
  for (int i = 0; i < 3; ++i) {
    weir_view view = {.chunk = chunk,
                      .byte_offset = field[i].offset,
                      .element_bytes = field[i].bytes,
                      .ndim = 1,
                      .shape = {count},
                      .strides = {sizeof(weir_ide_value) / field[i].bytes}};
    status = weir_view_validate(&view);
    if (status != WEIR_OK) {
      weirpy_raise(status, "weir.ide.Problem.solve");
      break;
    }
    weir_chunk_retain(chunk); /* one reference per array, taken by the wrap */
    if (!(out[i] = weirpy_array_wrap(host, &view, field[i].dtype))) break;
  }
  (void)weir_chunk_release(chunk); /* the import's own reference */
  return out[0] && out[1] && out[2] ? 0 : -1;
}

/* _solve(backend=None) -> (nodes, facts, kinds, states, constants, path_edges, stats):
 * the reference without a backend, else the resident engine on it (a spec
 * string or weir.Backend, as weir.ifds.solve takes). */
static PyObject *problem_solve(PyObject *op, PyObject *args) {
  PyObject *device = Py_None;
  if (!PyArg_ParseTuple(args, "|O", &device)) return NULL;
  weirpy_Backend *host = weirpy_backend_resolve(NULL); /* where the arrays land */
  if (!host) return NULL;
  weirpy_Backend *on = device != Py_None ? weirpy_backend_resolve(device) : NULL;
  if (device != Py_None && !on) return NULL;
  weir_ide_result result = {0};
  weir_ide_stats stats = WEIR_IDE_STATS_INIT;
  weir_status status = on ? weir_ide_solve_engine(on->backend, P(op), NULL, &result, &stats)
                          : weir_ide_solve_reference(P(op), &result, &stats);
  if (status != WEIR_OK) return weirpy_raise(status, "weir.ide.Problem.solve");
  uint64_t count = result.hold_count;
  /* each call takes its block, on failure too */
  PyObject *nodes = owned_array(host, result.hold_node, count, 9);
  PyObject *facts = owned_array(host, result.hold_fact, count, 9);
  PyObject *v[3];
  int ok = value_arrays(host, result.value, count, v) == 0;
  PyObject *st = Py_BuildValue("{s:K,s:K,s:K,s:K,s:K,s:K,s:K}", "path_edges",
                               (unsigned long long)stats.path_edges, "jump_updates",
                               (unsigned long long)stats.jump_updates, "iterations",
                               (unsigned long long)stats.iterations, "value_iterations",
                               (unsigned long long)stats.value_iterations, "rules",
                               (unsigned long long)stats.rules, "windows",
                               (unsigned long long)stats.windows, "peak_resident_bytes",
                               (unsigned long long)stats.peak_resident_bytes);
  PyObject *r = nodes && facts && ok && st
                    ? Py_BuildValue("(OOOOOKO)", nodes, facts, v[0], v[1], v[2],
                                    (unsigned long long)result.path_edges, st)
                    : NULL;
  Py_XDECREF(nodes);
  Py_XDECREF(facts);
  for (int i = 0; i < 3; ++i) Py_XDECREF(v[i]);
  Py_XDECREF(st);
  return r;
}

static PyMethodDef problem_methods[] = {
    {"text", problem_text, METH_NOARGS, "The problem in the .ide text format (canonical)."},
    {"format_value", problem_format_value, METH_VARARGS,
     "format_value(kind, states, constant) -> str, as weir_ide_format_value spells it."},
    {"_solve", problem_solve, METH_VARARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef problem_getset[] = {
    {"family", get_family, NULL, NULL, NULL},       {"states", get_states, NULL, NULL, NULL},
    {"facts", get_facts, NULL, NULL, NULL},         {"procs", get_procs, NULL, NULL, NULL},
    {"nodes", get_nodes, NULL, NULL, NULL},         {"calls", get_calls, NULL, NULL, NULL},
    {"seeds", get_seeds, NULL, NULL, NULL},         {"edges", get_edges, NULL, NULL, NULL},
    {"functions", get_functions, NULL, NULL, NULL}, {"annotated", get_annotated, NULL, NULL, NULL},
    {"source", get_source, NULL, NULL, NULL},       {NULL, NULL, NULL, NULL, NULL},
};

static PyType_Slot problem_slots[] = {
    {Py_tp_doc, "An IDE problem (C side of weir.ide.Problem)."},
    {Py_tp_dealloc, problem_dealloc},
    {Py_tp_methods, problem_methods},
    {Py_tp_getset, problem_getset},
    {0, NULL},
};
static PyType_Spec problem_spec = {"weir._weir.IdeProblem", sizeof(Problem), 0,
                                   Py_TPFLAGS_DEFAULT, problem_slots};

static PyObject *ide_load(PyObject *m, PyObject *args, PyObject *kwargs) {
  static char *names[] = {"path", "strict", NULL};
  PyObject *path;
  int strict = 0;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O&|$p:load", names, PyUnicode_FSConverter,
                                   &path, &strict))
    return NULL;
  weir_ifds_load_options options = {.strict = strict};
  weir_ide_problem *p = NULL;
  weir_status status = weir_ide_load_file_ex(PyBytes_AsString(path), &options, &p);
  Py_DECREF(path);
  return status == WEIR_OK ? problem_wrap(p) : weirpy_raise(status, NULL);
}

static PyObject *ide_loads(PyObject *m, PyObject *args, PyObject *kwargs) {
  static char *names[] = {"text", "name", "strict", NULL};
  const char *text, *name = "<string>";
  Py_ssize_t length;
  int strict = 0;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "s#|s$p:loads", names, &text, &length, &name,
                                   &strict))
    return NULL;
  weir_ifds_load_options options = {.strict = strict};
  weir_ide_problem *p = NULL;
  weir_status status = weir_ide_load_memory_ex(name, text, (size_t)length, &options, &p);
  return status == WEIR_OK ? problem_wrap(p) : weirpy_raise(status, NULL);
}

static int family_arg(PyObject *o, void *out) {
  const char *s = PyUnicode_Check(o) ? PyUnicode_AsUTF8AndSize(o, NULL) : NULL;
  if (s && strcmp(s, "linear") == 0) *(uint32_t *)out = WEIR_IDE_LINEAR;
  else if (s && strcmp(s, "typestate") == 0) *(uint32_t *)out = WEIR_IDE_TYPESTATE;
  else {
    if (!PyErr_Occurred())
      weirpy_raise_msg(WEIR_ERR_INVALID_ARGUMENT,
                       "unknown IDE family %R (expected \"linear\" or \"typestate\"). Fix: pass "
                       "family=\"linear\" or family=\"typestate\".",
                       o);
    return 0;
  }
  return 1;
}

/* _ide_generate(preset, family, states, procs, nodes_per_proc, facts, seeds, seed) */
static PyObject *ide_generate(PyObject *m, PyObject *args) {
  const char *preset;
  uint32_t family;
  unsigned int states, procs, npp, facts, seeds;
  unsigned long long seed;
  if (!PyArg_ParseTuple(args, "sO&O&O&O&O&O&K:generate", &preset, family_arg, &family,
                        weirpy_u32_arg, &states, weirpy_u32_arg, &procs, weirpy_u32_arg, &npp,
                        weirpy_u32_arg, &facts, weirpy_u32_arg, &seeds, &seed))
    return NULL;
  weir_ifds_gen_options options = {0};
  weir_status status = weir_ifds_preset_parse(preset, &options.preset);
  if (status != WEIR_OK) return weirpy_raise(status, NULL);
  options.procs = procs;
  options.nodes_per_proc = npp;
  options.facts = facts;
  options.seeds = seeds;
  weir_ifds_gen_defaults(&options);
  options.seed = seed;
  weir_ide_problem *p = NULL;
  status = weir_ide_generate_problem(&options, (weir_ide_family)family, states, &p);
  return status == WEIR_OK ? problem_wrap(p) : weirpy_raise(status, NULL);
}

/* ---- the builder --------------------------------------------------------- */

static int builder_init(PyObject *op, PyObject *args, PyObject *kwargs) {
  static char *names[] = {"family", "states", "facts", "procs", "nodes", NULL};
  uint32_t family;
  unsigned int states, facts, procs, nodes;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O&O&O&O&O&:Builder", names, family_arg,
                                   &family, weirpy_u32_arg, &states, weirpy_u32_arg, &facts,
                                   weirpy_u32_arg, &procs, weirpy_u32_arg, &nodes))
    return -1;
  Builder *self = (Builder *)op;
  weir_ide_builder_free(self->builder);
  self->builder = NULL;
  self->family = family;
  self->states = states;
  weir_status status = weir_ide_builder_create((weir_ide_family)family, states, facts, procs,
                                               nodes, &self->builder);
  return status == WEIR_OK ? 0 : weirpy_fail(status, NULL);
}

static void builder_dealloc(PyObject *op) {
  PyTypeObject *type = Py_TYPE(op);
  weir_ide_builder_free(((Builder *)op)->builder);
  ((freefunc)PyType_GetSlot(type, Py_tp_free))(op);
  Py_DECREF(type);
}

static weir_ide_builder *live(PyObject *op) {
  weir_ide_builder *b = ((Builder *)op)->builder;
  if (!b)
    weirpy_raise_msg(WEIR_ERR_INVALID_ARGUMENT,
                     "this weir.ide.Builder was built already. Fix: make a new one.");
  return b;
}

#define DONE(status) ((status) == WEIR_OK ? Py_NewRef(Py_None) : weirpy_raise((status), NULL))

static PyObject *b_state(PyObject *op, PyObject *args) {
  unsigned int id;
  const char *name;
  weir_ide_builder *b = live(op);
  if (!b || !PyArg_ParseTuple(args, "O&s:state", weirpy_u32_arg, &id, &name)) return NULL;
  return DONE(weir_ide_builder_state(b, id, name));
}

static PyObject *b_proc(PyObject *op, PyObject *args) {
  unsigned int id, first, last;
  const char *name;
  weir_ide_builder *b = live(op);
  if (!b || !PyArg_ParseTuple(args, "O&O&O&s:proc", weirpy_u32_arg, &id, weirpy_u32_arg, &first,
                               weirpy_u32_arg, &last, &name))
    return NULL;
  return DONE(weir_ifds_builder_proc(weir_ide_builder_ifds(b), id, first, last, name));
}

static PyObject *b_flow(PyObject *op, PyObject *args, PyObject *kwargs) {
  static char *names[] = {"identity", "kills", "pairs", NULL};
  int identity = 1;
  PyObject *kills_obj = NULL, *pairs_obj = NULL;
  weir_ide_builder *b = live(op);
  if (!b || !PyArg_ParseTupleAndKeywords(args, kwargs, "|pOO:flow", names, &identity, &kills_obj,
                                         &pairs_obj))
    return NULL;
  uint32_t *kills = NULL, *pairs = NULL, flow = 0;
  size_t nk = 0, np = 0;
  PyObject *r = NULL;
  if (weirpy_u32_list(kills_obj, 0, &kills, &nk) == 0 &&
      weirpy_u32_list(pairs_obj, 1, &pairs, &np) == 0) {
    weir_status status =
        weir_ifds_builder_flow(weir_ide_builder_ifds(b), identity, kills, nk, pairs, np, &flow);
    r = status == WEIR_OK ? PyLong_FromUnsignedLong(flow) : weirpy_raise(status, NULL);
  }
  PyMem_Free(kills);
  PyMem_Free(pairs);
  return r;
}

static PyObject *b_edge(PyObject *op, PyObject *args) {
  unsigned int from, to, flow;
  weir_ide_builder *b = live(op);
  if (!b || !PyArg_ParseTuple(args, "O&O&O&:edge", weirpy_u32_arg, &from, weirpy_u32_arg, &to,
                               weirpy_u32_arg, &flow))
    return NULL;
  return DONE(weir_ifds_builder_edge(weir_ide_builder_ifds(b), from, to, flow));
}

static PyObject *b_call(PyObject *op, PyObject *args) {
  unsigned int site, ret, flow;
  weir_ide_builder *b = live(op);
  if (!b || !PyArg_ParseTuple(args, "O&O&O&:call", weirpy_u32_arg, &site, weirpy_u32_arg, &ret,
                               weirpy_u32_arg, &flow))
    return NULL;
  return DONE(weir_ifds_builder_call(weir_ide_builder_ifds(b), site, ret, flow));
}

static PyObject *b_callee(PyObject *op, PyObject *args) {
  unsigned int site, proc, call_flow, return_flow;
  weir_ide_builder *b = live(op);
  if (!b || !PyArg_ParseTuple(args, "O&O&O&O&:callee", weirpy_u32_arg, &site, weirpy_u32_arg,
                               &proc, weirpy_u32_arg, &call_flow, weirpy_u32_arg, &return_flow))
    return NULL;
  return DONE(
      weir_ifds_builder_callee(weir_ide_builder_ifds(b), site, proc, call_flow, return_flow));
}

/* A function tuple of the builder's family as a weir_ide_fn (0, or -1 with
 * an exception). */
static int fn_from_tuple(const Builder *self, PyObject *t, weir_ide_fn *fn) {
  memset(fn, 0, sizeof *fn);
  fn->family = self->family;
  if (self->family == WEIR_IDE_LINEAR) {
    unsigned int kind;
    long long a, b;
    if (!PyArg_ParseTuple(t, "ILL;a linear function is (kind, a, b)", &kind, &a, &b)) return -1;
    fn->u.linear.kind = kind;
    fn->u.linear.a = a;
    fn->u.linear.b = b;
    return 0;
  }
  unsigned int gen;
  PyObject *to;
  if (!PyArg_ParseTuple(t, "IO;a typestate function is (gen, masks)", &gen, &to)) return -1;
  fn->u.typestate.gen = gen;
  uint32_t *masks = NULL;
  size_t n = 0;
  if (weirpy_u32_list(to, 0, &masks, &n) < 0) return -1;
  if (n > WEIR_IDE_MAX_STATES) {
    PyMem_Free(masks);
    weirpy_raise_msg(WEIR_ERR_INVALID_ARGUMENT,
                     "a typestate function of %zu rows (expected at most 32). Fix: one row per "
                     "state.",
                     n);
    return -1;
  }
  memcpy(fn->u.typestate.to, masks, n * sizeof *masks);
  PyMem_Free(masks);
  return 0;
}

/* pair_fn(site, a, b, d1, d2, fn) with site a weir_ide_site number. */
static PyObject *b_pair_fn(PyObject *op, PyObject *args) {
  unsigned int site, a, b2, d1, d2;
  PyObject *t;
  weir_ide_builder *b = live(op);
  if (!b || !PyArg_ParseTuple(args, "IO&O&O&O&O!:pair_fn", &site, weirpy_u32_arg, &a,
                               weirpy_u32_arg, &b2, weirpy_u32_arg, &d1, weirpy_u32_arg, &d2,
                               &PyTuple_Type, &t))
    return NULL;
  weir_ide_fn fn;
  if (fn_from_tuple((Builder *)op, t, &fn) < 0) return NULL;
  return DONE(weir_ide_builder_pair_fn(b, (weir_ide_site)site, a, b2, d1, d2, &fn));
}

/* seed(node, fact, (kind, states, constant)) */
static PyObject *b_seed(PyObject *op, PyObject *args) {
  unsigned int node, fact, kind, states;
  long long constant;
  weir_ide_builder *b = live(op);
  if (!b || !PyArg_ParseTuple(args, "O&O&(IIL):seed", weirpy_u32_arg, &node, weirpy_u32_arg,
                               &fact, &kind, &states, &constant))
    return NULL;
  weir_ide_value v = {.kind = kind, .states = states, .constant = constant};
  return DONE(weir_ide_builder_seed(b, node, fact, &v));
}

static PyObject *b_build(PyObject *op, PyObject *unused) {
  weir_ide_builder *b = live(op);
  if (!b) return NULL;
  weir_ide_problem *p = NULL;
  weir_status status = weir_ide_builder_build(b, &p);
  /* after build (or a failure of build) the builder only accepts free */
  weir_ide_builder_free(b);
  ((Builder *)op)->builder = NULL;
  return status == WEIR_OK ? problem_wrap(p) : weirpy_raise(status, NULL);
}

static PyMethodDef builder_methods[] = {
    {"state", b_state, METH_VARARGS, "state(id, name)"},
    {"proc", b_proc, METH_VARARGS, "proc(id, first, last, name)"},
    {"flow", (PyCFunction)(void (*)(void))b_flow, METH_VARARGS | METH_KEYWORDS,
     "flow(identity=True, kills=(), pairs=()) -> flow index"},
    {"edge", b_edge, METH_VARARGS, "edge(from, to, flow)"},
    {"call", b_call, METH_VARARGS, "call(site, ret, flow)"},
    {"callee", b_callee, METH_VARARGS, "callee(site, proc, call_flow, return_flow)"},
    {"pair_fn", b_pair_fn, METH_VARARGS, "pair_fn(site, a, b, d1, d2, fn_tuple)"},
    {"seed", b_seed, METH_VARARGS, "seed(node, fact, (kind, states, constant))"},
    {"build", b_build, METH_NOARGS, "build() -> IdeProblem (the builder is spent afterwards)"},
    {NULL, NULL, 0, NULL},
};

static PyType_Slot builder_slots[] = {
    {Py_tp_doc, "IdeBuilder(family, states, facts, procs, nodes): weir_ide_builder_*."},
    {Py_tp_new, PyType_GenericNew},
    {Py_tp_init, builder_init},
    {Py_tp_dealloc, builder_dealloc},
    {Py_tp_methods, builder_methods},
    {0, NULL},
};
static PyType_Spec builder_spec = {"weir._weir.IdeBuilder", sizeof(Builder), 0,
                                   Py_TPFLAGS_DEFAULT, builder_slots};

static PyMethodDef ide_functions[] = {
    {"_ide_load", (PyCFunction)(void (*)(void))ide_load, METH_VARARGS | METH_KEYWORDS, NULL},
    {"_ide_loads", (PyCFunction)(void (*)(void))ide_loads, METH_VARARGS | METH_KEYWORDS, NULL},
    {"_ide_generate", ide_generate, METH_VARARGS, NULL},
    {NULL, NULL, 0, NULL},
};

int weirpy_ide_init(PyObject *module) {
  ProblemType = (PyTypeObject *)PyType_FromSpec(&problem_spec);
  BuilderType = (PyTypeObject *)PyType_FromSpec(&builder_spec);
  if (!ProblemType || !BuilderType ||
      PyModule_AddObjectRef(module, "IdeProblem", (PyObject *)ProblemType) < 0 ||
      PyModule_AddObjectRef(module, "IdeBuilder", (PyObject *)BuilderType) < 0)
    return -1;
  return PyModule_AddFunctions(module, ide_functions);
}
