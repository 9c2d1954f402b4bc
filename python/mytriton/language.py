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

import importlib.machinery
import sys
import types
from enum import Enum, IntEnum
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


class const:
    """Marks a pointer parameter as pointing to constant data
    (``in_ptr: tl.const``): stores and atomics through it, or through
    pointers computed from it, are compile errors, and constness is part of
    the pointer's type where values join (if, conditional expression,
    return), as in Triton."""


class dtype:
    """A scalar element type, under Triton's names: ``tl.float16.name`` is
    ``"fp16"``, ``str(tl.int32)`` is ``"int32"``, ``repr`` is
    ``triton.language.float16``.  Every Triton dtype exists as a value
    (programs pass them around, compare them, and use them as constexpr
    arguments) with the attributes and predicates of Triton's
    ``tl.dtype``; which of them kernels may use is the compiler's list
    (``SUPPORTED_DTYPES``, from ``_C.language_names()["dtype"]``: every
    Triton dtype but the AMD-only fp8 variants), and a kernel that uses
    another gets a located "not supported" error, never a wrong type."""

    class SIGNEDNESS(Enum):
        SIGNED = 0
        UNSIGNED = 1

    class KIND(Enum):  # ordered as Triton's promotion orders them
        BOOLEAN = 0
        INTEGRAL = 1
        FLOATING = 2

    # name -> (kind, bits, mantissa bits, exponent bias); kind: s signed
    # int, u unsigned int (int1 is Triton's unsigned 1-bit bool), f float
    _TABLE = {
        "int1": ("u", 1, 0, 0), "int8": ("s", 8, 0, 0), "int16": ("s", 16, 0, 0),
        "int32": ("s", 32, 0, 0), "int64": ("s", 64, 0, 0),
        "uint8": ("u", 8, 0, 0), "uint16": ("u", 16, 0, 0), "uint32": ("u", 32, 0, 0),
        "uint64": ("u", 64, 0, 0),
        "fp8e4b15": ("f", 8, 3, 15), "fp8e4nv": ("f", 8, 3, 7), "fp8e4b8": ("f", 8, 3, 8),
        "fp8e5": ("f", 8, 2, 15), "fp8e5b16": ("f", 8, 2, 16),
        "fp16": ("f", 16, 10, 15), "bf16": ("f", 16, 7, 127), "fp32": ("f", 32, 23, 127),
        "fp64": ("f", 64, 52, 1023), "void": ("v", 0, 0, 0),
    }

    SINT_TYPES = [n for n, v in _TABLE.items() if v[0] == "s"]
    UINT_TYPES = [n for n, v in _TABLE.items() if v[0] == "u"]
    FP_TYPES = [n for n, v in _TABLE.items() if v[0] == "f"]
    STANDARD_FP_TYPES = ["fp16", "bf16", "fp32", "fp64"]
    OTHER_TYPES = ["void"]

    def __init__(self, name: Any) -> None:
        while isinstance(name, constexpr):
            name = name.value
        if name not in dtype._TABLE:
            raise ValueError(f"unknown dtype {name!r}")
        kind, bits, mantissa, bias = dtype._TABLE[name]
        self.name = name
        self.primitive_bitwidth = bits
        self.itemsize = bits // 8
        if kind in "su":
            self.int_bitwidth = bits
            self.int_signedness = (dtype.SIGNEDNESS.SIGNED if kind == "s"
                                   else dtype.SIGNEDNESS.UNSIGNED)
        if kind == "f":
            self.fp_mantissa_width = mantissa
            self.exponent_bias = bias
        self._kind = kind

    def is_void(self) -> bool: return self._kind == "v"
    def is_bool(self) -> bool: return self.name == "int1"
    def is_int(self) -> bool: return self._kind in "su"
    def is_int_signed(self) -> bool: return self._kind == "s"
    def is_int_unsigned(self) -> bool: return self._kind == "u"
    def is_floating(self) -> bool: return self._kind == "f"
    def is_standard_floating(self) -> bool: return self.name in ("fp16", "bf16", "fp32", "fp64")
    def is_fp8(self) -> bool: return self._kind == "f" and self.primitive_bitwidth == 8
    def is_fp16(self) -> bool: return self.name == "fp16"
    def is_bf16(self) -> bool: return self.name == "bf16"
    def is_fp32(self) -> bool: return self.name == "fp32"
    def is_fp64(self) -> bool: return self.name == "fp64"
    def is_fp8e4nv(self) -> bool: return self.name == "fp8e4nv"
    def is_fp8e4b8(self) -> bool: return self.name == "fp8e4b8"
    def is_fp8e4b15(self) -> bool: return self.name == "fp8e4b15"
    def is_fp8e5(self) -> bool: return self.name == "fp8e5"
    def is_fp8e5b16(self) -> bool: return self.name == "fp8e5b16"
    def is_int1(self) -> bool: return self.name == "int1"
    def is_int8(self) -> bool: return self.name == "int8"
    def is_int16(self) -> bool: return self.name == "int16"
    def is_int32(self) -> bool: return self.name == "int32"
    def is_int64(self) -> bool: return self.name == "int64"
    def is_uint8(self) -> bool: return self.name == "uint8"
    def is_uint16(self) -> bool: return self.name == "uint16"
    def is_uint32(self) -> bool: return self.name == "uint32"
    def is_uint64(self) -> bool: return self.name == "uint64"
    def is_ptr(self) -> bool: return False
    def is_block(self) -> bool: return False
    def is_const(self) -> bool: return False

    @staticmethod
    def is_dtype(type_str: str) -> bool:
        """True for Triton's dtype names ("fp16", "int8", "void")."""
        return type_str in dtype._TABLE

    def kind(self) -> "dtype.KIND":
        if self.is_bool():
            return dtype.KIND.BOOLEAN
        if self.is_int():
            return dtype.KIND.INTEGRAL
        if self.is_floating():
            return dtype.KIND.FLOATING
        raise RuntimeError(f"{self} has no kind")

    def codegen_name(self) -> str:
        """The name after ``tl.``: float16 for fp16, bfloat16 for bf16."""
        if self.name.startswith("fp"):
            return "float" + self.name[2:]
        if self.name.startswith("bf"):
            return "bfloat" + self.name[2:]
        return self.name

    @property
    def cache_key_part(self) -> str:
        return self.name

    def mangle(self) -> str:
        """Triton's short spelling: i32, u8, fp16, V for void."""
        if self.is_int():
            return ("i" if self._kind == "s" else "u") + str(self.int_bitwidth)
        if self.is_floating():
            return self.name
        return "V"

    def with_element_ty(self, element_ty: "dtype") -> "dtype":
        return element_ty

    @property
    def scalar(self) -> "dtype":
        return self

    def get_int_max_value(self) -> int:
        if self._kind == "s":
            return 2 ** (self.int_bitwidth - 1) - 1
        if self._kind == "u":
            return 2 ** self.int_bitwidth - 1
        raise RuntimeError(f"{self} is not an integer type")

    def get_int_min_value(self) -> int:
        if self._kind == "s":
            return -2 ** (self.int_bitwidth - 1)
        if self._kind == "u":
            return 0
        raise RuntimeError(f"{self} is not an integer type")

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"triton.language.{self.codegen_name()}"

    def __eq__(self, other: object) -> bool:
        while isinstance(other, constexpr):
            other = other.value
        return isinstance(other, dtype) and other.name == self.name

    def __hash__(self) -> int:
        return hash(("mytriton.dtype", self.name))


