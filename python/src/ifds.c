/* weir.ifds from C: problems (loaded, or built with weir_ifds_builder_*),
 * and both solvers. Results come back as two uint32 host arrays (node, fact)
 * that own the solver's memory: no copy of the holds is made. */
#include <stdlib.h>
#include <string.h>

#include <weir/ifds.h>

#include "weirpy.h"

typedef struct {
  PyObject_HEAD
  weir_ifds_problem *problem;
} Problem;

typedef struct {
  PyObject_HEAD
  weir_ifds_builder *builder; /* NULL after build() */
} Builder;

static PyTypeObject *ProblemType, *BuilderType;

static PyObject *problem_wrap(weir_ifds_problem *p) {
  allocfunc alloc = (allocfunc)PyType_GetSlot(ProblemType, Py_tp_alloc);
  Problem *self = (Problem *)alloc(ProblemType, 0);
  if (!self) {
    weir_ifds_problem_free(p);
    return NULL;
  }
  self->problem = p;
  return (PyObject *)self;
}

static void problem_dealloc(PyObject *op) {
  PyTypeObject *type = Py_TYPE(op);
  weir_ifds_problem_free(((Problem *)op)->problem);
  ((freefunc)PyType_GetSlot(type, Py_tp_free))(op);
  Py_DECREF(type);
}

#define P(op) (((Problem *)(op))->problem)
static PyObject *get_facts(PyObject *op, void *c) { return PyLong_FromUnsignedLong(P(op)->fact_count); }
static PyObject *get_procs(PyObject *op, void *c) { return PyLong_FromUnsignedLong(P(op)->proc_count); }
static PyObject *get_nodes(PyObject *op, void *c) { return PyLong_FromUnsignedLong(P(op)->node_count); }
static PyObject *get_calls(PyObject *op, void *c) { return PyLong_FromUnsignedLong(P(op)->call_count); }
static PyObject *get_seeds(PyObject *op, void *c) { return PyLong_FromUnsignedLong(P(op)->seed_count); }
static PyObject *get_edges(PyObject *op, void *c) {
  return PyLong_FromUnsignedLong(P(op)->succ_offset[P(op)->node_count]);
}
static PyObject *get_source(PyObject *op, void *c) { return PyUnicode_FromString(P(op)->source_name); }
static PyObject *get_warnings(PyObject *op, void *c) {
  PyObject *list = PyList_New(0);
  for (uint32_t bit = 1; list && bit; bit <<= 1) {
    if (!(P(op)->warnings & bit)) continue;
    PyObject *s = PyUnicode_FromString(weir_ifds_warning_text(bit));
    if (!s || PyList_Append(list, s) < 0) Py_CLEAR(list);
    Py_XDECREF(s);
  }
  return list;
}

/* The problem in the text format (canonical order), as a str. */
static PyObject *problem_text(PyObject *op, PyObject *unused) {
  char *text = NULL;
  size_t length = 0;
  FILE *f = open_memstream(&text, &length);
  if (!f) return PyErr_NoMemory();
  weir_status status = weir_ifds_write_problem(P(op), f);
  fclose(f);
  PyObject *r = status == WEIR_OK ? PyUnicode_FromStringAndSize(text, (Py_ssize_t)length)
                                  : weirpy_raise(status, "Problem.text");
  free(text);
  return r;
}

