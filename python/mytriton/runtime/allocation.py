"""triton.set_allocator: the function Triton calls for global scratch
memory that some kernels need (TMA descriptors made on the device,
profiling buffers).  No mytriton kernel needs global scratch memory, so the
allocator is kept (a program can read it back) and never called."""
from __future__ import annotations

from typing import Callable, Optional

__all__ = ["set_allocator", "get_allocator"]

_allocator: list = [None]


def set_allocator(allocator: Optional[Callable]) -> None:
    """allocator(size, alignment, stream) -> a tensor, or None to unset."""
    if allocator is not None and not callable(allocator):
        raise TypeError(f"set_allocator expects a callable or None, got {type(allocator).__name__}")
    _allocator[0] = allocator


def get_allocator() -> Optional[Callable]:
    return _allocator[0]
