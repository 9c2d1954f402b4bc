"""mytriton: a Triton-style GPU kernel compiler written in C.

    import mytriton as triton
    import mytriton.language as tl

    @triton.jit
    def add_kernel(x, y, out, n, BLOCK: tl.constexpr):
        ...

    add_kernel[(triton.cdiv(n, 256),)](x, y, out, n, BLOCK=256)

CUDA tensors run on the GPU; CPU tensors and NumPy arrays run the same
generated code on the host backend.
"""

from __future__ import annotations

from . import _C
from . import language
from ._C import CompilationError, LaunchError, OptionError, TritonError
from .jit import CompiledKernel, JITFunction, jit
from . import compiler, knobs, runtime, testing
from .runtime.allocation import set_allocator
from .runtime.autotuner import Config, KernelInterface, autotune, heuristics
from .triton_alias import install_as_triton
from .tensor_wrapper import TensorWrapper, reinterpret

__all__ = ["jit", "JITFunction", "TensorWrapper", "reinterpret", "CompiledKernel", "TritonError", "CompilationError", "LaunchError", "OptionError", "cdiv",
           "next_power_of_2", "cuda_available", "language", "knobs", "runtime", "testing",
           "set_allocator", "install_as_triton", "autotune", "Config", "heuristics",
           "KernelInterface", "__version__"]

__version__ = "0.18.0"

_C._register_constexpr(language.constexpr)
_C._register_dtype(language.dtype)
CompilationError.__module__ = "mytriton"
TritonError.__module__ = "mytriton"
LaunchError.__module__ = "mytriton"
OptionError.__module__ = "mytriton"


def cdiv(x: int, y: int) -> int:
    """Ceiling division: (x + y - 1) // y."""
    return (x + y - 1) // y


def next_power_of_2(n: int) -> int:
    """The smallest power of two >= n (n >= 1)."""
    if n <= 0:
        raise ValueError("value must be positive")
    return 1 << (int(n) - 1).bit_length()


def cuda_available() -> bool:
    """True when the CUDA driver is found and has at least one device."""
    return bool(_C.cuda_available())
