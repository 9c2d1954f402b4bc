"""triton.reinterpret: a torch tensor's memory seen as another element type
(tests pass unsigned and fp8 data this way: torch lacks some of those
dtypes, or their arithmetic).  The extension passes a TensorWrapper as a
pointer to its `dtype`, at its base tensor's address; nothing is copied.
"""
from __future__ import annotations

from typing import Any

from . import _C
from . import language as tl

# tl dtype name -> mt_dtype (include/mytriton.h's order)
_MT_DTYPE = {name: i for i, name in enumerate(
    ("int1", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
     "fp8e4nv", "fp8e5", "fp16", "bf16", "fp32", "fp64"))}


class TensorWrapper:
    """`base` (a torch tensor) read as elements of `dtype` (a tl dtype)."""

    def __init__(self, base: Any, dtype: Any) -> None:
        if not isinstance(dtype, tl.dtype) or dtype.name not in _MT_DTYPE:
            raise TypeError(f"cannot reinterpret a tensor as {dtype!r}")
        self.base = base
        self.dtype = dtype
        self._mt_dtype = _MT_DTYPE[dtype.name]
        self.data = base.data
        self.device = base.device
        self.shape = base.shape

    def data_ptr(self) -> int:
        return self.base.data_ptr()

    def stride(self, *args: Any) -> Any:
        return self.base.stride(*args)

    def element_size(self) -> int:
        return self.base.element_size()

    def numel(self) -> int:
        return self.base.numel()

    def cpu(self) -> "TensorWrapper":
        return TensorWrapper(self.base.cpu(), self.dtype)

    def to(self, device: Any) -> "TensorWrapper":
        return TensorWrapper(self.base.to(device), self.dtype)

    def clone(self) -> "TensorWrapper":
        return TensorWrapper(self.base.clone(), self.dtype)

    def copy_(self, other: "TensorWrapper") -> None:
        self.base.copy_(other.base if isinstance(other, TensorWrapper) else other)

    def new_empty(self, sizes: Any) -> "TensorWrapper":
        return TensorWrapper(self.base.new_empty(sizes), self.dtype)

    def __str__(self) -> str:
        return f"TensorWrapper[{self.dtype}]({self.base})"


def reinterpret(tensor: Any, dtype: Any) -> Any:
    """tensor's memory as elements of the tl dtype `dtype`; reinterpreting a
    wrapper back to its base's own dtype gives the base."""
    if isinstance(tensor, TensorWrapper):
        if dtype == tensor.base.dtype:
            return tensor.base
        return TensorWrapper(tensor.base, dtype)
    if hasattr(tensor, "data_ptr"):
        return TensorWrapper(tensor, dtype)
    raise TypeError(f"cannot reinterpret a {type(tensor).__name__}")


_C._register_tensor_wrapper(TensorWrapper)
