/* weir.Backend: one open backend instance (weir_backend_open), the device
 * that arrays live on. device="cpu" and friends go through a cache with one
 * instance per device spec, so that arrays made with the same device string
 * share an instance and move between each other without copies. */
#include <string.h>

#include "weirpy.h"

PyTypeObject *weirpy_BackendType;
static PyObject *cache; /* dict: the user's string and info.spec -> Backend */

static int backend_open(weirpy_Backend *self, const char *spec) {
  weir_backend *b = NULL;
  weir_status status = weir_backend_open(spec, &b);
  if (status != WEIR_OK) return weirpy_fail_open(status, spec);
  self->info.struct_size = sizeof self->info;
  status = weir_backend_device_info(b, &self->info);
  if (status == WEIR_OK) status = weir_dlpack_device(b, &self->device);
  if (status != WEIR_OK) {
    weir_backend_close(b);
    return weirpy_fail(status, NULL);
  }
  self->backend = b;
  self->is_host = self->device.device_type == kDLCPU;
  return 0;
}

static int backend_init(PyObject *op, PyObject *args, PyObject *kwargs) {
  static char *names[] = {"spec", NULL};
  const char *spec = "auto";
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|s:Backend", names, &spec)) return -1;
  weirpy_Backend *self = (weirpy_Backend *)op;
  if (self->backend) {
    PyErr_SetString(PyExc_RuntimeError, "weir.Backend is already open");
    return -1;
  }
  return backend_open(self, spec);
}

static void backend_dealloc(PyObject *op) {
  weirpy_Backend *self = (weirpy_Backend *)op;
  PyTypeObject *type = Py_TYPE(op);
  /* Drops this object's reference; chunks of arrays and DLPack exports
   * still alive hold their own. */
  weir_backend_close(self->backend);
  freefunc free_fn = (freefunc)PyType_GetSlot(type, Py_tp_free);
  free_fn(op);
  Py_DECREF(type);
}

static int require_open(weirpy_Backend *self) {
  if (self->backend) return 0;
  weirpy_raise_msg(WEIR_ERR_INVALID_ARGUMENT,
                   "weir.Backend %s is closed. Fix: open a new one with weir.Backend(\"%s\").",
                   self->info.spec, self->info.spec);
  return -1;
}

weirpy_Backend *weirpy_backend_resolve(PyObject *device) {
  if (device && PyObject_TypeCheck(device, weirpy_BackendType)) {
    if (require_open((weirpy_Backend *)device) < 0) return NULL;
    return (weirpy_Backend *)device;
  }
  PyObject *key = (!device || device == Py_None) ? PyUnicode_FromString("cpu") : Py_NewRef(device);
  if (!key) return NULL;
  if (!PyUnicode_Check(key)) {
    PyErr_Format(PyExc_TypeError,
                 "device must be a spec string (\"cpu\", \"vulkan:0\", ...) or a weir.Backend, "
                 "not %R",
                 key);
    Py_DECREF(key);
    return NULL;
  }
  PyObject *hit = PyDict_GetItemWithError(cache, key); /* borrowed */
  if (hit || PyErr_Occurred()) {
    Py_DECREF(key);
    return (weirpy_Backend *)hit;
  }
  /* allocated, not called: calling the type would open "auto" in __init__ */
  allocfunc alloc = (allocfunc)PyType_GetSlot(weirpy_BackendType, Py_tp_alloc);
  weirpy_Backend *fresh = (weirpy_Backend *)alloc(weirpy_BackendType, 0);
  if (!fresh || backend_open(fresh, PyUnicode_AsUTF8AndSize(key, NULL)) < 0) {
    Py_XDECREF((PyObject *)fresh);
    Py_DECREF(key);
    return NULL;
  }
  /* "cpu" and "cpu:0" are one device: keep the instance already cached
   * under its canonical spec, if any. */
  PyObject *canonical = PyDict_GetItemString(cache, fresh->info.spec);
  weirpy_Backend *result = canonical ? (weirpy_Backend *)canonical : fresh;
  int bad = PyDict_SetItem(cache, key, (PyObject *)result) < 0 ||
            (!canonical && PyDict_SetItemString(cache, fresh->info.spec, (PyObject *)fresh) < 0);
  Py_DECREF((PyObject *)fresh);
  Py_DECREF(key);
  return bad ? NULL : result; /* the cache holds it */
}

