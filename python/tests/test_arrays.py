"""Arrays, dtypes, the buffer protocol and host/device moves."""
import ctypes
import gc
import pathlib

import numpy as np
import pytest

import weir

NUMPY_DTYPES = [d for d in weir.dtypes if d != "bfloat16"]


def test_import_and_errors_carry_weirs_message():
    assert weir.version() == weir.__version__
    # A device index past the backend's devices is a wrong spec, not a missing backend.
    with pytest.raises(weir.OutOfRange) as e:
        weir.zeros(4, device="cpu:99")
    assert "Fix:" in str(e.value) and "largest valid index is 7" in str(e.value)
    assert not isinstance(e.value, weir.Unavailable)
    assert issubclass(weir.InvalidArgument, (weir.Error, ValueError))
    assert weir.Unavailable.status == "WEIR_ERR_UNAVAILABLE"


def test_out_of_memory_speaks_python_and_keeps_the_c_chain():
    # issue 27 item 3: the call, the size in GiB, the device and what it has
    # free, and a Fix; libweir's chain of C calls only in .c_message.
    with pytest.raises(weir.OutOfMemory) as e:
        weir.zeros((1 << 40,), "float32")
    msg = str(e.value)
    assert msg.startswith("weir.zeros((1099511627776,), dtype='float32'): "), msg
    assert "4096.0 GiB" in msg and "device 'cpu:0'" in msg and " free" in msg
    assert "Fix: " in msg and e.value.fix and msg.endswith(e.value.fix)
    assert "weir_chunk_allocate" not in msg and "weir_allocate" not in msg
    assert e.value.c_message.startswith("weir_chunk_allocate(4398046511104 bytes): weir_allocate: ")
    assert isinstance(e.value, MemoryError) and e.value.status == "WEIR_ERR_OUT_OF_MEMORY"
    # full(), a device given, a list for a shape: the call as written.
    with pytest.raises(weir.OutOfMemory) as e:
        weir.full([1 << 36, 2], 3, dtype="int8", device="cpu:1")
    assert str(e.value).startswith("weir.full([68719476736, 2], 3, dtype='int8', device='cpu:1'): ")
    assert "128.0 GiB" in str(e.value) and "'cpu:1'" in str(e.value)


def test_every_error_carries_c_message_and_fix():
    # From libweir: .c_message is its whole message, str() has no C prefixes.
    with pytest.raises(weir.IOFailure) as e:
        weir.ifds.load("/nonexistent/weir-issue-27.ifds")
    assert e.value.c_message and "cannot open the problem file" in e.value.c_message
    assert e.value.fix and "Fix: " + e.value.fix in str(e.value)
    assert not str(e.value).startswith("weir_")
    # The extension's own messages: c_message None, fix still set.
    with pytest.raises(weir.Unsupported) as e:
        np.asarray(weir.full(3, 1.5, dtype="bfloat16"))
    assert e.value.c_message is None and e.value.fix
    assert weir.Error.c_message is None and weir.Error.fix is None


def test_arrays_have_no_operators_and_say_what_to_use():
    # issue 27 item 4: no arithmetic by design; the TypeError and the docs
    # give the one-line idioms.
    a = weir.zeros(3, "float64")
    idioms = r"np\.asarray\(a\).*torch\.from_dlpack\(a\).*cupy\.from_dlpack\(a\)"
    for op in (lambda: a + a, lambda: a * 2, lambda: 2 - a, lambda: -a, lambda: a @ a,
               lambda: a ** 2):
        with pytest.raises(TypeError, match=idioms):
            op()
    # A numpy array on the other side: numpy's operator computes, as before.
    assert (a + np.ones(3) == 1).all() and (np.ones(3) + a == 1).all()
    root = pathlib.Path(__file__).resolve().parents[2]
    for doc in (root / "README.md", root / "docs" / "python.md"):
        text = doc.read_text()
        assert "no operators" in text, doc
        for idiom in ("np.asarray(a)", "torch.from_dlpack(a)", "cupy.from_dlpack(a)"):
            assert idiom in text, (doc, idiom)


