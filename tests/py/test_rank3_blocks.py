"""Blocks of rank 3 (issue 9): batched tl.dot ([B, M, K] x [B, K, N]),
loads and stores through rank-3 pointer blocks, broadcasts, reductions
and argmax along each axis, and ':' past the last dim (Triton's
__getitem__ passes over it).  The cpu backend runs them (its tiles are
loops of any rank).  The CUDA lowering (GPU and fiber backends) holds at
most rank 2 in its layouts outside shape ops: unbatch.c slices values of
rank 3 (and the operands and result of a dot of any rank) into rank-2
ones (a batched dot is B dots), joining and splitting them around shape
ops, and refuses with a located error what it cannot slice (a rank-3
value an if carries), which the cpu backend's compile records where its
CUDA stages would be."""
import os

import pytest
import torch

import mytriton as triton
import mytriton.language as tl

CUDA_LOWERING = os.environ.get("MYTRITON_BACKEND") in ("fiber", "host")


def runs_here(device):
    return device == "cpu" and not CUDA_LOWERING


@triton.jit
def bmm_kernel(q, k, o, B: tl.constexpr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr,
               PREC: tl.constexpr, OUT: tl.constexpr):
    b = tl.arange(0, B)[:, None, None]
    qv = tl.load(q + b * M * K + tl.arange(0, M)[None, :, None] * K + tl.arange(0, K)[None, None, :])
    kv = tl.load(k + b * K * N + tl.arange(0, K)[None, :, None] * N + tl.arange(0, N)[None, None, :])
    r = tl.dot(qv, kv, input_precision=PREC, out_dtype=OUT)
    tl.store(o + b * M * N + tl.arange(0, M)[None, :, None] * N + tl.arange(0, N)[None, None, :], r)


CASES = [(torch.float32, torch.float32, tl.float32, "ieee"),
         (torch.float32, torch.float32, tl.float32, "tf32"),
         (torch.float16, torch.float16, tl.float16, "ieee"),
         (torch.float16, torch.float32, tl.float32, "ieee"),
         (torch.int8, torch.int8, tl.int8, "ieee"),
         (torch.float64, torch.float64, tl.float64, "ieee")]


@pytest.mark.parametrize("B", [1, 4])
@pytest.mark.parametrize("dt, odt, tl_odt, prec", CASES)
def test_batched_dot(device, B, dt, odt, tl_odt, prec):
    M, N, K = 16, 32, 32
    g = torch.Generator().manual_seed(B)
    if dt == torch.int8:
        x = torch.randint(-4, 4, (B, M, K), generator=g, dtype=dt)
        y = torch.randint(-4, 4, (B, K, N), generator=g, dtype=dt)
    else:
        x = torch.randn(B, M, K, generator=g).to(dt)
        y = torch.randn(B, K, N, generator=g).to(dt)
    o = torch.zeros(B, M, N, dtype=odt, device=device)
    args = (x.to(device), y.to(device), o, B, M, N, K, prec, tl_odt)
    k = bmm_kernel[(1,)](*args)
    ref = torch.matmul(x.double(), y.double())
    if dt == torch.int8:
        assert torch.equal(o.cpu(), ref.to(torch.int32).to(torch.int8))
    else:
        tol = {torch.float16: 2e-2, torch.float32: 1e-2 if prec == "tf32" else 1e-4}.get(odt, 1e-12)
        assert torch.allclose(o.cpu().double(), ref, atol=tol * K ** 0.5, rtol=tol)
    # the CUDA lowering's dots are the B slices' (tensor cores where they fit)
    layout = k.asm["ssa-layout"]
    assert " x " in layout and not any(ln.count("x") > 2 and "block<" in ln and
                                       ln.split("block<")[1].split(" ")[0].count("x") == 2
                                       for ln in layout.splitlines())
    assert layout.count(" = dot ") == B


