"""tl.dot's input_precision "bf16x3" and "bf16x6" on f32 operands
(Triton's F32DotTC decomposition: bf16 parts, the small products first,
NaNs of the small sum replaced by 0, then hi * hi, then + acc), and the
case-insensitive names.  Positive operands (no cancellation): mytriton
and Triton sum the same bf16 products in their own orders, a few f32 ulp
apart.  An infinite operand times a 1.0 (whose small parts are 0) gives
inf, not NaN: the replacement of the small sum's NaNs."""
import torch
import triton
import triton.language as tl

TOLERANCE = {"ulp": 64}


@triton.jit
def kernel(a_ptr, b_ptr, c_ptr, out_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr,
           PREC: tl.constexpr, ACC: tl.constexpr):
    m = tl.arange(0, M)
    n = tl.arange(0, N)
    k = tl.arange(0, K)
    a = tl.load(a_ptr + m[:, None] * K + k[None, :])
    b = tl.load(b_ptr + k[:, None] * N + n[None, :])
    if ACC:
        c = tl.dot(a, b, tl.load(c_ptr + m[:, None] * N + n[None, :]), input_precision=PREC)
    else:
        c = tl.dot(a, b, input_precision=PREC)
    tl.store(out_ptr + m[:, None] * N + n[None, :], c)


def run(device):
    M, N, K = 32, 32, 32
    g = torch.Generator().manual_seed(11)
    a = (torch.rand(M, K, generator=g) + 0.25).to(device)
    b = (torch.rand(K, N, generator=g) + 0.25).to(device)
    c = torch.rand(M, N, generator=g).to(device)
    out = {}
    for prec in ("bf16x3", "bf16x6", "BF16x3"):
        for acc in (False, True):
            r = torch.empty(M, N, device=device)
            kernel[(1,)](a, b, c, r, M, N, K, prec, acc)
            out[f"{prec}_{acc}"] = r
    ai = a.clone()
    ai[0, 0] = float("inf")
    bi = torch.ones_like(b)
    r = torch.empty(M, N, device=device)
    kernel[(1,)](ai, bi, c, r, M, N, K, "bf16x3", False)
    out["inf"] = r
    return out
