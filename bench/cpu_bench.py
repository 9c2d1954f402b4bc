"""The cpu backend against the fiber backend and PyTorch on the CPU (issue 18).

Runs, in one process, the issue's kernels written in Triton's language:
saxpy 2^22, row softmax 4096x1024, transpose 2048^2, the layer-norm forward
of Triton's tutorial 05 (1024x4096), an fp32 tl.dot matmul 512^3 and row
moments 2048x4096 with a runtime loop; each on the cpu backend, the fiber
backend and torch (best of --reps runs after one warm-up, the cpu backend's
and torch's runs alternating), checked against torch, plus the cold compile
of each kernel on the cpu backend (a fresh cache directory), and, where
Triton is installed, Triton's interpreter (TRITON_INTERPRET=1) on the same
kernel text, in a child process that loads this file with `mytriton`
standing for the real `triton` (one timed run after a warm-up: it takes
seconds).  Prints a markdown table.

    PYTHONPATH=python /work/tvenv/bin/python bench/cpu_bench.py [--reps 3] [--skip-fiber]
                                                               [--skip-interpreter]
"""
import argparse
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import time

# a fresh cache: the first call of each kernel is a cold compile
os.environ["MYTRITON_CACHE_DIR"] = tempfile.mkdtemp(prefix="mt-cpu-bench-")

import torch  # noqa: E402

import mytriton as triton  # noqa: E402
import mytriton.language as tl  # noqa: E402


@triton.jit
def saxpy_kernel(x_ptr, y_ptr, out_ptr, a, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, a * x + y, mask=mask)


@triton.jit
def softmax_kernel(out_ptr, in_ptr, stride, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(in_ptr + row * stride + cols, mask=mask, other=-float("inf"))
    x = x - tl.max(x, axis=0)
    num = tl.exp(x)
    tl.store(out_ptr + row * stride + cols, num / tl.sum(num, axis=0), mask=mask)


@triton.jit
def transpose_kernel(x_ptr, out_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    x = tl.load(x_ptr + rm[:, None] * N + rn[None, :], mask=mask)
    tl.store(out_ptr + rn[None, :] * M + rm[:, None], x, mask=mask)


@triton.jit
def layer_norm_fwd(X, Y, W, B, Mean, Rstd, stride, N, eps, BLOCK_SIZE: tl.constexpr):
    # Triton's tutorial 05, forward
    row = tl.program_id(0)
    Y += row * stride
    X += row * stride
    mean = 0
    _mean = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        a = tl.load(X + cols, mask=cols < N, other=0.).to(tl.float32)
        _mean += a
    mean = tl.sum(_mean, axis=0) / N
    _var = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        x = tl.load(X + cols, mask=cols < N, other=0.).to(tl.float32)
        x = tl.where(cols < N, x - mean, 0.)
        _var += x * x
    var = tl.sum(_var, axis=0) / N
    rstd = 1 / tl.sqrt(var + eps)
    tl.store(Mean + row, mean)
    tl.store(Rstd + row, rstd)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        mask = cols < N
        w = tl.load(W + cols, mask=mask)
        b = tl.load(B + cols, mask=mask)
        x = tl.load(X + cols, mask=mask, other=0.).to(tl.float32)
        x_hat = (x - mean) * rstd
        y = x_hat * w + b
        tl.store(Y + cols, y, mask=mask)


@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr,
                  BK: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :])
        b = tl.load(b_ptr + (k + rk)[:, None] * N + rn[None, :])
        acc = tl.dot(a, b, acc, input_precision="ieee")
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc)


