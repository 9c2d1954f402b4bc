"""mytriton.language (``tl``): the names of the kernel language.

Kernels are never executed by Python: the C library reads their source
text and compiles it.  The objects here exist so that kernels import and
parameters can be annotated ``tl.constexpr``.  Calling a builtin outside a
kernel raises a clear error.

The names come from the compiler's own tables (``_C.language_names()``):
every builtin the compiler accepts is here, with its usage as the
docstring, and nothing it rejects.  Only ``constexpr``, ``dtype``,
``tensor``, ``range`` and ``static_range`` are written out below, because
Python code uses them as classes.
"""

from __future__ import annotations

from typing import Any

from . import _C

_NAMES = _C.language_names()


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


class static_range:
    """``for i in tl.static_range(start, stop, step)``: unrolled at compile time."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        _outside("static_range")


class range:  # noqa: A001 - the kernel language's name
    """``for i in tl.range(start, stop, step)``: a runtime loop."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        _outside("range")


def _method(name: str, doc: str):
    def fn(self: Any, *args: Any, **kwargs: Any) -> Any:
        _outside(name)
    fn.__name__ = name
    fn.__qualname__ = f"tensor.{name}"
    fn.__doc__ = doc
    return fn


for _name, _doc in _NAMES["tl"]:
    if _name not in globals():
        globals()[_name] = _builtin(_name, _doc)
for _name, _doc in _NAMES["method"]:
    setattr(tensor, _name, _method(_name, _doc))
for _name, _doc in _NAMES["dtype"]:
    globals()[_name] = dtype(_name)

__all__ = ["constexpr", "dtype", "tensor"] + sorted(
    {n for n, _ in _NAMES["tl"] + _NAMES["dtype"]} - {"constexpr"})

del _name, _doc
