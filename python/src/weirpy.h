/* weir's CPython extension (weir._weir): declarations shared by its files.
 *
 * Built against the limited API of Python 3.11 (abi3): one module file
 * serves every later CPython. The GIL is held during every weir call, so a
 * backend instance (not thread-safe, weir.h) is never used by two threads. */
#ifndef WEIRPY_H
#define WEIRPY_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdio.h>

#include <weir/interop.h>
#include <weir/residency.h>
#include <weir/weir.h>

/* ---- errors (errors.c) ------------------------------------------------- */
extern PyObject *weirpy_Error; /* weir.Error; one subclass per weir_status */
int weirpy_errors_init(PyObject *module);
/* Raises the subclass of `status` with weir_last_error(), prefixed by
 * `what`; returns NULL so that callers write `return weirpy_raise(...)`. */
PyObject *weirpy_raise(weir_status status, const char *what);
/* The same as an int -1, for int-returning helpers. */
int weirpy_fail(weir_status status, const char *what);
/* Raises the subclass of `status` with a message of our own (.c_message None). */
PyObject *weirpy_raise_msg(weir_status status, const char *fmt, ...);
/* The same, keeping weir's C message chain `c_message` in .c_message. */
PyObject *weirpy_raise_c(weir_status status, const char *c_message, const char *fmt, ...);
/* weir's C message without the C functions that prefix it as context. */
const char *weirpy_c_message_body(const char *message);
/* A failed weir_backend_open(spec): weir.CudaUnavailable / weir.VulkanUnavailable
 * (subclasses of weir.Unavailable) for those backends, else as weirpy_fail. */
int weirpy_fail_open(weir_status status, const char *spec);
int weirpy_errors_init_backends(PyObject *module);
/* A failed weir_fft_plan: weir.FftUnavailable (a weir.Unavailable) when the
 * backend's FFT library is missing, else as weirpy_raise. */
PyObject *weirpy_raise_fft(weir_status status, const char *what);

/* ---- dtypes (dtype.c) -------------------------------------------------- */
typedef struct weirpy_dtype {
  const char *name;
  DLDataType dl;
  const char *format; /* struct-module format for the buffer protocol; NULL: none */
} weirpy_dtype;
#define WEIRPY_DTYPE_COUNT 13
#define WEIRPY_BFLOAT16 3
extern const weirpy_dtype weirpy_dtypes[WEIRPY_DTYPE_COUNT];
/* A dtype index from a name (str), a numpy dtype (.name) or type (__name__);
 * -1 with weir.Unsupported naming the accepted ones. */
int weirpy_dtype_from_object(PyObject *obj);
int weirpy_dtype_from_dl(DLDataType dl);  /* -1: none (no exception) */
int weirpy_dtype_from_format(const char *format, Py_ssize_t itemsize); /* -1: none */
/* Writes `value` as one element of `dtype` into out (8 bytes at most). */
int weirpy_dtype_pack(int dtype, PyObject *value, unsigned char *out);

/* ---- backends (backend.c) ---------------------------------------------- */
typedef struct {
  PyObject_HEAD
  weir_backend *backend; /* NULL once closed; arrays keep the instance alive */
  weir_device_info info;
  int is_host;           /* kDLCPU: buffers are host memory */
  DLDevice device;
} weirpy_Backend;
extern PyTypeObject *weirpy_BackendType;
int weirpy_backend_init(PyObject *module);
/* device: None ("cpu"), a spec string or a weir.Backend; returns a borrowed
 * Backend (the cache holds one per device spec) or NULL with an exception. */
weirpy_Backend *weirpy_backend_resolve(PyObject *device);
PyObject *weirpy_devices(PyObject *self, PyObject *unused);

