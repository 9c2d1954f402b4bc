"""@triton.autotune over @triton.heuristics with a grid that reads META:
whichever config wins, the result is the same (reset_to_zero undoes the
timing launches).  do_bench is given (a wall clock) because Triton's
interpreter, which records these cases on the CPU, has no benchmarker."""
import time

import torch
import triton
import triton.language as tl


def wall_clock(fn, quantiles):
    start = time.perf_counter()
    fn()
    ms = (time.perf_counter() - start) * 1e3
    return [ms] * len(quantiles)


@triton.autotune(configs=[triton.Config({"BLOCK": 32}, num_warps=1),
                          triton.Config({"BLOCK": 128}, num_warps=4)],
                 key=["n"], reset_to_zero=["out"], do_bench=wall_clock)
@triton.heuristics({"EVEN": lambda args: args["n"] % args["BLOCK"] == 0})
@triton.jit
def scaled_add_kernel(x, out, n, alpha, BLOCK: tl.constexpr, EVEN: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    if EVEN:
        tl.store(out + offs, tl.load(out + offs) + alpha * tl.load(x + offs))
    else:
        m = offs < n
        v = tl.load(out + offs, mask=m) + alpha * tl.load(x + offs, mask=m)
        tl.store(out + offs, v, mask=m)


def run(device):
    res = {}
    for n in (256, 300):
        x = torch.arange(n, dtype=torch.float32).to(device)
        out = torch.zeros(n, device=device)
        scaled_add_kernel[lambda meta: (triton.cdiv(n, meta["BLOCK"]),)](x, out, n, 0.5)
        res[f"n{n}"] = out
    return res