static PyMethodDef problem_methods[] = {
    {"text", problem_text, METH_NOARGS, "The problem in the .ifds text format."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef problem_getset[] = {
    {"facts", get_facts, NULL, NULL, NULL},   {"procs", get_procs, NULL, NULL, NULL},
    {"nodes", get_nodes, NULL, NULL, NULL},   {"calls", get_calls, NULL, NULL, NULL},
    {"seeds", get_seeds, NULL, NULL, NULL},   {"edges", get_edges, NULL, NULL, NULL},
    {"source", get_source, NULL, NULL, NULL}, {"warnings", get_warnings, NULL, NULL, NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyType_Slot problem_slots[] = {
    {Py_tp_doc, "An IFDS problem: weir.ifds.load(path), loads(text) or Builder(...).build()."},
    {Py_tp_dealloc, problem_dealloc},
    {Py_tp_methods, problem_methods},
    {Py_tp_getset, problem_getset},
    {0, NULL},
};
static PyType_Spec problem_spec = {"weir.ifds.Problem", sizeof(Problem), 0, Py_TPFLAGS_DEFAULT,
                                   problem_slots};

static PyObject *ifds_load(PyObject *m, PyObject *args, PyObject *kwargs) {
  static char *names[] = {"path", "strict", NULL};
  PyObject *path;
  int strict = 0;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O&|$p:load", names, PyUnicode_FSConverter,
                                   &path, &strict))
    return NULL;
  weir_ifds_load_options options = {.strict = strict};
  weir_ifds_problem *p = NULL;
  weir_status status = weir_ifds_load_file_ex(PyBytes_AsString(path), &options, &p);
  Py_DECREF(path);
  return status == WEIR_OK ? problem_wrap(p) : weirpy_raise(status, NULL);
}

static PyObject *ifds_loads(PyObject *m, PyObject *args, PyObject *kwargs) {
  static char *names[] = {"text", "name", "strict", NULL};
  const char *text, *name = "<string>";
  Py_ssize_t length;
  int strict = 0;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "s#|s$p:loads", names, &text, &length, &name,
                                   &strict))
    return NULL;
  weir_ifds_load_options options = {.strict = strict};
  weir_ifds_problem *p = NULL;
  weir_status status = weir_ifds_load_memory_ex(name, text, (size_t)length, &options, &p);
  return status == WEIR_OK ? problem_wrap(p) : weirpy_raise(status, NULL);
}

/* A uint32 host array over `count` solver-owned elements (freed with the
 * array's chunk); an empty one when there are none. */
static PyObject *holds_array(weirpy_Backend *host, uint32_t *data, uint64_t count) {
  if (count == 0) {
    free(data);
    uint64_t zero = 0;
    return weirpy_array_alloc(host, 9 /* uint32 */, 1, &zero, "weir.ifds");
  }
  weir_view view;
  weir_status status = weir_chunk_import_external(host->backend, data, count * 4, free, data,
                                                  &view.chunk);
  if (status != WEIR_OK) {
    free(data);
    return weirpy_raise(status, "weir.ifds.solve");
  }
  status = weir_view_make(view.chunk, 0, 4, 1, &count, &view);
  if (status != WEIR_OK) {
    (void)weir_chunk_release(view.chunk);
    return weirpy_raise(status, "weir.ifds.solve");
  }
  return weirpy_array_wrap(host, &view, 9);
}

static PyObject *stats_dict(const weir_ifds_stats *s) {
  PyObject *d = Py_BuildValue(
      "{s:K,s:K,s:K,s:K,s:K,s:K,s:K,s:K,s:K,s:K,s:d,s:d,s:d}", "path_edges",
      (unsigned long long)s->path_edges, "summary_edges", (unsigned long long)s->summary_edges,
      "end_summaries", (unsigned long long)s->end_summaries, "iterations",
      (unsigned long long)s->iterations, "windows", (unsigned long long)s->windows, "host_syncs",
      (unsigned long long)s->host_syncs, "bytes_uploaded", (unsigned long long)s->bytes_uploaded,
      "bytes_downloaded", (unsigned long long)s->bytes_downloaded, "peak_resident_bytes",
      (unsigned long long)s->peak_resident_bytes, "growths", (unsigned long long)s->growths,
      "seconds_upload", s->seconds_upload, "seconds_solve", s->seconds_solve,
      "seconds_readback", s->seconds_readback);
  if (!d || s->devices == 0) return d;
  /* Across devices (a list of backends): the exchanges. */
  PyObject *more = Py_BuildValue("{s:I,s:K,s:K,s:K,s:d}", "devices", s->devices, "rounds",
                                 (unsigned long long)s->rounds, "exchanged_keys",
                                 (unsigned long long)s->exchanged_keys, "exchanged_bytes",
                                 (unsigned long long)s->exchanged_bytes, "seconds_exchange",
                                 s->seconds_exchange);
  if (!more || PyDict_Update(d, more) != 0) Py_CLEAR(d);
  Py_XDECREF(more);
  return d;
}

