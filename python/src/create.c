/* Making arrays and moving them: zeros / empty / full / *_like, asarray
 * (zero-copy when the data is already on the device, a copy up or down
 * otherwise) and copy(src, into=dst). Host data comes in through the buffer
 * protocol (numpy) or DLPack (torch); weir does no array maths here. */
#include <stdlib.h>
#include <string.h>

#include "weirpy.h"

/* Fills with one element's bytes: in place on the host, else one upload of
 * a host block (weir has no generic fill for every width). */
static int fill(weirpy_Array *a, const unsigned char *element, const char *call) {
  uint64_t bytes = weirpy_array_nbytes(a);
  uint32_t item = a->view.element_bytes;
  if (bytes == 0) return 0;
  char *host = weirpy_array_host_ptr(a);
  char *block = host ? host : malloc(bytes);
  if (!block) {
    PyErr_NoMemory();
    return -1;
  }
  int zero = 1;
  for (uint32_t i = 0; i < item; ++i) zero &= element[i] == 0;
  if (zero) {
    memset(block, 0, bytes);
  } else {
    for (uint64_t off = 0; off < bytes; off += item) memcpy(block + off, element, item);
  }
  if (host) return 0;
  weir_upload_item up = {weir_chunk_buffer(a->view.chunk), a->view.byte_offset, block, bytes};
  weir_status status = weir_upload_at_many(a->wb, &up, 1);
  free(block);
  return status == WEIR_OK ? 0 : weirpy_fail(status, call);
}

/* shape, dtype="float64", *, device=None */
static PyObject *make(PyObject *args, PyObject *kwargs, const char *fname, int with_value,
                      int zero) {
  static char *names[] = {"shape", "dtype", "device", NULL};
  static char *names_full[] = {"shape", "fill_value", "dtype", "device", NULL};
  PyObject *shape_obj, *value = NULL, *dtype_obj = NULL, *device = Py_None;
  char format[16];
  snprintf(format, sizeof format, with_value ? "OO|O$O:%s" : "O|O$O:%s", fname);
  int ok = with_value ? PyArg_ParseTupleAndKeywords(args, kwargs, format, names_full, &shape_obj,
                                                    &value, &dtype_obj, &device)
                      : PyArg_ParseTupleAndKeywords(args, kwargs, format, names, &shape_obj,
                                                    &dtype_obj, &device);
  if (!ok) return NULL;
  int dtype = 0; /* float64, as numpy */
  if (dtype_obj && dtype_obj != Py_None && (dtype = weirpy_dtype_from_object(dtype_obj)) < 0)
    return NULL;
  uint32_t ndim;
  uint64_t shape[WEIR_VIEW_MAX_DIMS];
  if (weirpy_parse_shape(shape_obj, &ndim, shape) < 0) return NULL;
  unsigned char element[8] = {0};
  if (value && weirpy_dtype_pack(dtype, value, element) < 0) return NULL;
  weirpy_Backend *backend = weirpy_backend_resolve(device);
  if (!backend) return NULL;
  /* The call as the user wrote it, for messages: weir.zeros((4, 5), dtype='float32'). */
  PyObject *dev = device != Py_None ? PyUnicode_FromFormat(", device=%R", device)
                                     : PyUnicode_FromString("");
  PyObject *call = !dev ? NULL
                   : value ? PyUnicode_FromFormat("weir.%s(%R, %R, dtype='%s'%U)", fname, shape_obj,
                                                  value, weirpy_dtypes[dtype].name, dev)
                           : PyUnicode_FromFormat("weir.%s(%R, dtype='%s'%U)", fname, shape_obj,
                                                  weirpy_dtypes[dtype].name, dev);
  Py_XDECREF(dev);
  const char *call_text = call ? PyUnicode_AsUTF8AndSize(call, NULL) : NULL;
  if (!call_text) PyErr_Clear();
  PyObject *a = weirpy_array_alloc(backend, dtype, ndim, shape, call_text ? call_text : fname);
  if (a && (zero || value) && fill((weirpy_Array *)a, element, call_text) < 0) Py_CLEAR(a);
  Py_XDECREF(call);
  return a;
}

PyObject *weirpy_zeros(PyObject *m, PyObject *args, PyObject *kw) { return make(args, kw, "zeros", 0, 1); }
PyObject *weirpy_empty(PyObject *m, PyObject *args, PyObject *kw) { return make(args, kw, "empty", 0, 0); }
PyObject *weirpy_full(PyObject *m, PyObject *args, PyObject *kw) { return make(args, kw, "full", 1, 0); }

