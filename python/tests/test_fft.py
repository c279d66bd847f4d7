"""weir.fft against numpy.fft on random inputs (complex as a trailing axis of 2).

Relative L2 error bounds per precision: 2 * eps * (log2(N) + 2), eps 1.2e-7
(float32) and 2.3e-16 (float64) — the same as the C suite (tests/fft)."""
import math

import numpy as np
import pytest

import weir

SIZES = [1, 2, 3, 4, 5, 7, 8, 15, 16, 17, 31, 64, 97, 100, 128, 194, 243, 509, 1000, 1009, 1024,
         2018]
DTYPES = ["float32", "float64"]
NORMS = [None, "backward", "forward", "ortho"]
CPLX = {"float32": np.complex64, "float64": np.complex128}


def bound(dtype, total):
    eps = 1.2e-7 if dtype == "float32" else 2.3e-16
    return 2 * eps * (math.log2(max(total, 2)) + 2)


def pairs(z, dtype):
    z = np.ascontiguousarray(z, CPLX[dtype])
    return weir.asarray(z.view(dtype).reshape(*z.shape, 2))


def unpair(a):
    x = np.asarray(a)
    return x.view(CPLX[a.dtype])[..., 0]


def rel(got, want):
    n = np.linalg.norm(np.ravel(want))
    return np.linalg.norm(np.ravel(got - want)) / (n if n else 1.0)


def rand(rng, shape, complex_=True):
    x = rng.uniform(-1, 1, shape)
    return x + 1j * rng.uniform(-1, 1, shape) if complex_ else x


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("n", SIZES)
def test_1d_against_numpy(n, dtype):
    rng = np.random.default_rng(n)
    for k, norm in enumerate(NORMS):
        z = rand(rng, (3, n)).astype(CPLX[dtype])
        x = rand(rng, (3, n), False).astype(dtype)
        got = unpair(weir.fft.fft(pairs(z, dtype), norm=norm))
        assert rel(got, np.fft.fft(z.astype(np.complex128), norm=norm)) <= bound(dtype, n)
        got = unpair(weir.fft.ifft(pairs(z, dtype), norm=norm))
        assert rel(got, np.fft.ifft(z.astype(np.complex128), norm=norm)) <= bound(dtype, n)
        got = unpair(weir.fft.rfft(weir.asarray(x), norm=norm))
        assert got.shape == (3, n // 2 + 1)
        assert rel(got, np.fft.rfft(x.astype(np.float64), norm=norm)) <= bound(dtype, n)
        h = np.fft.rfft(rand(rng, (3, n), False), norm=norm)
        got = np.asarray(weir.fft.irfft(pairs(h, dtype), n=n, norm=norm))
        assert got.shape == (3, n) and got.dtype == dtype
        want = np.fft.irfft(h.astype(CPLX[dtype]).astype(np.complex128), n=n, norm=norm)
        assert rel(got, want) <= bound(dtype, n)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape,axes", [((6, 10), None), ((4, 6, 8), None), ((5, 3, 7), (1, 2)),
                                        ((3, 9, 4), (0, 1)), ((2, 67, 5), (1,))])
def test_nd_against_numpy(shape, axes, dtype):
    rng = np.random.default_rng(sum(shape))
    total = math.prod(shape[a] for a in (axes or range(len(shape))))
    z = rand(rng, shape).astype(CPLX[dtype])
    zz = z.astype(np.complex128)
    for norm in NORMS:
        assert rel(unpair(weir.fft.fftn(pairs(z, dtype), axes=axes, norm=norm)),
                   np.fft.fftn(zz, axes=axes, norm=norm)) <= bound(dtype, total)
        assert rel(unpair(weir.fft.ifftn(pairs(z, dtype), axes=axes, norm=norm)),
                   np.fft.ifftn(zz, axes=axes, norm=norm)) <= bound(dtype, total)
        x = z.real.copy()
        assert rel(unpair(weir.fft.rfftn(weir.asarray(x), axes=axes, norm=norm)),
                   np.fft.rfftn(x.astype(np.float64), axes=axes, norm=norm)) <= bound(dtype, total)
        last = (axes or range(len(shape)))[-1]
        s = [shape[a] for a in (axes or range(len(shape)))]
        h = np.fft.rfftn(x.astype(np.float64), axes=axes).astype(CPLX[dtype])
        got = np.asarray(weir.fft.irfftn(pairs(h, dtype), s=s, axes=axes, norm=norm))
        want = np.fft.irfftn(h.astype(np.complex128), s=s, axes=axes, norm=norm)
        assert got.shape == want.shape and got.shape[last] == shape[last]
        assert rel(got, want) <= bound(dtype, total)


