/* weir.Array: a typed, strided view of a resident chunk on one backend.
 * The array holds one chunk reference and the chunk holds its backend
 * instance, so an array stays valid after its weir.Backend is closed. */
#include <stdio.h>
#include <string.h>

#include "weirpy.h"

PyTypeObject *weirpy_ArrayType;

uint64_t weirpy_array_nbytes(const weirpy_Array *a) {
  return weir_view_element_count(&a->view) * a->view.element_bytes;
}

int weirpy_array_is_contiguous(const weirpy_Array *a) {
  uint64_t expect = 1;
  for (uint32_t d = a->view.ndim; d-- > 0;) {
    if (a->view.shape[d] != 1 && a->view.strides[d] != expect) return 0;
    expect *= a->view.shape[d];
  }
  return 1;
}

char *weirpy_array_host_ptr(weirpy_Array *a) {
  if (!a->is_host) return NULL;
  void *base = NULL;
  if (weir_buffer_export_pointer(a->wb, weir_chunk_buffer(a->view.chunk), &base) != WEIR_OK)
    return NULL;
  return (char *)base + a->view.byte_offset;
}

PyObject *weirpy_array_wrap(weirpy_Backend *backend, const weir_view *view, int dtype) {
  allocfunc alloc = (allocfunc)PyType_GetSlot(weirpy_ArrayType, Py_tp_alloc);
  weirpy_Array *a = (weirpy_Array *)alloc(weirpy_ArrayType, 0);
  if (!a) {
    (void)weir_chunk_release(view->chunk);
    return NULL;
  }
  a->owner = Py_NewRef((PyObject *)backend);
  a->wb = weir_chunk_backend(view->chunk);
  a->view = *view;
  a->dtype = dtype;
  a->is_host = backend->is_host;
  for (uint32_t d = 0; d < view->ndim; ++d) {
    a->shape[d] = (Py_ssize_t)view->shape[d];
    a->strides[d] = (Py_ssize_t)(view->strides[d] * view->element_bytes);
  }
  return (PyObject *)a;
}

/* "4096.0 GiB" (binary units, one decimal; bytes below 1 KiB). */
static const char *format_gib(char *buf, size_t n, uint64_t bytes) {
  static const char *const units[] = {"KiB", "MiB", "GiB", "TiB"};
  if (bytes < 1024) {
    snprintf(buf, n, "%llu bytes", (unsigned long long)bytes);
    return buf;
  }
  /* GiB from 1 GiB up (what the reader compares with a device's memory). */
  int u = bytes >= (1ull << 30) ? 2 : bytes >= (1ull << 20) ? 1 : 0;
  snprintf(buf, n, "%.1f %s", (double)bytes / (double)(1ull << (10 * (u + 1))), units[u]);
  return buf;
}

/* Out of memory, in Python terms: the call, the array's size, the device,
 * its memory and what weir holds there; the C chain in .c_message. */
static PyObject *raise_out_of_memory(weirpy_Backend *backend, weir_status status, const char *call,
                                     int dtype, uint64_t bytes) {
  char c_message[2048], need[32], total[32], held[32], free_text[32];
  snprintf(c_message, sizeof c_message, "%s", weir_last_error());
  weir_backend_stats stats;
  memset(&stats, 0, sizeof stats);
  weir_backend_get_stats(backend->backend, &stats);
  const weir_device_info *info = &backend->info;
  format_gib(need, sizeof need, bytes);
  if (info->memory_bytes) {
    uint64_t in_use = stats.resident_bytes < info->memory_bytes ? stats.resident_bytes : info->memory_bytes;
    format_gib(total, sizeof total, info->memory_bytes);
    format_gib(held, sizeof held, in_use);
    format_gib(free_text, sizeof free_text, info->memory_bytes - in_use);
    return weirpy_raise_c(status, c_message,
                          "%s: the %s array needs %s (%llu bytes), more than device '%s' (%s) has "
                          "free: %s of %s (weir arrays hold %s there). Fix: make the array "
                          "smaller or split it into several, free arrays you no longer need on "
                          "'%s' (del a), or put it on a device with more memory (weir.devices() "
                          "lists them).",
                          call, weirpy_dtypes[dtype].name, need, (unsigned long long)bytes,
                          info->spec, info->name, free_text, total, held, info->spec);
  }
  return weirpy_raise_c(status, c_message,
                        "%s: the %s array needs %s (%llu bytes) and device '%s' (%s) cannot hold "
                        "it (it does not report its memory). Fix: make the array smaller or "
                        "split it into several, or put it on a device with more memory "
                        "(weir.devices() lists them).",
                        call, weirpy_dtypes[dtype].name, need, (unsigned long long)bytes,
                        info->spec, info->name);
}

