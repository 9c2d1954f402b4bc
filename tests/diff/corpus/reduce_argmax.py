"""tl.argmax, tl.argmin and tl.max/tl.min(return_indices=True) (issue 9):
both axes of a 2-D block and a 1-D block, values with many ties (Triton
returns the first index among equal values), keep_dims, int8 and fp16
inputs (compared in their own type; indices are int32)."""
import torch
import triton
import triton.language as tl


@triton.jit
def argmax_2d(x_ptr, col_idx_ptr, row_idx_ptr, row_val_ptr, colmin_ptr,
              M: tl.constexpr, N: tl.constexpr):
    r = tl.arange(0, M)
    c = tl.arange(0, N)
    x = tl.load(x_ptr + r[:, None] * N + c[None, :])
    tl.store(col_idx_ptr + c, tl.argmax(x, axis=0))
    v, i = tl.max(x, axis=1, return_indices=True)
    tl.store(row_idx_ptr + r, i)
    tl.store(row_val_ptr + r, v)
    j = tl.argmin(x, 0, keep_dims=True)
    tl.store(colmin_ptr + c[None, :], j)


@triton.jit
def argmin_1d(x_ptr, out_ptr, val_ptr, N: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, N))
    v, i = tl.min(x, 0, return_indices=True)
    tl.store(out_ptr, i)
    tl.store(out_ptr + 1, tl.argmax(x, 0))
    tl.store(val_ptr, v)


def run(device):
    M, N = 16, 64
    g = torch.Generator().manual_seed(11)
    x = torch.randint(-4, 5, (M, N), generator=g, dtype=torch.int8)
    out = {"col_argmax": torch.empty(N, dtype=torch.int32),
           "row_argmax": torch.empty(M, dtype=torch.int32),
           "row_max": torch.empty(M, dtype=torch.int8),
           "col_argmin_keep": torch.empty(N, dtype=torch.int32)}
    out = {k: v.to(device) for k, v in out.items()}
    argmax_2d[(1,)](x.to(device), out["col_argmax"], out["row_argmax"], out["row_max"],
                    out["col_argmin_keep"], M=M, N=N)
    L = 512
    y = (torch.randint(-20, 21, (L,), generator=g) / 4).to(torch.float16)
    out["argmin_argmax_fp16"] = torch.empty(2, dtype=torch.int32, device=device)
    out["min_fp16"] = torch.empty(1, dtype=torch.float16, device=device)
    argmin_1d[(1,)](y.to(device), out["argmin_argmax_fp16"], out["min_fp16"], N=L)
    return out