def test_dot_shape_errors_are_tritons():
    @triton.jit
    def mixed_rank(x, o):
        a = tl.load(x + tl.arange(0, 16)[:, None] * 16 + tl.arange(0, 16)[None, :])
        tl.store(o, tl.sum(tl.dot(a[None, :, :], a)))

    @triton.jit
    def inner(x, o):
        a = tl.load(x + tl.arange(0, 16)[:, None] * 32 + tl.arange(0, 32)[None, :])
        tl.store(o, tl.sum(tl.dot(a, a)))

    x, o = torch.zeros(1024), torch.zeros(1)
    with pytest.raises(triton.CompilationError,
                       match=r"input and other must have equal ranks >= 2 \(\[1, 16, 16\] and "
                             r"\[16, 16\]\)"):
        mixed_rank[(1,)](x, o)
    with pytest.raises(triton.CompilationError,
                       match=r"input and other must have equal reduction dimensions "
                             r"\(\[16, 32\] and \[16, 32\]\)"):
        inner[(1,)](x, o)


@triton.jit
def reduce_axes_kernel(x, s0, s1, s2, m1, A: tl.constexpr, B: tl.constexpr, C: tl.constexpr):
    ra, rb, rc = tl.arange(0, A), tl.arange(0, B), tl.arange(0, C)
    v = tl.load(x + ra[:, None, None] * B * C + rb[None, :, None] * C + rc[None, None, :])
    tl.store(s0 + rb[:, None] * C + rc[None, :], tl.sum(v, axis=0))
    tl.store(s1 + ra[:, None] * C + rc[None, :], tl.max(v, axis=1))
    tl.store(s2 + ra[:, None] * B + rb[None, :], tl.min(v, axis=2))
    tl.store(m1 + ra[:, None] * C + rc[None, :], tl.argmax(v, axis=1))


@triton.jit
def reduce_inner_axes_kernel(x, s1, s2, k1, A: tl.constexpr, B: tl.constexpr,
                             C: tl.constexpr):
    ra, rb, rc = tl.arange(0, A), tl.arange(0, B), tl.arange(0, C)
    v = tl.load(x + ra[:, None, None] * B * C + rb[None, :, None] * C + rc[None, None, :])
    tl.store(s1 + ra[:, None] * C + rc[None, :], tl.max(v, axis=1))
    tl.store(s2 + ra[:, None] * B + rb[None, :], tl.sum(v, axis=-1))
    # keep_dims: the reduction's rows go back into rank 3
    w = v - tl.min(v, axis=2, keep_dims=True)
    tl.store(k1 + ra[:, None] * C + rc[None, :], tl.sum(w, axis=1))


@pytest.mark.parametrize("A", [1, 4])
def test_reductions_along_inner_axes(device, A):
    """Reductions along dims 1 and 2 run on every backend: on the CUDA
    lowering one reduction per slice, its rows assembled where a rank-2
    op reads them."""
    B, C = 8, 16
    x = torch.randn(A, B, C)
    s1, s2, k1 = torch.zeros(A, C), torch.zeros(A, B), torch.zeros(A, C)
    xd, s1d, s2d, k1d = (t.to(device) for t in (x, s1, s2, k1))
    reduce_inner_axes_kernel[(1,)](xd, s1d, s2d, k1d, A, B, C)
    assert torch.equal(s1d.cpu(), x.amax(1))
    assert torch.allclose(s2d.cpu(), x.sum(2), atol=1e-5)
    assert torch.allclose(k1d.cpu(), (x - x.amin(2, keepdim=True)).sum(1), atol=1e-4)


