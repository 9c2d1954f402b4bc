"""Batched tl.dot of rank-3 blocks on the GPU (issue 9/10: unbatch.c slices
them for the CUDA lowering): correctness against torch.bmm, then speed
beside Triton 3.6 and torch.bmm (cuBLAS) in one run.

The kernel is bench/bmm_kernels.py's bmm3d, compiled from the same text by
Triton and by mytriton; each implementation is given its best
configuration from the same list (BB, BM, BN, BK, num_warps).  f16
operands, f32 accumulation, f16 result.  TFLOP/s = 2 B M N K / t, t the
median of triton.testing.do_bench.

Usage (on a GPU): PYTHONPATH=python python3 bench/batched_dot.py
"""
import os
import sys

import torch
from triton.testing import do_bench

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tools"))
from run_tutorials import load, load_as_mytriton  # noqa: E402

KFILE = os.path.join(HERE, "bmm_kernels.py")
CONFIGS = [(1, 64, 64, 32, 4), (2, 64, 64, 32, 4), (4, 32, 32, 32, 4), (2, 128, 64, 32, 8),
           (1, 128, 128, 32, 8), (4, 64, 64, 32, 8)]
SHAPES = [(64, 256, 256, 256), (16, 512, 512, 512), (256, 64, 64, 64)]


def launch(fn, q, k, o, cfg):
    BB, BM, BN, BK, W = cfg
    B, M, K = q.shape
    N = k.shape[2]
    grid = (M // BM, N // BN, B // BB)
    fn[grid](q, k, o, K, *q.stride(), *k.stride(), *o.stride(), BB=BB, BM=BM, BN=BN, BK=BK,
             num_warps=W)


def main():
    impls = {"mytriton": load_as_mytriton(KFILE)["bmm3d"], "triton": load(KFILE)["bmm3d"]}
    print(f"device: {torch.cuda.get_device_name()}")
    print("| B, M, N, K | mytriton TFLOP/s (cfg) | Triton TFLOP/s (cfg) | torch.bmm TFLOP/s "
          "| mytriton / Triton |")
    print("|---|---|---|---|---|")
    bad = 0
    for B, M, N, K in SHAPES:
        torch.manual_seed(B + M)
        q = torch.randn(B, M, K, device="cuda").half()
        k = torch.randn(B, K, N, device="cuda").half()
        ref = torch.bmm(q.float(), k.float())
        flops = 2 * B * M * N * K
        best = {}
        for name, fn in impls.items():
            for cfg in CONFIGS:
                BB, BM, BN, BK, W = cfg
                if B % BB or M % BM or N % BN or K % BK:
                    continue
                o = torch.empty(B, M, N, device="cuda", dtype=torch.float16)
                try:
                    launch(fn, q, k, o, cfg)
                except Exception as e:  # a configuration an implementation refuses
                    print(f"  {name} {cfg}: {type(e).__name__}: {str(e)[:160]}")
                    continue
                err = (o.float() - ref).abs().max().item()
                if err > 2e-2 * ref.abs().max().item():
                    print(f"  WRONG {name} {cfg} {(B, M, N, K)}: max error {err}")
                    bad += 1
                    continue
                t = do_bench(lambda: launch(fn, q, k, o, cfg))
                if name not in best or t < best[name][0]:
                    best[name] = (t, cfg)
        tb = do_bench(lambda: torch.bmm(q, k))
        tf = {n: flops / (v[0] * 1e-3) / 1e12 for n, v in best.items()}
        print(f"| {B}, {M}, {N}, {K} | {tf.get('mytriton', 0):.1f} {best.get('mytriton', (0, None))[1]} "
              f"| {tf.get('triton', 0):.1f} {best.get('triton', (0, None))[1]} "
              f"| {flops / (tb * 1e-3) / 1e12:.1f} "
              f"| {tf.get('mytriton', 0) / max(tf.get('triton', 1e-9), 1e-9):.2f} |")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
