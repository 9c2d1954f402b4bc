"""Shape ops (issue 9): reshape/view/ravel, trans/permute/.T, join/split,
cat, interleave, flip, expand_dims with several axes, None indexing,
broadcast, arange with a non-zero start and the _like fills, against torch
at several shapes and num_warps (1 and 2 warps replicate small blocks, 4
and 8 spread them over warps), and their located errors."""
import os

import pytest
import torch

import mytriton as triton
import mytriton.language as tl
from mtutil import assert_compile_error, stages

WARPS = [1, 2, 4, 8]
SHAPES = [(4, 8), (16, 4), (32, 32), (1, 64), (2, 2)]


def grid(r, c):
    """x[i] == i for an r x c block, so every result shows where its
    elements came from."""
    return torch.arange(r * c, dtype=torch.float32)


@triton.jit
def offsets(R: tl.constexpr, C: tl.constexpr):
    return tl.arange(0, R)[:, None] * C + tl.arange(0, C)[None, :]


@triton.jit
def shapes2d_kernel(x, o, R: tl.constexpr, C: tl.constexpr):
    """Every 2-D shape op of one block, each result stored in its own
    region of o (one kernel per shape and num_warps: each specialisation
    is a host module with its own fiber stacks)."""
    N: tl.constexpr = R * C
    v = tl.load(x + offsets(R, C))
    # reshape, in every spelling, to (C, R) and to (2, N // 2)
    tl.store(o + offsets(C, R), tl.reshape(v, (C, R)))
    tl.store(o + N + offsets(C, R), v.reshape(C, R))
    tl.store(o + 2 * N + offsets(2, N // 2), tl.reshape(v, [2, N // 2], can_reorder=True))
    tl.store(o + 3 * N + offsets(2, N // 2), tl.view(v, 2, N // 2))
    # to one vector and back
    tl.store(o + 4 * N + tl.arange(0, N), tl.ravel(v))
    tl.store(o + 5 * N + tl.arange(0, N), v.reshape(N))
    w = tl.load(x + tl.arange(0, N))
    tl.store(o + 6 * N + offsets(R, C), tl.reshape(w, R, C))
    # transposes
    tl.store(o + 7 * N + offsets(C, R), tl.trans(v))
    tl.store(o + 8 * N + offsets(C, R), v.T)
    tl.store(o + 9 * N + offsets(C, R), tl.permute(v, 1, 0))
    tl.store(o + 10 * N + offsets(C, R), v.permute((1, 0)))
    tl.store(o + 11 * N + offsets(C, R), tl.trans(v, [1, 0]))
    tl.store(o + 12 * N + offsets(C, R), v.trans(1, 0))
    # flips
    tl.store(o + 13 * N + offsets(R, C), tl.flip(v, 0))
    tl.store(o + 14 * N + offsets(R, C), v.flip(1))
    tl.store(o + 15 * N + offsets(R, C), tl.flip(v, dim=-2))
    tl.store(o + 16 * N + offsets(R, C), tl.flip(v))
    tl.store(o + 17 * N + tl.arange(0, N), tl.flip(w, 0))


@pytest.mark.parametrize("num_warps", WARPS)
@pytest.mark.parametrize("shape", SHAPES)
def test_2d_shape_ops(device, num_warps, shape):
    r, c = shape
    n = r * c
    x = grid(r, c).to(device)
    o = torch.zeros(18 * n, device=device)
    shapes2d_kernel[(1,)](x, o, r, c, num_warps=num_warps)
    xc = x.cpu()
    m = xc.view(r, c)
    want = [xc] * 7 + [m.T.reshape(-1)] * 6 + [m.flip(0).reshape(-1), m.flip(1).reshape(-1),
                                               m.flip(0).reshape(-1), m.flip(1).reshape(-1),
                                               xc.flip(0)]
    got = o.cpu().view(18, n)
    for i, w in enumerate(want):
        assert torch.equal(got[i], w), (i, got[i], w)


@triton.jit
def reshape_dtype_kernel(x, o, R: tl.constexpr, C: tl.constexpr):
    v = tl.load(x + tl.arange(0, R * C))
    w = tl.reshape(v, R, C)
    tl.store(o + offsets(C, R), tl.trans(w))


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16, torch.int8,
                                   torch.int64, torch.bool, torch.float64])
def test_reshape_trans_dtypes(device, dtype):
    base = torch.arange(64) - 20
    x = (base % 2 == 0) if dtype == torch.bool else base.to(dtype)
    x = x.to(device)
    o = torch.zeros(64, dtype=dtype, device=device)
    reshape_dtype_kernel[(1,)](x, o, 8, 8, num_warps=2)
    assert torch.equal(o.cpu(), x.cpu().view(8, 8).T.reshape(-1))


@triton.jit
def permute_identity_kernel(x, o, R: tl.constexpr, C: tl.constexpr):
    v = tl.load(x + offsets(R, C))
    tl.store(o + offsets(R, C), tl.permute(v, (0, 1)) + tl.permute(v.T, 1, 0))


def test_permute_identity_is_no_op(device):
    x = grid(4, 8).to(device)
    o = torch.zeros(32, device=device)
    permute_identity_kernel[(1,)](x, o, 4, 8)
    assert torch.equal(o.cpu(), 2 * x.cpu())
    ssa = stages(permute_identity_kernel, x, o, 4, 8)["ssa-opt"]
    assert ssa.count(" trans ") == 2, ssa  # v.T and its inverse, no identity op


@triton.jit
def permute4_kernel(x, o, S0: tl.constexpr, S1: tl.constexpr, S2: tl.constexpr,
                    S3: tl.constexpr, P0: tl.constexpr, P1: tl.constexpr, P2: tl.constexpr,
                    P3: tl.constexpr):
    N: tl.constexpr = S0 * S1 * S2 * S3
    v = tl.load(x + tl.arange(0, N)).reshape(S0, S1, S2, S3)
    tl.store(o + tl.arange(0, N), tl.permute(v, (P0, P1, P2, P3)).reshape(N))


@pytest.mark.parametrize("shape,perm", [((2, 2, 8, 64), (3, 2, 1, 0)),
                                        ((4, 4, 4, 16), (1, 3, 0, 2)),
                                        ((2, 4, 8, 1), (2, 0, 3, 1)),
                                        ((4, 2, 2, 8), (0, 2, 1, 3))])
def test_permute_of_any_order(device, shape, perm):
    """A permutation other than the last two dims' swap: each dim moved to
    the end in turn, as swaps between reshapes (test_core's trans_4d)."""
    n = shape[0] * shape[1] * shape[2] * shape[3]
    x = torch.arange(n, dtype=torch.int32)
    o = torch.zeros(n, dtype=torch.int32, device=device)
    permute4_kernel[(1,)](x.to(device), o, *shape, *perm, num_warps=8)
    assert torch.equal(o.cpu(), x.reshape(shape).permute(perm).reshape(n))


@triton.jit
def join_split_kernel(x, y, o, N: tl.constexpr):
    a = tl.load(x + tl.arange(0, N))
    b = tl.load(y + tl.arange(0, N))
    j = tl.join(a, b)
    tl.store(o + offsets(N, 2), j)
    lo, hi = tl.split(j)
    tl.store(o + 2 * N + tl.arange(0, N), hi - lo)
    p, q = j.split()
    tl.store(o + 3 * N + tl.arange(0, N), p * q)
    tl.store(o + 4 * N + tl.arange(0, 2 * N), tl.interleave(a, b))


@pytest.mark.parametrize("num_warps", WARPS)
@pytest.mark.parametrize("n", [2, 16, 1024])
def test_join_split_interleave(device, num_warps, n):
    x = (torch.arange(n, dtype=torch.float32) * 0.5).to(device)
    y = (torch.arange(n, dtype=torch.float32) + 1000).to(device)
    o = torch.zeros(6 * n, device=device)
    join_split_kernel[(1,)](x, y, o, n, num_warps=num_warps)
    o, x, y = o.cpu(), x.cpu(), y.cpu()
    pair = torch.stack([x, y], -1)
    assert torch.equal(o[:2 * n], pair.reshape(-1))
    assert torch.equal(o[2 * n:3 * n], y - x)
    assert torch.equal(o[3 * n:4 * n], x * y)
    assert torch.equal(o[4 * n:], pair.reshape(-1))


@triton.jit
def join_broadcast_kernel(x, o, N: tl.constexpr):
    v = tl.load(x + tl.arange(0, N))
    j = tl.join(v, tl.sum(v))  # the scalar is broadcast to (N,)
    tl.store(o + offsets(N, 2), j)
    k = tl.join(tl.max(v, 0) + tl.zeros((1,), tl.float32), v)  # (1,) with (N,)
    tl.store(o + 2 * N + offsets(N, 2), k)


def test_join_broadcasts(device):
    n = 8
    x = (torch.arange(n, dtype=torch.float32) * 3).to(device)
    o = torch.zeros(4 * n, device=device)
    join_broadcast_kernel[(1,)](x, o, n, num_warps=1)
    xc = x.cpu()
    assert torch.equal(o.cpu()[:2 * n], torch.stack([xc, xc.sum().expand(n)], -1).reshape(-1))
    assert torch.equal(o.cpu()[2 * n:], torch.stack([xc.max().expand(n), xc], -1).reshape(-1))


@triton.jit
def scalar_join_kernel(x, o):
    a = tl.load(x)
    b = tl.load(x + 1)
    j = tl.join(a * 2, b)  # two scalars: a 2-vector
    tl.store(o + tl.arange(0, 2), j)
    p, q = tl.split(j)  # a 2-vector: two scalars
    tl.store(o + 2, q)
    tl.store(o + 3, p)
    tl.store(o + 4 + tl.arange(0, 2), tl.interleave(b, a))
    tl.store(o + 6 + tl.arange(0, 2), tl.join(a, 7.0 + tl.zeros((1,), tl.float32)).reshape(2))


@pytest.mark.parametrize("num_warps", [1, 4])
def test_scalar_join_split(device, num_warps):
    x = torch.tensor([3.0, -5.0], device=device)
    o = torch.zeros(8, device=device)
    scalar_join_kernel[(1,)](x, o, num_warps=num_warps)
    assert o.cpu().tolist() == [6.0, -5.0, -5.0, 6.0, -5.0, 3.0, 3.0, 7.0]


@triton.jit
def cat_kernel(x, o, N: tl.constexpr):
    a = tl.load(x + tl.arange(0, N))
    c = tl.cat(a, a * 10, can_reorder=True)
    tl.store(o + tl.arange(0, 2 * N), c)


@pytest.mark.parametrize("num_warps", [1, 8])
@pytest.mark.parametrize("n", [1, 8, 256])
def test_cat(device, num_warps, n):
    x = torch.arange(1, n + 1, dtype=torch.float32).to(device)
    o = torch.zeros(2 * n, device=device)
    cat_kernel[(1,)](x, o, n, num_warps=num_warps)
    # Triton may reorder; ours keeps the order, which the multiset check and
    # the exact check both accept
    assert torch.equal(o.cpu(), torch.cat([x.cpu(), x.cpu() * 10]))


@triton.jit
def expand_kernel(x, o, N: tl.constexpr):
    v = tl.load(x + tl.arange(0, N))
    a = tl.expand_dims(v, (0,))  # (1, N)
    b = v.expand_dims(-1)  # (N, 1)
    c = tl.expand_dims(tl.sum(v), (0, 1))  # scalar -> (1, 1)
    d = tl.expand_dims(tl.sum(v), (1, -2))  # scalar -> (1, 1), negative axes
    tl.store(o + offsets(N, N), a * 100 + b + c + d)
    e = v[None, :] + v[:, None] * 0
    f = v[None][:, :]
    tl.store(o + N * N + offsets(N, N), e + f)


@pytest.mark.parametrize("num_warps", [1, 8])
def test_expand_dims_axes_and_none(device, num_warps):
    n = 8
    x = torch.arange(n, dtype=torch.float32).to(device)
    o = torch.zeros(2 * n * n, device=device)
    expand_kernel[(1,)](x, o, n, num_warps=num_warps)
    xc = x.cpu()
    s = xc.sum()
    assert torch.equal(o.cpu()[:n * n], (xc[None, :] * 100 + xc[:, None] + 2 * s).reshape(-1))
    assert torch.equal(o.cpu()[n * n:], (2 * xc[None, :]).expand(n, n).reshape(-1))


@triton.jit
def broadcast_kernel(x, o, N: tl.constexpr):
    v = tl.load(x + tl.arange(0, N))
    a, b = tl.broadcast(v[None, :], v[:, None])
    tl.static_assert(a.shape == (N, N) and b.shape == (N, N))
    c, d = tl.broadcast(v, 2.0 + tl.zeros((1,), tl.float32))
    tl.static_assert(d.shape == (N,))
    e, s = tl.broadcast(tl.sum(v), v)  # a scalar is splat
    tl.store(o + offsets(N, N), a * 10 + b)
    tl.store(o + N * N + tl.arange(0, N), c * d + e)


def test_broadcast_pair(device):
    n = 16
    x = torch.arange(n, dtype=torch.float32).to(device)
    o = torch.zeros(n * n + n, device=device)
    broadcast_kernel[(1,)](x, o, n, num_warps=2)
    xc = x.cpu()
    assert torch.equal(o.cpu()[:n * n], (xc[None, :] * 10 + xc[:, None]).reshape(-1))
    assert torch.equal(o.cpu()[n * n:], xc * 2 + xc.sum())


@triton.jit
def arange_like_kernel(o, LO: tl.constexpr, N: tl.constexpr):
    r = tl.arange(LO, LO + N)
    z = tl.zeros_like(r)
    f = tl.full_like(r.to(tl.float32), 0.25)
    tl.store(o + tl.arange(0, N), r + z + f)


@pytest.mark.parametrize("lo", [0, 5, 1000])
def test_arange_start_and_like_fills(device, lo):
    o = torch.zeros(32, device=device)
    arange_like_kernel[(1,)](o, lo, 32)
    assert torch.equal(o.cpu(), torch.arange(lo, lo + 32, dtype=torch.float32) + 0.25)


@triton.jit
def shape_loop_kernel(x, o, R: tl.constexpr, C: tl.constexpr, K):
    acc = tl.zeros((C, R), tl.float32)
    for k in range(K):
        v = tl.load(x + k * R * C + offsets(R, C))
        acc += tl.trans(tl.flip(v, 1)) + tl.reshape(v, C, R)
    tl.store(o + offsets(C, R), acc)


@pytest.mark.parametrize("num_warps", [2, 4])
def test_shape_ops_in_runtime_loop(device, num_warps):
    r, c, k = 8, 16, 3
    x = torch.arange(k * r * c, dtype=torch.float32).to(device)
    o = torch.zeros(r * c, device=device)
    shape_loop_kernel[(1,)](x, o, r, c, k, num_warps=num_warps)
    m = x.cpu().view(k, r, c)
    want = (m.flip(2).transpose(1, 2) + m.reshape(k, c, r)).sum(0)
    assert torch.equal(o.cpu(), want.reshape(-1))


# ------------------------------------------------------------------ errors

@triton.jit
def bad_kernel(x, o, WHICH: tl.constexpr):
    v = tl.load(x + offsets(4, 8))
    w = tl.load(x + tl.arange(0, 8))
    if WHICH == 0:
        r = tl.reshape(v, 4, 4)  # numel
    elif WHICH == 1:
        r = tl.reshape(v, 3, 8)  # not a power of 2
    elif WHICH == 2:
        r = tl.permute(v, 0, 0)  # not a permutation
    elif WHICH == 3:
        r = tl.permute(v, (1, 0, 2))  # too many dims
    elif WHICH == 4:
        r = tl.trans(w)  # 1-D
    elif WHICH == 5:
        r = tl.split(v)  # last dim 8
    elif WHICH == 6:
        r = tl.cat(w, w)  # can_reorder
    elif WHICH == 7:
        r = tl.cat(v, v, can_reorder=True)  # 2-D
    elif WHICH == 8:
        r = tl.flip(v, 2)  # axis
    elif WHICH == 9:
        r = tl.expand_dims(w, (0, 0))  # duplicate
    elif WHICH == 10:
        r = tl.join(v, tl.arange(0, 4).to(tl.float32))  # shapes
    elif WHICH == 11:
        r = tl.join(w, w.to(tl.int32))  # dtypes
    elif WHICH == 12:
        r = tl.reshape(v, 2, "x")  # not an int
    elif WHICH == 13:
        r = tl.reshape(v, 32, can_reoder=True)  # keyword
    elif WHICH == 14:
        r = tl.expand_dims(w, (0, 3))  # axis out of range
    elif WHICH == 17:
        r = tl.sum(tl.sum(tl.sum(tl.join(v, v), 2), 1), 0)  # rank 3
    elif WHICH == 18:
        r = tl.sum(tl.arange(-8, 8), 0)  # negative start
    elif WHICH == 19:
        r = tl.sum(tl.arange(2, 8), 0)  # range 6
    elif WHICH == 20:
        r = tl.sum(tl.reshape(tl.join(tl.join(v, v), tl.join(v, v)), 128), 0)  # join of rank 3
    elif WHICH == 21:
        r = tl.expand_dims(w, (0, -3))  # duplicate after normalisation
    elif WHICH == 15:
        r = tl.flip(tl.sum(w))  # scalar
    else:
        r = tl.reshape(tl.sum(w), 1)  # scalar
    tl.store(o, r)


@pytest.mark.parametrize("which,needle,pattern", [
    (0, "reshape(v, 4, 4)", r"cannot change the number of elements: 32 to 16"),
    (1, "reshape(v, 3, 8)", r"shape element 0 must be a power of 2, got 3"),
    (2, "permute(v, 0, 0)", r"permutation of 0, 1"),
    (3, "permute(v, (1, 0, 2))", r"same length as the input shape"),
    (4, "trans(w)", r"1-dimensional tensor"),
    (5, "split(v)", r"last dim is 2, got block<4x8 x f32>"),
    (6, "cat(w, w)", r"can_reorder=True"),
    (7, "cat(v, v, can_reorder=True)", r"rank-1 tensors"),
    (8, "flip(v, 2)", r"axis 2 is out of range"),
    (9, "expand_dims(w, (0, 0))", r"duplicate axes, normalized axes = \[0, 0\]"),
    (10, "join(v, tl.arange(0, 4)", r"cannot broadcast"),
    (11, "join(w, w.to(tl.int32))", r"join operands must have the same type"),
    (12, 'reshape(v, 2, "x")', r"shape element 1 must be a compile-time integer"),
    (13, "can_reoder=True", r"unexpected keyword argument 'can_reoder'"),
    (14, "expand_dims(w, (0, 3))", r"invalid axis 3. Expected -3 <= axis < 3"),
    (21, "expand_dims(w, (0, -3))", r"normalized axes = \[0, 0\]"),
    (15, "flip(tl.sum(w))", r"flip\(\) expects a block"),
    (16, "reshape(tl.sum(w), 1)", r"reshape\(\) expects a block"),
    (18, "arange(-8, 8)", r"start must be non-negative, got -8"),
    (19, "arange(2, 8)", r"range must be a power of 2, got 6"),
])
def test_shape_errors(which, needle, pattern):
    x = torch.zeros(32)
    assert_compile_error(bad_kernel, (x, x, which), needle=needle, pattern=pattern)


@pytest.mark.parametrize("which,needle,factor,sliced", [
    (17, "join(v, v)", 2.0, True), (20, "join(tl.join(v, v), tl.join(v, v))", 4.0, False)])
def test_rank3_blocks_outside_shape_ops(device, which, needle, factor, sliced):
    """A join's rank-3 result read by a reduction (17): the CUDA lowering
    splits it into slices (unbatch.c).  A join of rank-3 blocks (20): the
    cpu backend runs it; the CUDA lowering holds at most rank 2 in a
    two-operand shape op and says so where the block is made."""
    x = torch.arange(32, dtype=torch.float32).to(device)
    o = torch.zeros(1, device=device)
    if sliced or (device == "cpu" and os.environ.get("MYTRITON_BACKEND") not in ("fiber", "host")):
        bad_kernel[(1,)](x, o, which)
        assert o.item() == factor * x.sum().item()
        return
    assert_compile_error(bad_kernel, (x, o, which), needle=needle,
                         pattern=r"blocks of rank 3 are not supported")


@triton.jit
def unsplat_kernel(x, o):
    one = tl.load(x + tl.arange(0, 1))
    s = tl.reshape(one, ())  # a block of one element becomes a scalar
    t = tl.reshape(tl.reshape(one, 1, 1), [])
    tl.store(o, s * 2.0)
    tl.store(o + 1, t + 1.0)
    tl.store(o + 2 + tl.arange(0, 1), tl.reshape(tl.load(x)[None], 1))


@pytest.mark.parametrize("num_warps", [1, 4])
def test_reshape_to_scalar(device, num_warps):
    x = torch.tensor([2.5], device=device)
    o = torch.zeros(3, device=device)
    unsplat_kernel[(1,)](x, o, num_warps=num_warps)
    assert o.cpu().tolist() == [5.0, 3.5, 2.5]


@triton.jit
def pointer_block_kernel(x, o, R: tl.constexpr, C: tl.constexpr):
    p = x + offsets(R, C)  # a block of pointers moves like any value
    q = tl.trans(p)
    tl.store(o + offsets(C, R), tl.load(q))
    m = tl.flip(offsets(R, C) % 3 == 0, 1)  # and a block of bools
    tl.store(o + R * C + offsets(R, C), m.to(tl.float32))


@pytest.mark.parametrize("num_warps", [1, 4])
def test_pointer_and_bool_blocks(device, num_warps):
    r, c = 8, 16
    x = grid(r, c).to(device)
    o = torch.zeros(2 * r * c, device=device)
    pointer_block_kernel[(1,)](x, o, r, c, num_warps=num_warps)
    m = torch.arange(r * c).view(r, c)
    assert torch.equal(o.cpu()[:r * c], x.cpu().view(r, c).T.reshape(-1))
    assert torch.equal(o.cpu()[r * c:], (m % 3 == 0).flip(1).reshape(-1).float())


@triton.jit
def free_reshape_kernel(x, o, N: tl.constexpr, R: tl.constexpr):
    v = tl.load(x + tl.arange(0, N))
    w = tl.reshape(v, R, N // R)
    tl.store(o + offsets(R, N // R), w)


@pytest.mark.parametrize("num_warps", WARPS)
@pytest.mark.parametrize("n,r", [(1024, 8), (256, 2), (4096, 32)])
def test_free_reshape_moves_no_data(device, num_warps, n, r):
    """Splitting a vector into rows that each warp walks in order leaves
    every element in the thread that loaded it: no shared memory."""
    x = grid(1, n).to(device)
    o = torch.zeros(n, device=device)
    free_reshape_kernel[(1,)](x, o, n, r, num_warps=num_warps)
    assert torch.equal(o.cpu(), x.cpu())
    layout = stages(free_reshape_kernel, x, o, n, r, num_warps=num_warps)["ssa-layout"]
    assert "shared 0 bytes" in layout, layout


@triton.jit
def rank3_kernel(x, y, o, R: tl.constexpr, C: tl.constexpr):
    """Shape ops through blocks of rank 3, which no layout holds: the ops
    that read them compose the index maps."""
    a = tl.load(x + offsets(R, C))
    b = tl.load(y + offsets(R, C))
    n = R * C
    tl.store(o + offsets(R, 2 * C), tl.interleave(a, b))  # join (R, C, 2), reshape
    p, q = tl.split(tl.reshape(a, R, C // 2, 2))  # deinterleave
    tl.store(o + 2 * n + offsets(R, C // 2), p)
    tl.store(o + 2 * n + n // 2 + offsets(R, C // 2), q)
    t = tl.reshape(tl.trans(tl.join(a, b)), R, 2 * C)  # (R, C, 2) -> (R, 2, C)
    tl.store(o + 3 * n + offsets(R, 2 * C), t)
    u, w = tl.split(tl.join(b, a))  # a join undone
    tl.store(o + 5 * n + offsets(R, C), u - w)


@pytest.mark.parametrize("num_warps", WARPS)
@pytest.mark.parametrize("shape", [(4, 8), (16, 32), (2, 2), (32, 64)])
def test_rank3_intermediates(device, num_warps, shape):
    r, c = shape
    n = r * c
    x = grid(r, c).to(device)
    y = (-grid(r, c) - 0.5).to(device)
    o = torch.zeros(6 * n, device=device)
    rank3_kernel[(1,)](x, y, o, r, c, num_warps=num_warps)
    got = o.cpu()
    X, Y = x.cpu().view(r, c), y.cpu().view(r, c)
    assert torch.equal(got[:2 * n], torch.stack([X, Y], -1).reshape(-1))
    assert torch.equal(got[2 * n:2 * n + n // 2], X[:, 0::2].reshape(-1))
    assert torch.equal(got[2 * n + n // 2:3 * n], X[:, 1::2].reshape(-1))
    assert torch.equal(got[3 * n:5 * n], torch.stack([X, Y], -1).transpose(1, 2).reshape(-1))
    assert torch.equal(got[5 * n:], (Y - X).reshape(-1))