/* backend=[spec or Backend, ...]: one solve across those devices
 * (weir_ifds_solve_engine_multi). The Backend objects stay referenced in
 * `held` until the solve is done. */
static weir_status solve_across(PyObject *list, const weir_ifds_problem *problem,
                                weir_ifds_result *result, weir_ifds_stats *stats, int *raised) {
  Py_ssize_t n = PySequence_Size(list);
  *raised = 1;
  if (n < 1 || n > 64) {
    weirpy_raise_msg(WEIR_ERR_INVALID_ARGUMENT,
                     "backend is a list of %zd devices; a solve across devices takes 1 to 64. "
                     "Fix: pass e.g. backend=[\"cpu:0\", \"cpu:1\"].",
                     (Py_ssize_t)n);
    return WEIR_ERR_INVALID_ARGUMENT;
  }
  PyObject *held = PyList_New(0);
  weir_backend *backends[64];
  for (Py_ssize_t i = 0; held && i < n; ++i) {
    PyObject *item = PySequence_GetItem(list, i);
    if (item == Py_None) { /* None means "cpu" elsewhere; in a list it is a mistake */
      PyErr_Format(PyExc_TypeError,
                   "backend[%zd] is None: a device list takes spec strings (\"cpu:0\", "
                   "\"vulkan\", ...) or weir.Backend objects. Fix: name every device.",
                   i);
      Py_DECREF(item);
      Py_CLEAR(held);
      break;
    }
    weirpy_Backend *b = item ? weirpy_backend_resolve(item) : NULL;
    Py_XDECREF(item);
    if (!b || PyList_Append(held, (PyObject *)b) != 0) { /* b is borrowed */
      Py_CLEAR(held);
      break;
    }
    backends[i] = b->backend;
    for (Py_ssize_t j = 0; j < i; ++j)
      if (strcmp(((weirpy_Backend *)PyList_GetItem(held, j))->info.spec, b->info.spec) == 0) {
        weirpy_raise_msg(WEIR_ERR_INVALID_ARGUMENT,
                         "backend[%zd] and backend[%zd] open the same device (%s); a solve "
                         "across devices takes each device once. Fix: use distinct devices, "
                         "e.g. [\"cpu:0\", \"cpu:1\"].",
                         j, i, b->info.spec);
        Py_CLEAR(held);
        break;
      }
  }
  if (!held) return WEIR_ERR_INVALID_ARGUMENT;
  weir_status status =
      weir_ifds_solve_engine_multi(backends, (size_t)n, problem, NULL, result, stats);
  Py_DECREF(held);
  *raised = 0;
  return status;
}