# The language's spelling of each dtype (tl.float16) and Triton's name for
# it (fp16).
_DTYPES = {
    "int1": "int1", "int8": "int8", "int16": "int16", "int32": "int32", "int64": "int64",
    "uint8": "uint8", "uint16": "uint16", "uint32": "uint32", "uint64": "uint64",
    "float8e4b15": "fp8e4b15", "float8e4nv": "fp8e4nv", "float8e4b8": "fp8e4b8",
    "float8e5": "fp8e5", "float8e5b16": "fp8e5b16", "float16": "fp16", "bfloat16": "bf16",
    "float32": "fp32", "float64": "fp64", "void": "void",
}
for _spelling, _name in _DTYPES.items():
    globals()[_spelling] = dtype(_name)
del _spelling, _name


def spelling_of(d: dtype) -> str:
    """The language's name of a dtype: float16 for fp16."""
    for spelling, name in _DTYPES.items():
        if name == d.name:
            return spelling
    raise ValueError(f"no spelling for dtype {d.name!r}")


def str_to_ty(name: str, c: Any = None) -> dtype:
    """A dtype from Triton's type string ("fp16", "i32", "u8", "fp8e4nv"...)
    or the language's spelling ("float16")."""
    name = str(name)
    if name in _DTYPES:
        return globals()[name]
    if name in dtype._TABLE:
        return dtype(name)
    short = {"i1": "int1", "i8": "int8", "i16": "int16", "i32": "int32", "i64": "int64",
             "u1": "int1", "u8": "uint8", "u16": "uint16", "u32": "uint32", "u64": "uint64",
             "B": "int1"}
    if name in short:
        return dtype(short[name])
    raise ValueError(f"unknown type {name!r}")


class tensor:
    """Type of block values inside a kernel (annotation only)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        _outside("tensor")


class tensor_descriptor_base:
    """Type of tensor descriptors inside a kernel (for isinstance)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        _outside("tensor_descriptor_base")


class tensor_descriptor(tensor_descriptor_base):
    """A tensor descriptor made in a kernel (tl.make_tensor_descriptor) or
    passed from the host (for isinstance)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        _outside("tensor_descriptor")


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


class PropagateNan(IntEnum):
    """``propagate_nan=`` of tl.maximum, tl.minimum and tl.clamp: NONE (the
    default) gives the other operand where one is NaN, ALL gives NaN."""
    NONE = 0x0000
    ALL = 0xFFFF


def _package(name: str, doc: str) -> types.ModuleType:
    """A module object importable as mytriton.language.<name> (and, once
    aliased, triton.language.<name>)."""
    full = f"{__name__}.{name}"
    mod = types.ModuleType(full, doc)
    mod.__spec__ = importlib.machinery.ModuleSpec(full, None, is_package=True)
    mod.__path__ = []
    sys.modules[full] = mod
    return mod


# tl.extra.cuda.libdevice and its other names (triton.language.extra.libdevice):
# the libdevice functions the compiler knows, as Triton's kernels import them.
extra = _package("extra", "Triton's extra libraries: libdevice.")
extra.cuda = _package("extra.cuda", "libdevice for CUDA.")
extra.libdevice = extra.cuda.libdevice = _package("extra.libdevice", "libdevice functions.")
sys.modules[f"{__name__}.extra.cuda.libdevice"] = extra.libdevice
for _name, _doc in _NAMES["libdevice"]:
    setattr(extra.libdevice, _name, _builtin(f"libdevice.{_name}", _doc))

# The dtypes kernels may use (every Triton dtype the compiler knows); the
# other names in _DTYPES (the AMD-only fp8 variants, void) are values for
# Python code, refused inside kernels.
SUPPORTED_DTYPES = tuple(n for n, _ in _NAMES["dtype"])

__all__ = ["constexpr", "const", "dtype", "tensor", "str_to_ty", "PropagateNan", "extra"] + sorted(
    ({n for n, _ in _NAMES["tl"]} | set(_DTYPES)) - {"constexpr"})

del _name, _doc
