/* weir.Error and one subclass per weir_status, carrying weir's message (what
 * failed, the values, and its "Fix:" hint). Where a builtin exception means
 * the same, the subclass derives from it too, so `except ValueError` works. */
#include "weirpy.h"

#include <string.h>

PyObject *weirpy_Error;
static PyObject *by_status[WEIR_ERR_INTERNAL + 1];

static const struct {
  weir_status status;
  const char *name;
  PyObject **builtin; /* also derives from this one, or NULL */
  const char *doc;
} kinds[] = {
    {WEIR_ERR_INVALID_ARGUMENT, "InvalidArgument", &PyExc_ValueError, "a value passed is wrong"},
    {WEIR_ERR_OUT_OF_RANGE, "OutOfRange", &PyExc_IndexError, "an offset, length or index past the end"},
    {WEIR_ERR_FOREIGN_RESOURCE, "ForeignResource", &PyExc_ValueError, "a buffer of another instance, or freed"},
    {WEIR_ERR_UNSUPPORTED, "Unsupported", NULL, "a valid request weir or the backend cannot serve"},
    {WEIR_ERR_UNAVAILABLE, "Unavailable", NULL, "backend, device or driver not present"},
    {WEIR_ERR_OUT_OF_MEMORY, "OutOfMemory", &PyExc_MemoryError, "host or device memory exhausted or capped"},
    {WEIR_ERR_IO, "IOFailure", &PyExc_OSError, "a file could not be read or written"},
    {WEIR_ERR_PARSE, "ParseError", &PyExc_ValueError, "malformed input text"},
    {WEIR_ERR_DEVICE, "DeviceError", NULL, "the device or driver reported a failure"},
    {WEIR_ERR_INTERNAL, "InternalError", NULL, "a bug in weir: please report it"},
};

int weirpy_errors_init(PyObject *module) {
  weirpy_Error = PyErr_NewExceptionWithDoc(
      "weir.Error", "A failed weir call; str() is weir's message, .status its name.",
      PyExc_Exception, NULL);
  if (!weirpy_Error || PyModule_AddObjectRef(module, "Error", weirpy_Error) < 0) return -1;
  for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; ++i) {
    char qualified[64];
    snprintf(qualified, sizeof qualified, "weir.%s", kinds[i].name);
    PyObject *bases = kinds[i].builtin ? PyTuple_Pack(2, weirpy_Error, *kinds[i].builtin)
                                       : PyTuple_Pack(1, weirpy_Error);
    if (!bases) return -1;
    PyObject *type = PyErr_NewExceptionWithDoc(qualified, kinds[i].doc, bases, NULL);
    Py_DECREF(bases);
    if (!type) return -1;
    PyObject *name = PyUnicode_FromString(weir_status_name(kinds[i].status));
    int bad = !name || PyObject_SetAttrString(type, "status", name) < 0;
    Py_XDECREF(name);
    if (bad || PyModule_AddObjectRef(module, kinds[i].name, type) < 0) {
      Py_DECREF(type);
      return -1;
    }
    by_status[kinds[i].status] = type; /* the module keeps a reference too */
  }
  return weirpy_errors_init_backends(module);
}

/* weir.CudaUnavailable / weir.VulkanUnavailable: an Unavailable raised when
 * opening that backend (no driver, no device, not compiled in), so a caller
 * can tell "no GPU here" from other failures by type. */
static PyObject *cuda_unavailable, *vulkan_unavailable, *fft_unavailable;

static int add_backend_unavailable(PyObject *module, const char *name, const char *doc,
                                   PyObject **out) {
  char qualified[64];
  snprintf(qualified, sizeof qualified, "weir.%s", name);
  *out = PyErr_NewExceptionWithDoc(qualified, doc, by_status[WEIR_ERR_UNAVAILABLE], NULL);
  if (!*out) return -1;
  PyObject *status = PyUnicode_FromString(weir_status_name(WEIR_ERR_UNAVAILABLE));
  int bad = !status || PyObject_SetAttrString(*out, "status", status) < 0;
  Py_XDECREF(status);
  return bad || PyModule_AddObjectRef(module, name, *out) < 0 ? -1 : 0;
}

int weirpy_errors_init_backends(PyObject *module) {
  if (add_backend_unavailable(module, "CudaUnavailable",
                              "the cuda backend cannot be opened here (driver, device or build)",
                              &cuda_unavailable) < 0)
    return -1;
  if (add_backend_unavailable(module, "FftUnavailable",
                              "a backend's FFT library is missing here (cuFFT for cuda, VkFFT "
                              "for vulkan): weir.fft on that backend cannot run",
                              &fft_unavailable) < 0)
    return -1;
  return add_backend_unavailable(module, "VulkanUnavailable",
                                 "the vulkan backend cannot be opened here (loader, driver, device "
                                 "or build)",
                                 &vulkan_unavailable);
}

PyObject *weirpy_raise_fft(weir_status status, const char *what) {
  if (status != WEIR_ERR_UNAVAILABLE || !fft_unavailable) return weirpy_raise(status, what);
  PyErr_Format(fft_unavailable, "%s: %s", what, weir_last_error());
  return NULL;
}

int weirpy_fail_open(weir_status status, const char *spec) {
  PyObject *type = NULL;
  if (status == WEIR_ERR_UNAVAILABLE && strncmp(spec, "cuda", 4) == 0) type = cuda_unavailable;
  if (status == WEIR_ERR_UNAVAILABLE && strncmp(spec, "vulkan", 6) == 0) type = vulkan_unavailable;
  if (!type) return weirpy_fail(status, NULL);
  PyErr_SetString(type, weir_last_error());
  return -1;
}

static PyObject *type_of(weir_status status) {
  if (status > 0 && status <= WEIR_ERR_INTERNAL && by_status[status]) return by_status[status];
  return weirpy_Error;
}

PyObject *weirpy_raise(weir_status status, const char *what) {
  const char *message = weir_last_error();
  if (what && *what)
    PyErr_Format(type_of(status), "%s: %s", what, message);
  else
    PyErr_SetString(type_of(status), message);
  return NULL;
}

int weirpy_fail(weir_status status, const char *what) {
  weirpy_raise(status, what);
  return -1;
}

PyObject *weirpy_raise_msg(weir_status status, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  PyObject *message = PyUnicode_FromFormatV(fmt, ap);
  va_end(ap);
  if (message) {
    PyErr_SetObject(type_of(status), message);
    Py_DECREF(message);
  }
  return NULL;
}
