/* weir.fft's C side: a plan object (weir._weir.FftPlan) over weir_fft_plan
 * with execute(input, output), which allocates nothing. The NumPy-style
 * functions are Python (python/weir/fft.py). */
#include <string.h>

#include <weir/fft.h>

#include "weirpy.h"

typedef struct {
  PyObject_HEAD
  PyObject *owner; /* the weir.Backend */
  weir_fft *fft;
  weir_backend *wb;
  int f64;
  uint64_t input_bytes, output_bytes;
} FftPlan;

static PyTypeObject *FftPlanType;

static void plan_dealloc(PyObject *op) {
  FftPlan *p = (FftPlan *)op;
  PyTypeObject *type = Py_TYPE(op);
  weir_fft_destroy(p->fft);
  Py_XDECREF(p->owner);
  ((freefunc)PyType_GetSlot(type, Py_tp_free))(op);
  Py_DECREF(type);
}

/* _fft_plan(device, kind, shape, batch, inner, inverse, f64, norm) */
static PyObject *fft_plan(PyObject *m, PyObject *args) {
  PyObject *device, *shape;
  int kind, inverse, f64, norm;
  unsigned long long batch, inner;
  if (!PyArg_ParseTuple(args, "OiOKKppi:_fft_plan", &device, &kind, &shape, &batch, &inner,
                        &inverse, &f64, &norm))
    return NULL;
  weirpy_Backend *b = weirpy_backend_resolve(device);
  if (!b) return NULL;
  weir_fft_desc d = {0};
  uint64_t ext[WEIR_VIEW_MAX_DIMS];
  if (weirpy_parse_shape(shape, &d.rank, ext) < 0) return NULL;
  if (d.rank > WEIR_FFT_MAX_RANK)
    return weirpy_raise_msg(WEIR_ERR_INVALID_ARGUMENT,
                            "weir.fft: %u transformed axes (at most %u). Fix: transform fewer "
                            "axes per call.",
                            d.rank, WEIR_FFT_MAX_RANK);
  for (uint32_t a = 0; a < d.rank; ++a) d.shape[a] = ext[a];
  d.batch = batch;
  d.inner = inner;
  d.kind = (weir_fft_kind)kind;
  d.direction = inverse ? WEIR_FFT_INVERSE : WEIR_FFT_FORWARD;
  d.precision = f64 ? WEIR_FFT_F64 : WEIR_FFT_F32;
  d.norm = (weir_fft_norm)norm;
  weir_fft *fft = NULL;
  weir_status st = weir_fft_plan(b->backend, &d, &fft);
  if (st != WEIR_OK) return weirpy_raise_fft(st, "weir.fft.plan");
  allocfunc alloc = (allocfunc)PyType_GetSlot(FftPlanType, Py_tp_alloc);
  FftPlan *p = (FftPlan *)alloc(FftPlanType, 0);
  if (!p) {
    weir_fft_destroy(fft);
    return NULL;
  }
  p->owner = Py_NewRef((PyObject *)b);
  p->fft = fft;
  p->wb = b->backend;
  p->f64 = f64;
  (void)weir_fft_sizes(fft, &p->input_bytes, &p->output_bytes);
  return (PyObject *)p;
}

/* The array's whole buffer is what the step binds: it must start at offset 0,
 * be compact, of the plan's precision, of exactly the plan's size. */
static int check_array(FftPlan *p, PyObject *obj, uint64_t bytes, const char *which) {
  if (!weirpy_Array_Check(obj)) {
    PyErr_Format(PyExc_TypeError, "FftPlan.execute: %s must be a weir.Array, not %R", which, obj);
    return -1;
  }
  weirpy_Array *a = (weirpy_Array *)obj;
  const char *want = p->f64 ? "float64" : "float32";
  if (a->wb != p->wb) {
    weirpy_raise_msg(WEIR_ERR_FOREIGN_RESOURCE,
                     "FftPlan.execute: %s lives on another backend instance than the plan. Fix: "
                     "plan on the array's backend (device=a.backend) or move it "
                     "(weir.asarray(a, device=plan.backend)).",
                     which);
    return -1;
  }
  if (strcmp(weirpy_dtypes[a->dtype].name, want) != 0 || a->view.byte_offset != 0 ||
      !weirpy_array_is_contiguous(a) || weirpy_array_nbytes(a) != bytes) {
    weirpy_raise_msg(WEIR_ERR_INVALID_ARGUMENT,
                     "FftPlan.execute: %s must be a compact %s array of %llu bytes at offset 0 "
                     "(got %s, %llu bytes, offset %llu, %scontiguous). Fix: allocate it with "
                     "weir.empty(plan.input_shape or plan.output_shape, dtype) or pass "
                     "weir.copy(a).",
                     which, want, (unsigned long long)bytes, weirpy_dtypes[a->dtype].name,
                     (unsigned long long)weirpy_array_nbytes(a),
                     (unsigned long long)a->view.byte_offset,
                     weirpy_array_is_contiguous(a) ? "" : "not ");
    return -1;
  }
  return 0;
}

static PyObject *plan_execute(PyObject *op, PyObject *args) {
  FftPlan *p = (FftPlan *)op;
  PyObject *in, *out;
  if (!PyArg_ParseTuple(args, "OO:execute", &in, &out)) return NULL;
  if (check_array(p, in, p->input_bytes, "input") < 0 ||
      check_array(p, out, p->output_bytes, "output") < 0)
    return NULL;
  weir_status st = weir_fft_execute(p->fft, weir_chunk_buffer(((weirpy_Array *)in)->view.chunk),
                                    weir_chunk_buffer(((weirpy_Array *)out)->view.chunk));
  if (st != WEIR_OK) return weirpy_raise(st, "FftPlan.execute");
  Py_RETURN_NONE;
}

static PyObject *get_input_bytes(PyObject *op, void *c) {
  return PyLong_FromUnsignedLongLong(((FftPlan *)op)->input_bytes);
}
static PyObject *get_output_bytes(PyObject *op, void *c) {
  return PyLong_FromUnsignedLongLong(((FftPlan *)op)->output_bytes);
}
static PyObject *get_backend(PyObject *op, void *c) { return Py_NewRef(((FftPlan *)op)->owner); }

static PyMethodDef plan_methods[] = {
    {"execute", plan_execute, METH_VARARGS,
     "execute(input, output): the transform, one dispatch, no allocation."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef plan_getset[] = {
    {"input_bytes", get_input_bytes, NULL, NULL, NULL},
    {"output_bytes", get_output_bytes, NULL, NULL, NULL},
    {"backend", get_backend, NULL, "the weir.Backend", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyType_Slot plan_slots[] = {
    {Py_tp_doc, "A planned FFT (weir_fft_plan); made by weir.fft.plan(...)."},
    {Py_tp_dealloc, plan_dealloc},
    {Py_tp_methods, plan_methods},
    {Py_tp_getset, plan_getset},
    {0, NULL},
};
static PyType_Spec plan_spec = {"weir.fft.FftPlan", sizeof(FftPlan), 0, Py_TPFLAGS_DEFAULT,
                                plan_slots};

static PyMethodDef fft_functions[] = {
    {"_fft_plan", fft_plan, METH_VARARGS, NULL},
    {NULL, NULL, 0, NULL},
};

int weirpy_fft_init(PyObject *module) {
  FftPlanType = (PyTypeObject *)PyType_FromSpec(&plan_spec);
  if (!FftPlanType || PyModule_AddObjectRef(module, "FftPlan", (PyObject *)FftPlanType) < 0)
    return -1;
  return PyModule_AddFunctions(module, fft_functions);
}
