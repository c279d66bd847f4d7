/* weir.Error and one subclass per weir_status, carrying weir's message (what
 * failed, the values, and its "Fix:" hint). Where a builtin exception means
 * the same, the subclass derives from it too, so `except ValueError` works.
 *
 * str() is for a Python reader: the Python call that failed, then weir's
 * message without the C functions that prefix it as context
 * ("weir_chunk_allocate(...): weir_allocate: ..."). The whole C chain stays
 * in .c_message (for bug reports; None when the extension wrote the message
 * itself) and the hint after "Fix:" in .fix. */
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
      "weir.Error",
      "A failed weir call. str(): what failed, in terms of the Python call, and a Fix; "
      ".status: the weir_status name; .fix: the hint after 'Fix:'; .c_message: libweir's "
      "whole message chain (for bug reports), or None when the message is the extension's own.",
      PyExc_Exception, NULL);
  if (!weirpy_Error || PyModule_AddObjectRef(module, "Error", weirpy_Error) < 0) return -1;
  if (PyObject_SetAttrString(weirpy_Error, "c_message", Py_None) < 0 ||
      PyObject_SetAttrString(weirpy_Error, "fix", Py_None) < 0)
    return -1;
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

/* The C message without its leading C-function contexts: "weir_x(...): "
 * and "weir_x: " segments, as weir_fail_context writes them. */
const char *weirpy_c_message_body(const char *m) {
  for (;;) {
    const char *p = m;
    if (strncmp(p, "weir_", 5) != 0) return m;
    p += 5;
    while ((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_') ++p;
    if (*p == '(') {
      int depth = 0;
      for (; *p; ++p) {
        if (*p == '(') ++depth;
        if (*p == ')' && --depth == 0) break;
      }
      if (*p != ')') return m;
      ++p;
    }
    if (p[0] != ':' || p[1] != ' ') return m;
    m = p + 2;
  }
}

static PyObject *text(const char *s) {
  return PyUnicode_DecodeUTF8(s, (Py_ssize_t)strlen(s), "replace");
}

/* Raises `type` with `message` (a str, stolen) and the attributes: .c_message
 * (c_message, or None) and .fix (the text after the last "Fix: "). */
static void raise_with(PyObject *type, PyObject *message, const char *c_message) {
  if (!message) return;
  PyObject *exc = PyObject_CallFunctionObjArgs(type, message, NULL);
  const char *utf8 = PyUnicode_AsUTF8AndSize(message, NULL);
  Py_DECREF(message);
  if (!exc || !utf8) {
    Py_XDECREF(exc);
    return;
  }
  const char *fix = NULL;
  for (const char *f = strstr(utf8, "Fix: "); f; f = strstr(f + 1, "Fix: ")) fix = f + 5;
  PyObject *c = c_message ? text(c_message) : Py_NewRef(Py_None);
  PyObject *f = fix ? text(fix) : Py_NewRef(Py_None);
  int bad = !c || !f || PyObject_SetAttrString(exc, "c_message", c) < 0 ||
            PyObject_SetAttrString(exc, "fix", f) < 0;
  Py_XDECREF(c);
  Py_XDECREF(f);
  if (!bad) PyErr_SetObject(type, exc);
  Py_DECREF(exc);
}

/* weir_last_error() as `type`, after "what: " when what is given. */
static PyObject *raise_last(PyObject *type, const char *what) {
  const char *c = weir_last_error();
  const char *body = weirpy_c_message_body(c);
  PyObject *message = text(body);
  if (message && what && *what) {
    PyObject *prefixed = PyUnicode_FromFormat("%s: %U", what, message);
    Py_DECREF(message);
    message = prefixed;
  }
  raise_with(type, message, c);
  return NULL;
}

PyObject *weirpy_raise_fft(weir_status status, const char *what) {
  if (status != WEIR_ERR_UNAVAILABLE || !fft_unavailable) return weirpy_raise(status, what);
  return raise_last(fft_unavailable, what);
}

static PyObject *type_of(weir_status status) {
  if (status > 0 && status <= WEIR_ERR_INTERNAL && by_status[status]) return by_status[status];
  return weirpy_Error;
}

int weirpy_fail_open(weir_status status, const char *spec) {
  PyObject *type = type_of(status);
  if (status == WEIR_ERR_UNAVAILABLE && strncmp(spec, "cuda", 4) == 0) type = cuda_unavailable;
  if (status == WEIR_ERR_UNAVAILABLE && strncmp(spec, "vulkan", 6) == 0) type = vulkan_unavailable;
  raise_last(type, NULL);
  return -1;
}

PyObject *weirpy_raise(weir_status status, const char *what) {
  return raise_last(type_of(status), what);
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
  raise_with(type_of(status), message, NULL);
  return NULL;
}

PyObject *weirpy_raise_c(weir_status status, const char *c_message, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  PyObject *message = PyUnicode_FromFormatV(fmt, ap);
  va_end(ap);
  raise_with(type_of(status), message, c_message);
  return NULL;
}
