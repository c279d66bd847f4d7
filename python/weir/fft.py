"""weir.fft: batched Fourier transforms on weir.Array, as numpy.fft defines them.

Complex data is a trailing axis of extent 2 (re, im) of a float32 or float64
array: numpy's ``z`` is ``z.view(z.real.dtype).reshape(*z.shape, 2)`` and
back ``x.view(np.complex64 / np.complex128)[..., 0]``. So ``fft(a)`` takes
``a`` of shape (..., n, 2) and returns (..., n, 2); ``rfft`` takes real
(..., n) and returns (..., n//2+1, 2); ``irfft`` the reverse. ``axis`` and
``axes`` count the complex (logical) axes, never the trailing pair axis.

Each function plans, allocates its output on the input's device and runs one
dispatch. ``plan(...)`` plans once; ``Plan.execute(input, output)`` then
allocates nothing. An input with a batch axis of extent 0 gives an empty
result (numpy's behaviour), without running anything.

Backends: cpu (weir's own mixed-radix code, the same bits for any thread
count); vulkan (VkFFT, recorded into the backend's command buffer; real
transforms of the odd lengths VkFFT's R2C refuses run as a C2C, length 1 is a
copy); cuda (cuFFT loaded at run time; tested against a mock, not yet on a
GPU). A backend whose FFT library is missing raises weir.FftUnavailable;
other backends raise weir.Unsupported naming the backend. What each can do:
docs/fft.md.
"""
from . import _weir
from ._weir import FftPlan  # noqa: F401

__all__ = ["fft", "ifft", "rfft", "irfft", "fftn", "ifftn", "rfftn", "irfftn", "plan", "Plan",
           "FftPlan"]

_KINDS = {"c2c": 0, "r2c": 1, "c2r": 2}
_MAX_DIMS = 4  # a weir.Array's most dimensions (WEIR_VIEW_MAX_DIMS)
_NORMS = {None: 0, "backward": 0, "forward": 1, "ortho": 2}


def _norm(norm):
    try:
        return _NORMS[norm]
    except (KeyError, TypeError):
        raise _weir.InvalidArgument(
            f"weir.fft: norm={norm!r} is not one of 'backward', 'forward', 'ortho'. "
            "Fix: pass one of them (or None for 'backward').") from None


def _prod(xs):
    p = 1
    for x in xs:
        p *= x
    return p


def _array_shape(shape):
    """shape with its leading axes merged so that a weir.Array can hold it."""
    if len(shape) <= _MAX_DIMS:
        return tuple(shape)
    k = len(shape) - _MAX_DIMS + 1
    return (_prod(shape[:k]),) + tuple(shape[k:])


def _count(name, value):
    try:
        v = int(value)
    except (TypeError, ValueError):
        raise _weir.InvalidArgument(
            f"weir.fft.plan: {name}={value!r} is not an integer. Fix: pass {name} >= 0 (the "
            "number of independent transforms).") from None
    if v < 0:
        raise _weir.InvalidArgument(
            f"weir.fft.plan: {name}={v}; {name} must be >= 0 (0 plans a no-op on empty arrays). "
            f"Fix: pass the number of independent transforms, e.g. {name}=1.")
    return v


