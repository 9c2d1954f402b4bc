"""Launch arguments beyond torch and NumPy: DLPack producers, the ':16'
alignment specialisation, and bad input on the launch fast path (each must
raise a clear exception, launch nothing and not crash)."""
import ctypes
import sys

import numpy as np
import pytest
import torch

import mytriton as triton
import mytriton.language as tl


@triton.jit
def copy_kernel(x, out, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out + offs, tl.load(x + offs, mask=mask) + 1, mask=mask)


@triton.jit
def strided_copy_kernel(x, out, n, stride, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out + offs, tl.load(x + offs * stride, mask=mask), mask=mask)


@triton.jit
def aligned_copy_kernel(x, out, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out + offs, tl.load(x + offs, mask=mask), mask=mask)


@triton.jit
def scale_kernel(out, n, factor, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out + offs, tl.load(out + offs, mask=mask) * factor, mask=mask)


class DLPackOnly:
    """Exposes only the DLPack protocol of the wrapped array, and counts
    and remembers the capsules it hands out."""

    def __init__(self, array, device=None):
        self.array = array
        self.device = device
        self.capsules = []

    def __dlpack__(self, stream=None):
        cap = self.array.__dlpack__()
        self.capsules.append(cap)
        return cap

    def __dlpack_device__(self):
        return self.device if self.device is not None else self.array.__dlpack_device__()


def _capsule_name_is(cap, name):
    is_valid = ctypes.pythonapi.PyCapsule_IsValid
    is_valid.restype = ctypes.c_int
    is_valid.argtypes = [ctypes.py_object, ctypes.c_char_p]
    return is_valid(cap, name) == 1


# ---------------------------------------------------------------- DLPack

def test_dlpack_torch_zero_copy():
    x = torch.arange(100, dtype=torch.float32)
    out = torch.zeros(100)
    dx, dout = DLPackOnly(x), DLPackOnly(out)
    copy_kernel[(triton.cdiv(100, 32),)](dx, dout, 100, BLOCK=32)
    assert torch.equal(out, x + 1)  # written in place: the torch tensor sees it
    assert len(dx.capsules) == 1 and len(dout.capsules) == 1
    # Not consumed: the capsule keeps its name and only the wrapper holds it.
    cap = dout.capsules[0]
    assert _capsule_name_is(cap, b"dltensor")
    assert sys.getrefcount(cap) == 3  # the list, cap, getrefcount's argument
    # Mixed with plain tensors, same key class as a tensor of the dtype.
    out.zero_()
    copy_kernel[(4,)](x, dout, 100, BLOCK=32)
    assert torch.equal(out, x + 1)


def test_dlpack_numpy_zero_copy_and_dtypes():
    for dt in (np.float32, np.int32, np.int64):
        x = np.arange(50).astype(dt)
        out = np.zeros(50, dtype=dt)
        copy_kernel[(2,)](DLPackOnly(x), DLPackOnly(out), 50, BLOCK=32)
        np.testing.assert_array_equal(out, x + 1)
    x = np.arange(40, dtype=np.float32)
    out = np.zeros(40, dtype=np.float32)
    copy_kernel[(2,)](DLPackOnly(x[8:]), DLPackOnly(out[8:]), 32, BLOCK=32)  # byte offset
    np.testing.assert_array_equal(out[8:], x[8:] + 1)
    assert (out[:8] == 0).all()


def test_dlpack_dtype_and_device_errors():
    out = torch.zeros(8)
    for bad in (torch.zeros(8, dtype=torch.complex64), np.zeros(8, dtype=np.complex128)):
        wrapped = DLPackOnly(bad)
        with pytest.raises(TypeError, match=r"'x'.*DLPack dtype \(code 5.*no Triton equivalent"):
            copy_kernel[(1,)](wrapped, out, 8, BLOCK=8)
        assert _capsule_name_is(wrapped.capsules[0], b"dltensor")
    assert (out == 0).all()
    with pytest.raises(TypeError, match=r"'out'.*CPU \(1\) or a CUDA device"):
        copy_kernel[(1,)](torch.zeros(8), DLPackOnly(torch.zeros(8), device=(3, 0)), 8, BLOCK=8)
    with pytest.raises(TypeError, match=r"'out'.*said \(2, 0\)"):
        copy_kernel[(1,)](torch.zeros(8), DLPackOnly(torch.zeros(8), device=(2, 0)), 8, BLOCK=8)


class _DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device_type", ctypes.c_int32),
                ("device_id", ctypes.c_int32), ("ndim", ctypes.c_int32),
                ("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16),
                ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)), ("byte_offset", ctypes.c_uint64)]


class _DLManaged(ctypes.Structure):
    _fields_ = [("dl_tensor", _DLTensor), ("manager_ctx", ctypes.c_void_p),
                ("deleter", ctypes.c_void_p)]


