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


def _spelling(key_class):
    return _C.ARG_SIGNATURES[key_class & _C.ARG_CLASS_MASK]


@pytest.mark.parametrize("typestr,sig", [("<f4", "*fp32"), ("<i4", "*i32"), ("|b1", "*i1"),
                                         ("<i8", "*i64"), ("<f2", "*fp16"), ("|u1", "*u8"),
                                         ("|i1", "*i8"), ("<u2", "*u16"), ("<i2", "*i16"),
                                         ("<u4", "*u32"), ("<u8", "*u64"), ("<f8", "*fp64"),
                                         ("=f4", "*fp32")])
def test_cuda_array_interface_classes(typestr, sig):
    aligned, misaligned = _key_class(CudaArray(typestr, 0x10000)), _key_class(
        CudaArray(typestr, 0x10004))
    assert _spelling(aligned) == sig + ":16" and _spelling(misaligned) == sig
    # the interface's memory is on the current CUDA device: a device slot
    # above the class, the same for both
    assert aligned & ~_C.ARG_CLASS_MASK == misaligned & ~_C.ARG_CLASS_MASK != 0


def test_cuda_array_interface_errors():
    for bad in ("<c8", ">f4", "<V2", "f4"):  # complex, big-endian, raw bytes, no order
        with pytest.raises(TypeError, match=r"'p'.*unsupported __cuda_array_interface__ typestr"):
            _key_class(CudaArray(bad, 0x10000))
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