/* _ifds_solve(problem, solver, backend) -> (nodes, facts, path_edges, stats) */
static PyObject *ifds_solve(PyObject *m, PyObject *args, PyObject *kwargs) {
  static char *names[] = {"problem", "solver", "backend", NULL};
  PyObject *problem, *device = NULL;
  const char *solver = "engine";
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O!|s$O:solve", names, ProblemType, &problem,
                                   &solver, &device))
    return NULL;
  int engine = strcmp(solver, "engine") == 0;
  if (!engine && strcmp(solver, "reference") != 0)
    return weirpy_raise_msg(WEIR_ERR_INVALID_ARGUMENT,
                            "unknown solver \"%s\". Fix: solver=\"engine\" (resident) or "
                            "\"reference\" (serial oracle).",
                            solver);
  weirpy_Backend *host = weirpy_backend_resolve(NULL); /* where the holds land */
  if (!host) return NULL;
  weirpy_Backend *on = NULL;
  int across = device && (PyList_Check(device) || PyTuple_Check(device));
  if (across && !engine)
    return weirpy_raise_msg(WEIR_ERR_INVALID_ARGUMENT,
                            "solver=\"reference\" with a list of backends: the reference "
                            "solver runs on the host, on no device. Fix: drop solver= to solve "
                            "across those devices with the engine, or drop backend=.");
  /* "cpu:0,cpu:1" is the same list as in `weir solve --backend`. */
  PyObject *split = NULL;
  if (device && PyUnicode_Check(device)) {
    const char *text = PyUnicode_AsUTF8AndSize(device, NULL);
    if (!text) return NULL;
    if (strchr(text, ',') && !engine)
      return weirpy_raise_msg(WEIR_ERR_INVALID_ARGUMENT,
                              "solver=\"reference\" with the device list \"%s\": the reference "
                              "solver runs on the host, on no device. Fix: drop solver= to solve "
                              "across those devices with the engine, or drop backend=.",
                              text);
    if (strchr(text, ',')) {
      PyObject *comma = PyUnicode_FromString(",");
      split = comma ? PyUnicode_Split(device, comma, -1) : NULL;
      Py_XDECREF(comma);
      if (!split) return NULL;
      device = split;
      across = 1;
    }
  }
  if (engine && !across) {
    PyObject *spec = device && device != Py_None ? Py_NewRef(device) : PyUnicode_FromString("auto");
    on = spec ? weirpy_backend_resolve(spec) : NULL;
    Py_XDECREF(spec);
    if (!on) return NULL;
  }
  weir_ifds_result result = {0};
  weir_ifds_stats stats = WEIR_IFDS_STATS_INIT;
  weir_status status;
  if (across) {
    int raised = 0;
    status = solve_across(device, P(problem), &result, &stats, &raised);
    Py_XDECREF(split);
    if (raised) return NULL;
  } else
    status = engine ? weir_ifds_solve_engine(on->backend, P(problem), NULL, &result, &stats)
                    : weir_ifds_solve_reference(P(problem), &result, &stats);
  if (status != WEIR_OK) return weirpy_raise(status, NULL);
  uint64_t count = result.hold_count, edges = result.path_edges;
  uint32_t *node = result.hold_node, *fact = result.hold_fact;
  PyObject *nodes = holds_array(host, node, count); /* each takes its block */
  PyObject *facts = holds_array(host, fact, count);
  PyObject *st = stats_dict(&stats);
  PyObject *r = nodes && facts && st ? Py_BuildValue("(OOKO)", nodes, facts,
                                                     (unsigned long long)edges, st)
                                     : NULL;
  Py_XDECREF(nodes);
  Py_XDECREF(facts);
  Py_XDECREF(st);
  return r;
}

/* ---- the builder --------------------------------------------------------- */

/* "O&" converter for a uint32 argument: an int in 0..4294967295, refused
 * otherwise ("I" would wrap -1 to 4294967295 and 2**32 + 1 to 1 silently). */
int weirpy_u32_arg(PyObject *o, void *out) {
  PyObject *index = PyNumber_Index(o);
  if (!index) return 0;
  int overflow = 0;
  long long v = PyLong_AsLongLongAndOverflow(index, &overflow);
  Py_DECREF(index);
  if (v == -1 && PyErr_Occurred()) return 0;
  if (overflow || v < 0 || v > (long long)UINT32_MAX) {
    PyErr_Format(PyExc_OverflowError,
                 "%R is out of range for an id or count (expected 0..4294967295). Fix: pass a "
                 "value in range.",
                 o);
    return 0;
  }
  *(unsigned int *)out = (unsigned int)v;
  return 1;
}

static int builder_init(PyObject *op, PyObject *args, PyObject *kwargs) {
  static char *names[] = {"facts", "procs", "nodes", NULL};
  unsigned int facts, procs, nodes;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O&O&O&:Builder", names, weirpy_u32_arg, &facts, weirpy_u32_arg, &procs,
                                   weirpy_u32_arg, &nodes))
    return -1;
  Builder *self = (Builder *)op;
  weir_ifds_builder_free(self->builder);
  self->builder = NULL;
  weir_status status = weir_ifds_builder_create(facts, procs, nodes, &self->builder);
  return status == WEIR_OK ? 0 : weirpy_fail(status, NULL);
}

static void builder_dealloc(PyObject *op) {
  PyTypeObject *type = Py_TYPE(op);
  weir_ifds_builder_free(((Builder *)op)->builder);
  ((freefunc)PyType_GetSlot(type, Py_tp_free))(op);
  Py_DECREF(type);
}

