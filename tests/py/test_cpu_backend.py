"""The cpu backend (issue 18): selection, and results the same as the fiber
backend's for what it lowers its own way (fused chains, lane reductions,
the dot micro-kernel, in-place accumulators, loop order, atomics across
workers).  The rest of the suite runs on it under MYTRITON_BACKEND=cpu
(`make test-py-cpu`)."""
import pytest
import torch

import mytriton as triton
import mytriton.language as tl


@triton.jit
def axpb_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=1.0)
    tl.store(out_ptr + offs, tl.exp(x) * 2.0 - x / 3.0, mask=mask)


def run_both(kernel, grid, make_args, **kw):
    """The kernel on both CPU backends from equal inputs: their outputs."""
    outs = []
    for be in ("cpu", "fiber"):
        args = make_args()
        k = kernel[grid](*args, backend=be, **kw)
        assert k.backend == ("cpu" if be == "cpu" else "host")
        outs.append(args)
    return outs


def test_selection_and_stage(monkeypatch):
    monkeypatch.delenv("MYTRITON_BACKEND", raising=False)
    x = torch.randn(100)
    out = torch.empty(100)
    k = axpb_kernel[(1,)](x, out, 100, BLOCK=128, backend="cpu")
    assert k.backend == "cpu" and "mt_cpu_kernel" in k.asm["cpu"]
    assert axpb_kernel[(1,)](x, out, 100, BLOCK=128).backend == "cpu"  # CPU tensors' default
    monkeypatch.setenv("MYTRITON_BACKEND", "cpu")
    assert axpb_kernel[(1,)](x, out, 100, BLOCK=128).backend == "cpu"
    assert axpb_kernel[(1,)](x, out, 100, BLOCK=128, backend="fiber").backend == "host"
    for fiber in ("fiber", "host"):
        monkeypatch.setenv("MYTRITON_BACKEND", fiber)
        k = axpb_kernel[(1,)](x, out, 100, BLOCK=128)
        assert k.backend == "host" and "cpu" not in k.asm
    # checked mode is the fiber backend's: it takes CPU tensors there by
    # default (MYTRITON_BACKEND=cpu says the default), and refuses a
    # launch's explicit cpu backend
    for env in (None, "cpu"):
        if env is None:
            monkeypatch.delenv("MYTRITON_BACKEND")
        else:
            monkeypatch.setenv("MYTRITON_BACKEND", env)
        assert axpb_kernel[(1,)](x, out, 100, BLOCK=128, checked=True).backend == "host"
    with pytest.raises(ValueError, match="checked mode runs on the host backend only"):
        axpb_kernel[(1,)](x, out, 100, BLOCK=128, checked=True, backend="cpu")
    with pytest.raises(ValueError, match="backend must be"):
        axpb_kernel[(1,)](x, out, 100, BLOCK=128, backend="gpu")


def test_fused_chain_matches_fiber():
    torch.manual_seed(0)
    src = torch.randn(1000)
    a, b = run_both(axpb_kernel, (8,), lambda: (src.clone(), torch.full((1024,), -5.0), 1000),
                    BLOCK=128)
    torch.testing.assert_close(a[1], b[1], rtol=2e-6, atol=0)
    assert torch.all(a[1][1000:] == -5.0)  # masked off: never written


@triton.jit
def row_stats_kernel(x_ptr, out_ptr, N: tl.constexpr, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * N + cols, mask=cols < N, other=0.0)
    tl.store(out_ptr + row * 4 + 0, tl.sum(x, axis=0))
    tl.store(out_ptr + row * 4 + 1, tl.max(x, axis=0))
    tl.store(out_ptr + row * 4 + 2, tl.argmin(x, axis=0).to(tl.float32))
    tl.store(out_ptr + row * 4 + 3, tl.sum(tl.cumsum(x, axis=0), axis=0))


@pytest.mark.parametrize("n", [7, 64, 100, 1000])
def test_reductions_match_fiber(n):
    torch.manual_seed(n)
    src = torch.randn(5, n)
    a, b = run_both(row_stats_kernel, (5,), lambda: (src.clone(), torch.zeros(20)), N=n,
                    BLOCK=triton.next_power_of_2(n))
    # lane partials against the fiber backend's tree: reassociation only
    torch.testing.assert_close(a[1], b[1], rtol=1e-5, atol=1e-4)
    pad = torch.zeros(5, triton.next_power_of_2(n))  # the masked-off lanes load 0.0
    pad[:, :n] = src
    ref = torch.stack([pad.sum(1), pad.max(1).values, pad.argmin(1).float(),
                       pad.cumsum(1).sum(1)], 1).flatten()
    torch.testing.assert_close(a[1], ref, rtol=1e-4, atol=1e-3)


