"""Triton's math set beyond the unary functions (test_unary_ops.py) and
libdevice: each builtin against NumPy on the host backend (and the GPU when
present), f64 through the same ops, and every refused argument as Triton
refuses it, located at that argument."""
import math

import numpy as np
import pytest
import torch

import mytriton as triton
import mytriton.language as tl
from mytriton.language.extra import libdevice

from mtutil import assert_compile_error, line_of, same_bits, stages

N = 8


@triton.jit
def binary_kernel(x_ptr, y_ptr, z_ptr, out, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    y = tl.load(y_ptr + offs)
    z = tl.load(z_ptr + offs)
    tl.store(out + 0 * BLOCK + offs, tl.fma(x, y, z))
    tl.store(out + 1 * BLOCK + offs, tl.fdiv(x, y))
    tl.store(out + 2 * BLOCK + offs, tl.div_rn(x, y))
    tl.store(out + 3 * BLOCK + offs, tl.clamp(x, z, y))
    tl.store(out + 4 * BLOCK + offs, tl.clamp(x, z, y, propagate_nan=tl.PropagateNan.ALL))
    tl.store(out + 5 * BLOCK + offs, tl.minimum(x, y, propagate_nan=tl.PropagateNan.NONE))


def f32(values, device):
    return torch.tensor(values, dtype=torch.float32, device=device)


def test_binary_and_ternary(device):
    x = np.array([1.5, -2.0, 3.0, float("nan"), 1e30, -0.5, 7.0, 0.1], dtype=np.float32)
    y = np.array([2.0, 3.0, -0.25, 4.0, 1e30, 0.5, float("nan"), 3.0], dtype=np.float32)
    z = np.array([-1.0, -2.5, -9.0, 0.0, -1.0, -0.25, 1.0, 0.2], dtype=np.float32)
    out = torch.full((6 * N,), 7.0, device=device)
    binary_kernel[(1,)](f32(x, device), f32(y, device), f32(z, device), out, BLOCK=N)
    got = out.cpu().numpy().reshape(6, N)
    # fma rounds once: the exact product plus z, rounded to float32
    with np.errstate(over="ignore"):
        fma = (x.astype(np.float64) * y.astype(np.float64) + z).astype(np.float32)
    same_bits(got[0], fma)
    same_bits(got[1], x / y)
    same_bits(got[2], x / y)
    # clamp = minimum(maximum(x, lo), hi): NONE lets a NaN x lose (to lo,
    # then hi), ALL keeps it; a NaN bound makes the result undefined
    lo_first = np.where(np.isnan(x), z, np.maximum(x, z))
    none = np.where(np.isnan(y), lo_first, np.minimum(lo_first, y))
    ok = ~np.isnan(y)
    same_bits(got[3][ok], none[ok])
    same_bits(got[4][ok], np.minimum(np.maximum(x, z), y)[ok])
    same_bits(got[5], np.where(np.isnan(x), y, np.where(np.isnan(y), x, np.minimum(x, y))))


@triton.jit
def umulhi_kernel(x_ptr, y_ptr, out, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out + offs, tl.umulhi(tl.load(x_ptr + offs), tl.load(y_ptr + offs)))


@pytest.mark.parametrize("dtype,bits", [(torch.int32, 32), (torch.int64, 64)])
def test_umulhi(device, dtype, bits):
    rng = np.random.default_rng(3)
    info = np.iinfo(np.int32 if bits == 32 else np.int64)
    x = rng.integers(info.min, info.max, N, dtype=np.int64 if bits == 64 else np.int32)
    y = rng.integers(info.min, info.max, N, dtype=x.dtype)
    x[0], y[0] = -1, -1
    x[1], y[1] = info.max, 2
    out = torch.zeros(N, dtype=dtype, device=device)
    umulhi_kernel[(1,)](torch.from_numpy(x).to(device), torch.from_numpy(y).to(device), out,
                        BLOCK=N)
    mask = (1 << bits) - 1
    want = [((int(a) & mask) * (int(b) & mask)) >> bits for a, b in zip(x, y)]
    want = [w - (1 << bits) if w >> (bits - 1) else w for w in want]
    assert out.cpu().tolist() == want


@triton.jit
def umulhi_fold_kernel(out):
    tl.store(out, tl.umulhi(-1, 3))


def test_umulhi_folds_as_it_runs(device):
    assert "umulhi" not in stages(umulhi_fold_kernel, torch.zeros(1, dtype=torch.int32))["ssa-opt"]
    out = torch.zeros(1, dtype=torch.int32, device=device)
    umulhi_fold_kernel[(1,)](out)
    assert out.tolist() == [2]  # (2**32 - 1) * 3 >> 32


@triton.jit
def softmax_kernel(x_ptr, out, M: tl.constexpr, N_: tl.constexpr):
    rows = tl.arange(0, M)[:, None]
    cols = tl.arange(0, N_)[None, :]
    x = tl.load(x_ptr + rows * N_ + cols)
    tl.store(out + rows * N_ + cols, tl.softmax(x, 1, keep_dims=True))
    row = tl.arange(0, N_)
    tl.store(out + M * N_ + row, tl.softmax(tl.load(x_ptr + row)))


def test_softmax(device):
    x = np.linspace(-3, 5, 32, dtype=np.float32).reshape(4, 8)
    out = torch.zeros(40, device=device)
    softmax_kernel[(1,)](torch.from_numpy(x).to(device), out, M=4, N_=8)
    got = out.cpu().numpy()
    e = np.exp(x - x.max(axis=1, keepdims=True))
    np.testing.assert_allclose(got[:32].reshape(4, 8), e / e.sum(axis=1, keepdims=True),
                               rtol=1e-6)
    # dim None is axis 0 of the row block
    e0 = np.exp(x[0] - x[0].max())
    np.testing.assert_allclose(got[32:], e0 / e0.sum(), rtol=1e-6)


# (libdevice name, NumPy reference, samples)
LIBDEVICE = [
    ("exp", np.exp, [-3.0, 0.0, 1.0, 10.0]),
    ("exp2", np.exp2, [-3.0, 0.0, 1.5, 10.0]),
    ("expm1", np.expm1, [-1.0, 1e-6, 0.5, 3.0]),
    ("log", np.log, [0.1, 1.0, 2.0, 1e6]),
    ("log2", np.log2, [0.1, 1.0, 2.0, 1e6]),
    ("log10", np.log10, [0.1, 1.0, 2.0, 1e6]),
    ("log1p", np.log1p, [-0.5, 1e-7, 1.0, 1e6]),
    ("sqrt", np.sqrt, [0.0, 0.25, 2.0, 1e6]),
    ("rsqrt", lambda x: 1 / np.sqrt(x), [0.25, 2.0, 3.0, 1e6]),
    ("cbrt", np.cbrt, [-8.0, 0.0, 2.0, 1e6]),
    ("sin", np.sin, [-3.0, 0.0, 0.5, 100.0]),
    ("cos", np.cos, [-3.0, 0.0, 0.5, 100.0]),
    ("tan", np.tan, [-1.0, 0.0, 0.5, 1.2]),
    ("asin", np.arcsin, [-1.0, 0.0, 0.5, 0.9]),
    ("acos", np.arccos, [-1.0, 0.0, 0.5, 0.9]),
    ("atan", np.arctan, [-10.0, 0.0, 0.5, 1e6]),
    ("sinh", np.sinh, [-3.0, 0.0, 0.5, 10.0]),
    ("cosh", np.cosh, [-3.0, 0.0, 0.5, 10.0]),
    ("tanh", np.tanh, [-3.0, 0.0, 0.5, 10.0]),
    ("erf", np.vectorize(math.erf), [-2.0, 0.0, 0.5, 3.0]),
    ("erfc", np.vectorize(math.erfc), [-2.0, 0.0, 0.5, 3.0]),
    ("floor", np.floor, [-2.5, -0.0, 0.5, 3.0]),
    ("ceil", np.ceil, [-2.5, -0.0, 0.5, 3.0]),
    ("trunc", np.trunc, [-2.5, -0.0, 0.5, 3.7]),
    ("rint", np.rint, [-2.5, 0.5, 1.5, 3.7]),
    ("nearbyint", np.rint, [-2.5, 0.5, 1.5, 3.7]),
    ("round", lambda x: np.sign(x) * np.floor(np.abs(x) + 0.5), [-2.5, 0.5, 1.5, 3.2]),
    ("fabs", np.abs, [-2.5, -0.0, 0.5, 3.7]),
    ("fast_expf", np.exp, [-3.0, 0.0, 1.0, 10.0]),
    ("fast_logf", np.log, [0.1, 1.0, 2.0, 1e6]),
    ("fast_tanhf", np.tanh, [-3.0, 0.0, 0.5, 10.0]),
]

_SRC1 = """import mytriton as triton
import mytriton.language as tl
from mytriton.language.extra import libdevice


@triton.jit
def k(x, out, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out + offs, libdevice.{name}(tl.load(x + offs)))
"""


def _kernel(tmp_path, src, name):
    import importlib.util
    path = tmp_path / f"ld_{name}.py"
    path.write_text(src.format(name=name))
    spec = importlib.util.spec_from_file_location(f"ld_{name}", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.k


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
@pytest.mark.parametrize("name,ref,samples", LIBDEVICE, ids=[u[0] for u in LIBDEVICE])
def test_libdevice_unary(tmp_path, device, name, ref, samples, dtype):
    if name.startswith("fast_") and dtype == torch.float64:
        pytest.skip("fast_ functions take fp32 only (test_libdevice_errors)")
    k = _kernel(tmp_path, _SRC1, name)
    x = torch.tensor(samples, dtype=dtype, device=device)
    out = torch.full_like(x, float("nan"))
    k[(1,)](x, out, BLOCK=4)
    np_dtype = np.float32 if dtype == torch.float32 else np.float64
    want = np.asarray(ref(np.array(samples, dtype=np_dtype)), dtype=np_dtype)
    np.testing.assert_allclose(out.cpu().numpy(), want, rtol=4e-7 if dtype == torch.float32
                               else 1e-15, atol=0)


@triton.jit
def libdevice2_kernel(x_ptr, y_ptr, out, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    y = tl.load(y_ptr + offs)
    tl.store(out + 0 * BLOCK + offs, libdevice.pow(x, y))
    tl.store(out + 1 * BLOCK + offs, libdevice.pow(x, 3))
    tl.store(out + 2 * BLOCK + offs, libdevice.atan2(x, y))
    tl.store(out + 3 * BLOCK + offs, libdevice.hypot(x, y))
    tl.store(out + 4 * BLOCK + offs, libdevice.copysign(x, y))
    tl.store(out + 5 * BLOCK + offs, libdevice.fmod(x, y))
    tl.store(out + 6 * BLOCK + offs, libdevice.fma(x, y, x))
    tl.store(out + 7 * BLOCK + offs, libdevice.isnan(x / y).to(x.dtype))
    tl.store(out + 8 * BLOCK + offs, libdevice.isinf(x * 1e300).to(x.dtype))
    tl.store(out + 9 * BLOCK + offs, tl.extra.cuda.libdevice.div_rn(x, y))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_libdevice_binary(device, dtype):
    x = np.array([1.5, -2.0, 3.0, 0.0], dtype=dtype)
    y = np.array([2.0, -3.0, 0.5, 0.0], dtype=dtype)
    out = torch.zeros(40, dtype=torch.from_numpy(x).dtype, device=device)
    libdevice2_kernel[(1,)](torch.from_numpy(x).to(device), torch.from_numpy(y).to(device), out,
                            BLOCK=4)
    got = out.cpu().numpy().reshape(10, 4)
    rtol = 4e-7 if dtype == np.float32 else 1e-15
    with np.errstate(all="ignore"):
        np.testing.assert_allclose(got[0], np.power(x, y), rtol=rtol)
        np.testing.assert_allclose(got[1], x ** 3, rtol=rtol)
        np.testing.assert_allclose(got[2], np.arctan2(x, y), rtol=rtol)
        np.testing.assert_allclose(got[3], np.hypot(x, y), rtol=rtol)
        same_bits(got[4], np.copysign(x, y))
        same_bits(got[5], np.fmod(x, y))
        np.testing.assert_allclose(got[6], x * y + x, rtol=rtol)
        assert got[7].tolist() == [0, 0, 0, 1]
        assert got[8].tolist() == ([1, 1, 1, 0] if dtype == np.float32 else [0, 0, 0, 0])
        same_bits(got[9], x / y)


def test_names_and_values():
    assert tl.PropagateNan.NONE == 0 and tl.PropagateNan.ALL == 0xFFFF
    assert tl.extra.cuda.libdevice is libdevice
    assert tl.extra.libdevice.tanh.__doc__.startswith("tanh(arg0)")
    import sys
    assert sys.modules["mytriton.language.extra.cuda.libdevice"] is libdevice


@triton.jit
def f16_exp_kernel(x, out):
    tl.store(out, tl.exp2(tl.load(x)))


@triton.jit
def i16_umulhi_kernel(x, out):
    tl.store(out, tl.umulhi(tl.load(x), 3))


@triton.jit
def f64_sqrt_rn_kernel(x, out):
    tl.store(out, tl.sqrt_rn(tl.load(x)))


@triton.jit
def int_fdiv_kernel(x, out):
    tl.store(out, tl.fdiv(tl.load(x), 2))


@triton.jit
def int_clamp_kernel(x, out):
    tl.store(out, tl.clamp(tl.load(x), 0, 3))


@triton.jit
def bad_nan_kernel(x, out):
    tl.store(out, tl.maximum(tl.load(x), 0.0, propagate_nan=True))


@triton.jit
def f16_libdevice_kernel(x, out):
    tl.store(out, libdevice.tanh(tl.load(x)))


@triton.jit
def mixed_libdevice_kernel(x, out):
    tl.store(out, libdevice.atan2(tl.load(x), 2))


@triton.jit
def f64_fast_kernel(x, out):
    tl.store(out, libdevice.fast_expf(tl.load(x)))


@triton.jit
def unknown_libdevice_kernel(x, out):
    tl.store(out, libdevice.no_such_function(tl.load(x)))


@triton.jit
def int_fma_kernel(x, out):
    tl.store(out, tl.fma(tl.load(x), 2, 3))


F16 = torch.zeros(1, dtype=torch.float16)
I16 = torch.zeros(1, dtype=torch.int16)
I32 = torch.zeros(1, dtype=torch.int32)
F64 = torch.zeros(1, dtype=torch.float64)


@pytest.mark.parametrize("kernel,arg,needle,pattern", [
    (f16_exp_kernel, F16, "tl.exp2(", r"Expected dtype \['fp32', 'fp64'\] but got fp16"),
    (i16_umulhi_kernel, I16, "tl.umulhi(",
     r"Expected dtype \['int32', 'int64', 'uint32', 'uint64'\] but got int16"),
    (f64_sqrt_rn_kernel, F64, "tl.sqrt_rn(", r"Expected dtype \['fp32'\] but got fp64"),
    (int_fdiv_kernel, I32, "tl.fdiv(", "both operands of fdiv must have floating scalar type"),
    (int_clamp_kernel, I32, "tl.clamp(",
     "Unexpected dtype int32. Only floating point clamp is supported"),
    (bad_nan_kernel, F64, "propagate_nan=", "Unexpected propagate_nan bool"),
    (f16_libdevice_kernel, F16, "libdevice.tanh(",
     r"libdevice.tanh\(\) has no variant for \(fp16\): it takes fp32 or fp64"),
    (mixed_libdevice_kernel, F64, "libdevice.atan2(",
     r"has no variant for \(fp64, int32\): it takes fp32 or fp64 operands of one dtype"),
    (f64_fast_kernel, F64, "libdevice.fast_expf(", r"has no variant for \(fp64\): it takes fp32"),
    (unknown_libdevice_kernel, F64, "libdevice.no_such",
     "libdevice.no_such_function is not supported"),
    (int_fma_kernel, I32, "tl.fma(", "fma requires float operands, got i32, i32 and i32"),
])
def test_errors(kernel, arg, needle, pattern):
    assert_compile_error(kernel, (arg, arg), needle=needle, pattern=pattern)


@triton.jit
def f64_math_kernel(x_ptr, out):
    offs = tl.arange(0, 4)
    x = tl.load(x_ptr + offs)
    tl.store(out + offs, tl.exp2(x) + tl.log2(x) + tl.rsqrt(x) + tl.erf(x) + tl.floor(x)
             + tl.ceil(x))


def test_f64_math(device):
    x = np.array([0.25, 1.0, 2.5, 7.0])
    out = torch.zeros(4, dtype=torch.float64, device=device)
    f64_math_kernel[(1,)](torch.from_numpy(x).to(device), out)
    erf = np.vectorize(math.erf)
    want = np.exp2(x) + np.log2(x) + 1 / np.sqrt(x) + erf(x) + np.floor(x) + np.ceil(x)
    np.testing.assert_allclose(out.cpu().numpy(), want, rtol=1e-15)
    assert "exp2(" in stages(f64_math_kernel, out, out)["cuda"]


@triton.jit
def promotion_kernel(x_ptr, out):
    x = tl.load(x_ptr)
    # numbers are tensors of their own type here (Triton's to_tensor), not
    # weak constants: fp32 next to fp16, int32 next to int8
    tl.static_assert(tl.maximum(x, 0.0).dtype == tl.float32)
    tl.static_assert(tl.clamp(x, 0.0, 1.0).dtype == tl.float32)
    tl.static_assert(tl.fma(x, 2.0, 1.0).dtype == tl.float32)
    if x.dtype == tl.int8:
        tl.static_assert(tl.minimum(x, 1).dtype == tl.int32)
    else:
        tl.static_assert(tl.minimum(x, 1).dtype == tl.float16)
    tl.store(out, tl.fma(x, 2.0, 1.0))


@pytest.mark.parametrize("dtype", [torch.float16, torch.int8])
def test_numbers_are_tensors_of_their_type(device, dtype):
    out = torch.zeros(1, device=device)
    promotion_kernel[(1,)](torch.full((1,), 3, dtype=dtype, device=device), out)
    assert out.tolist() == [7.0]


@triton.jit
def math_module_kernel(x_ptr, out):
    x = tl.load(x_ptr)
    tl.store(out, tl.math.exp2(x) + tl.math.rsqrt(x) + tl.math.fma(x, x, x))


def test_math_module_names(device):
    out = torch.zeros(1, device=device)
    math_module_kernel[(1,)](torch.full((1,), 4.0, device=device), out)
    assert out.tolist() == [16.0 + 0.5 + 20.0]


@triton.jit
def methods_kernel(x_ptr, out, BLOCK: tl.constexpr):
    i = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + i)
    # Triton's math functions are tensor methods too
    tl.store(out + i, x.exp2() + x.log2() + x.rsqrt() + x.floor() + x.ceil() + x.sqrt_rn()
             + x.sqrt() + x.exp() + x.log() + x.sigmoid() + x.softmax() + x.erf())


def test_math_methods(device):
    x = np.array([0.5, 1.0, 2.0, 4.0], dtype=np.float32)
    out = torch.zeros(4, device=device)
    methods_kernel[(1,)](torch.from_numpy(x).to(device), out, BLOCK=4)
    e = np.exp(x - x.max())
    erf = np.vectorize(math.erf)
    want = (np.exp2(x) + np.log2(x) + 1 / np.sqrt(x) + np.floor(x) + np.ceil(x) + 2 * np.sqrt(x)
            + np.exp(x) + np.log(x) + 1 / (1 + np.exp(-x)) + e / e.sum() + erf(x))
    np.testing.assert_allclose(out.cpu().numpy(), want, rtol=1e-6)