static weir_ifds_builder *live(PyObject *op) {
  weir_ifds_builder *b = ((Builder *)op)->builder;
  if (!b)
    weirpy_raise_msg(WEIR_ERR_INVALID_ARGUMENT,
                     "this weir.ifds.Builder was built already. Fix: make a new one.");
  return b;
}

#define DONE(status) ((status) == WEIR_OK ? Py_NewRef(Py_None) : weirpy_raise((status), NULL))

static PyObject *b_proc(PyObject *op, PyObject *args) {
  unsigned int id, first, last;
  const char *name;
  weir_ifds_builder *b = live(op);
  if (!b || !PyArg_ParseTuple(args, "O&O&O&s:proc", weirpy_u32_arg, &id, weirpy_u32_arg, &first, weirpy_u32_arg,
                               &last, &name)) return NULL;
  return DONE(weir_ifds_builder_proc(b, id, first, last, name));
}

/* A sequence of ints (kills) or of (from, to) pairs, as a uint32 array. */
int weirpy_u32_list(PyObject *seq, int pairs, uint32_t **out, size_t *count) {
  *out = NULL;
  *count = 0;
  if (!seq || seq == Py_None) return 0;
  Py_ssize_t n = PySequence_Size(seq);
  if (n < 0) return -1;
  uint32_t *a = PyMem_Calloc((size_t)n * (pairs ? 2 : 1) + 1, sizeof *a);
  if (!a) return PyErr_NoMemory(), -1;
  for (Py_ssize_t i = 0; i < n; ++i) {
    PyObject *item = PySequence_GetItem(seq, i);
    /* A pair must be a tuple: PyArg_ParseTuple on anything else is a SystemError. */
    int ok = item && (pairs ? (PyTuple_Check(item)
                                   ? PyArg_ParseTuple(item, "O&O&;a pair is (from, to)", weirpy_u32_arg,
                                                      &a[2 * i], weirpy_u32_arg, &a[2 * i + 1])
                                   : (PyErr_Format(PyExc_TypeError, "a pair is a tuple (from, "
                                                   "to), not %R. Fix: pass pairs=[(0, 1), ...].",
                                                   item), 0))
                            : weirpy_u32_arg(item, &a[i]));
    Py_XDECREF(item);
    if (!ok) {
      PyMem_Free(a);
      return -1;
    }
  }
  *out = a;
  *count = (size_t)n;
  return 0;
}

static PyObject *b_flow(PyObject *op, PyObject *args, PyObject *kwargs) {
  static char *names[] = {"identity", "kills", "pairs", NULL};
  int identity = 1;
  PyObject *kills_obj = NULL, *pairs_obj = NULL;
  weir_ifds_builder *b = live(op);
  if (!b || !PyArg_ParseTupleAndKeywords(args, kwargs, "|pOO:flow", names, &identity, &kills_obj,
                                         &pairs_obj))
    return NULL;
  uint32_t *kills = NULL, *pairs = NULL, flow = 0;
  size_t nk = 0, np = 0;
  PyObject *r = NULL;
  if (weirpy_u32_list(kills_obj, 0, &kills, &nk) == 0 && weirpy_u32_list(pairs_obj, 1, &pairs, &np) == 0) {
    weir_status status = weir_ifds_builder_flow(b, identity, kills, nk, pairs, np, &flow);
    r = status == WEIR_OK ? PyLong_FromUnsignedLong(flow) : weirpy_raise(status, NULL);
  }
  PyMem_Free(kills);
  PyMem_Free(pairs);
  return r;
}

static PyObject *b_edge(PyObject *op, PyObject *args) {
  unsigned int from, to, flow;
  weir_ifds_builder *b = live(op);
  if (!b || !PyArg_ParseTuple(args, "O&O&O&:edge", weirpy_u32_arg, &from, weirpy_u32_arg, &to, weirpy_u32_arg, &flow)) return NULL;
  return DONE(weir_ifds_builder_edge(b, from, to, flow));
}

static PyObject *b_call(PyObject *op, PyObject *args) {
  unsigned int site, ret, flow;
  weir_ifds_builder *b = live(op);
  if (!b || !PyArg_ParseTuple(args, "O&O&O&:call", weirpy_u32_arg, &site, weirpy_u32_arg, &ret, weirpy_u32_arg, &flow)) return NULL;
  return DONE(weir_ifds_builder_call(b, site, ret, flow));
}