PyObject *weirpy_array_alloc(weirpy_Backend *backend, int dtype, uint32_t ndim,
                             const uint64_t *shape, const char *call) {
  uint32_t item = weirpy_dtypes[dtype].dl.bits / 8u;
  uint64_t bytes = item;
  if (!call) call = "weir.Array";
  for (uint32_t d = 0; d < ndim; ++d)
    if (__builtin_mul_overflow(bytes, shape[d], &bytes))
      return weirpy_raise_msg(WEIR_ERR_OUT_OF_RANGE,
                              "%s: the shape's byte size overflows 64 bits. Fix: a smaller shape.",
                              call);
  weir_chunk *chunk = NULL;
  /* weir buffers hold at least one byte; an empty array keeps one. */
  weir_status status = weir_chunk_allocate(backend->backend, bytes ? bytes : 1, &chunk);
  if (status == WEIR_ERR_OUT_OF_MEMORY)
    return raise_out_of_memory(backend, status, call, dtype, bytes);
  if (status != WEIR_OK) return weirpy_raise(status, call);
  weir_view view;
  status = weir_view_make(chunk, 0, item, ndim, shape, &view);
  if (status != WEIR_OK) {
    (void)weir_chunk_release(chunk);
    return weirpy_raise(status, call);
  }
  return weirpy_array_wrap(backend, &view, dtype);
}

int weirpy_parse_shape(PyObject *obj, uint32_t *ndim, uint64_t *shape) {
  if (PyLong_Check(obj)) {
    PyObject *tuple = PyTuple_Pack(1, obj);
    if (!tuple) return -1;
    int r = weirpy_parse_shape(tuple, ndim, shape);
    Py_DECREF(tuple);
    return r;
  }
  Py_ssize_t n = PySequence_Size(obj);
  if (n < 0) return -1;
  if (n > WEIR_VIEW_MAX_DIMS) {
    weirpy_raise_msg(WEIR_ERR_UNSUPPORTED,
                     "shape %R has %zd dimensions; weir arrays have at most %d. Fix: merge "
                     "dimensions.",
                     obj, n, WEIR_VIEW_MAX_DIMS);
    return -1;
  }
  for (Py_ssize_t i = 0; i < n; ++i) {
    PyObject *item = PySequence_GetItem(obj, i);
    if (!item) return -1;
    long long v = PyLong_AsLongLong(item);
    Py_DECREF(item);
    if (v == -1 && PyErr_Occurred()) return -1;
    if (v < 0) {
      PyErr_Format(PyExc_ValueError, "negative extent %lld in shape %R", v, obj);
      return -1;
    }
    shape[i] = (uint64_t)v;
  }
  *ndim = (uint32_t)n;
  return 0;
}

static void array_dealloc(PyObject *op) {
  weirpy_Array *self = (weirpy_Array *)op;
  PyTypeObject *type = Py_TYPE(op);
  (void)weir_chunk_release(self->view.chunk); /* DLPack exports keep their own reference */
  Py_XDECREF(self->owner);
  freefunc free_fn = (freefunc)PyType_GetSlot(type, Py_tp_free);
  free_fn(op);
  Py_DECREF(type);
}