def test_middle_axis_and_large_batch():
    rng = np.random.default_rng(3)
    z = rand(rng, (4, 12, 5))
    assert rel(unpair(weir.fft.fft(pairs(z, "float64"), axis=1)),
               np.fft.fft(z, axis=1)) <= bound("float64", 12)
    z = rand(rng, (5000, 64)).astype(np.complex64)
    assert rel(unpair(weir.fft.fft(pairs(z, "float32"))),
               np.fft.fft(z.astype(np.complex128))) <= bound("float32", 64)


def test_plan_execute_allocates_nothing():
    rng = np.random.default_rng(5)
    z = rand(rng, (64, 256))
    p = weir.fft.plan("fft", 256, batch=64, dtype="float64")
    assert p.input_shape == (64, 256, 2) and p.output_shape == (64, 256, 2)
    a = pairs(z, "float64")
    out = weir.empty(p.output_shape, "float64")
    b = p.backend
    before = b.stats()
    for _ in range(5):
        p.execute(a, out)
    after = b.stats()
    assert after["live_buffers"] == before["live_buffers"]
    assert after["uploads"] == before["uploads"]
    assert after["dispatches"] - before["dispatches"] == 5
    assert rel(unpair(out), np.fft.fft(z)) <= bound("float64", 256)
    r = weir.fft.plan("irfft", (8, 30), batch=3, dtype="float32", norm="ortho")
    assert r.input_shape == (3, 8, 16, 2) and r.output_shape == (3, 8, 30)


def test_refusals():
    a = weir.zeros((4, 8, 2), "float32")
    with pytest.raises(weir.InvalidArgument, match="norm"):
        weir.fft.fft(a, norm="sideways")
    with pytest.raises(weir.InvalidArgument, match="trailing axis of extent 2"):
        weir.fft.fft(weir.zeros((4, 8), "float32"))
    with pytest.raises(weir.InvalidArgument, match="float32 or float64"):
        weir.fft.rfft(weir.zeros(8, "int32"))
    with pytest.raises(weir.Unsupported, match="pad or crop"):
        weir.fft.fft(a, n=16)
    with pytest.raises(weir.Unsupported, match="adjacent"):
        weir.fft.fftn(weir.zeros((2, 3, 4, 2), "float64"), axes=(0, 2))
    p = weir.fft.plan("fft", 8, batch=4)
    with pytest.raises(weir.InvalidArgument, match="Fix:"):
        p.execute(weir.zeros((4, 8, 2), "float64"), weir.zeros((4, 8, 2), "float32"))


def test_fft_unavailable_is_an_unavailable():
    # raised by weir.fft.plan when a backend's FFT library (cuFFT, VkFFT) is missing
    assert issubclass(weir.FftUnavailable, weir.Unavailable)
    assert weir.FftUnavailable.status == "WEIR_ERR_UNAVAILABLE"


def on_host(a):
    return weir.asarray(a, device="cpu")