static PyObject *b_callee(PyObject *op, PyObject *args) {
  unsigned int site, proc, call_flow, return_flow;
  weir_ifds_builder *b = live(op);
  if (!b || !PyArg_ParseTuple(args, "O&O&O&O&:callee", weirpy_u32_arg, &site, weirpy_u32_arg, &proc, weirpy_u32_arg,
                               &call_flow, weirpy_u32_arg, &return_flow))
    return NULL;
  return DONE(weir_ifds_builder_callee(b, site, proc, call_flow, return_flow));
}

static PyObject *b_seed(PyObject *op, PyObject *args) {
  unsigned int node, fact;
  weir_ifds_builder *b = live(op);
  if (!b || !PyArg_ParseTuple(args, "O&O&:seed", weirpy_u32_arg, &node, weirpy_u32_arg, &fact)) return NULL;
  return DONE(weir_ifds_builder_seed(b, node, fact));
}

static PyObject *b_build(PyObject *op, PyObject *unused) {
  weir_ifds_builder *b = live(op);
  if (!b) return NULL;
  weir_ifds_problem *p = NULL;
  weir_status status = weir_ifds_builder_build(b, &p);
  /* after build (or a failure of build) the builder only accepts free */
  weir_ifds_builder_free(b);
  ((Builder *)op)->builder = NULL;
  return status == WEIR_OK ? problem_wrap(p) : weirpy_raise(status, NULL);
}

static PyMethodDef builder_methods[] = {
    {"proc", b_proc, METH_VARARGS, "proc(id, first, last, name)"},
    {"flow", (PyCFunction)(void (*)(void))b_flow, METH_VARARGS | METH_KEYWORDS,
     "flow(identity=True, kills=(), pairs=()) -> flow index; pairs are (from, to)"},
    {"edge", b_edge, METH_VARARGS, "edge(from, to, flow)"},
    {"call", b_call, METH_VARARGS, "call(site, ret, flow)"},
    {"callee", b_callee, METH_VARARGS, "callee(site, proc, call_flow, return_flow)"},
    {"seed", b_seed, METH_VARARGS, "seed(node, fact)"},
    {"build", b_build, METH_NOARGS, "build() -> Problem (the builder is spent afterwards)"},
    {NULL, NULL, 0, NULL},
};

static PyType_Slot builder_slots[] = {
    {Py_tp_doc, "Builder(facts, procs, nodes): weir_ifds_builder_* from Python."},
    {Py_tp_new, PyType_GenericNew},
    {Py_tp_init, builder_init},
    {Py_tp_dealloc, builder_dealloc},
    {Py_tp_methods, builder_methods},
    {0, NULL},
};
static PyType_Spec builder_spec = {"weir.ifds.Builder", sizeof(Builder), 0, Py_TPFLAGS_DEFAULT,
                                   builder_slots};

static PyMethodDef ifds_functions[] = {
    {"_ifds_load", (PyCFunction)(void (*)(void))ifds_load, METH_VARARGS | METH_KEYWORDS, NULL},
    {"_ifds_loads", (PyCFunction)(void (*)(void))ifds_loads, METH_VARARGS | METH_KEYWORDS, NULL},
    {"_ifds_solve", (PyCFunction)(void (*)(void))ifds_solve, METH_VARARGS | METH_KEYWORDS, NULL},
    {NULL, NULL, 0, NULL},
};

int weirpy_ifds_init(PyObject *module) {
  ProblemType = (PyTypeObject *)PyType_FromSpec(&problem_spec);
  BuilderType = (PyTypeObject *)PyType_FromSpec(&builder_spec);
  if (!ProblemType || !BuilderType ||
      PyModule_AddObjectRef(module, "IfdsProblem", (PyObject *)ProblemType) < 0 ||
      PyModule_AddObjectRef(module, "IfdsBuilder", (PyObject *)BuilderType) < 0)
    return -1;
  return PyModule_AddFunctions(module, ifds_functions);
}
