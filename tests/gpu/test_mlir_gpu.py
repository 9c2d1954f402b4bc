"""The GPU check of the MLIR backend (issue 12): every kernel here runs
with backend=cuda and backend=mlir on CUDA tensors and must give the same
result as torch.  The GPU machine has no MLIR tools: `make mlir-ptx-cache`
(run where mlir-opt, mlir-translate and llc are) lowers every kernel's
module into build/mlir-cache, and tests/gpu/mlir_check.sh runs this file
there with MYTRITON_CACHE_DIR pointing at it (the backend keys the PTX by
the module text and arch, so a hit needs no tool).

    python3 tests/gpu/test_mlir_gpu.py --fill   # fill the cache (no GPU)
    python3 -m pytest tests/gpu/test_mlir_gpu.py  # on the GPU
"""
import os
import sys

import mytriton as triton
import mytriton.language as tl


@triton.jit
def add_kernel(x, y, out, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    a = tl.load(x + offs, mask=mask, other=0.0)
    b = tl.load(y + offs, mask=mask, other=0.0)
    tl.store(out + offs, a + b, mask=mask)


@triton.jit
def copy_kernel(x, out, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out + offs, tl.load(x + offs, mask=mask), mask=mask)


@triton.jit
def softmax_kernel(x, out, n, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < n
    v = tl.load(x + row * n + offs, mask=mask, other=-float("inf"))
    e = tl.exp(v - tl.max(v, axis=0))
    tl.store(out + row * n + offs, e / tl.sum(e, axis=0), mask=mask)


@triton.jit
def loop_rank2_kernel(a, out, M, N, K, BM: tl.constexpr, BN: tl.constexpr):
    r = tl.program_id(0) * BM + tl.arange(0, BM)
    c = tl.arange(0, BN)
    offs = r[:, None] * N + c[None, :]
    mask = (r[:, None] < M) & (c[None, :] < N)
    acc = tl.zeros((BM, BN), tl.float32)
    for k in range(K):
        acc += tl.load(a + k * M * N + offs, mask=mask, other=0.0)
    tl.store(out + offs, acc, mask=mask)
    tl.store(out + M * N + r, tl.sum(acc, axis=1), mask=r < M)


@triton.jit
def math_kernel(x, out, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    v = tl.load(x + offs, mask=mask, other=1.0)
    w = tl.where(v > 0, tl.sqrt(v), tl.abs(v) * 2.0)
    i = v.to(tl.int32) * 3 + offs
    tl.store(out + offs, w + tl.floor(v) + i.to(tl.float32) + tl.minimum(v, 0.5), mask=mask)


@triton.jit
def matmul_kernel(a, b, c, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    ap = a + rm[:, None] * K + rk[None, :]
    bp = b + rk[:, None] * N + rn[None, :]
    acc = tl.zeros((BM, BN), tl.float32)
    for k in range(0, K, BK):
        x = tl.load(ap, mask=(rm[:, None] < M) & (rk[None, :] + k < K), other=0.0)
        y = tl.load(bp, mask=(rk[:, None] + k < K) & (rn[None, :] < N), other=0.0)
        acc += tl.dot(x, y)
        ap += BK
        bp += BK * N
    tl.store(c + rm[:, None] * N + rn[None, :], acc, mask=(rm[:, None] < M) & (rn[None, :] < N))


@triton.jit
def shapes_while_kernel(x, y, out, BLOCK: tl.constexpr):
    o = tl.arange(0, BLOCK)
    a = tl.load(x + o)
    b = tl.load(y + o)
    tl.store(out + o, tl.flip(a, 0))
    t = tl.reshape(a, (8, BLOCK // 8))
    r = tl.arange(0, 8)[:, None] * (BLOCK // 8) + tl.arange(0, BLOCK // 8)[None, :]
    tl.store(out + BLOCK + r, tl.trans(tl.trans(t)))
    tl.store(out + 2 * BLOCK + tl.arange(0, 2 * BLOCK), tl.cat(a, b, can_reorder=True))
    n = 0
    v = a
    while n < 3:
        v = v * 0.5 + 1.0
        n += 1
    tl.store(out + 4 * BLOCK + o, v)


@triton.jit
def dot_kernel(a, b, c, out, N: tl.constexpr, PREC: tl.constexpr):
    i = tl.arange(0, N)
    offs = i[:, None] * N + i[None, :]
    acc = tl.dot(tl.load(a + offs), tl.load(b + offs), tl.load(c + offs), input_precision=PREC)
    tl.store(out + offs, acc)


@triton.jit
def atomics_kernel(x, sums, maxes, old, n, BLOCK: tl.constexpr):
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = o < n
    tl.atomic_add(sums + (o % 4), tl.load(x + o, mask=m, other=0.0), mask=m)
    tl.store(old + o, tl.atomic_max(maxes + (o % 8), o, mask=m), mask=m)


def _cases(torch, device):
    """(name, kernel, args, grid, constexprs, the checked args' indices, their
    references, tolerance) per case."""
    g = torch.Generator().manual_seed(0)
    n = 1000
    x = torch.rand(n, generator=g).to(device) * 4 - 2
    y = torch.rand(n, generator=g).to(device)
    rows = torch.randn(5, 700, generator=g).to(device)
    M, N, K = 37, 29, 3
    a = torch.randn(K, M, N, generator=g).to(device)
    out = lambda *s: torch.full(s, float("nan"), device=device)
    i = (x.to(torch.int32) * 3 + torch.arange(n, device=device, dtype=torch.int32)).float()
    mref = torch.where(x > 0, torch.sqrt(x.clamp(min=0)), x.abs() * 2) + torch.floor(x) + i + \
        torch.minimum(x, torch.tensor(0.5, device=device))
    s = a.sum(0)
    ma, mb = torch.randn(20, 24, generator=g).to(device), torch.randn(24, 18, generator=g).to(device)
    sx, sy = torch.randn(128, generator=g).to(device), torch.randn(128, generator=g).to(device)
    v = sx.clone()
    for _ in range(3):
        v = v * 0.5 + 1.0
    shapes_ref = torch.cat([sx.flip(0), sx, sx, sy, v])
    da, db, dc = (torch.randn(16, 16, generator=g).to(device) for _ in range(3))
    dref = (da.double() @ db.double() + dc.double()).float()
    na = 300
    ax = torch.randn(na, generator=g).to(device)
    idx = torch.arange(na, device=device)
    sums_ref = torch.stack([ax[i::4].sum() for i in range(4)])
    maxes_ref = torch.tensor([max(range(i, na, 8)) for i in range(8)], dtype=torch.int32,
                             device=device)
    maxes = torch.full((8,), -1, dtype=torch.int32, device=device)
    tf32 = 2e-2  # tf32 products, Triton's default for fp32 tl.dot
    return [
        ("add", add_kernel, (x, y, out(n), n), (8,), {"BLOCK": 128}, (2,), (x + y,), 1e-4),
        ("copy", copy_kernel, (x, out(n), n), (4,), {"BLOCK": 256}, (1,), (x,), 1e-4),
        ("softmax", softmax_kernel, (rows, out(5, 700), 700), (5,), {"BLOCK": 1024}, (1,),
         (torch.softmax(rows, dim=1),), 1e-4),
        ("loop_rank2", loop_rank2_kernel, (a, out(M * N + M), M, N, K), (3,),
         {"BM": 16, "BN": 32}, (1,), (torch.cat([s.flatten(), s.sum(1)]),), 1e-4),
        ("math", math_kernel, (x, out(n), n), (4,), {"BLOCK": 256}, (1,), (mref,), 1e-4),
        ("matmul", matmul_kernel, (ma, mb, out(20, 18), 20, 18, 24), (2, 2),
         {"BM": 16, "BN": 16, "BK": 8}, (2,), (ma @ mb,), tf32),
        ("shapes_while", shapes_while_kernel, (sx, sy, out(5 * 128)), (1,), {"BLOCK": 128},
         (2,), (shapes_ref,), 1e-5),
        ("dot_ieee", dot_kernel, (da, db, dc, out(16, 16)), (1,), {"N": 16, "PREC": "ieee"},
         (3,), (dref,), 1e-4),
        ("dot_tf32x3", dot_kernel, (da, db, dc, out(16, 16)), (1,), {"N": 16, "PREC": "tf32x3"},
         (3,), (dref,), 1e-4),
        ("atomics", atomics_kernel,
         (ax, torch.zeros(4, device=device), maxes, torch.zeros(na, dtype=torch.int32,
                                                                 device=device), na),
         (3,), {"BLOCK": 128}, (1, 2), (sums_ref, maxes_ref), 1e-4),
    ]


def signature(torch, args, meta):
    """The specialisation a launch of these arguments compiles."""
    sig = []
    for arg in args:
        if torch.is_tensor(arg):
            sig.append({torch.float32: "*fp32:16", torch.int32: "*i32:16"}[arg.dtype])
        else:
            sig.append("i32:16" if arg % 16 == 0 else "i32")
    return ",".join(sig + [repr(v) if isinstance(v, str) else str(v) for v in meta.values()])


def fill():
    """Lowers every case's MLIR module to PTX into $MYTRITON_CACHE_DIR."""
    import torch
    from mytriton import _C
    for name, kern, args, grid, meta, *_ in _cases(torch, "cpu"):
        source, filename = kern._source()
        k = _C.compile(source, filename, kern.fn.__name__, signature(torch, args, meta),
                       kern._globals(), 4, "mlir", True)
        ptx = k.stage("ptx")
        print(f"{name}: {len(ptx)} bytes of PTX cached")


def _run(name, backend):
    """Case `name` on CUDA tensors through `backend`, against torch."""
    import torch
    if not torch.cuda.is_available():
        import pytest
        if os.environ.get("MYTRITON_REQUIRE_CUDA") == "1":  # mlir_check.sh
            pytest.fail("MYTRITON_REQUIRE_CUDA=1 but torch.cuda.is_available() is False")
        pytest.skip("needs a GPU")
    case = next(c for c in _cases(torch, "cuda") if c[0] == name)
    _, kern, args, grid, meta, outs, refs, tol = case
    os.environ["MYTRITON_BACKEND"] = backend
    try:
        kern.cache.clear()
        kern[grid](*args, **meta)
        torch.cuda.synchronize()
        assert kern.last_compiled.backend == backend
        for i, ref in zip(outs, refs):
            torch.testing.assert_close(args[i], ref, rtol=tol, atol=tol)
    finally:
        os.environ.pop("MYTRITON_BACKEND", None)


def pytest_generate_tests(metafunc):
    if "backend" in metafunc.fixturenames:
        metafunc.parametrize("backend", ["cuda", "mlir"])


# the original's names (test_add_kernel.py, test_copy_kernel.py), then ours
def test_add_kernel_execution(backend):
    _run("add", backend)


def test_copy_kernel_execution(backend):
    _run("copy", backend)


def test_softmax_execution(backend):
    _run("softmax", backend)


def test_loop_rank2_execution(backend):
    _run("loop_rank2", backend)


def test_math_execution(backend):
    _run("math", backend)


def test_matmul_execution(backend):
    _run("matmul", backend)


def test_shape_ops_and_while_execution(backend):
    _run("shapes_while", backend)


def test_dot_ieee_execution(backend):
    _run("dot_ieee", backend)


def test_dot_tf32x3_execution(backend):
    _run("dot_tf32x3", backend)


def test_atomics_execution(backend):
    _run("atomics", backend)


if __name__ == "__main__" and "--fill" in sys.argv:
    fill()