/* zeros_like / empty_like(a, dtype=None, *, device=None): a may be any
 * object with .shape and .dtype (weir, numpy, torch). */
static PyObject *like(PyObject *args, PyObject *kwargs, const char *fname, int zero) {
  static char *names[] = {"a", "dtype", "device", NULL};
  PyObject *a, *dtype_obj = Py_None, *device = Py_None;
  char format[24];
  snprintf(format, sizeof format, "O|O$O:%s", fname);
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, format, names, &a, &dtype_obj, &device))
    return NULL;
  if (device == Py_None && weirpy_Array_Check(a)) device = ((weirpy_Array *)a)->owner;
  PyObject *shape = PyObject_GetAttrString(a, "shape");
  if (!shape) return NULL;
  PyObject *dtype = dtype_obj != Py_None ? Py_NewRef(dtype_obj) : PyObject_GetAttrString(a, "dtype");
  PyObject *r = NULL;
  if (dtype) {
    PyObject *call_args = PyTuple_Pack(2, shape, dtype);
    PyObject *call_kw = call_args ? Py_BuildValue("{s:O}", "device", device) : NULL;
    if (call_kw) r = make(call_args, call_kw, fname, 0, zero);
    Py_XDECREF(call_args);
    Py_XDECREF(call_kw);
  }
  Py_XDECREF(dtype);
  Py_DECREF(shape);
  return r;
}

PyObject *weirpy_zeros_like(PyObject *m, PyObject *args, PyObject *kw) { return like(args, kw, "zeros_like", 1); }
PyObject *weirpy_empty_like(PyObject *m, PyObject *args, PyObject *kw) { return like(args, kw, "empty_like", 0); }

static int same_layout(weirpy_Array *dst, weirpy_Array *src) {
  int same = dst->dtype == src->dtype && dst->view.ndim == src->view.ndim;
  for (uint32_t d = 0; same && d < dst->view.ndim; ++d) same = dst->shape[d] == src->shape[d];
  if (!same)
    weirpy_raise_msg(WEIR_ERR_INVALID_ARGUMENT,
                     "weir.copy: source %R and destination %R differ in shape or dtype. Fix: "
                     "copy between arrays of one shape and dtype.",
                     (PyObject *)src, (PyObject *)dst);
  return same;
}

int weirpy_copy_arrays(weirpy_Array *dst, weirpy_Array *src) {
  if (!same_layout(dst, src)) return -1;
  if (!weirpy_array_is_contiguous(dst) || !weirpy_array_is_contiguous(src)) {
    weirpy_raise_msg(WEIR_ERR_UNSUPPORTED,
                     "weir.copy moves contiguous arrays only (weir does no strided maths in "
                     "Python). Fix: copy from or into a contiguous array (weir.asarray(x) of "
                     "a contiguous numpy array).");
    return -1;
  }
  uint64_t bytes = weirpy_array_nbytes(src);
  if (bytes == 0) return 0;
  weir_buffer db = weir_chunk_buffer(dst->view.chunk), sb = weir_chunk_buffer(src->view.chunk);
  char *dp = weirpy_array_host_ptr(dst), *sp = weirpy_array_host_ptr(src);
  weir_status status = WEIR_OK;
  if (dst->wb == src->wb) {
    status = weir_copy(dst->wb, db, dst->view.byte_offset, sb, src->view.byte_offset, bytes);
    if (status == WEIR_OK) status = weir_finish(dst->wb);
  } else if (dp && sp) {
    memmove(dp, sp, bytes); /* two cpu instances: one host address space */
  } else if (sp) {          /* upload */
    weir_upload_item up = {db, dst->view.byte_offset, sp, bytes};
    status = weir_upload_at_many(dst->wb, &up, 1);
  } else if (dp) {          /* download */
    status = weir_download_range_into(src->wb, sb, src->view.byte_offset, bytes, dp);
  } else {                  /* device to device through the host */
    char *staging = malloc(bytes);
    if (!staging) {
      PyErr_NoMemory();
      return -1;
    }
    status = weir_download_range_into(src->wb, sb, src->view.byte_offset, bytes, staging);
    weir_upload_item up = {db, dst->view.byte_offset, staging, bytes};
    if (status == WEIR_OK) status = weir_upload_at_many(dst->wb, &up, 1);
    free(staging);
  }
  return status == WEIR_OK ? 0 : weirpy_fail(status, "weir.copy");
}

/* A Py_buffer kept alive as long as the chunk that wraps its memory. */
typedef struct {
  Py_buffer view;
} held_buffer;

