"""Speed of Triton's own tutorial kernels, unmodified, under Triton and
under mytriton in one run: the persistent fused softmax of tutorial 02,
the layer-norm forward and backward of tutorial 05 (bandwidth), and the
autotuned fp16 matmul of tutorial 03 (TFLOP/s), beside torch.

Each tutorial file is run as a program (its own correctness checks run at
import) once with `triton` being Triton and once with it being mytriton;
its benchmark tables are switched off (Mark.run), and the functions it
defines (softmax, layer_norm) are timed here with Triton's do_bench
(median, L2 flushed) on the sizes of the tutorials' own benchmarks.  Both
implementations run the tutorials' wrappers, so both get the same launch
configuration (the wrapper's heuristics; for 03, each side's own
@triton.autotune over the tutorial's list, tuned on first use per size).
GB/s and TFLOP/s are counted as the tutorials count them.

Usage (on a GPU, with Triton's python/tutorials in DIR):
    PYTHONPATH=python python3 bench/tutorials.py DIR [--repeat R]
--repeat R measures every cell R times, interleaved, and prints the
median of the R samples.
"""
import os
import statistics
import sys

import torch
from triton.testing import do_bench

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tools"))
from run_tutorials import load, load_as_mytriton  # noqa: E402


def softmax_rows(ns_tr, ns_mt, res):
    """Adds one GB/s sample per (N, impl) to res[("softmax", N, "")]."""
    for n in (1024, 2048, 4096, 8192):
        x = torch.randn(4096, n, device="cuda")
        ref = torch.softmax(x, axis=-1)
        gbps = lambda ms: 2 * x.numel() * x.element_size() * 1e-9 / (ms * 1e-3)
        cell = res.setdefault(("softmax (02)", n, ""), {})
        for name, fn in (("mt", ns_mt["softmax"]), ("tr", ns_tr["softmax"]),
                         ("torch", lambda v: torch.softmax(v, axis=-1))):
            assert torch.allclose(fn(x), ref, atol=1e-6, rtol=1e-5), name
            cell.setdefault(name, []).append(gbps(do_bench(lambda: fn(x), return_mode="median")))


def layer_norm_rows(ns_tr, ns_mt, res):
    """Adds one GB/s sample per (N, pass, impl): forward counts 2 x, backward
    3 x the input's bytes, as the tutorial does."""
    for n in (1024, 2048, 4096, 8192):
        shape = (4096, n)
        w = torch.rand(n, dtype=torch.float16, device="cuda", requires_grad=True)
        b = torch.rand(n, dtype=torch.float16, device="cuda", requires_grad=True)
        x = -2.3 + 0.5 * torch.randn(shape, dtype=torch.float16, device="cuda")
        dy = 0.1 * torch.randn_like(x)
        x.requires_grad_(True)
        impls = (("mt", ns_mt["layer_norm"]), ("tr", ns_tr["layer_norm"]),
                 ("torch", lambda v, s, w_, b_, e: torch.nn.functional.layer_norm(v, s, w_, b_, e)))
        fwd = res.setdefault(("layer norm fwd (05)", n, ""), {})
        bwd = res.setdefault(("layer norm bwd (05)", n, ""), {})
        ref_y = torch.nn.functional.layer_norm(x, shape[-1:], w, b, 1e-5)
        for name, fn in impls:
            y = fn(x, shape[-1:], w, b, 1e-5)
            assert torch.allclose(y, ref_y, atol=1e-2, rtol=0), name
            ms = do_bench(lambda: fn(x, shape[-1:], w, b, 1e-5), return_mode="median")
            fwd.setdefault(name, []).append(2 * x.numel() * x.element_size() * 1e-9 / (ms * 1e-3))
            ms = do_bench(lambda: y.backward(dy, retain_graph=True), grad_to_none=[x, w, b],
                          return_mode="median")
            bwd.setdefault(name, []).append(3 * x.numel() * x.element_size() * 1e-9 / (ms * 1e-3))


def matmul_rows(ns_tr, ns_mt, res):
    """Adds one TFLOP/s sample per (size, impl): tutorial 03's matmul(a, b)
    on fp16, each implementation's autotuner choosing from the tutorial's
    configurations (the first call at a size tunes; it is not timed)."""
    for n in (2048, 4096, 8192):
        torch.manual_seed(n)
        a = torch.randn((n, n), device="cuda", dtype=torch.float16)
        b = torch.randn((n, n), device="cuda", dtype=torch.float16)
        ref = torch.matmul(a, b)
        cell = res.setdefault(("matmul fp16 (03), TFLOP/s", n, ""), {})
        for name, fn in (("mt", ns_mt["matmul"]), ("tr", ns_tr["matmul"]),
                         ("torch", torch.matmul)):
            assert torch.allclose(fn(a, b), ref, atol=1e-2, rtol=1e-2), name
            ms = do_bench(lambda: fn(a, b), return_mode="median")
            cell.setdefault(name, []).append(2 * n ** 3 * 1e-12 / (ms * 1e-3))


def main(tdir, repeat):
    files = {k: os.path.join(tdir, f) for k, f in (("02", "02-fused-softmax.py"),
                                                   ("03", "03-matrix-multiplication.py"),
                                                   ("05", "05-layer-norm.py"))}
    ns_tr = {k: load(p) for k, p in files.items()}
    ns_mt = {k: load_as_mytriton(p) for k, p in files.items()}
    res = {}
    for _ in range(repeat):
        softmax_rows(ns_tr["02"], ns_mt["02"], res)
        layer_norm_rows(ns_tr["05"], ns_mt["05"], res)
        matmul_rows(ns_tr["03"], ns_mt["03"], res)
    print(f"\nGB/s (M = 4096) or TFLOP/s (M = N = K), median of {repeat} run(s) of "
          "do_bench's median\n")
    print("| kernel | N | mytriton | Triton | torch | mytriton / Triton |")
    print("|---|---|---|---|---|---|")
    for (kernel, n, _), cell in res.items():
        m = {k: statistics.median(v) for k, v in cell.items()}
        print(f"| {kernel} | {n} | {m['mt']:.0f} | {m['tr']:.0f} | {m['torch']:.0f} | "
              f"{m['mt'] / m['tr']:.3f} |", flush=True)


if __name__ == "__main__":
    args = sys.argv[1:]
    reps = 1
    if "--repeat" in args:
        i = args.index("--repeat")
        reps = int(args[i + 1])
        del args[i:i + 2]
    main(args[0], reps)