class RawBoolDLPack:
    """A bool DLPack producer built with ctypes (torch 1.13 and NumPy 1.24
    export no bool tensors); the capsule has no destructor, so consuming it
    is visible only as a rename."""

    def __init__(self, array):
        assert array.dtype == np.bool_
        self.array = array
        self.shape = (ctypes.c_int64 * 1)(array.size)
        self.managed = _DLManaged()
        t = self.managed.dl_tensor
        t.data, t.device_type, t.device_id, t.ndim = array.ctypes.data, 1, 0, 1
        t.code, t.bits, t.lanes = 6, 8, 1
        t.shape = self.shape
        self.capsules = []

    def __dlpack__(self, stream=None):
        new = ctypes.pythonapi.PyCapsule_New
        new.restype = ctypes.py_object
        new.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
        cap = new(ctypes.addressof(self.managed), b"dltensor", None)
        self.capsules.append(cap)
        return cap

    def __dlpack_device__(self):
        return (1, 0)


def test_dlpack_bool():
    src = np.array([True, False, True, True, False, False, True, False])
    dst = np.zeros(8, dtype=np.bool_)
    wrapped_src, wrapped_dst = RawBoolDLPack(src), RawBoolDLPack(dst)
    aligned_copy_kernel[(1,)](wrapped_src, wrapped_dst, 8, BLOCK=8)
    np.testing.assert_array_equal(dst, src)
    assert "*i1" in aligned_copy_kernel.last_compiled.signature
    assert _capsule_name_is(wrapped_dst.capsules[0], b"dltensor")


# ------------------------------------------------------------- alignment

def test_alignment_specialisation(device):
    aligned_copy_kernel.clear_cache()
    x = torch.arange(65, dtype=torch.float32, device=device)
    out = torch.zeros(65, device=device)
    assert x.data_ptr() % 16 == 0 and out.data_ptr() % 16 == 0
    before = aligned_copy_kernel.cache_info()["compiles"]

    aligned_copy_kernel[(3,)](x, out, 65, BLOCK=32)
    sig_aligned = aligned_copy_kernel.last_compiled.signature
    assert sig_aligned.startswith("*fp32:16, *fp32:16, "), sig_aligned
    assert torch.equal(out.cpu(), x.cpu())

    out.zero_()
    aligned_copy_kernel[(2,)](x[1:], out[1:], 64, BLOCK=32)  # 4 bytes off
    sig_misaligned = aligned_copy_kernel.last_compiled.signature
    assert sig_misaligned.startswith("*fp32, *fp32, i32:16, "), sig_misaligned
    assert torch.equal(out[1:].cpu(), x[1:].cpu()) and out[0].item() == 0

    info = aligned_copy_kernel.cache_info()
    assert info["compiles"] == before + 2 and info["size"] == 2
    sigs = sorted(k.signature for k in aligned_copy_kernel.cache.values())
    assert sigs == sorted([sig_aligned, sig_misaligned])
    # Both stay cached: the same calls again compile nothing.
    aligned_copy_kernel[(3,)](x, out, 65, BLOCK=32)
    aligned_copy_kernel[(2,)](x[1:], out[1:], 64, BLOCK=32)
    assert aligned_copy_kernel.cache_info()["compiles"] == before + 2
    # Mixed: only the aligned pointer carries the hint.
    k = aligned_copy_kernel.warmup(x, out[1:], 64, BLOCK=32)
    assert k.signature.startswith("*fp32:16, *fp32, ")


def test_alignment_numpy():
    x = np.arange(20, dtype=np.float32)
    out = np.zeros(20, dtype=np.float32)
    if x.ctypes.data % 16 or out.ctypes.data % 16:
        pytest.skip("NumPy allocation not 16-byte aligned")
    k = aligned_copy_kernel.warmup(x[1:], out, 19, BLOCK=32)
    assert k.signature.startswith("*fp32, *fp32:16, ")
    aligned_copy_kernel[(1,)](x[1:], out, 19, BLOCK=32)
    np.testing.assert_array_equal(out[:19], x[1:])


# -------------------------------------------------------- bad input, edges

def test_non_contiguous_is_allowed(device):
    x = torch.arange(32, dtype=torch.float32, device=device)
    view = x[::2]
    assert not view.is_contiguous()
    out = torch.zeros(16, device=device)
    strided_copy_kernel[(1,)](view, out, 16, view.stride(0), BLOCK=16)
    assert torch.equal(out.cpu(), view.cpu())


def test_zero_element_tensors(device):
    empty = torch.empty(0, device=device)
    copy_kernel[(1,)](empty, empty, 0, BLOCK=8)  # masked off: touches nothing
    out = torch.zeros(4, device=device)
    copy_kernel[(1,)](empty, out, 0, BLOCK=8)
    assert (out == 0).all()
    copy_kernel[(1,)](np.empty(0, dtype=np.float32), np.empty(0, dtype=np.float32), 0, BLOCK=8)