class Plan:
    """A planned transform: ``execute(input, output)`` runs it without allocating.

    ``input_shape`` / ``output_shape`` are the compact shapes (float32 or
    float64, complex as a trailing 2) that ``execute`` accepts: the arrays'
    shapes must equal them exactly (no squeezing or reshaping), or, where they
    have more than 4 dimensions (3 axes with a batch and an inner batch; a
    weir.Array has at most 4), equal ``input_array_shape`` /
    ``output_array_shape``: the same with the leading axes merged into one.
    ``batch=0`` (or ``inner=0``) plans a no-op for empty arrays."""

    def __init__(self, kind, shape, *, batch=1, inner=1, inverse=False, dtype="float32",
                 norm=None, device=None):
        if kind in ("fft", "ifft", "rfft", "irfft"):
            inverse = kind in ("ifft", "irfft")
            kind = {"fft": "c2c", "ifft": "c2c", "rfft": "r2c", "irfft": "c2r"}[kind]
        if kind not in _KINDS:
            raise _weir.InvalidArgument(
                f"weir.fft.plan: kind {kind!r} is not one of fft, ifft, rfft, irfft, c2c, r2c, "
                "c2r. Fix: pass one of them.")
        dtype = getattr(dtype, "name", dtype)
        if dtype not in ("float32", "float64"):
            raise _weir.InvalidArgument(
                f"weir.fft.plan: dtype {dtype!r} (expected float32 or float64, the precision of "
                "re and im). Fix: pass dtype='float32' or 'float64'.")
        shape = tuple(int(s) for s in ((shape,) if isinstance(shape, int) else shape))
        if not shape or any(s < 1 for s in shape):
            raise _weir.InvalidArgument(
                f"weir.fft.plan: shape {shape}; every transformed axis needs a length of at least "
                "1 (and there must be one). Fix: pass the logical lengths, e.g. (8,) or (4, 6).")
        self.kind, self.dtype, self.shape = kind, dtype, shape
        self.batch, self.inner = _count("batch", batch), _count("inner", inner)
        self.inverse = bool(inverse) if kind == "c2c" else kind == "c2r"
        # batch or inner 0: nothing to transform; the plan (of one transform)
        # still validates everything else, and execute only checks shapes
        self._empty = self.batch == 0 or self.inner == 0
        self._plan = _weir._fft_plan(device, _KINDS[kind], shape, max(self.batch, 1),
                                     max(self.inner, 1), self.inverse, dtype == "float64",
                                     _norm(norm))
        half = shape[:-1] + (shape[-1] // 2 + 1,)
        real = shape
        cplx = shape if kind == "c2c" else half
        lead = (self.batch,) if self.batch != 1 else ()
        tail = (self.inner,) if self.inner != 1 else ()
        self.input_shape = lead + (real if kind == "r2c" else cplx) + tail + (
            () if kind == "r2c" else (2,))
        self.output_shape = lead + (real if kind == "c2r" else cplx) + tail + (
            () if kind == "c2r" else (2,))
        self.input_array_shape = _array_shape(self.input_shape)
        self.output_array_shape = _array_shape(self.output_shape)

    @property
    def backend(self):
        return self._plan.backend

    def execute(self, input, output):
        """output = transform(input); both compact weir.Arrays on the plan's device, of
        shapes input_shape and output_shape (see the class)."""
        for which, a, want, arr in (("input", input, self.input_shape, self.input_array_shape),
                                    ("output", output, self.output_shape,
                                     self.output_array_shape)):
            if not isinstance(a, _weir.Array):
                raise TypeError(f"weir.fft.Plan.execute: {which} must be a weir.Array, not "
                                f"{type(a).__name__}")
            got = tuple(a.shape)
            if got != want and got != arr:
                alt = f" (or {arr}: a weir.Array has at most {_MAX_DIMS} dimensions)" \
                    if arr != want else ""
                raise _weir.InvalidArgument(
                    f"weir.fft.Plan.execute: {which} has shape {got}; this plan's {which}_shape "
                    f"is {want}{alt}. Fix: allocate it with weir.empty(plan.{which}_array_shape, "
                    f"{self.dtype!r}) or reshape the data to that shape.")
        if self._empty:
            if input.dtype != self.dtype or output.dtype != self.dtype:
                raise _weir.InvalidArgument(
                    f"weir.fft.Plan.execute: dtypes {input.dtype}/{output.dtype} (the plan's is "
                    f"{self.dtype}). Fix: pass {self.dtype} arrays.")
            return output
        self._plan.execute(input, output)
        return output

    def __repr__(self):
        return (f"weir.fft.Plan({self.kind}, {self.shape}, batch={self.batch}, "
                f"inner={self.inner}, inverse={self.inverse}, dtype={self.dtype!r})")


def plan(kind, shape, *, batch=1, inner=1, inverse=False, dtype="float32", norm=None,
         device=None):
    """Plans kind ('fft', 'ifft', 'rfft', 'irfft', or 'c2c' with inverse=) over the
    logical (real-side) ``shape``; see Plan."""
    return Plan(kind, shape, batch=batch, inner=inner, inverse=inverse, dtype=dtype, norm=norm,
                device=device)


def _run(a, kind, axes, s, norm, inverse):
    if not isinstance(a, _weir.Array):
        raise TypeError(f"weir.fft: expected a weir.Array (weir.asarray(x) makes one), not "
                        f"{type(a).__name__}")
    if a.dtype not in ("float32", "float64"):
        raise _weir.InvalidArgument(
            f"weir.fft: dtype {a.dtype} (expected float32 or float64; complex values as a "
            "trailing axis of 2). Fix: convert on the host, e.g. weir.asarray(np.asarray(a, "
            "np.float64)).")
    complex_in = kind != "r2c"
    shape = tuple(a.shape)
    if complex_in:
        if not shape or shape[-1] != 2:
            raise _weir.InvalidArgument(
                f"weir.fft: a complex input needs a trailing axis of extent 2 (re, im); got shape "
                f"{shape}. Fix: pass z.view(np.float64).reshape(*z.shape, 2) for complex z.")
        shape = shape[:-1]
    nd = len(shape)
    if nd == 0:
        raise _weir.InvalidArgument("weir.fft: a 0-d input has no axis to transform. Fix: pass "
                                    "at least one dimension.")
    given = None if axes is None else tuple((axes,) if isinstance(axes, int) else axes)
    axes = tuple(range(nd)) if given is None else tuple(
        (int(ax) + nd if int(ax) < 0 else int(ax)) for ax in given)
    bad = [g for g, ax in zip(given or (), axes) if not 0 <= ax < nd]
    if bad:
        raise _weir.InvalidArgument(
            f"weir.fft: axis {bad[0]} is out of range for a {nd}-d input (axes {given}; the "
            f"trailing (re, im) axis of a complex input does not count). Fix: pass axes in "
            f"-{nd} .. {nd - 1}.")
    if (not axes or list(axes) != list(range(axes[0], axes[0] + len(axes)))):
        raise _weir.Unsupported(
            f"weir.fft: axes {given} of a {nd}-d input; weir transforms one run of adjacent axes "
            "in increasing order. Fix: pass adjacent axes, e.g. (-2, -1), or move axes on the "
            "host first.")
    first, last = axes[0], axes[-1]
    ext = list(shape[first:last + 1])
    if kind == "c2r":  # ext[-1] is the half spectrum; the logical length is n
        m = ext[-1]
        n = s[-1] if s is not None else 2 * (m - 1)
        if n < 1 or n // 2 + 1 != m:
            raise _weir.InvalidArgument(
                f"weir.fft: an inverse real transform of length {n} needs {n // 2 + 1} input "
                f"values along the last axis, got {m}. Fix: pass n (or s[-1]) with n//2+1 == {m}"
                " (weir does not pad or crop).")
        ext[-1] = n
        if s is not None and list(s[:-1]) != ext[:-1]:
            raise _weir.Unsupported(
                f"weir.fft: s={tuple(s)} differs from the input's extents {tuple(ext)}; weir "
                "does not pad or crop. Fix: pad or crop the input first, or pass s=None.")
    elif s is not None and list(s) != ext:
        raise _weir.Unsupported(
            f"weir.fft: n/s={tuple(s)} differs from the input's extents {tuple(ext)}; weir does "
            "not pad or crop. Fix: pad or crop the input first, or pass n/s=None.")
    batch, inner = _prod(shape[:first]), _prod(shape[last + 1:])
    if any(e < 1 for e in ext):
        raise _weir.InvalidArgument(
            f"weir.fft: a transformed axis of extent 0 (extents {tuple(ext)}); numpy refuses "
            "it too. Fix: transform axes of length >= 1 (an empty batch axis is fine).")
    p = Plan(kind, tuple(ext), batch=batch, inner=inner, inverse=inverse, dtype=a.dtype,
             norm=norm, device=a.backend)
    out_ext = list(ext)
    if kind == "r2c":
        out_ext[-1] = ext[-1] // 2 + 1
    out_shape = shape[:first] + tuple(out_ext) + shape[last + 1:] + (
        () if kind == "c2r" else (2,))
    out = _weir.empty(out_shape, a.dtype, device=a.backend)
    if p._empty:  # an empty batch: nothing to transform, like numpy
        return out
    if not a.is_contiguous:
        a = _weir.copy(a)
    try:
        p._plan.execute(a, out)
    except _weir.InvalidArgument:  # a view at an offset: transform a compact copy
        p._plan.execute(_weir.copy(a), out)
    return out


def _one(axis, n):
    return (axis,), (None if n is None else (int(n),))


def fft(a, n=None, axis=-1, norm=None):
    axes, s = _one(axis, n)
    return _run(a, "c2c", axes, s, norm, False)


def ifft(a, n=None, axis=-1, norm=None):
    axes, s = _one(axis, n)
    return _run(a, "c2c", axes, s, norm, True)


def rfft(a, n=None, axis=-1, norm=None):
    axes, s = _one(axis, n)
    return _run(a, "r2c", axes, s, norm, False)


def irfft(a, n=None, axis=-1, norm=None):
    axes, s = _one(axis, n)
    return _run(a, "c2r", axes, s, norm, True)


def _axes(s, axes):
    if axes is None and s is not None:
        axes = tuple(range(-len(s), 0))
    return axes, (None if s is None else tuple(int(x) for x in s))


def fftn(a, s=None, axes=None, norm=None):
    axes, s = _axes(s, axes)
    return _run(a, "c2c", axes, s, norm, False)


def ifftn(a, s=None, axes=None, norm=None):
    axes, s = _axes(s, axes)
    return _run(a, "c2c", axes, s, norm, True)


def rfftn(a, s=None, axes=None, norm=None):
    axes, s = _axes(s, axes)
    return _run(a, "r2c", axes, s, norm, False)


def irfftn(a, s=None, axes=None, norm=None):
    axes, s = _axes(s, axes)
    return _run(a, "c2r", axes, s, norm, True)