static void release_held(void *context) {
  held_buffer *held = context;
  PyGILState_STATE gil = PyGILState_Ensure(); /* a DLPack consumer may let go anywhere */
  PyBuffer_Release(&held->view);
  PyGILState_Release(gil);
  free(held);
}

/* The buffer's elements as a weir view on host `backend`, sharing memory;
 * 0 when it cannot (read-only, negative or odd strides): copy then. */
static int wrap_buffer(weirpy_Backend *backend, held_buffer *held, int dtype, PyObject **out) {
  Py_buffer *v = &held->view;
  weir_view view = {.element_bytes = (uint32_t)v->itemsize, .ndim = (uint32_t)v->ndim};
  if (v->readonly || v->suboffsets || v->len == 0) return 0;
  for (int d = 0; d < v->ndim; ++d) {
    Py_ssize_t stride = v->strides ? v->strides[d] : 0;
    if (stride < 0 || stride % v->itemsize) return 0;
    view.shape[d] = (uint64_t)v->shape[d];
    view.strides[d] = (uint64_t)(stride / v->itemsize);
  }
  if (!v->strides) { /* C-contiguous */
    uint64_t compact = 1;
    for (int d = v->ndim; d-- > 0;) view.strides[d] = compact, compact *= view.shape[d];
  }
  uint64_t span = 0;
  weir_status status = weir_view_span_bytes(&view, &span);
  if (status == WEIR_OK)
    status = weir_chunk_import_external(backend->backend, v->buf, span, release_held, held,
                                        &view.chunk);
  if (status != WEIR_OK) {
    weirpy_fail(status, "weir.asarray");
    PyBuffer_Release(&held->view);
    free(held);
    return -1;
  }
  *out = weirpy_array_wrap(backend, &view, dtype); /* the chunk now owns `held` */
  return *out ? 1 : -1;
}

/* A buffer-protocol object on `backend`: shared when it is host memory the
 * instance can address, else copied (any strides) into a new array. */
static PyObject *from_buffer(PyObject *obj, weirpy_Backend *backend) {
  held_buffer *held = calloc(1, sizeof *held);
  if (!held) return PyErr_NoMemory();
  if (PyObject_GetBuffer(obj, &held->view, PyBUF_RECORDS_RO) < 0) {
    free(held);
    return NULL;
  }
  Py_buffer *v = &held->view;
  PyObject *result = NULL;
  int dtype = weirpy_dtype_from_format(v->format, v->itemsize);
  if (dtype < 0) {
    weirpy_raise_msg(WEIR_ERR_UNSUPPORTED,
                     "buffer format '%s' (itemsize %zd) is not one of weir's dtypes. Fix: "
                     "convert it first (numpy: a.astype('float32')).",
                     v->format ? v->format : "B", v->itemsize);
    goto fail;
  }
  if (v->ndim > WEIR_VIEW_MAX_DIMS) {
    weirpy_raise_msg(WEIR_ERR_UNSUPPORTED, "%d dimensions; weir arrays have at most %d. Fix: "
                     "reshape first.", v->ndim, WEIR_VIEW_MAX_DIMS);
    goto fail;
  }
  if (backend->is_host) {
    int shared = wrap_buffer(backend, held, dtype, &result);
    if (shared != 0) return shared > 0 ? result : NULL; /* held is the chunk's now, or freed */
  }
  uint64_t shape[WEIR_VIEW_MAX_DIMS];
  for (int d = 0; d < v->ndim; ++d) shape[d] = (uint64_t)v->shape[d];
  result = weirpy_array_alloc(backend, dtype, (uint32_t)v->ndim, shape, "weir.asarray");
  if (!result) goto fail;
  weirpy_Array *a = (weirpy_Array *)result;
  char *host = weirpy_array_host_ptr(a);
  char *block = host ? host : (v->len ? malloc((size_t)v->len) : NULL);
  if (v->len && !block) {
    PyErr_NoMemory();
    goto fail_result;
  }
  if (v->len && PyBuffer_ToContiguous(block, v, v->len, 'C') < 0) {
    if (!host) free(block);
    goto fail_result;
  }
  if (!host && v->len) {
    weir_upload_item up = {weir_chunk_buffer(a->view.chunk), a->view.byte_offset, block,
                           (uint64_t)v->len};
    weir_status status = weir_upload_at_many(a->wb, &up, 1);
    free(block);
    if (status != WEIR_OK) {
      weirpy_raise(status, "weir.asarray");
      goto fail_result;
    }
  }
  PyBuffer_Release(v);
  free(held);
  return result;
fail_result:
  Py_CLEAR(result);
fail:
  PyBuffer_Release(v);
  free(held);
  return NULL;
}