def test_grid_callable_errors_launch_nothing():
    x = torch.ones(8)
    out = torch.zeros(8)
    calls = []

    def raising(meta):  # meta holds the tensors too: keep only the scalars
        calls.append({k: v for k, v in meta.items() if not isinstance(v, torch.Tensor)})
        raise ZeroDivisionError("grid failed")

    refs = sys.getrefcount(x), sys.getrefcount(out)
    with pytest.raises(ZeroDivisionError, match="grid failed"):
        copy_kernel[raising](x, out, 8, BLOCK=8)
    assert calls == [{"n": 8, "BLOCK": 8}]
    assert (sys.getrefcount(x), sys.getrefcount(out)) == refs  # nothing leaked
    copy_kernel[(1,)](x, out, 8, BLOCK=8)
    assert (sys.getrefcount(x), sys.getrefcount(out)) == refs
    out.zero_()
    for bad in ((1.0,), (True,), (1, 1, 1, 1), 2.5, None, (2 ** 64,), (-1,), []):
        with pytest.raises(ValueError, match="invalid launch grid"):
            copy_kernel[lambda meta, bad=bad: bad](x, out, 8, BLOCK=8)
    assert (out == 0).all()


def test_wrong_device_and_freed_tensors():
    out = torch.zeros(8)
    with pytest.raises(TypeError, match=r"'x'.*CPU or a CUDA device.*meta"):
        copy_kernel[(1,)](torch.empty(8, device="meta"), out, 8, BLOCK=8)
    freed = torch.zeros(8)
    storage = freed.untyped_storage() if hasattr(freed, "untyped_storage") else freed.storage()
    storage.resize_(0)
    assert freed.data_ptr() == 0 and freed.numel() == 8
    with pytest.raises(ValueError, match=r"'x'.*8 elements but no memory"):
        copy_kernel[(1,)](freed, out, 8, BLOCK=8)
    assert (out == 0).all()


def test_large_ints_and_bad_constexprs():
    out = torch.zeros(8)
    # past u64 (2**64 and up) or below i64: refused before anything compiles
    for big in (2 ** 64, -(2 ** 63) - 1, 2 ** 200):
        with pytest.raises(OverflowError, match="integer argument 'n' out of range"):
            copy_kernel[(1,)](out, out, big, BLOCK=8)
    with pytest.raises(ValueError, match="num_warps"):
        copy_kernel[(1,)](out, out, 8, BLOCK=8, num_warps=2 ** 70)
    # an AssertionError too, as Triton's option check is (test_num_warps_pow2)
    with pytest.raises(AssertionError, match="must be a power of 2"):
        copy_kernel.warmup(out, out, 8, BLOCK=8, num_warps=3, grid=(1,))
    with pytest.raises(triton.OptionError, match="num_stages"):
        copy_kernel[(1,)](out, out, 8, BLOCK=8, num_stages=-1)
    with pytest.raises(triton.CompilationError, match="invalid constexpr literal"):
        copy_kernel[(1,)](out, out, 8, BLOCK=2 ** 100)
    for bad in ([8], object(), torch.zeros(1), np.float64):
        with pytest.raises(TypeError, match="'BLOCK'.*constexpr value must be"):
            copy_kernel[(1,)](out, out, 8, BLOCK=bad)
    # int64 extremes as runtime scalars are fine.
    copy_kernel[(1,)](out, out, 2 ** 63 - 1, BLOCK=8)
    assert (out == 1).all()


def test_reentrant_calls():
    out = torch.ones(8)

    def grid_that_launches(meta):
        scale_kernel[(1,)](out, 8, 3.0, BLOCK=8)  # runs first: 1 -> 3
        return (1,)

    scale_kernel[grid_that_launches](out, 8, 2.0, BLOCK=8)  # then 3 -> 6
    assert (out == 6).all()

    kwargs = {"factor": 0.5, "BLOCK": 8}

    def grid_that_drops_arguments(meta):
        kwargs.clear()  # the call holds its own references
        scale_kernel.clear_cache()
        return (1,)

    scale_kernel._run(grid_that_drops_arguments, (out, 8), kwargs)
    assert (out == 3).all()

    def grid_that_redefines(meta):
        scale_kernel._setup(scale_kernel.fn, ("out",), (False,), (None,), object())
        return (1,)

    with pytest.raises(RuntimeError, match="redefine a kernel while a call"):
        scale_kernel[grid_that_redefines](out, 8, 2.0, BLOCK=8)
    assert (out == 3).all()
    scale_kernel[(1,)](out, 8, 2.0, BLOCK=8)  # still usable
    assert (out == 6).all()


