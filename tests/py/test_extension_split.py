"""The extension's argument classes for objects that expose only
__cuda_array_interface__ (no other test reaches that path without a GPU:
the key is built without launching), and the split extension's internal
names staying private to it."""
import ctypes

import pytest
import torch

import mytriton as triton
import mytriton.language as tl
from mytriton import _C


@triton.jit
def cai_kernel(p, n, BLOCK: tl.constexpr):
    pass


class CudaArray:
    """A stand-in CUDA array: only __cuda_array_interface__."""

    def __init__(self, typestr, ptr):
        self.__cuda_array_interface__ = {"shape": (4,), "typestr": typestr,
                                         "data": (ptr, False), "version": 3}


class RaisingInterface:
    @property
    def __cuda_array_interface__(self):
        raise RuntimeError("interface broke")


def _key_class(obj):
    key, bound, _ = cai_kernel._key((obj, 4), {"BLOCK": 4})
    assert bound[0] is obj
    return key[0]


def _pointer_class(code, aligned, device_slot=1):
    # AK_PTR (8) + dtype code, + AK_ALIGN16 (4), device slot above the nibble
    return 16 * device_slot + 8 + code + (4 if aligned else 0)


@pytest.mark.parametrize("typestr,code", [("<f4", 0), ("<i4", 1), ("|b1", 2), ("<i8", 3)])
def test_cuda_array_interface_classes(typestr, code):
    assert _key_class(CudaArray(typestr, 0x10000)) == _pointer_class(code, True)
    assert _key_class(CudaArray(typestr, 0x10004)) == _pointer_class(code, False)
    assert _C.ARG_SIGNATURES[_pointer_class(code, True) & _C.ARG_CLASS_MASK].endswith(":16")


def test_cuda_array_interface_errors():
    with pytest.raises(TypeError, match=r"'p'.*unsupported __cuda_array_interface__ typestr"):
        _key_class(CudaArray("<f2", 0x10000))
    with pytest.raises(RuntimeError, match="interface broke"):
        _key_class(RaisingInterface())
    with pytest.raises(TypeError, match=r"'p'.*unsupported argument type"):
        _key_class(object())
    # the interface's device (CUDA 0) and a CPU tensor cannot mix
    with pytest.raises(TypeError, match="same device"):
        cai_kernel._key((CudaArray("<f4", 0x10000), torch.zeros(4)), {"BLOCK": 4})


def test_internal_names_are_hidden():
    lib = ctypes.CDLL(_C.__file__)
    assert hasattr(lib, "PyInit__C")
    for name in ("prepare", "parse_grid", "jit_name", "raise_status", "the_context",
                 "KernelType", "JITType"):
        assert not hasattr(lib, name), name