static PyObject *move_to(weirpy_Array *src, weirpy_Backend *backend) {
  if (src->wb == backend->backend) return Py_NewRef((PyObject *)src);
  if (src->is_host && backend->is_host) /* another cpu:N: the same memory, no copy */
    return weirpy_import_dlpack((PyObject *)src, backend);
  PyObject *dst = weirpy_array_alloc(backend, src->dtype, src->view.ndim, src->view.shape,
                                     "weir.asarray");
  if (dst && weirpy_copy_arrays((weirpy_Array *)dst, src) < 0) Py_CLEAR(dst);
  return dst;
}

PyObject *weirpy_asarray(PyObject *module, PyObject *args, PyObject *kwargs) {
  static char *names[] = {"obj", "device", NULL};
  PyObject *obj, *device = Py_None;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|$O:asarray", names, &obj, &device))
    return NULL;
  if (weirpy_Array_Check(obj)) {
    weirpy_Array *a = (weirpy_Array *)obj;
    if (device == Py_None) return Py_NewRef(obj);
    weirpy_Backend *backend = weirpy_backend_resolve(device);
    return backend ? move_to(a, backend) : NULL;
  }
  weirpy_Backend *backend = weirpy_backend_resolve(device);
  if (!backend) return NULL;
  if (PyObject_CheckBuffer(obj)) return from_buffer(obj, backend);
  if (PyObject_HasAttrString(obj, "__dlpack__")) {
    /* torch and friends: take it where it lives, then move it if needed */
    PyObject *here = weirpy_import_dlpack(obj, NULL);
    if (!here) return NULL;
    PyObject *moved = move_to((weirpy_Array *)here, backend);
    Py_DECREF(here);
    return moved;
  }
  PyErr_Format(PyExc_TypeError,
               "weir.asarray takes a weir.Array, a buffer-protocol object (numpy) or a DLPack "
               "producer (torch), not %R. Fix: numpy.asarray(obj) first.",
               Py_TYPE(obj));
  return NULL;
}

/* copy(src, into=None): into a new array on src's device, or into `into`;
 * either side may be a buffer-protocol object (upload / download). */
PyObject *weirpy_copy(PyObject *module, PyObject *args, PyObject *kwargs) {
  static char *names[] = {"src", "into", NULL};
  PyObject *src, *into = Py_None;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|$O:copy", names, &src, &into)) return NULL;
  if (into == Py_None) {
    if (!weirpy_Array_Check(src)) {
      PyErr_SetString(PyExc_TypeError, "weir.copy(src) without into= copies a weir.Array");
      return NULL;
    }
    weirpy_Array *s = (weirpy_Array *)src;
    PyObject *dst = weirpy_array_alloc((weirpy_Backend *)s->owner, s->dtype, s->view.ndim,
                                       s->view.shape, "weir.copy");
    if (dst && weirpy_copy_arrays((weirpy_Array *)dst, s) < 0) Py_CLEAR(dst);
    return dst;
  }
  /* Foreign sides are seen as host weir arrays sharing their memory. */
  PyObject *s = NULL;
  if (weirpy_Array_Check(src)) {
    s = Py_NewRef(src);
  } else {
    PyObject *pack = PyTuple_Pack(1, src);
    s = pack ? weirpy_asarray(NULL, pack, NULL) : NULL;
    Py_XDECREF(pack);
  }
  if (!s) return NULL;
  PyObject *d = NULL;
  if (weirpy_Array_Check(into)) {
    d = Py_NewRef(into);
  } else {
    Py_buffer probe; /* must be writable host memory */
    if (PyObject_GetBuffer(into, &probe, PyBUF_RECORDS) < 0) {
      Py_DECREF(s);
      return NULL;
    }
    PyBuffer_Release(&probe);
    PyObject *pack = PyTuple_Pack(1, into);
    d = pack ? weirpy_asarray(NULL, pack, NULL) : NULL;
    Py_XDECREF(pack);
  }
  int bad = !d || weirpy_copy_arrays((weirpy_Array *)d, (weirpy_Array *)s) < 0;
  Py_DECREF(s);
  if (bad) {
    Py_XDECREF(d);
    return NULL;
  }
  if (!weirpy_Array_Check(into)) {
    Py_DECREF(d);
    return Py_NewRef(into);
  }
  return d;
}
