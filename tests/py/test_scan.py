"""Scans and the xor reduction (tlscan.c, cuda_scan.c) against NumPy: every
axis of rank-1 and rank-2 blocks, reverse, Triton's dtype widening,
num_warps 1/4/8, shapes shorter than a layout tile (replicated threads),
as long as a tile and longer (repetitions); located errors."""
import numpy as np
import pytest
import torch

import mytriton as triton
import mytriton.language as tl
from mtutil import assert_compile_error, ssa_opt


@triton.jit
def scan_1d(x, y, N: tl.constexpr, REV: tl.constexpr, PROD: tl.constexpr):
    o = tl.arange(0, N)
    v = tl.load(x + o)
    if PROD:
        s = tl.cumprod(v, 0, reverse=REV)
    else:
        s = tl.cumsum(v, axis=0, reverse=REV)
    tl.store(y + o, s)


@triton.jit
def scan_2d(x, y, M: tl.constexpr, N: tl.constexpr, AXIS: tl.constexpr,
            REV: tl.constexpr, PROD: tl.constexpr):
    r = tl.arange(0, M)[:, None]
    c = tl.arange(0, N)[None, :]
    v = tl.load(x + r * N + c)
    if PROD:
        s = v.cumprod(AXIS, REV)
    else:
        s = v.cumsum(AXIS, reverse=REV)
    tl.store(y + r * N + c, s)


def reference(a, axis, rev, prod):
    a = np.flip(a, axis) if rev else a
    with np.errstate(over="ignore"):
        r = np.cumprod(a, axis=axis, dtype=a.dtype) if prod else np.cumsum(a, axis=axis, dtype=a.dtype)
    return np.flip(r, axis) if rev else r


def sample(shape, dtype, prod, seed):
    g = torch.Generator().manual_seed(seed)
    if dtype.is_floating_point:
        lo, hi = (0.9, 1.1) if prod else (-1.0, 1.0)
        return (torch.rand(*shape, generator=g) * (hi - lo) + lo).to(dtype)
    lo, hi = (-2, 3) if prod else (-100, 100)
    return torch.randint(lo, hi, shape, generator=g).to(dtype)


def check(got, want, dtype):
    if dtype.is_floating_point:
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)
    else:
        np.testing.assert_array_equal(got, want)


# Each case is its own compiled kernel, and a host module keeps its fiber
# stacks (two mappings a thread), so the cases are a covering set, not a
# product: every n, both directions and ops, every num_warps.
@pytest.mark.parametrize("n,rev,prod,warps", [
    (1, False, False, 4), (8, True, False, 1), (8, False, True, 8), (64, True, True, 4),
    (64, False, False, 8), (256, True, False, 4), (256, False, True, 1),
    (2048, True, True, 8), (2048, False, False, 4), (128, True, False, 1)])
def test_scan_1d(device, n, rev, prod, warps):
    dtype = torch.float32 if prod else torch.int32
    x = sample((n,), dtype, prod, n + warps).to(device)
    y = torch.empty_like(x)
    scan_1d[(1,)](x, y, N=n, REV=rev, PROD=prod, num_warps=warps)
    check(y.cpu().numpy(), reference(x.cpu().numpy(), 0, rev, prod), dtype)


@pytest.mark.parametrize("m,n,axis,rev,warps", [
    (4, 8, 0, False, 4), (4, 8, 1, True, 1), (16, 32, 0, True, 8), (16, 32, -1, False, 4),
    (64, 16, 0, False, 1), (64, 16, 1, True, 8), (2, 256, 1, False, 4), (2, 256, 0, True, 8),
    (32, 128, 0, True, 4), (32, 128, 1, False, 1), (32, 128, 1, True, 8), (128, 4, 0, True, 4)])
def test_scan_2d(device, m, n, axis, rev, warps):
    prod = (m + n + axis) % 3 == 0
    dtype = torch.float32 if (m * n) % 3 else torch.int64
    x = sample((m, n), dtype, prod, m * n + warps).to(device)
    y = torch.empty_like(x)
    scan_2d[(1,)](x, y, M=m, N=n, AXIS=axis, REV=rev, PROD=prod, num_warps=warps)
    check(y.cpu().numpy(), reference(x.cpu().numpy(), axis % 2, rev, prod), dtype)


@triton.jit
def cumsum_cast(x, y, N: tl.constexpr):
    o = tl.arange(0, N)
    tl.store(y + o, tl.cumsum(tl.load(x + o)))


@pytest.mark.parametrize("dtype,want", [(torch.int8, "i32"), (torch.int16, "i32"),
                                        (torch.uint8, "u32"), (torch.bool, "u32"),
                                        (torch.float16, "f16"), (torch.bfloat16, "f32"),
                                        (torch.int64, "i64")])
def test_cumsum_widening(device, dtype, want):
    n = 128
    g = torch.Generator().manual_seed(3)
    x = torch.randint(0, 120, (n,), generator=g).to(dtype)
    if dtype == torch.bool:
        x = torch.randint(0, 2, (n,), generator=g).to(dtype)
    elif dtype.is_floating_point:
        x = (torch.rand(n, generator=g) - 0.5).to(dtype)
    ssa = ssa_opt(cumsum_cast, x, torch.empty(n, dtype=torch.int32), N=n)
    assert f"cumsum" in ssa and f": vector<{n} x {want}>" in ssa.split("cumsum")[1].splitlines()[0], ssa
    out_dtype = torch.float32 if dtype.is_floating_point else torch.int32
    y = torch.empty(n, dtype=out_dtype, device=device)
    cumsum_cast[(1,)](x.to(device), y, N=n)
    if dtype.is_floating_point:
        # bf16 scans in f32; f16 in f16 (every partial rounded, in a tree
        # order, as on the GPU): within a few f16 ulps of the exact sums
        want_np = np.cumsum(x.float().numpy(), dtype=np.float64)
        atol = 1e-5 if dtype == torch.bfloat16 else 2e-2
        np.testing.assert_allclose(y.cpu().numpy(), want_np, rtol=0, atol=atol)
    else:
        np.testing.assert_array_equal(y.cpu().numpy(), np.cumsum(x.numpy().astype(np.int64)))


