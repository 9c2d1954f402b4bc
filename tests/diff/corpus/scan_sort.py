"""tl.sort (issue 9) of 1-D blocks, ascending and descending, of int32 with
ties and of float32 (no NaN: Triton's bitonic network leaves their place
unspecified)."""
import torch
import triton
import triton.language as tl


@triton.jit
def sorts(x_ptr, f_ptr, up_ptr, down_ptr, fup_ptr, N: tl.constexpr):
    o = tl.arange(0, N)
    x = tl.load(x_ptr + o)
    tl.store(up_ptr + o, tl.sort(x))
    tl.store(down_ptr + o, tl.sort(x, descending=True))
    tl.store(fup_ptr + o, tl.sort(tl.load(f_ptr + o), 0))


def run(device):
    N = 128
    g = torch.Generator().manual_seed(15)
    x = torch.randint(-20, 20, (N,), generator=g, dtype=torch.int32)
    f = torch.randn(N, generator=g)
    out = {"ascending": torch.empty(N, dtype=torch.int32, device=device),
           "descending": torch.empty(N, dtype=torch.int32, device=device),
           "float_ascending": torch.empty(N, dtype=torch.float32, device=device)}
    sorts[(1,)](x.to(device), f.to(device), out["ascending"], out["descending"],
                out["float_ascending"], N=N)
    return out
