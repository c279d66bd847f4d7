/* The buffer protocol for host arrays: numpy.asarray(a) and memoryview(a)
 * share the array's memory (writes show on both sides). The memory stays
 * valid while a consumer holds the buffer, because the buffer holds the
 * array. Device arrays and bfloat16 (no struct format) are refused. */
#include "weirpy.h"

static int getbuffer(PyObject *op, Py_buffer *view, int flags) {
  weirpy_Array *a = (weirpy_Array *)op;
  const weirpy_dtype *dt = &weirpy_dtypes[a->dtype];
  if (!a->is_host) {
    weirpy_raise_msg(WEIR_ERR_UNSUPPORTED,
                     "a weir.Array on %s has no host memory to share. Fix: download it with "
                     "weir.asarray(a, device=\"cpu\") (or use DLPack where the consumer is on "
                     "that device).",
                     ((weirpy_Backend *)a->owner)->info.spec);
    return -1;
  }
  if (!dt->format) {
    weirpy_raise_msg(WEIR_ERR_UNSUPPORTED,
                     "%s has no buffer-protocol format, so numpy cannot view it. Fix: use "
                     "DLPack (torch.from_dlpack(a)) or keep the bits as uint16.",
                     dt->name);
    return -1;
  }
  int contiguous = weirpy_array_is_contiguous(a);
  if (!contiguous && ((flags & PyBUF_STRIDES) != PyBUF_STRIDES ||
                      (flags & PyBUF_C_CONTIGUOUS) == PyBUF_C_CONTIGUOUS ||
                      (flags & PyBUF_F_CONTIGUOUS) == PyBUF_F_CONTIGUOUS ||
                      (flags & PyBUF_ANY_CONTIGUOUS) == PyBUF_ANY_CONTIGUOUS)) {
    PyErr_SetString(PyExc_BufferError,
                    "this weir.Array is not C-contiguous and the consumer asked for contiguous "
                    "memory");
    return -1;
  }
  char *ptr = weirpy_array_host_ptr(a);
  if (!ptr) {
    weirpy_raise(WEIR_ERR_UNSUPPORTED, "buffer protocol");
    return -1;
  }
  view->buf = ptr;
  view->obj = Py_NewRef(op);
  view->len = (Py_ssize_t)weirpy_array_nbytes(a);
  view->itemsize = a->view.element_bytes;
  view->readonly = 0;
  view->ndim = (int)a->view.ndim;
  view->format = (flags & PyBUF_FORMAT) ? (char *)dt->format : NULL;
  view->shape = (flags & PyBUF_ND) == PyBUF_ND ? a->shape : NULL;
  view->strides = (flags & PyBUF_STRIDES) == PyBUF_STRIDES ? a->strides : NULL;
  view->suboffsets = NULL;
  view->internal = NULL;
  return 0;
}

static void releasebuffer(PyObject *op, Py_buffer *view) { (void)op; (void)view; }

PyType_Slot weirpy_buffer_slots[] = {
    {Py_bf_getbuffer, (void *)getbuffer},
    {Py_bf_releasebuffer, (void *)releasebuffer},
    {0, NULL},
};
