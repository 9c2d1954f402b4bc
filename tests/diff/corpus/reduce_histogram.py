"""tl.histogram (issue 9): counts of the values 0..num_bins-1 of a 1-D
integer block, with and without a mask, as a tensor method too."""
import torch
import triton
import triton.language as tl


@triton.jit
def histograms(x_ptr, all_ptr, masked_ptr, N: tl.constexpr, BINS: tl.constexpr):
    o = tl.arange(0, N)
    x = tl.load(x_ptr + o)
    b = tl.arange(0, BINS)
    tl.store(all_ptr + b, tl.histogram(x, BINS))
    tl.store(masked_ptr + b, x.histogram(BINS, mask=o < N // 2))


def run(device):
    N, BINS = 512, 16
    g = torch.Generator().manual_seed(14)
    x = torch.randint(0, BINS, (N,), generator=g, dtype=torch.int32)
    out = {"histogram": torch.empty(BINS, dtype=torch.int32, device=device),
           "histogram_masked": torch.empty(BINS, dtype=torch.int32, device=device)}
    histograms[(1,)](x.to(device), out["histogram"], out["histogram_masked"], N=N, BINS=BINS)
    return out