def test_gpu_backends_that_cannot_open_say_which():
    specs = {d["spec"] for d in weir.devices() if d.get("available", True)}
    # A device index no machine has: with Vulkan devices here a wrong spec
    # (OutOfRange), without any the driver's or weir's reason (VulkanUnavailable).
    vulkan_here = any(s.startswith("vulkan") for s in specs)
    expected = weir.OutOfRange if vulkan_here else weir.VulkanUnavailable
    with pytest.raises(expected) as e:
        weir.zeros(4, device="vulkan:99")
    assert "Fix:" in str(e.value)
    if not any(s.startswith("cuda") for s in specs):
        with pytest.raises(weir.CudaUnavailable) as e:
            weir.zeros(4, device="cuda")
        assert "Fix:" in str(e.value)


@pytest.mark.parametrize("dtype", weir.dtypes)
def test_every_dtype(dtype):
    a = weir.full((2, 3), 1, dtype=dtype)
    assert (a.shape, a.dtype, a.ndim, a.is_contiguous) == ((2, 3), dtype, 2, True)
    assert a.nbytes == 6 * a.itemsize and a.strides == (3 * a.itemsize, a.itemsize)
    z = weir.zeros_like(a)
    assert (z.shape, z.dtype, z.device) == (a.shape, dtype, a.device)
    if dtype == "bfloat16":
        return  # no buffer-protocol format: test_bfloat16_values_and_refusal
    n = np.asarray(a)
    assert n.dtype == np.dtype(dtype) and n.shape == (2, 3) and (n == 1).all()
    assert not np.asarray(z).any()
    if dtype != "bool":  # numpy 1.24 has no DLPack bool
        assert np.from_dlpack(a).dtype == n.dtype


def test_bfloat16_values_and_refusal():
    a = weir.full(3, 1.5, dtype="bfloat16")
    with pytest.raises(weir.Unsupported, match="bfloat16"):
        np.asarray(a)
    with pytest.raises(weir.Unsupported):
        memoryview(a)
    b = weir.from_dlpack(a)
    assert b.dtype == "bfloat16" and b.ptr == a.ptr
    # the bits are float32's upper half, rounded: 1.5 = 0x3FC0
    assert ctypes.string_at(a.ptr, a.nbytes) == b"\xc0\x3f" * 3
    c = weir.copy(a)
    assert ctypes.string_at(c.ptr, 6) == b"\xc0\x3f" * 3


def test_unknown_dtypes_are_refused_by_name():
    for bad in ("complex64", "float128", "int4", np.complex64):
        with pytest.raises(weir.Unsupported, match="is not one weir carries"):
            weir.zeros(2, dtype=bad)
    with pytest.raises(weir.Unsupported):
        weir.asarray(np.zeros(2, np.complex64))
    with pytest.raises(weir.Unsupported, match="at most 4"):
        weir.zeros((1, 1, 1, 1, 1))
    with pytest.raises(OverflowError):
        weir.full(2, 300, dtype="uint8")


def test_dtype_objects_are_accepted():
    assert weir.zeros(2, np.float32).dtype == "float32"
    assert weir.zeros(2, np.dtype("int16")).dtype == "int16"
    assert weir.zeros(2, bool).dtype == "bool"


def test_numpy_shares_memory_both_ways():
    a = weir.zeros((4, 5), dtype="float32")
    n = np.asarray(a)
    assert n.ctypes.data == a.ptr
    n[1, 2] = 7.0
    assert np.asarray(a)[1, 2] == 7.0
    x = np.arange(12, dtype=np.int64).reshape(3, 4)
    w = weir.asarray(x)
    assert w.ptr == x.ctypes.data and w.device == "cpu:0"
    x[2, 3] = -1
    assert np.asarray(w)[2, 3] == -1
    np.asarray(w)[0, 0] = 99
    assert x[0, 0] == 99


