/* DLPack both ways. Export: weir_dlpack_export gives a DLManagedTensor that
 * holds the array's chunk (and so the backend instance) until the
 * consumer's deleter runs, however early the weir.Array and its
 * weir.Backend go. Import: weir_dlpack_import takes over the producer's
 * tensor and calls its deleter when the last weir reference goes. */
#include "weirpy.h"

#include <stdlib.h>

static const char *const CAPSULE = "dltensor", *const USED = "used_dltensor";
static const char *const VERSIONED = "dltensor_versioned";

/* DLPack 1.0's versioned tensor (dlpack.h 1.0; the system header may be
 * 0.x). The layout is the ABI of major version 1: version, manager_ctx,
 * deleter, flags, then the DLTensor, which is the same as in 0.x. */
#ifndef DLPACK_MAJOR_VERSION
typedef struct {
  uint32_t major, minor;
} DLPackVersion;
typedef struct DLManagedTensorVersioned {
  DLPackVersion version;
  void *manager_ctx;
  void (*deleter)(struct DLManagedTensorVersioned *self);
  uint64_t flags;
  DLTensor dl_tensor;
} DLManagedTensorVersioned;
#endif

/* An unconsumed capsule still owns its tensor. */
static void capsule_destructor(PyObject *capsule) {
  if (!PyCapsule_IsValid(capsule, CAPSULE)) return; /* consumed (renamed) */
  DLManagedTensor *t = PyCapsule_GetPointer(capsule, CAPSULE);
  if (t && t->deleter) t->deleter(t);
}

static void versioned_destructor(PyObject *capsule) {
  if (!PyCapsule_IsValid(capsule, VERSIONED)) return; /* consumed (renamed) */
  DLManagedTensorVersioned *t = PyCapsule_GetPointer(capsule, VERSIONED);
  if (t && t->deleter) t->deleter(t);
}

/* The versioned tensor wraps libweir's legacy one (manager_ctx), whose
 * DLTensor it copies: shape and strides stay the legacy tensor's until this
 * deleter, which any thread may call without the GIL, frees both. */
static void versioned_deleter(DLManagedTensorVersioned *self) {
  DLManagedTensor *legacy = self->manager_ctx;
  if (legacy && legacy->deleter) legacy->deleter(legacy);
  free(self);
}

static PyObject *versioned_capsule(DLManagedTensor *t) {
  DLManagedTensorVersioned *v = calloc(1, sizeof *v);
  if (!v) {
    t->deleter(t);
    return PyErr_NoMemory();
  }
  v->version = (DLPackVersion){1, 0};
  v->manager_ctx = t;
  v->deleter = versioned_deleter;
  v->flags = 0; /* writable, and not a copy */
  v->dl_tensor = t->dl_tensor;
  PyObject *capsule = PyCapsule_New(v, VERSIONED, versioned_destructor);
  if (!capsule) versioned_deleter(v);
  return capsule;
}

/* The array API's max_version: None (a consumer of the legacy capsule only)
 * or (major, minor). 1: versioned, 0: legacy, -1: error set. A consumer of
 * major 0 reads the legacy capsule, whose layout is the same for every 0.x;
 * one of major 1 or later gets 1.0 and checks the version itself, as the
 * protocol says it must (a producer may answer with a lower version). */
static int wants_versioned(PyObject *max_version) {
  if (max_version == Py_None) return 0;
  long major = -1, minor = -1;
  if (PyTuple_Check(max_version) && PyTuple_Size(max_version) == 2) {
    major = PyLong_AsLong(PyTuple_GetItem(max_version, 0));
    if (!PyErr_Occurred()) minor = PyLong_AsLong(PyTuple_GetItem(max_version, 1));
    if (PyErr_Occurred()) {
      if (!PyErr_ExceptionMatches(PyExc_TypeError)) return -1;
      PyErr_Clear();
      major = minor = -1;
    }
  }
  if (major < 0 || minor < 0) {
    PyErr_Format(PyExc_TypeError,
                 "__dlpack__: max_version=%R is not a DLPack version. Fix: pass None or a "
                 "tuple (major, minor) of non-negative ints, e.g. max_version=(1, 0).",
                 max_version);
    return -1;
  }
  return major >= 1;
}

