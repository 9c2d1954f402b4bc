"""tl.reduce with @jit combine functions (issue 9): a sum over each axis,
a tuple reduction (the maximum and how many elements reach it, as
Triton's own argmax is a tuple reduction), axis=None with keep_dims, and
the tensor-method form."""
import torch
import triton
import triton.language as tl


@triton.jit
def _add(a, b):
    return a + b


@triton.jit
def _max_count(a, na, b, nb):
    return tl.maximum(a, b), tl.where(a == b, na + nb, tl.where(a > b, na, nb))


@triton.jit
def reduce_fns(x_ptr, rows_ptr, cols_ptr, max_ptr, cnt_ptr, all_ptr,
               M: tl.constexpr, N: tl.constexpr):
    r = tl.arange(0, M)
    c = tl.arange(0, N)
    x = tl.load(x_ptr + r[:, None] * N + c[None, :])
    tl.store(rows_ptr + r, tl.reduce(x, 1, _add))
    tl.store(cols_ptr + c, x.reduce(0, _add))
    m, n = tl.reduce((x, tl.full((M, N), 1, tl.int32)), 1, _max_count)
    tl.store(max_ptr + r, m)
    tl.store(cnt_ptr + r, n)
    tl.store(all_ptr + tl.arange(0, 1)[None, :], tl.reduce(x, None, _add, keep_dims=True))


def run(device):
    M, N = 32, 16
    g = torch.Generator().manual_seed(12)
    x = torch.randint(-5, 6, (M, N), generator=g, dtype=torch.int32)
    out = {"row_sum": torch.empty(M, dtype=torch.int32),
           "col_sum": torch.empty(N, dtype=torch.int32),
           "row_max": torch.empty(M, dtype=torch.int32),
           "row_max_count": torch.empty(M, dtype=torch.int32),
           "total": torch.empty(1, dtype=torch.int32)}
    out = {k: v.to(device) for k, v in out.items()}
    reduce_fns[(1,)](x.to(device), out["row_sum"], out["col_sum"], out["row_max"],
                     out["row_max_count"], out["total"], M=M, N=N)
    return out
