/* dtypes by name. weir stores and moves elements without doing arithmetic on
 * them, so every type is its DLPack code and width; the buffer protocol has
 * no format for bfloat16, which it therefore refuses. */
#include <math.h>
#include <string.h>

#include "weirpy.h"

const weirpy_dtype weirpy_dtypes[WEIRPY_DTYPE_COUNT] = {
    {"float64", {kDLFloat, 64, 1}, "d"},  {"float32", {kDLFloat, 32, 1}, "f"},
    {"float16", {kDLFloat, 16, 1}, "e"},  {"bfloat16", {kDLBfloat, 16, 1}, NULL},
    {"int64", {kDLInt, 64, 1}, "q"},      {"int32", {kDLInt, 32, 1}, "i"},
    {"int16", {kDLInt, 16, 1}, "h"},      {"int8", {kDLInt, 8, 1}, "b"},
    {"uint64", {kDLUInt, 64, 1}, "Q"},    {"uint32", {kDLUInt, 32, 1}, "I"},
    {"uint16", {kDLUInt, 16, 1}, "H"},    {"uint8", {kDLUInt, 8, 1}, "B"},
    {"bool", {WEIR_DLPACK_BOOL, 8, 1}, "?"},
};

static int by_name(const char *name) {
  if (strncmp(name, "torch.", 6) == 0) name += 6; /* str(torch.float32) */
  for (int i = 0; i < WEIRPY_DTYPE_COUNT; ++i)
    if (strcmp(weirpy_dtypes[i].name, name) == 0) return i;
  return -1;
}

int weirpy_dtype_from_object(PyObject *obj) {
  PyObject *text = NULL;
  if (PyUnicode_Check(obj)) {
    text = Py_NewRef(obj);
  } else if (PyType_Check(obj)) { /* numpy.float32, bool */
    text = PyObject_GetAttrString(obj, "__name__");
  } else if (PyObject_HasAttrString(obj, "name")) { /* numpy.dtype('float32') */
    text = PyObject_GetAttrString(obj, "name");
  } else {
    text = PyObject_Str(obj); /* torch.float32 */
  }
  if (!text) return -1;
  const char *name = PyUnicode_Check(text) ? PyUnicode_AsUTF8AndSize(text, NULL) : NULL;
  int index = name ? by_name(name) : -1;
  if (index < 0) {
    PyErr_Clear();
    weirpy_raise_msg(WEIR_ERR_UNSUPPORTED,
                     "dtype %R is not one weir carries. Fix: use one of float64 float32 "
                     "float16 bfloat16 int64 int32 int16 int8 uint64 uint32 uint16 uint8 bool.",
                     obj);
  }
  Py_DECREF(text);
  return index;
}

int weirpy_dtype_from_dl(DLDataType dl) {
  for (int i = 0; i < WEIRPY_DTYPE_COUNT; ++i)
    if (weirpy_dtypes[i].dl.code == dl.code && weirpy_dtypes[i].dl.bits == dl.bits &&
        dl.lanes == 1)
      return i;
  return -1;
}

int weirpy_dtype_from_format(const char *format, Py_ssize_t itemsize) {
  if (!format) format = "B";
  /* native or little-endian standard sizes only; itemsize settles 'l'. */
  if (*format == '@' || *format == '=' || *format == '<') ++format;
  if (strlen(format) != 1) return -1;
  char kind = format[0];
  const char *group = NULL;
  if (strchr("bhilq", kind)) group = "int";
  else if (strchr("BHILQ", kind)) group = "uint";
  if (group) {
    char name[16];
    snprintf(name, sizeof name, "%s%d", group, (int)(itemsize * 8));
    return by_name(name);
  }
  if (kind == 'd' && itemsize == 8) return 0;
  if (kind == 'f' && itemsize == 4) return 1;
  if (kind == 'e' && itemsize == 2) return 2;
  if (kind == '?' && itemsize == 1) return 12;
  return -1;
}

/* IEEE binary16 from a double, round to nearest even (no numpy needed). */
static uint16_t to_half(double value) {
  float f = (float)value;
  uint32_t x;
  memcpy(&x, &f, 4);
  uint32_t sign = (x >> 16) & 0x8000u, exp = (x >> 23) & 0xffu, man = x & 0x7fffffu;
  if (exp == 0xffu) return (uint16_t)(sign | 0x7c00u | (man ? 0x200u : 0));
  int e = (int)exp - 127 + 15;
  if (e >= 31) return (uint16_t)(sign | 0x7c00u);
  if (e <= 0) {
    if (e < -10) return (uint16_t)sign;
    man |= 0x800000u;
    uint32_t shift = (uint32_t)(14 - e);
    uint32_t half = man >> shift, rest = man & ((1u << shift) - 1), mid = 1u << (shift - 1);
    if (rest > mid || (rest == mid && (half & 1u))) ++half;
    return (uint16_t)(sign | half);
  }
  uint32_t half = sign | ((uint32_t)e << 10) | (man >> 13), rest = man & 0x1fffu;
  if (rest > 0x1000u || (rest == 0x1000u && (half & 1u))) ++half;
  return (uint16_t)half;
}

static uint16_t to_bfloat16(double value) {
  float f = (float)value;
  uint32_t x;
  memcpy(&x, &f, 4);
  if (isnan(f)) return (uint16_t)((x >> 16) | 0x40u);
  x += 0x7fffu + ((x >> 16) & 1u); /* round to nearest even */
  return (uint16_t)(x >> 16);
}

int weirpy_dtype_pack(int dtype, PyObject *value, unsigned char *out) {
  const DLDataType dl = weirpy_dtypes[dtype].dl;
  const int bytes = dl.bits / 8;
  if (dl.code == WEIR_DLPACK_BOOL) {
    int truth = PyObject_IsTrue(value);
    if (truth < 0) return -1;
    out[0] = (unsigned char)truth;
    return 0;
  }
  if (dl.code == kDLFloat || dl.code == kDLBfloat) {
    double v = PyFloat_AsDouble(value);
    if (v == -1.0 && PyErr_Occurred()) return -1;
    if (dl.code == kDLBfloat) {
      uint16_t h = to_bfloat16(v);
      memcpy(out, &h, 2);
    } else if (bytes == 2) {
      uint16_t h = to_half(v);
      memcpy(out, &h, 2);
    } else if (bytes == 4) {
      float f = (float)v;
      memcpy(out, &f, 4);
    } else {
      memcpy(out, &v, 8);
    }
    return 0;
  }
  /* integers: in range for the type, or OverflowError */
  uint64_t bits;
  if (dl.code == kDLInt) {
    long long v = PyLong_AsLongLong(value);
    if (v == -1 && PyErr_Occurred()) return -1;
    long long lo = bytes == 8 ? INT64_MIN : -(1ll << (bytes * 8 - 1));
    long long hi = bytes == 8 ? INT64_MAX : (1ll << (bytes * 8 - 1)) - 1;
    if (v < lo || v > hi) goto overflow;
    bits = (uint64_t)v;
  } else {
    unsigned long long v = PyLong_AsUnsignedLongLong(value);
    if (v == (unsigned long long)-1 && PyErr_Occurred()) return -1;
    if (bytes < 8 && v >> (bytes * 8)) goto overflow;
    bits = v;
  }
  /* little-endian hosts only (x86-64, aarch64): the low bytes come first */
  memcpy(out, &bits, (size_t)bytes);
  return 0;
overflow:
  PyErr_Format(PyExc_OverflowError, "%R does not fit in %s", value, weirpy_dtypes[dtype].name);
  return -1;
}
