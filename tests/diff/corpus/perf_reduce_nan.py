"""tl.max and tl.min reductions over fp32 rows holding NaN (perf9): the
combine is maxnumf/minnumf, as Triton lowers them on the GPU (max.f32: a
NaN loses; a row of NaN only stays NaN), and -0.0 orders below +0.0.
Triton's interpreter reduces with numpy, where NaN wins: this case's
expected results are Triton's on the GPU.  Bit for bit."""
import numpy as np
import torch
import triton
import triton.language as tl

TOLERANCE = {"ulp": 0}


@triton.jit
def reduce_kernel(x_ptr, mx, mn, N: tl.constexpr):
    row = tl.program_id(0)
    x = tl.load(x_ptr + row * N + tl.arange(0, N))
    tl.store(mx + row, tl.max(x, axis=0))
    tl.store(mn + row, tl.min(x, axis=0))


def run(device):
    rows, n = 5, 512
    k = np.arange(rows * n, dtype=np.float64).reshape(rows, n)
    x = np.sin(k * 0.37) * 10.0
    x[0, 3] = np.nan            # one NaN: the others' extreme
    x[1, ::7] = np.nan          # many, across threads and warps
    x[2, :] = np.nan            # all NaN
    x[3, :] = 0.0               # signed zeros only
    x[3, 100:300] = -0.0
    x[4, 17] = np.nan
    x[4, 400] = 1e30
    x[4, 401] = -1e30
    out = {}
    xt = torch.tensor(x, dtype=torch.float32).to(device)
    mx = torch.zeros(rows, device=device)
    mn = torch.zeros(rows, device=device)
    reduce_kernel[(rows,)](xt, mx, mn, N=n, num_warps=4)
    out["max"] = mx
    out["min"] = mn
    return out