def test_reductions_along_each_axis(device):
    """Every axis, argmax (a tl.reduce with a combine region) too: on the
    CUDA lowering the sum along dim 0 adds the slices, argmax along dim 1
    is one combine per slice."""
    A, B, C = 4, 8, 16
    x = torch.randn(A, B, C)
    s0, s1, s2 = torch.zeros(B, C), torch.zeros(A, C), torch.zeros(A, B)
    m1 = torch.zeros(A, C, dtype=torch.int32)
    outs = [t.to(device) for t in (s0, s1, s2, m1)]
    reduce_axes_kernel[(1,)](x.to(device), *outs, A, B, C)
    s0, s1, s2, m1 = (t.cpu() for t in outs)
    assert torch.allclose(s0, x.sum(0), atol=1e-5)
    assert torch.equal(s1, x.amax(1))
    assert torch.equal(s2, x.amin(2))
    assert torch.equal(m1, x.argmax(1).to(torch.int32))


@triton.jit
def _max_abs_first(a, b):
    # a user's combine: the larger magnitude, the left one on ties
    return tl.where(tl.abs(b) > tl.abs(a), b, a)


@triton.jit
def reduce_dim0_kernel(x, amax, amin, big, A: tl.constexpr, B: tl.constexpr, C: tl.constexpr):
    ra, rb, rc = tl.arange(0, A), tl.arange(0, B), tl.arange(0, C)
    v = tl.load(x + ra[:, None, None] * B * C + rb[None, :, None] * C + rc[None, None, :])
    o = rb[:, None] * C + rc[None, :]
    tl.store(amax + o, tl.argmax(v, axis=0))
    tl.store(amin + o, tl.argmin(v, axis=0, tie_break_left=True))
    tl.store(big + o, tl.reduce(v, 0, _max_abs_first))


def test_combine_reductions_along_the_batch_dim(device):
    """argmax, argmin and a user's tl.reduce along dim 0: on the CUDA
    lowering the slices folded in order through the combine (test_core's
    test_reduce of rank 3 with axis=0); ties go to the first index."""
    A, B, C = 4, 8, 16
    x = torch.randint(-3, 4, (A, B, C)).float()  # small integers: ties
    outs = [torch.zeros(B, C, dtype=torch.int32), torch.zeros(B, C, dtype=torch.int32),
            torch.zeros(B, C)]
    outs = [t.to(device) for t in outs]
    reduce_dim0_kernel[(1,)](x.to(device), *outs, A, B, C)
    amax, amin, big = (t.cpu() for t in outs)
    first = lambda hit: hit.int().argmax(0).to(torch.int32)  # first index where hit
    assert torch.equal(amax, first(x == x.amax(0)))
    assert torch.equal(amin, first(x == x.amin(0)))
    want = x.gather(0, first(x.abs() == x.abs().amax(0)).long()[None])[0]
    assert torch.equal(big, want)


@triton.jit
def _mul(a, b):
    return a * b


@triton.jit
def scan3_kernel(x, y0, y1, y2, y3, A: tl.constexpr, B: tl.constexpr, C: tl.constexpr):
    offs = (tl.arange(0, A)[:, None, None] * B * C + tl.arange(0, B)[None, :, None] * C +
            tl.arange(0, C)[None, None, :])
    v = tl.load(x + offs)
    tl.store(y0 + offs, tl.cumsum(v, axis=0))
    tl.store(y1 + offs, tl.cumsum(v, axis=1, reverse=True))
    tl.store(y2 + offs, tl.cumprod(v, axis=0, reverse=True))
    tl.store(y3 + offs, tl.associative_scan(v, 2, _mul))


def test_scans_of_rank3(device):
    """Scans along every dim: on the CUDA lowering a scan along dim 1 or 2
    is one per slice (tl.associative_scan's combine copied), along dim 0
    the running add or multiply of the slices."""
    x = (torch.rand(4, 8, 16) + 0.5)
    ys = [torch.zeros(4, 8, 16, device=device) for _ in range(4)]
    scan3_kernel[(1,)](x.to(device), *ys, 4, 8, 16)
    y0, y1, y2, y3 = (y.cpu() for y in ys)
    assert torch.allclose(y0, x.cumsum(0), rtol=1e-5)
    assert torch.allclose(y1, x.flip(1).cumsum(1).flip(1), rtol=1e-5)
    assert torch.allclose(y2, x.flip(0).cumprod(0).flip(0), rtol=1e-5)
    assert torch.allclose(y3, x.cumprod(2), rtol=1e-4)