static PyObject *backend_close(PyObject *op, PyObject *unused) {
  weirpy_Backend *self = (weirpy_Backend *)op;
  weir_backend_close(self->backend);
  self->backend = NULL;
  Py_RETURN_NONE;
}

static PyObject *backend_enter(PyObject *op, PyObject *unused) { return Py_NewRef(op); }
static PyObject *backend_exit(PyObject *op, PyObject *args) { return backend_close(op, NULL); }

static PyObject *info_dict(const weir_device_info *info) {
  return Py_BuildValue("{s:s,s:s,s:s,s:s,s:s,s:K,s:(ii),s:K,s:s}", "backend", info->backend_id,
                       "spec", info->spec, "name", info->name, "kind", info->kind, "driver",
                       info->driver, "memory_bytes", (unsigned long long)info->memory_bytes,
                       "dlpack_device", (int)info->dl_device_type, (int)info->dl_device_id,
                       "max_binding_bytes", (unsigned long long)info->max_binding_bytes,
                       "details", info->details);
}

static PyObject *backend_get_info(PyObject *op, void *unused) {
  return info_dict(&((weirpy_Backend *)op)->info);
}
static PyObject *backend_get_spec(PyObject *op, void *unused) {
  return PyUnicode_FromString(((weirpy_Backend *)op)->info.spec);
}
static PyObject *backend_get_id(PyObject *op, void *unused) {
  return PyUnicode_FromString(((weirpy_Backend *)op)->info.backend_id);
}
static PyObject *backend_get_closed(PyObject *op, void *unused) {
  return PyBool_FromLong(((weirpy_Backend *)op)->backend == NULL);
}

static PyObject *backend_stats(PyObject *op, PyObject *unused) {
  weirpy_Backend *self = (weirpy_Backend *)op;
  if (require_open(self) < 0) return NULL;
  weir_backend_stats s;
  weir_backend_get_stats(self->backend, &s);
  return Py_BuildValue("{s:K,s:K,s:K,s:K,s:K,s:K,s:K,s:K}", "host_syncs",
                       (unsigned long long)s.host_syncs, "dispatches",
                       (unsigned long long)s.dispatches, "uploads", (unsigned long long)s.uploads,
                       "bytes_uploaded", (unsigned long long)s.bytes_uploaded, "bytes_downloaded",
                       (unsigned long long)s.bytes_downloaded, "resident_bytes",
                       (unsigned long long)s.resident_bytes, "peak_resident_bytes",
                       (unsigned long long)s.peak_resident_bytes, "live_buffers",
                       (unsigned long long)s.live_buffers);
}

/* One step: (program name, [arrays], push constants (bytes-like) or None,
 * grid (x, y, z) or None). Programs bind each array's whole buffer. */
typedef struct {
  weir_buffer bindings[8];
  Py_buffer push;
  int has_push;
} step_extra;