/* dl_device: None or the array's own device; weir exports where the data is. */
static int device_ok(weirpy_Array *a, PyObject *dl_device) {
  if (dl_device == Py_None) return 1;
  DLDevice d;
  weir_status status = weir_dlpack_device(a->wb, &d);
  if (status != WEIR_OK) return weirpy_raise(status, "__dlpack__"), 0;
  PyObject *own = Py_BuildValue("(ii)", (int)d.device_type, (int)d.device_id);
  if (!own) return 0;
  int same = PyObject_RichCompareBool(dl_device, own, Py_EQ);
  if (same == 0)
    PyErr_Format(PyExc_BufferError,
                 "__dlpack__: dl_device=%R, but the array is on %R and weir exports without "
                 "copies. Fix: pass dl_device=None or %R, or copy the array to that device "
                 "first.",
                 dl_device, own, own);
  Py_DECREF(own);
  return same == 1;
}

PyObject *weirpy_array_dlpack(PyObject *self, PyObject *args, PyObject *kwargs) {
  static char *names[] = {"stream", "max_version", "dl_device", "copy", NULL};
  PyObject *stream = Py_None, *max_version = Py_None, *dl_device = Py_None, *copy = Py_None;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|O$OOO:__dlpack__", names, &stream,
                                   &max_version, &dl_device, &copy))
    return NULL;
  weirpy_Array *a = (weirpy_Array *)self;
  if (copy == Py_True) {
    PyErr_SetString(PyExc_BufferError,
                    "weir exports without copies (copy=True). Fix: weir.copy(a) first.");
    return NULL;
  }
  int versioned = wants_versioned(max_version);
  if (versioned < 0 || !device_ok(a, dl_device)) return NULL;
  /* The consumer may read as soon as it has the tensor: weir has no stream
   * to hand over, so finish what is queued on the instance first. */
  weir_status status = weir_finish(a->wb);
  DLManagedTensor *t = NULL;
  if (status == WEIR_OK) status = weir_dlpack_export(&a->view, weirpy_dtypes[a->dtype].dl, &t);
  if (status != WEIR_OK) return weirpy_raise(status, "__dlpack__");
  if (versioned) return versioned_capsule(t);
  PyObject *capsule = PyCapsule_New(t, CAPSULE, capsule_destructor);
  if (!capsule) t->deleter(t);
  return capsule;
}

PyObject *weirpy_array_dlpack_device(PyObject *self, PyObject *unused) {
  weirpy_Array *a = (weirpy_Array *)self;
  DLDevice d;
  weir_status status = weir_dlpack_device(a->wb, &d);
  if (status != WEIR_OK) return weirpy_raise(status, "__dlpack_device__");
  return Py_BuildValue("(ii)", (int)d.device_type, (int)d.device_id);
}

/* The backend of a DLPack device: host memory goes to "cpu" (any cpu:N
 * imports host tensors), device memory to its own device. */
static weirpy_Backend *backend_for(DLDevice d) {
  char spec[32];
  switch ((int)d.device_type) {
  case kDLCPU: snprintf(spec, sizeof spec, "cpu"); break;
  case kDLCUDA: snprintf(spec, sizeof spec, "cuda:%d", (int)d.device_id); break;
  case kDLVulkan: snprintf(spec, sizeof spec, "vulkan:%d", (int)d.device_id); break;
  default:
    weirpy_raise_msg(WEIR_ERR_UNSUPPORTED,
                     "weir has no backend for DLPack device (%s, %d). Fix: copy the tensor to "
                     "the host (or a CUDA device) first.",
                     weir_dlpack_device_type_name(d.device_type), (int)d.device_id);
    return NULL;
  }
  PyObject *key = PyUnicode_FromString(spec);
  if (!key) return NULL;
  weirpy_Backend *b = weirpy_backend_resolve(key);
  Py_DECREF(key);
  return b;
}

/* The tensor's extents when it is empty (some extent 0) and otherwise
 * well formed: 1, else 0 (weir_dlpack_import then judges it). */
static int empty_tensor(const DLTensor *t, uint64_t *shape) {
  if (t->ndim <= 0 || t->ndim > WEIR_VIEW_MAX_DIMS || !t->shape) return 0;
  int empty = 0;
  for (int d = 0; d < t->ndim; ++d) {
    if (t->shape[d] < 0) return 0;
    shape[d] = (uint64_t)t->shape[d];
    empty |= t->shape[d] == 0;
  }
  return empty;
}

/* The capsule of a DLPack producer (or the capsule itself), with a weir
 * error saying why when obj is neither. */
