"""triton.tools.tensor_descriptor.TensorDescriptor: a tensor descriptor
made on the host and passed to a kernel, as in Triton 3.6.

A kernel parameter given one is specialised as Triton's
``tensordesc<fp16[64, 64]>`` (the base's dtype and the block shape; NaN
padding is part of mytriton's key too) and runs as the descriptor the
kernel would make with ``tl.make_tensor_descriptor(base, shape, strides,
block_shape, padding)``: the base, the shapes and all strides but the last
are runtime arguments.  The checks are Triton's, at construction; the
launch checks again what it relies on (a 16-byte aligned base, a unit last
stride, one rank for all four lists)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, List

__all__ = ["TensorDescriptor"]


def _validate_block_shape(shape: List[int]) -> int:
    numel = 1
    for i, d in enumerate(shape):
        if not isinstance(d, int):
            raise TypeError(f"Shape element {i} must have type `constexpr[int]`, got `constexpr[{type(d)}]")
        if d <= 0 or d & (d - 1):
            raise ValueError(f"Shape element {i} must be a power of 2")
        numel *= d
    if numel > 1048576:
        raise ValueError(f"numel ({numel}) exceeds triton maximum tensor numel (1048576)")
    return numel


def _require(ok: bool, message: str) -> None:
    if not ok:  # Triton asserts; the type and text are its
        raise AssertionError(message)


@dataclass
class TensorDescriptor:
    base: Any
    shape: List[int]
    strides: List[int]
    block_shape: List[int]
    padding: str = "zero"

    def __post_init__(self):
        rank = len(self.shape)
        # the message formats the whole tensor (a device-to-host copy on a
        # GPU): only when it is raised
        if not (len(self.strides) == rank and len(self.block_shape) == rank):
            _require(False, f"rank mismatch: {self}")
        _require(rank > 0, "rank must not be zero")
        _require(rank <= 5, "rank cannot be more than 5")
        # torch's tracing tensors have no address to check
        if type(self.base).__name__ not in ("FakeTensor", "FunctionalTensor"):
            _require(self.base.data_ptr() % 16 == 0, "base must be 16-byte aligned")
        _validate_block_shape(list(self.block_shape))
        # torch.dtype.itemsize is torch >= 2.1's
        itemsize = getattr(self.base.dtype, "itemsize", None) or self.base.element_size()
        _require(all(s * itemsize % 16 == 0 for s in list(self.strides)[:-1]),
                 "strides must be 16-byte aligned")
        _require(all(d > 0 for d in self.shape), "shape must be positive")
        _require(self.strides[-1] == 1, "Last dimension must be contiguous")
        _require(self.padding in ("zero", "nan"), "Illegal value for padding")
        _require(self.padding != "nan" or self.base.dtype.is_floating_point,
                 "Padding option `nan` is only supported for floating point tensors")

    @staticmethod
    def from_tensor(tensor: Any, block_shape: List[int], padding="zero"):
        """The descriptor of the whole tensor, its own shape and strides."""
        return TensorDescriptor(tensor, tensor.shape, tensor.stride(), block_shape, padding)
