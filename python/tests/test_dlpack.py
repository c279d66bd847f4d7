"""DLPack round trips (numpy, torch when present) and export lifetimes."""
import gc

import numpy as np
import pytest

import weir

DLPACK_NUMPY = [d for d in weir.dtypes if d not in ("bfloat16", "bool")]  # numpy 1.24


@pytest.mark.parametrize("dtype", DLPACK_NUMPY)
def test_numpy_round_trip_without_copies(dtype):
    x = (np.arange(12) % 3).astype(dtype).reshape(3, 4)
    w = weir.from_dlpack(x)
    assert w.ptr == x.ctypes.data and w.dtype == dtype and w.shape == (3, 4)
    y = np.from_dlpack(w)
    assert y.ctypes.data == x.ctypes.data and (y == x).all()
    assert w.__dlpack_device__() == (weir.kDLCPU, 0)


def test_every_dtype_round_trips_through_weir():
    for dtype in weir.dtypes:
        a = weir.full(3, 1, dtype=dtype, device="cpu:2")
        b = weir.from_dlpack(a)  # host tensor of cpu:2 lands on "cpu" (cpu:0)
        assert (b.dtype, b.ptr, b.device) == (dtype, a.ptr, "cpu:0")
        c = weir.from_dlpack(a, device="cpu:6")
        assert c.device == "cpu:6" and c.ptr == a.ptr


def test_capsule_is_consumed_once():
    a = weir.zeros(4)
    capsule = a.__dlpack__()
    weir.from_dlpack(capsule)
    with pytest.raises(ValueError):
        weir.from_dlpack(capsule)
    a.__dlpack__()  # an unconsumed capsule frees its tensor when collected
    gc.collect()


def test_export_outlives_array_and_backend():
    b = weir.Backend("cpu:4")
    a = weir.full(64, 7, dtype="int32", device=b)
    y = np.from_dlpack(a)
    del a
    b.close()
    assert b.closed
    gc.collect()
    assert (y == 7).all()  # the export holds the chunk, the chunk the instance
    with pytest.raises(weir.InvalidArgument, match="closed"):
        weir.zeros(2, device=b)


def test_import_keeps_the_producer_alive():
    x = np.arange(100, dtype=np.float64)
    w = weir.from_dlpack(x)
    del x
    gc.collect()
    assert np.asarray(w)[99] == 99.0


def test_torch_round_trip(torch):
    t = torch.arange(10, dtype=torch.float32)
    w = weir.from_dlpack(t)
    assert w.ptr == t.data_ptr() and w.dtype == "float32"
    np.asarray(w)[0] = 42
    assert t[0].item() == 42
    back = torch.from_dlpack(w)
    assert back.data_ptr() == t.data_ptr()
    for dtype in ("float64", "float16", "bfloat16", "int64", "int32", "int16", "int8", "uint8"):
        a = weir.full(4, 1, dtype=dtype)
        tt = torch.from_dlpack(a)
        assert str(tt.dtype) == f"torch.{dtype}" and tt.data_ptr() == a.ptr
        assert (tt == 1).all()
        assert weir.from_dlpack(tt).dtype == dtype
    a = weir.asarray(torch.ones(3, 2, dtype=torch.float64), device="cpu:1")
    assert a.shape == (3, 2) and (np.asarray(a) == 1).all()


def test_torch_export_outlives_backend(torch):
    b = weir.Backend("cpu:7")
    a = weir.full(16, 3.0, dtype="float32", device=b)
    t = torch.from_dlpack(a)
    del a
    b.close()
    gc.collect()
    assert float(t.sum()) == 48.0


def test_torch_to_vulkan(torch, vulkan):
    t = torch.arange(6, dtype=torch.int32)
    v = weir.asarray(t, device=vulkan)
    assert v.device == vulkan.spec
    assert (np.asarray(weir.asarray(v, device="cpu")) == np.arange(6)).all()


def test_empty_tensors_import():
    for shape in ((0,), (0, 3), (2, 0, 4)):
        x = np.zeros(shape, dtype=np.float32)
        for w in (weir.from_dlpack(x), weir.asarray(x), weir.from_dlpack(x.__dlpack__())):
            assert w.shape == shape and w.dtype == "float32" and w.nbytes == 0
            assert np.asarray(w).shape == shape
    w = weir.from_dlpack(weir.zeros((0, 3), dtype="int8", device="cpu:3"), device="cpu:5")
    assert w.shape == (0, 3) and w.device == "cpu:5"


def test_empty_torch_tensors_import(torch):
    for make in (lambda: torch.zeros(0, 3), lambda: torch.empty(4, 0, dtype=torch.int64)):
        t = make()
        for w in (weir.from_dlpack(t), weir.asarray(t), weir.asarray(t, device="cpu:1")):
            assert w.shape == tuple(t.shape) and w.nbytes == 0
        assert tuple(torch.from_dlpack(weir.from_dlpack(t)).shape) == tuple(t.shape)


def test_not_a_producer_is_a_weir_error():
    with pytest.raises(weir.InvalidArgument, match=r"not a DLPack producer.*Fix:"):
        weir.from_dlpack(object())

    class BadProducer:
        def __dlpack__(self, stream=None):
            return object()

    with pytest.raises(weir.InvalidArgument, match=r"BadProducer.*not a DLPack capsule.*Fix:"):
        weir.from_dlpack(BadProducer())

    class Raises:
        def __dlpack__(self, stream=None):
            raise RuntimeError("producer says no")

    with pytest.raises(RuntimeError, match="producer says no"):
        weir.from_dlpack(Raises())