@triton.jit
def flip3_kernel(x, y, A: tl.constexpr, B: tl.constexpr, C: tl.constexpr):
    offs = (tl.arange(0, A)[:, None, None] * B * C + tl.arange(0, B)[None, :, None] * C +
            tl.arange(0, C)[None, None, :])
    tl.store(y + offs, tl.flip(tl.load(x + offs), 0))


def test_flip_of_rank3(device):
    """A shape op between sliced ops: the CUDA lowering keeps the flip's
    rank-3 operand whole, so the loaded slices are joined for it and its
    result is split again for the sliced store (unbatch.c); the cpu
    backend runs it as it is."""
    x = torch.randn(2, 4, 8)
    y = torch.zeros(2, 4, 8, device=device)
    flip3_kernel[(1,)](x.to(device), y, 2, 4, 8)
    assert torch.equal(y.cpu(), x.flip(0))


@triton.jit
def if_rank3_kernel(x, y, neg, A: tl.constexpr, B: tl.constexpr, C: tl.constexpr):
    offs = (tl.arange(0, A)[:, None, None] * B * C + tl.arange(0, B)[None, :, None] * C +
            tl.arange(0, C)[None, None, :])
    v = tl.load(x + offs)
    if neg:
        v = -v
    tl.store(y + offs, v)


def test_if_carrying_rank3(device):
    """A rank-3 value an if carries runs on the cpu backend; the CUDA
    lowering does not slice it, so it refuses the kernel at the if, all
    or nothing, and writes nothing."""
    x = torch.randn(2, 4, 8)
    y = torch.zeros(2, 4, 8, device=device)
    if not runs_here(device):
        # located at the if, and naming it
        with pytest.raises(triton.CompilationError,
                           match=r"test_rank3_blocks.py:\d+:5: error: blocks of rank 3 are not "
                                 r"supported \(at most 2\): the CUDA lowering cannot slice this "
                                 r"if into blocks of rank 2\n    if neg:"):
            if_rank3_kernel[(1,)](x.to(device), y, 3, 2, 4, 8)
        assert not y.any()
        return
    if_rank3_kernel[(1,)](x, y, 3, 2, 4, 8)  # neg = 3: a runtime i32, not the constexpr 1
    assert torch.equal(y, -x)


def test_cpu_compile_records_the_cuda_refusal():
    if CUDA_LOWERING:
        pytest.skip("the cpu backend's compile")
    k = if_rank3_kernel[(1,)](torch.zeros(2, 4, 8), torch.zeros(2, 4, 8), 3, 2, 4, 8)
    assert "mt_cpu" in k.asm["cpu"] or k.asm["cpu"]
    with pytest.raises(triton.CompilationError,
                       match=r"runs on the cpu backend only; the CUDA lowering refuses it:\n"
                             r".*test_rank3_blocks.py:\d+:\d+: error: blocks of rank 3 are not "
                             r"supported"):
        k.asm["cuda"]
    assert "cuda" not in k.asm and "cpu" in k.asm and "ssa-opt" in dict(k.asm)


@triton.jit
def bmm_loop_kernel(q, k, o, K, BB: tl.constexpr, M: tl.constexpr, N: tl.constexpr,
                    BK: tl.constexpr):
    rb = tl.program_id(0) * BB + tl.arange(0, BB)
    rm, rn, rk = tl.arange(0, M), tl.arange(0, N), tl.arange(0, BK)
    acc = tl.zeros((BB, M, N), dtype=tl.float32)
    for k0 in range(0, K, BK):
        qv = tl.load(q + rb[:, None, None] * M * K + rm[None, :, None] * K + (k0 + rk)[None, None, :])
        kv = tl.load(k + rb[:, None, None] * K * N + (k0 + rk)[None, :, None] * N + rn[None, None, :])
        acc += tl.dot(qv, kv)
    tl.store(o + rb[:, None, None] * M * N + rm[None, :, None] * N + rn[None, None, :], acc)