@triton.jit
def mm_kernel(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr,
              BK: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :],
                    mask=(rm[:, None] < M) & ((k + rk)[None, :] < K), other=0.0)
        b = tl.load(b_ptr + (k + rk)[:, None] * N + rn[None, :],
                    mask=((k + rk)[:, None] < K) & (rn[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc, input_precision="ieee")
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc,
             mask=(rm[:, None] < M) & (rn[None, :] < N))


@pytest.mark.parametrize("shape,tile", [((64, 64, 64), (32, 64, 16)),
                                        ((37, 45, 29), (16, 32, 16)),
                                        ((20, 17, 9), (16, 16, 16))])
def test_dot_any_shape_matches_fiber(shape, tile):
    M, N, K = shape
    BM, BN, BK = tile
    torch.manual_seed(M)
    a, b = torch.randn(M, K), torch.randn(K, N)
    grid = (triton.cdiv(M, BM), triton.cdiv(N, BN))
    x, y = run_both(mm_kernel, grid, lambda: (a, b, torch.zeros(M, N), M, N, K), BM=BM, BN=BN,
                    BK=BK)
    # one FMA per k in order on both; the fiber backend's tiles may group
    # differently, so within a few ulp rather than bit for bit
    torch.testing.assert_close(x[2], y[2], rtol=1e-5, atol=1e-5)
    torch.testing.assert_close(x[2], a @ b, rtol=1e-4, atol=1e-4)


@triton.jit
def view_acc_kernel(a_ptr, b_ptr, x_ptr, out_ptr, out2_ptr):
    r = tl.arange(0, 16)
    a = tl.load(a_ptr + r[:, None] * 16 + r[None, :])
    b = tl.load(b_ptr + r[:, None] * 16 + r[None, :])
    x = tl.load(x_ptr + tl.arange(0, 256))
    acc = tl.reshape(x, (16, 16))  # a view of x's tile: the dot must not write into it
    d = tl.dot(a, b, acc, input_precision="ieee")
    tl.store(out_ptr + r[:, None] * 16 + r[None, :], d)
    tl.store(out2_ptr + tl.arange(0, 256), x)


def test_dot_accumulator_view_is_not_overwritten():
    a, b, x = torch.randn(16, 16), torch.randn(16, 16), torch.randn(256)
    out, out2 = torch.empty(16, 16), torch.empty(256)
    view_acc_kernel[(1,)](a, b, x, out, out2, backend="cpu")
    torch.testing.assert_close(out, a @ b + x.reshape(16, 16), rtol=1e-5, atol=1e-5)
    assert torch.equal(out2, x)


@triton.jit
def transpose_kernel(x_ptr, out_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    x = tl.load(x_ptr + rm[:, None] * N + rn[None, :], mask=mask)
    tl.store(out_ptr + rn[None, :] * M + rm[:, None], x, mask=mask)


def test_transposed_store():
    x = torch.randn(70, 50)
    out = torch.full((50, 70), -1.0)
    transpose_kernel[(3, 2)](x, out, 70, 50, BM=32, BN=32, backend="cpu")
    assert torch.equal(out, x.t())


@triton.jit
def count_kernel(counter_ptr, hist_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.atomic_add(counter_ptr, 1)
    tl.atomic_add(hist_ptr + offs % 4, 1.0)
    tl.atomic_max(counter_ptr + 1, tl.program_id(0))


def test_atomics_are_atomic_across_workers():
    counter = torch.zeros(2, dtype=torch.int32)
    hist = torch.zeros(4)
    count_kernel[(3000,)](counter, hist, BLOCK=64, backend="cpu")
    assert counter.tolist() == [3000, 2999]
    assert hist.tolist() == [3000 * 16.0] * 4


@triton.jit
def carried_kernel(out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    a = tl.zeros([BLOCK], tl.float32)
    b = tl.full([BLOCK], 1.0, tl.float32)
    i = 0
    while i < n:
        a, b = b, a + b  # the yields swap: a parallel copy
        i += 1
    if n % 2 == 0:
        a = a * 2.0
    tl.store(out_ptr + offs, a)


def test_carried_tiles_swap():
    outs = run_both(carried_kernel, (1,), lambda: (torch.zeros(16), 10), BLOCK=16)
    assert outs[0][0].tolist() == [110.0] * 16 == outs[1][0].tolist()


# ---- loads read in their readers' loops (fused) and the stores between ----

@triton.jit
def shift_kernel(p, n, SHIFT: tl.constexpr, BLOCK: tl.constexpr):
    # one program moves a block within the same memory: the whole block is
    # read before any of it is written
    offs = tl.arange(0, BLOCK)
    x = tl.load(p + offs + SHIFT, mask=offs < n)
    tl.store(p + offs, x * 2.0, mask=offs < n)


@pytest.mark.parametrize("shift", [-1, -5, 0, 1, 5])
@pytest.mark.parametrize("n", [64, 61])
def test_fused_load_then_store_to_the_same_memory(shift, n):
    # a store over the memory its own loop would read through a fused load:
    # a shift towards higher addresses must not read what it just wrote
    torch.manual_seed(0)
    src = torch.randn(80)
    base = 8  # room for the negative shifts

    def make():
        buf = src.clone()
        return buf[base:], n

    outs = run_both(shift_kernel, (1,), make, SHIFT=shift, BLOCK=64)
    want = src.clone()
    want[base:base + n] = src[base + shift:base + shift + n] * 2.0
    for args in outs:
        full = torch.cat([src[:base], args[0]])
        assert torch.equal(full, want)


@triton.jit
def store_between_kernel(p, q, r, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(p + offs)
    tl.store(q + offs, x * 3.0)      # q may be p: x holds what p held before
    tl.store(r + offs, x + 1.0)


def test_store_between_a_load_and_its_reader():
    src = torch.arange(32, dtype=torch.float32)
    for be in ("cpu", "fiber"):
        a, r = src.clone(), torch.empty(32)
        store_between_kernel[(1,)](a, a, r, BLOCK=32, backend=be)
        assert torch.equal(a, src * 3.0) and torch.equal(r, src + 1.0), be
        a, b, r = src.clone(), torch.empty(32), torch.empty(32)
        store_between_kernel[(1,)](a, b, r, BLOCK=32, backend=be)
        assert torch.equal(b, src * 3.0) and torch.equal(r, src + 1.0), be


@triton.jit
def atomic_between_kernel(p, r, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(p + offs)
    tl.atomic_add(p + offs, 10.0)
    tl.store(r + offs, x)


@triton.jit
def loop_store_kernel(p, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(p + offs)
    for i in range(3):
        tl.store(p + offs, x + 1.0)  # x read in the loop: the value before it


def test_write_between_a_load_and_its_reader_in_loops_and_atomics():
    src = torch.arange(16, dtype=torch.float32)
    for be in ("cpu", "fiber"):
        a, r = src.clone(), torch.empty(16)
        atomic_between_kernel[(1,)](a, r, BLOCK=16, backend=be)
        assert torch.equal(r, src) and torch.equal(a, src + 10.0), be
        a = src.clone()
        loop_store_kernel[(1,)](a, BLOCK=16, backend=be)
        assert torch.equal(a, src + 1.0), be


@triton.jit
def layer_norm_kernel(X, Y, W, B, stride, N, eps, BLOCK: tl.constexpr):
    # tutorial 05's forward: loads fused into the in-place accumulators and
    # into the masked store (Y may be X)
    row = tl.program_id(0)
    Y += row * stride
    X += row * stride
    _mean = tl.zeros([BLOCK], dtype=tl.float32)
    for off in range(0, N, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        _mean += tl.load(X + cols, mask=cols < N, other=0.).to(tl.float32)
    mean = tl.sum(_mean, axis=0) / N
    _var = tl.zeros([BLOCK], dtype=tl.float32)
    for off in range(0, N, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        x = tl.load(X + cols, mask=cols < N, other=0.).to(tl.float32)
        x = tl.where(cols < N, x - mean, 0.)
        _var += x * x
    rstd = 1 / tl.sqrt(tl.sum(_var, axis=0) / N + eps)
    for off in range(0, N, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        mask = cols < N
        w = tl.load(W + cols, mask=mask)
        b = tl.load(B + cols, mask=mask)
        x = tl.load(X + cols, mask=mask, other=0.).to(tl.float32)
        tl.store(Y + cols, (x - mean) * rstd * w + b, mask=mask)


@pytest.mark.parametrize("n", [256, 300])
@pytest.mark.parametrize("in_place", [False, True])
def test_layer_norm_fused_loads(n, in_place):
    torch.manual_seed(0)
    x, w, b = torch.randn(6, n), torch.rand(n), torch.rand(n)
    want = torch.nn.functional.layer_norm(x, (n,), w, b, 1e-5)
    for be in ("cpu", "fiber"):
        xi = x.clone()
        y = xi if in_place else torch.full((6, n), 7.0)
        layer_norm_kernel[(6,)](xi, y, w, b, n, n, 1e-5, BLOCK=128, backend=be)
        torch.testing.assert_close(y, want, rtol=1e-5, atol=1e-5)
        if not in_place:
            assert torch.equal(xi, x)
