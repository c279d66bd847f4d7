/* weir._weir: the module table and its initialisation. The package
 * (python/weir/__init__.py) re-exports everything; weir.ifds is its own
 * small Python file over the _ifds_* functions. */
#include "weirpy.h"

#define KW(fn) (PyCFunction)(void (*)(void))(fn), METH_VARARGS | METH_KEYWORDS

static PyObject *version(PyObject *m, PyObject *unused) { return PyUnicode_FromString(weir_version()); }

static PyMethodDef methods[] = {
    {"zeros", KW(weirpy_zeros), "zeros(shape, dtype='float64', *, device='cpu')"},
    {"empty", KW(weirpy_empty), "empty(shape, dtype='float64', *, device='cpu')"},
    {"full", KW(weirpy_full), "full(shape, fill_value, dtype='float64', *, device='cpu')"},
    {"zeros_like", KW(weirpy_zeros_like), "zeros_like(a, dtype=None, *, device=a's)"},
    {"empty_like", KW(weirpy_empty_like), "empty_like(a, dtype=None, *, device=a's)"},
    {"asarray", KW(weirpy_asarray),
     "asarray(obj, *, device=None): obj on `device` (default: where a weir.Array is, else "
     "cpu); shares memory when it is already there, copies up or down otherwise."},
    {"from_dlpack", KW(weirpy_from_dlpack),
     "from_dlpack(x, *, device=None): x (a DLPack producer or capsule) without a copy."},
    {"copy", KW(weirpy_copy),
     "copy(src, *, into=None): a copy of src on its device, or src written into `into` "
     "(a weir.Array or a writable buffer such as a numpy array)."},
    {"devices", weirpy_devices, METH_NOARGS,
     "Every device of every backend as a dict (unavailable backends with the reason)."},
    {"version", version, METH_NOARGS, "libweir's version string (weir_version())."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_def = {PyModuleDef_HEAD_INIT, "weir._weir",
                                        "weir: resident device arrays (C extension).", -1,
                                        methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__weir(void) {
  PyObject *m = PyModule_Create(&module_def);
  if (!m) return NULL;
  PyObject *names = PyList_New(0);
  for (int i = 0; names && i < WEIRPY_DTYPE_COUNT; ++i) {
    PyObject *s = PyUnicode_FromString(weirpy_dtypes[i].name);
    if (!s || PyList_Append(names, s) < 0) Py_CLEAR(names);
    Py_XDECREF(s);
  }
  int bad = !names || PyModule_AddObjectRef(m, "dtypes", names) < 0;
  Py_XDECREF(names);
  if (bad || weirpy_errors_init(m) < 0 ||
      weirpy_backend_init(m) < 0 || weirpy_array_init(m) < 0 || weirpy_ifds_init(m) < 0 || weirpy_ide_init(m) < 0 ||
      weirpy_fft_init(m) < 0 ||
      PyModule_AddIntConstant(m, "kDLCPU", kDLCPU) < 0 ||
      PyModule_AddIntConstant(m, "kDLCUDA", kDLCUDA) < 0 ||
      PyModule_AddIntConstant(m, "kDLVulkan", kDLVulkan) < 0) {
    Py_DECREF(m);
    return NULL;
  }
  return m;
}
