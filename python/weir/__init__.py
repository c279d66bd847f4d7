"""weir: arrays resident on devices (cpu, vulkan, cuda, plugins).

The C extension weir._weir does the work; this package re-exports it.
Arrays share memory with numpy (buffer protocol, host arrays) and with any
DLPack consumer (numpy.from_dlpack, torch.from_dlpack). See docs/python.md.
"""
from ._weir import (  # noqa: F401
    Array, Backend, Error, InvalidArgument, OutOfRange, ForeignResource, Unsupported,
    Unavailable, CudaUnavailable, VulkanUnavailable, FftUnavailable, OutOfMemory, IOFailure, ParseError,
    DeviceError, InternalError,
    zeros, empty, full, zeros_like, empty_like, asarray, from_dlpack, copy, devices,
    version, dtypes, kDLCPU, kDLCUDA, kDLVulkan,
)
from . import ifds  # noqa: F401
from . import ide  # noqa: F401
from . import fft  # noqa: F401
from .analyze import analyze, AnalyzeError, Finding, Location  # noqa: F401

__version__ = version()