@pytest.mark.parametrize("BB", [1, 2, 4])
def test_batched_dot_k_loop(device, BB):
    """A rank-3 accumulator carried through a K loop: on the CUDA lowering
    the loop carries its BB slices."""
    B, M, N, K, BK = 4, 32, 32, 48, 16
    g = torch.Generator().manual_seed(BB)
    x = torch.randn(B, M, K, generator=g).half()
    y = torch.randn(B, K, N, generator=g).half()
    o = torch.zeros(B, M, N, device=device)
    k = bmm_loop_kernel[(B // BB,)](x.to(device), y.to(device), o, K, BB, M, N, BK)
    ref = torch.bmm(x.double(), y.double())
    assert torch.allclose(o.cpu().double(), ref, atol=1e-2, rtol=1e-3)
    if CUDA_LOWERING or device == "cuda":
        layout = k.asm["ssa-layout"]
        assert layout.count(" = dot ") == BB and "for " in layout


@triton.jit
def expand_loaded_kernel(x, z, WRITE: tl.constexpr, S: tl.constexpr):
    r = tl.arange(0, S)
    v = tl.load(x + r[:, None] * S + r[None, :])
    if WRITE:  # the rows of v must be what was loaded, before this store
        tl.store(x + r[:, None] * S + r[None, :], v + 1)
    tl.store(z + r[:, None, None] * S * S + r[None, :, None] * S + r[None, None, :],
             v[:, :, None])


@pytest.mark.parametrize("write", [False, True], ids=["load", "load-store"])
def test_expand_a_loaded_block(device, write):
    """test_core's x[:, :, None] of a loaded block, broadcast into a rank-3
    store: the CUDA lowering needs each row of x and loads it again from
    x's row pointers, which is only the same value while nothing has
    written memory since; after a store it refuses the kernel instead
    (all or nothing), and the cpu backend runs it."""
    S = 8
    x = torch.randn(S, S)
    z = torch.zeros(S, S, S, device=device)
    xd = x.clone().to(device)
    if write and not runs_here(device):
        with pytest.raises(triton.CompilationError, match="blocks of rank 3 are not supported"):
            expand_loaded_kernel[(1,)](xd, z, write, S)
        assert not z.any() and torch.equal(xd.cpu(), x)
        return
    expand_loaded_kernel[(1,)](xd, z, write, S)
    assert torch.equal(z.cpu(), x[:, :, None].expand(S, S, S))
    assert torch.equal(xd.cpu(), x + 1 if write else x)


@triton.jit
def chained_reductions_kernel(x, out, A: tl.constexpr, B: tl.constexpr, C: tl.constexpr,
                              D: tl.constexpr, E: tl.constexpr):
    # test_core's test_chained_reductions: a rank-5 block, permuted and
    # reduced three times
    idx = tl.arange(0, A * B * C * D * E).reshape(A, B, C, D, E)
    v = tl.permute(tl.load(x + idx), [2, 1, 0, 3, 4])
    r = tl.sum(tl.sum(tl.sum(v, 3), 1), 0)
    tl.store(out + tl.arange(0, r.shape[0] * r.shape[1]).reshape(r.shape), r)


def test_blocks_up_to_rank_8(device):
    """A rank-5 block permuted and reduced three times: the CUDA lowering
    splits the permuted block into its 64 slices of [2, 2], reduces each
    along dim 3 (rows stacked into the rank-4 result's slices), then folds
    slices along dims 1 and 0 (unbatch.c)."""
    shape = (4, 2, 8, 2, 2)
    x = torch.randint(0, 100, shape, dtype=torch.int32)
    out = torch.zeros(4 * 2, dtype=torch.int32)
    args = (x.to(device), out.to(device), *shape)
    chained_reductions_kernel[(1,)](*args)
    want = x.permute(2, 1, 0, 3, 4).sum(3).sum(1).sum(0)
    assert torch.equal(args[1].cpu().view(4, 2), want)


@pytest.mark.parametrize("axis", [0, 1, 2, 3])
@pytest.mark.parametrize("indexed", [False, True])
def test_reductions_of_rank4_along_each_axis(device, axis, indexed):
    """Rank-4 offsets from a reshape, or from aranges indexed with None (the
    CUDA lowering reshapes the expand_dims into rank 4 whole and adds
    their slices with the broadcast dims read at slice 0)."""
    x = torch.randn(2, 4, 8, 16)
    o = torch.zeros(x.sum(axis).shape, device=device)
    reduce4_kernel[(1,)](x.to(device), o, axis, INDEXED=indexed)
    torch.testing.assert_close(o.cpu(), x.sum(axis), rtol=1e-5, atol=1e-5)
    m = torch.zeros_like(o)
    reduce4_kernel[(1,)](x.to(device), m, axis, MAX=True, INDEXED=indexed)
    assert torch.equal(m.cpu(), x.amax(axis))


@triton.jit
def reduce4_kernel(x, o, AXIS: tl.constexpr, MAX: tl.constexpr = False,
                   INDEXED: tl.constexpr = False):
    if INDEXED:
        offs = (tl.arange(0, 2)[:, None, None, None] * 512 + tl.arange(0, 4)[None, :, None, None] * 128
                + tl.arange(0, 8)[None, None, :, None] * 16 + tl.arange(0, 16)[None, None, None, :])
    else:
        offs = tl.arange(0, 1024).reshape(2, 4, 8, 16)
    v = tl.load(x + offs)
    r = tl.max(v, AXIS) if MAX else tl.sum(v, AXIS)
    tl.store(o + tl.arange(0, r.shape[0] * r.shape[1] * r.shape[2]).reshape(r.shape), r)


@triton.jit
def dot_nd_kernel(X, Y, Z, RANK: tl.constexpr, M: tl.constexpr):
    # test_core's test_dot_multidim: batch dims flattened, as core.dot does
    x = tl.load(X + tl.arange(0, (M * M) << (RANK - 2))).reshape([2] * (RANK - 2) + [M, M])
    y = tl.load(Y + tl.arange(0, (M * M) << (RANK - 2))).reshape([2] * (RANK - 2) + [M, M])
    z = tl.dot(x, tl.trans(y), x * 0.5)
    tl.store(Z + tl.arange(0, (M * M) << (RANK - 2)), z.reshape([(M * M) << (RANK - 2)]))


@pytest.mark.parametrize("rank", [3, 4, 5, 6])
def test_dot_of_rank_3_and_up(device, rank):
    """Batch dims from a reshape: the CUDA lowering splits the whole
    operands into their 2^(rank-2) slices, dots each, and joins the
    slices for the reshape that reads the result (unbatch.c)."""
    M = 16
    shape = (2,) * (rank - 2) + (M, M)
    a = torch.randint(-4, 5, shape).float()
    b = torch.randint(-4, 5, shape).float()
    z = torch.zeros(shape)
    args = (a.to(device), b.to(device), z.to(device), rank, M)
    dot_nd_kernel[(1,)](*args)
    assert torch.equal(args[2].cpu(), a @ b.transpose(-1, -2) + a * 0.5)


def test_dot_batch_shapes_must_match():
    @triton.jit
    def mismatch(x, o):
        a = tl.load(x + tl.arange(0, 2048)).reshape(2, 4, 16, 16)
        b = tl.load(x + tl.arange(0, 2048)).reshape(4, 2, 16, 16)
        tl.store(o + tl.arange(0, 2048), tl.dot(a, b).reshape(2048))

    x = torch.zeros(2048)
    with pytest.raises(triton.CompilationError,
                       match=r"input and other must have equal batch shapes"):
        mismatch[(1,)](x, x)