static PyObject *producer_capsule(PyObject *obj) {
  PyObject *capsule;
  if (PyCapsule_CheckExact(obj)) {
    capsule = Py_NewRef(obj); /* a producer's capsule, the legacy way */
  } else {
    PyObject *method = PyObject_GetAttrString(obj, "__dlpack__");
    if (!method) {
      if (!PyErr_ExceptionMatches(PyExc_AttributeError)) return NULL;
      PyErr_Clear();
      return weirpy_raise_msg(WEIR_ERR_INVALID_ARGUMENT,
                              "weir.from_dlpack: %R is not a DLPack producer (it has no "
                              "__dlpack__ method and is not a DLPack capsule). Fix: pass a "
                              "numpy array, a torch tensor, a weir.Array or a 'dltensor' "
                              "capsule; for other data, weir.asarray(numpy.asarray(x)).",
                              Py_TYPE(obj));
    }
    capsule = PyObject_CallNoArgs(method);
    Py_DECREF(method);
    if (!capsule) return NULL;
  }
  if (PyCapsule_IsValid(capsule, CAPSULE)) return capsule;
  if (PyCapsule_IsValid(capsule, USED))
    weirpy_raise_msg(WEIR_ERR_INVALID_ARGUMENT,
                     "weir.from_dlpack: the DLPack capsule was already consumed (a capsule "
                     "imports once). Fix: call x.__dlpack__() again for a new capsule, or pass "
                     "the producer x itself.");
  else if (capsule != obj)
    weirpy_raise_msg(WEIR_ERR_INVALID_ARGUMENT,
                     "weir.from_dlpack: %R.__dlpack__() returned %R, not a DLPack capsule "
                     "named 'dltensor' (a versioned or foreign capsule is not supported). Fix: "
                     "use a producer that returns a 'dltensor' capsule (DLPack 0.x), or go "
                     "through numpy: weir.asarray(numpy.asarray(x)).",
                     Py_TYPE(obj), capsule);
  else
    weirpy_raise_msg(WEIR_ERR_INVALID_ARGUMENT,
                     "weir.from_dlpack: %R is not a DLPack capsule named 'dltensor'. Fix: pass "
                     "the producer itself, or the capsule its __dlpack__() returns.",
                     capsule);
  Py_DECREF(capsule);
  return NULL;
}

PyObject *weirpy_import_dlpack(PyObject *obj, weirpy_Backend *backend) {
  PyObject *capsule = producer_capsule(obj);
  if (!capsule) return NULL;
  DLManagedTensor *t = PyCapsule_GetPointer(capsule, CAPSULE);
  if (!t) {
    Py_DECREF(capsule);
    return NULL;
  }
  if (!backend) backend = backend_for(t->dl_tensor.device);
  if (!backend) {
    Py_DECREF(capsule);
    return NULL;
  }
  int dtype = weirpy_dtype_from_dl(t->dl_tensor.dtype);
  if (dtype < 0) {
    Py_DECREF(capsule);
    return weirpy_raise_msg(WEIR_ERR_UNSUPPORTED,
                            "DLPack dtype (code %d, bits %d, lanes %d) is not one weir carries. "
                            "Fix: convert the tensor to one of weir's dtypes first.",
                            (int)t->dl_tensor.dtype.code, (int)t->dl_tensor.dtype.bits,
                            (int)t->dl_tensor.dtype.lanes);
  }
  uint64_t shape[WEIR_VIEW_MAX_DIMS];
  if (empty_tensor(&t->dl_tensor, shape)) {
    /* No elements: nothing to share (weir buffers hold at least one byte,
     * and the data pointer may be NULL), so a new empty array of the same
     * shape, as weir.zeros((0, 3)) gives; the producer's tensor is done with. */
    PyObject *a = weirpy_array_alloc(backend, dtype, (uint32_t)t->dl_tensor.ndim, shape,
                                     "weir.from_dlpack");
    if (a && PyCapsule_SetName(capsule, USED) == 0) {
      if (t->deleter) t->deleter(t);
    } else {
      Py_CLEAR(a);
    }
    Py_DECREF(capsule);
    return a;
  }
  weir_view view;
  weir_status status = weir_dlpack_import(backend->backend, t, &view, NULL);
  if (status != WEIR_OK) {
    Py_DECREF(capsule); /* still the producer's: its destructor deletes it */
    return weirpy_raise(status, "weir.from_dlpack");
  }
  /* weir owns the tensor now; renaming the capsule says so (DLPack rule). */
  int bad = PyCapsule_SetName(capsule, USED);
  Py_DECREF(capsule);
  if (bad) {
    (void)weir_chunk_release(view.chunk);
    return NULL;
  }
  return weirpy_array_wrap(backend, &view, dtype);
}

PyObject *weirpy_from_dlpack(PyObject *module, PyObject *args, PyObject *kwargs) {
  static char *names[] = {"x", "device", NULL};
  PyObject *x, *device = Py_None;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|$O:from_dlpack", names, &x, &device))
    return NULL;
  weirpy_Backend *backend = NULL;
  if (device != Py_None && !(backend = weirpy_backend_resolve(device))) return NULL;
  return weirpy_import_dlpack(x, backend);
}
