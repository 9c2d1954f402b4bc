"""Blocks of rank 3: a batched tl.dot ([B, M, K] x [B, K, N]) in f32
(ieee), in f16 with an f32 result, and in f16 accumulated in f16
(out_dtype=tl.float16); loads and stores through rank-3 pointer blocks
built by [:, None, None] indexing; reductions along each of the three
dims (sum, max, min; keep_dims back into rank 3; argmax, whose ties
the quarter steps make likely, keep the first index as Triton's does).  The inputs are small
integers in quarter steps, so every f32 sum is exact whatever the order;
the f16 dots carry a tolerance (f16 accumulation rounds per instruction
on tensor cores)."""
import torch
import triton
import triton.language as tl

TOLERANCE = {"ulp": 0}
TOLERANCE_FOR = {"dot_f16_f16": {"rtol": 1e-2, "atol": 1e-2},
                 "dot_f16_f32": {"rtol": 1e-3, "atol": 1e-3}}

B, M, N, K = 2, 16, 16, 16


@triton.jit
def batched_dot(q, k, o, B: tl.constexpr, M: tl.constexpr, N: tl.constexpr,
                K: tl.constexpr, OUT: tl.constexpr):
    b = tl.arange(0, B)[:, None, None]
    qv = tl.load(q + b * M * K + tl.arange(0, M)[None, :, None] * K + tl.arange(0, K)[None, None, :])
    kv = tl.load(k + b * K * N + tl.arange(0, K)[None, :, None] * N + tl.arange(0, N)[None, None, :])
    r = tl.dot(qv, kv, input_precision="ieee", out_dtype=OUT)
    tl.store(o + b * M * N + tl.arange(0, M)[None, :, None] * N + tl.arange(0, N)[None, None, :], r)


@triton.jit
def reduce_axes(x, s0, m1, n2, k2, a1, A: tl.constexpr, B: tl.constexpr, C: tl.constexpr):
    ra, rb, rc = tl.arange(0, A), tl.arange(0, B), tl.arange(0, C)
    v = tl.load(x + ra[:, None, None] * B * C + rb[None, :, None] * C + rc[None, None, :])
    tl.store(s0 + rb[:, None] * C + rc[None, :], tl.sum(v, axis=0))
    tl.store(m1 + ra[:, None] * C + rc[None, :], tl.max(v, axis=1))
    tl.store(n2 + ra[:, None] * B + rb[None, :], tl.min(v, axis=-1))
    w = v - tl.max(v, axis=2, keep_dims=True)
    tl.store(k2 + ra[:, None, None] * B * C + rb[None, :, None] * C + rc[None, None, :], w)
    tl.store(a1 + ra[:, None] * C + rc[None, :], tl.argmax(v, axis=1))


def quarters(shape, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randint(-8, 8, shape, generator=g).to(torch.float32) / 4


def run(device):
    out = {}
    q, k = quarters((B, M, K), 1), quarters((B, K, N), 2)
    for name, dt, odt, tl_odt in (("dot_f32", torch.float32, torch.float32, tl.float32),
                                  ("dot_f16_f32", torch.float16, torch.float32, tl.float32),
                                  ("dot_f16_f16", torch.float16, torch.float16, tl.float16)):
        o = torch.zeros(B, M, N, dtype=odt, device=device)
        batched_dot[(1,)](q.to(dt).to(device), k.to(dt).to(device), o, B, M, N, K, tl_odt)
        out[name] = o
    A, Bd, C = 4, 8, 16
    x = quarters((A, Bd, C), 3).to(device)
    s0 = torch.zeros(Bd, C, device=device)
    m1 = torch.zeros(A, C, device=device)
    n2 = torch.zeros(A, Bd, device=device)
    k2 = torch.zeros(A, Bd, C, device=device)
    a1 = torch.zeros(A, C, dtype=torch.int32, device=device)
    reduce_axes[(1,)](x, s0, m1, n2, k2, a1, A, Bd, C)
    out.update({"sum_axis0": s0, "max_axis1": m1, "min_axis2": n2, "keep_dims": k2,
                "argmax_axis1": a1})
    return out