static PyObject *tuple_of(const weirpy_Array *a, const Py_ssize_t *values) {
  PyObject *t = PyTuple_New(a->view.ndim);
  for (uint32_t d = 0; t && d < a->view.ndim; ++d) {
    PyObject *v = PyLong_FromSsize_t(values[d]);
    if (!v || PyTuple_SetItem(t, d, v) < 0) Py_CLEAR(t);
  }
  return t;
}

#define A(op) ((weirpy_Array *)(op))
static PyObject *get_shape(PyObject *op, void *c) { return tuple_of(A(op), A(op)->shape); }
static PyObject *get_strides(PyObject *op, void *c) { return tuple_of(A(op), A(op)->strides); }
static PyObject *get_ndim(PyObject *op, void *c) { return PyLong_FromLong(A(op)->view.ndim); }
static PyObject *get_dtype(PyObject *op, void *c) {
  return PyUnicode_FromString(weirpy_dtypes[A(op)->dtype].name);
}
static PyObject *get_itemsize(PyObject *op, void *c) {
  return PyLong_FromLong(A(op)->view.element_bytes);
}
static PyObject *get_size(PyObject *op, void *c) {
  return PyLong_FromUnsignedLongLong(weir_view_element_count(&A(op)->view));
}
static PyObject *get_nbytes(PyObject *op, void *c) {
  return PyLong_FromUnsignedLongLong(weirpy_array_nbytes(A(op)));
}
static PyObject *get_device(PyObject *op, void *c) {
  return PyUnicode_FromString(((weirpy_Backend *)A(op)->owner)->info.spec);
}
static PyObject *get_backend(PyObject *op, void *c) { return Py_NewRef(A(op)->owner); }
static PyObject *get_contiguous(PyObject *op, void *c) {
  return PyBool_FromLong(weirpy_array_is_contiguous(A(op)));
}
/* The consumer pointer of the first element (host address on cpu,
 * CUdeviceptr on cuda); None where the backend has none (vulkan). */
static PyObject *get_ptr(PyObject *op, void *c) {
  void *base = NULL;
  if (weir_buffer_export_pointer(A(op)->wb, weir_chunk_buffer(A(op)->view.chunk), &base) !=
      WEIR_OK) {
    weir_clear_error();
    Py_RETURN_NONE;
  }
  return PyLong_FromUnsignedLongLong((uintptr_t)base + A(op)->view.byte_offset);
}

/* __cuda_array_interface__ (version 3) for arrays on cuda; AttributeError
 * elsewhere, so that consumers fall back to DLPack. */
static PyObject *get_cai(PyObject *op, void *c) {
  weirpy_Array *a = A(op);
  if (((weirpy_Backend *)a->owner)->device.device_type != kDLCUDA) {
    PyErr_SetString(PyExc_AttributeError,
                    "__cuda_array_interface__ exists on CUDA arrays only; use __dlpack__");
    return NULL;
  }
  static const char kinds[] = {[kDLInt] = 'i', [kDLUInt] = 'u', [kDLFloat] = 'f'};
  DLDataType dl = weirpy_dtypes[a->dtype].dl;
  char typestr[8];
  if (dl.code == WEIR_DLPACK_BOOL) snprintf(typestr, sizeof typestr, "|b1");
  else if (dl.code == kDLBfloat) snprintf(typestr, sizeof typestr, "<V2");
  else snprintf(typestr, sizeof typestr, "<%c%u", kinds[dl.code], dl.bits / 8u);
  PyObject *ptr = get_ptr(op, NULL);
  if (!ptr) return NULL;
  (void)weir_finish(a->wb); /* no stream: the consumer may read at once */
  PyObject *shape = get_shape(op, NULL);
  PyObject *strides = weirpy_array_is_contiguous(a) ? Py_NewRef(Py_None) : get_strides(op, NULL);
  PyObject *r = (shape && strides)
                    ? Py_BuildValue("{s:O,s:s,s:(OO),s:O,s:i,s:O}", "shape", shape, "typestr",
                                    typestr, "data", ptr, Py_False, "strides", strides, "version",
                                    3, "stream", Py_None)
                    : NULL;
  Py_XDECREF(shape);
  Py_XDECREF(strides);
  Py_DECREF(ptr);
  return r;
}