static int parse_step(weirpy_Backend *self, PyObject *item, weir_step *step, step_extra *extra) {
  PyObject *name = NULL, *arrays = NULL, *push = Py_None, *grid = Py_None;
  if (!PyTuple_Check(item) ||
      !PyArg_ParseTuple(item, "UO|OO:step", &name, &arrays, &push, &grid)) {
    if (!PyErr_Occurred())
      PyErr_SetString(PyExc_TypeError,
                      "a step is a tuple (program name, [arrays], push constants or None, grid "
                      "or None)");
    return -1;
  }
  const char *pname = PyUnicode_AsUTF8AndSize(name, NULL);
  const weir_program *program = weir_backend_find_program(self->backend, pname);
  if (!program) {
    weirpy_raise_msg(WEIR_ERR_INVALID_ARGUMENT,
                     "no program named \"%s\" on %s. Fix: use a built-in (fill_u32, copy_u32, "
                     "add_u32, counter_u32, atomic_add_u32, noop) or register yours in C.",
                     pname, self->info.spec);
    return -1;
  }
  Py_ssize_t n = PySequence_Size(arrays);
  if (n < 0) return -1;
  if (n > 8) {
    weirpy_raise_msg(WEIR_ERR_UNSUPPORTED, "step %s binds %zd arrays; at most 8 from Python.",
                     pname, n);
    return -1;
  }
  for (Py_ssize_t i = 0; i < n; ++i) {
    PyObject *a = PySequence_GetItem(arrays, i);
    if (!a) return -1;
    int ok = weirpy_Array_Check(a) && ((weirpy_Array *)a)->wb == self->backend;
    if (ok) extra->bindings[i] = weir_chunk_buffer(((weirpy_Array *)a)->view.chunk);
    Py_DECREF(a);
    if (!ok) {
      weirpy_raise_msg(WEIR_ERR_FOREIGN_RESOURCE,
                       "step %s: binding %zd is not a weir.Array of %s. Fix: make it there "
                       "(weir.asarray(x, device=backend)).",
                       pname, i, self->info.spec);
      return -1;
    }
  }
  *step = (weir_step){.program = program, .bindings = extra->bindings,
                      .binding_count = (uint32_t)n};
  if (push != Py_None) {
    if (PyObject_GetBuffer(push, &extra->push, PyBUF_SIMPLE) < 0) return -1;
    extra->has_push = 1;
    step->push_constants = extra->push.buf;
    step->push_constant_bytes = (uint32_t)extra->push.len;
  }
  if (grid != Py_None &&
      !PyArg_ParseTuple(grid, "III:grid", &step->grid.x, &step->grid.y, &step->grid.z))
    return -1;
  return 0;
}

/* run(steps, repeat=1): the steps as ONE sequence behind one host
 * synchronization (weir_dispatch_repeated_sequence_read_ranges_into). */
static PyObject *backend_run(PyObject *op, PyObject *args, PyObject *kwargs) {
  static char *names[] = {"steps", "repeat", NULL};
  weirpy_Backend *self = (weirpy_Backend *)op;
  PyObject *steps_obj;
  unsigned long long repeat = 1;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|K:run", names, &steps_obj, &repeat))
    return NULL;
  if (require_open(self) < 0) return NULL;
  Py_ssize_t n = PySequence_Size(steps_obj);
  if (n < 0) return NULL;
  weir_step *steps = PyMem_Calloc((size_t)n + 1, sizeof *steps);
  step_extra *extra = PyMem_Calloc((size_t)n + 1, sizeof *extra);
  PyObject *result = NULL;
  if (!steps || !extra) {
    PyErr_NoMemory();
    goto done;
  }
  for (Py_ssize_t i = 0; i < n; ++i) {
    PyObject *item = PySequence_GetItem(steps_obj, i);
    int bad = !item || parse_step(self, item, &steps[i], &extra[i]) < 0;
    Py_XDECREF(item);
    if (bad) goto done;
  }
  weir_status status = weir_dispatch_repeated_sequence_read_ranges_into(
      self->backend, NULL, 0, steps, (size_t)n, repeat, NULL, 0, NULL, 0);
  result = status == WEIR_OK ? Py_NewRef(Py_None) : weirpy_raise(status, "Backend.run");
done:
  for (Py_ssize_t i = 0; extra && i < n; ++i)
    if (extra[i].has_push) PyBuffer_Release(&extra[i].push);
  PyMem_Free(steps);
  PyMem_Free(extra);
  return result;
}