@pytest.mark.parametrize("dtype", DTYPES)
def test_vulkan_against_numpy(vulkan, dtype):
    """VkFFT on vulkan arrays (lavapipe here) against numpy.fft, same bounds."""
    rng = np.random.default_rng(42)
    for k, n in enumerate([8, 17, 100, 128]):
        norm = NORMS[k % len(NORMS)]
        z = rand(rng, (3, n)).astype(CPLX[dtype])
        a = weir.asarray(pairs(z, dtype), device=vulkan)
        f = weir.fft.fft(a, norm=norm)
        assert f.device.startswith("vulkan")
        assert rel(unpair(on_host(f)), np.fft.fft(z.astype(np.complex128), norm=norm)) <= bound(dtype, n)
        f = weir.fft.ifft(a, norm=norm)
        assert rel(unpair(on_host(f)), np.fft.ifft(z.astype(np.complex128), norm=norm)) <= bound(dtype, n)
        x = rand(rng, (3, n), False).astype(dtype)
        got = unpair(on_host(weir.fft.rfft(weir.asarray(x, device=vulkan), norm=norm)))
        assert rel(got, np.fft.rfft(x.astype(np.float64), norm=norm)) <= bound(dtype, n)
        h = np.fft.rfft(rand(rng, (3, n), False), norm=norm)
        got = np.asarray(on_host(weir.fft.irfft(weir.asarray(pairs(h, dtype), device=vulkan),
                                                n=n, norm=norm)))
        want = np.fft.irfft(h.astype(CPLX[dtype]).astype(np.complex128), n=n, norm=norm)
        assert rel(got, want) <= bound(dtype, n)
    z = rand(rng, (4, 6, 10)).astype(CPLX[dtype])
    got = unpair(on_host(weir.fft.fftn(weir.asarray(pairs(z, dtype), device=vulkan), axes=(1, 2),
                                       norm="ortho")))
    assert rel(got, np.fft.fftn(z.astype(np.complex128), axes=(1, 2), norm="ortho")) <= bound(dtype, 60)


def test_vulkan_refusals_name_the_parameter(vulkan):
    with pytest.raises(weir.Unsupported, match="rank 4"):
        weir.fft.plan("fft", (2, 3, 4, 5), device=vulkan)


@pytest.mark.parametrize("dtype", DTYPES)
def test_vulkan_batched_irfft_rows_stay_apart(vulkan, dtype):
    """A non-real DC (and Nyquist) bin on one row of a batch is discarded, as
    numpy does, and never leaks into a neighbour row (VkFFT's own C2R packed
    two rows of an even batch into one complex transform)."""
    n = 16
    for batch, row in ((4, 2), (4, 1), (6, 5), (5, 2)):
        h = np.fft.rfft(np.ones((batch, n)))
        h[row, 0] += 1j * n
        h[row, -1] += 0.5j * n
        got = np.asarray(on_host(weir.fft.irfft(weir.asarray(pairs(h.astype(CPLX[dtype]), dtype),
                                                             device=vulkan), n=n)))
        assert rel(got, np.fft.irfft(h, n=n)) <= bound(dtype, n)