# ------------------------------------------------------- nested kernels

def test_nested_kernel_with_module_alias():
    import mytriton.language as mtl

    @triton.jit
    def twice(v):
        return mtl.where(v > 0, v * 2, v)

    @triton.jit
    def nested_kernel(x, out, n, BLOCK: mtl.constexpr):
        offs = mtl.program_id(0) * BLOCK + mtl.arange(0, BLOCK)
        mask = offs < n
        mtl.store(out + offs, twice(mtl.load(x + offs, mask=mask)) + 1, mask=mask)

    x = torch.arange(40, dtype=torch.float32)
    out = torch.zeros(40)
    nested_kernel[(triton.cdiv(40, 16),)](x, out, 40, BLOCK=16)
    assert torch.equal(out, x * 2 + 1)
    source, _ = nested_kernel._source()
    assert "import mytriton.language as mtl" in source


@triton.jit
def np_constexpr_kernel(out, BLOCK: tl.constexpr):
    tl.store(out + tl.arange(0, BLOCK), tl.arange(0, BLOCK) * 1.0)


def test_numpy_integer_constexpr_is_an_int():
    out = np.zeros(8, np.float32)
    np_constexpr_kernel.clear_cache()
    np_constexpr_kernel[(1,)](out, BLOCK=np.int32(8))
    np.testing.assert_array_equal(out, np.arange(8, dtype=np.float32))
    np_constexpr_kernel[(1,)](out, BLOCK=8)  # the same specialisation
    assert np_constexpr_kernel.cache_info()["compiles"] == 1


# ------------------------------------------------- argument classes

@triton.jit
def every_class_kernel(pf, pi, pb, pl, a, b, c, d, e):
    pass


def test_argument_classes_come_from_the_extension():
    from mytriton import _C, jit
    assert not hasattr(jit, "_SCALAR_SIG") and not hasattr(jit, "_POINTER_SIG")
    sigs = _C.ARG_SIGNATURES
    # every spelling a signature entry can take, exactly once: each dtype
    # as a scalar and a pointer, ":16" on pointers and integers, ":1" on
    # integers, and the start of a tensor descriptor's type (jit.py adds
    # the block shape)
    types = ["i1", "i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64",
             "fp8e4nv", "fp8e5", "fp16", "bf16", "fp32", "fp64"]
    ints = [t for t in types if t[0] in "iu" and t != "i1"]
    assert sorted(sigs.values()) == sorted(
        types + [t + h for t in ints for h in (":16", ":1")] + ["*" + t + h for t in types for h in ("", ":16")]
        + ["tensordesc<" + t for t in types])
    assert all(k & _C.ARG_DESC == _C.ARG_DESC for k, v in sigs.items() if v.startswith("tensordesc"))
    assert all(0 < k <= _C.ARG_CLASS_MASK for k in sigs)
    t = [torch.zeros(4, dtype=dt) for dt in (torch.float32, torch.int32, torch.bool,
                                              torch.int64)]
    k = every_class_kernel.warmup(*t, 3, 32, 2**40, 1.5, True, grid=(1,))
    assert k.signature == "*fp32:16, *i32:16, *i1:16, *i64:16, i32, i32:16, i64:16, fp32, i1"
    k = every_class_kernel.warmup(*[x[1:] for x in t], -7, 2**40 + 1, 48, 0.0, False,
                                  grid=(1,))
    assert k.signature == "*fp32, *i32, *i1, *i64, i32, i64, i32:16, fp32, i1"
    k = every_class_kernel.warmup(*t, 1, -1, 1, 0.0, False, grid=(1,))
    assert k.signature == "*fp32:16, *i32:16, *i1:16, *i64:16, i32:1, i32, i32:1, fp32, i1"


@triton.jit
def unit_stride_copy_kernel(src, dst, stride, n, BLOCK: tl.constexpr):
    r = tl.arange(0, BLOCK)
    tl.store(dst + r, tl.load(src + r * stride, mask=r < n, other=-1.0))


def test_unit_stride_is_specialised_and_folded():
    """An integer argument equal to 1 compiles apart, with the value folded
    (Triton's ":1"), and a later call with another value gets its own."""
    x = torch.arange(32, dtype=torch.float32)
    out = torch.zeros(16)
    unit_stride_copy_kernel[(1,)](x, out, 1, 16, BLOCK=16)
    assert out.tolist() == list(range(16))
    unit_stride_copy_kernel[(1,)](x, out, 2, 16, BLOCK=16)
    assert out.tolist() == list(range(0, 32, 2))
    k = unit_stride_copy_kernel.warmup(x, out, 1, 16, BLOCK=16, grid=(1,))
    assert k.signature.startswith("*fp32:16, *fp32:16, i32:1,")
    assert "mul" not in k.asm["ssa-opt"]  # r * stride folded to r