@triton.jit
def xor_kernel(x, y, M: tl.constexpr, N: tl.constexpr, AXIS: tl.constexpr, KEEP: tl.constexpr):
    r = tl.arange(0, M)[:, None]
    c = tl.arange(0, N)[None, :]
    v = tl.load(x + r * N + c)
    s = tl.xor_sum(v, AXIS, keep_dims=KEEP)
    if AXIS == 0:
        o = tl.arange(0, N)
        if KEEP:
            o = o[None, :]
    else:
        o = tl.arange(0, M)
        if KEEP:
            o = o[:, None]
    tl.store(y + o, s)


@triton.jit
def xor_all(x, y, N: tl.constexpr):
    o = tl.arange(0, N)
    tl.store(y, tl.load(x + o).xor_sum())


@pytest.mark.parametrize("m,n,axis,keep,dtype", [
    (4, 64, 0, False, torch.int32), (4, 64, 1, True, torch.int8), (64, 8, 0, True, torch.int64),
    (64, 8, 1, False, torch.int32), (32, 32, 1, False, torch.int64), (32, 32, 0, True, torch.int8)])
def test_xor_sum(device, m, n, axis, keep, dtype):
    g = torch.Generator().manual_seed(m + n)
    x = torch.randint(-100, 100, (m, n), generator=g).to(dtype)
    y = torch.zeros(n if axis == 0 else m, dtype=dtype)
    xor_kernel[(1,)](x.to(device), y_dev := y.to(device), M=m, N=n, AXIS=axis, KEEP=keep)
    np.testing.assert_array_equal(y_dev.cpu().numpy(),
                                  np.bitwise_xor.reduce(x.numpy(), axis=axis))


def test_xor_sum_all(device):
    x = torch.arange(1, 301, dtype=torch.int32)[:256] * 7
    y = torch.zeros(1, dtype=torch.int32)
    xor_all[(1,)](x.to(device), y_dev := y.to(device), N=256)
    assert y_dev.item() == int(np.bitwise_xor.reduce(x.numpy()))


@triton.jit
def bad_xor_float(x, y):
    v = tl.load(x + tl.arange(0, 16))
    tl.store(y, tl.xor_sum(v, 0))


@triton.jit
def bad_scan_scalar(x, y):
    v = tl.load(x)
    tl.store(y, tl.cumsum(v))


@triton.jit
def bad_scan_axis(x, y):
    o = tl.arange(0, 16)
    tl.store(y + o, tl.cumsum(tl.load(x + o), axis=1))


@triton.jit
def bad_scan_none(x, y):
    o = tl.arange(0, 16)
    tl.store(y + o, tl.cumprod(tl.load(x + o), None))


@triton.jit
def bad_scan_reverse(x, y, r):
    o = tl.arange(0, 16)
    tl.store(y + o, tl.cumsum(tl.load(x + o), reverse=r))


@pytest.mark.parametrize("kernel,needle,pattern", [
    (bad_xor_float, "tl.xor_sum(v", "xor_sum only supported for integers, got"),
    (bad_scan_scalar, "tl.cumsum(v)", r"cumsum\(\) expects a block, got f32"),
    (bad_scan_axis, "axis=1", "axis 1 is out of range for a rank-1 value"),
    (bad_scan_none, "tl.cumprod", r"cumprod\(\) axis must be an integer, got None"),
    (bad_scan_reverse, "reverse=r", r"cumsum\(\) reverse must be a compile-time bool"),
])
def test_scan_errors(kernel, needle, pattern):
    args = [torch.zeros(16), torch.zeros(16)]
    if kernel is bad_scan_reverse:
        args.append(2)  # a runtime i32 (an integer 1 is Triton's constexpr 1)
    assert_compile_error(kernel, args, needle=needle, pattern=pattern)


@triton.jit
def scan_of_slice(x, y, z, M: tl.constexpr, N: tl.constexpr):
    r = tl.arange(0, M)
    c = tl.arange(0, N)
    v = tl.load(x + r[:, None] * N + c[None, :])
    rows = tl.cumsum(tl.sum(v, axis=1), 0, reverse=True)   # a slice of v's layout
    cols = tl.cumprod(tl.max(v, axis=0), 0)
    tl.store(y + r, rows)
    tl.store(z + c, cols)


@pytest.mark.parametrize("m,n,warps", [(8, 64, 4), (64, 8, 1), (32, 32, 8)])
def test_scan_of_reduction(device, m, n, warps):
    x = sample((m, n), torch.int32, True, m + n)
    y = torch.empty(m, dtype=torch.int32, device=device)
    z = torch.empty(n, dtype=torch.int32, device=device)
    scan_of_slice[(1,)](x.to(device), y, z, M=m, N=n, num_warps=warps)
    a = x.numpy()
    np.testing.assert_array_equal(y.cpu().numpy(), reference(a.sum(1), 0, True, False))
    np.testing.assert_array_equal(z.cpu().numpy(), reference(a.max(0), 0, False, True))