@triton.jit
def row_moments_kernel(x_ptr, mean_ptr, var_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    s = tl.zeros([BLOCK], dtype=tl.float32)
    s2 = tl.zeros([BLOCK], dtype=tl.float32)
    for off in range(0, n_cols, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + row * n_cols + cols, mask=cols < n_cols, other=0.0)
        s += x
        s2 += x * x
    mean = tl.sum(s, axis=0) / n_cols
    tl.store(mean_ptr + row, mean)
    tl.store(var_ptr + row, tl.sum(s2, axis=0) / n_cols - mean * mean)


def on(backend):
    """The launch option naming a mytriton backend; none under Triton."""
    return {} if backend is None else {"backend": backend}


def interpreter_times():
    """ms per case under Triton's interpreter, from a child process (the
    interpreter must be on before Triton is imported, and this process has
    mytriton loaded); {} where Triton is not installed."""
    r = subprocess.run([sys.executable, __file__, "--interpreter-worker"], capture_output=True,
                       text=True, env={**os.environ, "TRITON_INTERPRET": "1"})
    if r.returncode != 0:
        print("Triton's interpreter not measured:", r.stderr.strip().splitlines()[-1:],
              file=sys.stderr)
        return {}
    return json.loads(r.stdout.strip().splitlines()[-1])


def interpreter_worker():
    """The child: this file's kernels once more, `mytriton` standing for the
    installed Triton (run by its interpreter), each case timed once after a
    warm-up and checked; prints {name: ms} as JSON."""
    import triton as real
    import triton.language  # noqa: F401
    sys.modules["mytriton"], sys.modules["mytriton.language"] = real, real.language
    spec = importlib.util.spec_from_file_location("cpu_bench_under_triton", __file__)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    out = {}
    for name, run, _, got, want in mod.cases():
        out[name] = best([lambda: run(None)], 1)[0]
        assert torch.allclose(got(), want(), rtol=1e-4, atol=1e-4), name
    print(json.dumps(out))


def cases():
    torch.manual_seed(0)
    n = 1 << 22
    x, y, o = torch.randn(n), torch.randn(n), torch.empty(n)
    yield ("saxpy 2^22 fp32",
           lambda be: saxpy_kernel[(triton.cdiv(n, 1024),)](x, y, o, 2.0, n, BLOCK=1024,
                                                             **on(be)),
           lambda: torch.add(y, x, alpha=2.0), lambda: o, lambda: 2.0 * x + y)
    s = torch.randn(4096, 1024)
    so = torch.empty_like(s)
    yield ("softmax 4096x1024",
           lambda be: softmax_kernel[(4096,)](so, s, 1024, 1024, BLOCK=1024, **on(be)),
           lambda: torch.softmax(s, dim=1), lambda: so, lambda: torch.softmax(s, dim=1))
    t = torch.randn(2048, 2048)
    to = torch.empty_like(t)
    yield ("transpose 2048^2",
           lambda be: transpose_kernel[(32, 32)](t, to, 2048, 2048, BM=64, BN=64, **on(be)),
           lambda: t.t().contiguous(), lambda: to, lambda: t.t())
    M, N = 1024, 4096
    lx, lw, lb = torch.randn(M, N), torch.rand(N), torch.rand(N)
    ly, lm, lr = torch.empty(M, N), torch.empty(M), torch.empty(M)
    yield ("layer-norm fwd 1024x4096",
           lambda be: layer_norm_fwd[(M,)](lx, ly, lw, lb, lm, lr, N, N, 1e-5, BLOCK_SIZE=1024,
                                           **on(be)),
           lambda: torch.nn.functional.layer_norm(lx, (N,), lw, lb, 1e-5), lambda: ly,
           lambda: torch.nn.functional.layer_norm(lx, (N,), lw, lb, 1e-5))
    a, b, c = torch.randn(512, 512), torch.randn(512, 512), torch.empty(512, 512)
    yield ("matmul 512^3 fp32",
           lambda be: matmul_kernel[(8, 8)](a, b, c, 512, 512, 512, BM=64, BN=64, BK=32,
                                            **on(be)),
           lambda: a @ b, lambda: c, lambda: a @ b)
    r = torch.randn(2048, 4096)
    rm, rv = torch.empty(2048), torch.empty(2048)
    yield ("row moments 2048x4096",
           lambda be: row_moments_kernel[(2048,)](r, rm, rv, 4096, BLOCK=1024, **on(be)),
           lambda: torch.var_mean(r, dim=1, unbiased=False), lambda: torch.stack([rm, rv]),
           lambda: torch.stack(list(reversed(torch.var_mean(r, dim=1, unbiased=False)))))


def best(fns, reps):
    """Best time of each of fns in ms, their runs alternating: each warmed
    up, then reps rounds of one run of each.  Alternating keeps what one
    leaves behind (a thread pool's threads spinning or asleep, the caches)
    from favouring another, and a machine-wide slow spell hits all alike."""
    for fn in fns:
        fn()
    t = [float("inf")] * len(fns)
    for _ in range(reps):
        for i, fn in enumerate(fns):
            t0 = time.perf_counter()
            fn()
            t[i] = min(t[i], time.perf_counter() - t0)
    return [x * 1e3 for x in t]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--skip-fiber", action="store_true")
    ap.add_argument("--skip-interpreter", action="store_true")
    args = ap.parse_args()
    itimes = {} if args.skip_interpreter else interpreter_times()
    print(f"torch {torch.__version__} ({torch.get_num_threads()} threads), "
          f"{os.cpu_count()} CPUs, load {os.getloadavg()[0]:.2f}", file=sys.stderr)
    rows = []
    for name, run, ref, got, want in cases():
        t0 = time.perf_counter()
        run("cpu")
        cold = (time.perf_counter() - t0) * 1e3
        err = (got() - want()).abs().max().item()
        ok = torch.allclose(got(), want(), rtol=1e-4, atol=1e-4)
        cpu, tt = best([lambda: run("cpu"), ref], args.reps)
        fib = float("nan") if args.skip_fiber else best([lambda: run("fiber")], args.reps)[0]
        it = itimes.get(name, float("nan"))
        rows.append((name, cpu, fib, tt, it, cold, ok, err))
        print(f"{name}: cpu {cpu:.2f} ms, fiber {fib:.2f} ms, torch {tt:.2f} ms, "
              f"interpreter {it:.0f} ms, cold {cold:.0f} ms, max err {err:.2e}", file=sys.stderr)
    print("| kernel | cpu backend | fiber backend | torch (CPU) | Triton interpreter "
          "| cpu / torch | fiber / cpu | interpreter / cpu | cpu cold compile | matches torch |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for name, cpu, fib, tt, it, cold, ok, err in rows:
        print(f"| {name} | {cpu:.2f} ms | {fib:.1f} ms | {tt:.2f} ms | {it:.0f} ms "
              f"| {cpu / tt:.2f}x | {fib / cpu:.1f}x | {it / cpu:.0f}x | {cold:.0f} ms "
              f"| {'yes' if ok else 'NO'} ({err:.1e}) |")


if __name__ == "__main__":
    if "--interpreter-worker" in sys.argv:
        interpreter_worker()
    else:
        main()