/* numpy.asarray tries the buffer protocol first and silently falls back to
 * __array__; this makes refusals (bfloat16, device arrays) reach the caller
 * instead of yielding an object array. */
static PyObject *array_array(PyObject *op, PyObject *args, PyObject *kwargs) {
  PyObject *view = PyMemoryView_FromObject(op);
  if (!view) return NULL;
  PyObject *numpy = PyImport_ImportModule("numpy");
  PyObject *r = numpy ? PyObject_CallMethod(numpy, "asarray", "O", view) : NULL;
  Py_XDECREF(numpy);
  Py_DECREF(view);
  return r;
}

static PyObject *array_repr(PyObject *op) {
  PyObject *shape = get_shape(op, NULL);
  if (!shape) return NULL;
  PyObject *r = PyUnicode_FromFormat("<weir.Array shape=%R dtype=%s device=%s>", shape,
                                     weirpy_dtypes[A(op)->dtype].name,
                                     ((weirpy_Backend *)A(op)->owner)->info.spec);
  Py_DECREF(shape);
  return r;
}

static Py_ssize_t array_len(PyObject *op) {
  if (A(op)->view.ndim == 0) {
    PyErr_SetString(PyExc_TypeError, "len() of a 0-d weir.Array");
    return -1;
  }
  return A(op)->shape[0];
}

