"""Generic reductions and scans (tlscan.c, cuda_scan.c) against NumPy:
tl.argmax/argmin and tl.max/min(return_indices=True) with Triton's tie
rule, tl.reduce and tl.associative_scan with @jit combine functions
(tuples of tensors too, a non-commutative combine for the order of
operands, reverse), every axis of rank-1 and rank-2 blocks, keep_dims,
num_warps 1/4/8; the combine region in the IR; located errors."""

import numpy as np

import pytest
import torch

import mytriton as triton
import mytriton.language as tl
from mtutil import assert_compile_error, ssa_opt


@triton.jit
def arg_kernel(x, vals, idxs, M: tl.constexpr, N: tl.constexpr, AXIS: tl.constexpr,
               MAX: tl.constexpr, KEEP: tl.constexpr):
    r = tl.arange(0, M)[:, None]
    c = tl.arange(0, N)[None, :]
    v = tl.load(x + r * N + c)
    if MAX:
        m, i = tl.max(v, AXIS, return_indices=True, keep_dims=KEEP)
        j = tl.argmax(v, AXIS, keep_dims=KEEP)
    else:
        m, i = v.min(axis=AXIS, return_indices=True, keep_dims=KEEP)
        j = v.argmin(AXIS, keep_dims=KEEP)
    if AXIS == 0:
        o = tl.arange(0, N)
        if KEEP:
            o = o[None, :]
    else:
        o = tl.arange(0, M)
        if KEEP:
            o = o[:, None]
    tl.store(vals + o, m)
    tl.store(idxs + o, i)
    tl.store(idxs + o + (N if AXIS == 0 else M), j)


@triton.jit
def arg_1d(x, out, N: tl.constexpr):
    v = tl.load(x + tl.arange(0, N))
    tl.store(out, tl.argmax(v, 0))
    tl.store(out + 1, tl.argmin(v, axis=0))
    tl.store(out + 2, tl.argmax(v, 0, tie_break_left=False))


