"""Bandwidth of Triton's own tutorial kernels, unmodified, under Triton and
under mytriton in one run: the persistent fused softmax of tutorial 02 and
the layer-norm forward and backward of tutorial 05, beside torch.

Each tutorial file is run as a program (its own correctness checks run at
import) once with `triton` being Triton and once with it being mytriton;
its benchmark tables are switched off (Mark.run), and the functions it
defines (softmax, layer_norm) are timed here with Triton's do_bench
(median, L2 flushed) on the sizes of the tutorials' own benchmarks.  Both
implementations run the tutorials' wrappers, so both get the same launch
configuration (the wrapper's heuristics).  GB/s are counted as the
tutorials count them.

Usage (on a GPU, with Triton's python/tutorials in DIR):
    PYTHONPATH=python python3 bench/tutorials.py DIR
"""
import os
import sys

import torch
from triton.testing import do_bench

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tools"))
from run_tutorials import load, load_as_mytriton  # noqa: E402


def softmax_rows(ns_tr, ns_mt):
    print("\n### Tutorial 02: persistent fused softmax, M = 4096 (GB/s = 2 * M * N * 4 B / t)\n")
    print("| N | mytriton GB/s | Triton GB/s | torch GB/s | mytriton/Triton |")
    print("|---|---|---|---|---|")
    for n in (1024, 2048, 4096, 8192):
        x = torch.randn(4096, n, device="cuda")
        ref = torch.softmax(x, axis=-1)
        gbps = lambda ms: 2 * x.numel() * x.element_size() * 1e-9 / (ms * 1e-3)
        res = {}
        for name, fn in (("mt", ns_mt["softmax"]), ("tr", ns_tr["softmax"]),
                         ("torch", lambda v: torch.softmax(v, axis=-1))):
            assert torch.allclose(fn(x), ref, atol=1e-6, rtol=1e-5), name
            res[name] = gbps(do_bench(lambda: fn(x), return_mode="median"))
        print(f"| {n} | {res['mt']:.0f} | {res['tr']:.0f} | {res['torch']:.0f} | "
              f"{res['mt'] / res['tr']:.3f} |")


def layer_norm_rows(ns_tr, ns_mt):
    print("\n### Tutorial 05: layer norm, fp16, M = 4096 (GB/s as the tutorial counts: "
          "forward 2 x, backward 3 x, plus the weights)\n")
    print("| N | pass | mytriton GB/s | Triton GB/s | torch GB/s | mytriton/Triton |")
    print("|---|---|---|---|---|---|")
    for n in (1024, 2048, 4096, 8192):
        shape = (4096, n)
        w = torch.rand(n, dtype=torch.float16, device="cuda", requires_grad=True)
        b = torch.rand(n, dtype=torch.float16, device="cuda", requires_grad=True)
        x = -2.3 + 0.5 * torch.randn(shape, dtype=torch.float16, device="cuda")
        dy = 0.1 * torch.randn_like(x)
        x.requires_grad_(True)
        impls = (("mt", ns_mt["layer_norm"]), ("tr", ns_tr["layer_norm"]),
                 ("torch", lambda v, s, w_, b_, e: torch.nn.functional.layer_norm(v, s, w_, b_, e)))
        fwd, bwd = {}, {}
        ref_y = torch.nn.functional.layer_norm(x, shape[-1:], w, b, 1e-5)
        for name, fn in impls:
            y = fn(x, shape[-1:], w, b, 1e-5)
            assert torch.allclose(y, ref_y, atol=1e-2, rtol=0), name
            ms = do_bench(lambda: fn(x, shape[-1:], w, b, 1e-5), return_mode="median")
            fwd[name] = 2 * x.numel() * x.element_size() * 1e-9 / (ms * 1e-3)
            ms = do_bench(lambda: y.backward(dy, retain_graph=True), grad_to_none=[x, w, b],
                          return_mode="median")
            bwd[name] = 3 * x.numel() * x.element_size() * 1e-9 / (ms * 1e-3)
        for label, r in (("forward", fwd), ("backward", bwd)):
            print(f"| {n} | {label} | {r['mt']:.0f} | {r['tr']:.0f} | {r['torch']:.0f} | "
                  f"{r['mt'] / r['tr']:.3f} |")


def main(tdir):
    files = {k: os.path.join(tdir, f) for k, f in (("02", "02-fused-softmax.py"),
                                                   ("05", "05-layer-norm.py"))}
    ns_tr = {k: load(p) for k, p in files.items()}
    ns_mt = {k: load_as_mytriton(p) for k, p in files.items()}
    softmax_rows(ns_tr["02"], ns_mt["02"])
    layer_norm_rows(ns_tr["05"], ns_mt["05"])


if __name__ == "__main__":
    main(sys.argv[1])
