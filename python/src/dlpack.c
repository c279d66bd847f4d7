/* DLPack both ways. Export: weir_dlpack_export gives a DLManagedTensor that
 * holds the array's chunk (and so the backend instance) until the
 * consumer's deleter runs, however early the weir.Array and its
 * weir.Backend go. Import: weir_dlpack_import takes over the producer's
 * tensor and calls its deleter when the last weir reference goes. */
#include "weirpy.h"

static const char *const CAPSULE = "dltensor", *const USED = "used_dltensor";

/* An unconsumed capsule still owns its tensor. */
static void capsule_destructor(PyObject *capsule) {
  if (!PyCapsule_IsValid(capsule, CAPSULE)) return; /* consumed (renamed) */
  DLManagedTensor *t = PyCapsule_GetPointer(capsule, CAPSULE);
  if (t && t->deleter) t->deleter(t);
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
  /* The consumer may read as soon as it has the tensor: weir has no stream
   * to hand over, so finish what is queued on the instance first. */
  weir_status status = weir_finish(a->wb);
  DLManagedTensor *t = NULL;
  if (status == WEIR_OK) status = weir_dlpack_export(&a->view, weirpy_dtypes[a->dtype].dl, &t);
  if (status != WEIR_OK) return weirpy_raise(status, "__dlpack__");
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

PyObject *weirpy_import_dlpack(PyObject *obj, weirpy_Backend *backend) {
  PyObject *capsule;
  if (PyCapsule_CheckExact(obj)) {
    capsule = Py_NewRef(obj); /* a producer's capsule, the legacy way */
  } else {
    capsule = PyObject_CallMethod(obj, "__dlpack__", NULL);
    if (!capsule) return NULL;
  }
  DLManagedTensor *t = PyCapsule_GetPointer(capsule, CAPSULE); /* fails once consumed */
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