def ties(shape, dtype, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.randint(-3, 4, shape, generator=g)  # many equal values
    return x.to(dtype)


# A covering set of cases, not a product (each is a compiled kernel, and a
# host module keeps its fiber stacks): both axes and ops, every num_warps.
@pytest.mark.parametrize("m,n,axis,is_max,warps", [
    (4, 8, 0, True, 4), (4, 8, 1, False, 1), (16, 64, 0, False, 8), (16, 64, 1, True, 4),
    (64, 16, 0, True, 1), (64, 16, 1, False, 8), (2, 256, 1, False, 8), (2, 256, 0, True, 4),
    (32, 32, 1, True, 1), (32, 32, 0, False, 4)])
def test_arg_2d(device, m, n, axis, is_max, warps):
    dtype = [torch.float32, torch.int32, torch.float16, torch.int8][(m + n + axis) % 4]
    x = ties((m, n), dtype, m * n + warps)
    k = n if axis == 0 else m
    vals = torch.empty(k, dtype=dtype, device=device)
    idxs = torch.empty(2 * k, dtype=torch.int32, device=device)
    keep = (m + warps) % 2 == 0
    arg_kernel[(1,)](x.to(device), vals, idxs, M=m, N=n, AXIS=axis, MAX=is_max, KEEP=keep,
                     num_warps=warps)
    a = x.float().numpy()
    want_i = (np.argmax if is_max else np.argmin)(a, axis=axis)
    want_v = (np.max if is_max else np.min)(a, axis=axis)
    np.testing.assert_array_equal(idxs.cpu().numpy()[:k], want_i)
    np.testing.assert_array_equal(idxs.cpu().numpy()[k:], want_i)
    np.testing.assert_array_equal(vals.float().cpu().numpy(), want_v)


@pytest.mark.parametrize("n,dtype", [(1, torch.float32), (32, torch.int64), (128, torch.bfloat16),
                                     (1024, torch.int16), (1024, torch.float32)])
def test_arg_1d(device, n, dtype):
    x = ties((n,), dtype, n)
    out = torch.empty(3, dtype=torch.int32, device=device)
    arg_1d[(1,)](x.to(device), out, N=n)
    a = x.float().numpy()
    got = out.cpu().numpy()
    assert got[0] == np.argmax(a) and got[1] == np.argmin(a)
    assert a[got[2]] == a.max()  # tie_break_left=False: any index of the maximum


def test_arg_ir():
    ssa = ssa_opt(arg_1d, torch.zeros(8), torch.zeros(3, dtype=torch.int32), N=8)
    assert "= reduce " in ssa and "combine(" in ssa and "yield" in ssa, ssa
    first = ssa.split("= reduce ")[1].split("yield")[0]
    assert "cmp_gt" in first and "cmp_eq" in first and "select" in first, first


@triton.jit
def add_fn(a, b):
    return a + b


@triton.jit
def max_and_count(a, na, b, nb):
    # a tuple combine: the maximum and how many elements reached it
    return tl.maximum(a, b), tl.where(a == b, na + nb, tl.where(a > b, na, nb))


@triton.jit
def affine(a1, b1, a2, b2):
    # x -> a*x + b, the left map applied first: associative, not commutative
    return a1 * a2, b1 * a2 + b2


@triton.jit
def reduce_kernel(x, s_out, m_out, c_out, all_out, M: tl.constexpr, N: tl.constexpr,
                  AXIS: tl.constexpr):
    r = tl.arange(0, M)[:, None]
    c = tl.arange(0, N)[None, :]
    v = tl.load(x + r * N + c)
    s = tl.reduce(v, AXIS, add_fn)
    mx, cnt = tl.reduce((v, tl.full(v.shape, 1, tl.int32)), AXIS, max_and_count)
    o = tl.arange(0, N if AXIS == 0 else M)
    tl.store(s_out + o, s)
    tl.store(m_out + o, mx)
    tl.store(c_out + o, cnt)
    tl.store(all_out + tl.arange(0, 1)[:, None], v.reduce(None, add_fn, keep_dims=True))


@pytest.mark.parametrize("m,n,axis,warps", [(4, 32, 0, 4), (4, 32, 1, 8), (32, 8, 0, 1),
                                           (32, 8, 1, 4), (16, 128, 0, 8), (16, 128, 1, 1)])
def test_reduce_fn(device, m, n, axis, warps):
    x = ties((m, n), torch.int32, m + n + warps)
    k = n if axis == 0 else m
    s, mx, cnt = (torch.empty(k, dtype=torch.int32, device=device) for _ in range(3))
    total = torch.empty(1, dtype=torch.int32, device=device)
    reduce_kernel[(1,)](x.to(device), s, mx, cnt, total, M=m, N=n, AXIS=axis, num_warps=warps)
    a = x.numpy()
    np.testing.assert_array_equal(s.cpu().numpy(), a.sum(axis=axis))
    np.testing.assert_array_equal(mx.cpu().numpy(), a.max(axis=axis))
    np.testing.assert_array_equal(cnt.cpu().numpy(),
                                  (a == a.max(axis=axis, keepdims=True)).sum(axis=axis))
    assert total.item() == a.sum()


@triton.jit
def scan_kernel(a_in, b_in, a_out, b_out, s_out, M: tl.constexpr, N: tl.constexpr,
                AXIS: tl.constexpr, REV: tl.constexpr):
    r = tl.arange(0, M)[:, None]
    c = tl.arange(0, N)[None, :]
    a = tl.load(a_in + r * N + c)
    b = tl.load(b_in + r * N + c)
    sa, sb = tl.associative_scan((a, b), AXIS, affine, reverse=REV)
    tl.store(a_out + r * N + c, sa)
    tl.store(b_out + r * N + c, sb)
    tl.store(s_out + r * N + c, a.associative_scan(AXIS, add_fn, REV))


def affine_scan(a, b, axis, rev):
    a, b = (np.moveaxis(t, axis, -1).astype(np.int64) for t in (a, b))
    if rev:
        a, b = a[..., ::-1], b[..., ::-1]
    ra, rb = a.copy(), b.copy()
    for i in range(1, a.shape[-1]):
        ra[..., i] = ra[..., i - 1] * a[..., i]
        rb[..., i] = rb[..., i - 1] * a[..., i] + b[..., i]
    if rev:
        ra, rb = ra[..., ::-1], rb[..., ::-1]
    wrap = lambda t: np.moveaxis(t, -1, axis).astype(np.uint64).astype(np.uint32).astype(np.int32)
    return wrap(ra % (1 << 32)), wrap(rb % (1 << 32))


@pytest.mark.parametrize("m,n,axis,rev,warps", [
    (2, 8, 1, False, 4), (2, 8, 0, True, 1), (8, 64, 1, True, 8), (8, 64, 0, False, 4),
    (64, 4, 0, True, 8), (64, 4, 1, False, 1), (4, 512, 1, False, 8), (4, 512, 1, True, 4),
    (32, 32, 0, False, 1), (32, 32, 1, True, 4), (128, 8, 0, True, 4)])
def test_associative_scan(device, m, n, axis, rev, warps):
    g = torch.Generator().manual_seed(m * n + warps)
    a = torch.randint(-3, 4, (m, n), generator=g, dtype=torch.int32)
    b = torch.randint(-9, 10, (m, n), generator=g, dtype=torch.int32)
    outs = [torch.empty(m, n, dtype=torch.int32, device=device) for _ in range(3)]
    scan_kernel[(1,)](a.to(device), b.to(device), *outs, M=m, N=n, AXIS=axis, REV=rev,
                      num_warps=warps)
    wa, wb = affine_scan(a.numpy(), b.numpy(), axis, rev)
    np.testing.assert_array_equal(outs[0].cpu().numpy(), wa)
    np.testing.assert_array_equal(outs[1].cpu().numpy(), wb)
    s = np.flip(np.cumsum(np.flip(a.numpy(), axis), axis), axis) if rev else np.cumsum(a.numpy(), axis)
    np.testing.assert_array_equal(outs[2].cpu().numpy(), s)


def plain(a, b):
    return a + b


@triton.jit
def two_values(a, b):
    return a, b


@triton.jit
def float_result(a, b):
    return (a + b).to(tl.float32)


@triton.jit
def bad_not_jit(x, y):
    v = tl.load(x + tl.arange(0, 8))
    tl.store(y, tl.reduce(v, 0, plain))


@triton.jit
def bad_count(x, y):
    v = tl.load(x + tl.arange(0, 8))
    tl.store(y, tl.reduce(v, 0, two_values))


@triton.jit
def bad_type(x, y):
    v = tl.load(x + tl.arange(0, 8))
    tl.store(y + tl.arange(0, 8), tl.associative_scan(v, 0, float_result))


@triton.jit
def bad_shapes(x, y):
    v = tl.load(x + tl.arange(0, 8))
    w = tl.load(x + tl.arange(0, 4))
    s, t = tl.reduce((v, w), 0, affine)
    tl.store(y, s)


@triton.jit
def bad_argmax_axis(x, y):
    v = tl.load(x + tl.arange(0, 8))
    tl.store(y, tl.argmax(v, None))


@triton.jit
def bad_scan_axis(x, y):
    v = tl.load(x + tl.arange(0, 8))
    tl.store(y + tl.arange(0, 8), tl.associative_scan(v, None, add_fn))


@pytest.mark.parametrize("kernel,needle,pattern", [
    (bad_not_jit, "plain)", r"reduce\(\) combine_fn must be a @triton.jit function"),
    (bad_count, "two_values)", r"reduce\(\) combine_fn 'two_values' returned 2 values, expected 1"),
    (bad_type, "float_result)", r"associative_scan\(\) combine_fn 'float_result' result 1 is f32, expected i32"),
    (bad_shapes, "(v, w)", r"reduce\(\) inputs must have the same shape"),
    (bad_argmax_axis, "None)", r"argmax\(\) with indices needs an integer axis, got None"),
    (bad_scan_axis, "None, add_fn", r"associative_scan\(\) axis must be an integer, got None"),
])
def test_reduce_fn_errors(kernel, needle, pattern):
    x = torch.zeros(8, dtype=torch.int32)
    assert_compile_error(kernel, [x, x], needle=needle, pattern=pattern)


@triton.jit
def hist_kernel(x, y, N: tl.constexpr, B: tl.constexpr, MASKED: tl.constexpr):
    o = tl.arange(0, N)
    v = tl.load(x + o)
    if MASKED:
        h = tl.histogram(v, B, mask=o % 3 != 0)
    else:
        h = v.histogram(B)
    tl.store(y + tl.arange(0, B), h)


@pytest.mark.parametrize("n,bins,masked,dtype,warps", [
    (64, 8, False, torch.int32, 4), (256, 16, True, torch.uint8, 8), (1024, 4, True, torch.int64, 1),
    (32, 32, False, torch.int16, 4)])
def test_histogram(device, n, bins, masked, dtype, warps):
    g = torch.Generator().manual_seed(n + bins)
    x = torch.randint(0, bins, (n,), generator=g).to(dtype)
    y = torch.empty(bins, dtype=torch.int32, device=device)
    hist_kernel[(1,)](x.to(device), y, N=n, B=bins, MASKED=masked, num_warps=warps)
    keep = np.arange(n) % 3 != 0 if masked else np.ones(n, bool)
    want = np.bincount(x.numpy().astype(np.int64)[keep], minlength=bins)
    np.testing.assert_array_equal(y.cpu().numpy(), want)


@triton.jit
def bad_hist_2d(x, y):
    v = tl.load(x + tl.arange(0, 8)[:, None] + tl.arange(0, 8)[None, :])
    tl.store(y + tl.arange(0, 8), tl.histogram(v, 8))


@triton.jit
def bad_hist_float(x, y):
    v = tl.load(x + tl.arange(0, 8)).to(tl.float32)
    tl.store(y + tl.arange(0, 8), tl.histogram(v, 8))


@triton.jit
def bad_hist_bins(x, y):
    v = tl.load(x + tl.arange(0, 8))
    tl.store(y + tl.arange(0, 8), tl.histogram(v, 6))


@pytest.mark.parametrize("kernel,needle,pattern", [
    (bad_hist_2d, "tl.histogram(v", r"histogram\(\) only supports 1D input, got block<8x8 x i32>"),
    (bad_hist_float, "tl.histogram(v", r"histogram\(\) only supports integer input, got vector<8 x f32>"),
    (bad_hist_bins, "v, 6)", r"histogram\(\) num_bins must be a power of two, got 6"),
])
def test_histogram_errors(kernel, needle, pattern):
    x = torch.zeros(8, dtype=torch.int32)
    assert_compile_error(kernel, [x, x], needle=needle, pattern=pattern)


@triton.jit
def sort_kernel(x, y, N: tl.constexpr, DESC: tl.constexpr):
    o = tl.arange(0, N)
    v = tl.load(x + o)
    if DESC:
        s = tl.sort(v, descending=True)
    else:
        s = v.sort(0)
    tl.store(y + o, s)


@pytest.mark.parametrize("n,desc,dtype,warps", [
    (1, False, torch.float32, 4), (8, True, torch.int32, 1), (64, False, torch.float32, 8),
    (128, True, torch.float16, 4), (32, False, torch.int8, 4), (256, True, torch.int64, 8)])
def test_sort(device, n, desc, dtype, warps):
    g = torch.Generator().manual_seed(n)
    x = (torch.randn(n, generator=g) * 50).to(dtype)  # integers: many ties
    if dtype.is_floating_point and n >= 8:
        x[1] = float("nan")
        x[3] = -0.0
    y = torch.empty_like(x).to(device)
    sort_kernel[(1,)](x.to(device), y, N=n, DESC=desc, num_warps=warps)
    want = torch.sort(x.float(), descending=desc, stable=True).values.to(dtype)
    np.testing.assert_array_equal(y.cpu().float().numpy(), want.float().numpy())


@triton.jit
def bad_sort_2d(x, y):
    v = tl.load(x + tl.arange(0, 8)[:, None] + tl.arange(0, 8)[None, :])
    tl.store(y + tl.arange(0, 8)[:, None] + tl.arange(0, 8)[None, :], tl.sort(v))


def test_sort_errors():
    x = torch.zeros(8, dtype=torch.int32)
    assert_compile_error(bad_sort_2d, [x, x], needle="tl.sort(v)",
                         pattern=r"sort\(\) of a rank-2 block is not supported")


@triton.jit
def argmax_rank3(X, Z):
    r = tl.arange(0, 2)
    s = tl.arange(0, 4)
    t = tl.arange(0, 8)
    x = tl.load(X + r[:, None, None] * 32 + s[None, :, None] * 8 + t[None, None, :])
    tl.store(Z + r[:, None] * 8 + t[None, :], tl.argmax(x, 1))


def test_argmax_of_rank3(device):
    """test_core's 3-D argmax runs on every backend: the cpu backend's
    tiles have any rank, the CUDA lowering slices the block (unbatch.c),
    one argmax per slice (it once reached the verifier, then was refused)."""
    x = torch.randn(64)
    z = torch.zeros(16, dtype=torch.int32, device=device)
    argmax_rank3[(1,)](x.to(device), z)
    assert torch.equal(z.cpu(), x.reshape(2, 4, 8).argmax(1).reshape(-1).to(torch.int32))
