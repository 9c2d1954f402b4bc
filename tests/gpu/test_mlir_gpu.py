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


def _cases(torch, device):
    """(kernel, args, grid, constexprs, reference) per case."""
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
    return [
        ("add", add_kernel, (x, y, out(n), n), (8,), {"BLOCK": 128}, x + y),
        ("copy", copy_kernel, (x, out(n), n), (4,), {"BLOCK": 256}, x),
        ("softmax", softmax_kernel, (rows, out(5, 700), 700), (5,), {"BLOCK": 1024},
         torch.softmax(rows, dim=1)),
        ("loop_rank2", loop_rank2_kernel, (a, out(M * N + M), M, N, K), (3,),
         {"BM": 16, "BN": 32}, torch.cat([s.flatten(), s.sum(1)])),
        ("math", math_kernel, (x, out(n), n), (4,), {"BLOCK": 256}, mref),
        ("matmul", matmul_kernel, (ma, mb, out(20, 18), 20, 18, 24), (2, 2),
         {"BM": 16, "BN": 16, "BK": 8}, ma @ mb),
    ]


def fill():
    """Lowers every case's MLIR module to PTX into $MYTRITON_CACHE_DIR."""
    import torch
    from mytriton import _C
    for name, kern, args, grid, meta, _ in _cases(torch, "cpu"):
        sig = []
        for arg in args:
            if torch.is_tensor(arg):
                sig.append("*fp32:16")
            else:
                sig.append("i32:16" if arg % 16 == 0 else "i32")
        sig += [str(v) for v in meta.values()]
        source, filename = kern._source()
        k = _C.compile(source, filename, kern.fn.__name__, ",".join(sig), kern._globals(), 4,
                       "mlir", True)
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
    _, kern, args, grid, meta, ref = case
    os.environ["MYTRITON_BACKEND"] = backend
    try:
        kern.cache.clear()
        kern[grid](*args, **meta)
        torch.cuda.synchronize()
        assert kern.last_compiled.backend == backend
        got = args[2] if name in ("add", "matmul") else args[1]
        tol = 2e-2 if name == "matmul" else 1e-4  # tf32 products, as Triton's default
        torch.testing.assert_close(got, ref, rtol=tol, atol=tol)
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


if __name__ == "__main__" and "--fill" in sys.argv:
    fill()
