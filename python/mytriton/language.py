"""mytriton.language (``tl``): the names of the kernel language.

Kernels are never executed by Python: the C library reads their source
text and compiles it.  The objects here exist so that kernels import,
editors resolve the names, and parameters can be annotated
``tl.constexpr``.  Calling a builtin outside a kernel raises a clear error.
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "constexpr", "dtype", "int1", "int32", "int64", "float32",
    "program_id", "num_programs", "arange", "load", "store",
    "exp", "log", "sqrt", "abs", "minimum", "maximum", "where",
    "sum", "max", "min", "zeros", "full", "empty", "zeros_like", "full_like",
    "device_print",
    "cdiv", "dot", "expand_dims", "broadcast_to", "cast",
    "multiple_of", "max_contiguous", "static_range", "range",
    "static_assert", "static_print", "tensor",
]


class constexpr:
    """Marks a parameter as a compile-time constant (``BLOCK: tl.constexpr``)
    and wraps a compile-time value (``tl.constexpr(3)``)."""

    __slots__ = ("value",)

    def __init__(self, value: Any = None) -> None:
        while isinstance(value, constexpr):
            value = value.value
        self.value = value

    def __repr__(self) -> str:
        return f"constexpr[{self.value!r}]"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, constexpr):
            other = other.value
        return self.value == other

    def __hash__(self) -> int:
        return hash(self.value)

    def __index__(self) -> int:
        return int(self.value)

    def __bool__(self) -> bool:
        return bool(self.value)


class dtype:
    """A scalar element type of the kernel language."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return f"triton.language.{self.name}"

    __str__ = __repr__

    def __eq__(self, other: object) -> bool:
        return isinstance(other, dtype) and other.name == self.name

    def __hash__(self) -> int:
        return hash(("mytriton.dtype", self.name))


int1 = dtype("int1")
int32 = dtype("int32")
int64 = dtype("int64")
float32 = dtype("float32")


class tensor:
    """Type of block values inside a kernel (annotation only)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        _outside("tensor")


def _outside(name: str) -> None:
    raise RuntimeError(
        f"tl.{name} can only be used inside a @mytriton.jit kernel; "
        "kernels are compiled from their source text, not called from Python")


def _builtin(name: str, doc: str):
    def fn(*args: Any, **kwargs: Any) -> Any:
        _outside(name)
    fn.__name__ = name
    fn.__qualname__ = name
    fn.__doc__ = doc
    fn.__module__ = __name__
    return fn


program_id = _builtin("program_id", "program_id(axis) -> i32: index of this program along axis 0, 1 or 2")
num_programs = _builtin("num_programs", "num_programs(axis) -> i32: grid size along axis")
arange = _builtin("arange", "arange(start, end) -> block of i32 [start, end)")
load = _builtin("load", "load(pointer, mask=None, other=None) -> block")
store = _builtin("store", "store(pointer, value, mask=None)")
exp = _builtin("exp", "exp(x): elementwise e**x (f32)")
log = _builtin("log", "log(x): elementwise natural logarithm (f32)")
sqrt = _builtin("sqrt", "sqrt(x): elementwise square root (f32)")
abs = _builtin("abs", "abs(x): elementwise absolute value")
minimum = _builtin("minimum", "minimum(a, b): elementwise minimum (NaN propagating)")
maximum = _builtin("maximum", "maximum(a, b): elementwise maximum (NaN propagating)")
where = _builtin("where", "where(cond, a, b): elementwise select")
sum = _builtin("sum", "sum(x, axis=None): reduction")
max = _builtin("max", "max(x, axis=None): reduction")
min = _builtin("min", "min(x, axis=None): reduction")
zeros = _builtin("zeros", "zeros(shape, dtype) -> block of zeros")
full = _builtin("full", "full(shape, value, dtype) -> block filled with value")
empty = _builtin("empty", "empty(shape, dtype) -> block with undefined contents")
full_like = _builtin("full_like", "full_like(x, value) -> block of x's shape filled with value")
device_print = _builtin("device_print", "device_print(prefix, *values): printed by the kernel")
zeros_like = _builtin("zeros_like", "zeros_like(x) -> zeros of x's shape and dtype")
cdiv = _builtin("cdiv", "cdiv(x, y) = (x + y - 1) // y")
dot = _builtin("dot", "dot(a, b, acc=None, input_precision=None) -> matrix product")
expand_dims = _builtin("expand_dims", "expand_dims(x, axis)")
broadcast_to = _builtin("broadcast_to", "broadcast_to(x, shape)")
cast = _builtin("cast", "cast(x, dtype)")
multiple_of = _builtin("multiple_of", "multiple_of(x, values): a compiler hint")
max_contiguous = _builtin("max_contiguous", "max_contiguous(x, values): a compiler hint")
static_assert = _builtin("static_assert", "static_assert(cond, msg=''): checked at compile time")
static_print = _builtin("static_print", "static_print(*values): printed at compile time")


class static_range:
    """``for i in tl.static_range(start, stop, step)``: unrolled at compile time."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        _outside("static_range")


class range:  # noqa: A001 - the kernel language's name
    """``for i in tl.range(start, stop, step)``: a runtime loop."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        _outside("range")