static PyMethodDef array_methods[] = {
    {"__dlpack__", (PyCFunction)(void (*)(void))weirpy_array_dlpack, METH_VARARGS | METH_KEYWORDS,
     "__dlpack__(stream=None, max_version=None, dl_device=None, copy=None): a DLPack capsule "
     "sharing this array's memory."},
    {"__dlpack_device__", weirpy_array_dlpack_device, METH_NOARGS, "(device type, device id)"},
    {"__array__", (PyCFunction)(void (*)(void))array_array, METH_VARARGS | METH_KEYWORDS,
     "numpy.asarray(a) of a host array (shares memory)."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef array_getset[] = {
    {"shape", get_shape, NULL, "extents", NULL},
    {"strides", get_strides, NULL, "strides in BYTES (as numpy)", NULL},
    {"ndim", get_ndim, NULL, NULL, NULL},
    {"dtype", get_dtype, NULL, "the dtype's name", NULL},
    {"itemsize", get_itemsize, NULL, NULL, NULL},
    {"size", get_size, NULL, "elements", NULL},
    {"nbytes", get_nbytes, NULL, "size * itemsize", NULL},
    {"ptr", get_ptr, NULL, "address of the first element, or None (vulkan)", NULL},
    {"device", get_device, NULL, "the device spec, e.g. \"cpu:0\"", NULL},
    {"backend", get_backend, NULL, "the weir.Backend", NULL},
    {"is_contiguous", get_contiguous, NULL, "C-contiguous", NULL},
    {"__cuda_array_interface__", get_cai, NULL, "CUDA arrays only", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

/* No arithmetic, by design: a weir.Array is a resident container that the
 * array libraries read without a copy. Operators raise a TypeError that says
 * so and gives the idioms; with a foreign array on the other side (numpy,
 * cupy: __array_ufunc__; torch: __torch_function__) they return
 * NotImplemented so that library's reflected operator computes (a + x, x + a
 * with x a numpy array work as before). */
static int foreign_array(PyObject *o) {
  if (weirpy_Array_Check(o)) return 0;
  return PyObject_HasAttrString(o, "__array_ufunc__") ||
         PyObject_HasAttrString(o, "__torch_function__");
}

static PyObject *no_arithmetic(const char *op) {
  PyErr_Format(PyExc_TypeError,
               "weir.Array has no arithmetic (%s): it is a resident container that numpy, torch "
               "and cupy read without a copy. Fix: compute there, e.g. np.asarray(a) + 1 (host "
               "arrays), torch.from_dlpack(a), cupy.from_dlpack(a) (CUDA arrays); "
               "weir.asarray(result, device=a.device) puts a result back (docs/python.md, "
               "\"Arrays have no operators\").",
               op);
  return NULL;
}

#define WEIRPY_BINARY(name, op)                                              \
  static PyObject *name(PyObject *x, PyObject *y) {                         \
    if (foreign_array(x) || foreign_array(y)) Py_RETURN_NOTIMPLEMENTED;     \
    return no_arithmetic(op);                                               \
  }
WEIRPY_BINARY(array_add, "+")
WEIRPY_BINARY(array_sub, "-")
WEIRPY_BINARY(array_mul, "*")
WEIRPY_BINARY(array_truediv, "/")
WEIRPY_BINARY(array_floordiv, "//")
WEIRPY_BINARY(array_mod, "%")
WEIRPY_BINARY(array_matmul, "@")
WEIRPY_BINARY(array_and, "&")
WEIRPY_BINARY(array_or, "|")
WEIRPY_BINARY(array_xor, "^")
WEIRPY_BINARY(array_lshift, "<<")
WEIRPY_BINARY(array_rshift, ">>")
#undef WEIRPY_BINARY

static PyObject *array_pow(PyObject *x, PyObject *y, PyObject *z) {
  if (foreign_array(x) || foreign_array(y)) Py_RETURN_NOTIMPLEMENTED;
  return no_arithmetic("**");
}
static PyObject *array_neg(PyObject *x) { return no_arithmetic("unary -"); }
static PyObject *array_pos(PyObject *x) { return no_arithmetic("unary +"); }
static PyObject *array_abs(PyObject *x) { return no_arithmetic("abs()"); }
static PyObject *array_invert(PyObject *x) { return no_arithmetic("~"); }

static PyType_Slot array_slots[] = {
    {Py_nb_add, array_add},
    {Py_nb_subtract, array_sub},
    {Py_nb_multiply, array_mul},
    {Py_nb_true_divide, array_truediv},
    {Py_nb_floor_divide, array_floordiv},
    {Py_nb_remainder, array_mod},
    {Py_nb_matrix_multiply, array_matmul},
    {Py_nb_and, array_and},
    {Py_nb_or, array_or},
    {Py_nb_xor, array_xor},
    {Py_nb_lshift, array_lshift},
    {Py_nb_rshift, array_rshift},
    {Py_nb_power, array_pow},
    {Py_nb_negative, array_neg},
    {Py_nb_positive, array_pos},
    {Py_nb_absolute, array_abs},
    {Py_nb_invert, array_invert},
    {Py_tp_doc, "A resident array; make one with weir.zeros / empty / full / asarray. No "
                "operators: compute with numpy, torch or cupy on it without a copy "
                "(np.asarray(a), torch.from_dlpack(a), cupy.from_dlpack(a))."},
    {Py_tp_dealloc, array_dealloc},
    {Py_tp_methods, array_methods},
    {Py_tp_getset, array_getset},
    {Py_tp_repr, array_repr},
    {Py_sq_length, array_len},
    {Py_bf_getbuffer, NULL}, /* filled from buffer.c */
    {Py_bf_releasebuffer, NULL},
    {0, NULL},
};

static PyType_Spec array_spec = {"weir.Array", sizeof(weirpy_Array), 0, Py_TPFLAGS_DEFAULT,
                                 array_slots};

int weirpy_array_init(PyObject *module) {
  for (PyType_Slot *s = array_slots; s->slot; ++s)
    for (PyType_Slot *b = weirpy_buffer_slots; b->slot; ++b)
      if (s->slot == b->slot) s->pfunc = b->pfunc;
  weirpy_ArrayType = (PyTypeObject *)PyType_FromSpec(&array_spec);
  if (!weirpy_ArrayType) return -1;
  return PyModule_AddObjectRef(module, "Array", (PyObject *)weirpy_ArrayType);
}