static PyObject *backend_repr(PyObject *op) {
  weirpy_Backend *self = (weirpy_Backend *)op;
  return PyUnicode_FromFormat("<weir.Backend %s (%s)%s>", self->info.spec, self->info.name,
                              self->backend ? "" : " closed");
}

static PyMethodDef backend_methods[] = {
    {"close", backend_close, METH_NOARGS,
     "Drop this object's reference; arrays and DLPack exports keep the instance alive."},
    {"stats", backend_stats, METH_NOARGS, "The instance's counters (weir_backend_get_stats)."},
    {"run", (PyCFunction)(void (*)(void))backend_run, METH_VARARGS | METH_KEYWORDS,
     "run(steps, repeat=1): steps (name, [arrays], push bytes|None, grid|None) as one "
     "sequence, repeated `repeat` times, behind one synchronization."},
    {"__enter__", backend_enter, METH_NOARGS, NULL},
    {"__exit__", backend_exit, METH_VARARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef backend_getset[] = {
    {"info", backend_get_info, NULL, "weir_device_info as a dict", NULL},
    {"spec", backend_get_spec, NULL, "the device spec, e.g. \"cpu:0\"", NULL},
    {"id", backend_get_id, NULL, "the backend id: cpu, vulkan, cuda or a plugin's", NULL},
    {"closed", backend_get_closed, NULL, "True after close()", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyType_Slot backend_slots[] = {
    {Py_tp_doc, "Backend(spec=\"auto\"): an open weir backend instance (a device)."},
    {Py_tp_init, backend_init},
    {Py_tp_new, PyType_GenericNew},
    {Py_tp_dealloc, backend_dealloc},
    {Py_tp_methods, backend_methods},
    {Py_tp_getset, backend_getset},
    {Py_tp_repr, backend_repr},
    {0, NULL},
};

static PyType_Spec backend_spec = {"weir.Backend", sizeof(weirpy_Backend), 0, Py_TPFLAGS_DEFAULT,
                                   backend_slots};

/* weir.devices(): every device of every available backend, as info dicts;
 * unavailable backends are listed with available False and the reason. */
PyObject *weirpy_devices(PyObject *module, PyObject *unused) {
  weir_backend_report reports[32];
  size_t count = 0;
  weir_status status = weir_backend_reports(reports, 32, &count);
  if (status != WEIR_OK) return weirpy_raise(status, "weir.devices");
  if (count > 32) count = 32;
  PyObject *list = PyList_New(0);
  for (size_t i = 0; list && i < count; ++i) {
    if (!reports[i].available) {
      PyObject *entry = Py_BuildValue("{s:s,s:O,s:s}", "backend", reports[i].id, "available",
                                      Py_False, "reason", reports[i].reason);
      if (!entry || PyList_Append(list, entry) < 0) Py_CLEAR(list);
      Py_XDECREF(entry);
      continue;
    }
    for (uint32_t d = 0; list && d < reports[i].device_count; ++d) {
      weir_device_info info = WEIR_DEVICE_INFO_INIT;
      if (weir_backend_describe(reports[i].id, d, &info) != WEIR_OK) continue;
      PyObject *entry = info_dict(&info);
      if (!entry || PyDict_SetItemString(entry, "available", Py_True) < 0 ||
          PyList_Append(list, entry) < 0)
        Py_CLEAR(list);
      Py_XDECREF(entry);
    }
  }
  return list;
}

int weirpy_backend_init(PyObject *module) {
  weirpy_BackendType = (PyTypeObject *)PyType_FromSpec(&backend_spec);
  if (!weirpy_BackendType) return -1;
  if (PyModule_AddObjectRef(module, "Backend", (PyObject *)weirpy_BackendType) < 0) return -1;
  cache = PyDict_New();
  if (!cache) return -1;
  /* Exposed so that tests and users can see (and drop) the cached instances. */
  return PyModule_AddObjectRef(module, "_backends", cache);
}
