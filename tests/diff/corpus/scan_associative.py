"""tl.associative_scan with @jit combine functions (issue 9): a tuple scan
of affine maps x -> a*x + b (associative, not commutative, so the order
of operands shows), forward and reverse along both axes, and a
first-order linear recurrence h[i] = a[i]*h[i-1] + b[i] along a 1-D block
longer than one layout tile, in int32 (wrapping) so results are exact."""
import torch
import triton
import triton.language as tl


@triton.jit
def _affine(a1, b1, a2, b2):
    return a1 * a2, b1 * a2 + b2


@triton.jit
def affine_2d(a_ptr, b_ptr, fa_ptr, fb_ptr, ra_ptr, rb_ptr, M: tl.constexpr, N: tl.constexpr):
    offs = tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]
    a = tl.load(a_ptr + offs)
    b = tl.load(b_ptr + offs)
    fa, fb = tl.associative_scan((a, b), 1, _affine)
    tl.store(fa_ptr + offs, fa)
    tl.store(fb_ptr + offs, fb)
    ra, rb = tl.associative_scan((a, b), axis=0, combine_fn=_affine, reverse=True)
    tl.store(ra_ptr + offs, ra)
    tl.store(rb_ptr + offs, rb)


@triton.jit
def recurrence(a_ptr, b_ptr, h_ptr, N: tl.constexpr):
    o = tl.arange(0, N)
    _, h = tl.associative_scan((tl.load(a_ptr + o), tl.load(b_ptr + o)), 0, _affine)
    tl.store(h_ptr + o, h)


def run(device):
    M, N = 8, 32
    g = torch.Generator().manual_seed(13)
    a = torch.randint(-2, 3, (M, N), generator=g, dtype=torch.int32)
    b = torch.randint(-7, 8, (M, N), generator=g, dtype=torch.int32)
    out = {k: torch.empty(M, N, dtype=torch.int32, device=device)
           for k in ("fwd_a", "fwd_b", "rev_a", "rev_b")}
    affine_2d[(1,)](a.to(device), b.to(device), out["fwd_a"], out["fwd_b"], out["rev_a"],
                    out["rev_b"], M=M, N=N)
    L = 1024
    la = torch.randint(0, 2, (L,), generator=g, dtype=torch.int32)
    lb = torch.randint(-3, 4, (L,), generator=g, dtype=torch.int32)
    out["recurrence"] = torch.empty(L, dtype=torch.int32, device=device)
    recurrence[(1,)](la.to(device), lb.to(device), out["recurrence"], N=L)
    return out