def test_consumed_capsule_says_so():
    capsule = weir.zeros(4).__dlpack__()
    weir.from_dlpack(capsule)
    with pytest.raises(weir.InvalidArgument, match=r"already consumed.*Fix:"):
        weir.from_dlpack(capsule)


# ---- the DLPack 1.0 protocol: max_version, dl_device (issue 23) ----------------

import ctypes  # noqa: E402

_api = ctypes.pythonapi
_api.PyCapsule_IsValid.restype = ctypes.c_int
_api.PyCapsule_IsValid.argtypes = [ctypes.py_object, ctypes.c_char_p]
_api.PyCapsule_GetPointer.restype = ctypes.c_void_p
_api.PyCapsule_GetPointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
_api.PyCapsule_SetName.restype = ctypes.c_int
_api.PyCapsule_SetName.argtypes = [ctypes.py_object, ctypes.c_char_p]


class _DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device_type", ctypes.c_int32),
                ("device_id", ctypes.c_int32), ("ndim", ctypes.c_int32),
                ("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16),
                ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)), ("byte_offset", ctypes.c_uint64)]


class _Versioned(ctypes.Structure):  # DLManagedTensorVersioned, DLPack 1.0
    pass


_Versioned._fields_ = [("major", ctypes.c_uint32), ("minor", ctypes.c_uint32),
                       ("manager_ctx", ctypes.c_void_p),
                       ("deleter", ctypes.CFUNCTYPE(None, ctypes.POINTER(_Versioned))),
                       ("flags", ctypes.c_uint64), ("dl_tensor", _DLTensor)]


def _is(capsule, name):
    return _api.PyCapsule_IsValid(capsule, name) == 1


@pytest.mark.parametrize("max_version", [None, (0, 5), (0, 8)])
def test_legacy_capsule_below_version_1(max_version):
    # major 0 (or no max_version: a consumer that predates versioning) reads
    # the legacy capsule, whose layout every 0.x shares
    a = weir.zeros(3)
    c = a.__dlpack__() if max_version is None else a.__dlpack__(max_version=max_version)
    assert _is(c, b"dltensor") and not _is(c, b"dltensor_versioned")


@pytest.mark.parametrize("max_version", [(1, 0), (1, 3), (2, 0)])
def test_versioned_capsule_from_version_1(max_version):
    a = weir.full((2, 3), 5, dtype="int32")
    c = a.__dlpack__(max_version=max_version)
    assert _is(c, b"dltensor_versioned") and not _is(c, b"dltensor")
    v = _Versioned.from_address(_api.PyCapsule_GetPointer(c, b"dltensor_versioned"))
    assert (v.major, v.minor) == (1, 0)  # the consumer checks it; 2.0 asked, 1.0 given
    assert v.flags == 0  # writable, not a copy
    t = v.dl_tensor
    assert (t.data + t.byte_offset, t.ndim, [t.shape[i] for i in range(2)]) == (a.ptr, 2, [2, 3])
    assert (t.device_type, t.device_id) == a.__dlpack_device__()
    assert (t.code, t.bits, t.lanes) == (0, 32, 1)  # kDLInt
    assert ctypes.c_int32.from_address(t.data + t.byte_offset + 4 * 5).value == 5


def test_versioned_capsule_consumed_and_deleted():
    # a consumer renames the capsule and later calls the deleter; the export
    # holds the data until then, after the array is gone
    a = weir.full(8, 3, dtype="int32")
    c = a.__dlpack__(max_version=(1, 0))
    p = _api.PyCapsule_GetPointer(c, b"dltensor_versioned")
    assert _api.PyCapsule_SetName(c, b"used_dltensor_versioned") == 0
    del a, c
    gc.collect()
    v = _Versioned.from_address(p)
    assert ctypes.c_int32.from_address(v.dl_tensor.data + v.dl_tensor.byte_offset).value == 3
    v.deleter(ctypes.pointer(v))
    weir.zeros(2).__dlpack__(max_version=(1, 0))  # unconsumed: its destructor deletes it
    gc.collect()


@pytest.mark.parametrize("bad", [(1,), (1, 0, 0), "1.0", (-1, 0), (1, "0"), 1])
def test_max_version_must_be_a_version(bad):
    with pytest.raises(TypeError, match=r"max_version=.*Fix: pass None or a tuple"):
        weir.zeros(2).__dlpack__(max_version=bad)


def test_dl_device_other_than_the_arrays_is_refused():
    a = weir.zeros(2)
    own = a.__dlpack_device__()
    assert _is(a.__dlpack__(dl_device=own), b"dltensor")
    with pytest.raises(BufferError, match="without copies"):
        a.__dlpack__(dl_device=(2, 0))  # kDLCUDA
    with pytest.raises(BufferError, match="copy=True"):
        a.__dlpack__(copy=True, max_version=(1, 0))


def test_numpy_still_imports():
    a = weir.full(4, 2, dtype="float32")
    y = np.from_dlpack(a)  # numpy 1.24 asks without max_version; numpy 2 with (1, 0)
    assert y.ctypes.data == a.ptr and (y == 2).all()


def test_torch_still_imports(torch):
    a = weir.full(4, 2, dtype="float32")
    assert torch.from_dlpack(a).data_ptr() == a.ptr