def test_strided_numpy_is_shared_and_readonly_is_copied():
    x = np.arange(20, dtype=np.float64).reshape(4, 5)
    s = x[:, 1::2]
    w = weir.asarray(s)
    assert not w.is_contiguous and w.strides == s.strides and w.ptr == s.ctypes.data
    assert (np.asarray(w) == s).all()
    with pytest.raises(weir.Unsupported, match="contiguous"):
        weir.copy(w)  # strided copies are refused: weir does no maths in Python
    r = np.arange(4.0)
    r.flags.writeable = False
    c = weir.asarray(r)
    assert c.ptr != r.ctypes.data and (np.asarray(c) == r).all()
    neg = np.arange(5.0)[::-1]  # negative strides: copied
    assert (np.asarray(weir.asarray(neg)) == neg).all()


def test_copy_into_arrays_and_numpy():
    a = weir.full(8, 3, dtype="int32")
    b = weir.copy(a)
    assert b.ptr != a.ptr and (np.asarray(b) == 3).all()
    out = np.zeros(8, np.int32)
    assert weir.copy(a, into=out) is out and (out == 3).all()
    weir.copy(np.arange(8, dtype=np.int32), into=b)
    assert (np.asarray(b) == np.arange(8)).all()
    with pytest.raises(weir.InvalidArgument, match="shape or dtype"):
        weir.copy(a, into=np.zeros(8, np.int64))
    with pytest.raises(TypeError):
        weir.asarray([1, 2, 3])


def test_other_cpu_instances_share_host_memory():
    x = np.arange(6, dtype=np.float32)
    for n in range(8):
        w = weir.asarray(x, device=f"cpu:{n}")
        assert w.device == f"cpu:{n}" and w.ptr == x.ctypes.data
    a = weir.full(4, 2.0, device="cpu:3")
    b = weir.asarray(a, device="cpu:5")  # host to host: no copy
    assert b.ptr == a.ptr and b.device == "cpu:5"


def test_lifetime_numpy_view_outlives_array():
    a = weir.full(1000, 5, dtype="uint16")
    n = np.asarray(a)
    del a
    gc.collect()
    assert (n == 5).all()
    x = np.ones(10)
    w = weir.asarray(x)
    del x
    gc.collect()
    assert (np.asarray(w) == 1).all()


def test_empty_and_scalar_arrays():
    e = weir.zeros((0, 3), dtype="float32")
    assert e.shape == (0, 3) and np.asarray(e).shape == (0, 3)
    s = weir.full((), 4, dtype="int8")
    assert s.ndim == 0 and np.asarray(s)[()] == 4


def test_vulkan_upload_download(vulkan):
    x = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    v = weir.asarray(x, device=vulkan)
    assert v.device == vulkan.spec and v.ptr is None
    with pytest.raises(weir.Unsupported, match="no host memory"):
        np.asarray(v)
    h = weir.asarray(v, device="cpu")
    assert (np.asarray(h) == x).all()
    z = weir.zeros_like(v)
    weir.copy(v, into=z)  # on the device
    out = np.empty_like(x)
    weir.copy(z, into=out)  # download
    assert (out == x).all()
    weir.copy(np.full_like(x, 2), into=z)  # upload
    assert (np.asarray(weir.asarray(z, device="cpu")) == 2).all()
    f = weir.full(5, 9, dtype="uint8", device=vulkan)
    assert bytes(np.asarray(weir.asarray(f, device="cpu"))) == b"\x09" * 5
    with pytest.raises(weir.Unsupported):
        v.__dlpack__()  # vulkan has no consumer pointer
    assert v.__dlpack_device__() == (weir.kDLVulkan, vulkan.info["dlpack_device"][1])