@pytest.mark.parametrize("dtype", DTYPES)
def test_vulkan_odd_real_lengths_and_length_1(vulkan, dtype):
    """Real transforms of odd lengths VkFFT's R2C refuses (run as a C2C) and
    length 1 (a copy) on vulkan, against numpy; irfft with an inconsistent
    DC imaginary part gives numpy's result (it is discarded)."""
    rng = np.random.default_rng(7)
    for k, n in enumerate([1, 2049, 3001]):
        norm = NORMS[k % len(NORMS)]
        x = rand(rng, (2, n), False).astype(dtype)
        got = unpair(on_host(weir.fft.rfft(weir.asarray(x, device=vulkan), norm=norm)))
        assert got.shape == (2, n // 2 + 1)
        assert rel(got, np.fft.rfft(x.astype(np.float64), norm=norm)) <= bound(dtype, n)
        h = (np.fft.rfft(rand(rng, (2, n), False)) + 0.25j).astype(CPLX[dtype])
        got = np.asarray(on_host(weir.fft.irfft(weir.asarray(pairs(h, dtype), device=vulkan),
                                                n=n, norm=norm)))
        want = np.fft.irfft(h.astype(np.complex128), n=n, norm=norm)
        assert rel(got, want) <= bound(dtype, n)
    z = rand(rng, (5, 1)).astype(CPLX[dtype])
    for fn, ref in ((weir.fft.fft, np.fft.fft), (weir.fft.ifft, np.fft.ifft)):
        got = unpair(on_host(fn(weir.asarray(pairs(z, dtype), device=vulkan), norm="ortho")))
        assert rel(got, ref(z.astype(np.complex128), norm="ortho")) <= bound(dtype, 1)


def test_empty_batch_is_a_no_op_like_numpy():
    p = weir.fft.plan("fft", 8, batch=0)
    assert p.input_shape == (0, 8, 2) and p.output_shape == (0, 8, 2)
    out = weir.empty(p.output_shape, "float32")
    assert p.execute(weir.empty(p.input_shape, "float32"), out) is out
    r = weir.fft.fft(weir.zeros((0, 8, 2), "float32"))
    assert r.shape == (0, 8, 2) and np.fft.fft(np.zeros((0, 8), np.complex64)).shape == (0, 8)
    assert weir.fft.rfft(weir.zeros((0, 8), "float64")).shape == (0, 5, 2)
    assert weir.fft.irfft(weir.zeros((3, 0, 5, 2), "float32"), axis=-1).shape == (3, 0, 8)
    with pytest.raises(weir.InvalidArgument, match="extent 0.*Fix:"):
        weir.fft.fft(weir.zeros((4, 0, 2), "float32"))


def test_plan_argument_messages():
    with pytest.raises(weir.InvalidArgument, match=r"batch must be >= 0.*Fix:"):
        weir.fft.plan("fft", 8, batch=-1)
    with pytest.raises(weir.InvalidArgument, match=r"inner must be >= 0.*Fix:"):
        weir.fft.plan("fft", 8, inner=-3)
    with pytest.raises(ValueError, match=r"shape \(8, -2\).*Fix:"):
        weir.fft.plan("fft", (8, -2))
    with pytest.raises(weir.InvalidArgument, match=r"4294967297.*at most 4294967295"):
        weir.fft.plan("fft", 2**32 + 1)
    with pytest.raises(weir.InvalidArgument, match=r"axis -3 is out of range for a 2-d input.*Fix:"):
        weir.fft.fft(weir.zeros((3, 4, 2), "float32"), axis=-3)
    with pytest.raises(weir.InvalidArgument, match=r"axis 5 is out of range"):
        weir.fft.fftn(weir.zeros((3, 4, 2), "float32"), axes=(1, 5))


def test_plan_execute_checks_shapes():
    p = weir.fft.plan("fft", 8, batch=4)
    good_in, good_out = weir.zeros((4, 8, 2), "float32"), weir.empty((4, 8, 2), "float32")
    p.execute(good_in, good_out)
    with pytest.raises(weir.InvalidArgument, match=r"input has shape \(64,\).*input_shape is "
                                                   r"\(4, 8, 2\).*Fix:"):
        p.execute(weir.zeros(64, "float32"), good_out)
    with pytest.raises(weir.InvalidArgument, match=r"output has shape \(8, 4, 2\)"):
        p.execute(good_in, weir.empty((8, 4, 2), "float32"))
    # 3 axes with a batch and an inner batch: 6 dims, held merged in a 4-d array
    q = weir.fft.plan("fft", (2, 3, 4), batch=2, inner=3, dtype="float64")
    assert q.input_shape == (2, 2, 3, 4, 3, 2)
    assert q.input_array_shape == (12, 4, 3, 2)
    rng = np.random.default_rng(3)
    z = rand(rng, (2, 2, 3, 4, 3))
    out = weir.empty(q.output_array_shape, "float64")
    q.execute(pairs(z.reshape(12, 4, 3), "float64"), out)
    got = unpair(out).reshape(z.shape)
    assert rel(got, np.fft.fftn(z, axes=(1, 2, 3))) <= bound("float64", 24)
    with pytest.raises(weir.InvalidArgument, match=r"or \(12, 4, 3, 2\)"):
        q.execute(weir.zeros((24, 12, 2), "float64"), out)