/* ---- arrays (array.c, buffer.c, dlpack.c) ------------------------------ */
typedef struct {
  PyObject_HEAD
  PyObject *owner;      /* the weir.Backend it was made through */
  weir_backend *wb;     /* the chunk's instance (the chunk holds a reference) */
  weir_view view;       /* view.chunk: this array holds one reference */
  int dtype;
  int is_host;
  Py_ssize_t shape[WEIR_VIEW_MAX_DIMS];
  Py_ssize_t strides[WEIR_VIEW_MAX_DIMS]; /* bytes, for the buffer protocol */
} weirpy_Array;
extern PyTypeObject *weirpy_ArrayType;
int weirpy_array_init(PyObject *module);
#define weirpy_Array_Check(o) PyObject_TypeCheck((o), weirpy_ArrayType)

/* Takes over the view's chunk reference (released on failure too). */
PyObject *weirpy_array_wrap(weirpy_Backend *backend, const weir_view *view, int dtype);
/* A new compact array (contents unspecified). `call` names the Python call
 * it is made for in a failure's message ("weir.zeros((4, 5), dtype='float32')"),
 * e.g. out of memory: the size in GiB, the device and what it has free. */
PyObject *weirpy_array_alloc(weirpy_Backend *backend, int dtype, uint32_t ndim,
                             const uint64_t *shape, const char *call);
/* Host address of the first element; NULL (no exception) when not host. */
char *weirpy_array_host_ptr(weirpy_Array *a);
uint64_t weirpy_array_nbytes(const weirpy_Array *a);
int weirpy_array_is_contiguous(const weirpy_Array *a);
/* shape argument: int or sequence of ints; -1 with an exception. */
int weirpy_parse_shape(PyObject *obj, uint32_t *ndim, uint64_t *shape);

extern PyType_Slot weirpy_buffer_slots[]; /* getbuffer / releasebuffer */

PyObject *weirpy_array_dlpack(PyObject *self, PyObject *args, PyObject *kwargs);
PyObject *weirpy_array_dlpack_device(PyObject *self, PyObject *unused);
PyObject *weirpy_from_dlpack(PyObject *module, PyObject *args, PyObject *kwargs);
/* Imports a producer's DLPack tensor on `backend` (NULL: its own device). */
PyObject *weirpy_import_dlpack(PyObject *obj, weirpy_Backend *backend);

/* ---- creation and transfers (create.c) --------------------------------- */
PyObject *weirpy_asarray(PyObject *module, PyObject *args, PyObject *kwargs);
PyObject *weirpy_copy(PyObject *module, PyObject *args, PyObject *kwargs);
PyObject *weirpy_zeros(PyObject *module, PyObject *args, PyObject *kwargs);
PyObject *weirpy_empty(PyObject *module, PyObject *args, PyObject *kwargs);
PyObject *weirpy_full(PyObject *module, PyObject *args, PyObject *kwargs);
PyObject *weirpy_zeros_like(PyObject *module, PyObject *args, PyObject *kwargs);
PyObject *weirpy_empty_like(PyObject *module, PyObject *args, PyObject *kwargs);
/* dst = src, both weir arrays of one shape and dtype, any devices. */
int weirpy_copy_arrays(weirpy_Array *dst, weirpy_Array *src);

/* ---- IFDS (ifds.c) ------------------------------------------------------ */
int weirpy_ifds_init(PyObject *module);
/* "O&" converter for a uint32 argument: an int in 0..4294967295, an
 * OverflowError otherwise (no silent wrap). */
int weirpy_u32_arg(PyObject *o, void *out);
/* A sequence of ints (pairs 0) or of (from, to) tuples (pairs 1) as a
 * PyMem array (*count items, 2 * *count ints for pairs); None or NULL: none.
 * 0, or -1 with an exception. */
int weirpy_u32_list(PyObject *seq, int pairs, uint32_t **out, size_t *count);

/* ---- IDE (ide.c) -------------------------------------------------------- */
int weirpy_ide_init(PyObject *module);

/* ---- FFT plans (fft.c) ------------------------------------------------- */
int weirpy_fft_init(PyObject *module);

#endif
